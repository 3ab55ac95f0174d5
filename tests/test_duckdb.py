"""DuckDB: the fen_* SQL functions on a real connection, over Parquet and CSV
files shaped like the lichess puzzle database."""

import sys

import pytest

duckdb = pytest.importorskip("duckdb")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pacsv = pytest.importorskip("pyarrow.csv")

from support.frames_data import (  # noqa: E402
    BAD,
    expected,
    polyglot_keys,
    positions,
    puzzle_columns,
)

import fastxfen as fx  # noqa: E402
import fastxfen.duckdb as fxd  # noqa: E402

FENS = positions(300, seed=11)


@pytest.fixture
def con():
    connection = fxd.register(duckdb.connect())
    yield connection
    connection.close()


@pytest.fixture
def puzzles(tmp_path):
    path = tmp_path / "puzzles.parquet"
    pq.write_table(pa.table(puzzle_columns(FENS)), path)
    return path


def by_id(rows):
    return dict(rows)


def test_normalize_a_parquet_file(con, puzzles):
    got = by_id(con.sql(f"SELECT PuzzleId, fen_normalize(FEN) FROM '{puzzles}'").fetchall())
    assert len(got) == len(FENS)
    assert [got[f"p{i:05d}"] for i in range(len(FENS))] == [expected(f) for f in FENS]


@pytest.mark.parametrize(
    "args,castling,en_passant",
    [
        ("", "xfen", "xfen"),
        (", 'shredder'", "shredder", "xfen"),
        (", 'xfen', 'fen'", "xfen", "fen"),
        (", 'shredder', 'legal'", "shredder", "legal"),
    ],
)
def test_options(con, puzzles, args, castling, en_passant):
    sql = f"SELECT PuzzleId, fen_normalize(FEN{args}) FROM '{puzzles}'"
    got = by_id(con.sql(sql).fetchall())
    want = [expected(f, castling, en_passant) for f in FENS]
    assert [got[f"p{i:05d}"] for i in range(len(FENS))] == want


def test_csv_with_nulls_and_bad_rows(con, tmp_path):
    rows = FENS[:50] + [None, BAD]
    path = tmp_path / "lichess_db_puzzle.csv"
    pacsv.write_csv(pa.table(puzzle_columns(rows)), path)
    sql = (
        "SELECT PuzzleId, try_fen_normalize(FEN), fen_validate(FEN) "
        f"FROM read_csv('{path}') ORDER BY PuzzleId"
    )
    got = con.sql(sql).fetchall()
    assert [r[1] for r in got] == [expected(f) for f in FENS[:50]] + [None, None]
    assert [r[2] for r in got] == fx.validate(FENS[:50]) + [None, fx.validate(BAD)]
    message = r"cannot read .*column 18 \(placement\): rank 6 covers 9"
    with pytest.raises(duckdb.Error, match=message):
        con.sql(f"SELECT fen_normalize(FEN) FROM read_csv('{path}')").fetchall()


def test_many_vectors_and_nulls(con):
    rows = [None if i % 7 == 0 else FENS[i % len(FENS)] for i in range(10_000)]
    con.register("positions", pa.table({"i": list(range(len(rows))), "fen": rows}))
    got = con.sql("SELECT i, fen_normalize(fen, 'shredder') FROM positions ORDER BY i").fetchall()
    assert [r[1] for r in got] == [None if f is None else expected(f, "shredder") for f in rows]


def test_an_option_must_be_one_value(con):
    sql = "SELECT fen_normalize(fen, c) FROM (VALUES (?, 'xfen'), (?, 'shredder')) t(fen, c)"
    with pytest.raises(duckdb.Error, match="castling must be the same for every row"):
        con.execute(sql, [FENS[0], FENS[1]]).fetchall()
    with pytest.raises(duckdb.Error, match="castling must be one of"):
        con.execute("SELECT fen_normalize(?, 'bogus')", [FENS[0]]).fetchall()
    with pytest.raises(duckdb.Error, match="en_passant must not be NULL"):
        con.execute("SELECT fen_normalize(?, 'xfen', NULL)", [FENS[0]]).fetchall()


def test_register_twice(con):
    fxd.register(con)
    assert con.execute("SELECT fen_normalize(?)", [FENS[0]]).fetchone()[0] == expected(FENS[0])


def test_zobrist_nulls_and_errors(con):
    rows = FENS[:20] + [None]
    con.register("positions", pa.table({"i": list(range(len(rows))), "fen": rows}))
    got = con.sql("SELECT fen_zobrist(fen) FROM positions ORDER BY i").fetchall()
    assert [r[0] for r in got] == polyglot_keys(FENS[:20]) + [None]
    with pytest.raises(duckdb.Error, match="fen_zobrist: cannot read"):
        con.execute("SELECT fen_zobrist(?)", [BAD]).fetchall()


def test_zobrist_matches_python_chess(con, puzzles):
    got = by_id(con.sql(f"SELECT PuzzleId, fen_zobrist(FEN) FROM '{puzzles}'").fetchall())
    assert [got[f"p{i:05d}"] for i in range(len(FENS))] == polyglot_keys(FENS)


def test_without_duckdb_the_import_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "duckdb", None)
    monkeypatch.delitem(sys.modules, "fastxfen.duckdb")
    with pytest.raises(ImportError, match=r"pip install 'fastxfen\[duckdb\]'"):
        import fastxfen.duckdb  # noqa: F401
