"""The input cut into the pieces a command converts one at a time.

Text input is read ``--chunk-size`` bytes at a time.  Each read is cut after
its last newline; the whole lines before the cut go to the library as one
batch and the partial line after it is carried into the next read.  A
regular, uncompressed file is cut the same way from a memory map of it.

A line longer than ``MAX_LINE`` bytes cannot be a position; it is spooled to a
temporary file (so memory stays bounded) and rejected as a row of its own.

A .npy input is cut into arrays of rows and a framed lichess stream into
chunks of values.  ``prefetch`` produces the next piece in a thread of its own
while the caller works on the current one.
"""

from __future__ import annotations

import io
import os
import queue
import tempfile
import threading

import numpy as np

from fastxfen._errors import FenError
from fastxfen.cli import formats
from fastxfen.cli.errors import CliError
from fastxfen.cli.io import DEFAULT_CHUNK, Input
from fastxfen.cli.mapped import map_input
from fastxfen.cli.report import Progress, bar_wanted

CARRY_ROOM = 1 << 16  # room in a reused chunk buffer for a line begun in the last read
#: Longest line read as a row (terminator included); also the largest chunk.
MAX_LINE = 16 << 20

_LONG_LINE_REASON = "line longer than {} bytes; not a position"


# ------------------------------------------------------------------ .npy header


class _Reader:
    """The ``read`` numpy's header functions call, on top of Input."""

    def __init__(self, read_exactly) -> None:
        self.read = read_exactly


def _read_npy_header(source: Input, decoder):
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
    except (ValueError, SyntaxError) as exc:
        raise CliError(f"{source.name} is not a .npy file: {exc}") from None
    problem = decoder.check(dtype, shape)
    if problem:
        raise CliError(f"{source.name} {problem}")
    if fortran and len(shape) > 1:
        raise CliError(f"{source.name} holds a Fortran-ordered array; expected C order")
    count, row_shape = decoder.layout(shape)
    return dtype, count, row_shape


# ------------------------------------------------------------------ text input


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


class _MappedLine:
    """A line of a memory-mapped file, read like a LongLine's spool file."""

    def __init__(self, view) -> None:
        self.view, self.at = view, 0

    def seek(self, at: int) -> None:
        self.at = at

    def read(self, n: int) -> bytes:
        data = bytes(self.view[self.at : self.at + n])
        self.at += len(data)
        return data

    def close(self) -> None:
        self.view.release()


def mapped_text_chunks(source, chunk_size: int):
    """The items of text_chunks for a regular, uncompressed file, as views of
    a memory map of it: no copy out of the page cache.  None if the file
    cannot be mapped.  ``source.consumed`` follows the chunks."""
    mapped = map_input(source)
    if mapped is None:
        return None
    source.mapped = True
    chunk_size = min(chunk_size, MAX_LINE)
    whole = mapped.view

    def chunks():
        size, at, previous = len(whole), 0, 0
        find, rfind = whole.obj.find, whole.obj.rfind
        while at < size:
            mapped.release(previous)  # the chunk before is the one in use
            end = min(at + chunk_size, size)
            cut = end if end == size else rfind(b"\n", at, end) + 1
            if not cut:  # a line longer than a chunk
                cut = find(b"\n", end) + 1 or size
            source.consumed = cut
            if cut - at > MAX_LINE:
                crlf = whole[cut - 2 : cut] == b"\r\n"
                newline = b"\r\n" if crlf else b"\n" if whole[cut - 1] == 10 else b""
                yield LongLine(_MappedLine(whole[at:cut]), cut - at, newline)
            else:
                yield whole[at:cut]
            previous, at = at, cut

    return chunks()


def prefetch(items):
    """The items of an iterator, each produced in a thread of its own while
    the caller works on the one before, so that reading (and decompressing)
    overlaps the work.  At most two items are alive at once if the caller
    drops each before asking for the next.  Errors are raised here, in order."""
    slot: queue.Queue = queue.Queue()
    wanted = threading.Semaphore(0)
    stop = threading.Event()

    def work() -> None:
        try:
            while True:
                wanted.acquire()
                if stop.is_set():
                    return
                item = next(items, StopIteration)
                slot.put((True, item))
                if item is StopIteration:
                    return
                del item
        except BaseException as exc:  # handed to the consumer
            slot.put((False, exc))

    thread = threading.Thread(target=work, name="fastxfen-reader", daemon=True)
    thread.start()
    wanted.release()
    try:
        while True:
            ok, item = slot.get()
            if not ok:
                raise item
            if item is StopIteration:
                return
            wanted.release()  # produce the next one while this one is used
            yield item
            item = None
    finally:
        stop.set()
        wanted.release()
        # A reader still inside a read of stdin at interpreter exit makes
        # CPython abort ("could not acquire lock ... daemon threads"): let
        # the read in progress finish (it ends at the next chunk or EOF).
        thread.join(timeout=30)


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
    return FenError(0, MAX_LINE, "input", _LONG_LINE_REASON.format(MAX_LINE))


# ------------------------------------------------------------------ binary input


def npy_chunks(args, source: Input, stack, decoder):
    """Arrays of rows of the .npy input, --chunk-size bytes at a time; a
    plain file is memory-mapped, anything else is read as a stream."""
    dtype, count, row_shape = _read_npy_header(source, decoder)
    row_bytes = dtype.itemsize * int(np.prod(row_shape, dtype=np.int64))
    rows = max(1, args.chunk_size // max(row_bytes, 1))
    progress = Progress(bar_wanted(args), count, "rows")
    stack.callback(progress.close)
    truncated = f"{source.name} is truncated: its header announces {count:,} rows"
    if source.regular:
        offset = source.raw.tell()
        if os.fstat(source.raw.fileno()).st_size < offset + count * row_bytes:
            raise CliError(truncated)
        if count == 0:
            return iter(())
        mapped = map_input(source)
        if mapped is not None:  # else read as a stream, from the same place

            def chunks():
                array = np.ndarray((count, *row_shape), dtype, buffer=mapped.view, offset=offset)
                for lo in range(0, count, rows):
                    yield array[lo : lo + rows]
                    progress.to(min(count, lo + rows))
                    # the rows decoded so far are done with
                    mapped.release(offset + min(count, lo + rows) * row_bytes)

            return chunks()

    def streamed():
        done = 0
        while done < count:
            want = min(rows, count - done)
            data = source.read_exactly(want * row_bytes)
            if len(data) < want * row_bytes:
                raise CliError(truncated)
            yield np.frombuffer(data, dtype).reshape(want, *row_shape)
            done += want
            progress.to(done)

    return streamed()


def frame_chunks(args, source: Input, stack):
    """LichessChunks of a framed lichess stream, read --chunk-size bytes at a
    time; a value cut by a read is carried into the next one."""
    progress = Progress(bar_wanted(args), source.size)
    stack.callback(progress.close)
    max_rows = max(1, args.chunk_size // 8)

    def frames():
        carry, offset = b"", 0  # offset: stream position of carry
        while True:
            data = source.read(args.chunk_size)
            if not data:
                if carry:
                    raise CliError(
                        f"{source.name} is truncated: the value at byte {offset} announces "
                        f"{carry[0]} bytes, {len(carry) - 1} follow"
                    )
                return
            buf = carry + data
            at = 0
            while at < len(buf):
                try:
                    chunk, used = formats.split_frames(memoryview(buf)[at:], max_rows)
                except formats.FrameError as exc:
                    where = offset + at + exc.at
                    raise CliError(
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
