"""Packed positions as they come in and go out: ``BinaryColumn`` (lichess
values in Arrow's binary layout), and the values unpack reads from every
kind of input (a BinaryColumn, bytes, Arrow binary columns, numpy arrays,
iterables of bytes), checked and cut into the spans the kernels read."""

from typing import Any, Iterator, Optional

import numpy as np

from fastxfen import _export
from fastxfen._columns import arrow_offsets
from fastxfen._inputs import ARROW, BUFFER, FIXED, ROWS, kind_of
from fastxfen._optional import require_arrow
from fastxfen._types import BUFFERS

__all__ = ["BinaryColumn", "lichess_rows", "stockfish_rows"]


class BinaryColumn:
    """Variable-length binary values in one buffer, Arrow's binary layout.

    ``pack(format="lichess")`` returns one; ``unpack`` reads it back.  It
    indexes and iterates as ``bytes`` values (``None`` for a null), and
    ``to_arrow()`` or ``pyarrow.array(column)`` share its data.  Offsets must
    rise and stay inside ``data``, and ``valid`` have one entry per value:
    checked when the column is made and whenever ``unpack`` or ``to_arrow``
    reads it (a ``ValueError`` naming the first bad row).

    Parameters
    ----------
    data : numpy.ndarray
        Every value back to back, as ``uint8`` (for ``bytes``, use
        ``np.frombuffer(b, np.uint8)``).
    offsets : array_like
        ``int64``, one more than there are values: value i is
        ``data[offsets[i]:offsets[i + 1]]``.  Non-decreasing, inside ``data``.
    valid : array_like, optional
        ``None`` (every value present) or one ``bool`` per value, ``False``
        for a null (a row coerced away).

    Returns
    -------
    BinaryColumn
        With the attributes ``data``, ``offsets`` and ``valid`` as given
        (copied only when not already contiguous of the right type).

    Raises
    ------
    ValueError
        The offsets do not fit ``data`` or ``valid``.

    Examples
    --------
    >>> import fastxfen as fx
    >>> import numpy as np
    >>> data = np.frombuffer(b"abcde", np.uint8)
    >>> column = fx.BinaryColumn(data, [0, 2, 2, 5], [True, False, True])
    >>> column.tolist(), len(column), column.lengths().tolist()
    ([b'ab', None, b'cde'], 3, [2, 0, 3])
    """

    __slots__ = ("data", "offsets", "valid")
    # where users import it from, as help() and pickle name it
    __module__ = "fastxfen.export"

    def __init__(self, data: Any, offsets: Any, valid: Any = None) -> None:
        self.data = np.ascontiguousarray(data, np.uint8).reshape(-1)
        self.offsets = np.ascontiguousarray(offsets, np.int64).reshape(-1)
        self.valid = None if valid is None else np.ascontiguousarray(valid, bool).reshape(-1)
        self._checked()  # here, and again whenever the column is read

    def _checked(self) -> tuple:
        """(data, offsets, nulls) for a kernel, from the attributes as
        they are now (they may have been reassigned or written to since the
        column was made): offsets and mask copied, so the kernel reads what
        was checked; ValueError naming the first bad row."""
        data = np.ascontiguousarray(self.data, np.uint8).reshape(-1)
        offsets = np.array(self.offsets, np.int64, ndmin=1)
        if offsets.ndim != 1 or not offsets.size:
            raise ValueError("offsets must be a 1-d array of one entry more than the values")
        nulls = None
        if self.valid is not None:
            valid = np.asarray(self.valid)
            if valid.shape != (offsets.size - 1,):
                raise ValueError(
                    f"valid has shape {valid.shape}, expected ({offsets.size - 1},): "
                    "one entry per value"
                )
            nulls = (valid == 0).view(np.uint8)
        _export.check_spans(data, offsets[:-1], offsets[1:], nulls)
        return data, offsets, nulls

    def _rows(self) -> tuple:
        """(data, starts, ends, nulls), checked, for the unpack kernel."""
        data, offsets, nulls = self._checked()
        return data, offsets[:-1], offsets[1:], nulls

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, i: int) -> Optional[bytes]:
        n = len(self)
        if not isinstance(i, (int, np.integer)):
            raise TypeError("BinaryColumn indices must be integers")
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("BinaryColumn index out of range")
        if self.valid is not None and not self.valid[i]:
            return None
        return self.data[self.offsets[i] : self.offsets[i + 1]].tobytes()

    def __iter__(self) -> Iterator[Optional[bytes]]:
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        nulls = 0 if self.valid is None else int((~self.valid).sum())
        return f"BinaryColumn({len(self)} values, {len(self.data)} bytes, {nulls} null)"

    def lengths(self) -> np.ndarray:
        """Byte length of every value (0 for a null)."""
        return np.diff(self.offsets)

    def tolist(self) -> list[Optional[bytes]]:
        """The values as ``bytes`` (``None`` for a null)."""
        return list(self)

    def to_arrow(self, large: Optional[bool] = None) -> Any:
        """A ``pyarrow.BinaryArray`` (``LargeBinaryArray`` with ``large=True``,
        or when the data exceeds 2 GiB) sharing this column's data.
        Needs pyarrow (``pip install "fastxfen[arrow]"``)."""
        pa = require_arrow("BinaryColumn.to_arrow()")

        data, offsets, nulls = self._checked()
        base = int(offsets[0])
        if large is None:
            large = int(offsets[-1]) - base > np.iinfo(np.int32).max
        offsets = offsets - base if base else offsets
        if not large:
            offsets = offsets.astype(np.int32)
        validity, null_count = None, 0
        if nulls is not None and nulls.any():
            validity = pa.py_buffer(np.packbits(nulls == 0, bitorder="little"))
            null_count = int(nulls.sum())
        return pa.Array.from_buffers(
            pa.large_binary() if large else pa.binary(),
            len(offsets) - 1,
            [validity, pa.py_buffer(offsets), pa.py_buffer(data[base:])],
            null_count=null_count,
        )

    def __arrow_array__(self, type: Any = None) -> Any:
        arr = self.to_arrow()
        return arr if type is None else arr.cast(type)


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
    """Batches (data, starts, ends, nulls) of the lichess values in data."""
    if isinstance(data, BinaryColumn):
        return [data._rows()]
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
            return [BinaryColumn(raw, data[1])._rows()]
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
