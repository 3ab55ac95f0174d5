"""Options as values: each option of a public function, command or Dask task
is checked once, where it comes in, with one message per mistake, and becomes
a frozen value that everything below passes on and never checks again.

- The modes are ``IntEnum`` members whose numbers are the C core's
  (``ErrorsMode``, ``CastlingMode``, ``EnPassantMode``, ``PgnSelect``): the
  glue hands them to the core as they are.
- A value groups the options of one kind of work: ``TextOptions`` (the text
  written), ``RecordOptions`` (text read into records), ``KeyOptions`` (what
  makes two positions the same), ``PlaneOptions`` (the layout of plane
  tensors) and ``Threads`` (how many threads).  Errors are passed beside
  them as an ``ErrorsMode``, as a call may run a kernel under another mode
  than the one asked for.

Values are immutable, hashable, picklable (Dask ships them to its workers),
compared by their fields, and show the options they were built from::

    >>> TextOptions(castling="shredder", fields=4)
    TextOptions(castling='shredder', en_passant='xfen', fields=4, epd=False)

``threads`` follows one rule everywhere: ``None`` (automatic) or an ``int``
of at least 1; a larger number than the machine's CPUs is capped to them, so
no call ever starts more worker threads than there are CPUs.  Automatic
means one thread per ``rows_per_thread`` rows, at least one, at most the
CPUs (``Threads.resolve``).
"""

from __future__ import annotations

import enum
import functools
import os
from typing import Any, Optional

# ---------------------------------------------------------------- modes


class ErrorsMode(enum.IntEnum):
    """``errors``: what becomes of a bad row (FX_RAISE, ... of core/batch.h)."""

    RAISE = 0
    COERCE = 1
    IGNORE = 2


class CastlingMode(enum.IntEnum):
    """``castling``: how castling rights are written (fx_castling_mode)."""

    XFEN = 0
    SHREDDER = 1


class EnPassantMode(enum.IntEnum):
    """``en_passant``: which en-passant targets are kept (fx_ep_mode)."""

    FEN = 0
    XFEN = 1
    LEGAL = 2


class PgnSelect(enum.IntEnum):
    """``select`` of fastxfen.pgn: the games kept (PGN_SELECT_* of core/pgnscan.h)."""

    ALL = 0
    STANDARD = 1
    SETUP = 2


#: ``fields="same"`` as the core takes it (FX_FIELDS_SAME): each row keeps
#: the number of fields it came with.
FIELDS_SAME = 0


def _names(mode: type) -> dict:
    return {member.name.lower(): member for member in mode}


def text(value: Any) -> Any:
    """The option as a caller writes it: a mode's name, other values as they are."""
    return value.name.lower() if isinstance(value, enum.Enum) else value


_ERRORS = _names(ErrorsMode)
_CASTLING = _names(CastlingMode)
_EN_PASSANT = _names(EnPassantMode)

CASTLING = tuple(_CASTLING)
EN_PASSANT = tuple(_EN_PASSANT)
ERRORS = tuple(_ERRORS)
#: What a function giving records or binary rows accepts: there is no text
#: to pass through unchanged.
RECORD_ERRORS = ("raise", "coerce")
_RECORD_ERRORS = {name: _ERRORS[name] for name in RECORD_ERRORS}
OUTPUTS = ("list", "bytes", "arrow")
WIDTHS = (8, 10)
PACK_FORMATS = ("lichess", "stockfish")
PERSPECTIVES = ("white", "side_to_move")
SELECTIONS = ("standard", "setup")
#: The extra planes of plane tensors (in the order the core numbers them)
#: and the planes each takes.
EXTRA_PLANES = {
    "turn": 1,
    "castling": 4,
    "castling_rooks": 1,
    "en_passant": 1,
    "halfmove": 1,
    "halfmove_scaled": 1,
}
EXTRAS = tuple(EXTRA_PLANES)

#: Automatic threads for the library's batches: one per this many rows.
ROWS_PER_THREAD = 65536
#: Automatic threads for a command-line chunk (at most a few hundred thousand
#: rows): one per this many rows.
CHUNK_ROWS_PER_THREAD = 16384

# ---------------------------------------------------------------- one option each


def choice(name: str, value: Any, choices: tuple) -> Any:
    """``value`` if it is one of ``choices``, else ValueError naming them."""
    if isinstance(value, (str, int)) and not isinstance(value, bool) and value in choices:
        return value
    options = ", ".join(repr(c) for c in choices)
    raise ValueError(f"{name} must be one of {options}, not {value!r}")


def _mode(name: str, value: Any, kind: type, names: dict) -> Any:
    """The mode of ``kind`` named ``value`` (one of ``names``), or ``value``
    itself, such a mode already."""
    if isinstance(value, str):
        mode = names.get(value)
        if mode is not None:
            return mode
    elif type(value) is kind and text(value) in names:
        return value
    return choice(name, value, tuple(names))


def castling(value: Any) -> CastlingMode:
    """The castling field style: 'xfen' or 'shredder'."""
    return _mode("castling", value, CastlingMode, _CASTLING)


def en_passant(value: Any) -> EnPassantMode:
    """Which en-passant targets to keep: 'fen', 'xfen' or 'legal'."""
    return _mode("en_passant", value, EnPassantMode, _EN_PASSANT)


def errors(value: Any) -> ErrorsMode:
    """What to do with a bad row of text: 'raise', 'coerce' or 'ignore'."""
    if type(value) is str and value in _ERRORS:  # the usual case, first
        return _ERRORS[value]
    return _mode("errors", value, ErrorsMode, _ERRORS)


def record_errors(value: Any) -> ErrorsMode:
    """``errors`` of a function that gives records or binary rows: 'raise'
    or 'coerce' ('ignore' has no text to pass through)."""
    if type(value) is str and value in _RECORD_ERRORS:  # the usual case, first
        return _RECORD_ERRORS[value]
    if value == "ignore" or value is ErrorsMode.IGNORE:
        raise ValueError(
            "errors='ignore' passes text through; records have none (use 'raise' or 'coerce')"
        )
    return _mode("errors", value, ErrorsMode, _RECORD_ERRORS)


def fields(value: Any) -> Any:
    """How many fields normalize writes: 6 (both counters), 4 (none) or
    'same' (each row's own 4, 5 or 6)."""
    if value == "same" and isinstance(value, str):
        return "same"
    if type(value) is int and value in (4, 6):
        return value
    raise ValueError(f"fields must be 4, 6 or 'same', not {value!r}")


def record_fields(value: Any) -> int:
    """``fields`` of decode: 4 or 6; records keep no count of fields to be
    the same as."""
    if value == "same" and isinstance(value, str):
        raise ValueError(
            "fields='same' keeps the fields each text row came with; "
            "records have no such count (use 4 or 6)"
        )
    return fields(value)


def legal(value: Any) -> bool:
    """Whether validate also checks each position's legality: True or False."""
    if not isinstance(value, bool):
        raise ValueError(f"legal must be True or False, not {value!r}")
    return value


def output(value: Any) -> str:
    """What decode returns: 'list', 'bytes' or 'arrow'."""
    return choice("output", value, OUTPUTS)


def width(value: Any) -> int:
    """A board width: 8 or 10."""
    if isinstance(value, bool) or value not in WIDTHS:
        raise ValueError(f"width must be 8 or 10, not {value!r}")
    return int(value)


def pack_format(value: Any) -> str:
    """A binary format of pack and unpack: 'lichess' or 'stockfish'."""
    return choice("format", value, PACK_FORMATS)


def perspective(value: Any) -> str:
    """Whose view planes take: 'white' or 'side_to_move'."""
    return choice("perspective", value, PERSPECTIVES)


def pgn_select(value: Any) -> PgnSelect:
    """The games fastxfen.pgn keeps: None (all), 'standard' or 'setup'."""
    if value is None:
        return PgnSelect.ALL
    if isinstance(value, PgnSelect):
        return value
    if isinstance(value, str) and value in SELECTIONS:
        return PgnSelect[value.upper()]
    raise ValueError(f"select must be None, 'standard' or 'setup', not {value!r}")


def plane_dtype(value: Any) -> Any:
    """The element type of planes: bool, an integer or float16/32/64, in the
    native byte order."""
    import numpy as np

    dt = np.dtype(value)
    ok = (dt.kind in "biu" and dt.itemsize in (1, 2, 4, 8)) or (
        dt.kind == "f" and dt.itemsize in (2, 4, 8)
    )
    if not ok:
        raise ValueError(f"planes need a bool, integer or float16/32/64 dtype, not {dt}")
    if not dt.isnative:
        raise ValueError(f"planes need the native byte order, not {dt}")
    return dt


def plane_extras(extra: Any, dtype: Any) -> tuple:
    """The names of the extra planes (one name or a sequence of them), each
    known and named once; 'halfmove_scaled' needs a float ``dtype``."""
    known = EXTRA_PLANES
    names = (extra,) if isinstance(extra, str) else tuple(extra)
    for name in names:
        if name not in known:
            options = ", ".join(repr(k) for k in known)
            raise ValueError(f"extra planes are named {options}, not {name!r}")
    if len(set(names)) != len(names):
        raise ValueError(f"an extra plane is named twice in {names!r}")
    if "halfmove_scaled" in names and dtype.kind != "f":
        raise ValueError("the 'halfmove_scaled' plane needs a float dtype")
    return names


def plane_count(width: int, extra: tuple) -> int:
    """Planes of one tensor: the piece planes and then the extras."""
    return (16 if width == 10 else 12) + sum(EXTRA_PLANES[name] for name in extra)


# the checks under names the values' fields (of the same names) leave free
_castling, _en_passant, _fields, _width, _perspective = (
    castling,
    en_passant,
    fields,
    width,
    perspective,
)

# ---------------------------------------------------------------- values


class _Value:
    """A frozen option value: built once from the options it names
    (``_given``, in order), then read only.  Equal values have equal
    fields; the repr and the pickle give the options as a caller writes
    them, so a value built again from them is equal."""

    __slots__ = ()
    _given: tuple = ()

    @classmethod
    def _build(cls, **fields: Any) -> Any:
        """A new value of these (checked) fields."""
        self = object.__new__(cls)
        for name, value in fields.items():
            object.__setattr__(self, name, value)
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: build another one")

    __delattr__ = __setattr__  # type: ignore[assignment]

    def _args(self) -> tuple:
        return tuple(text(getattr(self, name)) for name in self._given)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._args() == other._args()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._args()))

    def __repr__(self) -> str:
        pairs = (f"{name}={value!r}" for name, value in zip(self._given, self._args()))
        return f"{type(self).__name__}({', '.join(pairs)})"

    def __reduce__(self) -> tuple:
        return (type(self), self._args())


class TextOptions(_Value):
    """How text rows are written (normalize, decode): the castling style,
    the en-passant targets kept, the fields written (6, 4 or "same") and
    whether rows are EPD.  ``fields_mode`` is ``fields`` as the core takes it."""

    __slots__ = ("castling", "en_passant", "fields", "epd", "fields_mode")
    _given = ("castling", "en_passant", "fields", "epd")
    castling: CastlingMode
    en_passant: EnPassantMode
    fields: Any
    epd: bool
    fields_mode: int

    def __new__(
        cls, castling: Any = "xfen", en_passant: Any = "xfen", fields: Any = 6, epd: Any = False
    ) -> TextOptions:
        castling_mode, ep_mode, kept = _castling(castling), _en_passant(en_passant), _fields(fields)
        return cls._build(
            castling=castling_mode,
            en_passant=ep_mode,
            fields=kept,
            epd=bool(epd),
            fields_mode=FIELDS_SAME if kept == "same" else kept,
        )

    @classmethod
    def of_records(
        cls, castling: Any = "xfen", en_passant: Any = "xfen", fields: Any = 6
    ) -> TextOptions:
        """The text of records (decode): ``fields`` 4 or 6, as a record
        keeps no count of fields."""
        castling_mode, ep_mode = _castling(castling), _en_passant(en_passant)
        return cls(castling_mode, ep_mode, record_fields(fields))


class RecordOptions(_Value):
    """How text rows become records (encode): the board width of the
    records (8 or 10) and whether rows are EPD.  ``wide``: 96-byte records."""

    __slots__ = ("width", "epd", "wide")
    _given = ("width", "epd")
    width: int
    epd: bool
    wide: bool

    def __new__(cls, width: Any = 8, epd: Any = False) -> RecordOptions:
        checked = _width(width)
        return cls._build(width=checked, epd=bool(epd), wide=checked == 10)


class KeyOptions(_Value):
    """What makes two positions the same for unique and Deduper: the move
    counters or not, and which en-passant targets count."""

    __slots__ = ("counters", "en_passant")
    _given = ("counters", "en_passant")
    counters: bool
    en_passant: EnPassantMode

    def __new__(cls, counters: Any = False, en_passant: Any = "xfen") -> KeyOptions:
        return cls._build(counters=bool(counters), en_passant=_en_passant(en_passant))


class PlaneOptions(_Value):
    """The layout of plane tensors (to_planes, from_planes): the element
    type, the perspective, the extra planes, the board width and the
    en-passant targets marked.  ``flip``: mirrored for black to move;
    ``extra_codes``: the extras as the core numbers them; ``planes``: planes
    per tensor."""

    __slots__ = ("dtype", "perspective", "extra", "width", "en_passant", "flip")
    _given = ("dtype", "perspective", "extra", "width", "en_passant")
    dtype: Any
    perspective: str
    extra: tuple
    width: int
    en_passant: EnPassantMode
    flip: bool

    def __new__(
        cls,
        dtype: Any = "uint8",
        perspective: Any = "white",
        extra: Any = (),
        width: Any = 8,
        en_passant: Any = "fen",
    ) -> PlaneOptions:
        dt = plane_dtype(dtype)
        seen = _perspective(perspective)
        return cls._build(
            dtype=dt,
            perspective=seen,
            extra=plane_extras(extra, dt),
            width=_width(width),
            en_passant=_en_passant(en_passant),
            flip=seen == "side_to_move",
        )

    @property
    def extra_codes(self) -> tuple:
        """The extra planes as the core numbers them."""
        return tuple(EXTRAS.index(name) for name in self.extra)

    @property
    def planes(self) -> int:
        """Planes per tensor: the piece planes, then the extras."""
        return plane_count(self.width, self.extra)


def cpu_count() -> int:
    """The CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


class Threads(_Value):
    """``threads``: ``None`` (automatic) or an int of at least 1, capped to
    the CPUs of the process that runs the work (a value shipped to another
    machine is capped there)."""

    __slots__ = ("asked",)
    _given = ("asked",)
    asked: Optional[int]

    def __new__(cls, asked: Any = None) -> Threads:
        if asked is not None and (
            isinstance(asked, bool) or not isinstance(asked, int) or asked < 1
        ):
            raise ValueError(f"threads must be a positive int or None, not {asked!r}")
        return cls._build(asked=asked)

    @property
    def count(self) -> Optional[int]:
        """None (automatic), or the threads asked capped to the CPUs."""
        return None if self.asked is None else min(self.asked, cpu_count())

    @property
    def kernel(self) -> int:
        """As the bulk kernels take it: 0 for automatic (they know the row
        count), else the capped count."""
        return 0 if self.asked is None else min(self.asked, cpu_count())

    def resolve(self, rows: int, rows_per_thread: int = ROWS_PER_THREAD, busy: int = 0) -> int:
        """The threads for ``rows`` rows: the capped count, or for automatic
        one thread per ``rows_per_thread`` rows, at least one and at most
        the CPUs less ``busy`` (those another thread of the run keeps busy)."""
        if self.asked is None:
            return max(1, min(cpu_count() - busy, rows // rows_per_thread))
        return min(self.asked, cpu_count())


def threads(value: Any) -> Optional[int]:
    """``None``, or ``value`` (an int of at least 1) capped to the CPUs."""
    return threads_of(value).count


def resolve_threads(value: Any, rows: int, rows_per_thread: int = ROWS_PER_THREAD) -> int:
    """``Threads(value).resolve(rows, rows_per_thread)``."""
    return threads_of(value).resolve(rows, rows_per_thread)


def kernel_threads(value: Any) -> int:
    """``Threads(value).kernel``: 0 for automatic, else the capped int."""
    return threads_of(value).kernel


# ---------------------------------------------------------------- built once


def _built_once(build: Any, maxsize: int) -> Any:
    """``build`` for the public functions, each value built once per
    distinct set of options (``typed``: 6.0 is not taken for 6): a call
    with the options of an earlier one costs a lookup, not the checks.  An
    option that cannot be a key (unhashable) is built afresh."""
    cached = functools.lru_cache(maxsize=maxsize, typed=True)(build)

    def once(*args: Any) -> Any:
        try:
            return cached(*args)
        except TypeError:
            return build(*args)

    once.__doc__ = f"``{build.__qualname__}(*args)``, built once per distinct set of options."
    return once


#: TextOptions(castling, en_passant, fields, epd)
text_options = _built_once(TextOptions, 64)
#: TextOptions.of_records(castling, en_passant, fields)
record_text_options = _built_once(TextOptions.of_records, 64)
#: RecordOptions(width, epd)
record_options = _built_once(RecordOptions, 16)
_threads = _built_once(Threads, 16)

#: ``threads=None``: automatic.
AUTO = Threads(None)


def threads_of(value: Any) -> Threads:
    """``Threads(value)``, built once."""
    return AUTO if value is None else _threads(value)
