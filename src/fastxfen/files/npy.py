""".npy files as streams: a header written with room for the final count
and rewritten at the end (NpyWriter), and a header read and checked before
the rows are read a chunk at a time (npy_chunks)."""

from __future__ import annotations

import math
import struct
import tempfile

import numpy as np

from fastxfen.files.errors import RunError
from fastxfen.files.text_chunks import DEFAULT_CHUNK

#: Digits reserved in the .npy header for the record count (2**64 has 20).
_COUNT_DIGITS = 20


class _Reader:
    """The ``read`` numpy's header functions call, on top of Input."""

    def __init__(self, read_exactly) -> None:
        self.read = read_exactly


def _read_npy_header(source, decoder):
    """(dtype, count, row_shape) from the header at the start of a .npy
    stream, checked by the decoder of its format."""
    fmt = np.lib.format
    fp = _Reader(source.read_exactly)
    try:
        version = fmt.read_magic(fp)
        if version == (1, 0):
            shape, fortran, dtype = fmt.read_array_header_1_0(fp)
        elif version == (2, 0):
            shape, fortran, dtype = fmt.read_array_header_2_0(fp)
        else:
            raise ValueError(f"unsupported .npy format version {version[0]}.{version[1]}")
    except (ValueError, SyntaxError, TypeError) as exc:
        raise RunError(f"{source.name} is not a .npy file: {exc}") from None
    if any(n < 0 for n in shape):
        raise RunError(f"{source.name} has a negative size in the shape {shape} of its header")
    if math.prod(shape) * dtype.itemsize >= 1 << 63:
        raise RunError(f"{source.name} announces more data than a file can hold: shape {shape}")
    problem = decoder.check(dtype, shape)
    if problem:
        raise RunError(f"{source.name} {problem}")
    if fortran and len(shape) > 1:
        raise RunError(f"{source.name} holds a Fortran-ordered array; expected C order")
    count, row_shape = decoder.layout(shape)
    return dtype, count, row_shape


def _npy_header(dtype: np.dtype, count: int, row_shape: tuple = ()) -> bytes:
    """A version 1.0 .npy header for ``count`` rows of ``row_shape``, padded
    to the size that the largest count needs, so the final count can be
    written over it."""
    descr = np.lib.format.dtype_to_descr(dtype)

    def text(n):
        shape = repr((n, *row_shape)).replace(" ", "")
        return "{'descr': " + repr(descr) + f", 'fortran_order': False, 'shape': {shape}, }}"

    longest = len(text(10**_COUNT_DIGITS - 1))
    size = -(-(10 + longest + 1) // 64) * 64  # magic, version, length, text, '\n'
    body = text(count)
    body += " " * (size - 10 - len(body) - 1) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", size - 10) + body.encode("latin1")


class NpyWriter:
    """Rows (records, or arrays of ``row_shape``) appended to a .npy file
    whose header is rewritten with the final count at the end; a target that
    cannot seek back (stdout, a compressed file) gets the rows spooled to a
    temporary file first."""

    def __init__(self, output, dtype: np.dtype, row_shape: tuple = ()) -> None:
        self.output = output
        self.dtype = dtype
        self.row_shape = row_shape
        self.count = 0
        if output.seekable:
            self.spool = None
            self.output.write(self._header())
        else:
            self.spool = tempfile.TemporaryFile(prefix="fastxfen-")

    def write(self, records: np.ndarray) -> None:
        if not len(records):
            return
        data = memoryview(np.ascontiguousarray(records)).cast("B")
        if self.spool is None:
            self.output.write(data)
        else:
            try:
                self.spool.write(data)
            except OSError as exc:
                raise RunError(f"cannot write a temporary file: {exc}") from None
        self.count += len(records)

    def close(self) -> None:
        self.output.drain()
        if self.spool is None:
            try:
                self.output.stream.flush()
                self.output.raw.seek(0)
            except OSError as exc:
                raise RunError(f"cannot write {self.output.name}: {exc}") from None
            self.output.write(self._header())
            return
        self.output.write(self._header())
        self.spool.seek(0)
        while True:
            data = self.spool.read(DEFAULT_CHUNK)
            if not data:
                break
            self.output.write(data)
        self.spool.close()

    def abandon(self) -> None:
        """Let go of rows that will not be published."""
        if self.spool is not None:
            self.spool.close()

    def _header(self) -> bytes:
        return _npy_header(self.dtype, self.count, self.row_shape)


def npy_chunks(source, decoder, chunk_size: int, progress):
    """Arrays of rows of the .npy input, ``chunk_size`` bytes at a time."""
    dtype, count, row_shape = _read_npy_header(source, decoder)
    row_bytes = dtype.itemsize * math.prod(row_shape)
    rows = max(1, chunk_size // max(row_bytes, 1))
    progress.start(count, "rows")

    def chunks():
        done = 0
        while done < count:
            want = min(rows, count - done)
            data = source.read_exactly(want * row_bytes)
            if len(data) < want * row_bytes:
                got = done + len(data) // max(row_bytes, 1)
                raise RunError(
                    f"{source.name} is truncated: its header announces {count:,} rows, "
                    f"the data holds {got:,}"
                )
            yield np.frombuffer(data, dtype).reshape(want, *row_shape)
            done += want
            progress.to(done)
        # Read on to the end: a compressed stream's end is checked there.
        more = len(source.read_exactly(1 << 16))
        if more:
            raise RunError(
                f"{source.name} holds more bytes than the {count:,} rows its header announces"
            )

    return chunks()
