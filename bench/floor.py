"""The string-building floor of bench/compare.py and bench/test_bench.py:
``copy_rows`` of _floor.pyx, compiled on first use with Cython's pyximport
into bench/.cache/ (so the library ships no benchmark helper).  None when
Cython or a C compiler is missing; the benches then fall back to their
pure-Python reference."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional

HERE = Path(__file__).resolve().parent


def copy_rows() -> Optional[Callable[[list], list]]:
    """The compiled floor function, or None."""
    try:
        import pyximport
    except ImportError:
        return None
    pyximport.install(language_level=3, build_dir=str(HERE / ".cache" / "pyxbld"))
    try:
        import _floor
    except Exception:  # no C compiler: no floor
        return None
    function: Any = _floor.copy_rows
    return function
