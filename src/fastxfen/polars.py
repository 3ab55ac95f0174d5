"""The ``fen`` namespace for polars expressions and Series.

``import fastxfen.polars`` registers it: ``pl.col("fen").fen.normalize()``,
``.fen.validate()`` and ``.fen.zobrist()`` in eager and lazy queries (their
result types are declared, so a lazy query knows its schema before it runs),
and the same methods plus ``encode`` on a ``pl.Series``.  Columns go to the
kernels as Arrow and come back as Arrow.  See docs/dataframes.md.
"""

from __future__ import annotations

from typing import Any, Callable, Literal, Optional

try:
    import polars as pl
except ImportError:
    raise ImportError("fastxfen.polars needs polars: pip install 'fastxfen[polars]'") from None

import numpy as np
import numpy.typing as npt

from fastxfen import _api
from fastxfen._frames import on_series
from fastxfen.keys import KeyErrors, zobrist

__all__ = ["FenExpr", "FenSeries"]


def _normalize(series: pl.Series, threads: Optional[int], **options: Any) -> pl.Series:
    return on_series(_api.normalize, series, "text", threads=threads, **options)


def _validate(series: pl.Series, threads: Optional[int], epd: bool) -> pl.Series:
    return on_series(_api.validate, series, "messages", threads=threads, epd=epd)


def _zobrist(series: pl.Series, errors: KeyErrors, threads: Optional[int]) -> pl.Series:
    return on_series(zobrist, series, "keys", errors=errors, threads=threads)


@pl.api.register_expr_namespace("fen")
class FenExpr:
    """``Expr.fen``: fastxfen on a String column, in eager and lazy queries.

    Each method sees the whole column at once, so rows in errors are
    numbered from the column's first row.
    """

    def __init__(self, expr: pl.Expr) -> None:
        self._expr = expr

    def _map(self, fn: Callable[[pl.Series], pl.Series], dtype: Any) -> pl.Expr:
        return self._expr.map_batches(fn, return_dtype=dtype)

    def normalize(
        self,
        *,
        castling: _api.Castling = "xfen",
        en_passant: _api.EnPassant = "xfen",
        errors: _api.Errors = "raise",
        threads: Optional[int] = None,
        epd: bool = False,
    ) -> pl.Expr:
        """Canonical text (String), as ``fastxfen.normalize``; nulls stay null."""
        options = dict(castling=castling, en_passant=en_passant, errors=errors, epd=epd)
        return self._map(lambda s: _normalize(s, threads, **options), pl.String)

    def validate(self, *, threads: Optional[int] = None, epd: bool = False) -> pl.Expr:
        """Per row, null or ``"column C (field): reason"`` (String)."""
        return self._map(lambda s: _validate(s, threads, epd), pl.String)

    def zobrist(self, *, errors: KeyErrors = "raise", threads: Optional[int] = None) -> pl.Expr:
        """Position keys (UInt64), as ``fastxfen.zobrist``; nulls stay null."""
        return self._map(lambda s: _zobrist(s, errors, threads), pl.UInt64)


@pl.api.register_series_namespace("fen")
class FenSeries:
    """``Series.fen``: the methods of ``Expr.fen``, plus ``encode``."""

    def __init__(self, series: pl.Series) -> None:
        self._series = series

    def normalize(
        self,
        *,
        castling: _api.Castling = "xfen",
        en_passant: _api.EnPassant = "xfen",
        errors: _api.Errors = "raise",
        threads: Optional[int] = None,
        epd: bool = False,
    ) -> pl.Series:
        """Canonical text, as ``fastxfen.normalize``; nulls stay null."""
        options = dict(castling=castling, en_passant=en_passant, errors=errors, epd=epd)
        return _normalize(self._series, threads, **options)

    def validate(self, *, threads: Optional[int] = None, epd: bool = False) -> pl.Series:
        """Per row, null or ``"column C (field): reason"``."""
        return _validate(self._series, threads, epd)

    def encode(
        self,
        *,
        width: int = 8,
        errors: Literal["raise", "coerce"] = "raise",
        threads: Optional[int] = None,
        epd: bool = False,
    ) -> npt.NDArray[np.void]:
        """Records, as ``fastxfen.encode``: one numpy record per row, in order
        (the null record for a null)."""
        options = dict(width=width, errors=errors, epd=epd)
        return on_series(_api.encode, self._series, "records", threads=threads, **options)

    def zobrist(self, *, errors: KeyErrors = "raise", threads: Optional[int] = None) -> pl.Series:
        """Position keys (UInt64), as ``fastxfen.zobrist``; nulls stay null."""
        return _zobrist(self._series, errors, threads)
