"""The fields a tensor or packed format does not hold (side to move,
castling, en passant, counters), from the keywords of from_bitboards,
from_planes and unpack: one value for every row or one per row, checked and
handed to the kernels as an ``_export.Defaults``."""

import numpy as np

from fastxfen import _export

__all__ = ["defaults"]

_U32 = 4294967295


def _per_row(name, value, n, dtype, low, high):
    """A shared value (length 1) or one per row, checked to lie in [low, high]."""
    arr = np.asarray(value)
    if arr.dtype.kind == "b":
        arr = arr.astype(np.int64)
    if arr.dtype.kind not in "iu":
        raise ValueError(f"{name} must be an int or an array of ints, not {value!r}")
    arr = arr.reshape(-1)
    if arr.size not in (1, n):
        raise ValueError(f"{name} has {arr.size} values for {n} rows")
    if arr.size and (arr.min() < low or arr.max() > high):
        raise ValueError(f"{name} values must lie in {low}..{high}")
    return np.ascontiguousarray(arr.astype(dtype))


def _square_index(name, text, width):
    files = "abcdefghij"[:width]
    if len(text) != 2 or text[0] not in files or text[1] not in "12345678":
        raise ValueError(f"{name} must be '-' or a square name such as 'e3', not {text!r}")
    return (ord(text[1]) - ord("1")) * width + files.index(text[0])


def _castling_flags(text, width) -> bytes:
    """Check a castling field (no prefix) and return its flags."""
    if text == "-":
        return b""
    letters = "KQ" + "ABCDEFGHIJ"[:width]
    count = [0, 0]
    for k, c in enumerate(text):
        if not (c.isascii() and c.isalpha() and c.upper() in letters):
            raise ValueError(f"castling has an unexpected {c!r} (at {k}) in {text!r}")
        color = c.islower()
        count[color] += 1
        if count[color] > 2 or text.count(c) > 1:
            raise ValueError(f"castling {text!r} repeats a flag or has more than two per color")
    if not text:
        raise ValueError("castling must be '-' or flags such as 'KQkq'")
    return text.encode("ascii")


def defaults(n, width, turn=None, castling=None, en_passant=None, halfmove=None, fullmove=None):
    kwargs = {}
    if turn is not None:
        if isinstance(turn, str):
            turn = {"w": 0, "b": 1}.get(turn)
            if turn is None:
                raise ValueError("turn must be 'w', 'b', 0, 1 or an array of 0 and 1")
        kwargs["turn"] = _per_row("turn", turn, n, np.uint8, 0, 1)
    if isinstance(castling, str):
        kwargs["flags"] = _castling_flags(castling, width)
    elif castling is not None:
        files = np.asarray(castling)
        if files.shape not in ((4,), (n, 4)) or files.dtype.kind not in "iu":
            raise ValueError(
                f"castling must be flags such as 'KQkq' or rook files of shape (4,) "
                f"or ({n}, 4), not {files.dtype} of shape {files.shape}"
            )
        bad = (files != 255) & ((files < 0) | (files >= width))
        if bad.any():
            raise ValueError(f"castling rook files must be 0..{width - 1} or 255 (none)")
        kwargs["files"] = np.ascontiguousarray(files.astype(np.uint8).reshape(-1))
    if isinstance(en_passant, str):
        if en_passant != "-":
            ep = _square_index("en_passant", en_passant, width)
            kwargs["ep"] = np.array([ep], np.uint8)
    elif en_passant is not None:
        ep = np.asarray(en_passant)
        if ep.dtype.kind not in "iu":
            raise ValueError("en_passant must be a square name, a square index or an array")
        flat = ep.reshape(-1)
        if flat.size not in (1, n):
            raise ValueError(f"en_passant has {flat.size} values for {n} rows")
        if ((flat != 255) & ((flat < 0) | (flat >= 8 * width))).any():
            raise ValueError(f"en_passant squares must be 0..{8 * width - 1} or 255 (none)")
        kwargs["ep"] = np.ascontiguousarray(flat.astype(np.uint8))
    if halfmove is not None:
        kwargs["halfmove"] = _per_row("halfmove", halfmove, n, np.uint32, 0, _U32)
    if fullmove is not None:
        kwargs["fullmove"] = _per_row("fullmove", fullmove, n, np.uint32, 1, _U32)
    return _export.Defaults(n, **kwargs)
