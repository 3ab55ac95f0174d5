"""The ``fastxfen`` command: normalize, validate, encode and decode files of
positions, streamed in chunks so that memory stays bounded whatever the input
size.

Text input is read ``--chunk-size`` bytes at a time.  Each read is cut after
its last newline; the whole lines before the cut go to the library as one
batch and the partial line after it is carried into the next read.  A running
count of the lines already handed on turns a row index inside a batch into a
1-based line number of the whole input.

A line longer than ``MAX_LINE`` bytes cannot be a position; it is spooled to a
temporary file (so memory stays bounded) and rejected as a row of its own.

Reading (and decompressing) the next chunk runs in one background thread and
writing (and compressing) the previous result in another, each holding at most
one chunk, while the library converts the current chunk on its own threads.
Under ``--errors raise`` a chunk is still converted in coerce mode, so that the
rows before the first rejected one can be written before the run stops.
"""

from __future__ import annotations

import argparse
import bz2
import contextlib
import gzip
import io
import lzma
import os
import queue
import stat
import struct
import sys
import tempfile
import textwrap
import threading
import time
import zlib

import numpy as np

from fastxfen import __version__, _bulk
from fastxfen import _cli_formats as formats
from fastxfen._dropbehind import DropBehind
from fastxfen._errors import FenError
from fastxfen._mapped import map_input

__all__ = ["main"]

EXIT_OK = 0  #: every row was accepted
EXIT_REJECTED = 1  #: some rows were rejected (coerce, ignore, validate)
EXIT_FAILED = 2  #: usage or I/O error, or a rejected row under --errors raise

DEFAULT_CHUNK = 8 << 20
CARRY_ROOM = 1 << 16  # room in a reused chunk buffer for a line begun in the last read
#: Longest line read as a row (terminator included); also the largest chunk.
MAX_LINE = 16 << 20
#: Digits reserved in the .npy header for the record count (2**64 has 20).
_COUNT_DIGITS = 20

_COMPRESSED = {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz", ".zst": "zstd"}
_LONG_LINE_REASON = "line longer than {} bytes; not a position"
_WIDE_ROW_HINT = "a 10-wide position needs --width 10"


class CliError(Exception):
    """Something the command cannot get past; ends it with exit status 2."""


class Rejected(Exception):
    """A row rejected under --errors raise: ``number`` is its 1-based line
    (record, for decode) number in the whole input."""

    def __init__(self, number: int, error: FenError, unit: str = "line") -> None:
        super().__init__(f"{unit} {number}: {error.location}: {error.reason}")
        self.number = number
        self.error = error


# ------------------------------------------------------------------ files


def _compression(path: str | None) -> str | None:
    if path is None or path == "-":
        return None
    return _COMPRESSED.get(os.path.splitext(path)[1].lower())


def _zstandard():
    try:
        import zstandard
    except ImportError:
        raise CliError(".zst files need the zstandard package (pip install zstandard)") from None
    return zstandard


def _stream_errors() -> tuple:
    """What reading or writing a (compressed) stream raises on bad data or a
    failing device."""
    errors = [OSError, EOFError, lzma.LZMAError, zlib.error]
    zstandard = sys.modules.get("zstandard")
    if zstandard is not None:
        errors.append(zstandard.ZstdError)
    return tuple(errors)


def _is_stdio(path: str | None) -> bool:
    return path is None or path == "-"


class Input:
    """A byte stream read from a file (decompressed by its extension) or stdin."""

    def __init__(self, path: str | None, stack: contextlib.ExitStack) -> None:
        self.consumed = 0
        self.size = None
        self.regular = False  # a regular file, which can be memory-mapped
        self.mapped = False  # read through a map: consumed is the position
        if _is_stdio(path):
            self.name = "<stdin>"
            self.raw = self.stream = sys.stdin.buffer
            self.path = None
            return
        self.name = self.path = path
        try:
            self.raw = stack.enter_context(open(path, "rb"))
            st = os.fstat(self.raw.fileno())
        except OSError as exc:
            raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None
        kind = _compression(path)
        if kind is None:
            self.stream = self.raw
        elif kind == "gzip":
            self.stream = stack.enter_context(gzip.GzipFile(fileobj=self.raw, mode="rb"))
        elif kind == "bzip2":
            self.stream = stack.enter_context(bz2.BZ2File(self.raw, "rb"))
        elif kind == "xz":
            self.stream = stack.enter_context(lzma.LZMAFile(self.raw, "rb"))
        else:
            zstd = _zstandard()
            self.stream = stack.enter_context(
                zstd.ZstdDecompressor().stream_reader(
                    self.raw, read_across_frames=True, closefd=False
                )
            )
        self.regular = stat.S_ISREG(st.st_mode) and kind is None
        if stat.S_ISREG(st.st_mode) and st.st_size:
            self.size = st.st_size

    def read(self, n: int) -> bytes:
        try:
            data = self.stream.read(n)
        except _stream_errors() as exc:
            raise CliError(f"cannot read {self.name}: {exc}") from None
        self.consumed += len(data)
        return data

    def readinto(self, buffer) -> int:
        try:
            n = self.stream.readinto(buffer)
        except _stream_errors() as exc:
            raise CliError(f"cannot read {self.name}: {exc}") from None
        self.consumed += n
        return n

    def read_exactly(self, n: int) -> bytes:
        """n bytes, fewer only at the end of the stream."""
        parts, got = [], 0
        while got < n:
            data = self.read(n - got)
            if not data:
                break
            parts.append(data)
            got += len(data)
        return parts[0] if len(parts) == 1 else b"".join(parts)

    def position(self) -> int:
        """Bytes of the file read so far (compressed bytes for a compressed
        file), for the progress bar."""
        if self.size is not None and not self.mapped:
            try:
                return self.raw.tell()
            except (OSError, ValueError):
                pass
        return self.consumed


class _Background(threading.Thread):
    """Calls ``write`` in a thread of its own, so that writing (and
    compressing) one chunk overlaps the work on the next.  One buffer at a
    time: ``put`` waits until the previous one is written.  An error is raised
    in the main thread, at the next ``put`` or at ``finish``."""

    def __init__(self, write) -> None:
        super().__init__(name="fastxfen-writer", daemon=True)
        self._write = write
        self._queue: queue.Queue = queue.Queue()
        self._idle = threading.Semaphore(1)
        self._error = None
        self._failed = False
        self.start()

    def run(self) -> None:
        while True:
            data = self._queue.get()
            if data is None:
                return
            if not self._failed:
                try:
                    self._write(data)
                except BaseException as exc:  # handed to the main thread
                    self._error, self._failed = exc, True
            del data
            self._idle.release()

    def _check(self) -> None:
        error, self._error = self._error, None
        if error is not None:
            raise error

    def put(self, data) -> None:
        self._idle.acquire()
        if self._error is not None:
            self._idle.release()  # nothing is queued: finish must not wait
            self._check()
        self._queue.put(data)

    def finish(self) -> None:
        self._idle.acquire()
        self._queue.put(None)
        self.join()
        self._check()


class Output:
    """A byte stream written to a file (compressed by its extension) or stdout;
    with ``background``, written from a thread of its own; with
    ``drop_behind``, a large file's pages are released from the page cache
    behind the writer (``_dropbehind``)."""

    def __init__(
        self, path: str | None, background: bool = False, level=None, drop_behind: bool = False
    ) -> None:
        self.kind = _compression(path)
        self.background = None
        self.drop = None
        self._open(path, level)
        if drop_behind and not self.is_stdout:
            self.drop = DropBehind.attach(self.raw.fileno())
        if background:
            self.background = _Background(self._write)

    def _open(self, path: str | None, level) -> None:
        if _is_stdio(path):
            self.name = "<stdout>"
            self.raw = self.stream = sys.stdout.buffer
            self.is_stdout = True
            return
        self.is_stdout = False
        self.name = path
        if self.kind == "zstd":
            zstd = _zstandard()
        try:
            self.raw = open(path, "wb")
        except OSError as exc:
            raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None
        if self.kind is None:
            self.stream = self.raw
        elif self.kind == "gzip":
            self.stream = gzip.GzipFile(
                fileobj=self.raw, mode="wb", compresslevel=6 if level is None else level
            )
        elif self.kind == "bzip2":
            self.stream = bz2.BZ2File(self.raw, "wb", compresslevel=9 if level is None else level)
        elif self.kind == "xz":
            self.stream = lzma.LZMAFile(self.raw, "wb", preset=level)
        else:
            self.stream = zstd.ZstdCompressor(level=3 if level is None else level).stream_writer(
                self.raw, closefd=False
            )

    @property
    def seekable(self) -> bool:
        """Whether the bytes written land in a file that can be rewritten."""
        if self.is_stdout or self.kind is not None:
            return False
        try:
            return self.raw.seekable()
        except (OSError, ValueError):
            return False

    def write(self, data) -> None:
        """Write ``data``, which must not change afterwards."""
        if self.background is not None:
            self.background.put(data)
        else:
            self._write(data)

    def _write(self, data) -> None:
        try:
            self.stream.write(data)
            if self.drop is not None:
                self.drop.wrote(self.raw.tell())
        except BrokenPipeError:
            raise
        except _stream_errors() as exc:
            raise CliError(f"cannot write {self.name}: {exc}") from None

    def drain(self) -> None:
        """Wait for the background writes; later writes happen in place and
        stay in the page cache."""
        background, self.background = self.background, None
        try:
            if background is not None:
                background.finish()
        finally:
            drop, self.drop = self.drop, None  # after the last background write
            if drop is not None:
                drop.stop()

    def close(self) -> None:
        self.drain()
        try:
            if self.is_stdout:
                self.raw.flush()
                return
            try:
                if self.stream is not self.raw:
                    self.stream.close()
            finally:
                self.raw.close()
        except BrokenPipeError:
            raise
        except _stream_errors() as exc:
            raise CliError(f"cannot write {self.name}: {exc}") from None


def _same_file(a: str | None, b: str | None) -> bool:
    if _is_stdio(a) or _is_stdio(b):
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


# ------------------------------------------------------------------ .npy


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

    def __init__(self, output: Output, dtype: np.dtype, row_shape: tuple = ()) -> None:
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
                raise CliError(f"cannot write a temporary file: {exc}") from None
        self.count += len(records)

    def close(self) -> None:
        self.output.drain()
        if self.spool is None:
            try:
                self.output.stream.flush()
                self.output.raw.seek(0)
            except OSError as exc:
                raise CliError(f"cannot write {self.output.name}: {exc}") from None
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

    def _header(self) -> bytes:
        return _npy_header(self.dtype, self.count, self.row_shape)


class StreamWriter:
    """Bytes written to the output as they come (the lichess framing)."""

    def __init__(self, output: Output) -> None:
        self.output = output

    def write(self, data) -> None:
        if len(data):
            self.output.write(data)

    def close(self) -> None:
        pass


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


def _line_of(chunk, newlines: np.ndarray, row: int) -> bytes:
    """Row ``row`` of a chunk, without its terminator."""
    start = int(newlines[row - 1]) + 1 if row else 0
    if row < len(newlines):
        end = int(newlines[row])
        if end > start and chunk[end - 1] == 13:
            end -= 1
    else:
        end = len(chunk)
    return bytes(chunk[start:end])


def _newlines(chunk) -> np.ndarray:
    return np.flatnonzero(np.frombuffer(chunk, np.uint8) == 10)


def _long_line_error() -> FenError:
    return FenError(0, MAX_LINE, "input", _LONG_LINE_REASON.format(MAX_LINE))


# ------------------------------------------------------------------ reporting


class Rejects:
    """The --rejects file: one TSV line per rejected row."""

    def __init__(self, path: str | None) -> None:
        self.output = Output(path) if path else None

    def add(self, number: int, error: FenError, original) -> None:
        """original: the row's bytes, or a LongLine."""
        if self.output is None:
            return
        reason = error.reason.replace("\t", " ").replace("\n", " ")
        self.output.write(f"{number}\t{error.column}\t{error.field}\t{reason}\t".encode())
        if isinstance(original, LongLine):
            original.copy_to(self.output.write, terminator=False)
        else:
            self.output.write(original)
        self.output.write(b"\n")

    def close(self) -> None:
        if self.output is not None:
            self.output.close()


class Progress:
    """A tqdm bar on stderr when it is a terminal, else nothing."""

    def __init__(self, enabled: bool, total=None, unit: str = "B") -> None:
        self.bar = None
        self.at = 0
        if not enabled:
            return
        try:
            isatty = sys.stderr.isatty()
        except (AttributeError, ValueError):
            isatty = False
        if not isatty:
            return
        try:
            from tqdm import tqdm
        except ImportError:
            return
        self.bar = tqdm(
            total=total,
            unit=unit,
            unit_scale=True,
            unit_divisor=1024 if unit == "B" else 1000,
            dynamic_ncols=True,
            leave=False,
            file=sys.stderr,
        )

    def to(self, position: int) -> None:
        if self.bar is not None and position > self.at:
            self.bar.update(position - self.at)
            self.at = position

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


class Stats:
    def __init__(self, command: str) -> None:
        self.command = command
        self.read = 0
        self.written = 0
        self.rejected = 0
        self.coerced_as = "empty lines"  # what --errors coerce writes
        self.started = time.perf_counter()

    def summary(self, errors: str | None, stopped_at: int | None, unit: str) -> str:
        seconds = max(time.perf_counter() - self.started, 1e-9)
        parts = [f"{self.read:,} rows read"]
        if self.command != "validate":
            parts.append(f"{self.written:,} written")
        rejected = f"{self.rejected:,} rejected"
        if self.rejected and stopped_at is None:
            rejected += {
                "coerce": f" (written as {self.coerced_as})",
                "ignore": " (passed through unchanged)",
            }.get(errors, "")
        parts.append(rejected)
        text = f"fastxfen {self.command}: " + ", ".join(parts)
        if stopped_at is not None:
            text += f"; stopped at {unit} {stopped_at}"
        return text + f" in {seconds:.2f} s ({self.read / seconds:,.0f} positions/s)"


# ------------------------------------------------------------------ commands


def _threads(args, rows: int) -> int:
    if args.threads:
        return args.threads
    # Auto: one thread per 16384 rows, up to the cores (0 = the library's own
    # choice, which splits only much larger batches than a chunk holds).
    return max(1, min(os.cpu_count() or 1, rows // 16384))


def _fix_reason(error: FenError) -> FenError:
    if error.reason.startswith("a 10-wide position needs encode("):
        return FenError(error.index, error.column, error.field, _WIDE_ROW_HINT)
    return error


class TextJob:
    """Runs one text command over the chunks of the input.  A subclass gives
    ``run`` (the library call on a batch), ``emit`` (write the first rows of
    its result) and ``on_long_line``."""

    counts_first = True  # whether run needs the batch's lines counted first

    def __init__(self, args, stats: Stats, rejects: Rejects) -> None:
        self.args = args
        self.stats = stats
        self.rejects = rejects
        self.errors = getattr(args, "errors", None)
        self.raise_mode = self.errors == "raise"

    def reject(self, number: int, error: FenError, original) -> None:
        self.stats.rejected += 1
        self.rejects.add(number, error, original)
        if self.raise_mode:
            raise Rejected(number, error)

    def chunk(self, chunk, line: int) -> int:
        """Handle a buffer of whole lines, the first being line ``line + 1``;
        return the number of rows."""
        batch = _bulk.lines(chunk, self.args.threads or 0, self.counts_first)
        # Always run in coerce mode: under --errors raise the rows before the
        # first rejected one are still written, and the batch is not run twice.
        result = self.run(batch, batch.rows_reckoned())
        n = batch.n
        self.stats.read += n
        failures = self.failures(batch, result)
        upto = failures[0][0] if failures and self.raise_mode else n
        self.emit(result, upto)
        self.stats.written += upto
        if failures:
            newlines = _newlines(chunk)
            for row, error in failures:
                self.reject(line + row + 1, _fix_reason(error), _line_of(chunk, newlines, row))
        self.after_chunk()
        return n

    def failures(self, batch, result) -> list:
        """(row, FenError) of every rejected row of the batch, in row order."""
        return batch.failures()

    def after_chunk(self) -> None:
        pass

    def long_line(self, item: LongLine, line: int) -> None:
        self.stats.read += 1
        try:
            if not self.raise_mode:
                self.on_long_line(item)
                self.stats.written += 1
            self.reject(line + 1, _long_line_error(), item)
        finally:
            item.close()


class NormalizeJob(TextJob):
    counts_first = False  # normalize counts the lines in its jobs

    # Output buffers taken in turn: the writer holds at most one chunk while
    # the next is normalized (Output.write returns once the chunk before is
    # written), so a buffer is free again by the chunk after next.
    # Reused memory spares the page faults of a fresh result per chunk.
    OUTPUT_BUFFERS = 2

    def __init__(self, args, stats, rejects, output: Output) -> None:
        super().__init__(args, stats, rejects)
        self.output = output
        # sized for the largest chunk text_chunks makes of short lines
        size = _bulk.text_bound(CARRY_ROOM + min(args.chunk_size, MAX_LINE))
        self._outputs = [bytearray(size) for _ in range(self.OUTPUT_BUFFERS)]

    def run(self, batch, n):
        a = self.args
        errors = "coerce" if self.raise_mode else a.errors
        into = self._outputs[0]
        self._outputs.append(self._outputs.pop(0))
        return batch.normalize(
            a.castling, a.en_passant, errors, _threads(a, n), True, a.epd, ends=False, into=into
        )

    def emit(self, result, upto):
        data, _, failed = result
        if not (failed and upto == failed[0]):
            self.output.write(data)
        elif upto:  # stopping at a rejected row
            # Each row's text ends with its own line's terminator (a coerced
            # row is just the terminator), so row upto starts past the
            # upto-th newline.
            self.output.write(memoryview(data)[: int(_newlines(data)[upto - 1]) + 1])

    def on_long_line(self, item):
        if self.errors == "ignore":
            item.copy_to(self.output.write)
        else:
            self.output.write(item.terminator)


class ValidateJob(TextJob):
    def __init__(self, args, stats, rejects, output: Output) -> None:
        super().__init__(args, stats, rejects)
        self.output = output
        self.messages: list = []

    def run(self, batch, n):
        return batch.validate(_threads(self.args, n), self.args.epd)

    def emit(self, result, upto):
        pass

    def reject(self, number, error, original):
        self.messages.append(f"{number}: {error.location}: {error.reason}\n")
        super().reject(number, error, original)

    def after_chunk(self):
        if self.messages:
            self.output.write("".join(self.messages).encode())
            self.messages = []

    def on_long_line(self, item):
        pass

    def long_line(self, item, line):
        super().long_line(item, line)
        self.after_chunk()


class EncodeJob(TextJob):
    """Text -> records -> the rows of one --format (see _cli_formats)."""

    def __init__(self, args, stats, rejects, writer, encoder) -> None:
        super().__init__(args, stats, rejects)
        self.writer = writer
        self.encoder = encoder

    def run(self, batch, n):
        a = self.args
        records = batch.encode(self.encoder.width, "coerce", _threads(a, n), a.epd)
        return self.encoder.convert(records)

    def failures(self, batch, result):
        return formats.merge(batch.failures(), result[1])

    def emit(self, result, upto):
        self.writer.write(self.encoder.cut(result[0], upto))

    def on_long_line(self, item):
        self.writer.write(self.encoder.null())


def _run_text(args, job_type, output_kind: str) -> int:
    stats = Stats(args.command)
    with contextlib.ExitStack() as stack:
        source = Input(args.input, stack)
        if source.path is None and sys.stdin.isatty() and not args.quiet:
            print(
                "fastxfen: reading positions from the terminal (end with Ctrl-D)", file=sys.stderr
            )
        output = _open_output(args, stack, binary=output_kind == "binary")
        rejects = Rejects(args.rejects)
        stack.callback(rejects.close)
        if output_kind == "binary":
            encoder = _make(formats.encoder, args)
            stats.coerced_as = encoder.coerced_as
            if args.format == "lichess":
                writer = StreamWriter(output)
            else:
                writer = NpyWriter(output, encoder.dtype, encoder.row_shape)
            stack.callback(writer.close)
            job = job_type(args, stats, rejects, writer, encoder)
        else:
            job = job_type(args, stats, rejects, output)
        progress = Progress(not args.quiet, source.size)
        stack.callback(progress.close)
        line = 0
        stopped = None
        try:
            items = mapped_text_chunks(source, args.chunk_size)
            chunks = prefetch(items or text_chunks(source, args.chunk_size))
            stack.callback(chunks.close)
            for item in chunks:
                if isinstance(item, LongLine):
                    job.long_line(item, line)
                    line += 1
                else:
                    line += job.chunk(item, line)
                item = None  # let the chunk go before the next one is asked for
                progress.to(source.position())
        except Rejected as exc:
            stopped = exc
            stats.read = exc.number  # the rows up to the rejected one
    # Everything is closed (and the .npy header final) before reporting.
    return _finish(args, stats, stopped, "line")


def _finish(args, stats: Stats, stopped, unit: str) -> int:
    if not args.quiet:
        print(
            stats.summary(getattr(args, "errors", None), stopped.number if stopped else None, unit),
            file=sys.stderr,
        )
    if stopped is not None:
        print(f"fastxfen: error: {stopped}", file=sys.stderr)
        if not args.quiet:
            print(
                "fastxfen: --errors raise stops at the first rejected row; "
                "--errors coerce keeps going and --rejects FILE lists every rejected row",
                file=sys.stderr,
            )
        return EXIT_FAILED
    return EXIT_REJECTED if stats.rejected else EXIT_OK


def _open_output(args, stack, binary: bool) -> Output:
    for other, what in ((args.input, "input"), (getattr(args, "rejects", None), "--rejects")):
        if other and args.output and _same_file(args.output, other):
            raise CliError(f"the output {args.output} is also the {what}")
    if args.rejects and _same_file(args.rejects, args.input):
        raise CliError(f"the --rejects file {args.rejects} is also the input")
    if args.rejects and _is_stdio(args.rejects) and _is_stdio(args.output):
        raise CliError("the output and --rejects cannot both go to stdout")
    if binary and _is_stdio(args.output):
        try:
            tty = sys.stdout.isatty()
        except (AttributeError, ValueError):
            tty = False
        if tty:
            raise CliError(
                "refusing to write binary .npy records to a terminal; "
                "use -o FILE.npy or redirect stdout"
            )
    level = args.level
    if level is not None:
        kind = _compression(args.output)
        top = {"gzip": 9, "bzip2": 9, "xz": 9, "zstd": 22}.get(kind)
        if top is None:
            raise CliError("--level applies to a compressed OUT (.gz, .bz2, .xz, .zst)")
        if not (1 if kind == "bzip2" else 0) <= level <= top:
            raise CliError(
                f"--level for {kind} is between {1 if kind == 'bzip2' else 0} "
                f"and {top}, not {level}"
            )
    output = Output(args.output, background=True, level=level, drop_behind=not args.keep_cache)
    stack.callback(output.close)
    return output


def _npy_chunks(args, source: Input, stack, decoder):
    """Arrays of rows of the .npy input, --chunk-size bytes at a time; a
    plain file is memory-mapped, anything else is read as a stream."""
    dtype, count, row_shape = _read_npy_header(source, decoder)
    row_bytes = dtype.itemsize * int(np.prod(row_shape, dtype=np.int64))
    rows = max(1, args.chunk_size // max(row_bytes, 1))
    progress = Progress(not args.quiet, count, "rows")
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


def _frame_chunks(args, source: Input, stack):
    """LichessChunks of a framed lichess stream, read --chunk-size bytes at a
    time; a value cut by a read is carried into the next one."""
    progress = Progress(not args.quiet, source.size)
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


def _decode_chunk(args, decoder, rows, done: int, output: Output, rejects, stats) -> None:
    """Write the text of one chunk of rows, the first being row done + 1."""
    n = len(rows)
    stats.read += n
    records, failures = decoder.convert(rows)
    batch = _bulk.records(np.ascontiguousarray(records.reshape(-1)))
    text, ends, _ = batch.decode(args.castling, args.en_passant, "coerce", _threads(args, n), True)
    bad = formats.merge([(e.index, e) for e in failures], [e for _, e in batch.failures()])
    raise_mode = args.errors == "raise"
    keep = bad[0][0] if raise_mode and bad else n
    if keep:
        output.write(text if keep == n else text[: ends[keep - 1]])
    stats.written += keep
    for i, error in bad:
        stats.rejected += 1
        rejects.add(done + i + 1, error, decoder.original(rows, i).hex().encode())
        if raise_mode:
            raise Rejected(done + i + 1, error, "record")


def cmd_decode(args) -> int:
    _check_format_options(args, _DECODE_OPTIONS)
    decoder = _make(formats.decoder, args)
    stats = Stats("decode")
    stopped = None
    with contextlib.ExitStack() as stack:
        source = Input(args.input, stack)
        output = _open_output(args, stack, binary=False)
        rejects = Rejects(args.rejects)
        stack.callback(rejects.close)
        if decoder.npy:
            chunks = _npy_chunks(args, source, stack, decoder)
        else:
            chunks = _frame_chunks(args, source, stack)
        done = 0
        try:
            for rows in chunks:
                _decode_chunk(args, decoder, rows, done, output, rejects, stats)
                done += len(rows)
                rows = None
        except Rejected as exc:
            stopped = exc
            stats.read = exc.number
    return _finish(args, stats, stopped, "record")


def cmd_normalize(args) -> int:
    if getattr(args, "dask", None) or getattr(args, "more_inputs", None):
        return cmd_normalize_dask(args)
    return _run_text(args, NormalizeJob, "text")


def cmd_normalize_dask(args) -> int:
    """``normalize --dask ADDRESS INPUT... -o OUTDIR``: one task per input file
    on a running Dask cluster (see fastxfen.dask)."""
    if not args.dask:
        raise CliError("several INPUT files need --dask SCHEDULER_ADDRESS (and -o OUTDIR)")
    from fastxfen import dask as fx_dask

    try:
        return fx_dask.run_normalize_command(args)
    except ImportError as exc:
        raise CliError(str(exc)) from None


def cmd_pgn(args) -> int:
    """``pgn``: normalize the FEN tags of a PGN file (see fastxfen.pgn)."""
    from fastxfen import pgn

    return pgn.run_command(args)


def cmd_validate(args) -> int:
    return _run_text(args, ValidateJob, "text")


def cmd_encode(args) -> int:
    _check_format_options(args, _ENCODE_OPTIONS)
    return _run_text(args, EncodeJob, "binary")


def _make(factory, args):
    """factory(args), its ValueError (a bad option) a usage error."""
    try:
        return factory(args)
    except ValueError as exc:
        raise CliError(str(exc)) from None


#: The encode and decode options that apply to some formats only.
_ENCODE_OPTIONS = {
    "width": ("npy", "planes"),
    "en_passant": ("lichess", "stockfish", "planes"),
    "extra": ("planes",),
    "perspective": ("planes",),
    "dtype": ("planes",),
}
_DECODE_OPTIONS = {"extra": ("planes",), "perspective": ("planes",)}


def _check_format_options(args, options) -> None:
    for name, kinds in options.items():
        if getattr(args, name, None) is not None and args.format not in kinds:
            option = "--" + name.replace("_", "-")
            raise CliError(f"{option} applies to --format {' or '.join(kinds)} only")


# ------------------------------------------------------------------ arguments


def _size(text: str) -> int:
    units = {"k": 1 << 10, "m": 1 << 20}
    scale = units.get(text[-1:].lower(), 1)
    number = text[:-1] if scale != 1 else text
    try:
        value = int(number) * scale
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (try 8M)") from None
    if not 1 <= value <= MAX_LINE:
        raise argparse.ArgumentTypeError(
            f"must be between 1 byte and {MAX_LINE >> 20}M, not {text}"
        )
    return value


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, not {text!r}")
    return value


EPILOG = """\
files:
  INPUT and -o OUT may be '-' (the default) for stdin and stdout. Names ending
  in .gz, .bz2 or .xz are decompressed when read and compressed when written;
  .zst too when the zstandard package is installed.

exit status:
    0  every row was accepted
    1  some rows were rejected (--errors coerce or ignore, or validate found bad rows)
    2  usage error, unreadable input or unwritable output, or a row rejected
       under --errors raise (the message names its line, column, field and reason)
  130  interrupted
"""

FORMATS_HELP = """\
formats (--format):
  npy        .npy of records, POSITION_DTYPE or POSITION_DTYPE_10x8 (N,)
  stockfish  .npy of uint8 (N, 24): Stockfish's 24-byte position; decode gives
             the counters 0 and 1 (the format holds none)
  planes     .npy of (N, C, 8, W) plane tensors, see --extra, --perspective,
             --width, --dtype; decode needs the same --extra and --perspective
  lichess    lichess binary FEN: each value after one length byte (0..64); a
             null value (a row rejected under --errors coerce) is the byte 255
  Positions that a format cannot hold (10x8 boards in stockfish, lichess and
  8-wide planes; Chess960 rights of inner rooks in stockfish; ...) are
  rejected rows, named by line, column, field and reason.
"""

ROWS_HELP = """\
rows:
  One position per line; a line may end in \\n or \\r\\n, and the last one may
  lack its newline. Output row i belongs to input row i, in input order. Line
  numbers are 1-based over the whole input; columns are 0-based byte offsets
  into the line.
"""


def _parser() -> argparse.ArgumentParser:
    def fmt(prog):
        return argparse.RawDescriptionHelpFormatter(prog, max_help_position=28)

    def para(text):
        return textwrap.fill(" ".join(text.split()), 79)

    parser = argparse.ArgumentParser(
        prog="fastxfen",
        description=para(
            "Read and write chess positions in FEN, X-FEN and Shredder-FEN (8x8 and "
            "10x8 boards), streaming files of any size in bounded memory."
        ),
        epilog=EPILOG,
        formatter_class=fmt,
    )
    parser.add_argument("--version", action="version", version=f"fastxfen {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def command(name, summary, description, epilog, run):
        p = commands.add_parser(
            name, help=summary, description=para(description), epilog=epilog, formatter_class=fmt
        )
        p.set_defaults(run=run)
        return p

    def common(p, input_help, output_help, threads=True):
        p.add_argument("input", nargs="?", default="-", metavar="INPUT", help=input_help)
        p.add_argument("-o", "--output", default="-", metavar="OUT", help=output_help)
        p.add_argument(
            "--rejects",
            metavar="FILE",
            help="write one tab-separated line per rejected row: line number, column, "
            "field, reason, and the row exactly as read (without its line terminator)"
            if threads
            else "write one tab-separated line per rejected record: record number, column, "
            "field, reason, and the record's bytes in hex",
        )
        if threads:
            p.add_argument(
                "--epd",
                action="store_true",
                help="rows are EPD: the four position fields then operations "
                "('bm Nf3; id \"x\";'), which are kept byte for byte; hmvc/fmvn "
                "operations give the counters",
            )
            threads_option(p, "rows")
        p.add_argument(
            "--chunk-size",
            type=_size,
            default=DEFAULT_CHUNK,
            metavar="BYTES",
            help="read the input this many bytes at a time (suffix K or M; default 8M, "
            "at most 16M); memory use grows with it",
        )
        p.add_argument(
            "--level",
            type=int,
            metavar="N",
            help="compression level of a compressed OUT (default: the format's usual "
            "one: gzip 6, bzip2 9, xz 6, zstd 3; gzip 1 is several times faster)",
        )
        last_options(p)

    def threads_option(p, unit):
        p.add_argument(
            "--threads",
            type=_positive,
            metavar="N",
            help=f"threads per chunk (default: one per 16384 {unit} of a chunk, up to "
            "the number of CPUs)",
        )

    def last_options(p):
        p.add_argument(
            "--keep-cache",
            action="store_true",
            help="leave a large OUT file in the page cache as written (by default, "
            "past its first 256 MB the pages the disk has taken are released behind "
            "the writer: memory stays free, and where new memory is slow to get, as "
            "on some virtual machines, the run is faster)",
        )
        p.add_argument(
            "-q", "--quiet", action="store_true", help="no progress bar and no summary on stderr"
        )

    def modes(p):
        p.add_argument(
            "--castling",
            choices=("xfen", "shredder"),
            default="xfen",
            help="castling field style: 'xfen' writes KQkq, using a rook's file letter "
            "only where K or Q would name another rook; 'shredder' always writes rook "
            "files, e.g. HAha (default: xfen)",
        )
        p.add_argument(
            "--en-passant",
            choices=("fen", "xfen", "legal"),
            default="xfen",
            help="which valid en-passant targets to keep: 'fen' every one, 'xfen' only "
            "when a pawn can capture, 'legal' only when such a capture is legal "
            "(default: xfen)",
        )

    def formats_option(p):
        p.add_argument(
            "--format",
            choices=formats.FORMATS,
            default="npy",
            help="the binary file's format (default: npy, records); see below",
        )

    def planes_options(p, decode=False):
        again = " (give the values the planes were written with)" if decode else ""
        p.add_argument(
            "--extra",
            metavar="NAME[,NAME...]",
            help="planes: extra planes after the piece planes, in this order: "
            + ", ".join(formats.ex.PLANE_EXTRAS)
            + again,
        )
        p.add_argument(
            "--perspective",
            choices=("white", "side_to_move"),
            help="planes: 'white' the board as it stands; 'side_to_move' mirrored and "
            "colors swapped when black is to move (default: white)" + again,
        )

    text_epilog = ROWS_HELP + "\n" + EPILOG
    text_input = "FEN text, one position per line (default: stdin)"

    p = command(
        "normalize",
        "rewrite positions in canonical form",
        "Rewrite every position in canonical form: castling rights and en-passant "
        "targets checked against the board, counters without leading zeros, single "
        "spaces between fields. Each line keeps its own terminator.",
        text_epilog,
        cmd_normalize,
    )
    common(p, text_input, "where to write the text (default: stdout)")
    modes(p)
    p.add_argument(
        "--errors",
        choices=("raise", "coerce", "ignore"),
        default="raise",
        help="what to do with a row that cannot be read: 'raise' stops at the first "
        "one (exit status 2); 'coerce' writes an empty line in its place; 'ignore' "
        "copies it unchanged; with coerce or ignore the exit status is 1 if any row "
        "was rejected (default: raise)",
    )
    p.add_argument(
        "more_inputs", nargs="*", metavar="INPUT", help="with --dask: more input files (or shards)"
    )
    p.add_argument(
        "--dask",
        metavar="SCHEDULER_ADDRESS",
        help="run on a Dask cluster (pip install fastxfen[dask]): each INPUT becomes a "
        "task that normalizes it with this same streaming code and writes OUT/<name>; "
        "-o OUT is then a directory, and --rejects DIR too (DIR/<name>). The files must "
        "be reachable by the workers under the same paths",
    )

    p = command(
        "validate",
        "report the rows that cannot be read",
        "Check every row. Prints 'LINE: column C (field): reason' for each bad row "
        "and nothing for good ones; the exit status is 1 if any row is bad.",
        text_epilog,
        cmd_validate,
    )
    common(p, text_input, "where to write the messages (default: stdout)")
    p.set_defaults(errors=None)

    p = command(
        "encode",
        "turn positions into records, planes or packed positions",
        "Turn positions into the rows of a binary file, by --format: 'npy' (default) "
        "fixed-size records (fastxfen.POSITION_DTYPE, 80 bytes, or "
        "POSITION_DTYPE_10x8, 96 bytes) in a .npy file; 'stockfish' a .npy of uint8 "
        "shape (N, 24), Stockfish's compressed position; 'planes' a .npy of plane "
        "tensors (N, C, 8, W) as fastxfen.to_planes gives; 'lichess' lichess binary "
        "FEN values, each after a length byte (255 alone for a rejected row). A .npy "
        "header holds the final count, so writing one to stdout or to a compressed "
        "file first spools the rows to a temporary file; numpy.load(..., "
        "mmap_mode='r') maps a plain one.",
        FORMATS_HELP + "\n" + text_epilog,
        cmd_encode,
    )
    common(p, text_input, "the file to write (default: stdout, never a terminal)")
    formats_option(p)
    p.add_argument(
        "--width",
        type=int,
        choices=(8, 10),
        help="npy: 8 gives 80-byte records and rejects 10-wide rows, 10 gives 96-byte "
        "records holding 8x8 and 10x8 positions; planes: the board width, 8 (12 piece "
        "planes) or 10 (16 piece planes), rows of the other width rejected (default: 8)",
    )
    p.add_argument(
        "--en-passant",
        choices=("fen", "xfen", "legal"),
        help="lichess, stockfish, planes: which valid en-passant target to store (the "
        "'en_passant' plane): 'fen' every one, 'xfen' only when a pawn can capture, "
        "'legal' only when such a capture is legal (default: fen, lossless)",
    )
    planes_options(p)
    p.add_argument(
        "--dtype",
        metavar="DTYPE",
        help="planes: the element type, a numpy name: bool, uint8, int8, ..., float16, "
        "float32, float64 (default: uint8)",
    )
    p.add_argument(
        "--errors",
        choices=("raise", "coerce"),
        default="raise",
        help="'raise' stops at the first row that cannot be read or stored (exit status "
        "2); 'coerce' writes a null row in its place (npy: the null record of width 0; "
        "stockfish, planes: zeros; lichess: the byte 255), and the exit status is 1 if "
        "any row was rejected (default: raise)",
    )

    p = command(
        "decode",
        "turn records, planes or packed positions back into text",
        "Write the canonical text of each row of a file written by 'fastxfen encode' "
        "with the same --format (or by numpy.save of such arrays), one line per row. "
        "A plain .npy file is memory-mapped and read a chunk at a time.",
        FORMATS_HELP + "\n" + EPILOG,
        cmd_decode,
    )
    common(
        p,
        "the file to read (default: stdin)",
        "where to write the text (default: stdout)",
        threads=False,
    )
    formats_option(p)
    modes(p)
    planes_options(p, decode=True)
    p.add_argument(
        "--errors",
        choices=("raise", "coerce"),
        default="raise",
        help="'raise' stops at the first row that cannot be read (exit status 2); "
        "'coerce' writes an empty line in its place (the null rows of 'encode --errors "
        "coerce' cannot be read), and the exit status is 1 if any row was rejected "
        "(default: raise)",
    )
    threads_option(p, "rows")

    p = command(
        "pgn",
        "normalize the FEN tags of a PGN file",
        'Stream a PGN file and rewrite the value of every [FEN "..."] tag of a game\'s '
        "header section in canonical form, leaving every other byte untouched; a game "
        'with a FEN tag but no SetUp tag gets [SetUp "1"] just before its first FEN '
        "tag. Castling is read Chess960-style whatever the Variant tag says.",
        "rejected games:\n"
        "  A game whose FEN tag cannot be read is handled whole: 'raise' stops before\n"
        "  it, 'coerce' drops it, 'ignore' copies it unchanged. --rejects FILE gets\n"
        "  each such game as a line\n"
        "    %fastxfen<TAB>GAME<TAB>LINE<TAB>COLUMN<TAB>FIELD<TAB>REASON\n"
        "  followed by the game's original bytes (a PGN escape line: the file stays\n"
        "  readable as PGN). GAME and LINE are 1-based, COLUMN a 0-based byte offset\n"
        "  into the line.\n\n" + EPILOG,
        cmd_pgn,
    )
    p.add_argument(
        "input", nargs="?", default="-", metavar="INPUT", help="a PGN file (default: stdin)"
    )
    p.add_argument(
        "-o",
        "--output",
        default="-",
        metavar="OUT",
        help="where to write the PGN text (default: stdout)",
    )
    modes(p)
    p.add_argument(
        "--errors",
        choices=("raise", "coerce", "ignore"),
        default="raise",
        help="what to do with a game whose FEN tag cannot be read: 'raise' stops there "
        "(exit status 2); 'coerce' drops the game; 'ignore' copies it unchanged; with "
        "coerce or ignore the exit status is 1 if any game was rejected (default: raise)",
    )
    p.add_argument(
        "--select",
        choices=("standard", "setup"),
        help="keep only the games without a FEN tag (and without a Variant tag naming "
        "another game than chess): 'standard'; or only those with one: 'setup'",
    )
    p.add_argument(
        "--rejects",
        metavar="FILE",
        help="write every rejected game there, after a %%fastxfen line naming "
        "game, line, column, field and reason",
    )
    threads_option(p, "FEN tags")
    p.add_argument(
        "--chunk-size",
        type=_size,
        default=DEFAULT_CHUNK,
        metavar="BYTES",
        help="read the input this many bytes at a time (suffix K or M; default 8M, at "
        "most 16M); chunks are cut at game starts; memory use grows with it",
    )
    p.add_argument(
        "--level",
        type=int,
        metavar="N",
        help="compression level of a compressed OUT (default: the format's usual one)",
    )
    last_options(p)
    return parser


def main(argv=None) -> int:
    """Run the command line ``argv`` (default: sys.argv[1:]); return the exit status."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_FAILED
    try:
        return args.run(args)
    except CliError as exc:
        print(f"fastxfen: error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, and keep Python
        # from complaining when it flushes stdout at exit.
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILED
    except KeyboardInterrupt:
        print("fastxfen: interrupted", file=sys.stderr)
        return 130
