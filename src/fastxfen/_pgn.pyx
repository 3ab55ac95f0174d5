# cython: language_level=3
"""PGN scanning and output assembly for fastxfen.pgn, in C with the GIL
released (core/pgnscan.c).  The rules are those of docs/pgn.md."""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from libc.stdint cimport int64_t, uint8_t
from libc.string cimport memset

cimport numpy as cnp
from cpython.ref cimport Py_INCREF

import numpy as np

from fastxfen._options import ErrorsMode, PgnSelect

cnp.import_array()

KEEP = PGN_KEEP
FEN_COLUMNS = ("at", "value", "value_end", "content_end", "crlf", "game", "line")

cdef extern from "pgnscan.h":
    ctypedef struct pgn_vec:
        int64_t *data
        size_t len, cap

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

    enum:
        PGN_SELECT_ALL
        PGN_SELECT_STANDARD
        PGN_SELECT_SETUP
        PGN_ERRORS_RAISE
        PGN_ERRORS_COERCE
        PGN_ERRORS_IGNORE
        PGN_KEEP

    ctypedef struct pgn_edit:
        const uint8_t *text
        size_t cut
        const int64_t *starts
        size_t games
        const int64_t *fens
        size_t nfen
        const int64_t *setups
        size_t nsetups
        const int64_t *odd
        size_t nodd
        const int64_t *failed
        size_t nfailed
        const uint8_t *rep
        const int64_t *rep_ends
        size_t rep_len
        int select, errors
        size_t stop
        uint8_t *flags
        size_t size
        int64_t written, fen_tags, setups_added

    int pgn_edit_plan(pgn_edit *e) nogil
    void pgn_edit_write(const pgn_edit *e, uint8_t *out) nogil

cdef const uint8_t EMPTY[1]

# The modes of fastxfen._options are the scanner's numbers.
assert [int(m) for m in PgnSelect] == [PGN_SELECT_ALL, PGN_SELECT_STANDARD, PGN_SELECT_SETUP]
assert [int(m) for m in ErrorsMode] == [PGN_ERRORS_RAISE, PGN_ERRORS_COERCE, PGN_ERRORS_IGNORE]


cdef enum:
    POOL = 2                  # vector sets kept for the next scans (a scan ahead)
    POOL_BYTES = 32 << 20     # ... each if it holds no more than this

cdef pgn_scan _pool[POOL]
cdef int _pooled = 0          # (read and written with the GIL held)


cdef size_t _capacity(const pgn_scan *s):
    return (s.starts.cap + s.start_lines.cap + s.fens.cap + s.setups.cap
            + s.odd_variants.cap) * sizeof(int64_t)


cdef class _Vectors:
    """The vectors one scan wrote, which the arrays of its Scan view.  When
    the last of them goes, the vectors go to a pool for the next scan, which
    then writes into memory already mapped rather than into fresh pages."""
    cdef pgn_scan s

    def __cinit__(self):
        global _pooled
        if _pooled:
            _pooled -= 1
            self.s = _pool[_pooled]
        self.s.starts.len = self.s.start_lines.len = self.s.fens.len = 0
        self.s.setups.len = self.s.odd_variants.len = 0

    def __dealloc__(self):
        global _pooled
        if _pooled < POOL and _capacity(&self.s) <= POOL_BYTES:
            _pool[_pooled] = self.s
            _pooled += 1
        else:
            pgn_scan_free(&self.s)

    cdef object view(self, const pgn_vec *v, int columns=1):
        """A read-only int64 numpy array of the vector (rows of ``columns``)
        that keeps this object alive."""
        cdef cnp.npy_intp dims[2]
        dims[0] = v.len // columns
        dims[1] = columns
        if v.data == NULL:  # nothing was pushed
            empty = np.empty(0, np.int64)
            return empty.reshape(-1, columns) if columns > 1 else empty
        out = cnp.PyArray_SimpleNewFromData(2 if columns > 1 else 1, dims, cnp.NPY_INT64,
                                            v.data)
        Py_INCREF(self)  # (the base takes a reference)
        cnp.PyArray_SetBaseObject(out, self)
        cnp.PyArray_CLEARFLAGS(out, cnp.NPY_ARRAY_WRITEABLE)
        return out


cdef class Scan:
    """What one pass over a buffer found (see scan())."""
    cdef readonly Py_ssize_t n, newlines, header_end, header_end_line
    cdef readonly bint inside, after_tag
    cdef readonly object starts, start_lines, fen, setup_games, odd_variant_games


def scan(const uint8_t[::1] text, variants=None, *, bint inside=False, bint after_tag=False):
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
    cdef _Vectors vectors = _Vectors()
    cdef pgn_scan *s = &vectors.s
    cdef Py_ssize_t n = text.shape[0]
    cdef const uint8_t *data = &text[0] if n else EMPTY
    cdef int rc
    names = [bytes(name) for name in variants] if variants is not None else []
    cdef pgn_name[64] table
    if len(names) > 64:
        raise ValueError("at most 64 names of standard chess")
    for k, name in enumerate(names):
        table[k].text = <const uint8_t *>PyBytes_AS_STRING(name)
        table[k].len = len(name)
    s.inside, s.after_tag = inside, after_tag
    s.variants = variants is not None
    s.standard, s.nstandard = table, len(names)
    with nogil:
        rc = pgn_scan_run(s, data, n)
    s.standard, s.nstandard = NULL, 0
    if rc:
        raise MemoryError()
    result = Scan()
    result.n = n
    result.newlines = s.newlines
    result.header_end, result.header_end_line = s.header_end, s.header_end_line
    result.inside, result.after_tag = s.inside, s.after_tag
    result.starts = vectors.view(&s.starts)
    result.start_lines = vectors.view(&s.start_lines)
    result.fen = vectors.view(&s.fens, PGN_FEN_COLUMNS)
    result.setup_games = vectors.view(&s.setups)
    result.odd_variant_games = vectors.view(&s.odd_variants)
    return result


cdef const int64_t *_first(const int64_t[::1] v):
    return &v[0] if v.shape[0] else NULL


def edit(const uint8_t[::1] text, *, Py_ssize_t cut, const int64_t[::1] starts,
         const int64_t[:, ::1] fen, const int64_t[::1] setup_games,
         const int64_t[::1] odd_variant_games, const int64_t[::1] failed_games, rep, rep_ends,
         int select, int errors, Py_ssize_t stop):
    """The output of the whole games text[:cut] (first bytes ``starts``):
    (text or None, flags, written, fen_tags, setups_added).

    ``fen`` holds the rows of Scan.fen of these games, ``setup_games`` and
    ``odd_variant_games`` those of Scan; ``failed_games`` (ascending) are
    the games with a rejected FEN tag.  FEN tag k gets the value
    rep[rep_ends[k - 1]:rep_ends[k]] (``rep`` and ``rep_ends`` may be None
    when no FEN tag is written, as with select="standard").  ``select`` (a
    PgnSelect) and ``errors`` (an ErrorsMode) are those of fastxfen.pgn;
    only games [0, stop) are written, after the bytes before the first game.  The text is None when it is
    text[:limit] unchanged; flags (uint8, one per game) has KEEP set for the
    games select keeps; the counts are those of the games written."""
    cdef pgn_edit e
    cdef const uint8_t[::1] r = rep if rep is not None else b""
    cdef const int64_t[::1] ends = rep_ends if rep_ends is not None else np.empty(0, np.int64)
    cdef int rc
    cdef Py_ssize_t limit
    cdef uint8_t *dst
    memset(&e, 0, sizeof(e))
    if not (0 <= cut <= text.shape[0] and 0 <= stop <= starts.shape[0]):
        raise ValueError("cut or stop out of range")
    if fen.shape[0] and fen.shape[1] != PGN_FEN_COLUMNS:
        raise ValueError("fen has the wrong number of columns")
    if rep_ends is not None and ends.shape[0] != fen.shape[0]:
        raise ValueError("rep_ends differs in length from fen")
    flags = np.empty(starts.shape[0], np.uint8)
    cdef uint8_t[::1] f = flags
    e.text = &text[0] if text.shape[0] else EMPTY
    e.cut = cut
    e.starts, e.games = _first(starts), starts.shape[0]
    e.fens, e.nfen = &fen[0, 0] if fen.shape[0] else NULL, fen.shape[0]
    e.setups, e.nsetups = _first(setup_games), setup_games.shape[0]
    e.odd, e.nodd = _first(odd_variant_games), odd_variant_games.shape[0]
    e.failed, e.nfailed = _first(failed_games), failed_games.shape[0]
    e.rep, e.rep_len = &r[0] if r.shape[0] else EMPTY, r.shape[0]
    e.rep_ends = _first(ends) if rep_ends is not None else NULL
    e.select, e.errors, e.stop = select, errors, stop
    e.flags = &f[0] if f.shape[0] else NULL
    with nogil:
        rc = pgn_edit_plan(&e)
    if rc:
        raise ValueError("games, FEN tags or replacements out of range or order")
    limit = starts[stop] if stop < starts.shape[0] else cut
    out = None
    if e.fen_tags or e.setups_added or e.size != <size_t>limit:
        out = PyBytes_FromStringAndSize(NULL, e.size)
        dst = <uint8_t *>PyBytes_AS_STRING(out)
        with nogil:
            pgn_edit_write(&e, dst)
    return out, flags, e.written, e.fen_tags, e.setups_added
