"""A .gz output compressed by several threads.

Compressing is the slowest step of a run that writes a .gz file (zlib at
level 6 deflates FEN text more than ten times slower than normalize reads it),
and zlib lets go of the GIL while it works.  So the text is cut into pieces
of ``MEMBER`` bytes, each compressed into a gzip member of its own by a
helper thread, and the members are written in order.  A gzip file may hold
any number of members (RFC 1952); gzip, zcat, Python's gzip module and
every other reader that follows the RFC give back their texts joined.  A
member costs 18 bytes of header and trailer, and the next piece starts
without the previous one as a dictionary: about 0.1% more bytes at 1 MiB.
"""

from __future__ import annotations

import zlib

from fastxfen._jobs import Ahead

#: Bytes of text per gzip member.
MEMBER = 1 << 20


def _member(piece: tuple) -> bytes:
    """``data`` as one whole gzip member (``piece`` is data and level)."""
    data, level = piece
    deflate = zlib.compressobj(level, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return deflate.compress(data) + deflate.flush()


class GzipMembers:
    """A writable gzip stream on ``raw`` whose members are compressed by
    ``threads`` threads.  ``write`` returns once the whole members of what
    it was given are written to ``raw`` (fewer than MEMBER bytes wait for
    the next write, or ``close``), so the caller may reuse its buffer."""

    def __init__(self, raw, level: int, threads: int) -> None:
        self.raw = raw
        self.level = level
        self._pending = bytearray()
        self._written = False  # any member yet
        self.threads = max(1, threads)
        self.closed = False

    def write(self, data) -> int:
        view = memoryview(data).cast("B")
        size = len(view)
        pieces = []
        at = 0
        if self._pending:
            at = min(size, MEMBER - len(self._pending))
            self._pending += view[:at]
            if len(self._pending) < MEMBER:
                return size
            pieces.append(bytes(self._pending))
            self._pending.clear()
        while size - at >= MEMBER:
            pieces.append(bytes(view[at : at + MEMBER]))
            at += MEMBER
        self._pending += view[at:]
        self._put(pieces)
        return size

    def _put(self, pieces: list) -> None:
        """Compress the pieces side by side (``threads`` at a time, each in
        a helper thread) and write their members in order; whatever stops
        this returns once no helper runs (Ahead)."""
        if self.threads == 1:
            for piece in pieces:
                self._write_member(_member((piece, self.level)))
            return
        members = Ahead(self.threads).map(_member, [(piece, self.level) for piece in pieces])
        try:
            for member in members:
                self._write_member(member)
        finally:
            members.close()

    def _write_member(self, member: bytes) -> None:
        self.raw.write(member)
        self._written = True

    def flush(self) -> None:
        pass

    def close(self) -> None:
        """Write the last member (an empty stream is one empty member)."""
        if self.closed:
            return
        self.closed = True
        if self._pending or not self._written:
            self._put([bytes(self._pending)])
            self._pending.clear()
