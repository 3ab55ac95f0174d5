"""What a run over files does to each row: one frozen value per task,
holding its options, checked when it is made (ValueError, one message per
mistake).  ``engine.run`` takes a task, the input and output, and the
Settings."""

from __future__ import annotations

import dataclasses
from typing import ClassVar, Optional

from fastxfen import _options, pgn
from fastxfen.files.binary_formats import BinaryFormat, Records


def _check_flag(name: str, value) -> None:
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be True or False, not {value!r}")


def _check_name(name: str, value) -> None:
    if value is not None and not isinstance(value, str):
        raise ValueError(f"{name} must be a column name or None, not {value!r}")


class Task:
    """A task: ``command`` names it (and the command that runs it);
    ``ERRORS`` are the modes of ``Settings.errors`` it takes, the first its
    default (none: it takes no mode)."""

    command: ClassVar[str]
    ERRORS: ClassVar[tuple] = _options.ERRORS

    def errors(self, given: Optional[str]) -> Optional[str]:
        """The errors mode of a run: ``given`` (checked), else the default."""
        if not self.ERRORS:
            if given is not None:
                raise ValueError(f"{self.command} takes no errors mode, not {given!r}")
            return None
        if given is None:
            return self.ERRORS[0]
        if self.ERRORS == _options.RECORD_ERRORS:
            return _options.record_errors(given)
        return _options.errors(given)


@dataclasses.dataclass(frozen=True)
class Normalize(Task):
    """Every row in canonical form (``unique``: only the first occurrence of
    each position, ``counters`` counting in its sameness); a table's result
    in place of its column, or in a new column ``to_column`` after it."""

    command: ClassVar[str] = "normalize"
    castling: str = "xfen"
    en_passant: str = "xfen"
    fields: object = 6
    epd: bool = False
    unique: bool = False
    counters: bool = False
    to_column: Optional[str] = None

    def __post_init__(self) -> None:
        _options.castling(self.castling)
        _options.en_passant(self.en_passant)
        _options.fields(self.fields)
        for name in ("epd", "unique", "counters"):
            _check_flag(name, getattr(self, name))
        _check_name("to_column", self.to_column)
        if self.counters and not self.unique:
            raise ValueError("--counters applies with --unique")


@dataclasses.dataclass(frozen=True)
class Validate(Task):
    """A message for every row that cannot be read (a table: or the table
    with a column ``reasons_column`` of reasons)."""

    command: ClassVar[str] = "validate"
    ERRORS: ClassVar[tuple] = ()
    epd: bool = False
    reasons_column: Optional[str] = None

    def __post_init__(self) -> None:
        _check_flag("epd", self.epd)
        _check_name("reasons_column", self.reasons_column)


@dataclasses.dataclass(frozen=True)
class Encode(Task):
    """Each row as a row of the binary ``format``."""

    command: ClassVar[str] = "encode"
    ERRORS: ClassVar[tuple] = _options.RECORD_ERRORS
    format: BinaryFormat = Records()
    epd: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.format, BinaryFormat):
            raise ValueError(f"format must be a binary format, not {self.format!r}")
        self.format.check_encoding()
        _check_flag("epd", self.epd)


@dataclasses.dataclass(frozen=True)
class Decode(Task):
    """The canonical text of each row of a file of the binary ``format``."""

    command: ClassVar[str] = "decode"
    ERRORS: ClassVar[tuple] = _options.RECORD_ERRORS
    format: BinaryFormat = Records()
    castling: str = "xfen"
    en_passant: str = "xfen"
    fields: int = 6

    def __post_init__(self) -> None:
        if not isinstance(self.format, BinaryFormat) or not self.format.decodes:
            raise ValueError(f"format must be a binary format decode reads, not {self.format!r}")
        self.format.check_decoding()
        _options.castling(self.castling)
        _options.en_passant(self.en_passant)
        _options.record_fields(self.fields)


@dataclasses.dataclass(frozen=True)
class Dedupe(Task):
    """The rows holding the first occurrence of their position, unchanged
    (sameness as fastxfen.Deduper's, with ``en_passant`` and ``counters``)."""

    command: ClassVar[str] = "dedupe"
    en_passant: str = "xfen"
    counters: bool = False
    epd: bool = False

    def __post_init__(self) -> None:
        _options.en_passant(self.en_passant)
        _check_flag("counters", self.counters)
        _check_flag("epd", self.epd)


@dataclasses.dataclass(frozen=True)
class Pgn(Task):
    """The FEN tags of a PGN file normalized; ``select`` "standard" or
    "setup" keeps only the games without or with one."""

    command: ClassVar[str] = "pgn"
    castling: str = "xfen"
    en_passant: str = "xfen"
    select: Optional[str] = None

    def __post_init__(self) -> None:
        _options.castling(self.castling)
        _options.en_passant(self.en_passant)
        if self.select is not None:
            _options.choice("select", self.select, pgn.SELECTIONS)
