"""The bulk normalize cuts rows into jobs of 16,384 rows dealt in turn to the
threads; each job's text is copied into the result after the jobs before it.
Whatever the number of threads, the result is the row-by-row one."""

import pytest

import fastxfen as fx

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
