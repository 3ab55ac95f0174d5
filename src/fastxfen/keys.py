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

from fastxfen import _bulk, _keys, _options, _paths
from fastxfen._errors import FenError, renumbered
from fastxfen._frames import column_of, nullable_keys, on_series
from fastxfen._inputs import ARRAY, ARROW, BUFFER, FIXED, RECORDS, ROWS, SERIES, STR, Kind, kind_of
from fastxfen._options import ErrorsMode, KeyOptions, RecordOptions, Threads
from fastxfen._records import POSITION_DTYPE_10x8
from fastxfen._types import EnPassant, Positions
from fastxfen._types import RecordErrors as KeyErrors

__all__ = ["Deduper", "unique", "zobrist"]

#: Rows of text read at a time: bounds the records held meanwhile (96 bytes
#: a row) for lists, numpy arrays and Arrow columns.
CHUNK_ROWS = 1 << 20
#: Bytes of a newline buffer read at a time (about 60 k rows): their
#: records, written over the last piece's, are still in the cache when the
#: keys or the set read them, and take no fresh memory after the first.
CHUNK_BYTES = 4 << 20
#: Text is read into 10-wide records, which hold every position.
_WIDE = RecordOptions(width=10)


def _renumbered(start: int, fn: Callable[..., Any], *args: Any, **options: Any) -> Any:
    """fn(*args, **options), a FenError's row moved on by start rows."""
    try:
        return fn(*args, **options)
    except FenError as e:
        raise renumbered(e, e.index + start) from None


def _records(
    x: Any, kind: Kind, errors: ErrorsMode, threads: Threads
) -> tuple[Iterator[tuple[int, np.ndarray, bool]], Any]:
    """The records of x (of this kind, not STR), chunk by chunk: (first row,
    flat contiguous records, whether they come fresh from the reader, so
    checked already); and the shape of a numpy input (None for others).
    Missing values (None, Arrow nulls) give null records, also under
    errors="raise"."""
    if kind is SERIES:  # its Arrow column or its rows, missing values None
        x = column_of(x)
        kind = kind_of(x)
    if kind is RECORDS:
        arr = np.asarray(x)
        return iter([(0, np.ascontiguousarray(arr.reshape(-1)), False)]), arr.shape
    if kind is BUFFER:
        view = memoryview(x)
        if view.contiguous and view.ndim == 1 and view.itemsize == 1:
            return _buffer_chunks(view.cast("B"), errors, threads), None
        return iter([(0, _paths.encode(x, kind, _WIDE, errors, threads), True)]), None
    shape = x.shape if kind in (FIXED, ARRAY) else None
    if shape is not None:
        rows: Any = x.reshape(-1)
    elif kind is ARROW:
        rows = x
    else:  # any other iterable is read once
        rows, kind = (x if isinstance(x, list) else list(x)), ROWS

    def chunks() -> Iterator[tuple[int, np.ndarray, bool]]:
        # Arrow and numpy S/U chunks are read by the bulk kernels, which write
        # each chunk's records over the last one's, as for buffers (rows read
        # one by one would be copied in: no gain)
        out = None
        if kind in (ARROW, FIXED):
            out = np.empty(min(len(rows), CHUNK_ROWS), POSITION_DTYPE_10x8)
        for start in range(0, max(len(rows), 1), CHUNK_ROWS):
            if kind is ARROW:
                part = rows.slice(start, CHUNK_ROWS)
            else:
                part = rows[start : start + CHUNK_ROWS]
            into = None if out is None else out[: len(part)]
            recs = _renumbered(start, _paths.encode, part, kind, _WIDE, errors, threads, into)
            yield start, recs, True

    return chunks(), shape


def _buffer_chunks(
    view: memoryview, errors: ErrorsMode, threads: Threads
) -> Iterator[tuple[int, np.ndarray, bool]]:
    """_records of a newline buffer, CHUNK_BYTES or so at a time, each
    piece's records written over the last one's: a caller is done with a
    chunk when it asks for the next."""
    out = np.empty(0, POSITION_DTYPE_10x8)
    start = 0
    for piece in _pieces(view, CHUNK_BYTES):
        batch = _bulk.lines(piece, threads=threads.kernel)
        if batch.n > len(out):
            out = np.empty(batch.n, out.dtype)
        recs = _renumbered(
            start, batch.encode, _WIDE, errors, threads=threads.kernel, out=out[: batch.n]
        )
        yield start, recs, True
        start += batch.n


def _pieces(view: memoryview, size: int) -> Iterator[memoryview]:
    """``view`` cut into pieces of whole lines, each ending at the first
    newline from ``size`` bytes past its start (or at the end); at least
    one piece, empty for an empty view."""
    data = np.frombuffer(view, np.uint8)
    at = 0
    while True:
        end = _line_end(data, at + size)
        yield view[at:end]
        if end >= len(data):
            return
        at = end


def _line_end(data: np.ndarray, at: int) -> int:
    """Past the first newline at or after ``at`` in ``data``, else its
    length; looking further each step, so a long line costs its length."""
    step = 4096
    while at < len(data):
        found = np.flatnonzero(data[at : at + step] == 10)
        if len(found):
            return at + int(found[0]) + 1
        at, step = at + step, step * 2
    return len(data)


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
    int, numpy.ndarray or Series
        One ``str`` or one record gives an ``int``; a pandas or polars
        Series a ``uint64`` Series (pandas keeps the index; nullable, missing
        where the input is, when it has missing values); anything else a
        ``uint64`` array, of the input's shape for numpy input and 1-d
        otherwise (an Arrow column too: 0 stands for a missing row, so the
        keys need no mask, and ``pyarrow.array(keys)`` wraps them without a
        copy).

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
    asked = _options.threads_of(threads)
    kind = kind_of(fens)
    if kind is STR:
        recs = _paths.encode(fens, kind, _WIDE, mode, asked)
        return int(_keys.zobrist(recs, trusted=True, errors=mode)[0])
    if kind is SERIES:  # a Series of the keys, missing where the input is

        def column_keys(column: Any) -> Any:
            return nullable_keys(zobrist, column, errors=mode, threads=threads)

        return on_series(column_keys, fens, "keys")
    chunks, shape = _records(fens, kind, mode, asked)
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
    positions held (``nbytes``; about 45 to 70 bytes each, see docs/keys.md
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

    def add(
        self, fens: Positions, *, errors: KeyErrors = "raise", threads: Optional[int] = None
    ) -> npt.NDArray[np.bool_]:
        """Mask of first occurrences among ``fens`` (anything ``zobrist``
        takes; one flat mask in C order for numpy input).  Missing values and,
        with ``errors="coerce"``, bad rows hold no position: False.  A bad row
        otherwise raises ``FenError``, numbered from the first row ever
        added.  All or nothing: a call that raises (a bad row, an interrupt,
        running out of memory) adds none of its rows."""
        mode = _options.record_errors(errors)
        asked = _options.threads_of(threads)
        kind = kind_of(fens)
        if kind is STR:
            fens, kind = [fens], ROWS
        try:
            masks = self._table.add_chunks(_records(fens, kind, mode, asked)[0], mode)
        except FenError as e:
            raise renumbered(e, e.index + self._table.rows) from None
        return masks[0] if len(masks) == 1 else np.concatenate(masks)

    @property
    def rows(self) -> int:
        """Rows added so far."""
        return self._table.rows

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
        ``int64`` indices, ascending (flat C-order indices for numpy input;
        positions, not index labels, for a pandas Series, whose
        ``Series.fen.unique`` gives the rows themselves).

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
