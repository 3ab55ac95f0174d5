"""pytest-benchmark cases for the four entry points on a 20,000-position corpus.

    pytest bench --benchmark-only
    pytest bench --benchmark-only --benchmark-compare      # against a saved run

Only this folder holds them, so ``pytest tests`` does not run them.  The
corpus is 20,000 positions from corpus.py's deterministic generator (default
seed), cached under bench/.cache/ after the first run.
"""

import pytest

pytest.importorskip("pytest_benchmark")

import corpus

import fastxfen as fx

N = 20_000

NORMALIZE_MODES = [
    ("xfen", "fen"),
    ("xfen", "xfen"),
    ("xfen", "legal"),
    ("shredder", "fen"),
    ("shredder", "legal"),
]


@pytest.fixture(scope="module")
def fens():
    return corpus.load(N)


@pytest.fixture(scope="module")
def records(fens):
    return fx.encode(fens)


def test_floor_copy_rows(benchmark, fens):
    """Read each string, build a new one of the same bytes in C: the floor for str -> str."""
    import floor

    copy_rows = floor.copy_rows()
    if copy_rows is None:
        pytest.skip("no Cython or C compiler to build bench/_floor.pyx")
    benchmark.group = "floor"
    out = benchmark(copy_rows, fens)
    assert out == fens


def test_floor_str_upper(benchmark, fens):
    """The same in pure Python, with the cheapest per-string builtin, for reference."""
    benchmark.group = "floor"
    out = benchmark(lambda: list(map(str.upper, fens)))
    assert len(out) == N


@pytest.mark.parametrize("castling,en_passant", NORMALIZE_MODES)
def test_normalize(benchmark, fens, castling, en_passant):
    benchmark.group = "normalize"
    out = benchmark(fx.normalize, fens, castling=castling, en_passant=en_passant)
    assert len(out) == N


def test_encode(benchmark, fens):
    benchmark.group = "encode/decode"
    out = benchmark(fx.encode, fens)
    assert len(out) == N


@pytest.mark.parametrize("castling,en_passant", [("xfen", "fen"), ("shredder", "legal")])
def test_decode(benchmark, records, castling, en_passant):
    benchmark.group = "encode/decode"
    out = benchmark(fx.decode, records, castling=castling, en_passant=en_passant)
    assert len(out) == N


def test_validate(benchmark, fens):
    benchmark.group = "validate"
    out = benchmark(fx.validate, fens)
    assert len(out) == N
    assert all(message is None for message in out)
