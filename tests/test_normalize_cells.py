"""normalize of a numpy S array, written straight into the result's cells:
the same rows as the list path, as wide as the input or the longest row,
with every error mode, thread count and job boundary, and the text path
taken (same answer) where a row outgrows its cell."""

import random

import numpy as np
import pytest
from support.strategies import game_fens

import fastxfen as fx
from fastxfen import _bulk
from fastxfen._options import ErrorsMode, TextOptions

CASTLING = ["xfen", "shredder"]
EN_PASSANT = ["fen", "xfen", "legal"]
BAD = [b"8/8/8/8/8/8/8/8 w - - 0 1", b"rnbqkbnr/pppppppp/8/8 w KQkq - 0 1", b"x" * 70, b""]


def rows_of(n: int, seed: int) -> list:
    """Valid rows of every castling and en-passant form, 4-, 5- and
    6-field, EPD-free, a few with CRLF or LF endings, and bad rows."""
    rng = random.Random(seed)
    fens = game_fens(games=40, seed=seed)
    out = []
    while len(out) < n:
        row = rng.choice(fens)
        fields = row.split(" ")
        pick = rng.random()
        if pick < 0.1:
            row = " ".join(fields[:4])
        elif pick < 0.15:
            row = " ".join(fields[:5])
        out.append(row.encode() + rng.choice([b"", b"", b"", b"\n", b"\r\n"]))
        if rng.random() < 0.02:
            out.append(rng.choice(BAD))
    return out[:n]


def expected(rows: list, errors: str, **options) -> np.ndarray:
    """The list path's rows as an S array as wide as the widest of the input
    and the rows: a coerced row empty, an ignored one as it came."""
    texts = [r.decode() for r in rows]
    got = fx.normalize(texts, errors=errors, **options)
    cells = [
        (g.encode() if g is not None else b"") if g is not r else r.encode()
        for g, r in zip(got, texts)
    ]
    width = max(max(map(len, rows)), max(map(len, cells)), 1)
    return np.array(cells, f"S{width}")


@pytest.mark.parametrize("errors", ["coerce", "ignore"])
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_cells_match_the_list_path(errors, threads):
    rows = rows_of(40_000, seed=threads)  # three jobs of 16,384 rows or fewer
    arr = np.array(rows, "S")
    for castling in CASTLING:
        for ep in EN_PASSANT:
            got = fx.normalize(
                arr, castling=castling, en_passant=ep, errors=errors, threads=threads
            )
            want = expected(rows, errors, castling=castling, en_passant=ep)
            assert got.dtype == want.dtype
            assert np.array_equal(got, want)
            assert got.tobytes() == want.tobytes()  # the padding too


def test_fields_and_shapes():
    rows = rows_of(3000, seed=7)
    arr = np.array(rows, "S").reshape(30, 100)
    for fields in (4, 6, "same"):
        got = fx.normalize(arr, fields=fields, errors="coerce")
        want = expected(rows, "coerce", fields=fields).reshape(30, 100)
        assert got.shape == (30, 100) and got.dtype == want.dtype
        assert got.tobytes() == want.tobytes()


def test_the_result_keeps_the_input_width():
    """As wide as the input, even when every row is shorter; wider only
    when a row grew past it (the text path then makes it)."""
    row = b"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    got = fx.normalize(np.array([row], "S90"))
    assert got.dtype == np.dtype("S90") and got[0] == row.replace(b"e3", b"-")
    four = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"
    arr = np.array([four, b"8/8/8/8/8/8/8/K6k w - -"])
    got = fx.normalize(arr, fields=6)
    assert got.dtype == np.dtype(f"S{len(four) + 4}") and got[0] == four + b" 0 1"
    assert (
        _bulk.from_fixed_width(arr).normalize_cells(
            TextOptions(fields=6), ErrorsMode.RAISE, threads=1, chars=arr.itemsize
        )
        is None
    )


def test_rows_near_a_job_end_written_aside():
    """The last rows of each job are written aside (the writer's room would
    pass the job's cells): long ignored rows there take the text path."""
    rows = rows_of(16_390, seed=3)
    for at in (16_383, 16_389):
        wide = list(rows)
        wide[at] = b"q" * 200
        arr = np.array(wide, "S")
        for threads in (1, 2):
            got = fx.normalize(arr, errors="ignore", threads=threads)
            assert got.tobytes() == expected(wide, "ignore").tobytes()


def test_raise_names_the_first_bad_row():
    rows = rows_of(20_000, seed=5)
    rows[17_000] = b"8/8/8/8/8/8/8/9 w - - 0 1"
    rows[18_000] = b"x"
    for threads in (1, 2):
        with pytest.raises(fx.FenError) as info:
            fx.normalize(np.array(rows, "S"), threads=threads)
        assert info.value.index == min(
            k for k, r in enumerate(rows) if fx.validate([r.decode()])[0]
        )
