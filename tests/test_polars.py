"""polars: the fen namespace on expressions (eager and lazy) and Series, and
polars Series given to the functions, against python-chess."""

import sys

import numpy as np
import pytest

pl = pytest.importorskip("polars")
pytest.importorskip("pyarrow")

from support.frames_data import BAD, expected, polyglot_keys, positions  # noqa: E402

import fastxfen as fx  # noqa: E402
import fastxfen.polars  # noqa: E402, F401

FENS = positions(300, seed=5)


def frame(rows):
    return pl.DataFrame({"n": list(range(len(rows))), "fen": rows})


@pytest.mark.parametrize("castling,en_passant", [("xfen", "fen"), ("shredder", "legal")])
def test_series_in_series_out(castling, en_passant):
    s = pl.Series("position", FENS)
    got = fx.normalize(s, castling=castling, en_passant=en_passant)
    assert isinstance(got, pl.Series)
    assert got.name == "position" and got.dtype == pl.String
    assert got.to_list() == [expected(f, castling, en_passant) for f in FENS]
    assert s.fen.normalize(castling=castling, en_passant=en_passant).equals(got)


def test_lazy_query_knows_its_schema_and_matches():
    rows = FENS[:100] + [None, BAD]
    query = (
        frame(rows)
        .lazy()
        .with_columns(
            pl.col("fen").fen.normalize(castling="shredder", errors="coerce").alias("clean"),
            pl.col("fen").fen.validate().alias("why"),
        )
    )
    schema = query.collect_schema()
    assert schema["clean"] == pl.String and schema["why"] == pl.String
    out = query.filter(pl.col("n") >= 0).collect()
    assert out["n"].to_list() == list(range(102))
    assert out["clean"].to_list() == [expected(f, "shredder") for f in FENS[:100]] + [None, None]
    assert out["why"].to_list() == fx.validate(FENS[:100]) + [None, fx.validate(BAD)]


def test_select_in_a_lazy_query_over_parquet(tmp_path):
    path = tmp_path / "positions.parquet"
    frame(FENS).write_parquet(path)
    out = pl.scan_parquet(path).select(pl.col("fen").fen.normalize(en_passant="legal")).collect()
    assert out["fen"].to_list() == [expected(f, en_passant="legal") for f in FENS]


def test_errors_name_the_row():
    with pytest.raises(fx.FenError) as err:
        frame(FENS[:7] + [BAD]).lazy().select(pl.col("fen").fen.normalize()).collect()
    assert err.value.index == 7
    ignored = frame([BAD]).select(pl.col("fen").fen.normalize(errors="ignore"))
    assert ignored["fen"].to_list() == [BAD]


def test_series_namespace_validate_and_encode():
    rows = FENS[:30] + [None, BAD]
    s = pl.Series("fen", rows)
    why = s.fen.validate()
    assert why.name == "fen" and why.to_list() == fx.validate(FENS[:30]) + [None, fx.validate(BAD)]
    records = s.fen.encode(errors="coerce")
    assert isinstance(records, np.ndarray) and records.shape == (32,)
    assert records.tobytes() == fx.encode(rows[:30] + ["", BAD], errors="coerce").tobytes()
    assert fx.encode(s[:30]).tobytes() == fx.encode(FENS[:30]).tobytes()
    assert fx.validate(s).to_list() == why.to_list()


def test_a_column_of_another_type_is_refused():
    refused = "expected a polars String, Categorical, Enum or Null column, got Int64"
    with pytest.raises(TypeError, match=refused):
        pl.DataFrame({"fen": [1, 2]}).select(pl.col("fen").fen.normalize())


def test_zobrist_nulls_errors_and_lazy_schema():
    out = frame(FENS[:20] + [None]).lazy().select(pl.col("fen").fen.zobrist())
    assert out.collect_schema()["fen"] == pl.UInt64
    assert out.collect()["fen"].to_list() == polyglot_keys(FENS[:20]) + [None]
    assert pl.Series("k", FENS[:3]).fen.zobrist().to_list() == polyglot_keys(FENS[:3])
    with pytest.raises(fx.FenError) as err:
        pl.Series("k", [None, FENS[0], None, BAD]).fen.zobrist()
    assert err.value.index == 3
    coerced = pl.Series("k", [None, BAD, FENS[0]]).fen.zobrist(errors="coerce")
    assert coerced.to_list() == [None, 0] + polyglot_keys(FENS[:1])


def test_zobrist_matches_python_chess():
    keys = frame(FENS).select(pl.col("fen").fen.zobrist())["fen"]
    assert keys.dtype == pl.UInt64
    assert keys.to_list() == polyglot_keys(FENS)


def test_without_polars_the_import_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "polars", None)
    monkeypatch.delitem(sys.modules, "fastxfen.polars")
    with pytest.raises(ImportError, match=r"pip install 'fastxfen\[polars\]'"):
        import fastxfen.polars  # noqa: F401


@pytest.mark.parametrize("how", ["select", "with_columns", "lazy"])
def test_a_fen_error_survives_polars_raising_it_again(how):
    """polars raises a UDF's exception again from its type and message: a
    FenError made from its message alone keeps its row, column, field,
    reason and code, and pickles."""
    import pickle

    df = frame([FENS[0], "rnbqkbnr/ppppXppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"])
    expr = pl.col("fen").fen.normalize()
    with pytest.raises(fx.FenError) as info:
        if how == "lazy":
            df.lazy().select(expr).collect()
        else:
            getattr(df, how)(expr)
    error = info.value
    with pytest.raises(fx.FenError) as direct:
        fx.normalize(df["fen"].to_list())
    want = direct.value
    assert (error.index, error.column, error.field, error.reason) == (
        want.index,
        want.column,
        want.field,
        want.reason,
    )
    assert error.code == want.code is not None
    again = pickle.loads(pickle.dumps(error))
    assert (again.index, again.field, again.code) == (1, want.field, want.code)


def test_a_fen_error_from_another_message_has_no_row():
    error = fx.FenError("something else")
    assert str(error) == "something else"
    assert (error.index, error.column, error.field, error.reason, error.code) == (None,) * 5
