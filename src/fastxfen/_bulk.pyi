"""Batches of rows for the GIL-free kernels, and their results back."""

from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from fastxfen._errors import FenError
from fastxfen._options import ErrorsMode, RecordOptions, TextOptions

MIN_ROWS_PER_THREAD: int
ROW_BYTES: int

class Batch:
    n: int
    base: int
    texts: Any
    slow: list[int]
    def normalize(
        self,
        text: TextOptions,
        errors: ErrorsMode,
        *,
        threads: int,
        terminators: bool,
        ends: bool = ...,
        offsets: type[np.int32] | type[np.int64] | None = ...,
        into: bytearray | None = ...,
        fit: bool = ...,
    ) -> tuple[
        bytes | bytearray | memoryview,
        npt.NDArray[np.int64] | npt.NDArray[np.int32] | None,
        list[int],
    ]: ...
    def normalize_cells(
        self, text: TextOptions, errors: ErrorsMode, *, threads: int, chars: int
    ) -> npt.NDArray[np.bytes_] | None: ...
    def decode(
        self,
        text: TextOptions,
        errors: ErrorsMode,
        *,
        threads: int,
        terminators: bool,
        ends: bool = ...,
        offsets: type[np.int32] | type[np.int64] | None = ...,
        missing: bool = ...,
    ) -> tuple[bytes, npt.NDArray[np.int64] | npt.NDArray[np.int32] | None, list[int]]: ...
    def output_bound(self) -> int: ...
    def encode(
        self,
        records: RecordOptions,
        errors: ErrorsMode,
        *,
        threads: int,
        out: npt.NDArray[np.void] | None = ...,
    ) -> npt.NDArray[np.void]: ...
    def validate(self, *, threads: int, epd: bool = ...) -> list[str | None]: ...
    def rejections(self) -> list[tuple[int, FenError]]: ...
    def rows_reckoned(self) -> int: ...
    def rejected_rows(self) -> list[int]: ...
    def raise_first(self) -> None: ...

MIN_BYTES_PER_THREAD: int

def text_bound(size: int) -> int: ...
def lines(buffer: Any, *, threads: int = ..., count: bool = ...) -> Batch: ...
def spans(data: Any, starts: Any, ends: Any, nulls: Any = ...) -> Batch: ...
def offsets(data: Any, offsets: npt.NDArray[Any], nulls: Any = ...) -> Batch: ...
def from_fixed_width(array: npt.NDArray[Any]) -> Batch: ...
def strings(rows: list[Any]) -> Batch: ...
def records(array: npt.NDArray[np.void]) -> Batch: ...
def rows_from(
    rows: list[Any],
    data: Any,
    ends: npt.NDArray[np.int64],
    failed: list[int],
    *,
    ignore: bool,
    one: Callable[[int], Any],
) -> list[Any]: ...
def longest_row(ends: npt.NDArray[np.int64]) -> int: ...
def to_fixed_width(
    data: Any,
    ends: Any,
    chars: int,
    *,
    ucs4: bool = ...,
    threads: int = ...,
    out: npt.NDArray[Any] | None = ...,
) -> npt.NDArray[Any]: ...
