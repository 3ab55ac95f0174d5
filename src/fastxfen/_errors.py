"""The error raised for a rejected row, and the few ways every path makes it:
with the core's code (``fen_error``), moved to another row (``renumbered``),
or found by running one row again (``rerun_error``, ``raise_by_rerun``)."""

from typing import Any, Callable, Iterable, Optional, Sequence

__all__ = ["FenError", "fen_error", "raise_by_rerun", "renumbered", "rerun_error"]


class FenError(ValueError):
    """A row that could not be read.

    Parameters
    ----------
    index : int
        The 0-based row (line of a buffer, element of a list or array).
    column : int
        The 0-based character offset in the row where reading failed.
    field : str
        The field being read: ``placement``, ``side``, ``castling``,
        ``en_passant``, ``halfmove``, ``fullmove``, ``operations`` (EPD),
        ``record.*`` for a record, and so on.
    reason : str
        What was wrong, in words.

    Returns
    -------
    FenError
        A ``ValueError``; its message is ``row I, column C (field): reason``.
        ``code`` is the C core's error code (``FX_E_*``, or ``FX_X_E_*`` for
        the export formats) when the core refused the row, else ``None``.

    Examples
    --------
    >>> import fastxfen as fx
    >>> try:
    ...     fx.normalize("8/8/8 w - - 0 1")
    ... except fx.FenError as error:
    ...     print(error.index, error.field)
    ...     print(error)
    0 placement
    row 0, column 5 (placement): 3 ranks, expected 8
    """

    # Tracebacks and reprs name the class where users import it from; pickle
    # finds it there too.
    __module__ = "fastxfen"

    #: The C core's error code (FX_E_* of core/fx.h, FX_X_E_* of
    #: core/export.h) when the core refused the row, else None: what code,
    #: rather than message text, can test.  fen_error sets it.
    code = None

    def __init__(self, index: int, column: int, field: str, reason: str) -> None:
        self.index = index
        self.column = column
        self.field = field
        self.reason = reason
        super().__init__(f"row {index}, {self.location}: {reason}")

    @property
    def location(self) -> str:
        """``column C (field)``, the part of the message that is not the row."""
        return f"column {self.column} ({self.field})"

    def __reduce__(self):
        return (type(self), (self.index, self.column, self.field, self.reason), vars(self))


def fen_error(
    index: int, column: int, field: str, reason: str, code: Optional[int] = None
) -> FenError:
    """A FenError carrying the C core's ``code`` (``FX_E_*``, or ``FX_X_E_*`` of
    the export formats), or None for a mistake the glue finds (a row that is
    not text, a missing value)."""
    error = FenError(index, column, field, reason)
    error.code = code
    return error


def renumbered(error: FenError, index: int) -> FenError:
    """``error`` as the error of row ``index``: the same column, field,
    reason and code."""
    return fen_error(index, error.column, error.field, error.reason, error.code)


def rerun_error(run_one: Callable[[Any], Any], value: Any, index: int) -> Optional[FenError]:
    """The error of one row that a run under errors="coerce" refused (or left
    to be read on its own): ``run_one(value)`` runs that row alone under
    errors="raise"; its FenError, as row ``index``, or None if it passes."""
    try:
        run_one(value)
    except FenError as error:
        return renumbered(error, index)
    return None


def raise_by_rerun(
    run_one: Callable[[Any], Any], values: Sequence[Any], rows: Iterable[int]
) -> None:
    """errors="raise" for a run made under "coerce" (so that the rows before
    the first bad one are done, or because the kernel reads some rows
    apart): raise the error of the first of ``rows`` (ascending; the rows the
    run refused or left aside) that ``run_one`` refuses when it runs
    ``values[row]`` alone (``rerun_error``)."""
    for row in rows:
        error = rerun_error(run_one, values[row], row)
        if error is not None:
            raise error
