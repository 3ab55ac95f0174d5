"""An output: a file (compressed by its extension) or stdout, written under
a temporary name until it is published (publication.Publication), from a
thread of its own, past the page cache where that pays."""

from __future__ import annotations

import contextlib
import os
import queue
import stat
import sys
import tempfile
import threading

from fastxfen.files import codecs, signals
from fastxfen.files.direct import DirectWriter, worthwhile
from fastxfen.files.dropbehind import DropBehind
from fastxfen.files.errors import RunError


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
    compressed by ``threads`` threads (``gzip_members``; zstd's own workers).

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
        self.kind = codecs.compression(path)
        self.background = None
        self.drop = None
        self.direct = None  # the DirectWriter of a plain file
        self.temp = None  # the temporary name, until published or discarded
        self.target = None  # the final name
        try:
            self._open(path, level, threads)
            if drop_behind and not self.is_stdout:
                self.drop = DropBehind.attach(self.raw.fileno())
                if (
                    direct
                    and self.drop is not None
                    and self.kind is None
                    and self.temp
                    and worthwhile(self.raw.fileno())
                ):
                    self.direct = self.stream = DirectWriter(self.raw.fileno())
            if background:
                self.background = _Background(self._write)
        except BaseException:
            self.discard()  # a start that failed half way leaves no file
            raise

    def _open(self, path: str | None, level, threads: int) -> None:
        if codecs.is_stdio(path):
            self.name = "<stdout>"
            self.raw = self.stream = sys.stdout.buffer
            self.is_stdout = True
            return
        self.is_stdout = False
        self.name = path
        if self.kind == "zstd":
            codecs.zstandard()  # before a temporary file is made
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
            raise RunError(f"cannot write {path}: {exc.strerror or exc}") from None
        if self.kind is None:
            self.stream = self.raw
        else:
            self.stream = codecs.writer(self.kind, self.raw, level, threads)

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
        except codecs.stream_errors() as exc:
            raise RunError(f"cannot write {self.name}: {_reason(exc)}") from None

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
        except codecs.stream_errors() as exc:
            raise RunError(f"cannot write {self.name}: {_reason(exc)}") from None

    def publish(self) -> str | None:
        """Rename the finished temporary file to the final name; returns the
        folder to fsync, if any."""
        if self.temp is None:
            return None
        try:
            os.replace(self.temp, self.target)
        except OSError as exc:
            raise RunError(f"cannot write {self.name}: {exc.strerror or exc}") from None
        self.temp = None
        return os.path.dirname(os.path.abspath(self.target))

    def discard(self) -> None:
        """Stop writing and remove the temporary file (a run that failed);
        stdout gets what was written so far."""
        background, self.background = self.background, None
        if background is not None:
            background.abandon()
        try:
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
        finally:  # (a signal's exception outside the command line included)
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
