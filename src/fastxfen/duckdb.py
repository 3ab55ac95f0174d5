"""fastxfen as DuckDB SQL functions.

``fastxfen.duckdb.register(con)`` adds, on that connection, each function
with the options of the Python function of the same name as further
arguments, with the same defaults (``FUNCTIONS``):

- ``fen_normalize(fen, castling, en_passant, errors, epd, fields)``:
  canonical text; a row that cannot be read stops the query with an error
  quoting it (``errors := 'raise'``).
- ``try_fen_normalize(...)``: the same under ``errors := 'coerce'``, NULL
  for such a row.
- ``fen_validate(fen, epd, legal)``: NULL or ``'column C (field): reason'``.
- ``fen_encode(fen, width, errors, epd)``: a record's bytes (``BLOB``).
- ``fen_zobrist(fen, errors)``: a ``UBIGINT`` position key.
- ``fen_key(fen, counters, en_passant, errors)``: the canonical text of a
  position, for ``GROUP BY`` and ``DISTINCT ON``: equal exactly for the
  rows ``fastxfen.unique`` takes for one position.

Options go by position or by name (``fen_normalize(fen, fields := 4)``).
The functions are vectorized: DuckDB hands them Arrow columns, which go
straight to the kernels.  NULL in gives NULL out.  See docs/dataframes.md.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, NamedTuple, NoReturn

try:
    import duckdb
    import pyarrow as pa
    import pyarrow.compute as pc
except ImportError:
    raise ImportError(
        "fastxfen.duckdb needs duckdb and pyarrow: pip install 'fastxfen[duckdb]'"
    ) from None

from fastxfen import _prepared
from fastxfen._errors import FenError
from fastxfen._frames import nullable_keys, records_binary

__all__ = ["FUNCTIONS", "Function", "register"]


class Function(NamedTuple):
    """A SQL function: its options as (name, SQL type, default as SQL
    writes it), in the order they go by position, what it returns, and
    ``run(fens, **options)``, an Arrow column for an Arrow column."""

    options: tuple
    returns: str
    run: Callable[..., Any]


def _normalize(fens: Any, **options: Any) -> Any:
    return _prepared.normalize(threads=1, **options)(fens)


def _validate(fens: Any, epd: bool, legal: bool) -> Any:
    return pa.array(_prepared.validate(threads=1, epd=epd, legal=legal)(fens), pa.string())


def _encode(fens: Any, **options: Any) -> Any:
    return records_binary(_prepared.encode(threads=1, **options)(fens))


def _zobrist(fens: Any, errors: str) -> Any:
    result = nullable_keys(_prepared.zobrist(errors=errors, threads=1), fens)
    if isinstance(result, tuple):
        values, missing = result
        return pa.array(values, pa.uint64(), mask=missing)
    return pa.array(result, pa.uint64())


def _key(fens: Any, **options: Any) -> Any:
    return _prepared.key(threads=1, **options)(fens)


_CASTLING = ("castling", "VARCHAR", "'xfen'")
_EN_PASSANT = ("en_passant", "VARCHAR", "'xfen'")
_ERRORS = ("errors", "VARCHAR", "'raise'")
_EPD = ("epd", "BOOLEAN", "false")

#: The SQL functions by name.  ``try_fen_normalize`` is ``fen_normalize``
#: with ``errors`` set to ``'coerce'``.  ``threads`` is not an option:
#: DuckDB runs a query on its own threads and calls a function once per
#: vector of rows.
FUNCTIONS = {
    "fen_normalize": Function(
        (_CASTLING, _EN_PASSANT, _ERRORS, _EPD, ("fields", "VARCHAR", "6")), "VARCHAR", _normalize
    ),
    "fen_validate": Function((_EPD, ("legal", "BOOLEAN", "false")), "VARCHAR", _validate),
    "fen_encode": Function((("width", "INTEGER", "8"), _ERRORS, _EPD), "BLOB", _encode),
    "fen_zobrist": Function((_ERRORS,), "UBIGINT", _zobrist),
    "fen_key": Function((("counters", "BOOLEAN", "false"), _EN_PASSANT, _ERRORS), "VARCHAR", _key),
}
#: The Arrow type of an empty result, by SQL type.
_ARROW_TYPES = {"VARCHAR": pa.string(), "BLOB": pa.large_binary(), "UBIGINT": pa.uint64()}
#: The Python function behind each SQL function: ``fastxfen_`` and the
#: name without ``fen_``, taking every option by position.
_PREFIX = "fastxfen_"


def _option(values: Any, function: str, name: str) -> Any:
    """The one value of an option column (DuckDB passes a constant argument
    as a column repeating it)."""
    if values.null_count:
        raise ValueError(f"{function}: {name} must not be NULL")
    distinct = pc.unique(values)
    if len(distinct) > 1:
        found = ", ".join(repr(v) for v in distinct.to_pylist()[:3])
        raise ValueError(f"{function}: {name} must be the same for every row, got {found}")
    value = distinct[0].as_py()
    if name == "fields" and value.isdigit():  # fields goes as text: 4, 6 or 'same'
        return int(value)
    return value


def _reraise(function: str, fens: Any, error: FenError) -> NoReturn:
    """A FenError again, quoting the text: DuckDB calls the function once per
    vector of rows, so the row number in the error would mislead."""
    text = fens[error.index].as_py()
    raise ValueError(
        f"{function}: cannot read {text!r}: {error.location}: {error.reason}"
    ) from None


def _udf(sql: str, function: Function) -> Callable[..., Any]:
    """The Python function DuckDB calls for ``sql``: the options' values
    out of their columns, then ``function.run``."""
    names = [name for name, _, _ in function.options]

    def udf(fens: Any, *columns: Any) -> Any:
        if not len(fens):
            return pa.nulls(0, _ARROW_TYPES[function.returns])
        options = {name: _option(c, sql, name) for name, c in zip(names, columns)}
        try:
            return function.run(fens, **options)
        except FenError as e:  # never under errors='coerce' (try_fen_normalize)
            _reraise(sql, fens, e)

    # DuckDB counts the parameters: one per column it hands over
    positional = inspect.Parameter.POSITIONAL_ONLY
    params = [inspect.Parameter(name, positional) for name in ["fen", *names]]
    udf.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    return udf


def _create(con: Any, name: str, fn: Callable[..., Any], params: list, returns: str) -> None:
    """Register fn as a vectorized function, replacing one of that name."""
    try:
        con.remove_function(name)
    except duckdb.Error:
        pass
    con.create_function(
        name, fn, params, returns, type="arrow", null_handling="special", side_effects=False
    )


def _positional_defaults(con: Any) -> bool:
    """Whether this DuckDB fills a macro's defaulted parameters by position
    too (DuckDB 1.1 takes them by name only)."""
    probe = "fastxfen_probe"
    con.execute(f"CREATE OR REPLACE TEMP MACRO {probe}(a, b := 0) AS b")
    try:
        con.execute(f"SELECT {probe}(1, 2)").fetchall()
        return True
    except duckdb.Error:
        return False
    finally:
        con.execute(f"DROP MACRO {probe}")


def _macro(con: Any, name: str, udf: str, options: tuple, fixed: dict, positional: bool) -> None:
    """The SQL macro ``name(fen, option := default, ...)`` over ``udf``,
    the options in ``fixed`` set to their value.  Where the defaulted
    parameters go by name only, one overload per number of options given
    by position."""
    free = [option for option in options if option[0] not in fixed]
    args = ", ".join(
        fixed.get(option, f"CAST({option} AS VARCHAR)" if option == "fields" else option)
        for option, _, _ in options
    )
    body = f"{udf}(fen, {args})"
    counts = [0] if positional else range(len(free) + 1)
    overloads = []
    for given in counts:
        params = ["fen"] + [option for option, _, _ in free[:given]]
        params += [f"{option} := {default}" for option, _, default in free[given:]]
        overloads.append(f"({', '.join(params)}) AS {body}")
    con.execute(f"CREATE OR REPLACE TEMP MACRO {name}{', '.join(overloads)}")


def register(con: Any) -> Any:
    """Add the fastxfen SQL functions to a DuckDB connection; gives ``con``.

    Registering again replaces them.
    """
    positional = _positional_defaults(con)
    for sql, function in FUNCTIONS.items():
        udf = _PREFIX + sql[len("fen_") :]
        params = ["VARCHAR"] + [kind for _, kind, _ in function.options]
        _create(con, udf, _udf(sql, function), params, function.returns)
        _macro(con, sql, udf, function.options, {}, positional)
    normalize = FUNCTIONS["fen_normalize"]
    fixed = {"errors": "'coerce'"}
    _macro(con, "try_fen_normalize", _PREFIX + "normalize", normalize.options, fixed, positional)
    return con
