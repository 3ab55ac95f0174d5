"""Text input cut into the pieces a run converts one at a time.

Text is read ``chunk_size`` bytes at a time.  Each read is cut after its
last newline; the whole lines before the cut go to the library as one batch
and the partial line after it is carried into the next read.  Files are
read, not memory-mapped: a mapped file cut short by another process would
kill this one with SIGBUS, while a read sees the change (inputs.Input).

A line longer than ``MAX_LINE`` bytes cannot be a position; it is spooled to
a temporary file (so memory stays bounded) and rejected as a row of its own.
"""

from __future__ import annotations

import io
import tempfile

import numpy as np

from fastxfen._errors import FenError, fen_error

#: Bytes read (and copied out of a spool file) at a time by default.
DEFAULT_CHUNK = 8 << 20
CARRY_ROOM = 1 << 16  # room in a reused chunk buffer for a line begun in the last read
#: Longest line read as a row (terminator included); also the largest chunk.
MAX_LINE = 16 << 20

_LONG_LINE_REASON = "line longer than {} bytes; not a position"


class LongLine:
    """A line over MAX_LINE bytes, kept in a temporary file."""

    def __init__(self, file, size: int, terminator: bytes) -> None:
        self.file = file
        self.size = size
        self.terminator = terminator

    def copy_to(self, write, terminator: bool = True) -> None:
        self.file.seek(0)
        left = self.size - (0 if terminator else len(self.terminator))
        while left > 0:
            data = self.file.read(min(left, DEFAULT_CHUNK))
            write(data)
            left -= len(data)

    def close(self) -> None:
        self.file.close()


def _spool_long_line(data: bytes, read, chunk_size: int):
    """The line that starts ``data`` (which holds no newline) as a LongLine,
    and what follows its newline."""
    spool = tempfile.TemporaryFile(prefix="fastxfen-")
    spool.write(data)
    size, last = len(data), data[-1:]
    while True:
        more = read(chunk_size)
        if not more:
            return LongLine(spool, size, b""), b""
        cut = more.find(b"\n")
        if cut < 0:
            spool.write(more)
            size, last = size + len(more), more[-1:]
            continue
        spool.write(more[: cut + 1])
        size += cut + 1
        before = more[cut - 1 : cut] if cut else last
        return LongLine(spool, size, b"\r\n" if before == b"\r" else b"\n"), more[cut + 1 :]


def text_chunks(source, chunk_size: int):
    """Yield the input as buffers of whole lines (a final line may lack its
    newline) and LongLine objects, in input order."""
    max_line = MAX_LINE
    # A line inside one read is at most chunk_size long, so only a line that
    # began in an earlier read needs its length checked.
    chunk_size = min(chunk_size, max_line)
    carry = b""
    # Three buffers taken in turn, the next one only once a chunk of the
    # current one is handed out: a handed-out buffer is refilled three chunks
    # later, when prefetch's consumer has let it go.  Reusing them spares a
    # zero-filled (GIL-holding) allocation and its page faults per chunk.
    buffers: list = []
    turn = 0
    current = None  # the buffer in turn, while nothing of it is handed out
    while True:
        # read into directly after the carried partial line: no copy
        kept = len(carry)
        if kept <= CARRY_ROOM:
            if current is None:
                if len(buffers) < 3:
                    buffers.append(bytearray(CARRY_ROOM + chunk_size))
                current = buffers[turn % 3]
                turn += 1
            buf = current
        else:
            buf = bytearray(kept + chunk_size)
        buf[:kept] = carry
        got = source.readinto(memoryview(buf)[kept : kept + chunk_size])
        if not got:
            if carry:
                yield carry
            return
        end = kept + got
        begin = 0
        if kept:  # the first line began in an earlier read: is it too long?
            first = buf.find(b"\n", 0, end) + 1
            if not first:
                if end > max_line:
                    line, rest = _spool_long_line(bytes(buf[:end]), source.read, chunk_size)
                    yield line
                    # rest came from one read: its whole lines are short
                    cut = rest.rfind(b"\n") + 1
                    if cut:
                        yield rest[:cut]
                    carry = rest[cut:]  # as always, no newline in carry
                else:
                    carry = bytes(buf[:end])
                continue
            if first > max_line:
                yield LongLine(
                    io.BytesIO(buf[:first]),
                    first,
                    b"\r\n" if buf[first - 2 : first - 1] == b"\r" else b"\n",
                )
                begin = first
        cut = buf.rfind(b"\n", begin, end) + 1
        if cut:
            if buf is current:
                current = None
            yield memoryview(buf)[begin:cut]
        else:
            cut = begin
        carry = bytes(buf[cut:end])


def line_of(chunk, newlines: np.ndarray, row: int) -> bytes:
    """Row ``row`` of a chunk, without its terminator."""
    start = int(newlines[row - 1]) + 1 if row else 0
    if row < len(newlines):
        end = int(newlines[row])
        if end > start and chunk[end - 1] == 13:
            end -= 1
    else:
        end = len(chunk)
    return bytes(chunk[start:end])


def newline_offsets(chunk) -> np.ndarray:
    """Where the newlines of a chunk are."""
    return np.flatnonzero(np.frombuffer(chunk, np.uint8) == 10)


def long_line_error() -> FenError:
    """The error of a line longer than MAX_LINE."""
    return fen_error(0, MAX_LINE, "input", _LONG_LINE_REASON.format(MAX_LINE))
