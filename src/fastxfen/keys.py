"""Position keys and exact deduplication: ``zobrist``, ``unique`` and
``Deduper``.

Text is read by ``encode`` (GIL released, over ``threads``); the keys and
the set of distinct positions are computed in C (core/zobrist.c,
core/dedupe.c) in one GIL-free loop per call.  The definitions are in
docs/keys.md.
"""

from typing import Any, Callable, Iterator, Optional, Union, overload

import numpy as np
import numpy.typing as npt

from fastxfen import _keys, _options
from fastxfen._api import encode
from fastxfen._columns import is_arrow
from fastxfen._errors import FenError
from fastxfen._options import ErrorsMode, KeyOptions
from fastxfen._records import is_records
from fastxfen._types import BUFFERS, EnPassant, Positions
from fastxfen._types import RecordErrors as KeyErrors

__all__ = ["Deduper", "unique", "zobrist"]


def _rows_with_missing(x: Any) -> Optional[list[Any]]:
    """The rows of a list or object array that holds None, else None (such
    input is read with errors="coerce" and its refused rows checked after)."""
    if isinstance(x, np.ndarray):
        rows = x.ravel().tolist() if x.dtype.kind == "O" else []
    else:
        rows = x if isinstance(x, list) else []
    return rows if any(row is None for row in rows) else None


#: Rows of text read at a time: bounds the records held meanwhile (96 bytes
#: a row) for lists, numpy arrays and Arrow columns.
CHUNK_ROWS = 1 << 20


def _renumbered(start: int, fn: Callable[..., Any], *args: Any, **options: Any) -> Any:
    """fn(*args, **options), a FenError's row moved on by start rows."""
    try:
        return fn(*args, **options)
    except FenError as e:
        raise FenError(e.index + start, e.column, e.field, e.reason) from None


def _text_records(x: Any, errors: ErrorsMode, threads: Optional[int]) -> np.ndarray:
    """Records of one chunk of text rows; missing values (None, Arrow nulls)
    give null records, also under errors="raise"."""
    rows = _rows_with_missing(x) if errors is ErrorsMode.RAISE else None
    if rows is None:
        return encode(x, width=10, errors=errors, threads=threads)
    recs = encode(rows, width=10, errors="coerce", threads=threads)
    for i in np.flatnonzero(recs["width"] == 0):
        if rows[i] is not None:  # a refused row: its own error, numbered i
            try:
                encode([rows[i]], width=10)
            except FenError as e:
                raise FenError(int(i), e.column, e.field, e.reason) from None
    return recs


def _records(
    x: Any, errors: ErrorsMode, threads: Optional[int]
) -> tuple[Iterator[tuple[int, np.ndarray, bool]], Any]:
    """The records of x, chunk by chunk: (first row, flat contiguous records,
    whether they come fresh from the reader, so checked already); and the
    shape of a numpy input (None for others)."""
    if is_records(x):
        arr = np.asarray(x)
        return iter([(0, np.ascontiguousarray(arr.reshape(-1)), False)]), arr.shape
    if isinstance(x, BUFFERS):
        return iter([(0, _text_records(x, errors, threads), True)]), None
    if not isinstance(x, (np.ndarray, list)) and not is_arrow(x):
        x = list(x)  # any other iterable is read once
    shape = x.shape if isinstance(x, np.ndarray) else None
    rows: Any = x.reshape(-1) if isinstance(x, np.ndarray) else x

    def chunks() -> Iterator[tuple[int, np.ndarray, bool]]:
        for start in range(0, max(len(rows), 1), CHUNK_ROWS):
            part = (
                rows.slice(start, CHUNK_ROWS)
                if is_arrow(rows)
                else rows[start : start + CHUNK_ROWS]
            )
            yield start, _renumbered(start, _text_records, part, errors, threads), True

    return chunks(), shape


@overload
def zobrist(  # type: ignore[overload-overlap]
    fens: Union[str, np.void], *, errors: KeyErrors = ..., threads: Optional[int] = ...
) -> int: ...
@overload
def zobrist(
    fens: Positions, *, errors: KeyErrors = ..., threads: Optional[int] = ...
) -> npt.NDArray[np.uint64]: ...
def zobrist(fens: Positions, *, errors: KeyErrors = "raise", threads: Optional[int] = None) -> Any:
    """Zobrist keys of positions, 64 bits each.

    For 8x8 boards the key is polyglot's, equal to python-chess's
    ``chess.polyglot.zobrist_hash(chess.Board(fen, chess960=True))``: the
    pieces, the side to move, the castling rights (after repair) and the
    en-passant file only when a pawn of the side to move stands ready to
    capture.  Counters are not part of it.  10x8 boards get fastxfen's own
    extension (archbishop, chancellor, files i and j), stable across
    versions but not polyglot.  docs/keys.md in the source distribution has
    the definition.

    Parameters
    ----------
    fens : text or records
        Anything ``encode`` reads, or records (``POSITION_DTYPE`` or
        ``POSITION_DTYPE_10x8``).
    errors : {"raise", "coerce"}, default "raise"
        A bad row raises ``FenError`` or gets the key 0.  A missing value
        (``None``, an Arrow null, the null record) gets 0 either way.
    threads : int or None, default None
        Threads for reading text, as for ``normalize``.

    Returns
    -------
    int or numpy.ndarray
        One ``str`` or one record gives an ``int``; anything else a
        ``uint64`` array, of the input's shape for numpy input and 1-d
        otherwise.

    Raises
    ------
    FenError
        A row is not a valid position (``errors="raise"``).
    ValueError
        An option is not one of its allowed values.

    Examples
    --------
    >>> import fastxfen as fx
    >>> hex(fx.zobrist("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"))
    '0x463b96181691fc9c'
    >>> keys = fx.zobrist(["4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 7 40"])
    >>> keys.dtype, bool(keys[0] == keys[1])
    (dtype('uint64'), True)
    """
    mode = _options.record_errors(errors)
    if isinstance(fens, str):
        recs = encode(fens, width=10, errors=errors)
        return int(_keys.zobrist(recs, trusted=True, errors=mode)[0])
    chunks, shape = _records(fens, mode, threads)
    parts = [
        _renumbered(start, _keys.zobrist, recs, trusted=trusted, errors=mode)
        for start, recs, trusted in chunks
    ]
    keys = parts[0] if len(parts) == 1 else np.concatenate(parts)
    if shape == ():
        return int(keys[0])
    return keys if shape is None else keys.reshape(shape)


class Deduper:
    """The first occurrences of positions fed chunk by chunk.

    ``add(chunk)`` returns a ``bool`` mask, True where a row holds a position
    not seen before (in this chunk or an earlier one).  Two rows hold the
    same position when their placement, side to move, castling rights (after
    repair, prefix included) and en-passant target (kept as ``en_passant``
    says) are equal, and their move counters too with ``counters=True``.
    Keys only find candidates: positions are compared byte for byte, so a
    key collision never merges two of them.  Memory grows with the distinct
    positions held (``nbytes``; about 60 to 90 bytes each, see docs/keys.md
    in the source distribution).

    Parameters
    ----------
    counters : bool, default False
        Whether the halfmove clock and fullmove number are part of the
        position.
    en_passant : {"xfen", "fen", "legal"}, default "xfen"
        Which en-passant targets count: "xfen" a target a pawn of the side
        to move stands ready to capture on, "fen" every valid target,
        "legal" only a target a legal capture uses.

    Returns
    -------
    Deduper
        An empty set; ``rows``, ``distinct`` and ``nbytes`` tell what it holds.

    Raises
    ------
    ValueError
        ``en_passant`` is not one of its allowed values.

    Examples
    --------
    >>> import fastxfen as fx
    >>> seen = fx.Deduper()
    >>> seen.add(["4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 3 9"]).tolist()
    [True, False]
    >>> seen.add(["4k3/8/8/8/8/8/8/4K3 b - - 0 1"]).tolist(), seen.rows, seen.distinct
    ([True], 3, 2)
    """

    def __init__(self, *, counters: bool = False, en_passant: EnPassant = "xfen") -> None:
        self._table = _keys.Table(KeyOptions(counters, en_passant))
        self._rows = 0

    def add(
        self, fens: Positions, *, errors: KeyErrors = "raise", threads: Optional[int] = None
    ) -> npt.NDArray[np.bool_]:
        """Mask of first occurrences among ``fens`` (anything ``zobrist``
        takes; one flat mask in C order for numpy input).  Missing values and,
        with ``errors="coerce"``, bad rows hold no position: False.  A bad row
        otherwise raises ``FenError``, numbered from the first row ever
        added; the rows before it are then in the set."""
        mode = _options.record_errors(errors)
        if isinstance(fens, str):
            fens = [fens]
        masks = []
        try:
            for start, recs, trusted in _records(fens, mode, threads)[0]:
                masks.append(
                    _renumbered(start, self._table.add, recs, trusted=trusted, errors=mode)
                )
        except FenError as e:
            raise FenError(e.index + self._rows, e.column, e.field, e.reason) from None
        self._rows += sum(len(mask) for mask in masks)
        return masks[0] if len(masks) == 1 else np.concatenate(masks)

    @property
    def rows(self) -> int:
        """Rows added so far."""
        return self._rows

    @property
    def distinct(self) -> int:
        """Distinct positions seen so far."""
        return self._table.count

    @property
    def nbytes(self) -> int:
        """Bytes held for them."""
        return self._table.nbytes


def unique(
    fens: Positions,
    *,
    counters: bool = False,
    en_passant: EnPassant = "xfen",
    errors: KeyErrors = "raise",
    threads: Optional[int] = None,
) -> npt.NDArray[np.int64]:
    """Indices of the first occurrence of each distinct position.

    Two rows hold the same position as ``Deduper`` defines it: equal
    placement, side to move, castling rights (after repair) and en-passant
    target (as ``en_passant`` says), and equal counters with
    ``counters=True``.  Positions are compared exactly, never by key alone.

    Parameters
    ----------
    fens : text or records
        Anything ``zobrist`` takes.
    counters : bool, default False
        Whether the move counters are part of the position.
    en_passant : {"xfen", "fen", "legal"}, default "xfen"
        Which en-passant targets count, as for ``Deduper``.
    errors : {"raise", "coerce"}, default "raise"
        A bad row raises ``FenError`` or is left out.  Missing values are
        always left out.
    threads : int or None, default None
        Threads for reading text, as for ``normalize``.

    Returns
    -------
    numpy.ndarray
        ``int64`` indices, ascending (flat C-order indices for numpy input).

    Raises
    ------
    FenError
        A row is not a valid position (``errors="raise"``).
    ValueError
        An option is not one of its allowed values.

    Examples
    --------
    >>> import fastxfen as fx
    >>> rows = ["4k3/8/8/8/8/8/8/4K3 w - - 0 1", "8/8/9/8/8/8/8/8 w - -",
    ...         "4k3/8/8/8/8/8/8/4K3 w - - 5 20"]
    >>> fx.unique(rows, errors="coerce").tolist()
    [0]
    >>> fx.unique(rows, counters=True, errors="coerce").tolist()
    [0, 2]
    """
    mask = Deduper(counters=counters, en_passant=en_passant).add(
        fens, errors=errors, threads=threads
    )
    return np.flatnonzero(mask).astype(np.int64, copy=False)
