"""Results keep the input's kind: Arrow in, Arrow out (the same type and
chunks) for normalize and validate; a pandas or polars Series in, a Series
out (pandas keeps the index and the name) for normalize, validate and
zobrist.  encode gives numpy records and unique indices for every input
(docs/dataframes.md says why)."""

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")

import fastxfen as fx  # noqa: E402

FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
BAD = "8/8/9/8/8/8/8/8 w - - 0 1"
ROWS = [FEN, None, BAD, FEN]


def _arrow_inputs():
    inputs = {
        "string": pa.array(ROWS, pa.string()),
        "large_string": pa.array(ROWS, pa.large_string()),
        "chunked": pa.chunked_array([ROWS[:1], [], ROWS[1:]], pa.string()),
    }
    if hasattr(pa, "string_view"):
        try:
            inputs["string_view"] = pa.array(ROWS, pa.string_view())
            fx.validate(inputs["string_view"])
        except (pa.ArrowNotImplementedError, TypeError):  # old pyarrow cannot cast it
            del inputs["string_view"]
    return inputs


ARROW = _arrow_inputs()


@pytest.mark.parametrize("name", sorted(ARROW))
def test_arrow_in_arrow_out(name):
    column = ARROW[name]
    for result in (fx.normalize(column, errors="coerce"), fx.validate(column)):
        assert type(result) is type(column) and result.type == column.type
        if isinstance(column, pa.ChunkedArray):
            assert [len(c) for c in result.chunks] == [len(c) for c in column.chunks]
    assert fx.validate(column).to_pylist() == fx.validate(ROWS)
    assert fx.validate(column).is_null().to_pylist() == [True, True, False, True]
    assert isinstance(fx.encode(column, errors="coerce"), np.ndarray)
    keys = fx.zobrist(column, errors="coerce")
    assert keys.dtype == np.uint64 and keys.tolist()[1] == 0


def test_pandas_series_in_series_out():
    pd = pytest.importorskip("pandas")
    s = pd.Series(ROWS, index=[5, 6, 7, 8], name="FEN", dtype=object)
    for result in (
        fx.normalize(s, errors="coerce"),
        fx.validate(s),
        fx.zobrist(s, errors="coerce"),
    ):
        assert isinstance(result, pd.Series)
        assert result.index.equals(s.index) and result.name == "FEN"
    keys = fx.zobrist(s, errors="coerce")
    assert keys.isna().tolist() == [False, True, False, False] and keys[7] == 0


def test_polars_series_in_series_out():
    pl = pytest.importorskip("polars")
    s = pl.Series("FEN", ROWS)
    for result in (
        fx.normalize(s, errors="coerce"),
        fx.validate(s),
        fx.zobrist(s, errors="coerce"),
    ):
        assert isinstance(result, pl.Series) and result.name == "FEN"
    assert fx.zobrist(s, errors="coerce").to_list()[1:3] == [None, 0]
