"""The public record dtypes (layout documented in docs/records.md)."""

import numpy as np

__all__ = ["POSITION_DTYPE", "POSITION_DTYPE_10x8", "PIECE_CODES", "record_dtype"]


def _dtype(squares: int) -> np.dtype:
    return np.dtype(
        [
            ("board", "u1", (squares,)),
            ("width", "u1"),
            ("turn", "u1"),
            ("prefix", "u1"),
            ("ep", "u1"),
            ("castling", "u1", (4,)),
            ("halfmove", "<u4"),
            ("fullmove", "<u4"),
        ]
    )


POSITION_DTYPE = _dtype(64)
POSITION_DTYPE_10x8 = _dtype(80)

#: Piece letter -> byte stored in ``board``; 0 is an empty square.
PIECE_CODES = {letter: code for code, letter in enumerate(".PNBRQKpnbrqkACac") if code}


def record_dtype(width: int) -> np.dtype:
    """The dtype ``encode`` returns for ``width`` 8 or 10."""
    if width == 8:
        return POSITION_DTYPE
    if width == 10:
        return POSITION_DTYPE_10x8
    raise ValueError(f"width must be 8 or 10, not {width!r}")
