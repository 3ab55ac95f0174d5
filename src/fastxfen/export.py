"""Training-data export: positions as bitboards, plane tensors and packed
binary formats (lichess binary FEN, Stockfish's 24-byte compressed position),
and back to records.

This module only checks arguments, shapes arrays and picks a kernel; every
per-position step runs in C (core/export.c) with the GIL released.  The
packed values' readers are in ``_binary``, the fields a format lacks in
``_defaults``.  The formats and every option are described in
docs/export.md.
"""

from typing import Any, Iterator, Literal, Optional, Sequence, Union, overload

import numpy as np
import numpy.typing as npt

from fastxfen import _export, _options, _paths
from fastxfen._binary import checked, lichess_rows, stockfish_rows
from fastxfen._defaults import defaults
from fastxfen._errors import FenError, renumbered
from fastxfen._inputs import RECORDS, as_text, kind_of, shares_memory
from fastxfen._optional import require_arrow
from fastxfen._options import ErrorsMode, PlaneOptions, RecordOptions, Threads
from fastxfen._records import POSITION_DTYPE
from fastxfen._types import (
    EnPassant,
    Extra,
    PackFormat,
    Perspective,
    PlaneDType,
    Positions,
    RecordErrors,
    Width,
)

__all__ = [
    "PLANE_EXTRAS",
    "BinaryColumn",
    "from_bitboards",
    "from_planes",
    "pack",
    "to_bitboards",
    "to_planes",
    "unpack",
]

#: Names accepted in ``extra=`` (to_planes / from_planes), and how many planes
#: each adds.
PLANE_EXTRAS = dict(_export.EXTRA_PLANES)

#: One value for every row, or one per row.
PerRow = Union[int, Sequence[int], npt.NDArray[np.integer[Any]]]

# ---------------------------------------------------------------- argument checks


#: Text is read into 10-wide records, which hold every position.
_WIDE = RecordOptions(width=10)


def _as_records(x: Any, errors: ErrorsMode, threads: Threads) -> tuple:
    """Flat contiguous records, and whether they come fresh from encode."""
    kind = kind_of(x)
    if kind is RECORDS:
        return np.ascontiguousarray(np.asarray(x).reshape(-1)), False
    return _paths.encode(x, as_text(kind, x), _WIDE, errors, threads), True


def _output(out, shape, dtype, recs):
    """``out`` checked (or a new array): it must not share memory with the
    records ``recs`` the kernel reads."""
    if out is None:
        return np.empty(shape, dtype)
    if not isinstance(out, np.ndarray):
        raise ValueError(f"out must be a numpy array, not {type(out).__name__}")  # noqa: TRY004
    if shares_memory(recs, out):
        raise ValueError("out must not share memory with the input")
    if out.shape != shape or out.dtype != dtype:
        raise ValueError(
            f"out must have shape {shape} and dtype {dtype}, "
            f"not shape {out.shape} and dtype {out.dtype}"
        )
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError("out must be a writeable C-contiguous array")
    return out


# ---------------------------------------------------------------- bitboards


def to_bitboards(
    x: Positions,
    *,
    errors: RecordErrors = "raise",
    threads: Optional[int] = None,
    out: Optional[npt.NDArray[np.uint64]] = None,
) -> npt.NDArray[np.uint64]:
    """Bitboards of 8x8 positions: 12 ``uint64`` per position.

    The boards are white P N B R Q K, then black p n b r q k; bit i is
    square i (a1 = 0, b1 = 1, ..., h8 = 63).

    Parameters
    ----------
    x : records or text
        Records (``POSITION_DTYPE``, or ``POSITION_DTYPE_10x8`` holding 8-wide
        positions), or any text input of ``encode``.
    errors : {"raise", "coerce"}, default "raise"
        A bad row (text that does not parse, a 10-wide position) raises
        ``FenError`` or gets 12 zero boards.
    threads : int or None, default None
        Threads for reading text, as for ``normalize``.
    out : numpy.ndarray, optional
        A writeable C-contiguous (N, 12) ``uint64`` array to fill.

    Returns
    -------
    numpy.ndarray
        (N, 12) ``uint64``; ``out`` when given.

    Raises
    ------
    FenError
        A row cannot be read or is 10 wide (field ``record.width``).
    ValueError
        An option is not allowed, or ``out`` has the wrong shape or dtype.

    Examples
    --------
    >>> import fastxfen as fx
    >>> boards = fx.to_bitboards(["4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"])
    >>> boards.shape, hex(int(boards[0, 3]))  # white rooks on a1 and h1
    ((1, 12), '0x81')
    """
    mode = _options.record_errors(errors)
    threads = _options.threads_of(threads)
    recs, trusted = _as_records(x, mode, threads)
    out = _output(out, (len(recs), 12), np.dtype(np.uint64), recs)
    return _export.bitboards(recs, trusted=trusted, errors=mode, out=out)


def from_bitboards(
    bitboards: npt.ArrayLike,
    *,
    turn: Union[Literal["w", "b"], PerRow, None] = None,
    castling: Union[str, PerRow, None] = None,
    en_passant: Union[str, PerRow, None] = None,
    halfmove: Optional[PerRow] = None,
    fullmove: Optional[PerRow] = None,
    errors: RecordErrors = "raise",
) -> npt.NDArray[np.void]:
    """Records of bitboards, the inverse of ``to_bitboards``.

    Bitboards hold only the pieces; the other fields come from the keywords,
    each one value for every row or one value per row.

    Parameters
    ----------
    bitboards : array_like
        (N, 12) 64-bit integers, in the order of ``to_bitboards``.
    turn : {"w", "b"}, 0, 1 or array, default white
        Side to move (0 white, 1 black).
    castling : str or array, default no rights
        Flags such as ``"KQkq"`` (rook files as letters allowed, as in X-FEN
        and Shredder-FEN), or rook files of shape (4,) or (N, 4) in the
        order white king side, white queen side, black king side, black
        queen side (255 for none).
    en_passant : str or int or array, default none
        ``"-"``, a square such as ``"e3"``, or square indices (a1 = 0,
        255 for none).
    halfmove : int or array, default 0
        Halfmove clocks.
    fullmove : int or array, default 1
        Fullmove numbers (at least 1).
    errors : {"raise", "coerce"}, default "raise"
        A board that is not a valid position (two pieces on a square, no
        king, a pawn on a back rank) raises ``FenError`` or gives the null
        record.

    Returns
    -------
    numpy.ndarray
        (N,) records of ``POSITION_DTYPE``.

    Raises
    ------
    FenError
        A row is not a valid position.
    TypeError
        ``bitboards`` are not 64-bit integers.
    ValueError
        A shape or a keyword value is wrong.

    Examples
    --------
    >>> import fastxfen as fx
    >>> boards = fx.to_bitboards(["4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"])
    >>> fx.decode(fx.from_bitboards(boards, castling="KQ"))
    ['4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1']
    """
    mode = _options.record_errors(errors)
    bb = np.asarray(bitboards)
    if bb.dtype.kind not in "iu" or bb.dtype.itemsize != 8:
        raise TypeError(f"bitboards must be 64-bit integers, not {bb.dtype}")
    if bb.ndim == 0 or bb.shape[-1] != 12:
        raise ValueError(f"bitboards must have shape (N, 12), not {bb.shape}")
    bb = np.ascontiguousarray(bb.reshape(-1, 12), bb.dtype.newbyteorder("=")).view(np.uint64)
    given = defaults(len(bb), 8, turn, castling, en_passant, halfmove, fullmove)
    return _export.from_bitboards(bb, given, errors=mode)


# ---------------------------------------------------------------- planes


def to_planes(
    x: Positions,
    *,
    dtype: PlaneDType = np.uint8,
    perspective: Perspective = "white",
    extra: Union[Extra, Sequence[Extra]] = (),
    width: Width = 8,
    en_passant: EnPassant = "fen",
    errors: RecordErrors = "raise",
    threads: Optional[int] = None,
    out: Optional[npt.NDArray[Any]] = None,
) -> npt.NDArray[Any]:
    """Plane tensors of positions, for training networks.

    Shape (N, C, 8, width): C = 12 piece planes (white P N B R Q K, black
    p n b r q k; 16 with ``width=10``, adding A C a c), then the ``extra``
    planes in the order named.  ``planes[n, p, rank, file]`` is 1 where the
    piece stands, rank 0 being rank 1.  docs/export.md in the source
    distribution describes every plane.

    Parameters
    ----------
    x : records or text
        Records, or any text input of ``encode``.
    dtype : numpy bool, integer or float type, default numpy.uint8
        The element type (``"float32"``, ``np.float16``, ``bool``, ...).
    perspective : {"white", "side_to_move"}, default "white"
        "side_to_move" mirrors the board (and swaps the colors) when black
        is to move, so the side to move always plays up the board.
    extra : str or sequence of str, default ()
        Extra planes, from ``PLANE_EXTRAS``: "turn" (1 plane, all 1 for
        black to move), "castling" (4: one per right), "castling_rooks" (1:
        the rooks that may castle), "en_passant" (1: the target square),
        "halfmove" (1: the clock), "halfmove_scaled" (1: clock / 100, float
        dtypes only).
    width : {8, 10}, default 8
        The board width of the tensors; 10-wide positions need ``width=10``.
    en_passant : {"fen", "xfen", "legal"}, default "fen"
        Which target squares the "en_passant" plane marks.
    errors : {"raise", "coerce"}, default "raise"
        A bad row raises ``FenError`` or gets all-zero planes.
    threads : int or None, default None
        Threads for reading text, as for ``normalize``.
    out : numpy.ndarray, optional
        A writeable C-contiguous array of the result's shape and dtype.

    Returns
    -------
    numpy.ndarray
        (N, C, 8, width) of ``dtype``; ``out`` when given.

    Raises
    ------
    FenError
        A row cannot be read or is wider than ``width``.
    ValueError
        An option is not allowed, or ``out`` does not fit.

    Examples
    --------
    >>> import fastxfen as fx
    >>> planes = fx.to_planes(["4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1"], extra=("turn",))
    >>> planes.shape, int(planes[0, 3, 0, 0]), int(planes[0, 12].min())
    ((1, 13, 8, 8), 1, 1)
    """
    mode = _options.record_errors(errors)
    spec = PlaneOptions(dtype, perspective, extra, width, en_passant)
    threads = _options.threads_of(threads)
    recs, trusted = _as_records(x, mode, threads)
    out = _output(out, (len(recs), spec.planes, 8, spec.width), spec.dtype, recs)
    return _export.planes(recs, spec, trusted=trusted, errors=mode, out=out)


def from_planes(
    planes: npt.ArrayLike,
    *,
    perspective: Perspective = "white",
    extra: Union[Extra, Sequence[Extra]] = (),
    turn: Union[Literal["w", "b"], PerRow, None] = None,
    castling: Union[str, PerRow, None] = None,
    en_passant: Union[str, PerRow, None] = None,
    halfmove: Optional[PerRow] = None,
    fullmove: Optional[PerRow] = None,
    errors: RecordErrors = "raise",
) -> npt.NDArray[np.void]:
    """Records of plane tensors, the inverse of ``to_planes``.

    Give the ``perspective`` and ``extra`` the tensors were made with.
    Fields no plane carries come from the keywords, as for
    ``from_bitboards``; a keyword for a field a plane carries is an error.

    Parameters
    ----------
    planes : array_like
        (N, C, 8, 8) or (N, C, 8, 10) (one tensor without N is one row), of
        a bool, integer or float dtype; a square counts as set where the
        value is not 0.
    perspective : {"white", "side_to_move"}, default "white"
        As for ``to_planes``.
    extra : str or sequence of str, default ()
        As for ``to_planes``.
    turn, castling, en_passant, halfmove, fullmove
        As for ``from_bitboards``.
    errors : {"raise", "coerce"}, default "raise"
        A tensor that is not a valid position raises ``FenError`` or gives
        the null record.

    Returns
    -------
    numpy.ndarray
        (N,) records: ``POSITION_DTYPE`` for 8 files, ``POSITION_DTYPE_10x8``
        for 10.

    Raises
    ------
    FenError
        A tensor is not a valid position.
    ValueError
        A shape, option or keyword is wrong.

    Examples
    --------
    >>> import fastxfen as fx
    >>> planes = fx.to_planes(["4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1"], extra=("turn", "castling"))
    >>> fx.decode(fx.from_planes(planes, extra=("turn", "castling")))
    ['4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1']
    """
    mode = _options.record_errors(errors)
    arr = np.asarray(planes)
    if not arr.dtype.isnative:
        arr = arr.astype(arr.dtype.newbyteorder("="))
    if arr.ndim == 3:
        arr = arr[None]
    if arr.ndim != 4 or arr.shape[2] != 8 or arr.shape[3] not in (8, 10):
        raise ValueError(f"planes must have shape (N, C, 8, 8) or (N, C, 8, 10), not {arr.shape}")
    spec = PlaneOptions(arr.dtype, perspective, extra, arr.shape[3])
    names, width = spec.extra, spec.width
    if arr.shape[1] != spec.planes:
        raise ValueError(
            f"{arr.shape[1]} planes, but a {width}-wide tensor with extra={names!r} has "
            f"{spec.planes}"
        )
    given = {
        "turn": ("turn",),
        "castling": ("castling", "castling_rooks"),
        "en_passant": ("en_passant",),
        "halfmove": ("halfmove", "halfmove_scaled"),
    }
    values = {"turn": turn, "castling": castling, "en_passant": en_passant, "halfmove": halfmove}
    for key, planes_for in given.items():
        plane = next((p for p in planes_for if p in names), None)
        if plane is not None and values[key] is not None:
            raise ValueError(f"{key} is read from the {plane!r} plane; do not pass {key}=")
    given = defaults(len(arr), width, turn, castling, en_passant, halfmove, fullmove)
    return _export.from_planes(np.ascontiguousarray(arr), given, spec, errors=mode)


# ---------------------------------------------------------------- binary formats


class BinaryColumn:
    """Variable-length binary values in one buffer, Arrow's binary layout.

    ``pack(format="lichess")`` returns one; ``unpack`` reads it back.  It
    indexes and iterates as ``bytes`` values (``None`` for a null), and
    ``to_arrow()`` or ``pyarrow.array(column)`` share its data.  Offsets must
    rise and stay inside ``data``, and ``valid`` have one entry per value:
    checked when the column is made and whenever ``unpack`` or ``to_arrow``
    reads it (a ``ValueError`` naming the first bad row).

    Parameters
    ----------
    data : numpy.ndarray
        Every value back to back, as ``uint8`` (for ``bytes``, use
        ``np.frombuffer(b, np.uint8)``).
    offsets : array_like
        ``int64``, one more than there are values: value i is
        ``data[offsets[i]:offsets[i + 1]]``.  Non-decreasing, inside ``data``.
    valid : array_like, optional
        ``None`` (every value present) or one ``bool`` per value, ``False``
        for a null (a row coerced away).

    Returns
    -------
    BinaryColumn
        With the attributes ``data``, ``offsets`` and ``valid`` as given
        (copied only when not already contiguous of the right type).

    Raises
    ------
    ValueError
        The offsets do not fit ``data`` or ``valid``.

    Examples
    --------
    >>> import fastxfen as fx
    >>> import numpy as np
    >>> data = np.frombuffer(b"abcde", np.uint8)
    >>> column = fx.BinaryColumn(data, [0, 2, 2, 5], [True, False, True])
    >>> column.tolist(), len(column), column.lengths().tolist()
    ([b'ab', None, b'cde'], 3, [2, 0, 3])
    """

    __slots__ = ("data", "offsets", "valid")

    def __init__(self, data: Any, offsets: Any, valid: Any = None) -> None:
        self.data = np.ascontiguousarray(data, np.uint8).reshape(-1)
        self.offsets = np.ascontiguousarray(offsets, np.int64).reshape(-1)
        self.valid = None if valid is None else np.ascontiguousarray(valid, bool).reshape(-1)
        self._checked()  # here, and again whenever the column is read

    def _checked(self) -> tuple:
        """(data, offsets, nulls) for a kernel, checked as they are now."""
        return checked(self.data, self.offsets, self.valid)

    def _rows(self) -> tuple:
        """(data, starts, ends, nulls), checked, for the unpack kernel."""
        data, offsets, nulls = self._checked()
        return data, offsets[:-1], offsets[1:], nulls

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __getitem__(self, i: int) -> Optional[bytes]:
        n = len(self)
        if not isinstance(i, (int, np.integer)):
            raise TypeError("BinaryColumn indices must be integers")
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("BinaryColumn index out of range")
        if self.valid is not None and not self.valid[i]:
            return None
        return self.data[self.offsets[i] : self.offsets[i + 1]].tobytes()

    def __iter__(self) -> Iterator[Optional[bytes]]:
        return (self[i] for i in range(len(self)))

    def __repr__(self) -> str:
        nulls = 0 if self.valid is None else int((~self.valid).sum())
        return f"BinaryColumn({len(self)} values, {len(self.data)} bytes, {nulls} null)"

    def lengths(self) -> np.ndarray:
        """Byte length of every value (0 for a null)."""
        return np.diff(self.offsets)

    def tolist(self) -> list[Optional[bytes]]:
        """The values as ``bytes`` (``None`` for a null)."""
        return list(self)

    def to_arrow(self, large: Optional[bool] = None) -> Any:
        """A ``pyarrow.BinaryArray`` (``LargeBinaryArray`` with ``large=True``,
        or when the data exceeds 2 GiB) sharing this column's data.
        Needs pyarrow (``pip install "fastxfen[arrow]"``)."""
        pa = require_arrow("BinaryColumn.to_arrow()")

        data, offsets, nulls = self._checked()
        base = int(offsets[0])
        if large is None:
            large = int(offsets[-1]) - base > np.iinfo(np.int32).max
        offsets = offsets - base if base else offsets
        if not large:
            offsets = offsets.astype(np.int32)
        validity, null_count = None, 0
        if nulls is not None and nulls.any():
            validity = pa.py_buffer(np.packbits(nulls == 0, bitorder="little"))
            null_count = int(nulls.sum())
        return pa.Array.from_buffers(
            pa.large_binary() if large else pa.binary(),
            len(offsets) - 1,
            [validity, pa.py_buffer(offsets), pa.py_buffer(data[base:])],
            null_count=null_count,
        )

    def __arrow_array__(self, type: Any = None) -> Any:
        arr = self.to_arrow()
        return arr if type is None else arr.cast(type)


@overload
def pack(
    x: Positions,
    *,
    format: Literal["lichess"] = ...,
    en_passant: EnPassant = ...,
    errors: RecordErrors = ...,
    threads: Optional[int] = ...,
    out: None = ...,
) -> "BinaryColumn": ...
@overload
def pack(
    x: Positions,
    *,
    format: Literal["stockfish"],
    en_passant: EnPassant = ...,
    errors: RecordErrors = ...,
    threads: Optional[int] = ...,
    out: Optional[npt.NDArray[np.uint8]] = ...,
) -> npt.NDArray[np.uint8]: ...
def pack(
    x: Positions,
    *,
    format: PackFormat = "lichess",
    en_passant: EnPassant = "fen",
    errors: RecordErrors = "raise",
    threads: Optional[int] = None,
    out: Optional[npt.NDArray[np.uint8]] = None,
) -> Union["BinaryColumn", npt.NDArray[np.uint8]]:
    """Pack 8x8 positions into a compact binary format.

    Parameters
    ----------
    x : records or text
        Records, or any text input of ``encode``.
    format : {"lichess", "stockfish"}, default "lichess"
        "lichess": lichess's binary FEN, one variable-length value per
        position (counters included).  "stockfish": Stockfish's 24-byte
        compressed position (without the move counters).  docs/export.md
        in the source distribution gives both layouts.
    en_passant : {"fen", "xfen", "legal"}, default "fen"
        Which en-passant targets are stored: every target the record keeps
        ("fen"), or only the X-FEN or legal ones.
    errors : {"raise", "coerce"}, default "raise"
        A position the format cannot hold (10 wide, too many pieces) raises
        ``FenError``, or is a null (lichess) or 24 zero bytes (stockfish).
    threads : int or None, default None
        Threads for reading text, as for ``normalize``.
    out : numpy.ndarray, optional
        stockfish only: a writeable C-contiguous (N, 24) ``uint8`` array.

    Returns
    -------
    BinaryColumn or numpy.ndarray
        lichess: a ``BinaryColumn`` (Arrow binary layout).  stockfish: an
        (N, 24) ``uint8`` array.

    Raises
    ------
    FenError
        A row cannot be read or the format cannot hold it.
    ValueError
        An option is not allowed, or ``out`` is given for lichess.

    Examples
    --------
    >>> import fastxfen as fx
    >>> column = fx.pack(["4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"])
    >>> column
    BinaryColumn(1 values, 10 bytes, 0 null)
    >>> fx.pack(["4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"], format="stockfish").shape
    (1, 24)
    """
    mode = _options.record_errors(errors)
    fmt = _options.pack_format(format)
    ep = _options.en_passant(en_passant)
    threads = _options.threads_of(threads)
    recs, trusted = _as_records(x, mode, threads)
    if fmt == "stockfish":
        out = _output(out, (len(recs), _export.STOCKFISH_SIZE), np.dtype(np.uint8), recs)
        return _export.stockfish_pack(recs, trusted=trusted, en_passant=ep, errors=mode, out=out)
    if out is not None:
        raise ValueError("out= is only for format='stockfish' (a fixed-size array)")
    data, offsets, valid = _export.lichess_pack(recs, trusted=trusted, en_passant=ep, errors=mode)
    return BinaryColumn(data, offsets, valid)


def unpack(
    data: Any,
    *,
    format: PackFormat = "lichess",
    halfmove: Optional[PerRow] = None,
    fullmove: Optional[PerRow] = None,
    errors: RecordErrors = "raise",
) -> npt.NDArray[np.void]:
    """Records of packed positions, the inverse of ``pack``.

    Parameters
    ----------
    data : BinaryColumn, array, bytes or Arrow column
        lichess: a ``BinaryColumn``, a ``(data, offsets)`` pair, a pyarrow
        binary array, a numpy ``S`` array, an iterable of ``bytes``
        (``None`` is a null) or one ``bytes`` value (one row).  stockfish:
        an (N, 24) ``uint8`` array, a bytes-like buffer of N * 24 bytes, a
        pyarrow ``fixed_size_binary(24)`` or binary array, or an iterable of
        24-byte values.
    format : {"lichess", "stockfish"}, default "lichess"
        The format ``data`` is in.
    halfmove, fullmove : int or array, default 0 and 1
        stockfish only (the format holds no counters): one value, or one
        per row.
    errors : {"raise", "coerce"}, default "raise"
        A value that is not a valid packed position raises ``FenError`` or
        gives the null record.  A null value always gives the null record.

    Returns
    -------
    numpy.ndarray
        (N,) records of ``POSITION_DTYPE``.

    Raises
    ------
    FenError
        A value is not a valid packed position.
    ValueError
        An option is not allowed or ``data`` has the wrong shape.
    TypeError
        ``data`` holds values that are not bytes.

    Examples
    --------
    >>> import fastxfen as fx
    >>> column = fx.pack(["4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"])
    >>> fx.decode(fx.unpack(column))
    ['4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1']
    """
    mode = _options.record_errors(errors)
    fmt = _options.pack_format(format)
    if fmt == "stockfish":
        rows = stockfish_rows(data)
        given = defaults(len(rows), 8, halfmove=halfmove, fullmove=fullmove)
        return _export.stockfish_unpack(rows, given, errors=mode)
    if halfmove is not None or fullmove is not None:
        raise ValueError(
            "the lichess format stores its own counters; "
            "halfmove= and fullmove= are for format='stockfish'"
        )
    parts, done = [], 0
    rows = [data._rows()] if isinstance(data, BinaryColumn) else lichess_rows(data)
    for raw, starts, ends, nulls in rows:
        try:
            parts.append(
                _export.lichess_unpack(raw, starts, ends, nulls, errors=mode, first_row=done)
            )
        except FenError as exc:  # renumber rows of later Arrow chunks
            if done:
                raise renumbered(exc, exc.index + done) from None
            raise
        done += len(starts)
    if not parts:
        return np.empty(0, POSITION_DTYPE)
    return np.concatenate(parts) if len(parts) > 1 else parts[0]
