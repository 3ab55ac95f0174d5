"""Dedupe and position keys where dataframe users work: pandas
``Series.fen.unique`` / ``duplicated`` / ``key``, polars
``is_first_distinct`` / ``is_last_distinct`` / ``key`` (lazy), and SQL
``fen_key`` for GROUP BY and DISTINCT ON: the same position as
``fastxfen.unique`` (docs/keys.md), checked against it on rows that spell
one position many ways."""

import random

import chess
import numpy as np
import pytest

pd = pytest.importorskip("pandas")
pl = pytest.importorskip("polars")
duckdb = pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")

from support.frames_data import BAD, positions  # noqa: E402

import fastxfen as fx  # noqa: E402
import fastxfen.duckdb as fxd  # noqa: E402
import fastxfen.pandas  # noqa: E402, F401
import fastxfen.polars  # noqa: E402, F401


def spellings(n=120, seed=31):
    """Rows that spell positions several ways: X-FEN or Shredder-FEN
    castling, each en-passant style, 4 fields or other counters; in a
    random order with repeats, a few missing and bad rows."""
    rng = random.Random(seed)
    variants = []
    for fen in positions(n, seed=seed):
        board = chess.Board(fen, chess960=True)
        four = " ".join(fen.split()[:4])
        variants.append(
            [
                fen,
                board.fen(shredder=True, en_passant="fen"),
                board.fen(en_passant="legal"),
                board.fen(en_passant="xfen"),
                four,
                f"{four} {rng.randrange(50)} {rng.randrange(1, 90)}",
            ]
        )
    rows = [rng.choice(rng.choice(variants)) for _ in range(3 * n)]
    for _ in range(6):
        rows.insert(rng.randrange(len(rows)), None)
        rows.insert(rng.randrange(len(rows)), BAD)
    return rows


ROWS = spellings()
SAMENESS = [(c, e) for c in (False, True) for e in ("fen", "xfen", "legal")]


def oracle(rows, counters, en_passant):
    """fastxfen.unique's answers: (first, last, holds) bool masks; holds is
    False for a missing or bad row."""
    opts = dict(counters=counters, en_passant=en_passant, errors="coerce")
    n = len(rows)
    first = np.zeros(n, bool)
    first[fx.unique(rows, **opts)] = True
    last = np.zeros(n, bool)
    last[n - 1 - fx.unique(rows[::-1], **opts)] = True
    holds = np.array([r is not None and fx.validate(r) is None for r in rows])
    return first, last, holds


@pytest.mark.parametrize("counters,en_passant", SAMENESS)
@pytest.mark.parametrize("dtype", [object, "string[pyarrow]"], ids=str)
def test_pandas_unique_and_duplicated(dtype, counters, en_passant):
    first, last, holds = oracle(ROWS, counters, en_passant)
    assert 0 < first.sum() < holds.sum()  # the rows do repeat positions
    index = pd.Index(np.arange(len(ROWS)) * 7 + 3, name="id")
    s = pd.Series(ROWS, index=index, name="FEN", dtype=dtype)
    opts = dict(counters=counters, en_passant=en_passant, errors="coerce")
    unique = s.fen.unique(**opts)
    assert unique.dtype == s.dtype and unique.name == "FEN"
    assert unique.index.equals(index[first])
    assert unique.tolist() == [ROWS[i] for i in np.flatnonzero(first)]
    assert (unique.index == index[fx.unique(s, **opts)]).all()
    for keep, want in [("first", ~first), ("last", ~last), (False, ~(first & last))]:
        mask = s.fen.duplicated(keep=keep, **opts)
        assert mask.index.equals(index) and mask.dtype == bool
        assert mask.tolist() == (want & holds).tolist(), keep


@pytest.mark.parametrize("counters,en_passant", SAMENESS)
def test_keys_group_exactly_as_unique(counters, en_passant):
    first, _, holds = oracle(ROWS, counters, en_passant)
    opts = dict(counters=counters, en_passant=en_passant, errors="coerce")
    keys = pd.Series(ROWS, dtype=object).fen.key(**opts)
    assert keys.notna().tolist() == holds.tolist()
    assert keys.nunique() == first.sum()  # no two positions merged, none split
    assert (~keys.duplicated() & keys.notna()).tolist() == first.tolist()
    assert pl.Series(ROWS).fen.key(**opts).to_list() == [
        None if pd.isna(k) else k for k in keys.tolist()
    ]


@pytest.mark.parametrize("counters,en_passant", SAMENESS)
def test_polars_first_and_last_distinct_in_a_lazy_query(counters, en_passant):
    first, last, _ = oracle(ROWS, counters, en_passant)
    opts = dict(counters=counters, en_passant=en_passant, errors="coerce")
    lf = pl.LazyFrame({"n": list(range(len(ROWS))), "fen": ROWS})
    query = lf.filter(pl.col("fen").fen.is_first_distinct(**opts))
    assert query.collect_schema() == lf.collect_schema()
    assert query.collect()["n"].to_list() == np.flatnonzero(first).tolist()
    marks = lf.select(
        pl.col("fen").fen.is_first_distinct(**opts).alias("first"),
        pl.col("fen").fen.is_last_distinct(**opts).alias("last"),
        pl.col("fen").fen.key(**opts).alias("key"),
    )
    schema = marks.collect_schema()
    assert (schema["first"], schema["last"], schema["key"]) == (pl.Boolean, pl.Boolean, pl.String)
    got = marks.collect()
    assert got["first"].to_list() == first.tolist()
    assert got["last"].to_list() == last.tolist()
    assert pl.Series("fen", ROWS).fen.unique(**opts).to_list() == [
        ROWS[i] for i in np.flatnonzero(first)
    ]


@pytest.mark.parametrize("counters,en_passant", SAMENESS)
def test_sql_group_by_and_distinct_on_fen_key(counters, en_passant):
    first, _, holds = oracle(ROWS, counters, en_passant)
    con = fxd.register(duckdb.connect())
    con.register("t", pa.table({"i": list(range(len(ROWS))), "fen": ROWS}))
    flag = "true" if counters else "false"
    key = f"fen_key(fen, counters := {flag}, en_passant := '{en_passant}', errors := 'coerce')"
    grouped = con.sql(
        f"SELECT min(i), count(*) FROM t WHERE {key} IS NOT NULL GROUP BY {key} ORDER BY 1"
    ).fetchall()
    assert [g[0] for g in grouped] == np.flatnonzero(first).tolist()
    assert sum(g[1] for g in grouped) == holds.sum()
    distinct = con.sql(
        f"SELECT DISTINCT ON ({key}) i FROM t WHERE {key} IS NOT NULL ORDER BY {key}, i"
    ).fetchall()
    assert sorted(r[0] for r in distinct) == np.flatnonzero(first).tolist()


def test_a_key_is_readable_text_not_a_hash():
    con = fxd.register(duckdb.connect())
    row = "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 3 20"
    key = con.execute("SELECT fen_key(?)", [row]).fetchone()[0]
    assert key == "r3k2r/8/8/8/8/8/8/R3K2R w KQkq -"
    got = con.execute("SELECT fen_key(?, counters := true)", [row]).fetchone()[0]
    assert got == "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 3 20"
    assert pd.Series([row]).fen.key().tolist() == ["r3k2r/8/8/8/8/8/8/R3K2R w KQkq -"]


def test_bad_rows_raise_and_keep_is_checked():
    s = pd.Series(ROWS[:3] + [BAD], dtype=object)
    for method in ("unique", "duplicated", "key"):
        with pytest.raises(fx.FenError) as err:
            getattr(s.fen, method)()
        assert err.value.index == 3
    with pytest.raises(fx.FenError) as err:
        pl.LazyFrame({"fen": ROWS[:3] + [BAD]}).filter(
            pl.col("fen").fen.is_first_distinct()
        ).collect()
    assert err.value.index == 3
    with pytest.raises(ValueError, match="keep must be 'first', 'last' or False, not 'all'"):
        s.fen.duplicated(keep="all")


def test_empty_and_all_missing():
    for rows in ([], [None, None]):
        s = pd.Series(rows, dtype=object)
        assert s.fen.unique().tolist() == []
        assert s.fen.duplicated(keep=False).tolist() == [False] * len(rows)
        assert pl.Series("fen", rows, dtype=pl.String).fen.is_first_distinct().to_list() == [
            False
        ] * len(rows)
