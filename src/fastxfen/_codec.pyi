"""Row-by-row glue of the C core (lists of str, records)."""

from typing import Any

import numpy as np
import numpy.typing as npt

E_WIDE_ROW: int

def normalize_rows(
    rows: list[Any],
    *,
    castling: str,
    en_passant: str,
    errors: str,
    epd: bool = ...,
    fields: int | str = ...,
) -> list[Any]: ...
def validate_rows(rows: list[Any], *, epd: bool = ...) -> list[str | None]: ...
def encode_rows(
    rows: list[Any], *, width: int, errors: str, epd: bool = ...
) -> npt.NDArray[np.void]: ...
def decode_records(
    records: Any, *, castling: str, en_passant: str, errors: str, fields: int = ...
) -> Any: ...
def copy_rows(rows: list[str]) -> list[str]: ...
def reader_info() -> dict[str, Any]: ...
