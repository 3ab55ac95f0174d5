"""The file formats of ``fastxfen encode --format`` and ``decode --format``:
how a chunk of records becomes the rows of a file and back.  I/O (chunking,
.npy headers, compression) is in the io and chunks modules; this one only converts, and
reports every row that cannot be converted as a FenError whose index is its
row in the chunk.

| format | file | one row |
| --- | --- | --- |
| npy | .npy of records | a POSITION_DTYPE (or _10x8) record |
| stockfish | .npy, uint8 (N, 24) | Stockfish's 24-byte position |
| planes | .npy, (N, C, 8, W) | a plane tensor (export.to_planes) |
| lichess | framed stream | a length byte, then the lichess binary FEN |
| zobrist | .npy, uint64 (N,) | the position's Zobrist key (encode only) |

The lichess framing: each value is one byte L (0..64) followed by L bytes;
a null value (a row rejected under --errors coerce) is the byte 0xFF alone.
See docs/cli.md.
"""

from __future__ import annotations

import numpy as np

from fastxfen import _export, _options
from fastxfen._records import POSITION_DTYPE, POSITION_DTYPE_10x8, record_dtype
from fastxfen.keys import zobrist

FORMATS = ("npy", "lichess", "stockfish", "planes")
#: encode's formats: the decoded ones, and keys, which cannot be decoded.
ENCODE_FORMATS = (*FORMATS, "zobrist")
FRAME_NULL = _export.FRAME_NULL
_STOCKFISH = _export.STOCKFISH_SIZE


def extras(text: str | None) -> tuple:
    """The --extra names, comma separated; ValueError for an unknown one."""
    if not text:
        return ()
    names = tuple(name.strip() for name in text.split(","))
    _options.plane_extras(names, np.dtype(np.float32))  # names and repeats; dtype checked later
    return names


def merge(first: list, later: list) -> list:
    """Failures (row, FenError) of two steps, one per row, the first step's
    error kept for a row both reject; in row order."""
    rows = {row for row, _ in first}
    return sorted(first + [(e.index, e) for e in later if e.index not in rows], key=_row)


def _row(item) -> int:
    return item[0]


# ------------------------------------------------------------------ encode


class Encoder:
    """Records -> one format's rows.  ``width`` is the record width the text
    is read at; ``convert`` gives (rows, failures); ``cut(rows, k)`` the first
    k rows as bytes to write; ``null`` one rejected row."""

    width = 10
    row_shape: tuple = ()
    dtype: np.dtype
    coerced_as = "rows of zeros"

    def convert(self, records: np.ndarray) -> tuple:
        raise NotImplementedError

    def cut(self, rows, upto: int):
        return rows[:upto]

    def null(self):
        return np.zeros((1, *self.row_shape), self.dtype)


class RecordEncoder(Encoder):
    coerced_as = "null records"

    def __init__(self, args) -> None:
        self.width = args.width or 8
        self.dtype = record_dtype(self.width)

    def convert(self, records):
        return records, []


class StockfishEncoder(Encoder):
    row_shape = (_STOCKFISH,)
    dtype = np.dtype(np.uint8)

    def __init__(self, args) -> None:
        self.en_passant = args.en_passant or "fen"

    def convert(self, records):
        out = np.empty((len(records), _STOCKFISH), np.uint8)
        failures: list = []
        _export.stockfish_pack(
            records,
            trusted=True,
            en_passant=self.en_passant,
            errors="coerce",
            out=out,
            failures=failures,
        )
        return out, failures


class PlanesEncoder(Encoder):
    def __init__(self, args) -> None:
        try:
            dtype = np.dtype(args.dtype or "uint8")
        except TypeError:
            raise ValueError(f"--dtype {args.dtype!r} is no numpy dtype") from None
        self.dtype = _options.plane_dtype(dtype)
        self.names = _options.plane_extras(extras(args.extra), self.dtype)
        self.planes_width = args.width or 8
        self.flip = args.perspective == "side_to_move"
        self.en_passant = args.en_passant or "fen"
        count = _export.plane_count(self.planes_width, self.names)
        self.row_shape = (count, 8, self.planes_width)
        other = 10 if self.planes_width == 8 else 8
        self.hint = f" (--width {other} takes {other}-wide positions)"

    def convert(self, records):
        out = np.empty((len(records), *self.row_shape), self.dtype)
        failures: list = []
        _export.planes(
            records,
            trusted=True,
            width=self.planes_width,
            flip=self.flip,
            dtype=self.dtype,
            en_passant=self.en_passant,
            extra=self.names,
            errors="coerce",
            out=out,
            failures=failures,
            hint=self.hint,
        )
        return out, failures


class LichessEncoder(Encoder):
    """Rows are (framed bytes, end of each row's frame)."""

    coerced_as = "null values"

    def __init__(self, args) -> None:
        self.en_passant = args.en_passant or "fen"

    def convert(self, records):
        failures: list = []
        data, offsets, valid = _export.lichess_pack(
            records, trusted=True, en_passant=self.en_passant, errors="coerce", failures=failures
        )
        return frame(data, offsets, valid), failures

    def cut(self, rows, upto):
        framed, ends = rows
        return framed[: ends[upto - 1]] if upto else framed[:0]

    def null(self):
        return bytes([FRAME_NULL])


def frame(data: np.ndarray, offsets: np.ndarray, valid) -> tuple:
    """(framed bytes, end of each frame) of lichess values: each value after
    a length byte, a null as the byte FRAME_NULL."""
    n = len(offsets) - 1
    lengths = np.diff(offsets)
    heads = offsets[:-1] + np.arange(n)  # where each length byte goes
    framed = np.empty(len(data) + n, np.uint8)
    body = np.ones(len(framed), bool)
    body[heads] = False
    framed[body] = data
    framed[heads] = lengths
    if valid is not None:
        framed[heads[~valid]] = FRAME_NULL
    return framed, heads + 1 + lengths


class ZobristEncoder(Encoder):
    """Rows are the positions' Zobrist keys (fastxfen.zobrist); a null
    record's key is 0."""

    dtype = np.dtype(np.uint64)
    coerced_as = "zero keys"

    def __init__(self, args) -> None:
        pass

    def convert(self, records):
        return zobrist(records), []


def encoder(args) -> Encoder:
    kind = {
        "zobrist": ZobristEncoder,
        "npy": RecordEncoder,
        "stockfish": StockfishEncoder,
        "planes": PlanesEncoder,
        "lichess": LichessEncoder,
    }[args.format]
    return kind(args)


# ------------------------------------------------------------------ decode


class LichessChunk:
    """Framed lichess values of one read: value i is
    data[starts[i]:ends[i]], nulls[i] 1 for a null."""

    def __init__(self, data, starts, ends, nulls) -> None:
        self.data, self.starts, self.ends, self.nulls = data, starts, ends, nulls

    def __len__(self) -> int:
        return len(self.starts)


class Decoder:
    """One format's rows -> records.  ``check(dtype, shape)`` says what is
    wrong with a .npy file for this format (None: nothing); ``convert`` gives
    (records, failures); ``original(rows, i)`` row i's bytes for --rejects."""

    npy = True

    def check(self, dtype, shape) -> str | None:
        raise NotImplementedError

    def layout(self, shape) -> tuple:
        """(rows, shape of one row) of a .npy array of this shape."""
        return shape[0], tuple(shape[1:])

    def convert(self, rows) -> tuple:
        raise NotImplementedError

    def original(self, rows, i: int) -> bytes:
        return np.ascontiguousarray(rows[i : i + 1]).tobytes()


class RecordDecoder(Decoder):
    def check(self, dtype, shape):
        if dtype != POSITION_DTYPE and dtype != POSITION_DTYPE_10x8:
            return (
                f"holds {dtype}, not fastxfen position records "
                "(POSITION_DTYPE or POSITION_DTYPE_10x8)"
            )
        return None

    def layout(self, shape):
        return int(np.prod(shape, dtype=np.int64)), ()

    def convert(self, rows):
        return rows, []


class StockfishDecoder(Decoder):
    def check(self, dtype, shape):
        if dtype != np.uint8 or len(shape) != 2 or shape[1] != _STOCKFISH:
            return (
                f"holds {dtype} of shape {shape}, not Stockfish positions "
                f"(uint8 of shape (N, {_STOCKFISH}))"
            )
        return None

    def convert(self, rows):
        failures: list = []
        defaults = _export.Defaults(len(rows))
        records = _export.stockfish_unpack(
            np.ascontiguousarray(rows), defaults, errors="coerce", failures=failures
        )
        return records, failures


class PlanesDecoder(Decoder):
    def __init__(self, args) -> None:
        self.flip = args.perspective == "side_to_move"
        self.names = extras(args.extra)
        if self.flip and "turn" not in self.names:
            raise ValueError(
                "--perspective side_to_move needs a 'turn' plane (--extra turn,...) to "
                "know which positions are mirrored"
            )

    def check(self, dtype, shape):
        try:
            dt = _options.plane_dtype(dtype)
            _options.plane_extras(self.names, dt)
        except ValueError as exc:
            return f"holds {dtype}: {exc}"
        if len(shape) != 4 or shape[2] != 8 or shape[3] not in (8, 10):
            return f"holds an array of shape {shape}, not planes (N, C, 8, 8) or (N, C, 8, 10)"
        count = _export.plane_count(shape[3], self.names)
        if shape[1] != count:
            return (
                f"holds {shape[1]} planes per position, but {shape[3]}-wide planes with "
                f"--extra {','.join(self.names) or '(none)'} are {count}"
            )
        return None

    def convert(self, rows):
        failures: list = []
        rows = np.ascontiguousarray(rows)
        defaults = _export.Defaults(len(rows))
        records = _export.from_planes(
            rows,
            defaults,
            width=rows.shape[3],
            flip=self.flip,
            extra=self.names,
            errors="coerce",
            failures=failures,
        )
        return records, failures


class LichessDecoder(Decoder):
    npy = False

    def convert(self, rows: LichessChunk):
        failures: list = []
        records = _export.lichess_unpack(
            rows.data, rows.starts, rows.ends, rows.nulls, errors="coerce", failures=failures
        )
        return records, failures

    def original(self, rows, i):
        """The value's frame: its length byte (0xFF for a null) and bytes."""
        return bytes(rows.data[rows.starts[i] - 1 : rows.ends[i]])


def decoder(args) -> Decoder:
    if args.format == "planes":
        return PlanesDecoder(args)
    return {"npy": RecordDecoder, "stockfish": StockfishDecoder, "lichess": LichessDecoder}[
        args.format
    ]()


class FrameError(ValueError):
    """A byte where a length byte should be that is none: ``at`` is its
    offset in the buffer, ``value`` the byte."""

    def __init__(self, at: int, value: int) -> None:
        super().__init__(f"byte {at} is {value}, which is no length byte")
        self.at, self.value = at, value


def split_frames(data, max_rows: int) -> tuple:
    """(LichessChunk of the whole values, at most max_rows, at the start of
    data; the bytes they take)."""
    starts, ends, nulls, used = _export.lichess_frames(data, max_rows)
    if starts is None:
        raise FrameError(used, data[used])
    return LichessChunk(data, starts, ends, nulls), used


__all__ = [
    "ENCODE_FORMATS",
    "FORMATS",
    "FrameError",
    "decoder",
    "encoder",
    "extras",
    "merge",
    "split_frames",
]
