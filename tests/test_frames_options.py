"""Every option of normalize, encode, validate, zobrist and unique, with the
same defaults, the same results and the same errors, through the pandas
accessor, the polars namespace (expressions and Series) and the DuckDB SQL
functions.  The signatures are walked: an option added to a public function
and missing from an integration fails here."""

import inspect

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
from fastxfen.pandas import FenAccessor  # noqa: E402
from fastxfen.polars import FenExpr, FenSeries  # noqa: E402

CAPA = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
ROWS = positions(40, seed=23) + [
    None,
    BAD,
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha e3",
    "4k3/8/8/8/8/8/8/R3K2R w KQ - 7",
    CAPA,
]
EPD_ROWS = [
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 bm e5; id "x";',
    "4k3/8/8/8/8/8/8/R3K2R w HA - hmvc 7; fmvn 31;",
    None,
    "8/8/9/8/8/8/8/8 w - - bm e4;",
]

#: The core function whose options each integration method takes.
CORE = {
    "normalize": fx.normalize,
    "encode": fx.encode,
    "validate": fx.validate,
    "zobrist": fx.zobrist,
    "key": fx.unique,
    "duplicated": fx.unique,
    "unique": fx.unique,
    "is_first_distinct": fx.unique,
    "is_last_distinct": fx.unique,
}
#: Options an integration leaves out, and why: a Series gets a new Series
#: (no ``out``), an expression's value is a column (no ``out``), and DuckDB
#: runs a query on its own threads, a vector of rows per call.
LEFT_OUT = {
    "pandas": {"normalize": {"out"}},
    "polars.Series": {"normalize": {"out"}},
    "polars.Expr": {"normalize": {"out"}, "encode": {"out"}},
    "sql": {"normalize": {"out", "threads"}, "encode": {"out", "threads"}},
}
#: Options of an integration's own (pandas' duplicated keeps what
#: Series.duplicated keeps).
OWN = {("pandas", "duplicated"): {"keep"}}
INTEGRATIONS = {"pandas": FenAccessor, "polars.Expr": FenExpr, "polars.Series": FenSeries}
EVERYWHERE = ["normalize", "validate", "encode", "zobrist", "key"]
POLARS_DEDUPE = ["is_first_distinct", "is_last_distinct"]
METHODS = {
    "pandas": [*EVERYWHERE, "duplicated", "unique"],
    "polars.Expr": [*EVERYWHERE, *POLARS_DEDUPE],
    "polars.Series": [*EVERYWHERE, *POLARS_DEDUPE, "unique"],
}
SQL = {
    "fen_normalize": "normalize",
    "fen_validate": "validate",
    "fen_encode": "encode",
    "fen_zobrist": "zobrist",
    "fen_key": "key",
}


def options(fn, left_out=()):
    """{option: default} of a function or method, its first argument aside."""
    params = list(inspect.signature(fn).parameters.values())[1:]  # self, or the input
    return {p.name: p.default for p in params if p.name not in left_out}


def core_options(method, integration):
    left_out = LEFT_OUT.get(integration, {}).get(method, set())
    if integration == "sql":
        left_out = left_out | {"threads"}
    return options(CORE[method], left_out)


@pytest.mark.parametrize(
    "integration,method", [(i, m) for i, methods in METHODS.items() for m in methods]
)
def test_every_option_with_the_core_default(integration, method):
    got = options(getattr(INTEGRATIONS[integration], method))
    for own in OWN.get((integration, method), ()):
        got.pop(own)
    assert got == core_options(method, integration)


def test_every_core_function_is_in_every_integration():
    for integration, methods in METHODS.items():
        for name in ("normalize", "validate", "encode", "zobrist"):
            assert name in methods and hasattr(INTEGRATIONS[integration], name), integration
    assert set(SQL.values()) >= {"normalize", "validate", "encode", "zobrist", "key"}


def sql_default(text):
    """A SQL literal as Python reads it."""
    if text.startswith("'"):
        return text.strip("'")
    return {"false": False, "true": True}.get(text, None) if not text.isdigit() else int(text)


@pytest.mark.parametrize("function", sorted(SQL))
def test_sql_functions_take_every_option_with_the_core_default(function):
    spec = fxd.FUNCTIONS[function]
    got = {name: sql_default(default) for name, _, default in spec.options}
    assert got == core_options(SQL[function], "sql")
    con = fxd.register(duckdb.connect())
    rows = con.execute(
        "SELECT parameters FROM duckdb_functions() WHERE function_name = ?", [function]
    ).fetchall()
    # DuckDB 1.1 lists the defaulted parameters in no set order (one
    # overload per number of options given by position)
    assert rows and {tuple(sorted(r[0])) for r in rows} == {tuple(sorted(["fen", *got]))}
    try_rows = con.execute(
        "SELECT parameters FROM duckdb_functions() WHERE function_name = 'try_fen_normalize'"
    ).fetchall()
    assert "errors" not in try_rows[0][0] and "fields" in try_rows[0][0]


# ---------------------------------------------------------------- results


def _na(value):
    return None if value is None or value is pd.NA or value != value else value


def listed(result):
    """A result as a list, None where missing."""
    if isinstance(result, (pd.Series, pl.Series)):
        return [_na(v) for v in result.to_list()]
    if isinstance(result, np.ndarray):
        return result.tolist()
    return list(result)


def as_bytes(records):
    """numpy records as each record's bytes, None for the null record."""
    return [None if r["width"] == 0 else r.tobytes() for r in records]


def core(method, rows, **opts):
    """The core function's result for rows, as the integrations give it."""
    if method == "encode":
        return as_bytes(fx.encode(rows, **opts))
    if method == "zobrist":
        keys = fx.zobrist(rows, **opts).tolist()
        return [None if row is None else key for row, key in zip(rows, keys)]
    if method == "key":
        counters = opts.pop("counters", False)
        return fx.normalize(rows, fields=6 if counters else 4, **opts)
    return listed(
        fx.normalize(rows, **opts) if method == "normalize" else fx.validate(rows, **opts)
    )


def pandas_call(method, rows, **opts):
    result = getattr(pd.Series(rows, dtype=object).fen, method)(**opts)
    return as_bytes(result) if method == "encode" else listed(result)


def polars_series_call(method, rows, **opts):
    result = getattr(pl.Series("fen", rows, dtype=pl.String).fen, method)(**opts)
    return as_bytes(result) if method == "encode" else listed(result)


def polars_expr_call(method, rows, **opts):
    frame = pl.DataFrame({"fen": pl.Series(rows, dtype=pl.String)}).lazy()
    return listed(frame.select(getattr(pl.col("fen").fen, method)(**opts)).collect()["fen"])


def literal(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return f"'{value}'" if isinstance(value, str) else str(value)


def sql_call(method, rows, **opts):
    function = {v: k for k, v in SQL.items()}[method]
    con = fxd.register(duckdb.connect())
    con.register("t", pa.table({"i": list(range(len(rows))), "fen": pa.array(rows, pa.string())}))
    args = "".join(f", {name} := {literal(value)}" for name, value in opts.items())
    got = con.sql(f"SELECT {function}(fen{args}) FROM t ORDER BY i").fetchall()
    return [r[0] for r in got]


CALLS = {
    "pandas": pandas_call,
    "polars.Series": polars_series_call,
    "polars.Expr": polars_expr_call,
    "sql": sql_call,
}


def _grid():
    for castling in ("xfen", "shredder"):
        for en_passant in ("fen", "xfen", "legal"):
            for fields in (6, 4, "same"):
                errors = "ignore" if fields == "same" else "coerce"
                yield (
                    "normalize",
                    ROWS,
                    dict(castling=castling, en_passant=en_passant, fields=fields, errors=errors),
                )
    yield "normalize", EPD_ROWS, dict(epd=True, errors="coerce", castling="shredder")
    yield "normalize", ROWS, dict(errors="coerce", threads=2)
    yield "validate", ROWS, {}
    yield "validate", EPD_ROWS, dict(epd=True)
    for width in (8, 10):
        yield "encode", ROWS, dict(width=width, errors="coerce")
    yield "encode", EPD_ROWS, dict(epd=True, errors="coerce")
    yield "zobrist", ROWS, dict(errors="coerce")
    for counters in (False, True):
        for en_passant in ("fen", "xfen", "legal"):
            yield "key", ROWS, dict(counters=counters, en_passant=en_passant, errors="coerce")


GRID = list(_grid())


@pytest.mark.parametrize("integration", sorted(CALLS))
@pytest.mark.parametrize("case", range(len(GRID)))
def test_each_option_gives_the_core_result(integration, case):
    method, rows, opts = GRID[case]
    if integration == "sql":
        opts = {k: v for k, v in opts.items() if k != "threads"}
    assert CALLS[integration](method, rows, **opts) == core(method, rows, **opts)


@pytest.mark.parametrize("integration", sorted(CALLS))
@pytest.mark.parametrize("method", ["normalize", "encode", "zobrist", "key"])
def test_a_bad_row_raises_under_the_default(integration, method):
    rows = ROWS[:5] + [BAD]
    if integration == "sql":
        with pytest.raises(duckdb.Error, match=r"fen_\w+: cannot read .*column 18 \(placement\)"):
            sql_call(method, rows)
        return
    with pytest.raises(fx.FenError) as err:
        CALLS[integration](method, rows)
    assert err.value.index == 5 and err.value.field == "placement"


BAD_OPTIONS = [
    ("normalize", dict(castling="shreder")),
    ("normalize", dict(en_passant="legall")),
    ("normalize", dict(errors="ignor")),
    ("normalize", dict(fields=5)),
    ("encode", dict(width=9)),
    ("encode", dict(errors="ignore")),
    ("zobrist", dict(errors="coerced")),
    ("key", dict(en_passant="none")),
    ("key", dict(errors="ignore")),
    ("normalize", dict(threads=0)),
    ("validate", dict(threads=-1)),
]


def core_error(method, opts):
    call = CORE[method]
    with pytest.raises(ValueError) as err:
        call(ROWS[:2], **opts)
    return str(err.value)


@pytest.mark.parametrize("integration", sorted(CALLS))
@pytest.mark.parametrize("case", range(len(BAD_OPTIONS)))
def test_a_bad_option_gives_the_core_error(integration, case):
    method, opts = BAD_OPTIONS[case]
    message = core_error(method, opts)
    if integration == "sql":
        if "threads" in opts:
            return  # not an option in SQL
        with pytest.raises(duckdb.Error) as err:
            sql_call(method, ROWS[:2], **opts)
        assert message in str(err.value)
        return
    if integration == "polars.Expr":  # refused when the expression is made
        with pytest.raises(ValueError) as err:
            getattr(pl.col("fen").fen, method)(**opts)
        assert str(err.value) == message
        return
    with pytest.raises(ValueError) as err:
        CALLS[integration](method, ROWS[:2], **opts)
    assert str(err.value) == message


def test_sql_options_go_by_position_too():
    con = fxd.register(duckdb.connect())
    row = ROWS[42]
    got = con.execute("SELECT fen_normalize(?, 'shredder', 'fen', 'raise', false, 4)", [row])
    assert got.fetchone()[0] == fx.normalize(row, castling="shredder", en_passant="fen", fields=4)
    got = con.execute("SELECT fen_key(?, true, 'legal')", [row]).fetchone()[0]
    assert got == fx.normalize(row, en_passant="legal")
    named = con.execute("SELECT fen_normalize(?, 'shredder', fields := 'same')", [row])
    assert named.fetchone()[0] == fx.normalize(row, castling="shredder", fields="same")


def test_sql_options_must_be_one_value():
    con = fxd.register(duckdb.connect())
    sql = "SELECT fen_normalize(fen, fields := f) FROM (VALUES (?, 4), (?, 6)) t(fen, f)"
    with pytest.raises(duckdb.Error, match="fields must be the same for every row"):
        con.execute(sql, [ROWS[0], ROWS[1]]).fetchall()
    with pytest.raises(duckdb.Error, match="epd must not be NULL"):
        con.execute("SELECT fen_validate(?, epd := NULL)", [ROWS[0]]).fetchall()


def test_pandas_encode_out():
    out = np.zeros(3, fx.POSITION_DTYPE_10x8)
    s = pd.Series(ROWS[:3], dtype=object)
    assert s.fen.encode(width=10, out=out) is out
    assert out.tobytes() == fx.encode(ROWS[:3], width=10).tobytes()
