"""A .zst file's frame layout followed as it is read, so that a stream cut
inside a frame is told from a complete one (the decompressor reads both
alike)."""

from __future__ import annotations


class BadFrame(ValueError):
    """A .zst file whose bytes do not follow the zstd frame layout."""


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
