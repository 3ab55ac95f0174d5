"""GIL-free export kernels: records to bitboards, plane tensors and packed
formats, and back (used by fastxfen.export)."""

from typing import Any

import numpy as np
import numpy.typing as npt

from fastxfen._options import EnPassantMode, ErrorsMode, PlaneOptions

EXTRAS: tuple[str, ...]
EXTRA_PLANES: dict[str, int]
MAX_EXTRA: int
LICHESS_MAX: int
LICHESS_READ_MAX: int
STOCKFISH_SIZE: int
FRAME_NULL: int

class Defaults:
    def __init__(
        self,
        n: int,
        turn: npt.NDArray[np.uint8] | None = ...,
        files: npt.NDArray[np.uint8] | None = ...,
        flags: bytes | None = ...,
        ep: npt.NDArray[np.uint8] | None = ...,
        halfmove: npt.NDArray[np.uint32] | None = ...,
        fullmove: npt.NDArray[np.uint32] | None = ...,
    ) -> None: ...

def plane_count(width: int, extra: tuple[str, ...]) -> int: ...
def bitboards(
    recs: npt.NDArray[np.void],
    *,
    trusted: bool,
    errors: ErrorsMode,
    out: npt.NDArray[np.uint64],
    failures: list[Any] | None = ...,
) -> npt.NDArray[np.uint64]: ...
def planes(
    recs: npt.NDArray[np.void],
    spec: PlaneOptions,
    *,
    trusted: bool,
    errors: ErrorsMode,
    out: npt.NDArray[Any],
    failures: list[Any] | None = ...,
    hint: str | None = ...,
) -> npt.NDArray[Any]: ...
def stockfish_pack(
    recs: npt.NDArray[np.void],
    *,
    trusted: bool,
    en_passant: EnPassantMode,
    errors: ErrorsMode,
    out: npt.NDArray[np.uint8],
    failures: list[Any] | None = ...,
) -> npt.NDArray[np.uint8]: ...
def lichess_pack(
    recs: npt.NDArray[np.void],
    *,
    trusted: bool,
    en_passant: EnPassantMode,
    errors: ErrorsMode,
    failures: list[Any] | None = ...,
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64], npt.NDArray[np.bool_] | None]: ...
def from_bitboards(
    bb: npt.NDArray[np.uint64],
    defaults: Defaults,
    *,
    errors: ErrorsMode,
    failures: list[Any] | None = ...,
) -> npt.NDArray[np.void]: ...
def from_planes(
    tensors: npt.NDArray[Any],
    defaults: Defaults,
    spec: PlaneOptions,
    *,
    errors: ErrorsMode,
    failures: list[Any] | None = ...,
) -> npt.NDArray[np.void]: ...
def lichess_unpack(
    data: Any,
    starts: npt.NDArray[np.int64],
    ends: npt.NDArray[np.int64],
    nulls: npt.NDArray[np.uint8] | None,
    *,
    errors: ErrorsMode,
    failures: list[Any] | None = ...,
    first_row: int = ...,
) -> npt.NDArray[np.void]: ...
def check_spans(
    data: Any,
    starts: npt.NDArray[np.int64],
    ends: npt.NDArray[np.int64],
    nulls: npt.NDArray[np.uint8] | None = ...,
    base: int = ...,
) -> None: ...
def stockfish_unpack(
    rows: npt.NDArray[np.uint8],
    defaults: Defaults,
    *,
    errors: ErrorsMode,
    failures: list[Any] | None = ...,
) -> npt.NDArray[np.void]: ...
def lichess_frames(
    data: Any, max_n: int
) -> tuple[
    npt.NDArray[np.int64] | None, npt.NDArray[np.int64] | None, npt.NDArray[np.uint8] | None, int
]: ...
