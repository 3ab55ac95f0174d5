"""Inputs and outputs of the commands: files and standard streams,
compression by file extension, the background writer, the .npy and stream
writers, and the checks that the input, output and rejects file are
different files.

The atomic writing of outputs (temporary name, fsync, rename) belongs here,
in Output and ``open_output``, next to the aliasing check ``same_file``.
"""

from __future__ import annotations

import bz2
import contextlib
import gzip
import lzma
import os
import queue
import stat
import struct
import sys
import tempfile
import threading
import zlib

import numpy as np

from fastxfen.cli.dropbehind import DropBehind
from fastxfen.cli.errors import CliError

#: Bytes read (and copied out of a spool file) at a time by default.
DEFAULT_CHUNK = 8 << 20
#: Digits reserved in the .npy header for the record count (2**64 has 20).
_COUNT_DIGITS = 20

_COMPRESSED = {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz", ".zst": "zstd"}


def compression(path: str | None) -> str | None:
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


def is_stdio(path: str | None) -> bool:
    return path is None or path == "-"


class Input:
    """A byte stream read from a file (decompressed by its extension) or stdin."""

    def __init__(self, path: str | None, stack: contextlib.ExitStack) -> None:
        self.consumed = 0
        self.size = None
        self.regular = False  # a regular file, which can be memory-mapped
        self.mapped = False  # read through a map: consumed is the position
        if is_stdio(path):
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
        kind = compression(path)
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
    behind the writer (``dropbehind``)."""

    def __init__(
        self, path: str | None, background: bool = False, level=None, drop_behind: bool = False
    ) -> None:
        self.kind = compression(path)
        self.background = None
        self.drop = None
        self._open(path, level)
        if drop_behind and not self.is_stdout:
            self.drop = DropBehind.attach(self.raw.fileno())
        if background:
            self.background = _Background(self._write)

    def _open(self, path: str | None, level) -> None:
        if is_stdio(path):
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


def same_file(a: str | None, b: str | None) -> bool:
    """Whether two paths name the same file (stdin and stdout name none)."""
    if is_stdio(a) or is_stdio(b):
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


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


def open_output(args, stack, binary: bool) -> Output:
    """The command's output (closed by ``stack``), once it is known not to be
    its input or rejects file, not a terminal for ``binary`` rows, and its
    --level fits its compression."""
    for other, what in ((args.input, "input"), (getattr(args, "rejects", None), "--rejects")):
        if other and args.output and same_file(args.output, other):
            raise CliError(f"the output {args.output} is also the {what}")
    if args.rejects and same_file(args.rejects, args.input):
        raise CliError(f"the --rejects file {args.rejects} is also the input")
    if args.rejects and is_stdio(args.rejects) and is_stdio(args.output):
        raise CliError("the output and --rejects cannot both go to stdout")
    if binary and is_stdio(args.output):
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
        kind = compression(args.output)
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
