"""Input files read through a memory map, with the pages behind the reader
released (the command line's text, .npy and PGN readers)."""

from __future__ import annotations

import mmap
from typing import Optional


class MappedFile:
    """A regular, uncompressed input file mapped for reading: ``view`` holds
    its bytes, read without copies out of the page cache."""

    def __init__(self, view: memoryview) -> None:
        self.view = view
        self._released = 0
        self._advise = getattr(view.obj, "madvise", None)
        self._dontneed = getattr(mmap, "MADV_DONTNEED", None)

    def release(self, upto: int) -> None:
        """Drop the mapped pages before ``upto`` (rounded down to a page), so
        that resident memory stays a few chunks however large the file; a
        page dropped while still in use is read back from the file."""
        done = max(upto, 0) // mmap.PAGESIZE * mmap.PAGESIZE
        if self._advise is not None and self._dontneed is not None and done > self._released:
            self._advise(self._dontneed, self._released, done - self._released)
            self._released = done


def map_input(source) -> Optional[MappedFile]:
    """``source`` (a command-line Input) mapped, or None when it is not a
    plain, non-empty file or cannot be mapped."""
    if not getattr(source, "regular", False) or not source.size:
        return None
    try:
        return MappedFile(memoryview(mmap.mmap(source.raw.fileno(), 0, access=mmap.ACCESS_READ)))
    except (OSError, ValueError):
        return None
