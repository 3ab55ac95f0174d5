"""The public functions: find out what kind of input came in and send it to the
kernel for that kind.  No per-row work happens here."""

from __future__ import annotations

from typing import Any, Iterable, Literal, Optional, Union, overload

import numpy as np
import numpy.typing as npt

from fastxfen import _bulk, _codec
from fastxfen._columns import arrow_batches, arrow_result, is_arrow, numpy_batch, numpy_result
from fastxfen._records import record_dtype

__all__ = ["decode", "encode", "normalize", "validate"]

_BUFFERS = (bytes, bytearray, memoryview)

Castling = Literal["xfen", "shredder"]
EnPassant = Literal["fen", "xfen", "legal"]
Errors = Literal["raise", "coerce", "ignore"]
Buffer = Union[bytes, bytearray, memoryview]


def _threads(threads: Optional[int]) -> int:
    if threads is None:
        return 0  # auto: one thread per MIN_ROWS_PER_THREAD rows, up to the cores
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive int or None, not {threads!r}")
    return threads


def _rows(fens: Iterable[Any]) -> list[Any]:
    return fens if isinstance(fens, list) else list(fens)


@overload
def normalize(
    fens: str,
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: Errors = ...,
    threads: Optional[int] = ...,
) -> str: ...
@overload
def normalize(
    fens: Buffer,
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: Errors = ...,
    threads: Optional[int] = ...,
) -> bytes: ...
@overload
def normalize(
    fens: np.ndarray,
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: Errors = ...,
    threads: Optional[int] = ...,
) -> np.ndarray: ...
@overload
def normalize(
    fens: Iterable[str],
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: Errors = ...,
    threads: Optional[int] = ...,
) -> Any: ...
def normalize(
    fens: Any,
    *,
    castling: Castling = "xfen",
    en_passant: EnPassant = "xfen",
    errors: Errors = "raise",
    threads: Optional[int] = None,
) -> Any:
    """Canonical text of positions.

    ``fens`` is one ``str`` (gives a ``str``), an iterable of ``str`` (a
    ``list``), a newline-separated ``bytes``-like buffer (``bytes``, same
    layout), a numpy array of ``str``, ``bytes`` or objects (same kind and
    shape) or a pyarrow string array (same type, nulls kept).
    """
    if isinstance(fens, str):
        return _codec.normalize_rows([fens], castling, en_passant, errors)[0]
    if isinstance(fens, _BUFFERS):
        data, _, _ = _bulk.lines(fens).normalize(
            castling, en_passant, errors, _threads(threads), True
        )
        return data
    if isinstance(fens, np.ndarray):
        if fens.dtype.kind == "O":
            out = _codec.normalize_rows(fens.ravel().tolist(), castling, en_passant, errors)
            return np.array(out + [None], dtype=object)[:-1].reshape(fens.shape)
        batch = numpy_batch(fens)
        result = batch.normalize(castling, en_passant, errors, _threads(threads), False)
        return numpy_result(fens, result, errors)
    if is_arrow(fens):
        return arrow_result(
            fens,
            lambda batch: batch.normalize(castling, en_passant, errors, _threads(threads), False),
            errors,
        )
    return _codec.normalize_rows(_rows(fens), castling, en_passant, errors)


def encode(
    fens: Any,
    *,
    width: int = 8,
    errors: Literal["raise", "coerce"] = "raise",
    threads: Optional[int] = None,
) -> npt.NDArray[np.void]:
    """Records of positions (dtype ``POSITION_DTYPE``, or ``POSITION_DTYPE_10x8``
    with ``width=10``); always a 1-d array, of length 1 for one ``str``."""
    if width not in (8, 10) or isinstance(width, bool):
        raise ValueError(f"width must be 8 or 10, not {width!r}")
    if isinstance(fens, str):
        return _codec.encode_rows([fens], width, errors)
    if isinstance(fens, _BUFFERS):
        return _bulk.lines(fens).encode(width, errors, _threads(threads))
    if isinstance(fens, np.ndarray) and fens.dtype.kind in "SU":
        return numpy_batch(fens).encode(width, errors, _threads(threads))
    if isinstance(fens, np.ndarray):
        return _codec.encode_rows(fens.ravel().tolist(), width, errors)
    if is_arrow(fens):
        parts = [batch.encode(width, errors, _threads(threads)) for batch in arrow_batches(fens)]
        return np.concatenate(parts) if parts else np.empty(0, record_dtype(width))
    return _codec.encode_rows(_rows(fens), width, errors)


def decode(
    records: Any,
    *,
    castling: Castling = "xfen",
    en_passant: EnPassant = "xfen",
    errors: Literal["raise", "coerce"] = "raise",
) -> Any:
    """Text of records; a ``list`` (one ``str`` for a 0-d record)."""
    return _codec.decode_records(records, castling, en_passant, errors)


@overload
def validate(fens: str, *, threads: Optional[int] = ...) -> Optional[str]: ...
@overload
def validate(fens: Any, *, threads: Optional[int] = ...) -> list[Optional[str]]: ...
def validate(fens: Any, *, threads: Optional[int] = None) -> Any:
    """Per row, ``None`` or ``"column C (field): reason"``; one ``str`` in gives
    one answer, anything else a ``list``."""
    if isinstance(fens, str):
        return _codec.validate_rows([fens])[0]
    if isinstance(fens, _BUFFERS):
        return _bulk.lines(fens).validate(_threads(threads))
    if isinstance(fens, np.ndarray) and fens.dtype.kind in "SU":
        return numpy_batch(fens).validate(_threads(threads))
    if isinstance(fens, np.ndarray):
        return _codec.validate_rows(fens.ravel().tolist())
    if is_arrow(fens):
        return [m for batch in arrow_batches(fens) for m in batch.validate(_threads(threads))]
    return _codec.validate_rows(_rows(fens))
