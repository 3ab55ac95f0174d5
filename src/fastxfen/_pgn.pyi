"""PGN scanning and output assembly for fastxfen.pgn (GIL released)."""

from typing import Any, Optional, Sequence

import numpy as np
import numpy.typing as npt

from fastxfen._options import ErrorsMode, PgnSelect

FEN_COLUMNS: tuple[str, ...]
KEEP: int

class Scan:
    n: int
    newlines: int
    header_end: int
    header_end_line: int
    inside: bool
    after_tag: bool
    starts: npt.NDArray[np.int64]
    start_lines: npt.NDArray[np.int64]
    fen: npt.NDArray[np.int64]
    setup_games: npt.NDArray[np.int64]
    odd_variant_games: npt.NDArray[np.int64]

def scan(
    text: Any,
    variants: Optional[Sequence[bytes]] = ...,
    *,
    inside: bool = ...,
    after_tag: bool = ...,
) -> Scan: ...
def edit(
    text: Any,
    *,
    cut: int,
    starts: npt.NDArray[np.int64],
    fen: npt.NDArray[np.int64],
    setup_games: npt.NDArray[np.int64],
    odd_variant_games: npt.NDArray[np.int64],
    failed_games: npt.NDArray[np.int64],
    rep: Optional[Any],
    rep_ends: Optional[npt.NDArray[Any]],
    select: PgnSelect,
    errors: ErrorsMode,
    stop: int,
) -> tuple[Optional[bytes], npt.NDArray[np.uint8], int, int, int]: ...
