"""Work split over threads gives the one-thread answer: long lists go through
the GIL-free kernels when threads are asked for (item for item the
row-by-row result, whatever the list holds), and a buffer's lines are found
in stretches cut at newlines."""

import numpy as np
import pytest

import fastxfen as fx
from fastxfen import _bulk
from fastxfen._options import ErrorsMode, TextOptions

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
ODD = [
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 40",  # canonical: the object itself comes back
    "r3k2r/8/8/8/8/8/8/R3K2R w AHah - 0 1",  # rewritten
    START + "\r\n",  # a terminator, dropped
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3",  # counters added
    "not a fen",
    "8/8/8/8/8/8/8/8 w - - 0 1é",  # non-ASCII: the row-by-row glue
    None,  # not a str
    "8/8/8/8/8/8/8/8 w - - 0 1",
]
N = 2 * _bulk.MIN_ROWS_PER_THREAD + 11
strings = _bulk.strings


def _rows():
    rng = np.random.default_rng(5)
    return [ODD[k] for k in rng.integers(0, len(ODD), N)]


@pytest.mark.parametrize("errors", ["coerce", "ignore"])
def test_normalize_matches_row_by_row(errors, monkeypatch):
    rows = [START if r is None else r for r in _rows()]
    batches = []
    monkeypatch.setattr(_bulk, "strings", lambda rows: batches.append(1) or strings(rows))
    threaded = fx.normalize(rows, errors=errors, threads=2)
    assert batches == [1]  # the kernels read the list
    single = fx.normalize(rows, errors=errors, threads=1)
    assert threaded == single
    # unchanged rows are the caller's own objects, as row by row
    same = [a is r for a, r in zip(threaded, rows)]
    assert same == [a is r for a, r in zip(single, rows)]
    assert any(same) and not all(same)


def test_lists_go_row_by_row_unless_threads_are_asked_for(monkeypatch):
    rows = [START] * N
    batches = []
    monkeypatch.setattr(_bulk, "strings", lambda rows: batches.append(1) or strings(rows))
    for call in (fx.normalize, fx.encode, fx.validate):
        call(rows)
        call(rows, threads=1)
    assert batches == []
    fx.validate(rows, threads=2)
    assert batches == [1]


def test_encode_and_validate_match_row_by_row():
    rows = _rows()
    assert None in rows
    assert fx.validate(rows, threads=2) == fx.validate(rows, threads=1)
    threaded = fx.encode(rows, errors="coerce", threads=2)
    assert threaded.tobytes() == fx.encode(rows, errors="coerce", threads=1).tobytes()


@pytest.mark.parametrize("first_bad", [5, 100_000])
def test_raise_names_the_first_bad_row(first_bad):
    rows = [START] * N
    rows[first_bad] = "8/8/8/8/8/8/8/9 w - - 0 1"
    rows[first_bad + 3] = 42  # a later non-str row does not win
    rows[-1] = "bad"
    for call in (fx.normalize, fx.encode):
        with pytest.raises(fx.FenError) as threaded:
            call(rows, threads=2)
        with pytest.raises(fx.FenError) as single:
            call(rows, threads=1)
        assert threaded.value.index == single.value.index == first_bad
        assert str(threaded.value) == str(single.value)


def test_raise_on_a_slow_row_before_kernel_failures():
    rows = [START] * N
    rows[10] = 7
    rows[20] = "bad"
    for call in (fx.normalize, fx.encode):
        with pytest.raises(fx.FenError) as threaded:
            call(rows, threads=2)
        assert threaded.value.index == 10
        assert "expected str" in str(threaded.value)


@pytest.mark.parametrize("threads", [2, 3, 7])
def test_buffer_lines_found_in_stretches(threads, monkeypatch):
    """A buffer cut into stretches at newlines gives the lines of one pass."""
    monkeypatch.setattr(_bulk, "MIN_BYTES_PER_THREAD", 1)
    rng = np.random.default_rng(threads)
    for size in [0, 1, 2, 5, 17, 64, 300]:
        for _ in range(20):
            data = bytes(rng.choice(list(b"ab\r\n\n"), size).tolist())
            newlines = np.flatnonzero(np.frombuffer(data, np.uint8) == 10) + 1
            ends = list(newlines) + ([len(data)] if data and data[-1:] != b"\n" else [])
            batch = _bulk.lines(data, threads=threads)
            assert batch.n == len(ends)
            out, got, _ = batch.normalize(
                TextOptions(), ErrorsMode.IGNORE, threads=1, terminators=True
            )
            assert out == data and list(got) == ends
