"""The options of every public function and command, checked in one place
with one message each, before any work is done.

``threads`` follows one rule everywhere: ``None`` (automatic) or an ``int``
of at least 1; a larger number than the machine's CPUs is capped to them, so
no call ever starts more worker threads than there are CPUs.  Automatic
means one thread per ``rows_per_thread`` rows, at least one, at most the
CPUs (``resolve_threads``).
"""

from __future__ import annotations

import os
from typing import Optional

CASTLING = ("xfen", "shredder")
EN_PASSANT = ("fen", "xfen", "legal")
ERRORS = ("raise", "coerce", "ignore")
#: What a function giving records or binary rows accepts: there is no text
#: to pass through unchanged.
RECORD_ERRORS = ("raise", "coerce")
OUTPUTS = ("list", "bytes", "arrow")
WIDTHS = (8, 10)
PACK_FORMATS = ("lichess", "stockfish")
PERSPECTIVES = ("white", "side_to_move")

#: Automatic threads for the library's batches: one per this many rows.
ROWS_PER_THREAD = 65536
#: Automatic threads for a command-line chunk (at most a few hundred thousand
#: rows): one per this many rows.
CHUNK_ROWS_PER_THREAD = 16384


def choice(name: str, value, choices: tuple):
    """``value`` if it is one of ``choices``, else ValueError naming them."""
    if isinstance(value, (str, int)) and not isinstance(value, bool) and value in choices:
        return value
    options = ", ".join(repr(c) for c in choices)
    raise ValueError(f"{name} must be one of {options}, not {value!r}")


def castling(value) -> str:
    """The castling field style: 'xfen' or 'shredder'."""
    return choice("castling", value, CASTLING)


def en_passant(value) -> str:
    """Which en-passant targets to keep: 'fen', 'xfen' or 'legal'."""
    return choice("en_passant", value, EN_PASSANT)


def errors(value) -> str:
    """What to do with a bad row of text: 'raise', 'coerce' or 'ignore'."""
    return choice("errors", value, ERRORS)


def record_errors(value) -> str:
    """``errors`` of a function that gives records or binary rows: 'raise'
    or 'coerce' ('ignore' has no text to pass through)."""
    if value == "ignore":
        raise ValueError(
            "errors='ignore' passes text through; records have none (use 'raise' or 'coerce')"
        )
    return choice("errors", value, RECORD_ERRORS)


def output(value) -> str:
    """What decode returns: 'list', 'bytes' or 'arrow'."""
    return choice("output", value, OUTPUTS)


def width(value) -> int:
    """A board width: 8 or 10."""
    if isinstance(value, bool) or value not in WIDTHS:
        raise ValueError(f"width must be 8 or 10, not {value!r}")
    return int(value)


def pack_format(value) -> str:
    """A binary format of pack and unpack: 'lichess' or 'stockfish'."""
    return choice("format", value, PACK_FORMATS)


def perspective(value) -> str:
    """Whose view planes take: 'white' or 'side_to_move'."""
    return choice("perspective", value, PERSPECTIVES)


def plane_dtype(value):
    """The element type of planes: bool, an integer or float16/32/64, in the
    native byte order."""
    import numpy as np

    dt = np.dtype(value)
    ok = (dt.kind in "biu" and dt.itemsize in (1, 2, 4, 8)) or (
        dt.kind == "f" and dt.itemsize in (2, 4, 8)
    )
    if not ok:
        raise ValueError(f"planes need a bool, integer or float16/32/64 dtype, not {dt}")
    if not dt.isnative:
        raise ValueError(f"planes need the native byte order, not {dt}")
    return dt


def plane_extras(extra, dtype) -> tuple:
    """The names of the extra planes (one name or a sequence of them), each
    known and named once; 'halfmove_scaled' needs a float ``dtype``."""
    from fastxfen._export import EXTRA_PLANES

    known = dict(EXTRA_PLANES)
    names = (extra,) if isinstance(extra, str) else tuple(extra)
    for name in names:
        if name not in known:
            options = ", ".join(repr(k) for k in known)
            raise ValueError(f"extra planes are named {options}, not {name!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"an extra plane is named twice in {names!r}")
    if "halfmove_scaled" in names and dtype.kind != "f":
        raise ValueError("the 'halfmove_scaled' plane needs a float dtype")
    return names


def cpu_count() -> int:
    """The CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def threads(value) -> Optional[int]:
    """``None``, or ``value`` (an int of at least 1) capped to the CPUs."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"threads must be a positive int or None, not {value!r}")
    return min(value, cpu_count())


def resolve_threads(value, rows: int, rows_per_thread: int = ROWS_PER_THREAD) -> int:
    """The threads for ``rows`` rows: ``value`` checked and capped (see
    ``threads``), or for ``None`` one thread per ``rows_per_thread`` rows, at
    least one and at most the CPUs."""
    asked = threads(value)
    if asked is None:
        return max(1, min(cpu_count(), rows // rows_per_thread))
    return asked


def kernel_threads(value) -> int:
    """``threads`` as the bulk kernels take it: 0 for automatic (they know
    the row count, and apply ``resolve_threads``), else the capped int."""
    asked = threads(value)
    return 0 if asked is None else asked
