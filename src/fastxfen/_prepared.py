"""The public functions with their options built once, for the dataframe and
SQL integrations (``fastxfen.pandas``, ``fastxfen.polars``,
``fastxfen.duckdb``), which apply them to column after column.

Each builder checks its options when it is called, with the messages of the
public function of the same name, and gives a function of one column (a
pandas or polars Series, or an Arrow column) that runs the work on those
values without checking them again: a lazy polars query refuses a bad
option when the expression is written, not when it runs.  The builders take
every option by name and have no defaults: the integrations' signatures
(``Methods``) hold them, as the public functions' do.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

from fastxfen import _options, _paths, keys
from fastxfen._inputs import read_as_text
from fastxfen._types import Castling, EnPassant, Errors, Fields, RecordErrors

__all__ = ["Methods", "encode", "key", "normalize", "validate", "zobrist"]

Run = Callable[[Any], Any]


def normalize(
    *, castling: Any, en_passant: Any, errors: Any, threads: Any, epd: Any, fields: Any
) -> Run:
    """``fastxfen.normalize`` with these options."""
    text = _options.text_options(castling, en_passant, fields, epd)
    return _normalizing(text, _options.errors(errors), _options.threads_of(threads))


def _normalizing(text: _options.TextOptions, mode: _options.ErrorsMode, asked: Any) -> Run:
    def run(column: Any) -> Any:
        return _paths.normalize(column, read_as_text(column, text.epd), text, mode, asked, None)

    return run


def encode(*, width: Any, errors: Any, threads: Any, epd: Any, out: Any = None) -> Run:
    """``fastxfen.encode`` with these options."""
    records = _options.record_options(width, epd)
    mode = _options.record_errors(errors)
    asked = _options.threads_of(threads)

    def run(column: Any) -> Any:
        kind = read_as_text(column, records.epd)
        return _paths.encode(column, kind, records, mode, asked, out)

    return run


def validate(*, threads: Any, epd: Any, legal: Any = False) -> Run:
    """``fastxfen.validate`` with these options: a Series gives a Series, an
    Arrow column a list."""
    asked = _options.threads_of(threads)
    checked = _options.legal(legal)

    def run(column: Any) -> Any:
        return _paths.validate(column, read_as_text(column, epd), epd, asked, checked)

    return run


def zobrist(*, errors: Any, threads: Any) -> Run:
    """``fastxfen.zobrist`` with these options."""
    mode = _options.record_errors(errors)
    count = _options.threads_of(threads).asked

    def run(column: Any) -> Any:
        return keys.zobrist(column, errors=mode, threads=count)

    return run


def key(*, counters: Any, en_passant: Any, errors: Any, threads: Any) -> Run:
    """The canonical text of each row's position as ``fastxfen.unique``
    tells positions apart (docs/keys.md): ``normalize`` with X-FEN
    castling, the en-passant targets ``en_passant`` keeps and 4 fields (6
    with ``counters``).  Equal text is the same position and a different
    text a different one, so the text groups rows exactly where a hash
    would merge two positions whose keys collide.  A missing row, or a bad
    one under errors="coerce", has no key (null)."""
    same = _options.KeyOptions(counters, en_passant)
    fields = 6 if same.counters else 4
    text = _options.text_options(_options.CastlingMode.XFEN, same.en_passant, fields, False)
    return _normalizing(text, _options.record_errors(errors), _options.threads_of(threads))


class Methods:
    """The methods of every integration's namespace (pandas ``Series.fen``,
    polars ``Expr.fen`` and ``Series.fen``), each with every option of the
    function it stands for and its default.  A subclass says how a run is
    applied: ``_apply(run, result)``, ``result`` naming what the run gives
    ("text", "keys")."""

    def _apply(self, run: Run, result: str) -> Any:
        raise NotImplementedError

    def normalize(
        self,
        *,
        castling: Castling = "xfen",
        en_passant: EnPassant = "xfen",
        errors: Errors = "raise",
        threads: Optional[int] = None,
        epd: bool = False,
        fields: Fields = 6,
    ) -> Any:
        """Canonical text, as ``fastxfen.normalize``; missing values stay
        missing."""
        run = normalize(
            castling=castling,
            en_passant=en_passant,
            errors=errors,
            threads=threads,
            epd=epd,
            fields=fields,
        )
        return self._apply(run, "text")

    def validate(
        self, *, threads: Optional[int] = None, epd: bool = False, legal: bool = False
    ) -> Any:
        """Per row, missing or ``"column C (field): reason"``, as
        ``fastxfen.validate`` (a missing row is valid; ``legal=True`` also
        checks each position's legality)."""
        return self._apply(validate(threads=threads, epd=epd, legal=legal), "text")

    def zobrist(self, *, errors: RecordErrors = "raise", threads: Optional[int] = None) -> Any:
        """Position keys, as ``fastxfen.zobrist``: ``uint64``, missing where
        the input is missing (0 for a bad row under ``errors="coerce"``)."""
        return self._apply(zobrist(errors=errors, threads=threads), "keys")

    def key(
        self,
        *,
        counters: bool = False,
        en_passant: EnPassant = "xfen",
        errors: RecordErrors = "raise",
        threads: Optional[int] = None,
    ) -> Any:
        """The canonical text of each row's position (4 fields, 6 with
        ``counters``): equal for the rows ``fastxfen.unique`` takes for one
        position and only for them, so grouping on it groups positions
        exactly.  Missing for a missing row (and a bad one under
        ``errors="coerce"``)."""
        run = key(counters=counters, en_passant=en_passant, errors=errors, threads=threads)
        return self._apply(run, "text")
