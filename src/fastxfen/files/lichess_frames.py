"""The lichess stream: each value one length byte L (0..64) followed by its
L bytes, a null value (a row rejected under errors "coerce") the byte 0xFF
alone.  It needs no header and no seeking, so it streams to stdout and
through any compressor."""

from __future__ import annotations

import numpy as np

from fastxfen import _export
from fastxfen.files.errors import RunError

FRAME_NULL = _export.FRAME_NULL


def frame(data: np.ndarray, offsets: np.ndarray, valid) -> tuple:
    """(framed bytes, end of each frame) of lichess values: each value after
    a length byte, a null as the byte FRAME_NULL."""
    n = len(offsets) - 1
    lengths = np.diff(offsets)
    heads = offsets[:-1] + np.arange(n)  # where each length byte goes
    framed = np.empty(len(data) + n, np.uint8)
    body = np.ones(len(framed), bool)
    body[heads] = False
    framed[body] = data
    framed[heads] = lengths
    if valid is not None:
        framed[heads[~valid]] = FRAME_NULL
    return framed, heads + 1 + lengths


class LichessChunk:
    """Framed lichess values of one read: value i is
    data[starts[i]:ends[i]], nulls[i] 1 for a null."""

    def __init__(self, data, starts, ends, nulls) -> None:
        self.data, self.starts, self.ends, self.nulls = data, starts, ends, nulls

    def __len__(self) -> int:
        return len(self.starts)


class FrameError(ValueError):
    """A byte where a length byte should be that is none: ``at`` is its
    offset in the buffer, ``value`` the byte."""

    def __init__(self, at: int, value: int) -> None:
        super().__init__(f"byte {at} is {value}, which is no length byte")
        self.at, self.value = at, value


def split_frames(data, max_rows: int) -> tuple:
    """(LichessChunk of the whole values, at most max_rows, at the start of
    data; the bytes they take)."""
    starts, ends, nulls, used = _export.lichess_frames(data, max_rows)
    if starts is None:
        raise FrameError(used, data[used])
    return LichessChunk(data, starts, ends, nulls), used


class StreamWriter:
    """Bytes written to the output as they come (the lichess framing)."""

    def __init__(self, output) -> None:
        self.output = output

    def write(self, data) -> None:
        if len(data):
            self.output.write(data)

    def close(self) -> None:
        pass

    def abandon(self) -> None:
        pass


def frame_chunks(source, chunk_size: int, progress):
    """LichessChunks of a framed lichess stream, read ``chunk_size`` bytes at
    a time; a value cut by a read is carried into the next one."""
    progress.start(source.size)
    max_rows = max(1, chunk_size // 8)

    def frames():
        carry, offset = b"", 0  # offset: stream position of carry
        while True:
            data = source.read(chunk_size)
            if not data:
                if carry:
                    raise RunError(
                        f"{source.name} is truncated: the value at byte {offset} announces "
                        f"{carry[0]} bytes, {len(carry) - 1} follow"
                    )
                return
            buf = carry + data
            at = 0
            while at < len(buf):
                try:
                    chunk, used = split_frames(memoryview(buf)[at:], max_rows)
                except FrameError as exc:
                    where = offset + at + exc.at
                    raise RunError(
                        f"{source.name} is not a framed lichess stream: byte {where} is "
                        f"{exc.value}, which is no length byte (0..64, or 255 for a null)"
                    ) from None
                if not used:
                    break
                yield chunk
                chunk = None
                at += used
            offset += at
            carry = buf[at:]
            progress.to(source.position())

    return frames()
