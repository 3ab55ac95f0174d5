"""The public record dtypes (layout documented in docs/records.md)."""

from typing import Literal

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


def record_dtype(width: Literal[8, 10]) -> "np.dtype[np.void]":
    """The record dtype ``encode`` returns for a board width.

    A record is ``board`` (one byte per square, a1 first, rank by rank;
    piece codes in ``PIECE_CODES``, 0 empty), ``width``, ``turn`` (0 white,
    1 black), ``prefix`` (castling prefix: 0 none, 1 ``s``, 2 ``m``), ``ep``
    (en-passant square index, 255 none), ``castling`` (rook files of the
    rights white h side, white a side, black h side, black a side; 255
    none), ``halfmove`` and ``fullmove`` (little-endian ``uint32``).
    docs/records.md in the source distribution has the details.

    Parameters
    ----------
    width : {8, 10}
        The board width: 8 gives ``POSITION_DTYPE`` (64 squares), 10
        ``POSITION_DTYPE_10x8`` (80 squares).

    Returns
    -------
    numpy.dtype
        A structured dtype of fixed size.

    Raises
    ------
    ValueError
        ``width`` is not 8 or 10.

    Examples
    --------
    >>> import fastxfen as fx
    >>> fx.record_dtype(8) == fx.POSITION_DTYPE, fx.record_dtype(10).itemsize
    (True, 96)
    """
    if width == 8:
        return POSITION_DTYPE
    if width == 10:
        return POSITION_DTYPE_10x8
    raise ValueError(f"width must be 8 or 10, not {width!r}")


def is_records(x: object) -> bool:
    """Whether x is a record or an array of records of either dtype."""
    return isinstance(x, (np.ndarray, np.void)) and x.dtype in (
        POSITION_DTYPE,
        POSITION_DTYPE_10x8,
    )
