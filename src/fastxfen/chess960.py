"""Chess960 (Fischer Random) start positions by number.

The 960 start arrays are numbered 0..959 the way Reinhard Scharnagl numbered
them; number 518 is the classical array ``RNBQKBNR``.  A number ``n`` is read
as four digits in a mixed radix, least significant first:

1. ``n % 4`` -- the bishop on a light square, on file b, d, f or h;
2. ``(n // 4) % 4`` -- the bishop on a dark square, on file a, c, e or g;
3. ``(n // 16) % 6`` -- the queen, on the first..sixth square still empty
   (counted from the a-file);
4. ``n // 96`` (0..9) -- the two knights, on two of the five squares still
   empty, the pairs taken in the order (1,2) (1,3) (1,4) (1,5) (2,3) (2,4)
   (2,5) (3,4) (3,5) (4,5);

the three squares left over take rook, king, rook from the a-file upward.

:func:`chess960_fen` writes the X-FEN of start position ``n``;
:func:`chess960_number` answers which start position a FEN shows, or ``None``.
See ``docs/variants.md`` for what counts as a start position.
"""

import operator
from typing import Optional, SupportsIndex

from fastxfen._api import encode

__all__ = ["chess960_fen", "chess960_number"]

COUNT = 960

# The pairs of empty squares (0-based, among the five left after the bishops
# and the queen) that hold the knights, in numbering order.
_KNIGHT_PAIRS = tuple((first, second) for first in range(5) for second in range(first + 1, 5))
_KNIGHT_INDEX = {pair: i for i, pair in enumerate(_KNIGHT_PAIRS)}

# Piece codes of the position record (docs/records.md).
_EMPTY, _WP, _WN, _WB, _WR, _WQ, _WK = 0, 1, 2, 3, 4, 5, 6
_BLACK = 6  # black code = white code + 6 for P N B R Q K
_NONE = 255
_WIDTH = 8


def _check_number(n: SupportsIndex) -> int:
    """Return ``n`` as a plain int in 0..959, or raise ValueError."""
    if isinstance(n, bool):
        raise ValueError(f"Chess960 number must be an int, not bool: {n!r}")
    try:
        value = operator.index(n)
    except TypeError:
        raise ValueError(f"Chess960 number must be an int, not {type(n).__name__}: {n!r}") from None
    if not 0 <= value < COUNT:
        raise ValueError(f"Chess960 number must be in 0..959, got {value}")
    return value


def _back_rank(n: int) -> str:
    """The white back rank of start position n, as a string of 8 letters."""
    rank: list[Optional[str]] = [None] * _WIDTH
    n, light = divmod(n, 4)
    rank[2 * light + 1] = "B"  # b1, d1, f1, h1 are light squares
    n, dark = divmod(n, 4)
    rank[2 * dark] = "B"  # a1, c1, e1, g1 are dark squares
    n, queen = divmod(n, 6)
    empty = [f for f in range(_WIDTH) if rank[f] is None]
    rank[empty[queen]] = "Q"
    empty = [f for f in range(_WIDTH) if rank[f] is None]
    for i in _KNIGHT_PAIRS[n]:
        rank[empty[i]] = "N"
    for f, piece in zip((f for f in range(_WIDTH) if rank[f] is None), "RKR"):
        rank[f] = piece
    return "".join(piece or "" for piece in rank)


def _number_of_back_rank(rank: str) -> Optional[int]:
    """The number of a white back rank (8 letters), or None if it is not one
    of the 960 start arrays."""
    if sorted(rank) != sorted("RNBQKBNR"):
        return None
    bishops = [f for f, p in enumerate(rank) if p == "B"]
    light = [f for f in bishops if f % 2 == 1]
    dark = [f for f in bishops if f % 2 == 0]
    if len(light) != 1 or len(dark) != 1:
        return None
    rooks = [f for f, p in enumerate(rank) if p == "R"]
    king = rank.index("K")
    if not rooks[0] < king < rooks[1]:
        return None
    rest = [f for f in range(_WIDTH) if f not in bishops]
    queen = rest.index(rank.index("Q"))
    rest = [f for f in rest if rank[f] != "Q"]
    first, second = (i for i, f in enumerate(rest) if rank[f] == "N")
    knight_index = _KNIGHT_INDEX[first, second]
    return light[0] // 2 + 4 * (dark[0] // 2 + 4 * (queen + 6 * knight_index))


def chess960_fen(n: SupportsIndex) -> str:
    """The X-FEN of Chess960 start position ``n``.

    The position has white to move, full castling rights written ``KQkq``
    (in a start array both rooks are the outermost, so X-FEN needs no file
    letters), no en-passant target and counters ``0 1``.  The numbering is
    Scharnagl's (this module's docstring gives it); 518 is the standard
    start position.

    Parameters
    ----------
    n : int
        The start position's number, 0..959.

    Returns
    -------
    str
        A six-field X-FEN.

    Raises
    ------
    ValueError
        ``n`` is not an int (``bool`` is refused too) or is outside 0..959.

    Examples
    --------
    >>> import fastxfen as fx
    >>> fx.chess960_fen(518)
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
    >>> fx.chess960_fen(0)
    'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1'
    """
    rank = _back_rank(_check_number(n))
    return f"{rank.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1"


_LETTER = {_WN: "N", _WB: "B", _WR: "R", _WQ: "Q", _WK: "K"}


def chess960_number(fen: str) -> Optional[int]:
    """The Chess960 number of the start position ``fen`` shows, or ``None``.

    ``fen`` is read with :func:`fastxfen.encode`, so castling rights are
    repaired and an invalid en-passant target is dropped first, exactly as
    :func:`fastxfen.normalize` would.  The position counts as start position
    ``n`` when, after that reading:

    * the board is 8 wide and holds exactly the array of ``n``: white's back
      rank is one of the 960 arrays (bishops on squares of opposite colors,
      king between the rooks), eight white pawns on rank 2, black's pieces the
      mirror image on ranks 8 and 7, and nothing else;
    * white is to move;
    * all four castling rights survive (written ``KQkq``, or any spelling
      that repairs to the same, such as Shredder ``HAha``) and the castling
      field has no ``s``/``m`` prefix (those name other castling rules);
    * there is no en-passant target (on a start array none can be valid).

    The halfmove and fullmove counters are ignored: they say nothing about
    the arrangement and are often reset or left out in collections.

    Parameters
    ----------
    fen : str
        One FEN, X-FEN or Shredder-FEN (4, 5 or 6 fields).

    Returns
    -------
    int or None
        The number, 0..959, or ``None`` for any other position.

    Raises
    ------
    FenError
        ``fen`` is not a valid position.
    TypeError
        ``fen`` is not a ``str``.

    Examples
    --------
    >>> import fastxfen as fx
    >>> fx.chess960_number("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1")
    0
    >>> print(fx.chess960_number("4k3/8/8/8/8/8/8/4K3 w - - 0 1"))
    None
    """
    if not isinstance(fen, str):
        raise TypeError(f"fen must be a str, not {type(fen).__name__}")
    record = encode([fen], width=10)[0]
    if int(record["width"]) != _WIDTH:
        return None
    if int(record["turn"]) != 0 or int(record["prefix"]) != 0:
        return None
    if int(record["ep"]) != _NONE:
        return None
    board = [int(code) for code in record["board"][: _WIDTH * 8]]

    def rank(r: int) -> list[int]:
        return board[r * _WIDTH : (r + 1) * _WIDTH]

    white = rank(0)
    if any(code not in _LETTER for code in white):
        return None
    if rank(1) != [_WP] * _WIDTH or rank(6) != [_WP + _BLACK] * _WIDTH:
        return None
    if any(code != _EMPTY for r in range(2, 6) for code in rank(r)):
        return None
    if rank(7) != [code + _BLACK for code in white]:
        return None
    number = _number_of_back_rank("".join(_LETTER[code] for code in white))
    if number is None:
        return None
    rooks = [f for f, code in enumerate(white) if code == _WR]
    full = [rooks[1], rooks[0], rooks[1], rooks[0]]
    if [int(f) for f in record["castling"]] != full:
        return None
    return number
