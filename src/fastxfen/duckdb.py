"""fastxfen as DuckDB SQL functions.

``fastxfen.duckdb.register(con)`` adds, on that connection:

- ``fen_normalize(fen [, castling [, en_passant]])``: canonical text; a row
  that cannot be read stops the query with an error quoting it.
- ``try_fen_normalize(...)``: the same, NULL for such a row.
- ``fen_validate(fen)``: NULL or ``'column C (field): reason'``.
- ``fen_zobrist(fen)``: a ``UBIGINT`` position key.

They are vectorized: DuckDB hands them Arrow columns, which go straight to
the kernels.  NULL in gives NULL out.  See docs/dataframes.md.
"""

from __future__ import annotations

from typing import Any, Callable, NoReturn, Optional

try:
    import duckdb
    import pyarrow as pa
    import pyarrow.compute as pc
except ImportError:
    raise ImportError(
        "fastxfen.duckdb needs duckdb and pyarrow: pip install 'fastxfen[duckdb]'"
    ) from None

from fastxfen import _api
from fastxfen._errors import FenError
from fastxfen._frames import nullable_keys
from fastxfen.keys import zobrist

__all__ = ["register"]

# The UDF behind fen_normalize and try_fen_normalize, whose SQL macros give
# the optional arguments their defaults (a Python UDF has one arity).
_NORMALIZE = "fastxfen_normalize"


def _option(values: Any, function: str, name: str) -> Optional[str]:
    """The one value of an option column (DuckDB passes a constant argument
    as a column repeating it); None for an empty call."""
    if not len(values):
        return None
    if values.null_count:
        raise ValueError(f"{function}: {name} must not be NULL")
    distinct = pc.unique(values)
    if len(distinct) > 1:
        found = ", ".join(repr(v) for v in distinct.to_pylist()[:3])
        raise ValueError(f"{function}: {name} must be the same for every row, got {found}")
    return distinct[0].as_py()


def _reraise(function: str, fens: Any, error: FenError) -> NoReturn:
    """A FenError again, quoting the text: DuckDB calls the function once per
    vector of rows, so the row number in the error would mislead."""
    text = fens[error.index].as_py()
    raise ValueError(
        f"{function}: cannot read {text!r}: {error.location}: {error.reason}"
    ) from None


def _normalize(fens: Any, castling: Any, en_passant: Any, errors: Any) -> Any:
    mode = _option(errors, "fen_normalize", "errors")
    if mode is None:
        return pa.array([], pa.string())
    function = "fen_normalize" if mode == "raise" else "try_fen_normalize"
    options = {
        "castling": _option(castling, function, "castling"),
        "en_passant": _option(en_passant, function, "en_passant"),
    }
    try:
        return _api.normalize(fens, errors=mode, threads=1, **options)
    except FenError as e:
        _reraise(function, fens, e)


def _validate(fens: Any) -> Any:
    return pa.array(_api.validate(fens, threads=1), pa.string())


def _zobrist(fens: Any) -> Any:
    try:
        result = nullable_keys(zobrist, fens, threads=1)
    except FenError as e:
        _reraise("fen_zobrist", fens, e)
    if isinstance(result, tuple):
        values, missing = result
        return pa.array(values, pa.uint64(), mask=missing)
    return pa.array(result, pa.uint64())


def _create(con: Any, name: str, fn: Callable[..., Any], params: list, returns: str) -> None:
    """Register fn as a vectorized function, replacing one of that name."""
    try:
        con.remove_function(name)
    except duckdb.Error:
        pass
    con.create_function(
        name, fn, params, returns, type="arrow", null_handling="special", side_effects=False
    )


def _macro(con: Any, name: str, errors: str) -> None:
    """A fen_normalize-style macro of 1, 2 or 3 arguments over the UDF."""

    def call(castling: str, en_passant: str) -> str:
        return f"{_NORMALIZE}(fen, {castling}, {en_passant}, '{errors}')"

    default = "'xfen'"
    con.execute(
        f"CREATE OR REPLACE TEMP MACRO {name}(fen) AS {call(default, default)}, "
        f"(fen, castling) AS {call('castling', default)}, "
        f"(fen, castling, en_passant) AS {call('castling', 'en_passant')}"
    )


def register(con: Any) -> Any:
    """Add the fastxfen SQL functions to a DuckDB connection; gives ``con``.

    Registering again replaces them.
    """
    text = "VARCHAR"
    _create(con, _NORMALIZE, _normalize, [text] * 4, text)
    _macro(con, "fen_normalize", "raise")
    _macro(con, "try_fen_normalize", "coerce")
    _create(con, "fen_validate", _validate, [text], text)
    _create(con, "fen_zobrist", _zobrist, [text], "UBIGINT")
    return con
