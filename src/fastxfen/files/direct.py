"""Plain output files written past the page cache (``O_DIRECT``).

A write into the page cache costs far more than the copy it makes: each
page is allocated, accounted dirty, given its blocks by the filesystem,
written back and at last reclaimed.  On the development VM writing 1.1 GB
that way took 1.5 s of CPU against 0.1 s with ``O_DIRECT``, where the disk
reads the data from the process's own memory; that is a fifth of what
``normalize`` spends on the whole file, on a machine whose two cores the
conversion keeps busy.

A file of a filesystem held in memory (tmpfs, ramfs) is its page cache:
there a direct write is an ordinary one, after a copy into the buffer for
nothing, so such files, and every file where the system has no
``O_DIRECT``, are written as they come (``worthwhile``; on tmpfs a 1.1 GB
``normalize`` took 4% less time).

``O_DIRECT`` wants the memory, the file offset and the length of each write
aligned to the disk's blocks.  So the output is gathered in a page-aligned
buffer of ``SIZE`` bytes and written in whole ``ALIGN`` blocks; what is left
of a block waits for the next write.  Direct writes start with the file:
on ext4, direct writes that follow a stretch of ordinary ones are mostly
turned back into ordinary writes by the filesystem (in a profile of a
1.1 GB run, writing took 11.8% of the samples with direct writes from
256 MB on, 2.1% with direct writes from the start).  They end at
``flush`` or ``close``, which write what is held (the last partial block;
all of a file under SIZE bytes) through the page cache.  A filesystem that
refuses ``O_DIRECT`` (or a direct write) gets ordinary writes, from the same
buffer.
"""

from __future__ import annotations

import errno
import mmap
import os

#: Bytes gathered before a write.
SIZE = 8 << 20
#: The alignment of a direct write's memory, offset and length.
ALIGN = 4096

try:
    import fcntl

    _DIRECT = getattr(os, "O_DIRECT", 0)
except ImportError:  # (Windows)
    fcntl = None
    _DIRECT = 0  # (so with no fcntl, no direct writes)


#: Filesystems whose files live in the page cache.
IN_MEMORY = frozenset({"tmpfs", "ramfs"})


def worthwhile(fd: int) -> bool:
    """Whether writes to ``fd`` gain by going past the page cache: the
    system has ``O_DIRECT`` and the file is not on a filesystem held in
    memory."""
    return bool(_DIRECT) and filesystem(fd) not in IN_MEMORY


def filesystem(fd: int) -> str | None:
    """The type of the filesystem holding ``fd`` ("ext4"), from the mount
    whose device is the file's (Linux); None where that is not known."""
    try:
        st = os.fstat(fd)
        device = f"{os.major(st.st_dev)}:{os.minor(st.st_dev)}"
        with open("/proc/self/mountinfo", encoding="utf-8", errors="replace") as mounts:
            for line in mounts:
                # id, parent, major:minor, root, mount point, options, ... - type
                fields, _, rest = line.partition(" - ")
                if fields.split()[2:3] == [device] and rest:
                    return rest.split()[0]
    except (OSError, ValueError):
        pass
    return None


class DirectWriter:
    """Writes to the file descriptor ``fd``, which must be at offset 0 (a new
    file), through an aligned buffer; see the module's docstring."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self._buffer = mmap.mmap(-1, SIZE)  # page-aligned
        self._view = memoryview(self._buffer)
        self._held = 0  # bytes in the buffer
        self._offset = 0  # where the buffer's first byte goes in the file
        self._direct = False  # O_DIRECT is set on fd
        # O_DIRECT may still be turned on (writes so far are whole blocks)
        self._may = bool(_DIRECT)
        self.closed = False

    def tell(self) -> int:
        """The bytes written, those still in the buffer included."""
        return self._offset + self._held

    def write(self, data) -> int:
        view = memoryview(data).cast("B")
        size, at = len(view), 0
        while at < size:
            take = min(size - at, SIZE - self._held)
            self._view[self._held : self._held + take] = view[at : at + take]
            self._held += take
            at += take
            if self._held == SIZE:
                self._write_blocks()
        return size

    def _write_blocks(self) -> None:
        """Write the whole blocks of the buffer; keep the rest."""
        whole = self._held // ALIGN * ALIGN
        if not whole:
            return
        if self._may and not self._direct:
            self._set_direct(True)
        self._write(whole)
        rest = self._held - whole
        self._view[:rest] = self._view[whole : self._held]
        self._held = rest

    def _write(self, n: int) -> None:
        """Write the first n bytes of the buffer at self._offset."""
        done = 0
        while done < n:
            try:
                done += os.write(self.fd, self._view[done:n])
            except OSError as exc:
                if not (self._direct and exc.errno == errno.EINVAL):
                    raise
                self._may = False  # refused: ordinary writes from now on
                self._set_direct(False)
        self._offset += n

    def _set_direct(self, on: bool) -> None:
        try:
            flags = fcntl.fcntl(self.fd, fcntl.F_GETFL)
            fcntl.fcntl(self.fd, fcntl.F_SETFL, flags | _DIRECT if on else flags & ~_DIRECT)
        except OSError:
            if on:
                self._may = False
                return
            raise
        self._direct = on

    def flush(self) -> None:
        """Write everything held, through the page cache: the file may be
        rewritten in place after (a .npy header), and its end is not
        aligned."""
        self._may = False
        if self._direct:
            self._set_direct(False)
        if self._held:
            self._write(self._held)
            self._held = 0

    def close(self) -> None:
        if self.closed:
            return
        try:
            self.flush()
        finally:
            self.closed = True
            self._view.release()
            self._buffer.close()
