"""An input: a file (decompressed by its extension) or stdin, watched for
changes and for streams cut short."""

from __future__ import annotations

import contextlib
import os
import stat
import sys

from fastxfen._streams import read_exact
from fastxfen.files import codecs
from fastxfen.files.errors import RunError


class Input:
    """A byte stream read from a file (decompressed by its extension) or stdin.

    A regular file is watched: its size and modification time are taken when
    it is opened and compared after every read, so that a file truncated,
    rewritten or grown during the run ends it with a RunError instead of a
    wrong answer.  A compressed stream that ends inside a frame (member,
    stream) or holds bad data is a RunError naming the file and the byte."""

    def __init__(self, path: str | None, stack: contextlib.ExitStack) -> None:
        self.consumed = 0
        self.size = None
        self.kind = None  # the compression
        self._stamp = None  # (size, mtime) of a regular file when opened
        self._frames = None  # a .zst file's frame layout, followed as it is read
        if codecs.is_stdio(path):
            self.name = "<stdin>"
            self.raw = self.stream = sys.stdin.buffer
            self.path = None
            return
        self.name = self.path = path
        try:
            self.raw = stack.enter_context(open(path, "rb"))
            st = os.fstat(self.raw.fileno())
        except OSError as exc:
            raise RunError(f"cannot read {path}: {exc.strerror or exc}") from None
        if stat.S_ISDIR(st.st_mode):
            raise RunError(f"cannot read {path}: Is a directory")
        if stat.S_ISREG(st.st_mode):
            self._stamp = (st.st_size, st.st_mtime_ns)
            self.size = st.st_size or None
        self.kind = codecs.compression(path)
        if self.kind is None:
            self.stream = self.raw
        else:
            self.stream, self._frames = codecs.reader(self.kind, self.raw, stack)

    @property
    def on_terminal(self) -> bool:
        """Whether this is stdin typed at a terminal."""
        try:
            return self.path is None and sys.stdin.isatty()
        except (AttributeError, ValueError):
            return False

    def read(self, n: int) -> bytes:
        try:
            data = self.stream.read(n)
        except codecs.stream_errors() as exc:
            raise self._fault(exc) from None
        self._check(len(data))
        self.consumed += len(data)
        return data

    def readinto(self, buffer) -> int:
        try:
            n = self.stream.readinto(buffer)
        except codecs.stream_errors() as exc:
            raise self._fault(exc) from None
        self._check(n)
        self.consumed += n
        return n

    def read_exactly(self, n: int) -> bytes:
        """n bytes, fewer only at the end of the stream."""
        return read_exact(self, n)

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

    def _changed(self) -> RunError | None:
        if self._stamp is None:
            return None
        try:
            st = os.fstat(self.raw.fileno())
        except (OSError, ValueError):
            return None
        return changed(self.name, self._stamp, st)

    def _check(self, got: int) -> None:
        """After a read of ``got`` bytes: a RunError if the file changed, or
        if the stream ended (got 0) inside a zstd frame."""
        changed = self._changed()
        if changed is not None:
            raise changed
        if not got and self._frames is not None and not self._frames.complete():
            raise RunError(f"{self.name}: truncated zstd stream after {self._frames.seen:,} bytes")

    def _fault(self, exc: BaseException) -> RunError:
        """The RunError for what reading raised: the file changed, a
        truncated or corrupt compressed stream, or a failing device."""
        changed = self._changed()
        if changed is not None:
            return changed
        if self.kind is not None:
            at = self._raw_read()
            if isinstance(exc, EOFError) or str(exc) == codecs.GZIP_HALF_MAGIC:
                return RunError(f"{self.name}: truncated {self.kind} stream after {at:,} bytes")
            if not (isinstance(exc, OSError) and exc.errno):
                return RunError(f"{self.name}: corrupt {self.kind} stream near byte {at:,}: {exc}")
        detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        return RunError(f"cannot read {self.name}: {detail}")


def stamp(fd: int) -> tuple:
    """What tells a change of the open file ``fd``: its size and mtime."""
    st = os.fstat(fd)
    return st.st_size, st.st_mtime_ns


def changed(name: str, before: tuple, st) -> RunError | None:
    """The RunError of file ``name`` stamped ``before`` (``stamp``) when
    opened and ``st`` (an os.stat_result) now, if it changed."""
    if (st.st_size, st.st_mtime_ns) == before:
        return None
    return RunError(
        f"{name} changed during the run (it held {before[0]:,} bytes when "
        f"opened, {st.st_size:,} now); nothing was published"
    )
