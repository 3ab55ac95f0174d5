# cython: language_level=3
"""Glue between fastxfen.keys and the key kernels (core/zobrist.c,
core/dedupe.c): one GIL-free C loop over flat contiguous records per call,
the FenError of a refused record, and the lines a dedupe keeps."""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.string cimport memchr, memcpy

cimport numpy as cnp

from fastxfen._codec cimport COERCE, RAISE, _error
from fastxfen._core cimport fx_ep_mode, fx_error, fx_pos

import numpy as np

from fastxfen._records import POSITION_DTYPE_10x8

cnp.import_array()


cdef extern from "zobrist.h" nogil:
    enum:
        FX_POLYGLOT_KEYS
        FX_WIDE_KEYS
    const uint64_t fx_polyglot_keys[]
    const uint64_t fx_wide_keys[]
    ctypedef struct fx_key_records:
        const uint8_t *base
        size_t stride
        int wide, trusted, coerce
    void fx_zobrist_init()
    int64_t fx_zobrist_batch(const fx_key_records *recs, size_t n, uint64_t *out, fx_error *err)


cdef extern from "dedupe.h" nogil:
    enum:
        FX_PACKED_MAX
    ctypedef struct fx_dedupe:
        size_t count
    ctypedef struct fx_same:
        int counters
        fx_ep_mode ep
    int fx_dedupe_init(fx_dedupe *d, const fx_same *same, uint64_t key_mask)
    void fx_dedupe_free(fx_dedupe *d)
    size_t fx_dedupe_bytes(const fx_dedupe *d)
    int64_t fx_dedupe_add(fx_dedupe *d, const fx_key_records *recs, size_t n, uint8_t *first,
                          fx_error *err)
    ctypedef struct fx_dedupe_mark:
        pass
    fx_dedupe_mark fx_dedupe_note(const fx_dedupe *d)
    void fx_dedupe_rollback(fx_dedupe *d, fx_dedupe_mark mark)


fx_zobrist_init()

#: The polyglot keys (781) and the 10x8 extension's keys (1313), as the C
#: tables hold them.
POLYGLOT_KEYS = np.array(<uint64_t[:FX_POLYGLOT_KEYS]>fx_polyglot_keys, np.uint64)
WIDE_KEYS = np.array(<uint64_t[:FX_WIDE_KEYS]>fx_wide_keys, np.uint64)
#: Most bytes one packed position takes in a Deduper's arena.
PACKED_MAX = FX_PACKED_MAX


cdef fx_key_records _records(cnp.ndarray recs, bint trusted, int errors):
    """Flat contiguous records as the key kernels read them."""
    cdef fx_key_records r
    r.base = <const uint8_t *>cnp.PyArray_DATA(recs)
    r.stride = recs.itemsize
    r.wide = recs.dtype == POSITION_DTYPE_10x8
    r.trusted = trusted
    r.coerce = errors == COERCE
    return r


def zobrist(cnp.ndarray recs, *, bint trusted, int errors):
    """uint64 keys of flat contiguous records (trusted: fresh from encode);
    errors: ErrorsMode.RAISE or COERCE."""
    cdef fx_key_records r = _records(recs, trusted, errors)
    cdef size_t n = recs.shape[0]
    cdef cnp.ndarray out = np.empty(n, np.uint64)
    cdef fx_error err
    cdef int64_t failed
    with nogil:
        failed = fx_zobrist_batch(&r, n, <uint64_t *>cnp.PyArray_DATA(out), &err)
    if failed >= 0:
        raise _error(failed, err, None)
    return out


cdef class Table:
    """The set of distinct positions a Deduper has seen (core/dedupe.c), and
    the rows added to it."""
    cdef fx_dedupe d
    cdef bint busy      # an add is running in some thread
    cdef readonly int64_t rows

    def __cinit__(self, options, *, uint64_t key_mask=<uint64_t>-1):
        """``options``: a KeyOptions.  ``key_mask``: keys are ANDed with it,
        so tests can make positions share keys."""
        cdef fx_same same
        same.counters, same.ep = options.counters, <fx_ep_mode><int>options.en_passant
        if fx_dedupe_init(&self.d, &same, key_mask):
            raise MemoryError()

    def __dealloc__(self):
        fx_dedupe_free(&self.d)

    @property
    def count(self):
        """Distinct positions held."""
        return self.d.count

    @property
    def nbytes(self):
        """Bytes allocated for them (slots and packed positions)."""
        return fx_dedupe_bytes(&self.d)

    def add(self, cnp.ndarray recs, *, bint trusted=False, int errors=RAISE):
        """Bool mask of the records that are first occurrences (trusted:
        fresh from encode); a refused record raises unless errors is
        ErrorsMode.COERCE, and then none of them is added."""
        return self.add_chunks([(0, recs, trusted)], errors)[0]

    def add_chunks(self, chunks, int errors):
        """The masks of first occurrences of every chunk of (first row,
        records, trusted) that the iterable ``chunks`` gives, added all or
        nothing: whatever stops the call (a refused record, a FenError
        numbered by its chunk's first row; running out of memory; an
        exception while the next chunk is made, a signal's among them), the
        set and ``rows`` are put back as they were before it, and the
        exception is raised."""
        cdef fx_dedupe_mark mark = fx_dedupe_note(&self.d)
        cdef list masks = []
        cdef int64_t rows = 0
        if self.busy:
            raise RuntimeError("a Deduper takes one add at a time; this one is busy "
                               "in another thread")
        self.busy = True
        try:
            for start, recs, trusted in chunks:
                masks.append(self._add(recs, trusted, errors, start))
                rows += recs.shape[0]
        except BaseException:
            fx_dedupe_rollback(&self.d, mark)
            raise
        finally:
            self.busy = False
        self.rows += rows
        return masks

    cdef _add(self, cnp.ndarray recs, bint trusted, int errors, int64_t start):
        cdef fx_key_records r = _records(recs, trusted, errors)
        cdef size_t n = recs.shape[0]
        cdef cnp.ndarray first = np.empty(n, np.uint8)
        cdef fx_error err
        cdef int64_t failed
        with nogil:
            failed = fx_dedupe_add(&self.d, &r, n, <uint8_t *>cnp.PyArray_DATA(first), &err)
        if failed == -2:
            raise MemoryError(f"out of memory after {self.d.count} distinct positions")
        if failed >= 0:
            raise _error(start + failed, err, None)
        return first.view(bool)


cdef size_t _kept(const uint8_t *data, size_t size, const uint8_t *mask, size_t rows,
                  uint8_t *out) noexcept nogil:
    """The bytes of the lines of data whose row in mask is nonzero (rows
    lines at most), copied to out unless it is NULL."""
    cdef size_t at = 0, row = 0, written = 0, end
    cdef const uint8_t *newline
    while row < rows and at < size:
        newline = <const uint8_t *>memchr(data + at, 10, size - at)
        end = size if newline == NULL else <size_t>(newline - data) + 1
        if mask[row]:
            if out != NULL:
                memcpy(out + written, data + at, end - at)
            written += end - at
        at = end
        row += 1
    return written


def kept_lines(const uint8_t[::1] data, cnp.ndarray mask):
    """The lines of ``data`` (each with its terminator; the last may lack
    one) whose row in ``mask`` (bool, one per line, or fewer: the first
    lines) is True, as bytes."""
    cdef cnp.ndarray flags = np.ascontiguousarray(mask, np.bool_)
    cdef const uint8_t *rows = <const uint8_t *>cnp.PyArray_DATA(flags)
    cdef size_t n = flags.shape[0], size = data.shape[0], total
    cdef const uint8_t *text = &data[0] if size else NULL
    with nogil:
        total = _kept(text, size, rows, n, NULL)
    out = PyBytes_FromStringAndSize(NULL, total)
    cdef uint8_t *into = <uint8_t *>PyBytes_AS_STRING(out)
    with nogil:
        _kept(text, size, rows, n, into)
    return out
