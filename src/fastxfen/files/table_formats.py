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


def format_by_name(path: str | None) -> str | None:
    """The table format a file name's extension names (a compression
    extension such as .gz looked past), or None."""
    if codecs.is_stdio(path):
        return None
    base = os.path.splitext(path)[0] if codecs.compression(path) else path
    return _BY_EXTENSION.get(os.path.splitext(base)[1].lower())


def input_format(path: str | None, given: str | None) -> str:
    """ "text" or the table format of the input: ``given``, else its
    extension."""
    return given or format_by_name(path) or "text"


def output_format(path: str | None, given: str | None, input_kind: str) -> str:
    """The table format of the output: ``given``, else the output's
    extension, else the input's format."""
    return given or format_by_name(path) or input_kind


def table_writer(output, kind: str, schema):
    """A writer of format ``kind`` onto ``output``."""
    table = FORMATS[kind]
    if table.compresses_inside and output.kind is not None:
        raise RunError(
            f"{output.name}: {kind} compresses inside; write it without a compression extension"
        )
    return table.writer(output, schema)
