"""validate(legal=True) and ``fastxfen validate --legal``: the positions
validate reads are checked as python-chess's Board(fen, chess960=True)
.status() checks them, on every kind of input and on the command line
(text and tables), with a message naming the status flags in words at the
field the first flag points at.  Off by default: validate and normalize
give what they gave before."""

import chess
import numpy as np
import pytest
from models import training as model
from test_training_status import python_chess_status, readable, scattered

import fastxfen as fx
import fastxfen.training as ft
from fastxfen import cli

pa = pytest.importorskip("pyarrow")

#: The field each status flag's message points at (others: the placement).
FIELD_OF = {chess.STATUS_BAD_CASTLING_RIGHTS: 2, chess.STATUS_INVALID_EP_SQUARE: 3}
FIELD_NAMES = {0: "placement", 2: "castling", 3: "en_passant"}
CAPABLANCA = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"


def field_start(row, field):
    """The 0-based column where blank-separated field ``field`` starts."""
    at = len(row) - len(row.lstrip())
    for _ in range(field):
        at += len(row[at:].split()[0])
        at += len(row[at:]) - len(row[at:].lstrip())
    return at


def want(row):
    status = python_chess_status(row)
    if not status:
        return None
    names = [name.replace("_", " ") for bit, name in ft.STATUS_NAMES.items() if status & bit]
    field = FIELD_OF.get(status & -status, 0)
    where = f"column {field_start(row, field)} ({FIELD_NAMES[field]})"
    return f"{where}: illegal position: {', '.join(names)}"


@pytest.fixture(scope="module")
def corpus():
    """Rows both readers take, 8 wide, with every status flag among them,
    plus rows validate refuses and a 10-wide one."""
    games = [e.fen for e in model.corpus(seed=3, games=10)]
    rows = list(readable(tuple(scattered(31, 1500) + games)))
    flags = 0
    for row in rows:
        flags |= python_chess_status(row)
    assert all(flags & bit for bit in ft.STATUS_NAMES)
    wrong = ["8/8/9/8/8/8/8/8 w - -", "not a position", CAPABLANCA]
    rows = rows[:400] + wrong + rows[400:]
    return rows, [want(r) for r in rows[:400]] + [None] * 3 + [want(r) for r in rows[403:]]


def test_legal_is_python_chess_status(corpus):
    rows, wanted = corpus
    got = fx.validate(rows, legal=True)
    plain = fx.validate(rows)
    for i, (g, w, p) in enumerate(zip(got, wanted, plain)):
        if p is not None:  # validate's own message comes first
            assert g == p, rows[i]
        elif i == 402:
            assert g.endswith("(placement): a 10-wide position: legality is checked on 8x8 boards")
        else:
            assert g == w, rows[i]
    assert sum(m is not None and "illegal position" in m for m in got) > 300


def test_every_kind_of_input(corpus):
    rows, _ = corpus
    want_all = fx.validate(rows, legal=True)
    assert fx.validate(np.array(rows), legal=True) == want_all
    assert fx.validate(np.array(rows, dtype="S"), legal=True) == want_all
    assert fx.validate(np.array(rows).reshape(-1, 1), legal=True) == want_all
    assert fx.validate(pa.array(rows), legal=True).to_pylist() == want_all  # Arrow in, out
    chunked = pa.chunked_array([rows[:100], rows[100:]], pa.large_string())
    assert fx.validate(chunked, legal=True).to_pylist() == want_all
    assert fx.validate("\r\n".join(rows).encode(), legal=True) == want_all
    assert fx.validate(("\n".join(rows) + "\n").encode(), legal=True) == want_all
    assert fx.validate(iter(rows), legal=True) == want_all
    assert fx.validate(rows, legal=True, threads=2) == want_all
    assert [fx.validate(r, legal=True) for r in rows[:50]] == want_all[:50]
    with_nulls = pa.array([rows[0], None, rows[1]])
    assert fx.validate(with_nulls, legal=True).to_pylist() == [want_all[0], None, want_all[1]]
    pd = pytest.importorskip("pandas")
    series = fx.validate(pd.Series(rows), legal=True)
    assert [None if pd.isna(m) else m for m in series] == want_all


def test_dataframes_and_sql(corpus):
    """legal=True through the pandas accessor, the polars namespace and
    DuckDB's fen_validate gives what fastxfen.validate gives."""
    rows = corpus[0][:200]
    want_all = fx.validate(rows, legal=True)
    assert sum(m is not None and "illegal position" in m for m in want_all) > 20
    pd = pytest.importorskip("pandas")
    import fastxfen.pandas  # noqa: F401

    got = pd.Series(rows).fen.validate(legal=True)
    assert [None if pd.isna(m) else m for m in got] == want_all
    pl = pytest.importorskip("polars")
    import fastxfen.polars  # noqa: F401

    assert pl.Series(rows).fen.validate(legal=True).to_list() == want_all
    frame = pl.DataFrame({"fen": rows}).select(pl.col("fen").fen.validate(legal=True))
    assert frame["fen"].to_list() == want_all
    duckdb = pytest.importorskip("duckdb")
    import fastxfen.duckdb as fxd

    con = fxd.register(duckdb.connect())
    con.execute(
        "CREATE TABLE t AS SELECT * FROM (VALUES "
        + ", ".join("(?, ?)" for _ in rows)
        + ") v(i, fen)",
        [x for i, r in enumerate(rows) for x in (i, r)],
    )
    got = con.execute("SELECT fen_validate(fen, legal := true) FROM t ORDER BY i").fetchall()
    assert [r[0] for r in got] == want_all
    assert con.execute("SELECT count(fen_validate(fen)) FROM t").fetchone()[0] < sum(
        m is not None for m in want_all
    )


def test_dask(corpus):
    """legal=True through fastxfen.dask: lines (str and bytes, with their
    terminators), Series, Bags and columns give what validate gives."""
    dd = pytest.importorskip("dask.dataframe")
    db = pytest.importorskip("dask.bag")
    pd = pytest.importorskip("pandas")
    import fastxfen.dask as fxd

    rows = corpus[0][:200]
    want_all = fx.validate(rows, legal=True)
    lines = [row + ("\r\n" if i % 3 == 0 else "\n") for i, row in enumerate(rows)]
    assert fxd.validate_lines(lines, legal=True) == want_all
    assert fxd.validate_lines([x.encode() for x in lines], legal=True) == want_all
    assert fxd.validate_lines(lines) == fx.validate(rows)
    series = pd.Series(rows, dtype="string[pyarrow]")
    assert fxd.validate_series(series, legal=True).tolist() == want_all
    assert (
        fxd.validate_bag(db.from_sequence(lines, npartitions=3), legal=True).compute() == want_all
    )
    frame = dd.from_pandas(pd.DataFrame({"fen": series}), npartitions=3)
    assert fxd.validate_column(frame, "fen", legal=True).compute().tolist() == want_all


def test_epd_rows():
    rows = ['k7/8/8/8/8/8/8/R3K3 w - - bm Ra8+; id "x";', '4k3/8/8/8/8/8/8/4K3 w K - id "y";']
    assert fx.validate(rows, epd=True) == [None, None]
    assert fx.validate(rows, epd=True, legal=True) == [
        "column 0 (placement): illegal position: opposite check",
        "column 22 (castling): illegal position: bad castling rights",
    ]


def test_off_by_default():
    row = "k7/8/8/8/8/8/8/R3K3 w - - 0 1"
    assert fx.validate([row]) == [None] and fx.validate(row) is None
    assert fx.normalize(row) == row
    with pytest.raises(ValueError, match="legal must be True or False"):
        fx.validate(row, legal="yes")


def run(*argv):
    return cli.main([str(a) for a in argv])


def messages(text):
    """{line: message} of validate's output."""
    out = {}
    for line in text.splitlines():
        number, _, message = line.partition(": ")
        out[int(number)] = message
    return out


def test_the_command(corpus, tmp_path, capsys):
    rows, _ = corpus
    library = fx.validate(rows, legal=True)
    path = tmp_path / "rows.fen"
    path.write_text("\n".join(rows) + "\n")
    assert run("validate", path, "--legal", "--chunk-size", "4K") == 1
    got = messages(capsys.readouterr().out)
    assert got == {i + 1: m for i, m in enumerate(library) if m is not None}
    assert run("validate", path) == 1
    assert set(messages(capsys.readouterr().out)) == {401, 402}
    pq = pytest.importorskip("pyarrow.parquet")
    table = tmp_path / "rows.parquet"
    pq.write_table(pa.table({"id": list(range(len(rows))), "fen": rows}), table)
    assert run("validate", table, "--legal", "--chunk-size", "4K") == 1
    assert messages(capsys.readouterr().out) == got
    out = tmp_path / "reasons.parquet"
    assert run("validate", table, "--legal", "--reasons-column", "why", "-o", out) == 1
    assert pq.read_table(out).column("why").to_pylist() == library
