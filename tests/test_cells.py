"""Rows into fixed-width cells (the numpy S and U results of normalize):
every cell holds its row cut to the cell and zeros after it, whatever the
cell's width against the 16-character pieces it is written in, and no
cell outside the call's rows is touched."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from support.profiles import examples

import fastxfen as fx
from fastxfen import _bulk


def expected(rows: list, chars: int, ucs4: bool) -> np.ndarray:
    """The model: each row cut to chars, as numpy pads it."""
    cut = [r[:chars] for r in rows]
    if ucs4:
        return np.array([r.decode("latin-1") for r in cut], f"U{chars}")
    return np.array(cut, f"S{chars}")


def cells(rows: list, chars: int, ucs4: bool, threads: int = 1, out=None) -> np.ndarray:
    data = b"".join(rows)
    ends = np.cumsum([len(r) for r in rows], dtype=np.int64)
    return _bulk.to_fixed_width(data, ends, chars, ucs4=ucs4, threads=threads, out=out)


row_bytes = st.binary(min_size=0, max_size=70).map(lambda b: b.replace(b"\0", b"x"))


@settings(max_examples=examples(300), deadline=None)
@given(
    rows=st.lists(row_bytes, min_size=1, max_size=40),
    chars=st.integers(1, 80),
    ucs4=st.booleans(),
    threads=st.sampled_from([1, 2, 3]),
)
def test_cells_match_the_model(rows, chars, ucs4, threads):
    got = cells(rows, chars, ucs4, threads)
    want = expected(rows, chars, ucs4)
    assert got.dtype == want.dtype
    assert got.tobytes() == want.tobytes()


@settings(max_examples=examples(100), deadline=None)
@given(rows=st.lists(row_bytes, min_size=1, max_size=30), chars=st.integers(1, 80))
def test_cells_overwrite_every_byte_of_out(rows, chars):
    """out is written whole: padding zeroed over what it held before."""
    for ucs4 in (False, True):
        out = np.full(len(rows), "\x7f" * chars, f"{'U' if ucs4 else 'S'}{chars}")
        cells(rows, chars, ucs4, out=out)
        assert out.tobytes() == expected(rows, chars, ucs4).tobytes()


def test_cells_stay_inside_the_rows_given():
    """A part's pieces spill only into cells of its own later rows: the
    cells around the array, in a larger buffer, keep their bytes."""
    rows = [b"8/8/8/8/8/8/8/K6k w - - 0 1" * 3] * 9
    for ucs4 in (False, True):
        for chars in (1, 5, 16, 17, 33, 81):
            size = 4 * chars if ucs4 else chars
            buffer = np.full((len(rows) + 2) * size, 0xAB, np.uint8)
            out = buffer[size:-size].view(f"{'U' if ucs4 else 'S'}{chars}")
            cells(rows, chars, ucs4, threads=2, out=out)
            assert (buffer[:size] == 0xAB).all() and (buffer[-size:] == 0xAB).all()
            assert out.tobytes() == expected(rows, chars, ucs4).tobytes()


def test_normalize_numpy_results_match_lists():
    """S and U results hold the list's rows (its missing value: an empty cell)."""
    rows = [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "8/8/8/8/8/8/8/K6k w - -",
        "",
        "4k3/8/8/8/8/8/8/4K2R w K - 12 40",
    ]
    want = ["" if x is None else x for x in fx.normalize(rows, errors="coerce")]
    for kind in ("S", "U"):
        got = fx.normalize(np.array(rows, kind), errors="coerce")
        assert [x.decode() if kind == "S" else x for x in got.tolist()] == want
