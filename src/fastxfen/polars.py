"""The ``fen`` namespace for polars expressions and Series.

``import fastxfen.polars`` registers it: ``pl.col("fen").fen.normalize()``,
``.fen.validate()``, ``.fen.encode()``, ``.fen.zobrist()`` (every option of
the functions of the same name, with the same defaults), ``.fen.key()``,
``.fen.is_first_distinct()`` and ``.fen.is_last_distinct()`` in eager and
lazy queries (their result types are declared, so a lazy query knows its
schema before it runs), and the same methods on a ``pl.Series``, plus
``unique``.  Columns go to the kernels as Arrow and come back as Arrow.
See docs/dataframes.md.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

try:
    import polars as pl
except ImportError:
    raise ImportError("fastxfen.polars needs polars: pip install 'fastxfen[polars]'") from None

import numpy as np
import numpy.typing as npt

from fastxfen import _prepared
from fastxfen._frames import records_binary
from fastxfen._types import EnPassant, RecordErrors, Width

__all__ = ["FenExpr", "FenSeries"]

Run = Callable[[pl.Series], pl.Series]


def _binary(**options: Any) -> Run:
    """encode's records as a Binary column (null for the null record)."""
    run = _prepared.encode(**options)

    def binary(series: pl.Series) -> pl.Series:
        return pl.from_arrow(records_binary(run(series))).alias(series.name)

    return binary


def _distinct(last: bool, **options: Any) -> Run:
    """True at the first (or last) row of each distinct position; False
    for a row that holds none (missing, or bad under errors="coerce")."""
    key = _prepared.key(**options)

    def mask(series: pl.Series) -> pl.Series:
        keys = key(series)
        first = keys.is_last_distinct() if last else keys.is_first_distinct()
        return (first & keys.is_not_null()).alias(series.name)

    return mask


class _Methods(_prepared.Methods):
    """The methods of both namespaces: those of every integration, and the
    first or last row of each position."""

    def is_first_distinct(
        self,
        *,
        counters: bool = False,
        en_passant: EnPassant = "xfen",
        errors: RecordErrors = "raise",
        threads: Optional[int] = None,
    ) -> Any:
        """True at the first row of each distinct position, as
        ``fastxfen.unique`` finds them (Boolean; ``filter`` on it keeps one
        row per position); False for a null, which holds no position (and
        for a bad row under ``errors="coerce"``)."""
        options = dict(counters=counters, en_passant=en_passant, errors=errors, threads=threads)
        return self._apply(_distinct(False, **options), "mask")

    def is_last_distinct(
        self,
        *,
        counters: bool = False,
        en_passant: EnPassant = "xfen",
        errors: RecordErrors = "raise",
        threads: Optional[int] = None,
    ) -> Any:
        """True at the last row of each distinct position (Boolean); False
        for a null, as ``is_first_distinct``."""
        options = dict(counters=counters, en_passant=en_passant, errors=errors, threads=threads)
        return self._apply(_distinct(True, **options), "mask")


#: The polars type of each kind of result.
_DTYPES = {"text": pl.String, "keys": pl.UInt64, "mask": pl.Boolean, "binary": pl.Binary}


@pl.api.register_expr_namespace("fen")
class FenExpr(_Methods):
    """``Expr.fen``: fastxfen on a String (Categorical, Enum, Null) column,
    in eager and lazy queries.

    Each method declares its result type (String, UInt64, Boolean, Binary)
    and sees the whole column at once, so rows in errors are numbered from
    the column's first row; options are checked when the expression is made.
    """

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    def _apply(self, run: Run, result: str) -> pl.Expr:
        return self._expr.map_batches(run, return_dtype=_DTYPES[result])

    def encode(
        self,
        *,
        width: Width = 8,
        errors: RecordErrors = "raise",
        threads: Optional[int] = None,
        epd: bool = False,
    ) -> pl.Expr:
        """Records, as ``fastxfen.encode``, each as its bytes (Binary: 80
        bytes a record, 96 with ``width=10``); null for a null, and for a bad
        row under ``errors="coerce"``."""
        return self._apply(_binary(width=width, errors=errors, threads=threads, epd=epd), "binary")


@pl.api.register_series_namespace("fen")
class FenSeries(_Methods):
    """``Series.fen``: the methods of ``Expr.fen`` on a Series (``encode``
    gives the numpy records), plus ``unique``."""

    def __init__(self, series: pl.Series) -> None:
        self._series = series

    def _apply(self, run: Run, result: str) -> pl.Series:
        return run(self._series)

    def encode(
        self,
        *,
        width: Width = 8,
        errors: RecordErrors = "raise",
        threads: Optional[int] = None,
        epd: bool = False,
        out: Optional[npt.NDArray[np.void]] = None,
    ) -> npt.NDArray[np.void]:
        """Records, as ``fastxfen.encode``: one numpy record per row, in order
        (the null record for a null)."""
        run = _prepared.encode(width=width, errors=errors, threads=threads, epd=epd, out=out)
        return run(self._series)

    def unique(
        self,
        *,
        counters: bool = False,
        en_passant: EnPassant = "xfen",
        errors: RecordErrors = "raise",
        threads: Optional[int] = None,
    ) -> pl.Series:
        """The first row of each distinct position, as ``fastxfen.unique``
        finds them: the rows as they are, in order; nulls (and bad rows
        under ``errors="coerce"``) left out."""
        options = dict(counters=counters, en_passant=en_passant, errors=errors, threads=threads)
        return self._series.filter(_distinct(False, **options)(self._series))
