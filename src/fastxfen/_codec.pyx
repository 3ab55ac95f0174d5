# cython: language_level=3
"""Glue between Python and the C core: rows in, rows out.

The C core reads, repairs and writes positions, and its row loop
(core/batch.c) runs over many rows at a time.  This module turns options
into the loop's, hands it the bytes of a list's rows a block at a time,
turns its output into Python objects and, for the rows that failed, builds
the error (the messages of every path are made here).  Items that are not
ASCII str are read one at a time here.
"""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython.unicode cimport PyUnicode_Check
from libc.stdint cimport int64_t, uint8_t, uint32_t
from libc.stdlib cimport free, realloc
from libc.string cimport memcmp, memcpy, memset

cimport numpy as cnp

from fastxfen._core cimport *

import numpy as np

from fastxfen._errors import FenError, fen_error
from fastxfen._options import FIELDS_SAME as _FIELDS_SAME
from fastxfen._options import CastlingMode, EnPassantMode, ErrorsMode
from fastxfen._records import POSITION_DTYPE, POSITION_DTYPE_10x8

cnp.import_array()
fx_init_tables()

cdef extern from "readers/readers.h":
    int FX_READERS, FX_CPU_FEATURES
    const char *fx_readers_refusal()
    int fx_reader_active()
    const char *fx_reader_name(int id)
    const char *fx_writer_name(int id)
    int fx_reader_built(int id)
    int fx_reader_runs(int id, uint32_t features)
    uint32_t fx_cpu_features()
    const char *fx_cpu_feature_name(int k)
    const char *fx_compiler()

if fx_readers_refusal() != NULL:  # FASTXFEN_READER named a reader this process cannot run
    raise ImportError(fx_readers_refusal().decode())


def reader_info():
    """The placement reader and writer this process runs, the readers built
    in, those this CPU runs, the CPU features seen and the compiler."""
    cdef uint32_t cpu = fx_cpu_features()
    cdef int k, active = fx_reader_active()
    return {
        "reader": fx_reader_name(active).decode(),
        "writer": fx_writer_name(active).decode(),
        "readers": tuple([fx_reader_name(k).decode() for k in range(FX_READERS)
                          if fx_reader_built(k)]),
        "runnable": tuple([fx_reader_name(k).decode() for k in range(FX_READERS)
                           if fx_reader_runs(k, cpu)]),
        "cpu": tuple([fx_cpu_feature_name(k).decode() for k in range(FX_CPU_FEATURES)
                      if cpu >> k & 1]),
        "compiler": fx_compiler().decode(),
    }

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object o)
    void *PyUnicode_DATA(object o)
    Py_ssize_t PyUnicode_GET_LENGTH(object o)
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)

assert POSITION_DTYPE.itemsize == sizeof(fx_rec8)
assert POSITION_DTYPE_10x8.itemsize == sizeof(fx_pos)

# ---------------------------------------------------------------- options

# The modes of fastxfen._options are the core's numbers.
assert [int(m) for m in ErrorsMode] == [RAISE, COERCE, IGNORE]
assert [int(m) for m in CastlingMode] == [FX_CASTLING_XFEN, FX_CASTLING_SHREDDER]
assert [int(m) for m in EnPassantMode] == [FX_EP_FEN, FX_EP_XFEN, FX_EP_LEGAL]
assert _FIELDS_SAME == FIELDS_SAME



cdef fx_batch_opts _text_opts(object text, int errors) except *:
    """The row loop's options for writing text as ``text`` (a TextOptions)
    says, under the errors mode ``errors``."""
    cdef fx_batch_opts o = _opts(FX_NORMALIZE, errors, text.epd)
    o.castling, o.ep, o.fields = text.castling, text.en_passant, text.fields_mode
    return o

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


cdef object _error(Py_ssize_t index, fx_error err, object text):
    return fen_error(index, err.column, _FIELDS[err.field], _reason(err, text), err.code)


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


# ---------------------------------------------------------------- items read here

cdef struct Row:
    const uint8_t *text   # the row's bytes, line terminator excluded
    Py_ssize_t len
    Py_ssize_t full       # length including the terminator
    int fields            # fields the row had (4 to 6; an EPD row 4)


cdef inline int _parse(const uint8_t *text, Py_ssize_t n, bint epd, Row *row, fx_pos *pos,
                       fx_span *span, fx_span *ops, fx_error *err) noexcept:
    if epd:
        row.fields = 4
        return fx_parse_epd(text, n, pos, span, ops, err)
    ops.start = ops.len = 0
    return fx_parse(text, n, pos, span, &row.fields, err)


cdef int _read_item(object item, bint epd, Row *row, fx_pos *pos, fx_span *span,
                    fx_span *ops, fx_error *err) except -2:
    """Parse one list item the row loop left to the glue: 0 read, -1
    rejected (err set), 1 not a str.

    A non-ASCII row is read through an ASCII stand-in of the same length
    ('?' for every other character): it is always rejected, except as EPD,
    where operations may hold any text; row.text is then NULL."""
    cdef bytes stand_in
    if not PyUnicode_Check(item):
        return 1
    if PyUnicode_IS_ASCII(item):
        row.text = <const uint8_t *>PyUnicode_DATA(item)
        row.full = PyUnicode_GET_LENGTH(item)
        row.len = fx_line_length(row.text, row.full)
        return _parse(row.text, row.len, epd, row, pos, span, ops, err)
    stand_in = (<str>item).encode("ascii", "replace")
    row.full = PyBytes_GET_SIZE(stand_in)
    row.len = fx_line_length(<const uint8_t *>PyBytes_AS_STRING(stand_in), row.full)
    row.text = NULL
    return _parse(<const uint8_t *>PyBytes_AS_STRING(stand_in), row.len, epd, row, pos,
                  span, ops, err)


cdef inline object _text_from(const uint8_t *buf, size_t n):
    cdef object s = PyUnicode_New(n, 127)
    memcpy(PyUnicode_DATA(s), buf, n)
    return s


cdef inline bint _same_text(object item, const uint8_t *text, size_t n) noexcept:
    """Whether item is a plain ASCII str of exactly these bytes."""
    return (type(item) is str and PyUnicode_IS_ASCII(item)
            and <size_t>PyUnicode_GET_LENGTH(item) == n
            and memcmp(PyUnicode_DATA(item), text, n) == 0)


cdef object _normalized_item(Py_ssize_t i, object item, bint epd, fx_castling_mode cmode,
                             fx_ep_mode emode, int fmode, int mode):
    """normalize of an item the row loop left to the glue (not an ASCII str)."""
    cdef Row row
    cdef fx_pos pos
    cdef fx_span span, ops
    cdef fx_error err
    cdef uint8_t buf[FX_MAX_OUTPUT]
    cdef size_t written
    cdef int rc = _read_item(item, epd, &row, &pos, &span, &ops, &err)
    if rc == 0 and row.text == NULL and not epd:
        # ASCII text stored in a wider str kind (only C code makes such
        # objects): read it again from a compact ASCII copy
        item = (<str>item).encode("ascii").decode("ascii")
        rc = _read_item(item, False, &row, &pos, &span, &ops, &err)
    if rc != 0:
        return _refused_item(i, item, rc, err, mode)
    if epd:
        return _epd_text(item, &pos, span, ops, cmode, emode)
    written = fx_write(&pos, cmode, emode, fmode if fmode != FIELDS_SAME else row.fields,
                       row.text + span.start, span.len, buf)
    if <Py_ssize_t>written == row.full and _same_text(item, buf, written):
        return item
    return _text_from(buf, written)


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

# ---------------------------------------------------------------- blocks of a list

cdef enum:
    BLOCK = 256  # list rows handed to the row loop at a time


cdef struct Block:
    # rows [lo, lo + n) of a list: each ASCII str's bytes for the row loop,
    # every other item marked skip (the loop passes it by, the glue reads it)
    const uint8_t *texts[BLOCK]
    size_t lens[BLOCK]
    uint8_t skip[BLOCK]
    int64_t ends[BLOCK]         # text written up to the end of each row
    fx_failure failures[BLOCK]  # at most one per row: never full


cdef Py_ssize_t _gather(list rows, Py_ssize_t lo, Block *b) noexcept:
    cdef Py_ssize_t k, n = min(<Py_ssize_t>BLOCK, len(rows) - lo)
    for k in range(n):
        item = rows[lo + k]
        if PyUnicode_Check(item) and PyUnicode_IS_ASCII(item):
            b.texts[k] = <const uint8_t *>PyUnicode_DATA(item)
            b.lens[k] = PyUnicode_GET_LENGTH(item)
            b.skip[k] = 0
        else:
            b.texts[k] = <const uint8_t *>b""
            b.lens[k] = 0
            b.skip[k] = 1
    return n


cdef fx_batch_out _output(Block *b):
    cdef fx_batch_out w
    memset(&w, 0, sizeof(w))
    w.ends = b.ends
    w.failures = b.failures
    w.failures_cap = BLOCK
    return w


cdef size_t _run(const fx_batch_opts *o, Block *b, size_t n, const uint8_t *records,
                 fx_batch_out *w) except? 0:
    """Rows [0, n) of the block (or n records) through the row loop, its
    text from the start of w.text, which grows as the loop asks; returns
    the rows done (n, or past the failed row under errors="raise")."""
    cdef fx_rows rows
    cdef size_t at = 0, cap
    cdef uint8_t *p
    memset(&rows, 0, sizeof(rows))
    rows.texts, rows.lens, rows.nulls, rows.records = b.texts, b.lens, b.skip, records
    w.len = w.n_failures = 0
    while True:
        if records != NULL:
            at = fx_batch_records(o, &rows, at, n, w)
        else:
            at = fx_batch_rows(o, &rows, at, n, w)
        if w.stop != FX_STOP_TEXT:
            return at
        cap = max(2 * w.cap, w.len + w.need, <size_t>1 << 15)
        p = <uint8_t *>realloc(w.text, cap)
        if p == NULL:
            raise MemoryError()
        w.text, w.cap = p, cap


cdef fx_batch_opts _opts(int task, int errors, bint epd) noexcept:
    cdef fx_batch_opts o
    memset(&o, 0, sizeof(o))
    o.task, o.errors, o.epd = task, errors, epd
    return o

# ---------------------------------------------------------------- rows of str


def normalize_rows(list rows, *, text, int errors):
    """normalize() for a list of str: the text of each row as ``text`` (a
    TextOptions) says, bad rows as the ErrorsMode ``errors`` says."""
    cdef fx_batch_opts o = _text_opts(text, errors)
    cdef bint epd = o.epd
    cdef Py_ssize_t lo, i, n = len(rows)
    cdef size_t k, m, f, start
    cdef list out = [None] * n
    cdef Block b
    cdef fx_batch_out w = _output(&b)
    try:
        for lo in range(0, n, BLOCK):
            m = _run(&o, &b, _gather(rows, lo, &b), NULL, &w)
            f = start = 0
            for k in range(m):
                i = lo + k
                item = rows[i]
                if b.skip[k]:
                    if item is not None:  # a missing row stays None
                        out[i] = _normalized_item(i, item, epd, <fx_castling_mode>o.castling,
                                                  <fx_ep_mode>o.ep, o.fields, o.errors)
                elif f < w.n_failures and b.failures[f].row == <int64_t>k:
                    out[i] = _refused_item(i, item, -1, b.failures[f].err, o.errors)
                    f += 1
                elif _same_text(item, w.text + start, b.ends[k] - start):
                    out[i] = item           # already canonical: share the object
                else:
                    out[i] = _text_from(w.text + start, b.ends[k] - start)
                start = b.ends[k]
    finally:
        free(w.text)
    return out


def validate_rows(list rows, *, bint epd=False):
    """validate() for a list of str."""
    cdef fx_batch_opts o = _opts(FX_VALIDATE, COERCE, epd)
    cdef Row row
    cdef fx_pos pos
    cdef fx_span span, ops
    cdef fx_error err
    cdef int rc
    cdef Py_ssize_t lo, i, n = len(rows)
    cdef size_t k, m, f
    cdef list out = [None] * n
    cdef Block b
    cdef fx_batch_out w = _output(&b)
    for lo in range(0, n, BLOCK):
        m = _run(&o, &b, _gather(rows, lo, &b), NULL, &w)
        f = 0
        for k in range(m):
            i = lo + k
            item = rows[i]
            if b.skip[k]:
                if item is None:  # missing: nothing wrong to report
                    continue
                rc = _read_item(item, epd, &row, &pos, &span, &ops, &err)
                if rc == 0:
                    continue
                failure = _item_error(i, item, rc, err)
            elif f < w.n_failures and b.failures[f].row == <int64_t>k:
                failure = _error(i, b.failures[f].err, item)
                f += 1
            else:
                continue
            out[i] = f"{failure.location}: {failure.reason}"
    return out


def encode_rows(list rows, *, records, int errors):
    """encode() for a list of str, as ``records`` (a RecordOptions) says;
    errors: ErrorsMode.RAISE or COERCE."""
    cdef fx_batch_opts o = _opts(FX_ENCODE, errors, records.epd)
    cdef bint epd = o.epd
    o.wide = records.wide
    cdef cnp.ndarray out = np.empty(len(rows), POSITION_DTYPE_10x8 if o.wide else POSITION_DTYPE)
    cdef char *base = <char *>cnp.PyArray_DATA(out)
    cdef Py_ssize_t itemsize = out.itemsize
    cdef Row row
    cdef fx_pos pos
    cdef fx_span span, ops
    cdef fx_error err
    cdef int rc
    cdef Py_ssize_t lo, i, n = len(rows)
    cdef size_t k, m, f
    cdef Block b
    cdef fx_batch_out w = _output(&b)
    for lo in range(0, n, BLOCK):
        w.records = <uint8_t *>base + lo * itemsize
        m = _run(&o, &b, _gather(rows, lo, &b), NULL, &w)
        f = 0
        for k in range(m):
            i = lo + k
            if b.skip[k]:  # the loop wrote the null record
                item = rows[i]
                rc = 2 if item is None else _read_item(item, epd, &row, &pos, &span, &ops, &err)
                if rc == 0:
                    rc = fx_store_record(&pos, base + i * itemsize, o.wide, span.start, &err)
                if rc != 0 and rc != 2 and o.errors == RAISE:  # a missing row (2) stays null
                    raise _item_error(i, item, rc, err)
                if rc != 0:
                    memset(base + i * itemsize, 0, itemsize)
            elif f < w.n_failures and b.failures[f].row == <int64_t>k:
                if o.errors == RAISE:
                    raise _error(i, b.failures[f].err, rows[i])
                f += 1
    return out


def decode_records(records, *, text, int errors):
    """decode(): text of each record as ``text`` (a TextOptions of
    records) says; one str for a single (0-d) record."""
    cdef fx_batch_opts o = _text_opts(text, errors)
    o.missing = True  # a null record gives None, whatever errors says
    arr = np.asarray(records)
    if arr.dtype != POSITION_DTYPE and arr.dtype != POSITION_DTYPE_10x8:
        raise TypeError("expected records of fastxfen.POSITION_DTYPE or "
                        f"POSITION_DTYPE_10x8, got dtype {arr.dtype}")
    single = arr.ndim == 0
    cdef cnp.ndarray flat = np.ascontiguousarray(arr.reshape(-1))
    o.wide = flat.dtype == POSITION_DTYPE_10x8
    cdef Py_ssize_t lo, i, n = flat.shape[0], itemsize = flat.itemsize
    cdef const uint8_t *base = <const uint8_t *>cnp.PyArray_DATA(flat)
    cdef list out = [None] * n
    cdef size_t k, m, f, start
    cdef Block b
    cdef fx_batch_out w = _output(&b)
    try:
        for lo in range(0, n, BLOCK):
            m = _run(&o, &b, min(<Py_ssize_t>BLOCK, n - lo), base + lo * itemsize, &w)
            f = start = 0
            for k in range(m):
                i = lo + k
                if f < w.n_failures and b.failures[f].row == <int64_t>k:
                    if o.errors == RAISE:
                        raise _error(i, b.failures[f].err, None)
                    f += 1
                elif b.ends[k] > <int64_t>start:  # a null record writes no text: None
                    out[i] = _text_from(w.text + start, b.ends[k] - start)
                start = b.ends[k]
    finally:
        free(w.text)
    return out[0] if single else out

