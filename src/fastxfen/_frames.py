"""pandas and polars Series in, the same kind of Series out.

A Series is read as Arrow when it can be, so the bulk kernels see one buffer
and no Python object is made per row: pandas string columns (``str``,
``string[python]``, ``string[pyarrow]``, ``pd.ArrowDtype`` of a string or
dictionary type), categoricals of ``str``, object columns holding only
``str`` and missing values, and polars String, Categorical, Enum and Null
columns.  Any other column goes row by row, so an error names the row and
the kind of value found.  Whatever the dtype, a missing value (what pandas'
``isna`` calls missing, a polars null) is a null: it stays null (``None``
for ``validate``, the null record for ``encode``).

pandas and polars are never imported here: a value can only be one of their
Series if the module is already loaded.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

import numpy as np

__all__ = ["column_of", "is_series", "nullable_keys", "on_series", "records_binary"]


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


def column_of(series: Any) -> Any:
    """The rows of a pandas or polars Series as the kernels read them: an
    Arrow array or chunked array of strings, or a list (``None`` where a
    value is missing)."""
    if _is_polars(series):
        return _polars_arrow(series)
    arrow = _pandas_arrow(series)
    return arrow if arrow is not None else _rows(series)


def _pandas_arrow(series: Any) -> Any:
    """The column as Arrow strings, or None to go row by row."""
    import pandas as pd

    dtype = series.dtype
    if isinstance(dtype, pd.ArrowDtype):
        return _arrow_text(series.array.__arrow_array__())
    if not _has_pyarrow():
        return None
    import pyarrow as pa

    if isinstance(dtype, pd.StringDtype):  # zero copy with pyarrow storage
        return series.array.__arrow_array__()
    if isinstance(dtype, pd.CategoricalDtype):
        if not _only_str(dtype.categories):
            return None
        return _arrow_text(pa.chunked_array([pa.array(series.array, from_pandas=True)]))
    if not _is_object(dtype) or not _only_str(series):
        return None
    values = series.to_numpy(dtype=object)
    return pa.chunked_array([pa.array(values, type=pa.large_string(), from_pandas=True)])


def _only_str(values: Any) -> bool:
    """Whether pandas values are str and missing values only."""
    import pandas as pd

    return pd.api.types.infer_dtype(values, skipna=True) in ("string", "empty")


def _arrow_text(column: Any) -> Any:
    """An Arrow column of strings, of dictionary-encoded strings (decoded)
    or of nulls only (as strings); None for any other type."""
    import pyarrow as pa

    kind = column.type
    if pa.types.is_dictionary(kind) and _is_text(kind.value_type):
        return column.cast(kind.value_type)
    if pa.types.is_null(kind):
        return column.cast(pa.large_string())
    return column if _is_text(kind) else None


def _is_text(kind: Any) -> bool:
    import pyarrow as pa

    view = getattr(pa.types, "is_string_view", lambda _: False)
    return pa.types.is_string(kind) or pa.types.is_large_string(kind) or view(kind)


def _is_object(dtype: Any) -> bool:
    return isinstance(dtype, np.dtype) and dtype.kind == "O"


def _has_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def _rows(series: Any) -> list[Any]:
    """The rows of a pandas column read row by row, ``None`` where pandas
    calls a value missing (``None``, NaN, ``pd.NA``, ``NaT``)."""
    rows = series.tolist()
    missing = series.isna().to_numpy()
    if not missing.any():
        return rows
    return [None if gone else row for row, gone in zip(rows, missing)]


def _polars_arrow(series: Any) -> Any:
    import polars as pl

    if series.dtype == pl.String:
        return series.to_arrow()
    if series.dtype in (pl.Categorical, pl.Enum, pl.Null):
        return series.cast(pl.String).to_arrow()
    raise TypeError(
        "expected a polars String, Categorical, Enum or Null column, "
        f"got {series.dtype} (column {series.name!r})"
    )


# ---------------------------------------------------------------- out


def _keeps_dtype(dtype: Any) -> bool:
    """Whether text results take the input's dtype: pandas string dtypes
    and Arrow string types (other columns give object)."""
    import pandas as pd

    if isinstance(dtype, pd.StringDtype):
        return True
    return isinstance(dtype, pd.ArrowDtype) and _is_text(dtype.pyarrow_dtype)


def _pandas(series: Any, out: str, result: Any) -> Any:
    """The pandas form of a result, with the input's index and name."""
    import pandas as pd

    keep = {"index": series.index, "name": series.name}
    if out in ("text", "messages") and _keeps_dtype(series.dtype):
        return pd.Series(pd.array(result, dtype=series.dtype), **keep)
    if out == "keys" and isinstance(result, tuple):
        keys, missing = result
        return pd.Series(pd.arrays.IntegerArray(keys, missing), **keep)
    if out == "keys":
        return pd.Series(result, **keep)
    if hasattr(result, "to_numpy"):  # Arrow text
        result = result.to_numpy(zero_copy_only=False)
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
    if isinstance(result, list):
        return pl.Series(series.name, result, dtype=pl.String)
    return pl.from_arrow(result).cast(pl.String).alias(series.name)


# ---------------------------------------------------------------- both


def on_series(fn: Callable[[Any], Any], series: Any, out: str) -> Any:
    """``fn(column)`` for a pandas or polars Series (``column_of``).

    ``out`` names what fn gives: ``"text"`` (normalize) and ``"messages"``
    (validate) come back as a Series of the input's kind, index and name
    (pandas: the input's dtype if it is a string dtype, else object;
    polars: String), ``"keys"`` (zobrist: fn gives ``nullable_keys``) as a uint64
    Series (nullable where the input has missing values) and ``"records"``
    (encode) as the numpy records, one per row in order.
    """
    result = fn(column_of(series))
    if out == "records":
        return result
    return _polars(series, out, result) if _is_polars(series) else _pandas(series, out, result)


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


def records_binary(records: np.ndarray) -> Any:
    """Records as an Arrow binary column, each value one record's bytes
    (80 or 96), null for the null record (a missing or coerced row).  The
    records' memory is shared, not copied."""
    import pyarrow as pa

    records = np.ascontiguousarray(records)
    n, size = len(records), records.dtype.itemsize
    offsets = np.arange(0, (n + 1) * size, size, dtype=np.int64)
    missing = records["width"] == 0  # only the null record has width 0
    validity, nulls = None, int(missing.sum())
    if nulls:
        validity = pa.py_buffer(np.packbits(~missing, bitorder="little"))
    data = pa.py_buffer(records.view(np.uint8).reshape(-1))
    buffers = [validity, pa.py_buffer(offsets), data]
    return pa.Array.from_buffers(pa.large_binary(), n, buffers, null_count=nulls)
