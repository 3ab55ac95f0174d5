"""The binary formats that ``encode`` writes and ``decode`` reads: how a
chunk of records becomes the rows of a file and back.  Each format is a
frozen value holding its options, checked when it is made; it makes its
Encoder and Decoder and says how its rows are laid out in a file: ``.npy``
(npy) or a framed stream (lichess_frames).  Every row that cannot be
converted is reported as a FenError whose index is its row in the chunk.

| format | file | one row |
| --- | --- | --- |
| npy | .npy of records | a POSITION_DTYPE (or _10x8) record |
| stockfish | .npy, uint8 (N, 24) | Stockfish's 24-byte position |
| planes | .npy, (N, C, 8, W) | a plane tensor (export.to_planes) |
| lichess | framed stream | a length byte, then the lichess binary FEN |
| zobrist | .npy, uint64 (N,) | the position's Zobrist key (encode only) |

A new binary format: a BinaryFormat here with ``encoder``/``decoder``,
added to ``FORMATS``.  See docs/cli.md.
"""

from __future__ import annotations

import math
from typing import Any, ClassVar, Optional

import numpy as np

from fastxfen import _export, _options
from fastxfen._options import EnPassantMode, ErrorsMode, PlaneOptions
from fastxfen._records import POSITION_DTYPE, POSITION_DTYPE_10x8, record_dtype
from fastxfen.files import lichess_frames, npy
from fastxfen.files.values import Value
from fastxfen.keys import zobrist

_STOCKFISH = _export.STOCKFISH_SIZE


def merge(first: list, later: list) -> list:
    """Failures (row, FenError) of two steps, one per row, the first step's
    error kept for a row both reject; in row order."""
    rows = {row for row, _ in first}
    return sorted(first + [(e.index, e) for e in later if e.index not in rows], key=_row)


def _row(item) -> int:
    return item[0]


# ------------------------------------------------------------------ converters


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


class Decoder:
    """One format's rows -> records.  ``check(dtype, shape)`` says what is
    wrong with a .npy file for this format (None: nothing); ``convert`` gives
    (records, failures); ``original(rows, i)`` row i's bytes for the rejects."""

    def check(self, dtype, shape) -> str | None:
        raise NotImplementedError

    def layout(self, shape) -> tuple:
        """(rows, shape of one row) of a .npy array of this shape."""
        return shape[0], tuple(shape[1:])

    def convert(self, rows) -> tuple:
        raise NotImplementedError

    def original(self, rows, i: int) -> bytes:
        return np.ascontiguousarray(rows[i : i + 1]).tobytes()


class _RecordEncoder(Encoder):
    coerced_as = "null records"

    def __init__(self, width: int) -> None:
        self.width = width
        self.dtype = record_dtype(width)

    def convert(self, records):
        return records, []


class _RecordDecoder(Decoder):
    def check(self, dtype, shape):
        if dtype != POSITION_DTYPE and dtype != POSITION_DTYPE_10x8:
            return (
                f"holds {dtype}, not fastxfen position records "
                "(POSITION_DTYPE or POSITION_DTYPE_10x8)"
            )
        return None

    def layout(self, shape):
        return math.prod(shape), ()

    def convert(self, rows):
        return rows, []


class _StockfishEncoder(Encoder):
    row_shape = (_STOCKFISH,)
    dtype = np.dtype(np.uint8)

    def __init__(self, en_passant: str) -> None:
        self.en_passant = en_passant

    def convert(self, records):
        out = np.empty((len(records), _STOCKFISH), np.uint8)
        failures: list = []
        _export.stockfish_pack(
            records,
            trusted=True,
            en_passant=self.en_passant,
            errors=ErrorsMode.COERCE,
            out=out,
            failures=failures,
        )
        return out, failures


class _StockfishDecoder(Decoder):
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
            np.ascontiguousarray(rows), defaults, errors=ErrorsMode.COERCE, failures=failures
        )
        return records, failures


class _PlanesEncoder(Encoder):
    def __init__(self, spec: PlaneOptions) -> None:
        self.spec = spec
        self.dtype = spec.dtype
        self.row_shape = (spec.planes, 8, spec.width)
        other = 10 if spec.width == 8 else 8
        self.hint = f" (--width {other} takes {other}-wide positions)"

    def convert(self, records):
        out = np.empty((len(records), *self.row_shape), self.dtype)
        failures: list = []
        _export.planes(
            records,
            self.spec,
            trusted=True,
            errors=ErrorsMode.COERCE,
            out=out,
            failures=failures,
            hint=self.hint,
        )
        return out, failures


class _PlanesDecoder(Decoder):
    def __init__(self, spec: Planes) -> None:
        self.perspective = spec.perspective
        self.names = spec.extra
        self.spec = None  # the layout of the file's planes, once checked

    def check(self, dtype, shape):
        try:
            dt = _options.plane_dtype(dtype)
            _options.plane_extras(self.names, dt)
        except ValueError as exc:
            return f"holds {dtype}: {exc}"
        if len(shape) != 4 or shape[2] != 8 or shape[3] not in (8, 10):
            return f"holds an array of shape {shape}, not planes (N, C, 8, 8) or (N, C, 8, 10)"
        count = _options.plane_count(shape[3], self.names)
        if shape[1] != count:
            return (
                f"holds {shape[1]} planes per position, but {shape[3]}-wide planes with "
                f"--extra {','.join(self.names) or '(none)'} are {count}"
            )
        self.spec = PlaneOptions(dt, self.perspective, self.names, shape[3])
        return None

    def convert(self, rows):
        failures: list = []
        rows = np.ascontiguousarray(rows)
        defaults = _export.Defaults(len(rows))
        records = _export.from_planes(
            rows, defaults, self.spec, errors=ErrorsMode.COERCE, failures=failures
        )
        return records, failures


class _LichessEncoder(Encoder):
    """Rows are (framed bytes, end of each row's frame)."""

    coerced_as = "null values"

    def __init__(self, en_passant: str) -> None:
        self.en_passant = en_passant

    def convert(self, records):
        failures: list = []
        data, offsets, valid = _export.lichess_pack(
            records,
            trusted=True,
            en_passant=self.en_passant,
            errors=ErrorsMode.COERCE,
            failures=failures,
        )
        return lichess_frames.frame(data, offsets, valid), failures

    def cut(self, rows, upto):
        framed, ends = rows
        return framed[: ends[upto - 1]] if upto else framed[:0]

    def null(self):
        return bytes([lichess_frames.FRAME_NULL])


class _LichessDecoder(Decoder):
    def convert(self, rows: lichess_frames.LichessChunk):
        failures: list = []
        records = _export.lichess_unpack(
            rows.data,
            rows.starts,
            rows.ends,
            rows.nulls,
            errors=ErrorsMode.COERCE,
            failures=failures,
        )
        return records, failures

    def original(self, rows, i):
        """The value's frame: its length byte (0xFF for a null) and bytes."""
        return bytes(rows.data[rows.starts[i] - 1 : rows.ends[i]])


class _ZobristEncoder(Encoder):
    """Rows are the positions' Zobrist keys (fastxfen.zobrist); a null
    record's key is 0."""

    dtype = np.dtype(np.uint64)
    coerced_as = "zero keys"

    def convert(self, records):
        return zobrist(records), []


# ------------------------------------------------------------------ formats


class BinaryFormat(Value):
    """A binary format and its options (``OPTIONS``, by name), checked when
    it is made.  ``encoder()`` and ``decoder()`` make its converters, once
    ``check_encoding`` or ``check_decoding`` has found that the options go
    together; ``writer`` and ``chunks`` lay its rows out in a file: a .npy
    array by default.  ``record_width``: the records text is read into."""

    name: ClassVar[str]
    OPTIONS: ClassVar[tuple] = ()
    _fields = OPTIONS
    decodes: ClassVar[bool] = True
    record_width: ClassVar[int] = 10

    @classmethod
    def to_decode(cls, **options) -> BinaryFormat:
        """The format with ``options``, to decode with."""
        return cls(**options)

    def check_encoding(self) -> None:
        """ValueError for options that do not go together in encode."""

    def check_decoding(self) -> None:
        """ValueError for options that do not go together in decode."""

    def encoder(self) -> Encoder:
        raise NotImplementedError

    def decoder(self) -> Decoder:
        raise NotImplementedError

    def writer(self, output, encoder: Encoder):
        """What the rows go through to the output."""
        return npy.NpyWriter(output, encoder.dtype, encoder.row_shape)

    def chunks(self, source, decoder: Decoder, chunk_size: int, progress):
        """The rows of the input, a chunk at a time."""
        return npy.npy_chunks(source, decoder, chunk_size, progress)


class Records(BinaryFormat):
    """npy: fastxfen's position records, 8 (80 bytes) or 10 (96 bytes) wide."""

    name: ClassVar[str] = "npy"
    OPTIONS = _fields = ("width",)
    width: int

    def __init__(self, width: Any = 8) -> None:
        self._set(width=_options.width(width))

    @property
    def record_width(self) -> int:  # type: ignore[override]
        return self.width

    def encoder(self):
        return _RecordEncoder(self.width)

    def decoder(self):
        return _RecordDecoder()


class Stockfish(BinaryFormat):
    """stockfish: Stockfish's 24-byte position, ``en_passant`` the target
    stored."""

    name: ClassVar[str] = "stockfish"
    OPTIONS = _fields = ("en_passant",)
    en_passant: EnPassantMode

    def __init__(self, en_passant: Any = "fen") -> None:
        self._set(en_passant=_options.en_passant(en_passant))

    def encoder(self):
        return _StockfishEncoder(self.en_passant)

    def decoder(self):
        return _StockfishDecoder()


class Planes(BinaryFormat):
    """planes: plane tensors (N, C, 8, width) of ``dtype`` with the
    ``extra`` planes, from ``perspective``; ``layout`` is their
    PlaneOptions.  A decoder takes the width and dtype from the file:
    ``dtype=None`` leaves it to the file (decode only)."""

    name: ClassVar[str] = "planes"
    OPTIONS = _fields = ("width", "en_passant", "extra", "perspective", "dtype")
    width: int
    en_passant: EnPassantMode
    extra: tuple
    perspective: str
    dtype: Any
    layout: Optional[PlaneOptions]

    def __init__(
        self,
        width: Any = 8,
        en_passant: Any = "fen",
        extra: Any = (),
        perspective: Any = "white",
        dtype: Any = "uint8",
    ) -> None:
        if dtype is None:  # the file's: only the names and the perspective
            names = _options.plane_extras(extra, np.dtype(np.float64))
            self._set(extra=names, perspective=_options.perspective(perspective), dtype=None)
            self._set(width=_options.width(width), en_passant=_options.en_passant(en_passant))
            self._set(layout=None)
            return
        layout = PlaneOptions(dtype, perspective, extra, width, en_passant)
        self._set(width=layout.width, en_passant=layout.en_passant, extra=layout.extra)
        self._set(perspective=layout.perspective, dtype=layout.dtype, layout=layout)

    @classmethod
    def to_decode(cls, **options) -> Planes:
        """Planes of the file's dtype and width."""
        return cls(dtype=None, **options)

    def check_encoding(self):
        if self.layout is None:
            raise ValueError("planes that encode writes need a dtype")

    def check_decoding(self):
        if self.perspective == "side_to_move" and "turn" not in self.extra:
            raise ValueError(
                "--perspective side_to_move needs a 'turn' plane (--extra turn,...) to "
                "know which positions are mirrored"
            )

    def encoder(self):
        return _PlanesEncoder(self.layout)

    def decoder(self):
        return _PlanesDecoder(self)


class Lichess(BinaryFormat):
    """lichess: lichess binary FEN values, each after a length byte."""

    name: ClassVar[str] = "lichess"
    OPTIONS = _fields = ("en_passant",)
    en_passant: EnPassantMode

    def __init__(self, en_passant: Any = "fen") -> None:
        self._set(en_passant=_options.en_passant(en_passant))

    def encoder(self):
        return _LichessEncoder(self.en_passant)

    def decoder(self):
        return _LichessDecoder()

    def writer(self, output, encoder):
        return lichess_frames.StreamWriter(output)

    def chunks(self, source, decoder, chunk_size, progress):
        return lichess_frames.frame_chunks(source, chunk_size, progress)


class Zobrist(BinaryFormat):
    """zobrist: each position's uint64 key (encode only)."""

    name: ClassVar[str] = "zobrist"
    decodes: ClassVar[bool] = False

    def encoder(self):
        return _ZobristEncoder()


#: Every binary format by name, in the order the command line lists them.
FORMATS = {kind.name: kind for kind in (Records, Lichess, Stockfish, Planes, Zobrist)}


def names(decoding: bool = False) -> tuple:
    """The names of the formats that encode writes (or decode reads)."""
    return tuple(name for name, kind in FORMATS.items() if kind.decodes or not decoding)


def options_of(name: str) -> tuple:
    """The options format ``name`` takes."""
    return FORMATS[name].OPTIONS


def taking(option: str) -> tuple:
    """The names of the formats that take ``option``."""
    return tuple(name for name in FORMATS if option in options_of(name))
