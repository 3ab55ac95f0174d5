"""The ``Series.fen`` accessor for pandas.

``import fastxfen.pandas`` registers it; then ``s.fen.normalize()``,
``s.fen.validate()``, ``s.fen.encode()`` and ``s.fen.zobrist()`` take every
option of the functions of the same name, with the same defaults, and
``s.fen.key()``, ``s.fen.duplicated()`` and ``s.fen.unique()`` tell
positions apart as ``fastxfen.unique`` does.  String columns (``str``,
``string[pyarrow]``, ``pd.ArrowDtype(pa.string())``, categoricals of
``str``) are read as Arrow, with no Python object per row.  See
docs/dataframes.md.
"""

from __future__ import annotations

from typing import Literal, Optional

try:
    import pandas as pd
except ImportError:
    raise ImportError("fastxfen.pandas needs pandas: pip install 'fastxfen[pandas]'") from None

import numpy as np
import numpy.typing as npt

from fastxfen import _prepared
from fastxfen._types import EnPassant, RecordErrors, Width

__all__ = ["FenAccessor"]

Keep = Literal["first", "last", False]


@pd.api.extensions.register_series_accessor("fen")
class FenAccessor(_prepared.Methods):
    """``Series.fen``: fastxfen on a column of FEN text.

    ``normalize``, ``validate``, ``zobrist`` and ``key`` give a Series with
    the input's index and name (text in the input's string dtype, else
    object; keys ``uint64``, or ``UInt64`` with missing values).  Rows in
    errors are numbered by position (0 for the first row), not by index
    label.  Missing values (whatever ``isna`` calls missing) stay missing.
    """

    def __init__(self, series: pd.Series) -> None:
        self._series = series

    def _apply(self, run: _prepared.Run, result: str) -> pd.Series:
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
        """Records, as ``fastxfen.encode``: a numpy array with one record per row,
        in order (the index is not kept; a missing value gives the null
        record)."""
        run = _prepared.encode(width=width, errors=errors, threads=threads, epd=epd, out=out)
        return run(self._series)

    def duplicated(
        self,
        *,
        keep: Keep = "first",
        counters: bool = False,
        en_passant: EnPassant = "xfen",
        errors: RecordErrors = "raise",
        threads: Optional[int] = None,
    ) -> pd.Series:
        """A bool Series, True where a row holds a position another row
        holds too, as ``Series.duplicated``: ``keep="first"`` marks all but
        the first row of each position, ``"last"`` all but the last,
        ``False`` all of them.  A missing row (or a bad one under
        ``errors="coerce"``) holds no position: False."""
        if keep not in ("first", "last") and keep is not False:
            raise ValueError(f"keep must be 'first', 'last' or False, not {keep!r}")
        key = self.key(counters=counters, en_passant=en_passant, errors=errors, threads=threads)
        return _holding(key, key.duplicated(keep=keep))

    def unique(
        self,
        *,
        counters: bool = False,
        en_passant: EnPassant = "xfen",
        errors: RecordErrors = "raise",
        threads: Optional[int] = None,
    ) -> pd.Series:
        """The first row of each distinct position, as ``fastxfen.unique``
        finds them: the rows as they are (dtype, index and name kept), in
        order.  Missing rows (and bad ones under ``errors="coerce"``) hold
        no position and are left out."""
        key = self.key(counters=counters, en_passant=en_passant, errors=errors, threads=threads)
        first = _holding(key, ~key.duplicated(keep="first"))
        return self._series[first.to_numpy()]


def _holding(key: pd.Series, mask: pd.Series) -> pd.Series:
    """``mask`` where a row has a key, False where it has none."""
    values = mask.to_numpy(dtype=bool) & key.notna().to_numpy()
    return pd.Series(values, index=key.index, name=key.name)
