"""Inputs and outputs of the commands: files and standard streams,
compression by file extension, the background writer, the .npy and stream
writers, and the checks that the input, output and rejects file are
different files.

Outputs are written under a temporary name and published together by a
Publication (fsync, then rename) only when the run succeeds; a run stopped by
an error, a signal or a row rejected under ``--errors raise`` publishes
nothing.  Before anything is written, ``check_distinct`` refuses an input,
output and rejects file that are the same file by any route.
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

from fastxfen import _options
from fastxfen.cli import signals
from fastxfen.cli.compress import GzipMembers
from fastxfen.cli.direct import DirectWriter
from fastxfen.cli.dropbehind import START as DROP_START
from fastxfen.cli.dropbehind import DropBehind
from fastxfen.cli.errors import CliError, Rejected

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
        raise CliError(
            ".zst files need the zstandard package, a dependency of fastxfen missing here "
            "(pip install zstandard)"
        ) from None
    return zstandard


#: What Python's gzip says of a member cut after its first byte (any other
#: cut of a member header is an EOFError).
_GZIP_HALF_MAGIC = "Not a gzipped file (b'\\x1f')"


class BadFrame(ValueError):
    """A .zst file whose bytes do not follow the zstd frame layout."""


def _stream_errors() -> tuple:
    """What reading or writing a (compressed) stream raises on bad data or a
    failing device."""
    errors = [OSError, EOFError, lzma.LZMAError, zlib.error, BadFrame]
    zstandard = sys.modules.get("zstandard")
    if zstandard is not None:
        errors.append(zstandard.ZstdError)
    return tuple(errors)


def is_stdio(path: str | None) -> bool:
    return path is None or path == "-"


class Input:
    """A byte stream read from a file (decompressed by its extension) or stdin.

    A regular file is watched: its size and modification time are taken when
    it is opened and compared after every read, so that a file truncated,
    rewritten or grown during the run ends it with a CliError instead of a
    wrong answer.  A compressed stream that ends inside a frame (member,
    stream) or holds bad data is a CliError naming the file and the byte."""

    def __init__(self, path: str | None, stack: contextlib.ExitStack) -> None:
        self.consumed = 0
        self.size = None
        self.kind = None  # the compression
        self._stamp = None  # (size, mtime) of a regular file when opened
        self._frames = None  # a .zst file's frame layout, followed as it is read
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
        if stat.S_ISDIR(st.st_mode):
            raise CliError(f"cannot read {path}: Is a directory")
        if stat.S_ISREG(st.st_mode):
            self._stamp = (st.st_size, st.st_mtime_ns)
            self.size = st.st_size or None
        self.kind = kind = compression(path)
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
            self._frames = ZstdFrames(self.raw)
            self.stream = stack.enter_context(
                zstd.ZstdDecompressor().stream_reader(
                    self._frames, read_across_frames=True, closefd=False
                )
            )

    def read(self, n: int) -> bytes:
        try:
            data = self.stream.read(n)
        except _stream_errors() as exc:
            raise self._fault(exc) from None
        self._check(len(data))
        self.consumed += len(data)
        return data

    def readinto(self, buffer) -> int:
        try:
            n = self.stream.readinto(buffer)
        except _stream_errors() as exc:
            raise self._fault(exc) from None
        self._check(n)
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
        if self.size is not None:
            try:
                return self.raw.tell()
            except (OSError, ValueError):
                pass
        return self.consumed

    def _raw_read(self) -> int:
        """Bytes of the file (compressed ones) read so far."""
        if self._frames is not None:
            return self._frames.seen
        try:
            return self.raw.tell()
        except (OSError, ValueError):
            return self.consumed

    def _changed(self) -> CliError | None:
        if self._stamp is None:
            return None
        try:
            st = os.fstat(self.raw.fileno())
        except (OSError, ValueError):
            return None
        if (st.st_size, st.st_mtime_ns) == self._stamp:
            return None
        return CliError(
            f"{self.name} changed during the run (it held {self._stamp[0]:,} bytes when "
            f"opened, {st.st_size:,} now); nothing was published"
        )

    def _check(self, got: int) -> None:
        """After a read of ``got`` bytes: a CliError if the file changed, or
        if the stream ended (got 0) inside a zstd frame."""
        changed = self._changed()
        if changed is not None:
            raise changed
        if not got and self._frames is not None and not self._frames.complete():
            raise CliError(f"{self.name}: truncated zstd stream after {self._frames.seen:,} bytes")

    def _fault(self, exc: BaseException) -> CliError:
        """The CliError for what reading raised: the file changed, a
        truncated or corrupt compressed stream, or a failing device."""
        changed = self._changed()
        if changed is not None:
            return changed
        if self.kind is not None:
            at = self._raw_read()
            if isinstance(exc, EOFError) or str(exc) == _GZIP_HALF_MAGIC:
                return CliError(f"{self.name}: truncated {self.kind} stream after {at:,} bytes")
            if not (isinstance(exc, OSError) and exc.errno):
                return CliError(f"{self.name}: corrupt {self.kind} stream near byte {at:,}: {exc}")
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        return CliError(f"cannot read {self.name}: {detail}")


class ZstdFrames:
    """The bytes of a .zst file on their way to the decompressor, followed
    through the frame layout (RFC 8878: frame headers, block headers and
    sizes, checksums, skippable frames), so that the end of the file can be
    told from a cut: the decompressor reads a stream that stops inside a frame
    as if it were complete.  Only headers are read here; blocks are skipped."""

    _MAGIC = 0xFD2FB528
    _SKIPPABLE = 0x184D2A50  # the magic numbers 0x184D2A50..5F

    def __init__(self, raw) -> None:
        self.raw = raw
        self.seen = 0  # bytes passed on
        self._state = "magic"
        self._want = 4  # bytes of the header being read
        self._head = bytearray()
        self._skip = 0  # bytes of block (or frame) data still to pass
        self._checksum = False

    def read(self, n: int = -1) -> bytes:
        data = self.raw.read(n)
        self._follow(data)
        return data

    def complete(self) -> bool:
        """Whether the bytes so far end where a frame ends."""
        return self._state == "magic" and not self._head and not self._skip

    def _follow(self, data: bytes) -> None:
        at, size = 0, len(data)
        while at < size:
            if self._skip:
                step = min(self._skip, size - at)
                self._skip -= step
                at += step
                continue
            step = min(self._want - len(self._head), size - at)
            self._head += data[at : at + step]
            at += step
            if len(self._head) == self._want:
                head = int.from_bytes(self._head, "little")
                self._head.clear()
                self._header(head, self.seen + at)
        self.seen += size

    def _header(self, value: int, end: int) -> None:
        """Take a complete header that ends at byte ``end``."""
        state = self._state
        if state == "magic":
            if value == self._MAGIC:
                self._state, self._want = "frame", 1
            elif value & 0xFFFFFFF0 == self._SKIPPABLE:
                self._state, self._want = "skippable", 4
            else:
                raise BadFrame(f"no zstd frame starts at byte {end - 4:,}")
        elif state == "skippable":
            self._skip = value
            self._state, self._want = "magic", 4
        elif state == "frame":  # the frame header descriptor
            single = value >> 5 & 1
            self._checksum = bool(value >> 2 & 1)
            content_size = (single, 2, 4, 8)[value >> 6]
            self._skip = (not single) + (0, 1, 2, 4)[value & 3] + content_size
            self._state, self._want = "block", 3
        else:  # a block header: last flag, type, size
            kind, size = value >> 1 & 3, value >> 3
            if kind == 3:
                raise BadFrame(f"bad zstd block type at byte {end - 3:,}")
            self._skip = 1 if kind == 1 else size
            if value & 1:  # the frame's last block; then its checksum
                self._skip += 4 * self._checksum
                self._state, self._want = "magic", 4


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
        with signals.deferred():
            signals.wait(self._idle.acquire)
            if self._error is not None:
                self._idle.release()  # nothing is queued: finish must not wait
                self._check()
            self._queue.put(data)

    def finish(self) -> None:
        with signals.deferred():
            signals.wait(self._idle.acquire)
            self._queue.put(None)
        self.join()
        self._check()

    def abandon(self) -> None:
        """Stop without writing what is queued; returns once a write in
        progress is done.  (Unlike finish, safe whatever ``put`` was doing
        when an exception stopped it.)"""
        self._failed = True
        with signals.deferred(drop=True):
            self._queue.put(None)
        self.join()


class Output:
    """A byte stream written to a file (compressed by its extension) or stdout;
    with ``background``, written from a thread of its own; with
    ``drop_behind``, a large file's pages are released from the page cache
    behind the writer (``dropbehind``); with ``direct`` too, a plain one is
    written past the page cache (``direct``).  A .gz or .zst file is
    compressed by ``threads`` threads (``compress``; zstd's own workers).

    A file is written under a temporary name in the folder of its final name
    (``.NAME.fastxfen-XXXXXXXX.tmp``) and renamed into place by ``publish``
    once complete (see Publication); through a symlink, the final name is the
    link's target, so the link stays.  A name that is not a regular file (a
    device, a named pipe) is written in place."""

    def __init__(
        self,
        path: str | None,
        background: bool = False,
        level=None,
        drop_behind: bool = False,
        threads: int = 1,
        direct: bool = False,
    ) -> None:
        self.kind = compression(path)
        self.background = None
        self.drop = None
        self.direct = None  # the DirectWriter of a plain file
        self.temp = None  # the temporary name, until published or discarded
        self.target = None  # the final name
        self._open(path, level, threads)
        if drop_behind and not self.is_stdout:
            self.drop = DropBehind.attach(self.raw.fileno())
            if direct and self.drop is not None and self.kind is None and self.temp is not None:
                self.direct = self.stream = DirectWriter(self.raw.fileno())
        if background:
            self.background = _Background(self._write)

    def _open(self, path: str | None, level, threads: int) -> None:
        if is_stdio(path):
            self.name = "<stdout>"
            self.raw = self.stream = sys.stdout.buffer
            self.is_stdout = True
            return
        self.is_stdout = False
        self.name = path
        if self.kind == "zstd":
            zstd = _zstandard()
        self.target = os.path.realpath(path) if os.path.islink(path) else path
        try:
            try:
                st = os.stat(self.target)
            except FileNotFoundError:
                st = None
            if st is not None and stat.S_ISDIR(st.st_mode):
                raise IsADirectoryError(21, "Is a directory")
            if st is None or stat.S_ISREG(st.st_mode):
                self.raw = self._temporary(st)
            else:
                self.raw = open(self.target, "wb")
        except OSError as exc:
            raise CliError(f"cannot write {path}: {exc.strerror or exc}") from None
        if self.kind is None:
            self.stream = self.raw
        elif self.kind == "gzip":
            self.stream = GzipMembers(self.raw, 6 if level is None else level, threads)
        elif self.kind == "bzip2":
            self.stream = bz2.BZ2File(self.raw, "wb", compresslevel=9 if level is None else level)
        elif self.kind == "xz":
            self.stream = lzma.LZMAFile(self.raw, "wb", preset=level)
        else:
            self.stream = zstd.ZstdCompressor(
                level=3 if level is None else level,
                write_checksum=True,
                threads=threads if threads > 1 else 0,  # 1 would be one worker
            ).stream_writer(self.raw, closefd=False)

    def _temporary(self, st):
        """The temporary file, with the mode of the file it replaces (or of a
        new file)."""
        folder, base = os.path.split(self.target)
        fd, self.temp = tempfile.mkstemp(
            prefix=f".{base}.fastxfen-", suffix=".tmp", dir=folder or "."
        )
        try:
            if hasattr(os, "fchmod"):  # (not on Windows before Python 3.13)
                os.fchmod(fd, stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_UMASK)
            return os.fdopen(fd, "wb")
        except BaseException:
            os.close(fd)
            os.unlink(self.temp)
            self.temp = None
            raise

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
                direct = self.direct
                self.drop.wrote(direct.tell() if direct is not None else self.raw.tell())
        except BrokenPipeError:
            raise
        except _stream_errors() as exc:
            raise CliError(f"cannot write {self.name}: {_reason(exc)}") from None

    def drain(self) -> None:
        """Wait for the background writes; later writes happen in place and
        stay in the page cache."""
        background, self.background = self.background, None
        try:
            if background is not None:
                background.finish()
        finally:
            self._stop_dropping()

    def _stop_dropping(self) -> None:
        drop, self.drop = self.drop, None  # after the last background write
        if drop is not None:
            with signals.deferred():
                drop.stop()

    def finish(self) -> None:
        """Write out everything (the compressed stream's end too), fsync and
        close a file; it is published apart (``publish``)."""
        self.drain()
        try:
            if self.is_stdout:
                self.raw.flush()
                return
            if self.stream is not self.raw:
                self.stream.close()
            self.raw.flush()
            if self.temp is not None:
                os.fsync(self.raw.fileno())
            self.raw.close()
        except BrokenPipeError:
            raise
        except _stream_errors() as exc:
            raise CliError(f"cannot write {self.name}: {_reason(exc)}") from None

    def publish(self) -> str | None:
        """Rename the finished temporary file to the final name; returns the
        folder to fsync, if any."""
        if self.temp is None:
            return None
        try:
            os.replace(self.temp, self.target)
        except OSError as exc:
            raise CliError(f"cannot write {self.name}: {exc.strerror or exc}") from None
        self.temp = None
        return os.path.dirname(os.path.abspath(self.target))

    def discard(self) -> None:
        """Stop writing and remove the temporary file (a run that failed);
        stdout gets what was written so far."""
        background, self.background = self.background, None
        if background is not None:
            background.abandon()
        self._stop_dropping()
        with contextlib.suppress(Exception):
            if self.is_stdout:
                self.raw.flush()
                return
            try:
                if self.stream is not self.raw:
                    self.stream.close()
            finally:
                self.raw.close()
        if self.temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(self.temp)
            self.temp = None


def _reason(exc: BaseException) -> str:
    return str(exc.strerror) if isinstance(exc, OSError) and exc.strerror else str(exc)


def _read_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


#: The process's umask, read once (reading it means setting it).
_UMASK = _read_umask()


class Publication:
    """The output files of one run, published together: when the run ends
    without an exception, each is finished (fsynced) and then renamed into
    place, the --rejects file before the output, so that an output under its
    final name always has its complete rejects file; when an exception stops
    the run (a row rejected under --errors raise, an error, SIGINT, SIGTERM,
    a full disk), every temporary file is removed and no final name is
    touched.  Stdout cannot be taken back: after a Rejected it is finished
    (the rows before the rejected one), after anything else left as it is.
    A context manager."""

    def __init__(self) -> None:
        self._outputs: list = []

    def add(self, output: Output) -> Output:
        """Take ``output``; the last one added is published first."""
        self._outputs.append(output)
        return output

    def __enter__(self) -> Publication:
        return self

    def __exit__(self, kind, exc, traceback) -> bool:
        if kind is None:
            self._commit()
        else:
            if issubclass(kind, Rejected):
                self._finish_stdout()
            self._discard()
        return False

    def _finish_stdout(self) -> None:
        try:
            for output in self._outputs:
                if output.is_stdout:
                    output.finish()
        except BaseException:
            self._discard()
            raise

    def _commit(self) -> None:
        try:
            signals.swallowed()
            for output in self._outputs:
                output.finish()
            # A signal now would leave the rejects file published without its
            # output: it waits until the renaming is done.
            with signals.deferred():
                folders = []
                for output in reversed(self._outputs):
                    folders.append(output.publish())
                for folder in dict.fromkeys(folders):
                    if folder is not None:
                        _fsync_folder(folder)
        except BaseException:
            self._discard()
            raise

    def _discard(self) -> None:
        with signals.deferred(drop=True):
            for output in self._outputs:
                output.discard()


def _fsync_folder(folder: str) -> None:
    """Make a rename in ``folder`` durable (where the system allows)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _identity(path: str):
    """What ``path`` names: (device, inode) of an existing file, else the
    path a new file would be created at (symlinks followed)."""
    try:
        st = os.stat(path)
    except OSError:
        return os.path.realpath(path)
    return (st.st_dev, st.st_ino)


def check_distinct(files) -> None:
    """A CliError if two of ``files`` ((what, path) pairs; stdin, stdout and
    None name no file) are the same file by any route: the same path, a hard
    link, a symlink, or a dangling symlink to the other's name."""
    seen: list = []
    for what, path in files:
        if is_stdio(path):
            continue
        marks = {_identity(path), os.path.realpath(path)}
        for other_what, other, other_marks in seen:
            if marks & other_marks:
                raise CliError(f"the {what} {path} and the {other_what} {other} are the same file")
        seen.append((what, path, marks))


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

    def abandon(self) -> None:
        """Let go of rows that will not be published."""
        if self.spool is not None:
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

    def abandon(self) -> None:
        pass


def close_at_end(stack: contextlib.ExitStack, writer, output) -> None:
    """Have ``stack`` close ``writer`` (which ends the table, or writes the
    .npy header, in ``output``) before the output is published: when the
    run succeeds, or when a Rejected stops it and ``output`` is stdout (so
    the rows before the rejected one make a whole stream there).  Otherwise
    the writer is abandoned: a file that will not be published is not
    finished."""

    def close(kind, exc, traceback) -> bool:
        if kind is None or (issubclass(kind, Rejected) and output.is_stdout):
            writer.close()
        else:
            writer.abandon()
        return False

    stack.push(close)


def _large_input(path) -> bool:
    """Whether the input is a file of at least DROP_START bytes, so the
    output is expected to be large: only then is a plain one written past the
    page cache from its first byte (a smaller output stays cached for what
    reads it next; stdin's size is not known)."""
    if is_stdio(path):
        return False
    try:
        return os.stat(path).st_size >= DROP_START
    except OSError:
        return False


def open_outputs(args, stack, binary: bool):
    """The command's output and its --rejects file (an Output, or None),
    published or removed together when ``stack`` closes (Publication), once
    the input, the output and the rejects file are known to be different
    files, the output not a terminal for ``binary`` rows, and its --level
    fits its compression.  Nothing is written before these checks."""
    rejects = getattr(args, "rejects", None)
    check_distinct([("input", args.input), ("output", args.output), ("--rejects file", rejects)])
    if rejects and is_stdio(rejects) and is_stdio(args.output):
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
    publication = stack.enter_context(Publication())
    # --threads also sets the threads compressing OUT (by default every CPU)
    threads = _options.threads(getattr(args, "threads", None)) or _options.cpu_count()
    output = publication.add(
        Output(
            args.output,
            background=True,
            level=level,
            drop_behind=not args.keep_cache,
            threads=threads,
            direct=_large_input(args.input),
        )
    )
    return output, publication.add(Output(rejects)) if rejects else None
