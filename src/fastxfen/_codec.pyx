# cython: language_level=3
"""Glue between Python and the C core: rows in, rows out.

The C core (core/*.c) reads, repairs and writes positions.  This module only
finds the bytes of each row, hands them to the core, turns the results into
Python objects and, for the rows that failed, builds the error.
"""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.unicode cimport PyUnicode_Check
from libc.stdint cimport uint8_t
from libc.string cimport memcmp, memcpy, memset

cimport numpy as cnp

from fastxfen._core cimport *

import numpy as np

from fastxfen._errors import FenError
from fastxfen._records import POSITION_DTYPE, POSITION_DTYPE_10x8

cnp.import_array()
fx_init_tables()

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object o)
    void *PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)

assert POSITION_DTYPE.itemsize == sizeof(fx_rec8)
assert POSITION_DTYPE_10x8.itemsize == sizeof(fx_pos)

# ---------------------------------------------------------------- options

cdef dict _CASTLING = {"xfen": FX_CASTLING_XFEN, "shredder": FX_CASTLING_SHREDDER}
cdef dict _EN_PASSANT = {"fen": FX_EP_FEN, "xfen": FX_EP_XFEN, "legal": FX_EP_LEGAL}
cdef dict _ERRORS = {"raise": RAISE, "coerce": COERCE, "ignore": IGNORE}


cdef int _option(dict choices, str name, value) except -1:
    try:
        return choices[value]
    except (KeyError, TypeError):
        options = ", ".join(repr(k) for k in choices)
        raise ValueError(f"{name} must be one of {options}, not {value!r}") from None


cdef int _errors_mode(value) except -1:
    return _option(_ERRORS, "errors", value)


cdef int _castling_mode(value) except -1:
    return _option(_CASTLING, "castling", value)


cdef int _ep_mode(value) except -1:
    return _option(_EN_PASSANT, "en_passant", value)


cdef int _fields_mode(value) except -1:
    """fields= of normalize: 4 or 6, or FIELDS_SAME for "same"."""
    if isinstance(value, str) and value == "same":
        return FIELDS_SAME
    if type(value) is int and (value == 4 or value == 6):
        return value
    raise ValueError(f"fields must be 4, 6 or 'same', not {value!r}")


cdef int _record_fields(value) except -1:
    """fields= of decode: a record keeps no count of fields to be the same as."""
    if isinstance(value, str) and value == "same":
        raise ValueError("fields='same' keeps the fields each text row came with; "
                         "records have no such count (use 4 or 6)")
    return _fields_mode(value)


cdef int _record_errors(value) except -1:
    cdef int mode = _option(_ERRORS, "errors", value)
    if mode == IGNORE:
        raise ValueError("errors='ignore' passes text through; records have none "
                         "(use 'raise' or 'coerce')")
    return mode

# ---------------------------------------------------------------- messages

_FIELDS = ("placement", "side", "castling", "en_passant", "halfmove", "fullmove",
           "fields", "record.board", "record.width", "record.turn", "record.prefix",
           "record.ep", "record.castling", "record.halfmove", "record.fullmove",
           "operations")


cdef str _char_at(object text, size_t column, uint32_t byte):
    """The offending character, from the original text where there is one
    (a str, bytes, or the code points of a numpy ``U`` row, which may hold
    values no character has)."""
    if isinstance(text, np.ndarray) and column < len(text):
        if text[column] > 0x10FFFF:
            return f"code point 0x{text[column]:X} (not a character)"
        ch = chr(text[column])
    elif isinstance(text, str) and column < len(text):
        ch = text[column]
    elif isinstance(text, bytes) and column < len(text) and text[column] < 0x80:
        ch = chr(text[column])
    elif isinstance(text, bytes) and column < len(text):
        return f"byte 0x{text[column]:02X}"
    elif byte < 0x80:
        ch = chr(byte)
    else:
        return f"byte 0x{byte:02X}"
    if " " < ch < "\x7f":
        return f"character {ch!r}"
    return f"character {ch!r} (U+{ord(ch):04X})"


cdef str _squares(uint32_t n):
    return "1 square" if n == 1 else f"{n} squares"


cdef str _reason(fx_error err, object text):
    cdef uint32_t code = err.code, a = err.a, b = err.b, c = err.c
    if code == FX_E_CHAR:
        return f"unexpected {_char_at(text, err.column, a)}"
    if code == FX_E_ZERO:
        return "'0' is not an empty-square count"
    if code == FX_E_ADJACENT_NUMBERS:
        return "a number directly follows another number"
    if code == FX_E_RANK_LONG:
        return f"rank {a} covers {_squares(b)}, expected {c if c else '8 or 10'}"
    if code == FX_E_RANK_SHORT:
        return f"rank {a} covers {_squares(b)}, expected {c}"
    if code == FX_E_FIRST_WIDTH:
        return f"rank 8 covers {_squares(a)}, expected 8 or 10"
    if code == FX_E_RANK_COUNT:
        return "more than 8 ranks" if a > 8 else f"{a} ranks, expected 8"
    if code == FX_E_WIDE_PIECE:
        return (f"{_char_at(text, err.column, 0)} (archbishop or chancellor) "
                "is only allowed on 10-wide boards")
    if code == FX_E_SIDE:
        return "expected 'w' or 'b'"
    if code == FX_E_CASTLING_DASH:
        return "'-' cannot be combined with castling flags"
    if code == FX_E_CASTLING_EMPTY_PREFIX:
        return f"castling prefix {chr(a)!r} without a flag"
    if code == FX_E_CASTLING_TOO_MANY:
        return f"more than two castling flags for {'black' if a else 'white'}"
    if code == FX_E_CASTLING_REPEAT:
        return f"castling flag {chr(a)!r} given twice"
    if code == FX_E_FILE_OFF_BOARD:
        return f"file {chr(a).lower()!r} is off a {b}-wide board"
    if code == FX_E_EP_SQUARE:
        return "expected '-' or a square name such as 'e3'"
    if code == FX_E_DIGITS:
        return "expected decimal digits"
    if code == FX_E_COUNTER_RANGE:
        return "value exceeds 4294967295"
    if code == FX_E_TOO_FEW_FIELDS:
        return f"expected 4 to 6 fields, got {a}"
    if code == FX_E_TOO_MANY_FIELDS:
        return "more than 6 fields"
    if code == FX_E_WIDE_ROW:
        return "a 10-wide position needs encode(..., width=10)"
    if code == FX_E_EPD_OPERATION:
        return "EPD operation without its closing ';'"
    if code == FX_E_EPD_OPCODE:
        if b and a == ord(';'):
            return "EPD operation without an opcode"
        if b and ord('0') <= a <= ord('9'):
            return ("EPD opcode must start with a letter, not a digit "
                    "(counters go in hmvc/fmvn operations)")
        if b:
            return f"EPD opcode must start with a letter, not {_char_at(text, err.column, a)}"
        return (f"EPD opcode holds letters, digits and '_' only, not "
                f"{_char_at(text, err.column, a)}")
    if code == FX_E_RECORD_VALUE:
        if err.field == FX_F_RECORD_WIDTH:
            if a == 0:
                return "null record (width 0, written for a coerced row)"
            return f"value {a}, expected {'8 or 10' if b == 10 else '8'}"
        return f"value {a} out of range 0..{b}"
    return f"internal error code {code}"


#: The code of a row that is wider than the records asked for (FenError.code).
E_WIDE_ROW = FX_E_WIDE_ROW


cdef bint _null_record(fx_error err, const void *record, Py_ssize_t size) noexcept nogil:
    """Whether a record refused with err is the null record (every byte 0,
    which encode writes for a missing or coerced row): a missing value,
    which every function passes on as missing, not a failure."""
    cdef const uint8_t *p = <const uint8_t *>record
    cdef Py_ssize_t k
    if err.code != FX_E_RECORD_VALUE or err.field != FX_F_RECORD_WIDTH or err.a != 0:
        return False
    for k in range(size):
        if p[k]:
            return False
    return True


cdef object _error(Py_ssize_t index, fx_error err, object text):
    error = FenError(index, err.column, _FIELDS[err.field], _reason(err, text))
    error.code = err.code
    return error


cdef object _not_text(Py_ssize_t index, object item):
    return FenError(index, 0, "input", f"expected str, got {type(item).__name__}")

cdef object _item_error(Py_ssize_t index, object item, int rc, fx_error err):
    """The FenError of a list item _read_item refused (rc 1: not a str)."""
    return _not_text(index, item) if rc == 1 else _error(index, err, item)


cdef object _refused_item(Py_ssize_t index, object item, int rc, fx_error err, int errors):
    """What normalize puts in place of a refused item: raise, None, or the item."""
    if errors == RAISE:
        raise _item_error(index, item, rc, err)
    return item if errors == IGNORE else None


# ---------------------------------------------------------------- reading rows

cdef struct Row:
    const uint8_t *text   # the row's bytes, line terminator excluded
    Py_ssize_t len
    Py_ssize_t full       # length including the terminator
    int fields            # fields the row had (4 to 6; an EPD row 4)


cdef inline Py_ssize_t _strip_line_end(const uint8_t *p, Py_ssize_t n) noexcept nogil:
    if n and p[n - 1] == b'\n':
        n -= 1
        if n and p[n - 1] == b'\r':
            n -= 1
    return n


cdef inline int _parse(const uint8_t *text, Py_ssize_t n, bint epd, Row *row, fx_pos *pos,
                       fx_span *span, fx_span *ops, fx_error *err) noexcept:
    if epd:
        row.fields = 4
        return fx_parse_epd(text, n, pos, span, ops, err)
    ops.start = ops.len = 0
    return fx_parse(text, n, pos, span, &row.fields, err)


cdef inline int _read_item(object item, bint epd, Row *row, fx_pos *pos, fx_span *span,
                           fx_span *ops, fx_error *err) except -2:
    """Parse one list item: 0 read, -1 rejected (err set), 1 not a str.

    A non-ASCII row is read through an ASCII stand-in of the same length
    ('?' for every other character): it is always rejected, except as EPD,
    where operations may hold any text; row.text is then NULL."""
    cdef bytes stand_in
    if not PyUnicode_Check(item):
        return 1
    if PyUnicode_IS_ASCII(item):
        row.text = <const uint8_t *>PyUnicode_DATA(item)
        row.full = PyUnicode_GET_LENGTH(item)
        row.len = _strip_line_end(row.text, row.full)
        return _parse(row.text, row.len, epd, row, pos, span, ops, err)
    stand_in = (<str>item).encode("ascii", "replace")
    row.full = PyBytes_GET_SIZE(stand_in)
    row.len = _strip_line_end(<const uint8_t *>PyBytes_AS_STRING(stand_in), row.full)
    row.text = NULL
    return _parse(<const uint8_t *>PyBytes_AS_STRING(stand_in), row.len, epd, row, pos,
                  span, ops, err)


cdef inline object _text_from(const uint8_t *buf, size_t n):
    cdef object s = PyUnicode_New(n, 127)
    memcpy(PyUnicode_DATA(s), buf, n)
    return s

# ---------------------------------------------------------------- rows of str


def normalize_rows(list rows, *, castling, en_passant, errors, bint epd=False, fields=6):
    """normalize() for a list of str."""
    cdef fx_castling_mode cmode = <fx_castling_mode>_castling_mode(castling)
    cdef fx_ep_mode emode = <fx_ep_mode>_ep_mode(en_passant)
    cdef int fmode = _fields_mode(fields)
    cdef int mode = _errors_mode(errors)
    cdef Py_ssize_t i, n = len(rows)
    cdef list out = [None] * n
    cdef Row row
    cdef fx_pos pos
    cdef fx_span span, ops
    cdef fx_error err
    cdef uint8_t buf[FX_MAX_OUTPUT]
    cdef size_t written
    cdef int rc
    for i in range(n):
        item = rows[i]
        if item is None:  # missing: stays None
            continue
        rc = _read_item(item, epd, &row, &pos, &span, &ops, &err)
        if rc == 0 and row.text == NULL and not epd:
            # ASCII text stored in a wider str kind (only C code makes such
            # objects): read it again from a compact ASCII copy
            item = (<str>item).encode("ascii").decode("ascii")
            rc = _read_item(item, False, &row, &pos, &span, &ops, &err)
        if rc != 0:
            out[i] = _refused_item(i, item, rc, err, mode)
        elif epd:
            out[i] = _epd_text(item, &pos, span, ops, cmode, emode)
        else:
            written = fx_write(&pos, cmode, emode, fmode if fmode != FIELDS_SAME else row.fields,
                               row.text + span.start, span.len, buf)
            if (<Py_ssize_t>written == row.full and type(item) is str
                    and memcmp(buf, row.text, written) == 0):
                out[i] = item           # already canonical: share the object
            else:
                out[i] = _text_from(buf, written)
    return out


cdef object _epd_text(object item, fx_pos *pos, fx_span span, fx_span ops,
                      fx_castling_mode cmode, fx_ep_mode emode):
    """An EPD row: the position fields rewritten, the operations kept as
    written; the item itself when that is its text."""
    cdef uint8_t buf[FX_MAX_OUTPUT]
    # the placement is ASCII, so item's characters are its bytes
    text = item[span.start:span.start + span.len]
    cdef size_t written = fx_write(pos, cmode, emode, 4, <const uint8_t *>b"", 0, buf)
    head = text + _text_from(buf, written)
    out = head + " " + item[ops.start:ops.start + ops.len] if ops.len else head
    return item if type(item) is str and out == item else out


def validate_rows(list rows, *, bint epd=False):
    """validate() for a list of str."""
    cdef Row row
    cdef fx_pos pos
    cdef fx_span span, ops
    cdef fx_error err
    cdef int rc
    cdef Py_ssize_t i, n = len(rows)
    cdef list out = [None] * n
    for i in range(n):
        item = rows[i]
        if item is None:  # missing: nothing wrong to report
            continue
        rc = _read_item(item, epd, &row, &pos, &span, &ops, &err)
        if rc:
            failure = _item_error(i, item, rc, err)
            out[i] = f"{failure.location}: {failure.reason}"
    return out


def encode_rows(list rows, *, int width, errors, bint epd=False):
    """encode() for a list of str."""
    cdef int mode = _record_errors(errors)
    cdef Py_ssize_t i, n = len(rows)
    cdef bint wide = width == 10
    cdef cnp.ndarray out = np.empty(n, POSITION_DTYPE_10x8 if wide else POSITION_DTYPE)
    cdef char *base = <char *>cnp.PyArray_DATA(out)
    cdef Py_ssize_t itemsize = out.itemsize
    cdef Row row
    cdef fx_pos pos
    cdef fx_span span, ops
    cdef fx_error err
    cdef int rc
    for i in range(n):
        item = rows[i]
        rc = 2 if item is None else _read_item(item, epd, &row, &pos, &span, &ops, &err)
        if rc == 0:
            rc = fx_store_record(&pos, base + i * itemsize, wide, span.start, &err)
            if rc == 0:
                continue
        if mode == RAISE and rc != 2:  # a missing row (2) gets the null record
            raise _item_error(i, item, rc, err)
        memset(base + i * itemsize, 0, itemsize)
    return out


def decode_records(records, *, castling, en_passant, errors, fields=6):
    """decode(): text of each record; one str for a single (0-d) record."""
    cdef fx_castling_mode cmode = <fx_castling_mode>_castling_mode(castling)
    cdef fx_ep_mode emode = <fx_ep_mode>_ep_mode(en_passant)
    cdef int fmode = _record_fields(fields)
    cdef int mode = _record_errors(errors)
    arr = np.asarray(records)
    if arr.dtype != POSITION_DTYPE and arr.dtype != POSITION_DTYPE_10x8:
        raise TypeError("expected records of fastxfen.POSITION_DTYPE or "
                        f"POSITION_DTYPE_10x8, got dtype {arr.dtype}")
    single = arr.ndim == 0
    cdef cnp.ndarray flat = np.ascontiguousarray(arr.reshape(-1))
    cdef bint wide = flat.dtype == POSITION_DTYPE_10x8
    cdef Py_ssize_t i, n = flat.shape[0], itemsize = flat.itemsize
    cdef const char *base = <const char *>cnp.PyArray_DATA(flat)
    cdef list out = [None] * n
    cdef fx_pos pos
    cdef fx_error err
    cdef uint8_t buf[FX_MAX_OUTPUT]
    cdef size_t written
    for i in range(n):
        if fx_load_record(base + i * itemsize, wide, &pos, &err) == 0:
            written = fx_write(&pos, cmode, emode, fmode, NULL, 0, buf)
            out[i] = _text_from(buf, written)
        elif mode == RAISE and not _null_record(err, base + i * itemsize, itemsize):  # None
            raise _error(i, err, None)
    return out[0] if single else out


def copy_rows(list rows):
    """Read each ASCII str of rows and build a new str of the same bytes: the
    least a list-of-str to list-of-str pass costs (bench/compare.py's floor)."""
    cdef Py_ssize_t i, n = len(rows)
    cdef list out = [None] * n
    for i in range(n):
        item = rows[i]
        out[i] = _text_from(<const uint8_t *>PyUnicode_DATA(item), PyUnicode_GET_LENGTH(item))
    return out
