"""The bulk kernels cut rows into jobs which the threads take as each gets
free: 16,384 rows each, or for a newline buffer pieces of about a megabyte
whose lines are counted up front and found by the job.  Each job's
normalized text is copied into the result after the jobs before it.
Whatever the number of threads, the result is the row-by-row one."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.profiles import examples

import fastxfen as fx
from fastxfen import _bulk
from fastxfen._options import ErrorsMode, RecordOptions, TextOptions

CHUNK = 16384
GROWING = "4k3/8/8/8/8/8/8/4K2R w K -"  # gains its two counters: the most a row grows
PLAIN = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
SHRINKING = "r3k2r/8/8/8/8/8/8/R3K2R  w  KQkq  -  007  0010"


def _rows(n, bad=()):
    kinds = [GROWING, PLAIN, SHRINKING]
    rows = [kinds[i % 3] for i in range(n)]
    for i in bad:
        rows[i] = "not a position"
    return rows


def test_workers_holding_several_jobs_take_each_job_once():
    """Many more jobs than threads: a worker holds up to SLACK written jobs
    and waits (GIL released) for the turn of the oldest; no other worker
    may take the job it was about to take meanwhile."""
    data = "\n".join(_rows(400_000, bad=[7, 250_001])).encode()
    want = fx.normalize(data, errors="coerce", threads=1)
    for threads in (3, 4, 3, 4):
        assert fx.normalize(data, errors="coerce", threads=threads) == want


@pytest.mark.parametrize("threads", [1, 2, 3, 5])
@pytest.mark.parametrize("n", [1, CHUNK - 1, CHUNK, 3 * CHUNK + 7])
def test_buffer_matches_rows(threads, n):
    rows = _rows(n, bad=[0, n // 2, n - 1])
    expected = [fx.normalize(r) if r != "not a position" else "" for r in rows]
    data = "\n".join(rows).encode()
    out = fx.normalize(data, errors="coerce", threads=threads)
    # a coerced last row without its newline still gets one
    assert out.decode().split("\n") == expected + [""]
    ignored = fx.normalize(data, errors="ignore", threads=threads).decode().split("\n")
    assert ignored == [e if e else r for e, r in zip(expected, rows)]


@pytest.mark.parametrize("threads", [2, 3, 7])
def test_jobs_of_uneven_cost_are_placed_in_row_order(threads):
    # jobs alternate between valid rows and quickly rejected ones, so the
    # threads run out of step: a thread holds several written jobs while
    # another's earlier job is still running, and takes more jobs than it
    kinds = [PLAIN, "x", GROWING, SHRINKING]
    rows = [
        kinds[(i // CHUNK) % 2 * 2 + i % 2] if (i // CHUNK) % 3 else "x" for i in range(24 * CHUNK)
    ]
    texts = np.array([r.encode() for r in rows])
    expected = fx.normalize(texts, errors="coerce", threads=1)
    assert fx.normalize(texts, errors="coerce", threads=threads).tolist() == expected.tolist()
    data = "\n".join(rows).encode()
    assert fx.normalize(data, errors="ignore", threads=threads) == fx.normalize(
        data, errors="ignore", threads=1
    )


@pytest.mark.parametrize("kind", ["U", "S"])
@pytest.mark.parametrize("errors", ["coerce", "ignore"])
def test_numpy_columns_are_copied_in_and_out_in_parts(kind, errors):
    # a numpy column is narrowed to bytes and the result widened back in one
    # part per thread: every part boundary gives the one-thread array
    rows = _rows(1001, bad=[0, 333, 1000]) + ["8/8/8/8/8/8/8/8 w - - 0 1é", ""]
    if kind == "S":
        rows = rows[:-2]
    column = np.array(rows if kind == "U" else [r.encode() for r in rows]).reshape(-1, 1)
    one = fx.normalize(column, errors=errors, threads=1)
    for threads in (2, 3, 7):
        out = fx.normalize(column, errors=errors, threads=threads)
        assert out.dtype == one.dtype and out.shape == column.shape
        assert out.tolist() == one.tolist()
        assert fx.validate(column.ravel(), threads=threads) == fx.validate(
            column.ravel(), threads=1
        )


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_list_ends_line_up_across_jobs(threads):
    n = 2 * CHUNK + 5 + 131072  # long enough for the threaded list path
    rows = _rows(n, bad=[CHUNK, 2 * CHUNK + 1])
    out = fx.normalize(rows, errors="coerce", threads=threads)
    one = {r: fx.normalize(r) for r in set(rows) if r != "not a position"}
    assert out == [one.get(r) for r in rows]


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_raise_names_the_first_failure_in_a_later_job(threads):
    rows = _rows(4 * CHUNK, bad=[3 * CHUNK + 2, 3 * CHUNK + 9])
    with pytest.raises(fx.FenError) as info:
        fx.normalize("\n".join(rows).encode(), threads=threads)
    assert info.value.index == 3 * CHUNK + 2


def _line_count(data: bytes) -> int:
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


PARTS = [b"\n"] * 8 + [b"x", b"\r\n", b"8/8/8/8/8/8/8/8 w - -"]


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.sampled_from(PARTS), max_size=20000).map(b"".join), st.integers(0, 63))
def test_lines_counts_every_newline(data, skip):
    # lines of every length, tails of every size: skip moves the 64-byte blocks
    data = data[skip:]
    assert _bulk.lines(data).n == _line_count(data)
    assert len(fx.validate(data)) == _line_count(data)


@pytest.mark.slow
@pytest.mark.parametrize("threads", [1, 2])
def test_lines_of_a_multi_piece_buffer(threads):
    # 3 MB of lines of every length 0 to 299 and a million empty ones, which
    # also fill the newline counter's byte lanes: pieces are cut inside runs
    # of newlines and inside long lines alike
    data = b"".join(b"x" * (k % 300) + b"\n" for k in range(20000)) + b"\n" * 1_000_000 + b"tail"
    batch = _bulk.lines(data, threads=threads)
    assert batch.n == _line_count(data)
    assert fx.validate(data, threads=threads)[-1] is not None  # the tail is a row of its own


@pytest.mark.parametrize("width", [np.int32, np.int64])
def test_offsets_batches_check_their_offsets(width):
    data = (PLAIN + PLAIN).encode()
    good = _bulk.offsets(data, np.array([0, len(PLAIN), 2 * len(PLAIN)], width))
    text, offsets, failed = good.normalize(
        TextOptions(en_passant="fen"),
        ErrorsMode.RAISE,
        threads=1,
        terminators=False,
        ends=True,
        offsets=width,
    )
    assert offsets.dtype == width and offsets.tolist() == [0, len(PLAIN), 2 * len(PLAIN)]
    assert text == data and failed == []
    for bad in ([0, 5, 3], [-1, 5, 9], [0, 5, len(data) + 1]):
        batch = _bulk.offsets(data, np.array(bad, width))
        with pytest.raises(ValueError, match="outside the data"):
            batch.validate(threads=1)
        with pytest.raises(ValueError, match="outside the data"):
            batch.normalize(
                TextOptions(en_passant="fen"), ErrorsMode.COERCE, threads=1, terminators=False
            )


@pytest.mark.parametrize("errors", ["raise", "coerce"])
def test_a_bad_offset_past_the_first_block_outranks_an_earlier_bad_row(errors):
    # rows are read a block (1024) at a time, but every offset of a job is
    # checked first: a bad row 0 does not hide a bad offset at row 2500
    rows = [b"x"] + [PLAIN.encode()] * 2999
    offsets = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
    offsets[2501] = offsets[2500] - 1
    batch = _bulk.offsets(b"".join(rows), offsets)
    with pytest.raises(ValueError, match="outside the data"):
        batch.normalize(
            TextOptions(en_passant="fen"), ErrorsMode[errors.upper()], threads=1, terminators=False
        )


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_uncounted_lines_are_numbered_in_turn(threads):
    # normalize counts a buffer's lines in its jobs, numbering each piece's
    # rows once the pieces before it are placed: same rows, failures and text
    rows = _rows(70000, bad=[5, 20000, 40001, 69999])  # about 3.5 MB: several pieces
    data = "\n".join(rows).encode()
    counted = _bulk.lines(data, threads=threads)
    uncounted = _bulk.lines(data, threads=threads, count=False)
    assert uncounted.n == -1
    options = (TextOptions(en_passant="fen"), ErrorsMode.COERCE)
    want = counted.normalize(*options, threads=threads, terminators=True)
    got = uncounted.normalize(*options, threads=threads, terminators=True, ends=False)
    assert uncounted.n == counted.n == len(rows)
    assert got[0] == want[0] and got[2] == want[2] == [5, 20000, 40001, 69999]
    assert [row for row, _ in uncounted.rejections()] == want[2]


def test_a_batch_counted_by_normalize_can_be_encoded_and_validated():
    """A buffer batch made without counting its lines has them counted by
    its first normalize; encode, validate and a second normalize on the
    same batch number its rows from those counts (this used to read
    row numbers that were never set)."""
    rows = [fx.normalize("8/8/8/8/8/8/8/K6k w - -"), "8/8/9/8/8/8/8/8 w - -"] * 5000
    buf = ("\n".join(rows) + "\n").encode()
    for first in ("normalize", "encode", "validate"):
        batch = _bulk.lines(buf, threads=1, count=False)
        if first == "normalize":
            batch.normalize(TextOptions(), ErrorsMode.COERCE, threads=1, terminators=True)
        records = batch.encode(RecordOptions(), ErrorsMode.COERCE, threads=2)
        assert len(records) == len(rows)
        assert records["width"].tolist() == [8, 0] * 5000
        messages = batch.validate(threads=2)
        assert [m is None for m in messages] == [True, False] * 5000
        text, _, failed = batch.normalize(
            TextOptions(), ErrorsMode.COERCE, threads=2, terminators=True
        )
        assert failed == list(range(1, len(rows), 2))
        assert text.count(b"\n") == len(rows)
