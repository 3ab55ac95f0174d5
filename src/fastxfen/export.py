"""Training-data export: positions as bitboards, plane tensors and packed
binary formats (lichess binary FEN, Stockfish's 24-byte compressed position),
and back to records.

This module only checks arguments, shapes arrays and picks a kernel; every
per-position step runs in C (core/export.c) with the GIL released.  The
formats and every option are described in docs/export.md.
"""

from typing import Any, Iterator, Literal, Optional, Sequence, Union, overload

import numpy as np
import numpy.typing as npt

from fastxfen import _export, _options, _paths
from fastxfen._columns import arrow_offsets
from fastxfen._inputs import ARROW, BUFFER, FIXED, RECORDS, ROWS, as_text, kind_of
from fastxfen._optional import require_arrow
from fastxfen._options import ErrorsMode, PlaneOptions, RecordOptions, Threads
from fastxfen._records import POSITION_DTYPE
from fastxfen._types import (
    BUFFERS,
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
_U32 = 4294967295

# ---------------------------------------------------------------- argument checks


#: Text is read into 10-wide records, which hold every position.
_WIDE = RecordOptions(width=10)


def _as_records(x: Any, errors: ErrorsMode, threads: Threads) -> tuple:
    """Flat contiguous records, and whether they come fresh from encode."""
    kind = kind_of(x)
    if kind is RECORDS:
        return np.ascontiguousarray(np.asarray(x).reshape(-1)), False
    return _paths.encode(x, as_text(kind, x), _WIDE, errors, threads), True


def _output(out, shape, dtype):
    if out is None:
        return np.empty(shape, dtype)
    if not isinstance(out, np.ndarray):
        raise ValueError(f"out must be a numpy array, not {type(out).__name__}")  # noqa: TRY004
    if out.shape != shape or out.dtype != dtype:
        raise ValueError(
            f"out must have shape {shape} and dtype {dtype}, "
            f"not shape {out.shape} and dtype {out.dtype}"
        )
    if not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError("out must be a writeable C-contiguous array")
    return out


# ---------------------------------------------------------------- defaults


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


def _defaults(n, width, turn=None, castling=None, en_passant=None, halfmove=None, fullmove=None):
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
    out = _output(out, (len(recs), 12), np.dtype(np.uint64))
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
    defaults = _defaults(len(bb), 8, turn, castling, en_passant, halfmove, fullmove)
    return _export.from_bitboards(bb, defaults, errors=mode)


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
    out = _output(out, (len(recs), spec.planes, 8, spec.width), spec.dtype)
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
    defaults = _defaults(len(arr), width, turn, castling, en_passant, halfmove, fullmove)
    return _export.from_planes(np.ascontiguousarray(arr), defaults, spec, errors=mode)


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
        """(data, offsets, nulls) for a kernel, from the attributes as
        they are now (they may have been reassigned or written to since the
        column was made): offsets and mask copied, so the kernel reads what
        was checked; ValueError naming the first bad row."""
        data = np.ascontiguousarray(self.data, np.uint8).reshape(-1)
        offsets = np.array(self.offsets, np.int64, ndmin=1)
        if offsets.ndim != 1 or not offsets.size:
            raise ValueError("offsets must be a 1-d array of one entry more than the values")
        nulls = None
        if self.valid is not None:
            valid = np.asarray(self.valid)
            if valid.shape != (offsets.size - 1,):
                raise ValueError(
                    f"valid has shape {valid.shape}, expected ({offsets.size - 1},): "
                    "one entry per value"
                )
            nulls = (valid == 0).view(np.uint8)
        _export.check_spans(data, offsets[:-1], offsets[1:], nulls)
        return data, offsets, nulls

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
        out = _output(out, (len(recs), _export.STOCKFISH_SIZE), np.dtype(np.uint8))
        return _export.stockfish_pack(recs, trusted=trusted, en_passant=ep, errors=mode, out=out)
    if out is not None:
        raise ValueError("out= is only for format='stockfish' (a fixed-size array)")
    data, offsets, valid = _export.lichess_pack(recs, trusted=trusted, en_passant=ep, errors=mode)
    return BinaryColumn(data, offsets, valid)


def _bytes_array(buf) -> np.ndarray:
    view = memoryview(buf)
    if not view.c_contiguous:
        view = memoryview(view.tobytes())
    return np.frombuffer(view.cast("B") if view.format != "B" else view, np.uint8)


def _arrow_chunks(obj):
    import pyarrow as pa

    return obj.chunks if isinstance(obj, pa.ChunkedArray) else [obj]


def _arrow_binary_rows(chunk, base):
    """(data, starts, ends, nulls) of an Arrow binary chunk whose first row is
    row ``base``; starts and ends are copies, checked by the kernels."""
    import pyarrow as pa

    kind = chunk.type
    if hasattr(pa.types, "is_binary_view") and pa.types.is_binary_view(kind):
        chunk, kind = chunk.cast(pa.large_binary()), pa.large_binary()
    if not (pa.types.is_binary(kind) or pa.types.is_large_binary(kind)):
        raise TypeError(f"expected an Arrow binary column, got {kind}")
    width = np.int32 if pa.types.is_binary(kind) else np.int64
    offs = arrow_offsets(chunk, width, base).astype(np.int64)
    nulls = None
    if chunk.null_count:
        nulls = chunk.is_null().to_numpy(zero_copy_only=False).astype(np.uint8)
    data = chunk.buffers()[2]
    raw = np.frombuffer(data, np.uint8) if data is not None else np.empty(0, np.uint8)
    return raw, offs[:-1], offs[1:], nulls


def _lichess_rows(data):
    """Batches (data, starts, ends, nulls) of the lichess values in data."""
    if isinstance(data, BinaryColumn):
        return [data._rows()]
    kind = kind_of(data)
    if kind is BUFFER:
        raw = _bytes_array(data)
        return [(raw, np.zeros(1, np.int64), np.full(1, len(raw), np.int64), None)]
    if kind is ARROW:
        out, base = [], 0
        for chunk in _arrow_chunks(data):
            out.append(_arrow_binary_rows(chunk, base))
            base += len(chunk)
        return out
    if kind is ROWS and isinstance(data, tuple) and len(data) == 2:
        if isinstance(data[1], np.ndarray):  # (data, offsets)
            raw = data[0] if isinstance(data[0], np.ndarray) else _bytes_array(data[0])
            return [BinaryColumn(raw, data[1])._rows()]
    if kind is FIXED and data.dtype.kind == "S":
        flat = np.ascontiguousarray(data.reshape(-1))
        starts = np.arange(flat.size, dtype=np.int64) * flat.dtype.itemsize
        ends = starts + np.char.str_len(flat).astype(np.int64)
        return [(flat.view(np.uint8).reshape(-1), starts, ends, None)]
    items = list(data.reshape(-1) if isinstance(data, np.ndarray) else data)
    nulls = np.fromiter((v is None for v in items), np.uint8, len(items))
    for v in items:
        if v is not None and not isinstance(v, BUFFERS):
            raise TypeError(f"expected bytes values, got {type(v).__name__}")
    present = [bytes(v) for v in items if v is not None]
    lengths = np.zeros(len(items), np.int64)
    lengths[nulls == 0] = np.fromiter(map(len, present), np.int64, len(present))
    ends = np.cumsum(lengths)
    raw = np.frombuffer(b"".join(present), np.uint8)
    return [(raw, ends - lengths, ends, nulls if nulls.any() else None)]


def _stockfish_rows(data) -> np.ndarray:
    size = _export.STOCKFISH_SIZE
    kind = kind_of(data)
    if kind is ARROW:
        import pyarrow as pa

        parts, base = [], 0
        for chunk in _arrow_chunks(data):
            if chunk.null_count:
                raise ValueError("the stockfish format has no null value")
            if pa.types.is_fixed_size_binary(chunk.type) and chunk.type.byte_width == size:
                buf = np.frombuffer(chunk.buffers()[1], np.uint8)
                first, end = chunk.offset * size, (chunk.offset + len(chunk)) * size
                if buf.size < end:
                    row = base + max(0, buf.size // size - chunk.offset)
                    raise ValueError(f"row {row}: the data buffer ends before the array does")
                parts.append(buf[first:end])
            else:
                raw, starts, ends, _ = _arrow_binary_rows(chunk, base)
                _export.check_spans(raw, starts, ends, None, base)
                if ((ends - starts) != size).any():
                    raise ValueError(f"stockfish values are {size} bytes each")
                parts.append(raw[starts[0] : ends[-1]] if len(starts) else raw[:0])
            base += len(chunk)
        arr = np.concatenate(parts) if parts else np.empty(0, np.uint8)
    elif kind is BUFFER:
        arr = _bytes_array(data)
    elif isinstance(data, np.ndarray):  # of any kind of numpy array
        arr = data
        if arr.dtype.kind in "SV" and arr.dtype.itemsize == size:
            arr = np.ascontiguousarray(arr).view(np.uint8)
        elif arr.dtype not in (np.uint8, np.int8) or arr.shape[-1:] != (size,):
            raise ValueError(
                f"stockfish rows must be uint8 of shape (N, {size}), "
                f"not {arr.dtype} of shape {arr.shape}"
            )
    else:
        items = list(data)
        if any(not isinstance(v, BUFFERS) or len(v) != size for v in items):
            raise ValueError(f"stockfish values are {size}-byte bytes objects")
        arr = np.frombuffer(b"".join(bytes(v) for v in items), np.uint8)
    if arr.size % size:
        raise ValueError(f"{arr.size} bytes is not a whole number of {size}-byte positions")
    return np.ascontiguousarray(arr.reshape(-1, size)).view(np.uint8)


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
        rows = _stockfish_rows(data)
        defaults = _defaults(len(rows), 8, halfmove=halfmove, fullmove=fullmove)
        return _export.stockfish_unpack(rows, defaults, errors=mode)
    if halfmove is not None or fullmove is not None:
        raise ValueError(
            "the lichess format stores its own counters; "
            "halfmove= and fullmove= are for format='stockfish'"
        )
    parts, done = [], 0
    for raw, starts, ends, nulls in _lichess_rows(data):
        try:
            parts.append(
                _export.lichess_unpack(raw, starts, ends, nulls, errors=mode, first_row=done)
            )
        except Exception as exc:  # renumber rows of later Arrow chunks
            if done and hasattr(exc, "index"):
                raise type(exc)(exc.index + done, exc.column, exc.field, exc.reason) from None
            raise
        done += len(starts)
    if not parts:
        return np.empty(0, POSITION_DTYPE)
    return np.concatenate(parts) if len(parts) > 1 else parts[0]
