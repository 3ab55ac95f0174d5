"""The error raised for a rejected row."""

__all__ = ["FenError"]


class FenError(ValueError):
    """A row that could not be read.

    ``index`` is the row, ``column`` the 0-based offset where reading failed,
    ``field`` the field being read and ``reason`` what was wrong.
    """

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
