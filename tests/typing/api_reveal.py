# ruff: noqa: F821, E501  (reveal_type is known to mypy only; types are long)
"""What a type checker infers for each overload of the public API.

Not run: tests/test_typing.py runs `mypy --strict` over this file and
compares each ``reveal_type`` with the type named in its ``# T:`` comment
(``*`` matches anything, for names that differ between numpy versions).
"""

from __future__ import annotations

from typing import Any, Iterator

import numpy as np
import numpy.typing as npt
import polars as pl

import fastxfen as fx
from fastxfen.pgn import normalize_pgn

# Each reveal_type stays on one line with its expected type:
# fmt: off
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def text_in(rows: list[str], lines: bytes, texts: npt.NDArray[np.str_], it: Iterator[str]) -> None:
    reveal_type(fx.normalize(START))  # T: str
    reveal_type(fx.normalize(rows, castling="shredder"))  # T: list[str | None]
    reveal_type(fx.normalize((START, START)))  # T: list[str | None]
    reveal_type(fx.normalize(it, errors="coerce"))  # T: list[str | None]
    reveal_type(fx.normalize(lines, fields="same"))  # T: bytes
    reveal_type(fx.normalize(bytearray(lines)))  # T: bytes
    reveal_type(fx.normalize(memoryview(lines), epd=True))  # T: bytes
    reveal_type(fx.normalize(texts, fields=4))  # T: numpy.ndarray[tuple[Any, ...], numpy.dtype[Any]]


def frames_in(series: pl.Series, arrow: Any) -> None:
    reveal_type(fx.normalize(series, en_passant="legal"))  # T: polars.series.series.Series
    reveal_type(fx.validate(series))  # T: polars.series.series.Series
    reveal_type(fx.normalize(arrow))  # T: Any
    reveal_type(fx.encode(series))  # T: numpy.ndarray[tuple[Any, ...], numpy.dtype[numpy.void]]


def checks(rows: list[str], lines: bytes) -> None:
    reveal_type(fx.validate(START))  # T: str | None
    reveal_type(fx.validate(rows))  # T: list[str | None]
    reveal_type(fx.validate(lines, threads=2))  # T: list[str | None]


def records(rows: list[str], one: np.void) -> None:
    recs = fx.encode(rows, width=10, errors="coerce")
    reveal_type(recs)  # T: numpy.ndarray[tuple[Any, ...], numpy.dtype[numpy.void]]
    reveal_type(fx.encode(START))  # T: numpy.ndarray[tuple[Any, ...], numpy.dtype[numpy.void]]
    reveal_type(fx.decode(recs))  # T: list[str | None]
    reveal_type(fx.decode(one))  # T: str | None
    reveal_type(fx.decode(recs, output="list", fields=4))  # T: list[str | None]
    reveal_type(fx.decode(recs, output="bytes"))  # T: bytes
    reveal_type(fx.decode(recs, output="arrow"))  # T: Any
    reveal_type(fx.record_dtype(8))  # T: numpy.dtype[numpy.void]


def export(rows: list[str]) -> None:
    reveal_type(fx.to_bitboards(rows))  # T: numpy.ndarray[tuple[Any, ...], numpy.dtype[numpy.unsignedinteger[*64Bit]]]
    planes = fx.to_planes(rows, dtype="float32", extra="turn", perspective="side_to_move")
    reveal_type(planes)  # T: numpy.ndarray[tuple[Any, ...], numpy.dtype[Any]]
    reveal_type(fx.to_planes(rows, dtype=np.float16, extra=["castling", "halfmove_scaled"]))  # T: numpy.ndarray[tuple[Any, ...], numpy.dtype[Any]]
    reveal_type(fx.from_planes(planes, extra="turn"))  # T: numpy.ndarray[tuple[Any, ...], numpy.dtype[numpy.void]]
    reveal_type(fx.from_bitboards(fx.to_bitboards(rows), turn="b", castling="KQ"))  # T: numpy.ndarray[tuple[Any, ...], numpy.dtype[numpy.void]]
    reveal_type(fx.pack(rows))  # T: fastxfen.export.BinaryColumn
    reveal_type(fx.pack(rows, format="lichess"))  # T: fastxfen.export.BinaryColumn
    reveal_type(fx.pack(rows, format="stockfish"))  # T: numpy.ndarray[tuple[Any, ...], numpy.dtype[numpy.unsignedinteger[*8Bit]]]
    reveal_type(fx.unpack(fx.pack(rows), format="lichess"))  # T: numpy.ndarray[tuple[Any, ...], numpy.dtype[numpy.void]]
    reveal_type(fx.pack(rows).tolist())  # T: list[bytes | None]


def others(game: str, data: bytes) -> None:
    reveal_type(normalize_pgn(game))  # T: str
    reveal_type(normalize_pgn(data, errors="coerce"))  # T: bytes
    reveal_type(fx.chess960_fen(518))  # T: str
    reveal_type(fx.chess960_number(START))  # T: int | None


def keys(rows: list[str], recs: npt.NDArray[np.void], one: np.void) -> None:
    reveal_type(fx.zobrist(START))  # T: int
    reveal_type(fx.zobrist(one))  # T: int
    reveal_type(fx.zobrist(rows, errors="coerce"))  # T: numpy.ndarray[tuple[Any, ...], numpy.dtype[numpy.unsignedinteger[*64Bit]]]
    reveal_type(fx.zobrist(recs))  # T: numpy.ndarray[tuple[Any, ...], numpy.dtype[numpy.unsignedinteger[*64Bit]]]
    reveal_type(fx.unique(rows, counters=True, en_passant="legal"))  # T: numpy.ndarray[tuple[Any, ...], numpy.dtype[numpy.signedinteger[*64Bit]]]
    seen = fx.Deduper(en_passant="fen")
    reveal_type(seen.add(rows))  # T: numpy.ndarray[tuple[Any, ...], numpy.dtype[numpy.bool[bool]]]
    reveal_type(seen.distinct)  # T: int
