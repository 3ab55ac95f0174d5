"""Packed positions as unpack reads them, from every kind of input (bytes,
Arrow binary columns, numpy arrays, iterables of bytes, a (data, offsets)
pair; fastxfen.export.BinaryColumn holds its values as ``checked`` gives
them), checked and cut into the spans the kernels read."""

from typing import Any

import numpy as np

from fastxfen import _export
from fastxfen._columns import arrow_offsets
from fastxfen._inputs import ARROW, BUFFER, FIXED, ROWS, kind_of
from fastxfen._types import BUFFERS

__all__ = ["checked", "lichess_rows", "stockfish_rows"]


def checked(data: Any, offsets: Any, valid: Any) -> tuple:
    """(data, offsets, nulls) of binary values for a kernel, from the arrays
    as they are now (they may have been reassigned or written to since they
    were given): offsets and mask copied, so the kernel reads what was
    checked; ValueError naming the first bad row."""
    data = np.ascontiguousarray(data, np.uint8).reshape(-1)
    offsets = np.array(offsets, np.int64, ndmin=1)
    if offsets.ndim != 1 or not offsets.size:
        raise ValueError("offsets must be a 1-d array of one entry more than the values")
    nulls = None
    if valid is not None:
        valid = np.asarray(valid)
        if valid.shape != (offsets.size - 1,):
            raise ValueError(
                f"valid has shape {valid.shape}, expected ({offsets.size - 1},): "
                "one entry per value"
            )
        nulls = (valid == 0).view(np.uint8)
    _export.check_spans(data, offsets[:-1], offsets[1:], nulls)
    return data, offsets, nulls


def _bytes_array(buf) -> np.ndarray:
    view = memoryview(buf)
    if not view.c_contiguous:
        view = memoryview(view.tobytes())
    return np.frombuffer(view.cast("B") if view.format != "B" else view, np.uint8)


def _arrow_chunks(obj):
    import pyarrow as pa

    return obj.chunks if isinstance(obj, pa.ChunkedArray) else [obj]


def _arrow_binary_rows(chunk, base):
    """(data, starts, ends, nulls) of an Arrow binary chunk whose first row is
    row ``base``; starts and ends are copies, checked by the kernels."""
    import pyarrow as pa

    kind = chunk.type
    if hasattr(pa.types, "is_binary_view") and pa.types.is_binary_view(kind):
        chunk, kind = chunk.cast(pa.large_binary()), pa.large_binary()
    if not (pa.types.is_binary(kind) or pa.types.is_large_binary(kind)):
        raise TypeError(f"expected an Arrow binary column, got {kind}")
    width = np.int32 if pa.types.is_binary(kind) else np.int64
    offs = arrow_offsets(chunk, width, base).astype(np.int64)
    nulls = None
    if chunk.null_count:
        nulls = chunk.is_null().to_numpy(zero_copy_only=False).astype(np.uint8)
    data = chunk.buffers()[2]
    raw = np.frombuffer(data, np.uint8) if data is not None else np.empty(0, np.uint8)
    return raw, offs[:-1], offs[1:], nulls


def lichess_rows(data):
    """Batches (data, starts, ends, nulls) of the lichess values in data (any
    input but a BinaryColumn, whose values are read as they are)."""
    kind = kind_of(data)
    if kind is BUFFER:
        raw = _bytes_array(data)
        return [(raw, np.zeros(1, np.int64), np.full(1, len(raw), np.int64), None)]
    if kind is ARROW:
        out, base = [], 0
        for chunk in _arrow_chunks(data):
            out.append(_arrow_binary_rows(chunk, base))
            base += len(chunk)
        return out
    if kind is ROWS and isinstance(data, tuple) and len(data) == 2:
        if isinstance(data[1], np.ndarray):  # (data, offsets)
            raw = data[0] if isinstance(data[0], np.ndarray) else _bytes_array(data[0])
            offsets = np.ascontiguousarray(data[1], np.int64).reshape(-1)
            raw, offsets, _ = checked(raw, offsets, None)
            return [(raw, offsets[:-1], offsets[1:], None)]
    if kind is FIXED and data.dtype.kind == "S":
        flat = np.ascontiguousarray(data.reshape(-1))
        starts = np.arange(flat.size, dtype=np.int64) * flat.dtype.itemsize
        ends = starts + np.char.str_len(flat).astype(np.int64)
        return [(flat.view(np.uint8).reshape(-1), starts, ends, None)]
    items = list(data.reshape(-1) if isinstance(data, np.ndarray) else data)
    nulls = np.fromiter((v is None for v in items), np.uint8, len(items))
    for v in items:
        if v is not None and not isinstance(v, BUFFERS):
            raise TypeError(f"expected bytes values, got {type(v).__name__}")
    present = [bytes(v) for v in items if v is not None]
    lengths = np.zeros(len(items), np.int64)
    lengths[nulls == 0] = np.fromiter(map(len, present), np.int64, len(present))
    ends = np.cumsum(lengths)
    raw = np.frombuffer(b"".join(present), np.uint8)
    return [(raw, ends - lengths, ends, nulls if nulls.any() else None)]


def stockfish_rows(data) -> np.ndarray:
    size = _export.STOCKFISH_SIZE
    kind = kind_of(data)
    if kind is ARROW:
        import pyarrow as pa

        parts, base = [], 0
        for chunk in _arrow_chunks(data):
            if chunk.null_count:
                raise ValueError("the stockfish format has no null value")
            if pa.types.is_fixed_size_binary(chunk.type) and chunk.type.byte_width == size:
                buf = np.frombuffer(chunk.buffers()[1], np.uint8)
                first, end = chunk.offset * size, (chunk.offset + len(chunk)) * size
                if buf.size < end:
                    row = base + max(0, buf.size // size - chunk.offset)
                    raise ValueError(f"row {row}: the data buffer ends before the array does")
                parts.append(buf[first:end])
            else:
                raw, starts, ends, _ = _arrow_binary_rows(chunk, base)
                _export.check_spans(raw, starts, ends, None, base)
                if ((ends - starts) != size).any():
                    raise ValueError(f"stockfish values are {size} bytes each")
                parts.append(raw[starts[0] : ends[-1]] if len(starts) else raw[:0])
            base += len(chunk)
        arr = np.concatenate(parts) if parts else np.empty(0, np.uint8)
    elif kind is BUFFER:
        arr = _bytes_array(data)
    elif isinstance(data, np.ndarray):  # of any kind of numpy array
        arr = data
        if arr.dtype.kind in "SV" and arr.dtype.itemsize == size:
            arr = np.ascontiguousarray(arr).view(np.uint8)
        elif arr.dtype not in (np.uint8, np.int8) or arr.shape[-1:] != (size,):
            raise ValueError(
                f"stockfish rows must be uint8 of shape (N, {size}), "
                f"not {arr.dtype} of shape {arr.shape}"
            )
    else:
        items = list(data)
        if any(not isinstance(v, BUFFERS) or len(v) != size for v in items):
            raise ValueError(f"stockfish values are {size}-byte bytes objects")
        arr = np.frombuffer(b"".join(bytes(v) for v in items), np.uint8)
    if arr.size % size:
        raise ValueError(f"{arr.size} bytes is not a whole number of {size}-byte positions")
    return np.ascontiguousarray(arr.reshape(-1, size)).view(np.uint8)
