"""pandas: the Series.fen accessor and pandas Series given to the functions,
against the list functions and python-chess."""

import subprocess
import sys

import numpy as np
import pytest

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")

from support.frames_data import BAD, expected, positions  # noqa: E402

import fastxfen as fx  # noqa: E402
import fastxfen.pandas  # noqa: E402, F401

FENS = positions(300)


def _str_dtype() -> list:
    """pandas 3's default string dtype, "str" (Arrow storage, NaN for a
    missing value), by its full name: before pandas 3 "str" means object,
    and pandas before 2.3 have no such dtype."""
    try:
        return [pd.StringDtype("pyarrow", na_value=np.nan)]
    except TypeError:
        return []


ARROW_DTYPES = _str_dtype() + [
    "string[pyarrow]",
    pd.ArrowDtype(pa.string()),
    pd.ArrowDtype(pa.large_string()),
]
DTYPES = ARROW_DTYPES + [object, "string[python]"]
INDEX = pd.Index([10 * i + 7 for i in range(len(FENS))], name="id")


def series(rows, dtype):
    return pd.Series(rows, index=INDEX[: len(rows)], name="fen", dtype=dtype)


def kept(result, source):
    assert result.index.equals(source.index)
    assert result.name == source.name


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("castling,en_passant", [("xfen", "xfen"), ("shredder", "legal")])
def test_normalize_matches_python_chess(dtype, castling, en_passant):
    s = series(FENS, dtype)
    got = s.fen.normalize(castling=castling, en_passant=en_passant)
    kept(got, s)
    assert got.dtype == s.dtype
    assert got.tolist() == [expected(f, castling, en_passant) for f in FENS]
    direct = fx.normalize(s, castling=castling, en_passant=en_passant)
    assert direct.equals(got)


@pytest.mark.parametrize("dtype", ARROW_DTYPES, ids=str)
def test_arrow_columns_stay_in_arrow(dtype, monkeypatch):
    s = series(FENS, dtype)

    def no_rows(*args):
        raise AssertionError("read row by row")

    monkeypatch.setattr(pd.Series, "tolist", no_rows)
    monkeypatch.setattr(pd.Series, "__iter__", no_rows)
    got = s.fen.normalize()
    assert isinstance(got.array.__arrow_array__(), pa.ChunkedArray)
    assert pa.chunked_array(got.array.__arrow_array__()).to_pylist() == fx.normalize(FENS)
    assert len(s.fen.encode()) == len(FENS)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_missing_values_stay_missing(dtype):
    rows = [FENS[0], None, FENS[1], None]
    s = series(rows, dtype)
    got = s.fen.normalize()
    kept(got, s)
    assert got.isna().tolist() == [False, True, False, True]
    assert got[got.notna()].tolist() == fx.normalize([FENS[0], FENS[1]])
    assert s.fen.validate().isna().all()
    records = s.fen.encode()
    assert records.shape == (4,)
    assert records[[0, 2]].tobytes() == fx.encode([FENS[0], FENS[1]]).tobytes()
    assert not records[[1, 3]].tobytes().strip(b"\0")


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_errors_name_the_row_by_position(dtype):
    rows = FENS[:5] + [BAD] + FENS[5:9]
    s = series(rows, dtype)
    with pytest.raises(fx.FenError) as err:
        s.fen.normalize()
    assert err.value.index == 5
    assert err.value.field == "placement"
    coerced = s.fen.normalize(errors="coerce")
    assert coerced.isna().tolist() == [i == 5 for i in range(10)]
    assert s.fen.normalize(errors="ignore")[INDEX[5]] == BAD
    messages = s.fen.validate()
    kept(messages, s)
    assert messages.notna().tolist() == [i == 5 for i in range(10)]
    assert messages[INDEX[5]] == fx.validate(BAD)


def test_object_column_of_other_values_goes_row_by_row():
    s = pd.Series([FENS[0], 5, b"x"], dtype=object)
    with pytest.raises(fx.FenError, match="row 1, column 0 \\(input\\): expected str, got int"):
        fx.normalize(s)
    assert fx.normalize(s, errors="coerce").tolist() == [fx.normalize(FENS[0]), None, None]
    assert fx.validate(s).tolist() == fx.validate([FENS[0], 5, b"x"])


@pytest.mark.parametrize("dtype", [object, "str"], ids=str)
def test_validate_and_encode_match_the_list_functions(dtype):
    rows = FENS[:50] + [BAD, "8/8/8/8/8/8/8/8 w - - 0 1"]
    s = series(rows, dtype)
    got = fx.validate(s)
    kept(got, s)
    assert [None if pd.isna(m) else m for m in got] == fx.validate(rows)
    records = fx.encode(s, errors="coerce")
    assert isinstance(records, np.ndarray)
    assert records.tobytes() == fx.encode(rows, errors="coerce").tobytes()
    assert fx.encode(series(FENS[:20], dtype), width=10).dtype == fx.POSITION_DTYPE_10x8


def test_empty_series():
    s = pd.Series([], dtype="str", name="fen")
    assert s.fen.normalize().tolist() == []
    assert len(s.fen.encode()) == 0
    assert fx.validate(pd.Series([], dtype=object)).tolist() == []


@pytest.mark.parametrize("dtype", ["str", object], ids=str)
def test_zobrist(dtype):
    chess_polyglot = pytest.importorskip("chess.polyglot")
    import chess

    s = series(FENS, dtype)
    keys = s.fen.zobrist()
    kept(keys, s)
    assert keys.dtype == np.uint64
    oracle = [chess_polyglot.zobrist_hash(chess.Board(f, chess960=True)) for f in FENS]
    assert keys.tolist() == oracle
    assert keys.tolist() == fx.zobrist(FENS).tolist()
    holes = series([FENS[0], None, FENS[1]], dtype).fen.zobrist()
    assert holes.isna().tolist() == [False, True, False]
    assert holes.dropna().astype(np.uint64).tolist() == oracle[:2]


def test_without_pandas_the_import_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    monkeypatch.delitem(sys.modules, "fastxfen.pandas")
    with pytest.raises(ImportError, match=r"pip install 'fastxfen\[pandas\]'"):
        import fastxfen.pandas  # noqa: F401


def test_the_functions_do_not_import_pandas_or_polars():
    code = (
        "import sys, fastxfen as fx\n"
        f"fx.normalize({FENS[:3]!r}); fx.validate({FENS[:3]!r}); fx.encode({FENS[:3]!r})\n"
        "print(sorted({'pandas', 'polars'} & set(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("dtype", ["str", object], ids=str)
def test_zobrist_missing_values_and_errors(dtype):
    from support.frames_data import polyglot_keys

    rows = FENS[:20]
    keys = series(rows, dtype).fen.zobrist()
    assert keys.dtype == np.uint64
    assert keys.tolist() == polyglot_keys(rows)
    holes = series([None, rows[0], None, rows[1]], dtype)
    got = holes.fen.zobrist()
    kept(got, holes)
    assert got.isna().tolist() == [True, False, True, False]
    assert got.dropna().astype(np.uint64).tolist() == polyglot_keys(rows[:2])
    with pytest.raises(fx.FenError) as err:
        series([None, rows[0], None, BAD], dtype).fen.zobrist()
    assert err.value.index == 3


def test_zobrist_row_by_row_keeps_missing_values(monkeypatch):
    from support.frames_data import polyglot_keys

    monkeypatch.setattr("fastxfen._frames._has_pyarrow", lambda: False)
    s = series([FENS[0], None, FENS[1]], object)
    got = s.fen.zobrist()
    kept(got, s)
    assert got.dtype == "UInt64"
    assert got.isna().tolist() == [False, True, False]
    assert got.dropna().astype(np.uint64).tolist() == polyglot_keys(FENS[:2])


@pytest.mark.parametrize(
    "dtype", [pd.StringDtype("python"), pd.StringDtype("python", na_value=np.nan)], ids=str
)
def test_string_columns_without_pyarrow_keep_missing_values(dtype, monkeypatch):
    monkeypatch.setattr("fastxfen._frames._has_pyarrow", lambda: False)
    s = series([FENS[0], None, BAD, None], dtype)
    got = s.fen.normalize(errors="coerce")
    kept(got, s)
    assert got.dtype == dtype
    assert got.isna().tolist() == [False, True, True, True]
    assert got[INDEX[0]] == fx.normalize(FENS[0])
    assert s.fen.validate().notna().tolist() == [False, False, True, False]
    assert s.fen.zobrist(errors="coerce").isna().tolist() == [False, True, False, True]
    with pytest.raises(fx.FenError) as err:
        s.fen.normalize()
    assert err.value.index == 2
