"""What a run over files does to each row: one frozen value per task, made
from the options a caller writes and holding them as the library's option
values (fastxfen._options: TextOptions, RecordOptions, KeyOptions, the
modes), each checked once, when the task is made (ValueError, one message
per mistake).  ``engine.run`` takes a task, the input and output, and the
Settings."""

from __future__ import annotations

from typing import Any, ClassVar, Optional

from fastxfen import _options
from fastxfen._options import (
    ErrorsMode,
    KeyOptions,
    PgnSelect,
    RecordOptions,
    TextOptions,
)
from fastxfen.files.binary_formats import BinaryFormat, Records
from fastxfen.files.values import Value, column_name

#: The default binary format: 8-wide position records.
RECORDS = Records()
_TEXT_ERRORS = (ErrorsMode.RAISE, ErrorsMode.COERCE, ErrorsMode.IGNORE)
_RECORD_ERRORS = (ErrorsMode.RAISE, ErrorsMode.COERCE)


def _flag(name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be True or False, not {value!r}")
    return value


class Task(Value):
    """A task: ``command`` names it (and the command that runs it);
    ``ERRORS`` are the errors modes it takes, the first its default (none:
    it takes no mode)."""

    command: ClassVar[str]
    ERRORS: ClassVar[tuple] = _TEXT_ERRORS

    def errors(self, given: Optional[ErrorsMode]) -> Optional[ErrorsMode]:
        """The errors mode of a run: ``given`` (an ErrorsMode of Settings),
        else the default; ValueError for a mode the task does not take."""
        if not self.ERRORS:
            if given is not None:
                raise ValueError(
                    f"{self.command} takes no errors mode, not {_options.text(given)!r}"
                )
            return None
        if given is None:
            return self.ERRORS[0]
        if given not in self.ERRORS:
            _options.record_errors(given)  # raises its message
        return given


class Normalize(Task):
    """Every row in canonical form (``unique``: only the first occurrence of
    each position, ``counters`` counting in its sameness); a table's result
    in place of its column, or in a new column ``to_column`` after it."""

    command: ClassVar[str] = "normalize"
    _fields = ("text", "unique", "keys", "to_column")
    text: TextOptions
    unique: bool
    keys: Optional[KeyOptions]
    to_column: Optional[str]

    def __init__(
        self,
        castling: Any = "xfen",
        en_passant: Any = "xfen",
        fields: Any = 6,
        epd: Any = False,
        unique: Any = False,
        counters: Any = False,
        to_column: Optional[str] = None,
    ) -> None:
        text = TextOptions(castling, en_passant, fields, _flag("epd", epd))
        if _flag("counters", counters) and not _flag("unique", unique):
            raise ValueError("--counters applies with --unique")
        keys = KeyOptions(counters, text.en_passant) if unique else None
        self._set(
            text=text, unique=unique, keys=keys, to_column=column_name("to_column", to_column)
        )


class Validate(Task):
    """A message for every row that cannot be read (a table: or the table
    with a column ``reasons_column`` of reasons); with ``legal``, for every
    position that is not legal too (fastxfen.validate's ``legal``)."""

    command: ClassVar[str] = "validate"
    _fields = ("text", "reasons_column", "legal")
    ERRORS: ClassVar[tuple] = ()
    text: TextOptions
    reasons_column: Optional[str]
    legal: bool

    def __init__(
        self, epd: Any = False, reasons_column: Optional[str] = None, legal: Any = False
    ) -> None:
        text = TextOptions(epd=_flag("epd", epd))
        self._set(text=text, reasons_column=column_name("reasons_column", reasons_column))
        self._set(legal=_options.legal(legal))


class Encode(Task):
    """Each row as a row of the binary ``format``."""

    command: ClassVar[str] = "encode"
    _fields = ("format", "records")
    ERRORS: ClassVar[tuple] = _RECORD_ERRORS
    format: BinaryFormat
    records: RecordOptions

    def __init__(self, format: BinaryFormat = RECORDS, epd: Any = False) -> None:
        if not isinstance(format, BinaryFormat):
            raise ValueError(f"format must be a binary format, not {format!r}")
        format.check_encoding()
        self._set(format=format, records=RecordOptions(format.record_width, _flag("epd", epd)))


class Decode(Task):
    """The canonical text of each row of a file of the binary ``format``."""

    command: ClassVar[str] = "decode"
    _fields = ("format", "text")
    ERRORS: ClassVar[tuple] = _RECORD_ERRORS
    format: BinaryFormat
    text: TextOptions

    def __init__(
        self,
        format: BinaryFormat = RECORDS,
        castling: Any = "xfen",
        en_passant: Any = "xfen",
        fields: Any = 6,
    ) -> None:
        if not isinstance(format, BinaryFormat) or not format.decodes:
            raise ValueError(f"format must be a binary format decode reads, not {format!r}")
        format.check_decoding()
        self._set(format=format, text=TextOptions.of_records(castling, en_passant, fields))


class Dedupe(Task):
    """The rows holding the first occurrence of their position, unchanged
    (sameness as fastxfen.Deduper's, with ``en_passant`` and ``counters``)."""

    command: ClassVar[str] = "dedupe"
    _fields = ("keys", "records")
    keys: KeyOptions
    records: RecordOptions

    def __init__(self, en_passant: Any = "xfen", counters: Any = False, epd: Any = False) -> None:
        keys = KeyOptions(_flag("counters", counters), en_passant)
        self._set(keys=keys, records=RecordOptions(10, _flag("epd", epd)))


class Pgn(Task):
    """The FEN tags of a PGN file normalized; ``select`` "standard" or
    "setup" keeps only the games without or with one."""

    command: ClassVar[str] = "pgn"
    _fields = ("text", "select")
    text: TextOptions
    select: PgnSelect

    def __init__(self, castling: Any = "xfen", en_passant: Any = "xfen", select: Any = None):
        self._set(text=TextOptions(castling, en_passant), select=_options.pgn_select(select))
