"""The ``Series.fen`` accessor for pandas.

``import fastxfen.pandas`` registers it; then ``s.fen.normalize()``,
``s.fen.validate()``, ``s.fen.encode()`` and ``s.fen.zobrist()`` take the
options of the functions of the same name.  Arrow-backed string columns
(``str``, ``string[pyarrow]``, ``pd.ArrowDtype(pa.string())``) are read as
Arrow, with no Python object per row.  See docs/dataframes.md.
"""

from __future__ import annotations

from typing import Literal, Optional

try:
    import pandas as pd
except ImportError:
    raise ImportError("fastxfen.pandas needs pandas: pip install 'fastxfen[pandas]'") from None

import numpy as np
import numpy.typing as npt

from fastxfen import _api
from fastxfen._frames import on_series
from fastxfen.keys import KeyErrors, zobrist

__all__ = ["FenAccessor"]


@pd.api.extensions.register_series_accessor("fen")
class FenAccessor:
    """``Series.fen``: fastxfen on a column of FEN text.

    Results keep the Series' index and name; rows in errors are numbered
    by position (0 for the first row), not by index label.  Missing values
    stay missing.
    """

    def __init__(self, series: pd.Series) -> None:
        self._series = series

    def normalize(
        self,
        *,
        castling: _api.Castling = "xfen",
        en_passant: _api.EnPassant = "xfen",
        errors: _api.Errors = "raise",
        threads: Optional[int] = None,
        epd: bool = False,
    ) -> pd.Series:
        """Canonical text, as ``fastxfen.normalize``: a Series of the same dtype
        (object columns give object)."""
        options = dict(castling=castling, en_passant=en_passant, errors=errors, epd=epd)
        return on_series(_api.normalize, self._series, "text", threads=threads, **options)

    def validate(self, *, threads: Optional[int] = None, epd: bool = False) -> pd.Series:
        """Per row, missing or ``"column C (field): reason"``, as
        ``fastxfen.validate``."""
        return on_series(_api.validate, self._series, "messages", threads=threads, epd=epd)

    def encode(
        self,
        *,
        width: int = 8,
        errors: Literal["raise", "coerce"] = "raise",
        threads: Optional[int] = None,
        epd: bool = False,
    ) -> npt.NDArray[np.void]:
        """Records, as ``fastxfen.encode``: a numpy array with one record per row,
        in order (the index is not kept; a missing value gives the null
        record)."""
        options = dict(width=width, errors=errors, epd=epd)
        return on_series(_api.encode, self._series, "records", threads=threads, **options)

    def zobrist(self, *, errors: KeyErrors = "raise", threads: Optional[int] = None) -> pd.Series:
        """Position keys, as ``fastxfen.zobrist``: a ``uint64`` Series
        (``UInt64``, missing where the input is missing, if it has missing
        values)."""
        return on_series(zobrist, self._series, "keys", errors=errors, threads=threads)
