# cython: language_level=3
"""Glue between fastxfen.training and the training-data core
(core/training.h, movegen.h, status.h).

Readers hand the core flat buffers and get columns back as numpy arrays,
text columns as Arrow-style data and offsets; writers hand it a `Table` of
flat columns and get bytes.  Every loop over entries runs in C with the GIL
released; errors come back as `Failure` tuples that fastxfen.training turns
into messages.
"""
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset

cimport numpy as cnp

from fastxfen._codec cimport _error
from fastxfen._core cimport (FX_E_WIDE_ROW, FX_MAX_OUTPUT, fx_error, fx_init_tables, fx_parse,
                             fx_pos, fx_span)

import numpy as np

import fastxfen._options as _options
from fastxfen._errors import FenError
from fastxfen._records import POSITION_DTYPE

cnp.import_array()


cdef extern from "movegen.h" nogil:
    ctypedef uint16_t fx_move
    ctypedef struct fx_board:
        uint8_t turn
    enum:
        FX_MAX_MOVES
    int fx_attacks_init()
    int fx_board_from_pos(const fx_pos *pos, fx_board *b)
    int fx_legal_moves(const fx_board *b, fx_move *moves)
    uint64_t fx_perft(const fx_board *b, int depth)
    int fx_move_uci(fx_move m, int chess960, uint8_t *out)


cdef extern from "status.h" nogil:
    int fx_status_text(const uint8_t *text, size_t len, int chess960, int epd,
                       uint32_t *status, fx_error *err)


cdef extern from "training.h" nogil:
    enum:
        FX_T_E_FEN, FX_T_E_RECORD
        FX_T_FEN_MAX, FX_T_UCI_MAX, FX_BP_HEAD, FX_BP_BLOCK_LIMIT, FX_BP_BLOCK_CUT
        FX_BP_WRITER_ROOM, FX_BIN_SIZE, FX_PLAIN_MAX

    ctypedef struct fx_t_error:
        uint32_t code
        uint32_t field
        uint64_t offset
        int64_t chain
        uint32_t entry
        uint32_t a, b
        int64_t value
        fx_error fen_error

    ctypedef struct fx_t_entry:
        uint16_t ply
        int16_t score

    ctypedef struct fx_t_columns:
        uint8_t *records
        uint8_t *packed
        uint8_t *fen
        int32_t *fen_ends
        size_t fen_used
        uint8_t castling, ep_mode
        uint8_t *uci
        int32_t *uci_ends
        size_t uci_used
        uint16_t *sfmove
        int16_t *score
        uint16_t *ply
        int8_t *result
        uint32_t *rule50
        int64_t *chain
        fx_t_entry *entries
        uint8_t *plain
        int32_t *plain_ends

    ctypedef struct fx_t_chains:
        int64_t chain

    ctypedef struct fx_t_table:
        const fx_t_entry *entries
        const uint8_t *fen
        const int64_t *fen_offsets
        const uint8_t *records
        const uint8_t *uci
        const int64_t *uci_offsets
        const uint16_t *sfmove
        const int64_t *score
        const int64_t *ply
        const int64_t *result
        const uint8_t *missing

    ctypedef struct fx_bp_reader:
        size_t offset
        int64_t chain
        fx_t_entry entry
        uint8_t done

    ctypedef struct fx_bp_writer:
        uint8_t *block
        size_t len

    void fx_t_init()
    void fx_t_chains_init(fx_t_chains *t, int64_t first)
    void fx_bp_reader_init(fx_bp_reader *r, const uint8_t *data, size_t len,
                           int64_t first_chain)
    size_t fx_bp_read(fx_bp_reader *r, fx_t_columns *c, size_t row, size_t max_n,
                      fx_t_error *err)
    int fx_bp_skip_chain(fx_bp_reader *r, fx_t_error *err)
    void fx_bp_writer_init(fx_bp_writer *w, uint8_t *block, size_t cap)
    size_t fx_bp_write_rows(fx_bp_writer *w, const fx_t_table *t, size_t start, size_t n,
                            int *status, fx_t_error *err)
    void fx_bp_finish(fx_bp_writer *w)
    void fx_bp_writer_flushed(fx_bp_writer *w)
    size_t fx_bin_read_many(const uint8_t *data, size_t n, fx_t_columns *c,
                            fx_t_chains *chains, size_t row, fx_t_error *err)
    size_t fx_bin_write_rows(const fx_t_table *t, size_t start, size_t n, uint8_t *out,
                             fx_t_error *err)
    size_t fx_plain_read(const uint8_t *text, size_t len, int final, size_t *used,
                         size_t *lines, fx_t_columns *c, fx_t_chains *chains, size_t row,
                         size_t max_n, fx_t_error *err)
    size_t fx_plain_write_rows(const fx_t_table *t, size_t start, size_t n, uint8_t *out,
                               size_t *used, fx_t_error *err)


fx_init_tables()
if fx_attacks_init():
    raise ImportError("fastxfen._training: the attack tables failed their check")
fx_t_init()  # the move text code this CPU runs best

#: Bytes of a chain's head, the largest block Stockfish reads, where its
#: writer cuts blocks, and the size of a .bin record.
CHAIN_HEAD = FX_BP_HEAD
BLOCK_LIMIT = FX_BP_BLOCK_LIMIT
BLOCK_CUT = FX_BP_BLOCK_CUT
BIN_SIZE = FX_BIN_SIZE
#: Every column a reader can give; and two for conversions: "entries", the
#: entries themselves (opaque bytes) that a writer takes back without
#: reading text, and "plain", the entries as .plain text.
COLUMNS = ("fen", "record", "packed", "move", "sfmove", "score", "ply", "result", "rule50",
           "chain")
INTERNAL = ("entries", "plain")
#: The text columns: (data, int32 offsets) pairs, and a text's most bytes.
TEXT = {"fen": FX_T_FEN_MAX, "move": FX_T_UCI_MAX, "plain": FX_PLAIN_MAX}
ENTRY_SIZE = sizeof(fx_t_entry)


cdef class Failure:
    """What the core reported for an entry it could not read or write:
    the FX_T_E_* code and FX_T_F_* field, the byte offset (or row), chain,
    entry of the chain, the numbers a message names, and for a position's
    text or record the FenError of the position reader."""
    cdef readonly uint32_t code, field, entry, a, b
    cdef readonly uint64_t offset
    cdef readonly int64_t chain, value
    cdef readonly object position_error


cdef Failure _failure(fx_t_error err, object text=None):
    cdef Failure f = Failure.__new__(Failure)
    f.code, f.field, f.offset, f.chain = err.code, err.field, err.offset, err.chain
    f.entry, f.a, f.b, f.value = err.entry, err.a, err.b, err.value
    f.position_error = None
    if err.code == FX_T_E_FEN or err.code == FX_T_E_RECORD:
        f.position_error = _error(0, err.fen_error, text)
    return f


cdef const uint8_t[::1] _bytes(object data):
    """A read-only byte view of any buffer (bytes, bytearray, numpy)."""
    return memoryview(data).cast("B")


# ---------------------------------------------------------------- moves and status


cdef fx_board _board(object fen) except *:
    cdef bytes text = fen.encode() if isinstance(fen, str) else bytes(fen)
    cdef fx_pos pos
    cdef fx_span span
    cdef int fields
    cdef fx_error err
    cdef fx_board b
    if fx_parse(text, len(text), &pos, &span, &fields, &err):
        raise _error(0, err, text)
    if fx_board_from_pos(&pos, &b):
        raise ValueError("a 10-wide position has no 8x8 moves")
    return b


def legal_moves(fen, bint chess960=False):
    """The legal moves of one position as UCI text (castling as the king's
    two-square step, or with chess960 as the king taking its rook)."""
    cdef fx_board b = _board(fen)
    cdef fx_move moves[256]
    cdef uint8_t text[8]
    cdef int n = fx_legal_moves(&b, moves)
    return [bytes(text[:fx_move_uci(moves[i], chess960, text)]).decode() for i in range(n)]


def perft(fen, int depth):
    """Leaf positions `depth` plies below one position."""
    cdef fx_board b = _board(fen)
    cdef uint64_t n
    if depth < 0 or depth > 12:
        raise ValueError(f"depth must be 0..12, not {depth}")
    with nogil:
        n = fx_perft(&b, depth)
    return n


def status_spans(data, const int64_t[::1] starts, const int64_t[::1] ends, bint chess960,
                 bint epd=False):
    """python-chess status flags of each row data[starts[i]:ends[i]] (EPD
    rows with epd), and the FenError of each row that cannot be read, as
    (flags, {row: error})."""
    cdef const uint8_t[::1] text = _bytes(data)
    cdef Py_ssize_t n = starts.shape[0], i = 0
    cdef cnp.ndarray flags = np.zeros(n, np.uint32)
    cdef cnp.ndarray failed = np.zeros(n, np.uint8)
    cdef uint32_t[::1] f = flags
    cdef uint8_t[::1] bad = failed
    cdef fx_error err
    cdef const uint8_t *base = &text[0] if text.shape[0] else <const uint8_t *>b""
    cdef int wrong = ends.shape[0] != n
    with nogil:
        for i in range(n):
            if wrong or starts[i] < 0 or ends[i] < starts[i] or ends[i] > text.shape[0]:
                wrong = 1
                break
            if fx_status_text(base + starts[i], ends[i] - starts[i], chess960, epd, &f[i], &err):
                bad[i] = 1
    if wrong:
        raise ValueError(f"row spans outside their data at row {i}")
    errors = {}
    for i in np.flatnonzero(failed):
        row = bytes(text[starts[i]:ends[i]])
        fx_status_text(row, len(row), chess960, epd, &f[i], &err)
        errors[int(i)] = _error(i, err, row)
        if err.code == FX_E_WIDE_ROW:
            errors[int(i)] = FenError(i, err.column, "placement",
                                      "a 10-wide position: legality is checked on 8x8 boards")
    return flags, errors


# ---------------------------------------------------------------- reading


cdef class Spec:
    """The columns a reader gives, and the modes of its FEN text.  With
    `reuse`, each call gives its columns in the arrays of the last call
    (for a caller done with them, as a conversion is)."""
    cdef readonly tuple columns
    cdef uint8_t castling, ep_mode
    cdef bint reuse
    cdef dict scratch
    cdef Py_ssize_t room

    def __init__(self, columns, castling="xfen", en_passant="xfen", reuse=False):
        self.reuse, self.scratch, self.room = reuse, None, 0
        unknown = [c for c in columns if c not in COLUMNS + INTERNAL]
        if unknown:
            raise ValueError(f"unknown column {unknown[0]!r}; columns are {', '.join(COLUMNS)}")
        self.columns = tuple(columns)
        self.castling = <uint8_t>int(_options.castling(castling))
        self.ep_mode = <uint8_t>int(_options.en_passant(en_passant))


cdef dict _alloc(Spec spec, Py_ssize_t n, fx_t_columns *c):
    """Arrays for up to n entries of spec's columns, wired into *c."""
    memset(c, 0, sizeof(fx_t_columns))
    c.castling, c.ep_mode = spec.castling, spec.ep_mode
    cdef dict out
    if spec.reuse and spec.scratch is not None and spec.room >= n:
        out = spec.scratch
    else:
        out = _arrays(spec, n)
        if spec.reuse:
            spec.scratch, spec.room = out, n
    _wire(out, c)
    return out


cdef dict _arrays(Spec spec, Py_ssize_t n):
    """Fresh arrays for up to n entries of spec's columns."""
    cdef dict out = {}
    cdef cnp.ndarray a
    for name in spec.columns:
        if name in TEXT:
            data = np.empty(n * TEXT[name] + FX_MAX_OUTPUT, np.uint8)
            offsets = np.zeros(n + 1, np.int32)
            out[name] = (data, offsets)
            continue
        out[name] = {"record": lambda: np.empty(n, POSITION_DTYPE),
             "packed": lambda: np.empty((n, 24), np.uint8),
             "sfmove": lambda: np.empty(n, np.uint16), "score": lambda: np.empty(n, np.int16),
             "ply": lambda: np.empty(n, np.uint16), "result": lambda: np.empty(n, np.int8),
             "rule50": lambda: np.empty(n, np.uint32),
             "chain": lambda: np.empty(n, np.int64),
             "entries": lambda: np.empty(n * sizeof(fx_t_entry), np.uint8)}[name]()
    return out


cdef void _wire(dict arrays, fx_t_columns *c):
    """Point the columns of *c at the arrays."""
    cdef cnp.ndarray a
    for name, value in arrays.items():
        if name in TEXT:
            p = cnp.PyArray_DATA(value[0])
            ends = <int32_t *>cnp.PyArray_DATA(value[1]) + 1
            if name == "fen":
                c.fen, c.fen_ends = <uint8_t *>p, ends
            elif name == "move":
                c.uci, c.uci_ends = <uint8_t *>p, ends
            else:
                c.plain, c.plain_ends = <uint8_t *>p, ends
            continue
        a = value
        p = cnp.PyArray_DATA(a)
        if name == "record": c.records = <uint8_t *>p
        elif name == "packed": c.packed = <uint8_t *>p
        elif name == "sfmove": c.sfmove = <uint16_t *>p
        elif name == "score": c.score = <int16_t *>p
        elif name == "ply": c.ply = <uint16_t *>p
        elif name == "result": c.result = <int8_t *>p
        elif name == "rule50": c.rule50 = <uint32_t *>p
        elif name == "chain": c.chain = <int64_t *>p
        else: c.entries = <fx_t_entry *>p


cdef dict _trim(dict arrays, Py_ssize_t n):
    """The first n entries of each column (text data cut to its last end)."""
    cdef dict out = {}
    for name, value in arrays.items():
        if isinstance(value, tuple):
            data, offsets = value
            offsets = offsets[:n + 1]
            out[name] = (data[:offsets[n]], offsets)
        else:
            out[name] = value[:n * (sizeof(fx_t_entry) if name == "entries" else 1)]
    return out


cdef class BinpackBlock:
    """The chains of one .binpack block (the bytes after its header), read
    entry after entry.  Chains are counted from 0 within the block."""
    cdef fx_bp_reader r
    cdef object data
    cdef const uint8_t[::1] view

    def __init__(self, data):
        self.data = data
        self.view = _bytes(data)
        cdef const uint8_t *p = &self.view[0] if self.view.shape[0] else NULL
        fx_bp_reader_init(&self.r, p, self.view.shape[0], 0)

    @property
    def done(self):
        return bool(self.r.done)

    @property
    def chains(self):
        """Chains begun so far."""
        return self.r.chain + 1

    def read(self, Spec spec, Py_ssize_t max_n):
        """Up to max_n entries: (columns, n, failure or None, lost) where
        lost says the failure ended the block's reading."""
        cdef fx_t_columns c
        cdef fx_t_error err
        cdef dict arrays = _alloc(spec, max_n, &c)
        cdef size_t n
        cdef int lost = 0
        memset(&err, 0, sizeof(err))
        with nogil:
            n = fx_bp_read(&self.r, &c, 0, max_n, &err)
        failure = None
        if err.code:
            failure = _failure(err)
            lost = fx_bp_skip_chain(&self.r, &err) != 0
        return _trim(arrays, n), n, failure, bool(lost)


cdef class Chains:
    """Chain (game) numbering across calls of the .bin and .plain readers."""
    cdef fx_t_chains t

    def __init__(self, int64_t first=0):
        fx_t_chains_init(&self.t, first)


def read_bin(data, Spec spec, Chains chains, Py_ssize_t max_n):
    """Up to max_n 40-byte records of data: (columns, n, failure or None);
    after a failure the caller goes on past the failing record."""
    cdef const uint8_t[::1] view = _bytes(data)
    cdef size_t n = min(<size_t>max_n, <size_t>view.shape[0] // FX_BIN_SIZE), got
    cdef fx_t_columns c
    cdef fx_t_error err
    cdef dict arrays = _alloc(spec, n, &c)
    memset(&err, 0, sizeof(err))
    if n:
        with nogil:
            got = fx_bin_read_many(&view[0], n, &c, &chains.t, 0, &err)
    else:
        got = 0
    return _trim(arrays, got), got, _failure(err) if err.code else None


def read_plain(data, bint final, Spec spec, Chains chains, Py_ssize_t max_n):
    """Up to max_n whole entries of .plain text: (columns, n, bytes used,
    newlines in them, failure or None)."""
    cdef const uint8_t[::1] view = _bytes(data)
    cdef size_t used = 0, n = 0, lines = 0
    cdef fx_t_columns c
    cdef fx_t_error err
    cdef dict arrays = _alloc(spec, max_n, &c)
    memset(&err, 0, sizeof(err))
    if view.shape[0]:
        with nogil:
            n = fx_plain_read(&view[0], view.shape[0], final, &used, &lines, &c, &chains.t, 0,
                              max_n, &err)
    failure = None
    if err.code:
        start = err.offset
        end = bytes(view[start:]).find(b"\n")
        failure = _failure(err, bytes(view[start:len(view) if end < 0 else start + end]))
    return _trim(arrays, n), n, used, lines, failure


def spread(data, const int32_t[::1] offsets, Py_ssize_t width):
    """Arrow-style text as a numpy S array of the given width."""
    cdef Py_ssize_t n = offsets.shape[0] - 1, i
    cdef cnp.ndarray out = np.zeros(n, f"S{max(width, 1)}")
    cdef const uint8_t[::1] text = _bytes(data)
    cdef uint8_t *o = <uint8_t *>cnp.PyArray_DATA(out)
    cdef Py_ssize_t w = out.itemsize
    if n and text.shape[0]:
        with nogil:
            for i in range(n):
                memcpy(o + i * w, &text[0] + offsets[i], offsets[i + 1] - offsets[i])
    return out


# ---------------------------------------------------------------- writing


cdef class Table:
    """Flat columns of rows to write: entries a reader gave (the bytes of
    its "entries" column), or positions as text (data, int64 offsets) or
    records, moves as UCI text or Stockfish's 16 bits, and int64 score, ply
    and result.  `missing` holds 1 + the field of a row's missing value
    (0: none)."""
    cdef fx_t_table t
    cdef readonly Py_ssize_t n
    cdef object keep

    def __init__(self, Py_ssize_t n, fen=None, records=None, uci=None, sfmove=None,
                 score=None, ply=None, result=None, missing=None, entries=None):
        self.n = n
        self.keep = (fen, records, uci, sfmove, score, ply, result, missing, entries)
        memset(&self.t, 0, sizeof(fx_t_table))
        if entries is not None:
            self.t.entries = <const fx_t_entry *>_pointer(entries, np.uint8,
                                                          n * sizeof(fx_t_entry))
            return
        if fen is not None:
            self.t.fen = _pointer(fen[0], np.uint8, -1)
            self.t.fen_offsets = <const int64_t *>_pointer(fen[1], np.int64, n + 1)
        else:
            self.t.records = _pointer(records, POSITION_DTYPE, n)
        if uci is not None:
            self.t.uci = _pointer(uci[0], np.uint8, -1)
            self.t.uci_offsets = <const int64_t *>_pointer(uci[1], np.int64, n + 1)
        else:
            self.t.sfmove = <const uint16_t *>_pointer(sfmove, np.uint16, n)
        self.t.score = <const int64_t *>_pointer(score, np.int64, n)
        self.t.ply = <const int64_t *>_pointer(ply, np.int64, n)
        self.t.result = <const int64_t *>_pointer(result, np.int64, n)
        if missing is not None:
            self.t.missing = _pointer(missing, np.uint8, n)


cdef const uint8_t *_pointer(cnp.ndarray a, dtype, Py_ssize_t n) except NULL:
    """The data of a C-contiguous array of the given dtype and length (any
    length for -1), checked here so the core reads only what is there."""
    if a.dtype != dtype or not a.flags.c_contiguous or a.ndim != 1 or (n >= 0 and a.shape[0] != n):
        raise ValueError(f"internal: column of {a.dtype}, {a.ndim} dims, expected {dtype} ({n},)")
    return <const uint8_t *>cnp.PyArray_DATA(a) if a.shape[0] else <const uint8_t *>b""


def check_offsets(const int64_t[::1] offsets, Py_ssize_t size):
    """ValueError unless offsets start at 0 or more, never decrease and end
    within size bytes."""
    cdef Py_ssize_t i, n = offsets.shape[0]
    cdef int bad = 0
    with nogil:
        for i in range(n):
            if offsets[i] < 0 or offsets[i] > size or (i and offsets[i] < offsets[i - 1]):
                bad = 1
                break
    if bad:
        raise ValueError(f"text offsets outside their data at row {max(i - 1, 0)}")


cdef class BinpackWriter:
    """Chains and blocks of .binpack as Stockfish's writer forms them, in
    two block buffers taken in turn: a block taken stays unchanged until
    the next one is taken."""
    cdef fx_bp_writer w
    cdef cnp.ndarray block
    cdef cnp.ndarray other

    def __init__(self):
        self.block = np.empty(8 + FX_BP_WRITER_ROOM, np.uint8)  # the header, then the block
        self.block[:4] = np.frombuffer(b"BINP", np.uint8)
        self.other = self.block.copy()
        fx_bp_writer_init(&self.w, <uint8_t *>cnp.PyArray_DATA(self.block) + 8,
                          FX_BP_WRITER_ROOM)

    def add(self, Table table, Py_ssize_t start):
        """Add rows from start on: (rows added, status, failure or None);
        status 1: the block is complete (take it, then go on)."""
        cdef fx_t_error err
        cdef int status = 0
        cdef size_t n
        memset(&err, 0, sizeof(err))
        with nogil:
            n = fx_bp_write_rows(&self.w, &table.t, start, table.n - start, &status, &err)
        failure = None
        if status < 0:
            failure = _failure(err, _row_text(table, start + n))
        return n, status, failure

    def take(self):
        """The complete block with its header, a view that stays unchanged
        until the next block is taken; the next block starts in the other
        buffer."""
        cdef size_t n = self.w.len
        self.block[4:8] = np.frombuffer(int(n).to_bytes(4, "little"), np.uint8)
        out = memoryview(self.block)[:8 + n] if n else memoryview(b"")
        fx_bp_writer_flushed(&self.w)
        self.block, self.other = self.other, self.block
        self.w.block = <uint8_t *>cnp.PyArray_DATA(self.block) + 8
        return out

    def finish(self):
        """Close the open chain: take() then gives the last block."""
        fx_bp_finish(&self.w)


cdef object _row_text(Table table, Py_ssize_t row):
    """Row's position text, for the messages of the position reader."""
    fen = table.keep[0]
    if fen is None or row >= table.n:
        return None
    return bytes(fen[0][fen[1][row]:fen[1][row + 1]])


#: Bytes write_rows needs a row.
BIN_ROW = FX_BIN_SIZE
PLAIN_ROW = FX_PLAIN_MAX


def write_rows(Table table, Py_ssize_t start, cnp.ndarray out, str fmt):
    """Rows from start on as .bin or .plain bytes into out (uint8, room for
    BIN_ROW or PLAIN_ROW bytes a row, as many rows as fit): (a view of the
    bytes in out, rows written, failure or None); a failure stops at its
    row."""
    cdef bint binary = fmt == "bin"
    if out.dtype != np.uint8 or not out.flags.c_contiguous or out.ndim != 1:
        raise ValueError("internal: write_rows needs a flat uint8 array")
    cdef Py_ssize_t n = min(out.shape[0] // (FX_BIN_SIZE if binary else FX_PLAIN_MAX),
                            table.n - start)
    cdef size_t rows = 0, used = 0
    cdef fx_t_error err
    memset(&err, 0, sizeof(err))
    cdef uint8_t *o = <uint8_t *>cnp.PyArray_DATA(out)
    with nogil:
        if binary:
            rows = fx_bin_write_rows(&table.t, start, n, o, &err)
            used = rows * FX_BIN_SIZE
        else:
            rows = fx_plain_write_rows(&table.t, start, n, o, &used, &err)
    failure = _failure(err, _row_text(table, start + rows)) if err.code else None
    return memoryview(out)[:used], rows, failure
