"""decode's output kinds: output="bytes" and "arrow" (written by the GIL-free
kernels, over threads) give, row for row, the text of output="list", which
tests/test_records.py checks against the rule model.  A rejected record is
None in a list, an empty line in bytes and null in Arrow."""

import random
import sys

import numpy as np
import pytest
from conftest import START_FEN
from models import semantics as model
from support import strategies as S

import fastxfen as fx
from fastxfen._columns import arrow_text
from fastxfen._options import ErrorsMode

pa = pytest.importorskip("pyarrow")


def corrupted(width, seed, copies=1):
    """Records of the test corpora, a third of them with random bytes
    overwritten (so some are refused), repeated ``copies`` times."""
    rng = random.Random(seed)
    rows = list(S.game_corpus()[:700]) + list(S.ep_corpus(seed=5, n=500))
    if width == 10:
        rows += list(S.model_corpus()[-500:])
    recs = fx.encode(rows, width=width)
    raw = bytearray(recs.tobytes())
    size = recs.dtype.itemsize
    for i in range(0, len(recs), 3):
        pos = i * size + rng.randrange(size)
        raw[pos] = rng.randrange(256)
    bad = np.frombuffer(bytes(raw), dtype=recs.dtype)
    return np.tile(bad, copies)


def as_bytes(texts):
    return "".join(("" if t is None else t) + "\n" for t in texts).encode()


@pytest.mark.parametrize("width", [8, 10])
@pytest.mark.parametrize("castling,en_passant", model.MODES)
def test_bytes_and_arrow_match_the_list(width, castling, en_passant):
    recs = corrupted(width, seed=width)
    modes = dict(castling=castling, en_passant=en_passant, errors="coerce")
    texts = fx.decode(recs, **modes)
    assert None in texts and len(texts) == len(recs)
    assert fx.decode(recs, output="bytes", **modes) == as_bytes(texts)
    column = fx.decode(recs, output="arrow", **modes)
    assert column.type == pa.string() and column.to_pylist() == texts
    assert column.null_count == texts.count(None)


@pytest.mark.parametrize("threads", [1, 2, 3, 7])
def test_threads_give_the_same_text(threads):
    # 30 copies of the corpus: about 51,000 records, four jobs of 16,384
    recs = corrupted(10, seed=3, copies=30)
    texts = fx.decode(recs, errors="coerce")
    got = fx.decode(recs, output="bytes", errors="coerce", threads=threads)
    assert got == as_bytes(texts)
    column = fx.decode(recs, output="arrow", errors="coerce", threads=threads)
    assert column.to_pylist() == texts


@pytest.mark.parametrize("output", ["list", "bytes", "arrow"])
@pytest.mark.parametrize("threads", [None, 1, 3])
def test_raise_names_the_first_refused_record(output, threads):
    # the first refused record in the second job, more in the jobs after
    clean = fx.encode([START_FEN]).repeat(20_000)
    recs = np.concatenate([clean, corrupted(8, seed=11, copies=14)])
    first = fx.decode(recs, errors="coerce").index(None)
    assert first >= 20_000
    with pytest.raises(fx.FenError) as info:
        fx.decode(recs, output=output, threads=threads)
    with pytest.raises(fx.FenError) as one:
        fx.decode(recs[first : first + 1])
    assert info.value.index == first
    assert (info.value.column, info.value.field, info.value.reason) == (
        one.value.column,
        one.value.field,
        one.value.reason,
    )


def test_shapes_and_empty():
    recs = fx.encode([START_FEN, "8/8/8/8/8/8/8/8 b - - 3 9"] * 3)
    line = (START_FEN + "\n").encode()
    assert fx.decode(recs[0], output="bytes") == line  # 0-d: one line
    assert fx.decode(recs[0]) == START_FEN
    grid = recs.reshape(2, 3)  # read in C order
    assert fx.decode(grid, output="bytes") == fx.decode(recs, output="bytes")
    assert fx.decode(grid.T, output="arrow").to_pylist() == fx.decode(grid.T)
    assert fx.decode(recs[::2], output="bytes") == line * 3  # strided
    empty = np.empty(0, fx.POSITION_DTYPE)
    assert fx.decode(empty, output="bytes") == b""
    column = fx.decode(empty, output="arrow")
    assert len(column) == 0 and column.type == pa.string()


def test_bad_arguments():
    recs = fx.encode([START_FEN])
    with pytest.raises(ValueError, match="output"):
        fx.decode(recs, output="numpy")
    for output in ("list", "bytes"):
        with pytest.raises(ValueError, match="threads"):
            fx.decode(recs, output=output, threads=0)
    with pytest.raises(ValueError):
        fx.decode(recs, output="bytes", errors="ignore")
    for output in ("bytes", "arrow"):
        with pytest.raises(TypeError, match="POSITION_DTYPE"):
            fx.decode(np.zeros(3, np.uint8), output=output)


def test_arrow_offsets_narrowed_when_the_text_fits():
    data = b"ab" + b"cde"
    column = arrow_text((data, np.array([0, 2, 2, 5], np.int64), [1]), ErrorsMode.COERCE)
    assert column.type == pa.string()
    assert column.to_pylist() == ["ab", None, "cde"]
    column = arrow_text((data, np.array([0, 2, 5], np.int32), []), ErrorsMode.RAISE)
    assert column.type == pa.string() and column.to_pylist() == ["ab", "cde"]


def test_arrow_output_without_pyarrow(monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # import fails
    with pytest.raises(ImportError, match="fastxfen\\[arrow\\]"):
        fx.decode(fx.encode([START_FEN]), output="arrow")
