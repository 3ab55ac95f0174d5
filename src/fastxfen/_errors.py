"""The error raised for a rejected row."""

__all__ = ["FenError"]


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
        ``code`` is the C core's error code (``FX_E_*``) when the core refused
        the row, else ``None``.

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

    #: The C core's error code (FX_E_* of core/fx.h) when the core refused
    #: the row, else None: what code, rather than message text, can test.
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
