"""Columns of text (numpy ``S``/``U`` arrays, pyarrow string arrays) as batches
for the bulk kernels, and the kernels' results back as the same kind of column.
Everything here works on whole buffers; nothing loops over rows in Python."""

from __future__ import annotations

import sys
import threading

import numpy as np

from fastxfen import _bulk
from fastxfen._optional import require_arrow
from fastxfen._options import ErrorsMode

__all__ = [
    "arrow_batches",
    "arrow_messages",
    "arrow_offsets",
    "arrow_result",
    "arrow_text",
    "is_arrow",
    "numpy_batch",
    "numpy_out",
    "numpy_result",
    "text_scratch",
]


# ---------------------------------------------------------------- numpy


def numpy_batch(arr: np.ndarray):
    """Batch of the rows of a numpy ``S`` or ``U`` array (any shape, C order)."""
    flat = np.ascontiguousarray(arr.reshape(-1))
    if not flat.dtype.isnative or not flat.flags.aligned:
        flat = flat.astype(flat.dtype.newbyteorder("="))
    batch = _bulk.from_fixed_width(flat)
    if arr.dtype.kind == "U":
        batch.texts = flat  # messages name the character, not its stand-in
    return batch


#: Bytes of normalized text a thread keeps between numpy normalize calls.
#: The text is copied into the result array, so one buffer serves each call
#: of the thread, already in memory (fresh memory costs a page fault per
#: 4 KiB on its first touch); larger text gets fresh memory each call.
SCRATCH_BYTES = 64 << 20
_scratch = threading.local()


def text_scratch(bound: int):
    """This thread's bytearray for up to `bound` bytes of text, or None."""
    if bound > SCRATCH_BYTES:
        return None
    buf = getattr(_scratch, "text", None)
    if buf is None:
        buf = _scratch.text = bytearray()
    return buf


def numpy_out(arr: np.ndarray, out) -> np.ndarray:
    """`out` checked as the result array of normalize(arr, out=out): a
    writeable C-contiguous array of arr's shape and kind (``S`` or ``U``);
    flat."""
    if not isinstance(out, np.ndarray) or out.dtype.kind != arr.dtype.kind:
        what = out.dtype if isinstance(out, np.ndarray) else type(out).__name__
        raise ValueError(f"out must be a numpy {arr.dtype.kind} array like the input, not {what}")
    if out.shape != arr.shape:
        raise ValueError(f"out must have shape {arr.shape}, not {out.shape}")
    if not out.flags.c_contiguous or not out.flags.writeable or not out.dtype.isnative:
        raise ValueError("out must be a writeable C-contiguous array in native byte order")
    return out.reshape(-1)


def numpy_result(
    arr: np.ndarray, result, errors: ErrorsMode, threads: int = 1, out=None
) -> np.ndarray:
    """The normalized rows as an array of the input's kind and shape (or in
    `out`, which numpy_out checked), as wide as the input or the longest row
    if that is wider; a coerced row is the empty string, an ignored row its
    input.  Written in up to `threads` threads."""
    data, ends, failed = result
    size = max(1, _bulk.longest_row(ends))
    if out is not None:
        flat = numpy_out(arr, out)
        chars = out.dtype.itemsize // (4 if out.dtype.kind == "U" else 1)
        if size > chars and ends.size:  # name the first row that does not fit
            lengths = np.diff(ends, prepend=0)
            row = int(np.argmax(lengths > chars))
            raise ValueError(
                f"row {row}: its text of {lengths[row]} characters does not fit out's "
                f"dtype {out.dtype}"
            )
        ucs4 = out.dtype.kind == "U"
        _bulk.to_fixed_width(data, ends, chars, ucs4=ucs4, threads=threads, out=flat)
    elif arr.dtype.kind == "S":
        chars = max(size, arr.dtype.itemsize)
        return _bulk.to_fixed_width(data, ends, chars, threads=threads).reshape(arr.shape)
    else:
        chars = max(size, arr.dtype.itemsize // 4)
        flat = _bulk.to_fixed_width(data, ends, chars, ucs4=True, threads=threads)
    if failed and errors is ErrorsMode.IGNORE and arr.dtype.kind == "U":
        # the stand-in was copied: put the input back
        flat[failed] = np.ascontiguousarray(arr.reshape(-1))[failed]
    return flat.reshape(arr.shape) if out is None else out


# ---------------------------------------------------------------- arrow


def is_arrow(obj) -> bool:
    pa = sys.modules.get("pyarrow")
    return pa is not None and isinstance(obj, (pa.Array, pa.ChunkedArray))


def _chunks(obj) -> list:
    import pyarrow as pa

    return obj.chunks if isinstance(obj, pa.ChunkedArray) else [obj]


def _readable(chunk):
    """The chunk as string or large_string (string_view is cast)."""
    import pyarrow as pa

    kind = chunk.type
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        return chunk
    if _written(kind) != kind:
        return chunk.cast(_written(kind))
    raise TypeError(f"expected an Arrow string column, got {kind}")


def arrow_offsets(chunk, width, base: int) -> np.ndarray:
    """The n + 1 offsets of a string or binary chunk (int32 or int64 as
    `width`), once its validity bitmap and offsets buffer are known to reach
    its last row (their values are the kernels' to check); rows named from
    ``base``."""
    validity, offsets = chunk.buffers()[:2]
    end = chunk.offset + len(chunk)
    if len(chunk) and validity is not None and validity.size * 8 < end:
        row = base + max(0, validity.size * 8 - chunk.offset)
        raise ValueError(f"row {row}: the validity bitmap ends before the array does")
    held = 0 if offsets is None else offsets.size // np.dtype(width).itemsize
    if len(chunk) and held < end + 1:
        row = base + max(0, held - 1 - chunk.offset)
        raise ValueError(f"row {row}: the offsets buffer ends before the array does")
    if not len(chunk):  # an empty array may come without offsets
        return np.zeros(1, width)
    return np.frombuffer(offsets, width)[chunk.offset : end + 1]


def _nulls(chunk):
    """A uint8 array, 1 at the chunk's nulls, or None when it has none;
    from its validity bits (pyarrow's to_numpy of a boolean array imports
    pandas, 0.4 s)."""
    if not chunk.null_count:
        return None
    bits = np.frombuffer(chunk.buffers()[0], np.uint8)
    start = chunk.offset
    return np.unpackbits(bits, bitorder="little")[start : start + len(chunk)] ^ 1


def _batch(chunk, base: int):
    """Batch of one chunk whose first row is row ``base`` of the column."""
    import pyarrow as pa

    chunk = _readable(chunk)
    data = chunk.buffers()[2]
    offs = arrow_offsets(chunk, np.int32 if pa.types.is_string(chunk.type) else np.int64, base)
    batch = _bulk.offsets(data if data is not None else b"", offs, _nulls(chunk))
    batch.base = base
    return batch


def _chunk_batches(obj) -> list:
    """(chunk, batch) of each chunk, rows numbered across the whole column."""
    out, base = [], 0
    for chunk in _chunks(obj):
        out.append((chunk, _batch(chunk, base)))
        base += len(chunk)
    return out


def arrow_batches(obj) -> list:
    """One batch per chunk of an Arrow array or chunked array."""
    return [batch for _, batch in _chunk_batches(obj)]


def _written(kind):
    """The type normalize writes for a column of this type (string_view is
    written as large_string, then cast back)."""
    import pyarrow as pa

    if hasattr(pa.types, "is_string_view") and pa.types.is_string_view(kind):
        return pa.large_string()
    return kind


def _array(kind, result, nulls, errors):
    """The column of a normalize result (data, offsets, failed rows)."""
    import pyarrow as pa

    data, offsets, failed = result
    written = _written(kind)
    n = len(offsets) - 1
    validity, null_count = None, 0
    coerced = errors is ErrorsMode.COERCE
    if nulls is not None or (coerced and failed):
        missing = np.zeros(n, bool) if nulls is None else nulls.astype(bool)
        if coerced:
            missing[failed] = True
        null_count = int(missing.sum())
        validity = pa.py_buffer(np.packbits(~missing, bitorder="little"))
    out = pa.Array.from_buffers(
        written,
        n,
        [validity, pa.py_buffer(offsets), pa.py_buffer(data)],
        null_count=null_count,
    )
    return out if written == kind else out.cast(kind)


def arrow_text(result, errors: ErrorsMode, nulls=None):
    """A pyarrow ``string`` column of a text result (data, int32 or int64
    offsets, failed rows): ``large_string`` when the text needs int64
    offsets; failed rows null under ErrorsMode.COERCE, and rows where the
    bool array nulls is set."""
    pa = require_arrow('decode(output="arrow")')

    data, offsets, failed = result
    if offsets.dtype == np.int64 and offsets[-1] <= np.iinfo(np.int32).max:
        offsets = offsets.astype(np.int32)
    kind = pa.string() if offsets.dtype == np.int32 else pa.large_string()
    return _array(kind, (data, offsets, failed), nulls, errors)


def arrow_messages(obj, messages: list):
    """validate's messages, one per row of the Arrow column ``obj``, as a
    column like it: the same chunks and type, null where a row is valid."""
    import pyarrow as pa

    chunks, at = [], 0
    for chunk in _chunks(obj):
        part = pa.array(messages[at : at + len(chunk)], _written(chunk.type))
        chunks.append(part if part.type == chunk.type else part.cast(chunk.type))
        at += len(chunk)
    if isinstance(obj, pa.ChunkedArray):
        return pa.chunked_array(chunks, obj.type)
    return chunks[0]


def arrow_result(obj, run, errors: ErrorsMode):
    """Run a normalize kernel per chunk (``run(batch, offsets_dtype)``); the
    result has the input's type, null where the input is null and, with
    errors="coerce", where a row failed."""
    import pyarrow as pa

    chunks = []
    for chunk, batch in _chunk_batches(obj):
        written = _written(chunk.type)
        result = run(batch, np.int32 if pa.types.is_string(written) else np.int64)
        chunks.append(_array(chunk.type, result, _nulls(chunk), errors))
    if isinstance(obj, pa.ChunkedArray):
        return pa.chunked_array(chunks, obj.type)
    return chunks[0]
