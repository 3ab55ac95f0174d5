"""Each kind of input's way through the kernels, for normalize, encode and
validate.  The public functions (``_api``, ``keys``, ``export``) build the
option values and find the input's kind once; the functions here take both
and switch on the kind.  No per-row work happens here."""

from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np

from fastxfen import _bulk, _codec, _legality
from fastxfen._columns import (
    arrow_batches,
    arrow_result,
    numpy_batch,
    numpy_result,
    text_scratch,
)
from fastxfen._errors import raise_by_rerun
from fastxfen._frames import on_series
from fastxfen._inputs import (
    ARRAY,
    BUFFER,
    FIXED,
    ROWS,
    SERIES,
    STR,
    Kind,
    read_as_text,
    rows_of,
    shares_memory,
)
from fastxfen._jobs import jobs_for
from fastxfen._options import ErrorsMode, RecordOptions, TextOptions, Threads
from fastxfen._records import record_dtype

__all__ = ["encode", "normalize", "validate"]

# ---------------------------------------------------------------- shared


def _batches(fens: Any, kind: Kind, threads: Threads, count: bool = True) -> list[Any]:
    """The GIL-free kernels' batches of a buffer (its lines counted up front
    unless ``count`` is False), a numpy S/U array or an Arrow column (one
    per chunk)."""
    if kind is BUFFER:
        return [_bulk.lines(fens, threads=threads.kernel, count=count)]
    if kind is FIXED:
        return [numpy_batch(fens)]
    return arrow_batches(fens)


def _list_batch(rows: list[Any], threads: Threads, epd: bool) -> Any:
    """A GIL-free batch for a list long enough to split over the threads
    asked for (its ASCII str rows read where they are), or None to go row
    by row.  threads=None goes row by row: gathering the rows and building
    the strings out take the GIL, and on two cores they cost about what the
    second thread saves."""
    if epd or threads.asked is None or len(rows) < 2 * _bulk.MIN_ROWS_PER_THREAD:
        return None
    if jobs_for(len(rows), threads.kernel) < 2:
        return None
    return _bulk.strings(rows)


def _refused(batch: Any, failed: list[int]) -> list[int]:
    """The rows of a list batch run under coerce that may hold the first bad
    row: those the kernel left to the row-by-row glue (``batch.slow``) up to
    the first it refused, then that one."""
    first = failed[0] if failed else batch.n
    return [i for i in batch.slow if i < first] + failed[:1]


def _on_series(run: Callable[..., Any], fens: Any, out: str, epd: bool) -> Any:
    """``run(column, kind)`` on the Arrow column (or the rows) of a Series,
    the result as ``fastxfen._frames.on_series`` gives it back."""
    return on_series(lambda column: run(column, read_as_text(column, epd)), fens, out)


# ---------------------------------------------------------------- normalize


def normalize(
    fens: Any, kind: Kind, text: TextOptions, errors: ErrorsMode, threads: Threads, out: Any
) -> Any:
    """normalize() of ``fens`` of this kind (``read_as_text``; one str goes
    straight to the glue), ``out`` checked."""
    if kind is SERIES:

        def column(values: Any, kind: Kind) -> Any:
            return normalize(values, kind, text, errors, threads, None)

        return _on_series(column, fens, "text", text.epd)
    if kind in (ROWS, ARRAY):
        texts = _normalize_list(rows_of(fens), text, errors, threads)
        return _text_array(fens, texts, out) if kind is ARRAY else texts
    if kind is BUFFER:
        return _normalize_buffer(fens, text, errors, threads, out)
    if kind is FIXED:
        batch = numpy_batch(fens)
        if out is None and fens.dtype.kind == "S":
            # straight into cells of the input's width, unless a row outgrows it
            cells = batch.normalize_cells(text, errors, threads=threads.kernel, chars=fens.itemsize)
            if cells is not None:
                return cells.reshape(fens.shape)
        into = text_scratch(batch.output_bound())
        result = _normalized(batch, text, errors, threads, into=into)
        try:
            return numpy_result(fens, result, errors, threads=threads.kernel, out=out)
        finally:
            if isinstance(result[0], memoryview):
                result[0].release()

    def arrow_chunk(batch: Any, offsets: Any) -> Any:
        return _normalized(batch, text, errors, threads, offsets=offsets)

    return arrow_result(fens, arrow_chunk, errors)


def _normalized(
    batch: Any,
    text: TextOptions,
    errors: ErrorsMode,
    threads: Threads,
    *,
    buffer: bool = False,
    offsets: Any = None,
    into: Any = None,
    fit: bool = False,
) -> Any:
    """A batch's text: (data, ends or Arrow offsets, failed rows); with
    ``buffer``, lines with their own terminators and no ends."""
    return batch.normalize(
        text,
        errors,
        threads=threads.kernel,
        terminators=buffer,
        ends=not buffer,
        offsets=offsets,
        into=into,
        fit=fit,
    )


def _normalize_buffer(
    fens: Any, text: TextOptions, errors: ErrorsMode, threads: Threads, out: Any
) -> Any:
    """A buffer's lines, each keeping its terminator: bytes, or written into
    the bytearray ``out`` (resized within its memory, kept for the next call)."""
    batch = _bulk.lines(fens, threads=threads.kernel, count=False)
    if out is None:
        return _normalized(batch, text, errors, threads, buffer=True)[0]
    return _normalized(batch, text, errors, threads, buffer=True, into=out, fit=True)[0]


def _normalize_list(
    rows: list[Any], text: TextOptions, errors: ErrorsMode, threads: Threads
) -> list[Any]:
    """A list's text, row by row (the GIL held), or over threads for a long
    list (``_normalize_threaded``)."""
    batch = _list_batch(rows, threads, text.epd)
    if batch is None:
        return _codec.normalize_rows(rows, text=text, errors=errors)
    return _normalize_threaded(rows, batch, text, errors, threads)


def _normalize_threaded(
    rows: list[Any], batch: Any, text: TextOptions, errors: ErrorsMode, threads: Threads
) -> list[Any]:
    """A long list over threads: its ASCII str rows read where they are by
    the GIL-free kernels, under coerce for errors="raise" (then the first bad
    row is run again alone for its error); the rows they leave (other
    items) row by row."""
    kernel = ErrorsMode.COERCE if errors is ErrorsMode.RAISE else errors
    data, ends, failed = batch.normalize(text, kernel, threads=threads.kernel, terminators=False)

    def one(row: Any) -> Any:
        return _codec.normalize_rows([row], text=text, errors=errors)[0]

    if errors is ErrorsMode.RAISE:
        raise_by_rerun(one, rows, _refused(batch, failed))
    return _bulk.rows_from(
        rows, data, ends, failed, ignore=errors is ErrorsMode.IGNORE, one=lambda i: one(rows[i])
    )


def _text_array(fens: np.ndarray, texts: list[Any], out: Any) -> np.ndarray:
    """The text of a numpy array read row by row, as an array of its shape:
    of objects for objects (None kept), else of str (a coerced row empty),
    or written into ``out``."""
    if fens.dtype.kind == "O":
        return np.array(texts + [None], dtype=object)[:-1].reshape(fens.shape)
    texts = ["" if row is None else row for row in texts]
    result = np.array(texts, dtype=str if texts else fens.dtype).reshape(fens.shape)
    if out is None:
        return result
    if result.dtype.itemsize > out.dtype.itemsize:
        raise ValueError(f"a row's text does not fit out's dtype {out.dtype}")
    out[...] = result
    return out


# ---------------------------------------------------------------- encode


def encode(
    fens: Any,
    kind: Kind,
    records: RecordOptions,
    errors: ErrorsMode,
    threads: Threads,
    out: Optional[np.ndarray] = None,
) -> np.ndarray:
    """encode() of ``fens`` of this kind (``read_as_text``)."""
    if kind is STR:
        return records_into(out, _codec.encode_rows([fens], records=records, errors=errors))
    if kind is SERIES:

        def column(values: Any, kind: Kind) -> Any:
            return encode(values, kind, records, errors, threads)

        return records_into(out, _on_series(column, fens, "records", records.epd))
    if out is not None and shares_memory(fens, out):
        raise ValueError("out must not share memory with the input")
    if kind in (ROWS, ARRAY):
        return _encode_list(rows_of(fens), records, errors, threads, out)
    batches = _batches(fens, kind, threads)
    if out is None:
        parts = [batch.encode(records, errors, threads=threads.kernel) for batch in batches]
        if len(parts) == 1:
            return parts[0]
        return np.concatenate(parts) if parts else np.empty(0, record_dtype(records.width))
    n = sum(batch.n for batch in batches)  # each batch writes its rows' slice of out
    if not isinstance(out, np.ndarray) or out.shape != (n,):
        shape = out.shape if isinstance(out, np.ndarray) else type(out).__name__
        raise ValueError(f"out must be a numpy array of shape ({n},), not {shape}")
    at = 0
    for batch in batches:
        batch.encode(records, errors, threads=threads.kernel, out=out[at : at + batch.n])
        at += batch.n
    return out


def _encode_list(
    rows: list[Any],
    records: RecordOptions,
    errors: ErrorsMode,
    threads: Threads,
    out: Optional[np.ndarray],
) -> np.ndarray:
    """A list's records, row by row or, for a long list, over threads (as
    ``_normalize_threaded`` does)."""
    batch = _list_batch(rows, threads, records.epd)
    if batch is None:
        return records_into(out, _codec.encode_rows(rows, records=records, errors=errors))
    result = batch.encode(records, ErrorsMode.COERCE, threads=threads.kernel, out=out)

    def one(row: Any) -> Any:
        return _codec.encode_rows([row], records=records, errors=errors)[0]

    if errors is ErrorsMode.RAISE:
        raise_by_rerun(one, rows, _refused(batch, batch.rejected_rows()))
    for i in batch.slow:
        result[i] = one(rows[i])
    return result


def records_into(out: Any, records: np.ndarray) -> np.ndarray:
    """records, or copied into out (checked as Batch.encode checks it)."""
    if out is None:
        return records
    if (
        not isinstance(out, np.ndarray)
        or out.dtype != records.dtype
        or out.shape != records.shape
        or not out.flags.c_contiguous
        or not out.flags.writeable
    ):
        name = "POSITION_DTYPE_10x8" if records.dtype.itemsize > 80 else "POSITION_DTYPE"
        raise ValueError(
            f"out must be a writeable C-contiguous array of shape {records.shape} "
            f"and dtype fastxfen.{name}"
        )
    out[...] = records
    return out


# ---------------------------------------------------------------- validate


def validate(fens: Any, kind: Kind, epd: bool, threads: Threads, legal: bool = False) -> Any:
    """validate() of ``fens`` of this kind (``read_as_text``; one str goes
    straight to the glue); with ``legal``, positions are checked too
    (``_legality``)."""
    if kind is SERIES:

        def column(values: Any, kind: Kind) -> Any:
            return validate(values, kind, epd, threads, legal)

        return _on_series(column, fens, "messages", epd)
    if kind in (ROWS, ARRAY):
        rows = rows_of(fens)
        batch = _list_batch(rows, threads, epd)
        if batch is None:
            messages = _codec.validate_rows(rows, epd=epd)
        else:
            messages = batch.validate(threads=threads.kernel)
            for i in batch.slow:
                messages[i] = _codec.validate_rows([rows[i]])[0]
        return _legality.with_illegal(rows, ROWS, messages, epd) if legal else messages
    messages = [
        message
        for batch in _batches(fens, kind, threads)
        for message in batch.validate(threads=threads.kernel, epd=epd)
    ]
    return _legality.with_illegal(fens, kind, messages, epd) if legal else messages
