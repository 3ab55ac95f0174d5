"""What this build of fastxfen runs: ``info()`` and the ``--version`` text."""

from __future__ import annotations

import platform
import sys
from typing import Any

from fastxfen import _codec


def info() -> dict[str, Any]:
    """The version, and the placement reader and writer this process runs.

    The C core reads and writes the placement field with the fastest reader
    the CPU runs: AVX-512 or AVX2 (chosen at run time on x86-64), else SSE2;
    NEON on ARM64; scalar elsewhere.  The environment variable
    ``FASTXFEN_READER`` (``auto``, ``scalar``, ``sse2``, ``avx2``,
    ``avx512``, ``neon``) forces one; ``fastxfen --version`` shows the same.

    Parameters
    ----------
    None.

    Returns
    -------
    dict
        ``version``; ``reader`` and ``writer`` (``"table"`` for the writer of
        the SSE2 and scalar readers); ``readers``, the readers built in, and
        ``runnable``, those this CPU runs; ``cpu``, the CPU features seen
        (with the OS's support where it needs one); ``compiler``, the C
        compiler of the build; ``machine``, as ``platform.machine()``.

    Raises
    ------
    Nothing: a ``FASTXFEN_READER`` this process cannot run is refused when
    fastxfen is imported (``ImportError`` saying why).

    Examples
    --------
    >>> import fastxfen as fx
    >>> about = fx.info()
    >>> about["reader"] in about["runnable"] and "scalar" in about["readers"]
    True
    """
    version = sys.modules["fastxfen"].__version__  # imported before any of its modules
    return {"version": version, **_codec.reader_info(), "machine": platform.machine()}


def version_text() -> str:
    """What ``fastxfen --version`` prints: the version, the reader and
    writer, and what they were chosen from."""
    about = info()
    return "\n".join(
        (
            f"fastxfen {about['version']}",
            f"placement reader {about['reader']}, writer {about['writer']}",
            f"readers built in: {', '.join(about['readers'])}; "
            f"this CPU runs: {', '.join(about['runnable'])}",
            f"CPU features: {' '.join(about['cpu']) or 'none detected'} ({about['machine']})",
            f"compiler: {about['compiler']}",
        )
    )
