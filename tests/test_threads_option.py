"""One rule for ``threads`` (fastxfen._options): on every public function and
every kind of input it is None or an int of at least 1, checked before any
work; a number above the machine's CPUs is capped to them."""

import numpy as np
import pytest

import fastxfen as fx
from fastxfen import _options, pgn
from fastxfen import dask as fxd

FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
BAD = "not a position"  # a row that would raise if any work were done first
BAD_THREADS = [True, False, 1.5, "2", 0, -1, np.int64(2)]

RECORDS = fx.encode([FEN, FEN])
ROWS = [FEN, BAD]


def calls():
    """(name, function of threads) for every public function that takes it,
    over every kind of input."""
    out = []
    for kind, fens in {
        "str": BAD,
        "short list": ROWS,
        "bytes": "\n".join(ROWS).encode(),
        "numpy S": np.array(ROWS, dtype="S"),
        "numpy U": np.array(ROWS),
        "numpy O": np.array(ROWS, dtype=object),
    }.items():
        out += [
            (f"normalize {kind}", lambda t, f=fens: fx.normalize(f, threads=t)),
            (f"encode {kind}", lambda t, f=fens: fx.encode(f, threads=t)),
            (f"validate {kind}", lambda t, f=fens: fx.validate(f, threads=t)),
        ]
    for output in ("list", "bytes", "arrow"):
        out.append(
            (f"decode {output}", lambda t, o=output: fx.decode(RECORDS, output=o, threads=t))
        )
    for kind, x in {"records": RECORDS, "text": ROWS}.items():
        out += [
            (f"to_bitboards {kind}", lambda t, x=x: fx.to_bitboards(x, threads=t)),
            (f"to_planes {kind}", lambda t, x=x: fx.to_planes(x, threads=t)),
            (f"pack lichess {kind}", lambda t, x=x: fx.pack(x, threads=t)),
            (f"pack stockfish {kind}", lambda t, x=x: fx.pack(x, format="stockfish", threads=t)),
            (f"zobrist {kind}", lambda t, x=x: fx.zobrist(x, threads=t)),
            (f"unique {kind}", lambda t, x=x: fx.unique(x, threads=t)),
            (f"Deduper.add {kind}", lambda t, x=x: fx.Deduper().add(x, threads=t)),
        ]
    game = f'[FEN "{BAD}"]\n\n*\n'.encode()
    out += [
        ("normalize_pgn", lambda t: pgn.normalize_pgn(game, threads=t)),
        ("stream_pgn", lambda t: pgn.stream_pgn([game], lambda d: None, threads=t)),
        ("dask normalize_lines", lambda t: fxd.normalize_lines([BAD], threads=t)),
        ("dask encode_lines", lambda t: fxd.encode_lines([BAD], threads=t)),
        ("dask validate_lines", lambda t: fxd.validate_lines([BAD], threads=t)),
        ("dask normalize_files", lambda t: fxd.normalize_files([], "unused", threads=t)),
    ]
    return out


CALLS = calls()


@pytest.mark.parametrize("bad", BAD_THREADS, ids=repr)
@pytest.mark.parametrize("call", [c for _, c in CALLS], ids=[n for n, _ in CALLS])
def test_bad_threads_raise_before_any_work(call, bad):
    with pytest.raises(ValueError, match="threads must be a positive int or None") as info:
        call(bad)
    assert not isinstance(info.value, fx.FenError)


def test_dask_collections_check_threads():
    bag = pytest.importorskip("dask.bag")
    pd = pytest.importorskip("pandas")
    lines = bag.from_sequence([FEN], npartitions=1)
    series = pd.Series([FEN])
    for call in (
        lambda: fxd.normalize_bag(lines, threads=0),
        lambda: fxd.validate_bag(lines, threads="2"),
        lambda: fxd.encode_bag(lines, threads=1.5),
        lambda: fxd.normalize_series(series, threads=True),
        lambda: fxd.validate_series(series, threads=-1),
        lambda: fxd.encode_series(series, threads=0),
    ):
        with pytest.raises(ValueError, match="threads must be a positive int or None"):
            call()


def test_good_threads_are_accepted_and_capped(monkeypatch):
    monkeypatch.setattr(_options, "cpu_count", lambda: 3)
    assert _options.threads(None) is None
    assert [_options.threads(n) for n in (1, 2, 3, 4, 10**9)] == [1, 2, 3, 3, 3]
    assert _options.resolve_threads(None, 0) == 1
    assert _options.resolve_threads(None, 2 * _options.ROWS_PER_THREAD) == 2
    assert _options.resolve_threads(None, 100 * _options.ROWS_PER_THREAD) == 3
    assert _options.resolve_threads(None, 40000, _options.CHUNK_ROWS_PER_THREAD) == 2
    assert _options.resolve_threads(7, 10) == 3
    assert _options.kernel_threads(None) == 0 and _options.kernel_threads(2) == 2
    assert fx.normalize([FEN], threads=10**9) == [FEN]


def _started_threads(call) -> int:
    """How many threads ``call`` starts (each through _jobs._start)."""
    from fastxfen import _jobs

    started = []
    real_start = _jobs._start

    def start(run):
        started.append(run)
        return real_start(run)

    _jobs._start = start
    try:
        call()
    finally:
        _jobs._start = real_start
    return len(started)


@pytest.mark.parametrize("kind", ["S", "U", "bytes"])
def test_a_huge_thread_count_starts_no_more_threads_than_cpus(kind):
    rows = [FEN] * 3000  # rows enough for thousands of threads, were they not capped
    fens = b"\n".join(r.encode() for r in rows) if kind == "bytes" else np.array(rows, dtype=kind)
    started = _started_threads(lambda: fx.normalize(fens, threads=10**6))
    # the workers are helper threads (the calling thread waits for them,
    # looking at signals): at most one per CPU is started
    assert started <= _options.cpu_count()
    # 3,000 rows are one job: helpers only for the copy of U cells
    assert started >= 2 or kind != "U"
    started = _started_threads(lambda: fx.encode(fens, threads=10**6))
    assert started <= _options.cpu_count()
