"""Uses the whole public API; `mypy --strict` must accept it (tests/test_typing.py)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

import fastxfen as fx

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def one() -> str:
    return fx.normalize(START, castling="shredder", en_passant="legal", errors="raise")


def many(rows: list[str]) -> list[str | None]:
    out: list[str | None] = fx.normalize(rows, errors="coerce", threads=2)
    return out


def buffer(data: bytes) -> bytes:
    return fx.normalize(data, en_passant="fen", errors="ignore", epd=False, fields="same")


def column(texts: npt.NDArray[np.str_]) -> np.ndarray:
    return fx.normalize(texts, castling="xfen", fields=4)


def records(rows: list[str]) -> list[str | None]:
    recs: npt.NDArray[np.void] = fx.encode(rows, width=10, errors="coerce")
    assert recs.dtype in (fx.POSITION_DTYPE, fx.POSITION_DTYPE_10x8, fx.record_dtype(10))
    board: np.ndarray = recs["board"]
    assert board.shape[1] == 80 and fx.PIECE_CODES["K"] == 6
    texts: list[str | None] = fx.decode(recs, castling="shredder", errors="coerce")
    lines: bytes = fx.decode(recs, output="bytes", threads=2, fields=4)
    assert lines.count(b"\n") == len(texts)
    return texts


def checks(rows: list[str]) -> int:
    messages: list[str | None] = fx.validate(rows, threads=None)
    single: str | None = fx.validate(START, epd=False)
    try:
        fx.normalize("8/8/8 w - -")
    except fx.FenError as error:
        location: str = error.location
        return error.index + error.column + len(error.field + error.reason + location)
    return len(messages) + (single is None)


def chess960() -> int | None:
    fen: str = fx.chess960_fen(518)
    return fx.chess960_number(fen)


def export(rows: list[str]) -> list[str | None]:
    planes: np.ndarray = fx.to_planes(rows, extra=("turn",), perspective="side_to_move")
    bitboards: np.ndarray = fx.to_bitboards(rows)
    assert (fx.from_bitboards(bitboards) == fx.from_planes(planes[:, :12])).all()
    column = fx.pack(rows, format="lichess")
    assert isinstance(column, fx.BinaryColumn) and "turn" in fx.PLANE_EXTRAS
    stockfish: np.ndarray = fx.pack(rows, format="stockfish")
    assert len(fx.unpack(stockfish, format="stockfish", fullmove=1)) == len(rows)
    texts: list[str | None] = fx.decode(fx.unpack(column, format="lichess"))
    return texts


def keys(rows: list[str]) -> int:
    one: int = fx.zobrist(START)
    many: npt.NDArray[np.uint64] = fx.zobrist(rows, errors="coerce", threads=None)
    first: npt.NDArray[np.int64] = fx.unique(rows, counters=True, en_passant="legal")
    dedupe = fx.Deduper(counters=False)
    mask: npt.NDArray[np.bool_] = dedupe.add(rows)
    return one + len(many) + len(first) + int(mask.sum()) + dedupe.distinct + dedupe.nbytes
