"""The types of a CSV or TSV table's columns.

pyarrow reads every column as text (an unquoted empty field null, a quoted
one the empty string, in every column: a missing position is an empty
field); the column of positions stays text.  Every other column gets, from
the rows of the
first record batch (the first block of ``chunk_size`` bytes), the first
type of TYPES that writes each of its values back as the same text
(``1487`` an int64, ``0075`` text): a CSV written from a CSV then holds the
same fields, and a Parquet file gets numbers.  ``--column-types`` gives a
column its type instead (``*`` names every other column).

A later value that the column's type does not write back the same, or
cannot hold, stops the run with a RunError naming its row and column: a
type never changes within a table."""

from __future__ import annotations

import re

import numpy as np

from fastxfen.files.errors import RunError
from fastxfen.files.tables import find_column, numpy_mask, require_pyarrow
from fastxfen.files.text_columns import cast_text, flag

#: The types a column may get from its first rows, in the order tried.
TYPES = ("int64", "double", "bool", "date32", "timestamp[s]")

_DECIMAL = re.compile(r"decimal(128|256)?\((\d+),\s*(-?\d+)\)$")
_TIMESTAMP = re.compile(r"timestamp\[(s|ms|us|ns),\s*tz=([^\]]+)\]$")


def arrow_type(text: str):
    """The Arrow type a name gives: pyarrow's names (int32, float64, string,
    bool, date32, timestamp[ms], ...), decimal128(P,S), decimal256(P,S) and
    timestamp[UNIT, tz=ZONE]; a ValueError for another name."""
    pa = require_pyarrow()
    name = text.strip()
    decimal = _DECIMAL.match(name)
    if decimal:
        kind = pa.decimal256 if decimal.group(1) == "256" else pa.decimal128
        return kind(int(decimal.group(2)), int(decimal.group(3)))
    zoned = _TIMESTAMP.match(name)
    if zoned:
        return pa.timestamp(zoned.group(1), tz=zoned.group(2).strip())
    try:
        return pa.type_for_alias(name)
    except (ValueError, KeyError):
        raise ValueError(
            f"{text!r} is no column type (try int32, int64, float64, string, bool, "
            "date32, timestamp[ms], decimal128(10,2))"
        ) from None


def column_types(given) -> tuple:
    """``given`` (a mapping, pairs, or 'NAME=TYPE,NAME=TYPE') as a tuple of
    (name, type name) pairs, each type checked; a ValueError otherwise."""
    if isinstance(given, str):
        given = [_pair(item) for item in _items(given)]
    elif hasattr(given, "items"):
        given = list(given.items())
    pairs = tuple((str(name), str(kind)) for name, kind in given)
    names = [name for name, _ in pairs]
    for name, kind in pairs:
        if not name or names.count(name) > 1:
            raise ValueError(f"column types: {name!r} is named {'twice' if name else 'empty'}")
        arrow_type(kind)
    return pairs


def _items(text: str) -> list:
    """'A=int32,B=decimal128(10,2)' split at the commas outside brackets."""
    items, depth, start = [], 0, 0
    for at, char in enumerate(text):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "," and depth == 0:
            items.append(text[start:at])
            start = at + 1
    items.append(text[start:])
    return [item for item in items if item.strip()]


def _pair(item: str) -> tuple:
    name, sep, kind = item.partition("=")
    if not sep:
        raise ValueError(f"column types: {item!r} is not NAME=TYPE")
    return name.strip(), kind.strip()


class CsvTypes:
    """The typed record batches of a CSV read as text: ``schema`` and
    ``batches(first, rest)``."""

    def __init__(self, reader, text_schema, first) -> None:
        pa = require_pyarrow()
        self.reader = reader
        self.position = find_column(text_schema, reader.column)
        given = dict(reader.column_types)
        default = given.pop("*", None)
        names = text_schema.names
        for name in given:
            if name not in names:
                raise RunError(
                    f"--column-types names no column {name!r}; its columns: {', '.join(names)}"
                )
        if names[self.position] in given:
            raise RunError(
                f"--column-types: {names[self.position]!r} is the column of positions, "
                "always read as text"
            )
        self.given = set(given) | (set(names) - {names[self.position]} if default else set())
        types = []
        for k, name in enumerate(names):
            if k == self.position:
                types.append(pa.string())
            elif name in given or default:
                types.append(arrow_type(given.get(name, default)))
            else:
                types.append(_inferred(None if first is None else first.column(k)))
        self.schema = pa.schema([pa.field(n, t) for n, t in zip(names, types)])
        self.rows = 0

    def batches(self, first, rest):
        """The batches, typed (``first`` None: the table has no rows)."""
        if first is not None:
            yield self.typed(first)
        for batch in rest:
            yield self.typed(batch)

    def typed(self, batch):
        pa = require_pyarrow()
        columns = []
        for k, field in enumerate(self.schema):
            text = batch.column(k)
            if pa.types.is_string(field.type):
                columns.append(text)
            else:
                columns.append(self._column(text, field))
        self.rows += batch.num_rows
        return pa.RecordBatch.from_arrays(columns, schema=self.schema)

    def _column(self, text, field):
        """The text column as ``field``'s type; a RunError at its first row
        that the type cannot hold (or, for an inferred type, does not write
        back as the same text)."""
        pa = require_pyarrow()
        given = field.name in self.given
        try:
            typed = text.cast(field.type)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            typed, row = None, _first_uncast(text, field.type)
        else:
            if given:
                return typed
            row = _first_changed(text, typed)
            if row is None:
                return typed
        value = text[row].as_py()
        if given:
            why = f"cannot be read as {field.type} (--column-types)"
        elif typed is None:
            why = f"is no {field.type}, the type the column's first rows gave it"
        else:
            written = cast_text(typed.slice(row, 1))[0].as_py()
            why = (
                f"would be written back as {written!r} by {field.type}, the type the "
                "column's first rows gave it"
            )
        raise RunError(
            f"cannot read {self.reader.name} as {self.reader.kind}: row {self.rows + row + 1}, "
            f"column {field.name!r}: {value!r} {why}; give the column its type with "
            f"--column-types '{field.name}=string' (or another type)"
        )


def _inferred(text):
    """The first type of TYPES that writes every value of ``text`` (the
    first rows of a column) back as the same text; string if none does, or
    the column has no value."""
    pa = require_pyarrow()
    if text is None or text.null_count == len(text):
        return pa.string()
    for name in TYPES:
        kind = pa.type_for_alias(name)
        try:
            typed = text.cast(kind)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            continue
        if _first_changed(text, typed) is None:
            return kind
    return pa.string()


def _first_changed(text, typed):
    """The first row whose value ``typed`` writes as other text, or None."""
    pc = require_pyarrow().compute
    same = pc.fill_null(pc.equal(cast_text(typed), text), flag(True))
    if pc.all(same).as_py():
        return None
    return int(np.flatnonzero(~numpy_mask(same))[0])


def _first_uncast(text, kind) -> int:
    """The first row of ``text`` that cannot be cast to ``kind`` (halves
    cast until one row is left)."""
    pa = require_pyarrow()
    start, size = 0, len(text)
    while size > 1:
        half = size // 2
        try:
            text.slice(start, half).cast(kind)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            size = half
        else:
            start, size = start + half, size - half
    return start
