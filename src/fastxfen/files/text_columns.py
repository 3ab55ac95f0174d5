"""Columns rendered as text, one string per row, for the writers of text
tables (csv_writer, json_lines): the pieces both use.

Each writer turns every column of a record batch into a string array
without nulls (its text for each row) with pyarrow's compute functions,
joins them row by row, and writes the data buffer of the result: no Python
object per row.  A batch whose text would not fit a string array's 32-bit
offsets is written in halves."""

from __future__ import annotations

import numpy as np

from fastxfen.files.errors import RunError
from fastxfen.files.tables import bool_array, require_pyarrow, text_array

#: The Arrow type families written as the text pyarrow casts them to.
_SCALAR_CHECKS = (
    "is_boolean",
    "is_integer",
    "is_floating",
    "is_decimal",
    "is_date",
    "is_time",
    "is_timestamp",
    "is_duration",
)


def is_text(kind) -> bool:
    """Whether ``kind`` is a string type (string, large_string, string_view)."""
    types = require_pyarrow().types
    view = getattr(types, "is_string_view", lambda _: False)
    return types.is_string(kind) or types.is_large_string(kind) or view(kind)


def is_scalar(kind) -> bool:
    """Whether ``kind`` is a type written as the text pyarrow casts it to
    (booleans, numbers, dates, times, timestamps, durations)."""
    types = require_pyarrow().types
    return any(getattr(types, name)(kind) for name in _SCALAR_CHECKS)


def refuse(where: str, column: str, kind, why: str) -> RunError:
    """The error of a column whose type a text format cannot hold."""
    return RunError(f"{where}: column {column!r} holds {kind}, which {why}")


def cast_text(array):
    """Each value as the text pyarrow casts it to (a float16 through
    float32, which every pyarrow casts); nulls stay null."""
    pa = require_pyarrow()
    if pa.types.is_float16(array.type):
        array = array.cast(pa.float32())
    return array.cast(pa.string())


def plain_strings(array):
    """A string column as a string (not large or view) array."""
    pa = require_pyarrow()
    return array if pa.types.is_string(array.type) else array.cast(pa.string())


def scalar(text: str):
    """``text`` as an Arrow string scalar.  (Built from buffers: pyarrow
    turns a Python str handed to a compute function into a scalar through
    pyarrow.scalar, which imports pandas.)"""
    return text_array([text])[0]


def flag(value: bool):
    """``value`` as an Arrow boolean scalar (built as ``scalar`` is)."""
    return bool_array(np.array([value]))[0]


_EMPTY = None


def join(*parts):
    """The row-by-row concatenation of ``parts`` (string arrays of one
    length, or scalars for the same text in every row)."""
    global _EMPTY
    if _EMPTY is None:
        _EMPTY = scalar("")
    return require_pyarrow().compute.binary_join_element_wise(*parts, _EMPTY)


def constant(text: str, n: int):
    """A string array of ``n`` times ``text``."""
    pa = require_pyarrow()
    data = text.encode()
    offsets = np.arange(n + 1, dtype=np.int32) * len(data)
    buffers = [None, pa.py_buffer(offsets), pa.py_buffer(data * n)]
    return pa.Array.from_buffers(pa.string(), n, buffers)


def offsets_of(array):
    """A list array's offsets as a numpy array (of its rows: a slice's own)."""
    pa = require_pyarrow()
    width = np.int64 if pa.types.is_large_list(array.type) else np.int32
    start = array.offset
    return np.frombuffer(array.buffers()[1], width)[start : start + len(array) + 1]


def data_of(rows):
    """The bytes of a string array without nulls, all rows end to end (its
    data buffer, not copied)."""
    rows = rows.combine_chunks() if hasattr(rows, "combine_chunks") else rows
    if not len(rows):
        return b""
    offsets = np.frombuffer(rows.buffers()[1], np.int32)
    start, end = offsets[rows.offset], offsets[rows.offset + len(rows)]
    return rows.buffers()[2][int(start) : int(end)]


def written_in_halves(render, batch) -> list:
    """``render(batch)`` (bytes of the batch's rows), as a list of pieces:
    the batch is cut in halves until each half's text fits the 32-bit
    offsets of a string array."""
    pa = require_pyarrow()
    try:
        return [render(batch)]
    except (pa.ArrowCapacityError, pa.ArrowInvalid) as exc:
        if batch.num_rows < 2 or not _overflow(exc):
            raise
    half = batch.num_rows // 2
    return written_in_halves(render, batch.slice(0, half)) + written_in_halves(
        render, batch.slice(half)
    )


def _overflow(exc) -> bool:
    text = str(exc).lower()
    return "overflow" in text or "capacity" in text or "exceed" in text


def numbers(array):
    """The values of an integer or float64 array as a numpy array, read
    from its buffer (a null's value is whatever the buffer holds)."""
    pa = require_pyarrow()
    kind = array.type
    if pa.types.is_floating(kind):
        dtype = np.dtype(f"f{kind.bit_width // 8}")
    else:
        dtype = np.dtype(f"{'i' if pa.types.is_signed_integer(kind) else 'u'}{kind.bit_width // 8}")
    start = array.offset
    return np.frombuffer(array.buffers()[1], dtype)[start : start + len(array)]


def holds(strings, characters: bytes, below: int = 0) -> bool:
    """Whether any string of ``strings`` holds one of the bytes
    ``characters`` or a byte under ``below`` (numpy passes over its data,
    a few milliseconds for 10 MB)."""
    data = strings.buffers()[2]
    if data is None or not len(strings):
        return False
    offsets = np.frombuffer(strings.buffers()[1], np.int32)
    start, end = offsets[strings.offset], offsets[strings.offset + len(strings)]
    view = np.frombuffer(data, np.uint8, int(end - start), int(start))
    if not len(view):
        return False
    if below and view.min() < below:
        return True
    return any((view == byte).any() for byte in characters)
