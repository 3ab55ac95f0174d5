"""GIL-free training-data kernels: the move generator, position status,
and the .binpack, .bin and .plain readers and writers (used by
fastxfen.training)."""

from typing import Any

import numpy as np
import numpy.typing as npt

CHAIN_HEAD: int
BLOCK_LIMIT: int
BLOCK_CUT: int
BIN_SIZE: int
COLUMNS: tuple[str, ...]
ENTRY_SIZE: int

class Failure:
    code: int
    field: int
    entry: int
    a: int
    b: int
    offset: int
    chain: int
    value: int
    position_error: Any

def legal_moves(fen: str | bytes, chess960: bool = ...) -> list[str]: ...
def perft(fen: str | bytes, depth: int) -> int: ...
def status_spans(
    data: Any,
    starts: npt.NDArray[np.int64],
    ends: npt.NDArray[np.int64],
    chess960: bool,
    epd: bool = ...,
) -> tuple[npt.NDArray[np.uint32], dict[int, Any]]: ...

class Spec:
    columns: tuple[str, ...]
    def __init__(
        self, columns: Any, castling: str = ..., en_passant: str = ..., reuse: bool = ...
    ) -> None: ...

class BinpackBlock:
    done: bool
    chains: int
    def __init__(self, data: Any) -> None: ...
    def read(self, spec: Spec, max_n: int) -> tuple[dict[str, Any], int, Failure | None, bool]: ...

class Chains:
    def __init__(self, first: int = ...) -> None: ...

def read_bin(
    data: Any, spec: Spec, chains: Chains, max_n: int
) -> tuple[dict[str, Any], int, Failure | None]: ...
def read_plain(
    data: Any, final: bool, spec: Spec, chains: Chains, max_n: int
) -> tuple[dict[str, Any], int, int, int, Failure | None]: ...
def spread(data: Any, offsets: npt.NDArray[np.int32], width: int) -> npt.NDArray[np.bytes_]: ...

class Table:
    n: int
    def __init__(
        self,
        n: int,
        fen: tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]] | None = ...,
        records: npt.NDArray[np.void] | None = ...,
        uci: tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]] | None = ...,
        sfmove: npt.NDArray[np.uint16] | None = ...,
        score: npt.NDArray[np.int64] | None = ...,
        ply: npt.NDArray[np.int64] | None = ...,
        result: npt.NDArray[np.int64] | None = ...,
        missing: npt.NDArray[np.uint8] | None = ...,
        entries: npt.NDArray[np.uint8] | None = ...,
    ) -> None: ...

def check_offsets(offsets: npt.NDArray[np.int64], size: int) -> None: ...

class BinpackWriter:
    def __init__(self) -> None: ...
    def add(self, table: Table, start: int) -> tuple[int, int, Failure | None]: ...
    def take(self) -> memoryview: ...
    def finish(self) -> None: ...

BIN_ROW: int
PLAIN_ROW: int

def write_rows(
    table: Table, start: int, out: npt.NDArray[np.uint8], fmt: str
) -> tuple[memoryview, int, Failure | None]: ...
