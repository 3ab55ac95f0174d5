"""The error of an entry of training data that cannot be read or written
(fastxfen.training; exported by fastxfen)."""

from fastxfen._errors import FenError

__all__ = ["TrainingDataError"]


class TrainingDataError(FenError):
    """An entry of training data that could not be read or written.

    Parameters
    ----------
    reason : str
        What was wrong, in words.
    field : str
        The part of the entry: ``block``, ``chain``, ``position``, ``move``,
        ``score``, ``ply``, ``result``, ``rule50``, ``fullmove`` or ``line``.
    code : str, optional
        The core's name for the problem, such as ``"illegal"``.
    file : str, optional
        The file's path, ``None`` for a table or a file object without one.
    format : str, optional
        ``"binpack"``, ``"bin"`` or ``"plain"``.
    entry : int, optional
        Entries before it in the file or table (also ``index``).
    offset : int, optional
        Its byte offset in the file (also ``column``); ``None`` for a table.
    block, chain : int, optional
        For ``.binpack``: the block and chain, counted from 0.
    ply : int, optional
        For ``.binpack``: the entry's ply, when known.
    line : int, optional
        For ``.plain``: the line, counted from 1.

    Returns
    -------
    TrainingDataError
        A ``FenError`` (a ``ValueError``); its message names the file and
        the place, then the field and the reason.

    Raises
    ------
    Nothing
        It is what the readers and writers of ``fastxfen.training`` raise.

    Examples
    --------
    >>> import fastxfen as fx
    >>> error = fx.TrainingDataError("move e2e5 is not legal",
    ...     field="move", file="games.binpack", block=0, chain=3, ply=12, offset=4242)
    >>> print(error)
    games.binpack, block 0, chain 3, ply 12, byte 4242 (move): move e2e5 is not legal
    """

    __module__ = "fastxfen"

    #: For a position's text or record that could not be read, the
    #: ``FenError`` of the position reader (column and field in the text).
    position_error = None

    def __init__(
        self,
        reason,
        *,
        field,
        code=None,
        file=None,
        format=None,
        entry=None,
        offset=None,
        block=None,
        chain=None,
        ply=None,
        line=None,
    ):
        self.file, self.format, self.entry, self.offset = file, format, entry, offset
        self.block, self.chain, self.ply, self.line = block, chain, ply, line
        self.index, self.column, self.field, self.reason = entry, offset, field, reason
        self.code = code
        ValueError.__init__(self, f"{self.location}: {reason}")

    @property
    def location(self) -> str:
        """Where the entry is: file, block, chain, ply, entry, byte, field."""
        parts = [str(self.file)] if self.file is not None else []
        for name in ("block", "chain", "ply", "line", "entry"):
            value = getattr(self, name)
            if value is not None:
                label = "row" if name == "entry" and self.offset is None else name
                parts.append(f"{label} {value}")
        if self.offset is not None:
            parts.append(f"byte {self.offset}")
        return ", ".join(parts) + f" ({self.field})"

    def __reduce__(self):
        keys = (
            "field",
            "code",
            "file",
            "format",
            "entry",
            "offset",
            "block",
            "chain",
            "ply",
            "line",
        )
        return (_rebuild, (self.reason, {k: getattr(self, k) for k in keys}))


def _rebuild(reason, fields):
    return TrainingDataError(reason, **fields)
