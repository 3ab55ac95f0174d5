"""The public functions: find out what kind of input came in and send it to the
kernel for that kind.  No per-row work happens here."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Literal, Optional, Union, overload

import numpy as np
import numpy.typing as npt

from fastxfen import _bulk, _codec, _options
from fastxfen._columns import (
    arrow_batches,
    arrow_result,
    arrow_text,
    is_arrow,
    numpy_batch,
    numpy_result,
)
from fastxfen._errors import FenError
from fastxfen._records import record_dtype

__all__ = ["decode", "encode", "normalize", "validate"]

_BUFFERS = (bytes, bytearray, memoryview)

Castling = Literal["xfen", "shredder"]
EnPassant = Literal["fen", "xfen", "legal"]
Errors = Literal["raise", "coerce", "ignore"]
Output = Literal["list", "bytes", "arrow"]
Buffer = Union[bytes, bytearray, memoryview]


def _rows(fens: Iterable[Any]) -> list[Any]:
    """Inputs read row by row (the GIL held): lists, iterables, object arrays."""
    if isinstance(fens, np.ndarray):
        return fens.ravel().tolist()
    return fens if isinstance(fens, list) else list(fens)


def _list_batch(rows: list[Any], threads: Optional[int], epd: bool) -> Any:
    """A GIL-free batch for a list long enough to split over the threads
    asked for (its ASCII str rows copied into one buffer), or None to go row
    by row.  threads=None goes row by row: copying the rows in and building
    the strings out take the GIL, and on two cores they cost about what the
    second thread saves."""
    if epd or threads is None or len(rows) < 2 * _bulk.MIN_ROWS_PER_THREAD:
        return None
    if _bulk.jobs_for(len(rows), _options.kernel_threads(threads)) < 2:
        return None
    return _bulk.strings(rows)


def _check_rows(batch: Any, failed: list[int], check: Callable[[int], Any]) -> None:
    """errors="raise" for a list batch run in coerce mode: raise for the first
    refused row, whether the kernel or the row-by-row glue (``check``) read it."""
    first = failed[0] if failed else len(batch.texts)
    for i in batch.slow:
        if i > first:
            break
        check(i)
    batch.raise_first()


def _one_row(fn: Callable[..., Any], rows: list[Any], **options: Any) -> Callable[[int], Any]:
    """Row i through the row-by-row glue fn([row], **options), errors naming row i."""

    def one(i: int) -> Any:
        try:
            return fn([rows[i]], **options)[0]
        except FenError as e:
            raise FenError(i, e.column, e.field, e.reason) from None

    return one


def _batches(
    fens: Any, epd: bool, threads: Optional[int], count: bool = True
) -> Optional[list[Any]]:
    """Inputs read by the GIL-free kernels: one batch per buffer, numpy
    ``S``/``U`` array or Arrow chunk; None for every other input.  (EPD
    operations may hold any text, which the kernels' ASCII view of a ``U``
    array cannot carry: such arrays go row by row.)  A buffer's lines are
    counted up front unless count is False (normalize counts them itself)."""
    if isinstance(fens, _BUFFERS):
        return [_bulk.lines(fens, threads=_options.kernel_threads(threads), count=count)]
    if isinstance(fens, np.ndarray) and fens.dtype.kind in ("SU" if not epd else "S"):
        return [numpy_batch(fens, _options.kernel_threads(threads))]
    if is_arrow(fens):
        return arrow_batches(fens)
    return None


@overload
def normalize(
    fens: str,
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: Errors = ...,
    threads: Optional[int] = ...,
    epd: bool = ...,
) -> str: ...
@overload
def normalize(
    fens: Buffer,
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: Errors = ...,
    threads: Optional[int] = ...,
    epd: bool = ...,
) -> bytes: ...
@overload
def normalize(
    fens: np.ndarray,
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: Errors = ...,
    threads: Optional[int] = ...,
    epd: bool = ...,
) -> np.ndarray: ...
@overload
def normalize(
    fens: Iterable[str],
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: Errors = ...,
    threads: Optional[int] = ...,
    epd: bool = ...,
) -> Any: ...
def normalize(
    fens: Any,
    *,
    castling: Castling = "xfen",
    en_passant: EnPassant = "xfen",
    errors: Errors = "raise",
    threads: Optional[int] = None,
    epd: bool = False,
) -> Any:
    """Canonical text of positions.

    ``fens`` is one ``str`` (gives a ``str``), an iterable of ``str`` (a
    ``list``), a newline-separated ``bytes``-like buffer (``bytes``, same
    layout), a numpy array of ``str``, ``bytes`` or objects (same kind and
    shape) or a pyarrow string array (same type, nulls kept).

    ``threads=None`` splits batches of 131,072 rows or more over the cores,
    but reads a list (or other iterable) row by row; an int (at least 1)
    sets the number of threads, capped to the machine's CPUs.  The result
    does not depend on it.

    With ``epd=True`` rows are EPD: the four position fields, then operations
    (``bm Nf3; id "x";``) that are written back as they came; ``hmvc`` and
    ``fmvn`` operations give the counters ``encode`` stores.
    """
    _options.castling(castling)
    _options.en_passant(en_passant)
    _options.errors(errors)
    threads = _options.threads(threads)
    if isinstance(fens, str):
        return _codec.normalize_rows(
            [fens], castling=castling, en_passant=en_passant, errors=errors, epd=epd
        )[0]
    batches = _batches(fens, epd, threads, count=False)
    if batches is None:
        rows = _rows(fens)
        batch = _list_batch(rows, threads, epd)
        if batch is None:
            out = _codec.normalize_rows(
                rows, castling=castling, en_passant=en_passant, errors=errors, epd=epd
            )
        else:
            kernel = "coerce" if errors == "raise" else errors
            data, ends, failed = batch.normalize(
                castling=castling,
                en_passant=en_passant,
                errors=kernel,
                threads=_options.kernel_threads(threads),
                terminators=False,
            )
            one = _one_row(
                _codec.normalize_rows,
                rows,
                castling=castling,
                en_passant=en_passant,
                errors=errors,
            )
            if errors == "raise":
                _check_rows(batch, failed, one)
            out = _bulk.rows_from(rows, data, ends, failed, ignore=errors == "ignore", one=one)
        if not isinstance(fens, np.ndarray):
            return out
        if fens.dtype.kind == "O":  # same shape, None kept
            return np.array(out + [None], dtype=object)[:-1].reshape(fens.shape)
        texts = ["" if text is None else text for text in out]
        return np.array(texts, dtype=str if texts else fens.dtype).reshape(fens.shape)

    def run(batch: Any, offsets: Any = None, buffer: bool = False) -> Any:
        return batch.normalize(
            castling=castling,
            en_passant=en_passant,
            errors=errors,
            threads=_options.kernel_threads(threads),
            terminators=buffer,
            epd=epd,
            ends=not buffer,
            offsets=offsets,
        )

    if isinstance(fens, _BUFFERS):
        return run(batches[0], buffer=True)[0]
    if isinstance(fens, np.ndarray):
        return numpy_result(fens, run(batches[0]), errors, _options.kernel_threads(threads))
    return arrow_result(fens, run, errors)


def encode(
    fens: Any,
    *,
    width: int = 8,
    errors: Literal["raise", "coerce"] = "raise",
    threads: Optional[int] = None,
    epd: bool = False,
) -> npt.NDArray[np.void]:
    """Records of positions (dtype ``POSITION_DTYPE``, or ``POSITION_DTYPE_10x8``
    with ``width=10``); always a 1-d array, of length 1 for one ``str``."""
    _options.width(width)
    _options.record_errors(errors)
    threads = _options.threads(threads)
    if isinstance(fens, str):
        return _codec.encode_rows([fens], width=width, errors=errors, epd=epd)
    batches = _batches(fens, epd, threads)
    if batches is None:
        rows = _rows(fens)
        batch = _list_batch(rows, threads, epd)
        if batch is None:
            return _codec.encode_rows(rows, width=width, errors=errors, epd=epd)
        records = batch.encode(
            width=width, errors="coerce", threads=_options.kernel_threads(threads)
        )
        one = _one_row(_codec.encode_rows, rows, width=width, errors=errors)
        if errors == "raise":
            _check_rows(batch, batch.rejected_rows(), one)
        for i in batch.slow:
            records[i] = one(i)
        return records
    parts = [
        batch.encode(width=width, errors=errors, threads=_options.kernel_threads(threads), epd=epd)
        for batch in batches
    ]
    if len(parts) == 1:
        return parts[0]
    return np.concatenate(parts) if parts else np.empty(0, record_dtype(width))


@overload
def decode(
    records: Any,
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: Literal["raise", "coerce"] = ...,
    output: Literal["bytes"],
    threads: Optional[int] = ...,
) -> bytes: ...
@overload
def decode(
    records: Any,
    *,
    castling: Castling = ...,
    en_passant: EnPassant = ...,
    errors: Literal["raise", "coerce"] = ...,
    output: Output = ...,
    threads: Optional[int] = ...,
) -> Any: ...
def decode(
    records: Any,
    *,
    castling: Castling = "xfen",
    en_passant: EnPassant = "xfen",
    errors: Literal["raise", "coerce"] = "raise",
    output: Output = "list",
    threads: Optional[int] = None,
) -> Any:
    """Text of records (``POSITION_DTYPE`` or ``POSITION_DTYPE_10x8``, any
    shape, read in C order).

    ``output="list"``: a ``list`` of ``str`` (one ``str`` for a 0-d record),
    None for a record rejected under ``errors="coerce"``.  ``"bytes"``: one
    newline-terminated line per record, an empty line for a rejected one.
    ``"arrow"``: a pyarrow ``string`` array (``large_string`` once the text
    passes 2 GiB), null for a rejected record.  The ``bytes`` and ``arrow``
    outputs are written with the GIL released, over ``threads`` as for
    ``normalize``; a list is built row by row.
    """
    _options.castling(castling)
    _options.en_passant(en_passant)
    _options.record_errors(errors)
    _options.output(output)
    threads_asked = _options.kernel_threads(threads)
    if output == "list":
        return _codec.decode_records(
            records, castling=castling, en_passant=en_passant, errors=errors
        )
    batch = _bulk.records(np.ascontiguousarray(np.asarray(records).reshape(-1)))
    if output == "bytes":
        return batch.decode(
            castling=castling,
            en_passant=en_passant,
            errors=errors,
            threads=threads_asked,
            terminators=True,
            ends=False,
        )[0]
    wide = batch.output_bound() > np.iinfo(np.int32).max
    offsets = np.int64 if wide else np.int32
    result = batch.decode(
        castling=castling,
        en_passant=en_passant,
        errors=errors,
        threads=threads_asked,
        terminators=False,
        ends=True,
        offsets=offsets,
    )
    return arrow_text(result, errors)


@overload
def validate(fens: str, *, threads: Optional[int] = ..., epd: bool = ...) -> Optional[str]: ...
@overload
def validate(
    fens: Any, *, threads: Optional[int] = ..., epd: bool = ...
) -> list[Optional[str]]: ...
def validate(fens: Any, *, threads: Optional[int] = None, epd: bool = False) -> Any:
    """Per row, ``None`` or ``"column C (field): reason"``; one ``str`` in gives
    one answer, anything else a ``list``."""
    threads = _options.threads(threads)
    if isinstance(fens, str):
        return _codec.validate_rows([fens], epd=epd)[0]
    batches = _batches(fens, epd, threads)
    if batches is None:
        rows = _rows(fens)
        batch = _list_batch(rows, threads, epd)
        if batch is None:
            return _codec.validate_rows(rows, epd=epd)
        out = batch.validate(threads=_options.kernel_threads(threads))
        for i in batch.slow:
            out[i] = _codec.validate_rows([rows[i]])[0]
        return out
    kernel_threads = _options.kernel_threads(threads)
    return [m for batch in batches for m in batch.validate(threads=kernel_threads, epd=epd)]
