"""Keep the command's freed buffers for its next chunks (glibc).

Each chunk of a run takes buffers of a few MB (reads, the converted text,
the kernel's job buffers) and frees them.  By default glibc serves blocks
above a threshold that adapts to what is freed by fresh ``mmap`` memory,
and gives the top of the heap back to the system, so a run keeps asking
for new pages, which the system must zero: on the development VM, about
0.5 s of system time per GB of a plain ``normalize``.  Raising the mmap
threshold (to 32 MB) and the trim threshold keeps those blocks in the
heap, reused from chunk to chunk (32 MB is above every buffer an 8 MB chunk
takes; rarer, larger blocks still come from ``mmap``); peak memory stays
what it was, since the same blocks come back.

Only the command line does this (``fastxfen.cli.main``): the library never
changes how its host process allocates memory.
"""

from __future__ import annotations

import ctypes
import sys

M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 << 20
TRIM_THRESHOLD = 1 << 30


def reuse_freed_blocks() -> bool:
    """Set the two thresholds; whether both took (False off Linux, where the
    C library has no ``mallopt``, or where it refused a value)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
        mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    )
