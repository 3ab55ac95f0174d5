"""pandas and polars Series in, the same kind of Series out.

A Series is read as Arrow when it can be, so the bulk kernels see one buffer
and no Python object is made per row: an Arrow-backed pandas column
(``str``, ``string[pyarrow]``, ``pd.ArrowDtype``) and every polars String
column are passed through as they are, and a pandas object column holding only
``str`` and missing values is copied into Arrow once.  Other object columns go
row by row, so an error names the row and the kind of value found.  Missing
values are nulls: they stay null (``None`` for ``validate``, the null record
for ``encode``).

pandas and polars are never imported here: a value can only be one of their
Series if the module is already loaded.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

import numpy as np

__all__ = ["is_series", "nullable_keys", "on_series"]


def _loaded_series(name: str) -> Any:
    module = sys.modules.get(name)
    return getattr(module, "Series", None) if module is not None else None


def is_series(obj: Any) -> bool:
    """Whether obj is a pandas or polars Series (without importing either)."""
    for name in ("pandas", "polars"):
        series = _loaded_series(name)
        if series is not None and isinstance(obj, series):
            return True
    return False


def _is_polars(series: Any) -> bool:
    kind = _loaded_series("polars")
    return kind is not None and isinstance(series, kind)


# ---------------------------------------------------------------- in


def _pandas_arrow(series: Any) -> Any:
    """The column as an Arrow chunked array, or None to go row by row."""
    import pandas as pd

    dtype = series.dtype
    if isinstance(dtype, pd.ArrowDtype):
        return series.array.__arrow_array__()
    if not _has_pyarrow():
        return None
    if isinstance(dtype, pd.StringDtype):  # zero copy with pyarrow storage
        return series.array.__arrow_array__()
    if not _is_object(dtype):
        return None
    if pd.api.types.infer_dtype(series, skipna=True) not in ("string", "empty"):
        return None
    import pyarrow as pa

    values = series.to_numpy(dtype=object)
    return pa.chunked_array([pa.array(values, type=pa.large_string(), from_pandas=True)])


def _is_object(dtype: Any) -> bool:
    return isinstance(dtype, np.dtype) and dtype.kind == "O"


def _has_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def _rows(series: Any) -> list[Any]:
    """The rows of a column read row by row; a pandas string column's
    missing values (``pd.NA``, NaN) become ``None``."""
    rows = series.tolist()
    if _is_polars(series) or not _is_string(series.dtype):
        return rows
    missing = series.isna().to_numpy()
    return [None if gone else row for row, gone in zip(rows, missing)]


def _is_string(dtype: Any) -> bool:
    import pandas as pd

    return isinstance(dtype, pd.StringDtype)


def _polars_arrow(series: Any) -> Any:
    import polars as pl

    if series.dtype != pl.String:
        raise TypeError(
            f"expected a polars String column, got {series.dtype} (column {series.name!r})"
        )
    return series.to_arrow()


# ---------------------------------------------------------------- out


def _pandas(series: Any, out: str, result: Any, arrow: Any) -> Any:
    """The pandas form of a result, with the input's index and name."""
    import pandas as pd

    keep = {"index": series.index, "name": series.name}
    text = out in ("text", "messages")
    if text and (arrow is not None or _is_string(series.dtype)) and not _is_object(series.dtype):
        return pd.Series(pd.array(result, dtype=series.dtype), **keep)
    if out == "text" and arrow is not None:
        return pd.Series(result.to_numpy(zero_copy_only=False), dtype=object, **keep)
    if out == "keys" and isinstance(result, tuple):
        keys, missing = result
        return pd.Series(pd.arrays.IntegerArray(keys, missing), **keep)
    if out == "keys":
        return pd.Series(result, **keep)
    return pd.Series(result, dtype=object, **keep)


def _polars(series: Any, out: str, result: Any) -> Any:
    """The polars form of a result, with the input's name."""
    import polars as pl

    if out == "keys" and isinstance(result, tuple):
        import pyarrow as pa

        keys, missing = result
        return pl.from_arrow(pa.array(keys, mask=missing)).alias(series.name)
    if out == "keys":
        return pl.Series(series.name, result, dtype=pl.UInt64)
    if out == "messages":
        return pl.Series(series.name, result, dtype=pl.String)
    return pl.from_arrow(result).alias(series.name)


# ---------------------------------------------------------------- both


def on_series(fn: Callable[..., Any], series: Any, out: str, **options: Any) -> Any:
    """``fn(column, **options)`` for a pandas or polars Series.

    ``out`` names what fn gives: ``"text"`` (normalize) and ``"messages"``
    (validate) come back as a Series of the input's kind, index and name
    (pandas: the input's dtype, or object; polars: String), ``"keys"``
    (zobrist) as a uint64 Series (nullable where the input has nulls) and
    ``"records"`` (encode) as the numpy records, one per row in order.
    """
    polars = _is_polars(series)
    arrow = _polars_arrow(series) if polars else _pandas_arrow(series)
    column = arrow if arrow is not None else _rows(series)
    result = nullable_keys(fn, column, **options) if out == "keys" else fn(column, **options)
    if out == "records":
        return result
    return _polars(series, out, result) if polars else _pandas(series, out, result, arrow)


def nullable_keys(zobrist: Callable[..., Any], column: Any, **options: Any) -> Any:
    """``zobrist(column, **options)`` for an Arrow column or a list: the
    uint64 keys, or (keys, missing mask) when the column has missing values
    (nulls, ``None``), whose keys are 0."""
    keys = zobrist(column, **options)
    if isinstance(column, list):
        missing = np.fromiter((row is None for row in column), bool, len(column))
    else:
        missing = column.is_null().to_numpy(zero_copy_only=False)
    return (keys, missing) if missing.any() else keys
