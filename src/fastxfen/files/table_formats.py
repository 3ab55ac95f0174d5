"""The table formats a run knows, by name and by file extension: the one
place a new table format is added (``register``, or a line below).

A format (tables.TableFormat) brings its reader and writer; the commands
then read its column of positions, pass every other column through and
write rejects for it as for any table."""

from __future__ import annotations

import os

from fastxfen.files import arrow_tables, codecs, training_tables
from fastxfen.files.errors import RunError
from fastxfen.files.tables import TableFormat

#: Every table format by name, in the order the command line lists them.
FORMATS: dict = {}
#: The format each extension names.
_BY_EXTENSION: dict = {}


def register(kind: TableFormat) -> TableFormat:
    """Make ``kind`` known by its name and extensions (a later format with
    the same name or extension takes its place)."""
    FORMATS[kind.name] = kind
    for extension in kind.extensions:
        _BY_EXTENSION[extension.lower()] = kind.name
    return kind


for _kind in (*arrow_tables.FORMATS, *training_tables.FORMATS):
    register(_kind)


def names() -> tuple:
    """The names of the table formats."""
    return tuple(FORMATS)


def _extension(path: str | None) -> str:
    """A file name's extension, a compression extension such as .gz looked
    past ("" for stdio and for a name without one)."""
    if codecs.is_stdio(path):
        return ""
    base = os.path.splitext(path)[0] if codecs.compression(path) else path
    return os.path.splitext(base)[1].lower()


def format_by_name(path: str | None) -> str | None:
    """The table format a file name's extension names (a compression
    extension such as .gz looked past), or None."""
    return _BY_EXTENSION.get(_extension(path))


def input_format(path: str | None, given: str | None) -> str:
    """ "text" or the table format of the input: ``given``, else its
    extension."""
    return given or format_by_name(path) or "text"


def output_format(path: str | None, given: str | None, input_kind: str) -> str:
    """The table format of the output: ``given``, else the output's
    extension, else (stdout, a name without an extension) the input's
    format; a RunError for an extension that names no table format."""
    if given:
        return given
    extension = _extension(path)
    if not extension:
        return input_kind
    if extension not in _BY_EXTENSION:
        known = "; ".join(f"{name} {' '.join(kind.extensions)}" for name, kind in FORMATS.items())
        raise RunError(
            f"OUT {path}: {extension} is no table format ({known}); give OUT one of "
            "these extensions (a compression extension may follow), or --output-format"
        )
    return _BY_EXTENSION[extension]


def checked(kind: str, schema, path) -> str:
    """``kind``, once the format's ``check`` finds every column of
    ``schema`` writable (else a RunError naming the column and its type)."""
    check = FORMATS[kind].check
    if check is not None:
        check(schema, f"OUT {'<stdout>' if codecs.is_stdio(path) else path}")
    return kind


def table_writer(output, kind: str, schema):
    """A writer of format ``kind`` onto ``output``."""
    table = FORMATS[kind]
    if table.compresses_inside and output.kind is not None:
        raise RunError(
            f"{output.name}: {kind} compresses inside; write it without a compression extension"
        )
    return table.writer(output, schema)
