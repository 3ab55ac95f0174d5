"""GIL-free key kernels: Zobrist keys of records and the exact set of
distinct positions (used by fastxfen.keys)."""

from typing import Any, Iterable

import numpy as np
import numpy.typing as npt

from fastxfen._options import ErrorsMode, KeyOptions

POLYGLOT_KEYS: npt.NDArray[np.uint64]
WIDE_KEYS: npt.NDArray[np.uint64]
PACKED_MAX: int

def zobrist(
    recs: npt.NDArray[np.void], *, trusted: bool, errors: ErrorsMode
) -> npt.NDArray[np.uint64]: ...

class Table:
    rows: int
    def __init__(self, options: KeyOptions, *, key_mask: int = ...) -> None: ...
    @property
    def count(self) -> int: ...
    @property
    def nbytes(self) -> int: ...
    def add(
        self,
        recs: npt.NDArray[np.void],
        *,
        trusted: bool = ...,
        errors: ErrorsMode = ...,
    ) -> npt.NDArray[np.bool_]: ...
    def add_chunks(
        self, chunks: Iterable[tuple[int, npt.NDArray[np.void], bool]], errors: ErrorsMode
    ) -> list[npt.NDArray[np.bool_]]: ...

def kept_lines(data: Any, mask: npt.NDArray[np.bool_]) -> bytes: ...
