"""The error raised for a rejected row, and the few ways every path makes it:
with the core's code (``fen_error``), moved to another row (``renumbered``),
or found by running one row again (``rerun_error``, ``raise_by_rerun``)."""

import re
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
        Made from its message alone (as polars makes an error again to raise
        it from a query), it reads them back from the message.

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
    code: Optional[int] = None
    index: int
    column: int
    field: str
    reason: str

    def __init__(
        self, index: Any, column: Any = None, field: Any = None, reason: Any = None
    ) -> None:
        if column is None and field is None and reason is None and isinstance(index, str):
            # the message alone: how libraries that raise an error again by
            # its type and message (polars) make it
            super().__init__(index)
            index, column, field, reason = _parsed(index)
            self.code = _RECENT_CODES.get(str(self).split("\n", 1)[0])
        else:
            super().__init__(f"row {index}, column {column} ({field}): {reason}")
        self.index = index
        self.column = column
        self.field = field
        self.reason = reason

    @property
    def location(self) -> str:
        """``column C (field)``, the part of the message that is not the row."""
        return f"column {self.column} ({self.field})"

    def __reduce__(self):
        return (type(self), (self.index, self.column, self.field, self.reason), vars(self))


_MESSAGE = re.compile(r"row (-?\d+), column (-?\d+) \((.*?)\): (.*)")


def _parsed(message: str) -> tuple:
    """(index, column, field, reason) of a FenError's message (its first
    line), or four Nones for another message."""
    found = _MESSAGE.fullmatch(message.split("\n", 1)[0])
    if found is None:
        return None, None, None, None
    return int(found[1]), int(found[2]), found[3], found[4]


#: The code of the errors made lately, by message: a FenError made again
#: from its message alone (polars does so) finds its code here.
_RECENT_CODES: dict = {}
_RECENT_MAX = 1024


def fen_error(
    index: int, column: int, field: str, reason: str, code: Optional[int] = None
) -> FenError:
    """A FenError carrying the C core's ``code`` (``FX_E_*``, or ``FX_X_E_*`` of
    the export formats), or None for a mistake the glue finds (a row that is
    not text, a missing value)."""
    error = FenError(index, column, field, reason)
    error.code = code
    if code is not None:
        if len(_RECENT_CODES) >= _RECENT_MAX:
            _RECENT_CODES.clear()
        _RECENT_CODES[str(error)] = code
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
