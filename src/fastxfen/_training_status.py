"""Legality for data cleaning and the move generator of fastxfen.training:
position status as python-chess's Board.status() names it, legal moves and
perft (core/status.c, core/movegen.c)."""

from __future__ import annotations

from typing import Literal, Optional

import numpy as np

from fastxfen import _training
from fastxfen._errors import FenError
from fastxfen._training_io import text_column

#: python-chess's Board.status() flags (same bits) and their names.
STATUS_NAMES = {
    1 << 0: "no_white_king",
    1 << 1: "no_black_king",
    1 << 2: "too_many_kings",
    1 << 3: "too_many_white_pawns",
    1 << 4: "too_many_black_pawns",
    1 << 5: "pawns_on_backrank",
    1 << 6: "too_many_white_pieces",
    1 << 7: "too_many_black_pieces",
    1 << 8: "bad_castling_rights",
    1 << 9: "invalid_ep_square",
    1 << 10: "opposite_check",
    1 << 11: "empty",
    1 << 15: "too_many_checkers",
    1 << 16: "impossible_check",
}
#: The flag of a row ``errors="coerce"`` could not read.
UNREADABLE = 1 << 31


def legal_moves(fen: str, *, chess960: bool = False) -> list:
    """The legal moves of one 8x8 position.

    Parameters
    ----------
    fen : str
        The position (FEN, X-FEN or Shredder-FEN text).
    chess960 : bool, default False
        Castling as the king taking its rook (``e1h1``) rather than the
        king's two-square step (``e1g1``).

    Returns
    -------
    list of str
        UCI text, in the generator's order.

    Raises
    ------
    FenError
        The text is not a position; ``ValueError`` for a 10-wide one.

    Examples
    --------
    >>> import fastxfen.training as ft
    >>> sorted(ft.legal_moves("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"))[-3:]
    ['e1e2', 'e1f1', 'e1f2']
    >>> "e1c1" in ft.legal_moves("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
    True
    """
    return _training.legal_moves(fen, chess960)


def perft(fen: str, depth: int) -> int:
    """The number of leaf positions ``depth`` plies below one position.

    Parameters
    ----------
    fen : str
        The 8x8 position.
    depth : int
        0 to 12.

    Returns
    -------
    int

    Raises
    ------
    FenError
        The text is not a position; ``ValueError`` for a depth out of range.

    Examples
    --------
    >>> import fastxfen.training as ft
    >>> ft.perft("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3)
    8902
    """
    return _training.perft(fen, depth)


def _rows(fens):
    fens = [fens] if isinstance(fens, (str, bytes)) else fens
    return text_column(fens, len(fens))


def _status(data, offsets, chess960: bool):
    return _training.status_spans(data, offsets[:-1], offsets[1:], bool(chess960))


def illegal_reason(flags: int) -> str:
    """The reason of a position with these status flags: ``"illegal
    position: "`` and the flags in words."""
    names = [name.replace("_", " ") for bit, name in STATUS_NAMES.items() if flags & bit]
    return "illegal position: " + ", ".join(names)


#: The field a status flag points at (others: the placement), by flag.
_FLAG_FIELDS = {1 << 8: (2, "castling"), 1 << 9: (3, "en_passant")}


def _field_start(row: bytes, field: int) -> int:
    """Where field ``field`` (0-based, blank-separated) of a row starts."""
    at, seen, blank = 0, -1, True
    for at, byte in enumerate(row):
        if byte in b" \t":
            blank = True
        elif blank:
            blank, seen = False, seen + 1
            if seen == field:
                return at
    return at


def illegal_spans(data, starts, ends, epd: bool = False) -> dict:
    """{i: FenError} for each row data[starts[i]:ends[i]] (8x8 FEN, or EPD
    with ``epd``) whose position python-chess's ``Board(fen,
    chess960=True).status()`` finds wrong, or that cannot be read: the
    field and column of the first flag (castling rights, en passant, else
    the placement), the reason ``illegal_reason`` gives."""
    starts = np.ascontiguousarray(starts, np.int64)
    ends = np.ascontiguousarray(ends, np.int64)
    flags, failed = _training.status_spans(data, starts, ends, True, epd)
    view = memoryview(data).cast("B")
    for i in np.flatnonzero(flags).tolist():
        if i in failed:
            continue
        f = int(flags[i])
        first = f & -f
        field, name = _FLAG_FIELDS.get(first, (0, "placement"))
        row = bytes(view[starts[i] : ends[i]])
        failed[i] = FenError(i, _field_start(row, field), name, illegal_reason(f))
    return failed


def status_flags(
    fens, *, chess960: bool = True, errors: Literal["raise", "coerce"] = "raise"
) -> np.ndarray:
    """What is wrong with each position, as the bits of python-chess's
    ``Board.status()``.

    Parameters
    ----------
    fens : str or iterable of str
        FEN rows (8x8); ``None`` is a missing value.
    chess960 : bool, default True
        Judge castling rights as ``chess.Board(fen, chess960=True)`` does
        (a rook on its back rank on each side of the king); ``False`` as a
        standard board does (corner rooks, the king on e1 / e8).
    errors : {"raise", "coerce"}, default "raise"
        A row that cannot be read (or a missing one) raises its
        ``FenError``, or with ``"coerce"`` gets the bit ``1 << 31``.

    Returns
    -------
    numpy.ndarray
        ``uint32``, one value a row: the ``chess.STATUS_*`` bits, 0 when
        the position is valid (``STATUS_NAMES`` names the bits).

    Raises
    ------
    FenError
        The first row that cannot be read, with ``errors="raise"``.

    Examples
    --------
    >>> import fastxfen.training as ft
    >>> ft.status_flags(["4k3/8/8/8/8/8/8/4K3 w - - 0 1", "k7/8/8/8/8/8/8/R3K3 w - - 0 1"])
    array([   0, 1024], dtype=uint32)
    """
    if errors not in ("raise", "coerce"):
        raise ValueError(f"errors must be 'raise' or 'coerce', not {errors!r}")
    data, offsets, missing = _rows(fens)
    flags, failed = _status(data, offsets, chess960)
    for row in np.flatnonzero(missing):
        failed[int(row)] = FenError(int(row), 0, "input", "missing value")
    if failed and errors == "raise":
        raise failed[min(failed)]
    for row in failed:
        flags[row] = UNREADABLE
    return flags


def status(fens, *, chess960: bool = True, errors: Literal["raise", "coerce"] = "raise") -> list:
    """What is wrong with each position, by name.

    Parameters
    ----------
    fens : str or iterable of str
        FEN rows, as for ``status_flags``.
    chess960 : bool, default True
        As for ``status_flags``.
    errors : {"raise", "coerce"}, default "raise"
        As for ``status_flags``.

    Returns
    -------
    list of tuple of str or None
        Per row the names of its problems (python-chess's status flags in
        lower case: ``"no_white_king"``, ``"opposite_check"``,
        ``"invalid_ep_square"`` ...), ``()`` for a valid position, ``None``
        for a row ``"coerce"`` could not read.

    Raises
    ------
    FenError
        The first row that cannot be read, with ``errors="raise"``.

    Examples
    --------
    >>> import fastxfen.training as ft
    >>> ft.status(["8/8/8/8/8/8/8/K6k w - - 0 1", "8/8/8/8/8/8/8/8 w - - 0 1"])
    [(), ('no_white_king', 'no_black_king', 'empty')]
    """
    return [
        None if f & UNREADABLE else tuple(n for bit, n in STATUS_NAMES.items() if f & bit)
        for f in status_flags(fens, chess960=chess960, errors=errors).tolist()
    ]


def illegal_positions(fens, *, chess960: bool = True) -> list:
    """A message for each row whose position is not legal: the form
    ``validate`` gives its messages.

    Parameters
    ----------
    fens : str or iterable of str
        FEN rows, as for ``status_flags``.
    chess960 : bool, default True
        As for ``status_flags``.

    Returns
    -------
    list of str or None
        ``None`` for a valid position or a missing value;
        ``"illegal position: "`` and its problems in words; for a row that
        cannot be read, its syntax message (``"column C (field): reason"``).

    Raises
    ------
    ValueError
        Offsets of an Arrow column outside its data.

    Examples
    --------
    >>> import fastxfen.training as ft
    >>> ft.illegal_positions(["4k3/8/8/8/8/8/8/4K3 w - -", "k7/8/8/8/8/8/8/R3K3 w - -"])
    [None, 'illegal position: opposite check']
    """
    data, offsets, missing = _rows(fens)
    flags, failed = _status(data, offsets, chess960)
    out: list[Optional[str]] = []
    for row, f in enumerate(flags.tolist()):
        if missing[row]:
            out.append(None)
        elif row in failed:
            out.append(f"{failed[row].location}: {failed[row].reason}")
        else:
            out.append(illegal_reason(f) if f else None)
    return out
