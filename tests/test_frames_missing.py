"""The missing-value rule of docs/failures.md for every dtype a dataframe
column of positions can have: pandas object, string (python and pyarrow
storage, either missing marker), Arrow-backed (chunked too), category, an
all-NaN float column (what read_csv gives for an empty column); polars
String, Categorical, Enum, Null and chunked columns.  Each function, through
the accessor, the namespace and the plain functions: a missing row stays
missing (the null record for encode, no position for the keys) and never
raises, under every errors= mode."""

import numpy as np
import pytest

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
pa = pytest.importorskip("pyarrow")

import fastxfen as fx  # noqa: E402
import fastxfen.pandas  # noqa: E402, F401
import fastxfen.polars  # noqa: E402, F401

FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWI = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
ROWS = [FEN, None, KIWI, None, FEN]
MISSING = [False, True, False, True, False]


def _string_dtypes():
    dtypes = {
        "object": object,
        "string[python]": "string[python]",
        "string[pyarrow]": "string[pyarrow]",
        "arrow-string": pd.ArrowDtype(pa.string()),
        "arrow-large_string": pd.ArrowDtype(pa.large_string()),
        "category": "category",
    }
    try:  # pandas 2.3 and 3: the NaN-missing string dtype (pandas 3's "str")
        dtypes["string-nan"] = pd.StringDtype("pyarrow", na_value=np.nan)
    except TypeError:
        pass
    return dtypes


STRING_DTYPES = _string_dtypes()


def pandas_series(name):
    """A pandas column of ROWS (its missing rows as the dtype writes them)."""
    if name == "chunked-arrow":
        chunks = pa.chunked_array([ROWS[:2], ROWS[2:]], pa.string())
        return pd.Series(pd.arrays.ArrowExtensionArray(chunks), index=list("abcde"))
    if name == "object-nan":  # missing as NaN and pd.NA in an object column
        rows = [FEN, np.nan, KIWI, pd.NA, FEN]
        return pd.Series(rows, dtype=object, index=list("abcde"))
    return pd.Series(ROWS, dtype=STRING_DTYPES[name], index=list("abcde"))


PANDAS = [*STRING_DTYPES, "chunked-arrow", "object-nan"]


def polars_series(name):
    if name == "chunked":
        parts = [pl.Series("fen", ROWS[:2]), pl.Series("fen", ROWS[2:])]
        series = pl.concat(parts, rechunk=False)
        assert series.n_chunks() == 2
        return series
    dtype = {"String": pl.String, "Utf8": pl.Utf8, "Categorical": pl.Categorical}.get(name)
    if name == "Enum":
        dtype = pl.Enum([FEN, KIWI])
    return pl.Series("fen", ROWS, dtype=dtype)


POLARS = ["String", "Utf8", "Categorical", "Enum", "chunked"]


def listed(result):
    values = result.to_list() if isinstance(result, pl.Series) else result.tolist()
    return [None if v is None or v is pd.NA or v != v else v for v in values]


def check_all(series, rows, missing):
    """Every function on a column whose rows are ``rows`` (None where
    missing; the others distinct positions, each spelled one way), under
    each errors= mode."""
    for errors in ("raise", "coerce", "ignore"):
        normalized = [None if r is None else fx.normalize(r) for r in rows]
        assert listed(series.fen.normalize(errors=errors)) == normalized
        assert listed(fx.normalize(series, errors=errors)) == normalized
    assert listed(series.fen.validate()) == [None] * len(rows)
    assert listed(fx.validate(series)) == [None] * len(rows)
    for errors in ("raise", "coerce"):
        records = series.fen.encode(errors=errors)
        assert (records["width"] == 0).tolist() == missing
        assert not records[np.array(missing, bool)].tobytes().strip(b"\0")
        assert fx.encode(series, errors=errors).tobytes() == records.tobytes()
        keys = [None if r is None else fx.zobrist(r) for r in rows]
        assert listed(series.fen.zobrist(errors=errors)) == keys
        assert listed(fx.zobrist(series, errors=errors)) == keys
        assert listed(series.fen.key(errors=errors)) == [
            None if r is None else fx.normalize(r, fields=4) for r in rows
        ]
        firsts = sorted({r: i for i, r in reversed(list(enumerate(rows))) if r}.values())
        assert fx.unique(series, errors=errors).tolist() == firsts


@pytest.mark.parametrize("name", PANDAS)
def test_pandas_missing_values(name):
    s = pandas_series(name)
    check_all(s, ROWS, MISSING)
    assert s.fen.normalize().index.equals(s.index)
    assert s.fen.duplicated(keep=False).tolist() == [True, False, False, False, True]
    assert s.fen.duplicated().tolist() == [False, False, False, False, True]
    assert s.fen.unique().index.tolist() == ["a", "c"]


@pytest.mark.parametrize("name", PANDAS)
def test_pandas_zobrist_coerce_gives_missing_not_0_for_a_missing_row(name):
    s = pandas_series(name)
    keys = s.fen.zobrist(errors="coerce")
    assert keys.dtype == "UInt64" and keys.isna().tolist() == MISSING


def test_pandas_all_nan_float_column():
    """read_csv gives float64 NaN for an empty column: every row missing."""
    s = pd.Series([np.nan] * 4, name="FEN")
    assert s.dtype == np.float64
    check_all(s, [None] * 4, [True] * 4)
    assert s.fen.unique().tolist() == [] and not s.fen.duplicated().any()


def test_pandas_numbers_are_still_bad_rows():
    s = pd.Series([1.5, np.nan])
    with pytest.raises(fx.FenError, match="row 0, column 0 .input.: expected str, got float"):
        s.fen.normalize()
    assert listed(s.fen.normalize(errors="coerce")) == [None, None]
    assert s.fen.validate().tolist()[0] == "column 0 (input): expected str, got float"


def test_pandas_category_of_other_values_goes_row_by_row():
    s = pd.Series([FEN, None, 7], dtype="category")
    with pytest.raises(fx.FenError, match="row 2, column 0 .input.: expected str, got int"):
        s.fen.normalize()
    assert listed(s.fen.normalize(errors="coerce")) == [fx.normalize(FEN), None, None]


@pytest.mark.parametrize("name", POLARS)
def test_polars_missing_values(name):
    s = polars_series(name)
    check_all(s, ROWS, MISSING)
    assert s.fen.is_first_distinct().to_list() == [True, False, True, False, False]
    assert s.fen.unique().to_list() == [FEN, KIWI]


@pytest.mark.parametrize("name", POLARS)
def test_polars_missing_values_in_a_lazy_query(name):
    frame = pl.DataFrame({"fen": polars_series(name)}).lazy()
    got = frame.select(
        pl.col("fen").fen.normalize(errors="coerce").alias("text"),
        pl.col("fen").fen.validate().alias("why"),
        pl.col("fen").fen.zobrist(errors="coerce").alias("key"),
        pl.col("fen").fen.encode(errors="coerce").alias("record"),
    ).collect()
    assert got["text"].is_null().to_list() == MISSING
    assert got["why"].null_count() == len(ROWS)
    assert got["key"].is_null().to_list() == MISSING
    assert got["record"].is_null().to_list() == MISSING


def test_polars_null_column():
    s = pl.Series("fen", [None, None, None])
    assert s.dtype == pl.Null
    check_all(s, [None] * 3, [True] * 3)
    got = pl.DataFrame({"fen": s}).lazy().select(pl.col("fen").fen.normalize()).collect()
    assert got["fen"].dtype == pl.String and got["fen"].null_count() == 3
