"""The kind of an input, found once: every public function switches on it
rather than asking the input's type again.

pandas, polars and pyarrow are never imported here: a value can only be one
of their objects if the module is already loaded.
"""

from __future__ import annotations

import enum
from typing import Any

import numpy as np

from fastxfen._columns import is_arrow
from fastxfen._frames import is_series
from fastxfen._records import is_records
from fastxfen._types import BUFFERS

__all__ = [
    "ARRAY",
    "ARROW",
    "BUFFER",
    "FIXED",
    "RECORDS",
    "ROWS",
    "SERIES",
    "STR",
    "Kind",
    "as_text",
    "kind_of",
    "read_as_text",
    "rows_of",
]


class Kind(enum.Enum):
    """What an input is, as the functions that read it tell them apart."""

    STR = "one str"
    SERIES = "a pandas or polars Series"
    BUFFER = "bytes, bytearray or memoryview holding one row per line"
    FIXED = "a numpy S or U array, read in place by the bulk kernels"
    ARROW = "a pyarrow array or chunked array"
    RECORDS = "records: a numpy array or numpy.void of a record dtype"
    ARRAY = "any other numpy array, read row by row (objects)"
    ROWS = "a list, tuple or other iterable, read row by row"


# The kinds as module names, which the code switching on them reads (an
# Enum's attribute takes over ten times as long to read as a global).
STR, SERIES, BUFFER, FIXED = Kind.STR, Kind.SERIES, Kind.BUFFER, Kind.FIXED
ARROW, RECORDS, ARRAY, ROWS = Kind.ARROW, Kind.RECORDS, Kind.ARRAY, Kind.ROWS


def kind_of(x: Any) -> Kind:
    """The kind of ``x``."""
    if isinstance(x, str):
        return STR
    if isinstance(x, BUFFERS):
        return BUFFER
    if is_records(x):
        return RECORDS
    if isinstance(x, np.ndarray):
        return FIXED if x.dtype.kind in "SU" else ARRAY
    if is_series(x):
        return SERIES
    if is_arrow(x):
        return ARROW
    if not hasattr(x, "__iter__"):
        raise TypeError(
            "expected positions: a str, a list or other iterable of str, a buffer, "
            f"a numpy array, a pandas or polars Series or an Arrow array; got {type(x).__name__}"
        )
    return ROWS


def as_text(kind: Kind, x: Any, epd: bool = False) -> Kind:
    """The kind ``x`` (of kind ``kind``) is read as when it holds rows of
    text: records are rows like any other items (each refused as not text),
    and under ``epd`` a numpy ``U`` array is read row by row (operations may
    hold any text, which the kernels' one-byte view of its characters cannot
    carry)."""
    if kind is STR:
        return kind
    if kind is RECORDS:
        return ARRAY if isinstance(x, np.ndarray) else ROWS
    if kind is FIXED and epd and x.dtype.kind == "U":
        return ARRAY
    return kind


def read_as_text(x: Any, epd: bool = False) -> Kind:
    """``as_text(kind_of(x), x, epd)``."""
    if isinstance(x, str):  # one row: the most frequent call, first
        return STR
    return as_text(kind_of(x), x, epd)


def rows_of(x: Any) -> list[Any]:
    """The rows of an input read row by row (kinds ARRAY and ROWS): a list
    as it is, a numpy array's items in C order, any other iterable read once."""
    if isinstance(x, np.ndarray):
        return x.ravel().tolist()
    return x if isinstance(x, list) else list(x)


def shares_memory(x: Any, out: Any) -> bool:
    """Whether an ``out=`` array may share memory with the input ``x`` (a
    numpy array or a buffer, which the kernels read while they write)."""
    if out is x:
        return True
    if isinstance(x, np.ndarray):
        return bool(np.may_share_memory(x, out))
    if isinstance(x, BUFFERS):
        return bool(np.may_share_memory(np.asarray(memoryview(x)), out))
    return False
