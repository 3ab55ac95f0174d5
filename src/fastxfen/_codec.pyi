"""Row-by-row glue of the C core (lists of str, records)."""

from typing import Any

import numpy as np
import numpy.typing as npt

from fastxfen._options import ErrorsMode, RecordOptions, TextOptions

E_WIDE_ROW: int

def normalize_rows(rows: list[Any], *, text: TextOptions, errors: ErrorsMode) -> list[Any]: ...
def validate_rows(rows: list[Any], *, epd: bool = ...) -> list[str | None]: ...
def encode_rows(
    rows: list[Any], *, records: RecordOptions, errors: ErrorsMode
) -> npt.NDArray[np.void]: ...
def decode_records(records: Any, *, text: TextOptions, errors: ErrorsMode) -> Any: ...
def reader_info() -> dict[str, Any]: ...
