# cython: language_level=3
"""PGN scanning and output assembly for fastxfen.pgn, in C with the GIL
released (core/pgnscan.c).  The rules are those of docs/pgn.md."""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from libc.stdint cimport int64_t, uint8_t
from libc.string cimport memcpy, memset

import numpy as np

FEN_COLUMNS = ("at", "value", "value_end", "content_end", "crlf", "game", "line")

cdef extern from "pgnscan.h":
    ctypedef struct pgn_vec:
        int64_t *data
        size_t len

    ctypedef struct pgn_name:
        const uint8_t *text
        size_t len

    ctypedef struct pgn_scan:
        int inside, after_tag, variants
        const pgn_name *standard
        size_t nstandard
        pgn_vec starts, start_lines, fens, setups, odd_variants
        int64_t newlines, header_end, header_end_line

    int PGN_FEN_COLUMNS
    int pgn_scan_run(pgn_scan *s, const uint8_t *text, size_t n) nogil
    void pgn_scan_free(pgn_scan *s)
    size_t pgn_assemble(uint8_t *out, const uint8_t *text, size_t limit, size_t count,
                        const int64_t *start, const int64_t *end, const uint8_t *rep,
                        const int64_t *rep_start, const int64_t *rep_end) nogil

cdef const uint8_t EMPTY[1]


cdef object _array(const pgn_vec *v, Py_ssize_t columns=1):
    """A new int64 numpy array holding the vector (rows of ``columns``)."""
    out = np.empty(v.len, np.int64)
    cdef int64_t[::1] flat = out
    if v.len:
        memcpy(&flat[0], v.data, v.len * sizeof(int64_t))
    return out.reshape(-1, columns) if columns > 1 else out


cdef class Scan:
    """What one pass over a buffer found (see scan())."""
    cdef readonly Py_ssize_t n, newlines, header_end, header_end_line
    cdef readonly bint inside, after_tag
    cdef readonly object starts, start_lines, fen, setup_games, odd_variant_games


def scan(const uint8_t[::1] text, variants=None, bint inside=False, bint after_tag=False):
    """Read PGN text from a line start where a ``{`` comment is open or not
    (``inside``) and the line before is a tag line or not (``after_tag``).

    ``variants``, if given, is a sequence of lower-case names (bytes) of
    standard chess; a Variant tag naming anything else is reported.  Returns
    a Scan: ``starts`` and ``start_lines`` (offset and line number of each
    game's first line), ``fen`` (one row per FEN tag of a header section,
    columns FEN_COLUMNS), ``setup_games`` and ``odd_variant_games`` (the game
    of each SetUp tag and of each Variant tag not naming standard chess),
    ``newlines``, ``header_end`` and ``header_end_line`` (the first line that
    does not start with ``[``, -1 if none), and the state after the last
    line, ``inside`` and ``after_tag``."""
    cdef pgn_scan s
    cdef Py_ssize_t n = text.shape[0]
    cdef const uint8_t *data = &text[0] if n else EMPTY
    cdef int rc
    names = [bytes(name) for name in variants] if variants is not None else []
    cdef pgn_name[64] table
    if len(names) > 64:
        raise ValueError("at most 64 names of standard chess")
    memset(&s, 0, sizeof(s))
    for k, name in enumerate(names):
        table[k].text = <const uint8_t *>PyBytes_AS_STRING(name)
        table[k].len = len(name)
    s.inside, s.after_tag = inside, after_tag
    s.variants = variants is not None
    s.standard, s.nstandard = table, len(names)
    try:
        with nogil:
            rc = pgn_scan_run(&s, data, n)
        if rc:
            raise MemoryError()
        result = Scan()
        result.n = n
        result.newlines = s.newlines
        result.header_end, result.header_end_line = s.header_end, s.header_end_line
        result.inside, result.after_tag = s.inside, s.after_tag
        result.starts = _array(&s.starts)
        result.start_lines = _array(&s.start_lines)
        result.fen = _array(&s.fens, PGN_FEN_COLUMNS)
        result.setup_games = _array(&s.setups)
        result.odd_variant_games = _array(&s.odd_variants)
        return result
    finally:
        pgn_scan_free(&s)


def assemble(const uint8_t[::1] text, Py_ssize_t limit, const int64_t[::1] start,
             const int64_t[::1] end, const uint8_t[::1] rep, const int64_t[::1] rep_start,
             const int64_t[::1] rep_end):
    """text[:limit] with the bytes [start[k], end[k]) replaced by
    rep[rep_start[k]:rep_end[k]], for sorted, non-overlapping edits."""
    cdef Py_ssize_t count = start.shape[0], k, size = limit, at = 0
    if not 0 <= limit <= text.shape[0]:
        raise ValueError("limit out of range")
    if end.shape[0] != count or rep_start.shape[0] != count or rep_end.shape[0] != count:
        raise ValueError("the edit arrays differ in length")
    for k in range(count):
        if not (at <= start[k] <= end[k] <= limit
                and 0 <= rep_start[k] <= rep_end[k] <= rep.shape[0]):
            raise ValueError(f"edit {k} is out of order or out of range")
        at = end[k]
        size += (rep_end[k] - rep_start[k]) - (end[k] - start[k])
    out = PyBytes_FromStringAndSize(NULL, size)
    cdef uint8_t *dst = <uint8_t *>PyBytes_AS_STRING(out)
    cdef const uint8_t *src = &text[0] if text.shape[0] else EMPTY
    cdef const uint8_t *rp = &rep[0] if rep.shape[0] else EMPTY
    cdef const int64_t *e0 = &start[0] if count else NULL
    cdef const int64_t *e1 = &end[0] if count else NULL
    cdef const int64_t *r0 = &rep_start[0] if count else NULL
    cdef const int64_t *r1 = &rep_end[0] if count else NULL
    with nogil:
        pgn_assemble(dst, src, limit, count, e0, e1, rp, r0, r1)
    return out
