"""The first occurrence of each position, chunk after chunk: ``dedupe`` and
normalize's ``unique``.  Sameness is fastxfen.Deduper's (docs/keys.md):
placement, side to move, castling rights and en-passant target, the move
counters too with ``counters``; keys only find candidates, positions are
compared whole, so no two positions are merged by a key collision."""

from __future__ import annotations

import numpy as np

from fastxfen import _keys
from fastxfen._options import ErrorsMode, KeyOptions


class Unique:
    """The positions seen so far (a Deduper's table); the duplicates dropped
    are counted in ``stats.duplicates``."""

    def __init__(self, keys: KeyOptions, stats) -> None:
        self.table = _keys.Table(keys)
        self.stats = stats
        stats.duplicates = 0

    def keep(self, records: np.ndarray, kept: np.ndarray | None = None) -> np.ndarray:
        """Mask of the rows to write: the first occurrence of each position
        among ``records`` (a null record holds none), or True in ``kept``
        (rows written whatever they hold).  The records come fresh from
        encode (width 10, one flat array), so they are not checked again."""
        before = self.table.count
        mask = self.table.add(records, trusted=True, errors=ErrorsMode.RAISE)
        held = int(np.count_nonzero(records["width"]))
        self.stats.duplicates += held - (self.table.count - before)
        if kept is not None:
            mask |= kept
        return mask

    def write(self, output, data, records, upto: int, passed: list) -> None:
        """Write the lines of ``data`` among its first ``upto`` that hold a
        first occurrence (``records``, one per line) or are in ``passed``
        (rejected rows written unchanged under --errors ignore); take the
        others off ``stats.written``."""
        kept = None
        if passed:
            kept = np.zeros(upto, bool)
            kept[[row for row in passed if row < upto]] = True
        mask = self.keep(records[:upto], kept)
        self.stats.written -= upto - int(np.count_nonzero(mask))
        output.write(_keys.kept_lines(data, mask))

    @property
    def nbytes(self) -> int:
        """Bytes held for the distinct positions."""
        return self.table.nbytes
