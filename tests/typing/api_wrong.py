"""Calls that `mypy --strict` must refuse: each line whose comment names an
error code (``E:`` then the code) must get an error of that code, and no
other line any error (tests/test_typing.py).  Not run."""

from __future__ import annotations

import numpy as np

import fastxfen as fx
from fastxfen.pgn import normalize_pgn

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def options(rows: list[str]) -> None:
    fx.normalize(rows, castling="shreder")  # E: call-overload
    fx.normalize(rows, en_passant="all")  # E: call-overload
    fx.normalize(rows, errors="skip")  # E: call-overload
    fx.normalize(rows, fields=5)  # E: call-overload
    fx.normalize(rows, threads="2")  # E: call-overload
    fx.encode(rows, width=9)  # E: arg-type
    fx.encode(rows, errors="ignore")  # E: arg-type
    fx.decode(fx.encode(rows), output="str")  # E: call-overload
    fx.decode(fx.encode(rows), fields="same")  # E: call-overload
    fx.record_dtype(9)  # E: arg-type


def export_options(rows: list[str]) -> None:
    fx.to_planes(rows, perspective="black")  # E: arg-type
    fx.to_planes(rows, dtype="float128")  # E: arg-type
    fx.to_planes(rows, dtype=np.complex64)  # E: arg-type
    fx.to_planes(rows, extra=("turn", "side"))  # E: arg-type
    fx.to_planes(rows, extra="moves")  # E: arg-type
    fx.from_planes(fx.to_planes(rows), perspective="black")  # E: arg-type
    fx.pack(rows, format="epd")  # E: call-overload
    fx.pack(rows, format="lichess", out=np.zeros((1, 24), np.uint8))  # E: call-overload
    fx.unpack(b"", format="binary")  # E: arg-type
    fx.from_bitboards(fx.to_bitboards(rows), turn="white")  # E: arg-type


def keys(rows: list[str]) -> None:
    fx.zobrist(rows, errors="ignore")  # E: call-overload
    fx.unique(rows, en_passant="all")  # E: arg-type
    fx.Deduper(en_passant="legal ")  # E: arg-type
    fx.Deduper().add(rows, errors="skip")  # E: arg-type
    key: str = fx.zobrist(START)  # E: assignment
    del key


def inputs(numbers: list[int]) -> None:
    fx.normalize(numbers)  # E: arg-type
    fx.normalize(42)  # E: call-overload
    fx.validate(None)  # E: call-overload
    fx.encode(3.5)  # E: arg-type
    normalize_pgn(["[Event]"])  # E: call-overload


def results(rows: list[str], data: bytes) -> None:
    one: str = fx.normalize(rows)  # E: assignment
    many: list[str] = fx.normalize(rows)  # E: assignment
    text: str = fx.normalize(data)  # E: assignment
    lines: str = fx.decode(fx.encode(rows), output="bytes")  # E: assignment
    fine: str = fx.validate(START)  # E: assignment
    pgn: bytes = normalize_pgn("[Event]")  # E: assignment
    del one, many, text, lines, fine, pgn
