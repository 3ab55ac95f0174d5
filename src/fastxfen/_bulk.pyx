# cython: language_level=3
"""Batches: many rows of Python objects as the bulk kernels read them, and
their results back as Python objects.

A batch's rows are found in one of five ways: byte spans of one buffer in
two int64 arrays (``spans``), the cells of a numpy ``S`` or ``U`` array
(``from_fixed_width``, read in place by the row loop), the characters of a
list's ``str`` rows where they are (``strings``), an Arrow column's own
offsets (``offsets``), or the lines of a newline-separated buffer
(``lines``), cut into pieces of about a megabyte whose lines each job finds
(and for normalize counts) a block at a time as it reads them, so the text
is read from memory once.  Another kind of batch holds records instead of
text (``records``), for decode, which writes its text as normalize does.
A Batch cuts itself into jobs run on threads (fastxfen._jobs) with the GIL
released.  ``rows_from`` and ``to_fixed_width`` turn the text back into a
list or a numpy array.
"""
from cpython.bytearray cimport PyByteArray_AS_STRING, PyByteArray_Resize
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, _PyBytes_Resize
from cpython.pythread cimport (WAIT_LOCK, PyThread_acquire_lock, PyThread_allocate_lock,
                               PyThread_free_lock)
from cpython.ref cimport Py_DECREF, Py_INCREF, PyObject
from cpython.unicode cimport PyUnicode_GET_LENGTH
from libc.stdint cimport int32_t, int64_t, uint8_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memchr, memcmp, memcpy

cimport cython
cimport numpy as cnp

from fastxfen._codec cimport COERCE, RAISE, _error, _opts, _text_opts
from fastxfen._core cimport *
from fastxfen._jobs cimport (CELLS, CHUNK_ROWS, LINES, OFFSETS, RECORDS, SPANS, TEXTS, Job,
                             Worker, _offset, each, fx_flag, fx_halted)

import numpy as np

from fastxfen._jobs import jobs_for

from fastxfen._options import ROWS_PER_THREAD, cpu_count
from fastxfen._records import POSITION_DTYPE, POSITION_DTYPE_10x8

cdef extern from "advise.h" nogil:
    void fx_advise_huge(void *p, size_t n)

cdef extern from "cells.h" nogil:
    void fx_rows_to_cells(const uint8_t *text, size_t size, const int64_t *ends, size_t lo,
                          size_t hi, size_t chars, int ucs4, uint8_t *dst)

cdef extern from "lines.h" nogil:
    int64_t fx_count_lines(const uint8_t *data, size_t at, size_t size)

cdef extern from "Python.h":
    bint PyUnicode_IS_ASCII(object)
    void *PyUnicode_DATA(object)
    object PyUnicode_New(Py_ssize_t, Py_UCS4)

cnp.import_array()

#: The error of a call whose input changed under it (another thread wrote
#: to the buffer): its lines are no longer those counted.
CHANGED = "the input changed during the call (its lines differ from those counted)"
#: Rows per thread below which a batch is not split.
MIN_ROWS_PER_THREAD = ROWS_PER_THREAD
#: Bytes a row of a newline buffer is reckoned at before its lines are
#: counted (to choose the number of threads).
ROW_BYTES = 64
#: Rows per job (but for newline buffers, cut by bytes): a normalize job's
#: text (about 1 MB) is still in the core's cache when it is copied into the
#: result.
cdef class Batch:
    """Rows of one data buffer, cut into jobs."""
    cdef object keep            # what owns the memory the pointers point into
    cdef public int64_t base    # index of row 0 in the caller's input (Arrow chunks)
    cdef public object texts    # the input rows, for messages (a numpy U array, a list), or None
    cdef public list slow       # rows a list batch leaves to the row-by-row glue
    cdef const uint8_t *data
    cdef const int64_t *starts
    cdef const int64_t *ends
    cdef const uint8_t *nulls
    cdef readonly int64_t n
    # or a list's str rows (each one's characters and their number)
    cdef const uint8_t *const *row_texts
    cdef const size_t *row_lens
    # or a numpy S or U array's cells (cell bytes each; ucs4 for U)
    cdef size_t cell
    cdef bint ucs4
    # a newline buffer's pieces: bytes [cuts[k], cuts[k + 1]) are rows
    # [firsts[k], firsts[k + 1]) (starts and ends are then NULL); firsts is
    # None and n -1 until a normalize run has counted them
    cdef object pieces
    # or an Arrow column's offsets (n + 1 of them)
    cdef const void *offsets
    cdef bint wide_offsets
    cdef size_t data_size
    # or records (n of them), for decode
    cdef const char *records
    cdef Py_ssize_t itemsize
    cdef bint wide_records
    cdef bint missing           # decode: null records are missing values
    cdef list jobs
    cdef Py_ssize_t taken       # jobs taken by the workers of a run (with the GIL held)
    cdef fx_flag halt           # raised to stop the jobs of a run (a signal, an error)

    cdef void _jobs(self, fx_batch_opts opts) except *:
        """The jobs, each to do ``opts``: one per piece, or CHUNK_ROWS rows each."""
        cdef Job job
        cdef int64_t k, parts
        cdef const int64_t[::1] cuts
        cdef const int64_t[::1] firsts
        if self.records != NULL and opts.task != FX_NORMALIZE:
            raise TypeError("a batch of records can only be decoded")
        if self.pieces is not None and self.pieces[1] is None and (opts.task != FX_NORMALIZE
                                                                  or self.n >= 0):
            # rows numbered from the counts: an uncounted batch (or one whose
            # rows a normalize counted in its jobs) is counted first
            self._count_lines(0)
        if self.pieces is not None:
            cuts = self.pieces[0]
            if self.n >= 0:
                firsts = self.pieces[1]
            parts = cuts.shape[0] - 1
        else:
            parts = max(1, (self.n + CHUNK_ROWS - 1) // CHUNK_ROWS)
        self.jobs = []
        for k in range(parts):
            job = Job()
            job.opts = opts
            job.bad_row = -1
            job.halt = &self.halt
            job.data, job.starts, job.ends = self.data, self.starts, self.ends
            job.nulls = self.nulls
            if self.pieces is not None:
                job.source = LINES
                job.byte_lo, job.byte_hi = cuts[k], cuts[k + 1]
                if self.n < 0:
                    job.uncounted = True
                else:
                    job.lo, job.hi = firsts[k], firsts[k + 1]
            elif self.records != NULL:
                job.source = RECORDS
                job.records = <char *>self.records
                job.itemsize, job.opts.wide = self.itemsize, self.wide_records
                job.opts.missing = self.missing
                job.lo, job.hi = self.n * k // parts, self.n * (k + 1) // parts
            else:
                job.source = SPANS if self.offsets == NULL else OFFSETS
                if self.cell:
                    job.source, job.cell, job.ucs4 = CELLS, self.cell, self.ucs4
                elif self.row_texts != NULL:
                    job.source, job.texts, job.lens = TEXTS, self.row_texts, self.row_lens
                job.offsets, job.wide_offsets = self.offsets, self.wide_offsets
                job.data_size = self.data_size
                job.lo, job.hi = self.n * k // parts, self.n * (k + 1) // parts
            self.jobs.append(job)

    cdef void _count_lines(self, int threads):
        """Count the lines of each piece (in up to `threads` threads, 0: one
        per CPU, for large buffers): their first rows and n."""
        cdef _Counter counter
        cdef int64_t k
        cdef fx_flag halt = 0
        cuts = self.pieces[0]
        cdef int64_t pieces = cuts.shape[0] - 1
        counts = np.zeros(pieces + 1, np.int64)  # one spare: firsts is its running sum, shifted
        cdef int64_t[::1] c = cuts, n = counts
        threads = min(threads, cpu_count()) if threads > 0 else cpu_count()
        cdef int64_t parts = max(1, min(threads, pieces, self.data_size // MIN_BYTES_PER_THREAD))
        counters = []
        for k in range(parts):
            counter = _Counter()
            counter.data, counter.cuts, counter.counts = self.data, &c[0], &n[0]
            counter.lo, counter.hi = pieces * k // parts, pieces * (k + 1) // parts
            counter.halt = &halt
            counters.append(counter)
        each(counters, _Counter.count, &halt)
        firsts = np.zeros(pieces + 1, np.int64)
        np.cumsum(counts[:pieces], out=firsts[1:])
        self.pieces = (cuts, firsts)
        self.n = firsts[pieces]

    cpdef int64_t rows_reckoned(self):
        """n, or before a buffer's lines are counted one row per ROW_BYTES."""
        return self.n if self.n >= 0 else <int64_t>(self.data_size // ROW_BYTES)

    cdef list _workers(self, threads):
        """Workers for the jobs, which take them in turn as each gets free (a
        thread the machine runs slower takes fewer)."""
        cdef Worker worker
        cdef int64_t rows = self.rows_reckoned()
        cdef int64_t k, n = min(jobs_for(rows, threads), len(self.jobs))
        workers = []
        self.taken = 0
        for k in range(n):
            worker = Worker()
            worker.jobs, worker.taken, worker.halt = self.jobs, &self.taken, &self.halt
            workers.append(worker)
        return workers

    cdef _run(self, list workers):
        cdef Job job
        self.halt = 0
        each(workers, Worker.run, &self.halt)
        for job in self.jobs:
            if job.out_of_memory:
                raise MemoryError()
            if job.bad_row >= 0:
                raise ValueError(f"row {job.bad_row + self.base}: offsets outside the "
                                 "data buffer or decreasing")
            if job.changed:
                raise ValueError(CHANGED)

    cdef object _text(self, fx_failure *f):
        return PyBytes_FromStringAndSize(<const char *>self.data + f.start, f.end - f.start)

    cdef list _rejected_rows(self):
        cdef Job job
        cdef size_t k
        return [job.out.failures[k].row for job in self.jobs for k in range(job.out.n_failures)]

    def rejections(self):
        """(row, FenError) of every row the last run rejected, in row order."""
        return self._rejections(False)

    def rejected_rows(self):
        """The rows the last run rejected, in row order."""
        return self._rejected_rows()

    def raise_first(self):
        """Raise the FenError of the first row the last run rejected, if any."""
        failures = self._rejections(True)
        if failures:
            raise failures[0][1]

    cdef list _rejections(self, bint first_only):
        cdef Job job
        cdef size_t k
        cdef list out = []
        for job in self.jobs:
            for k in range(job.out.n_failures):
                row = job.out.failures[k].row
                if self.records != NULL:  # a record has no text to show
                    text = None
                elif self.texts is None:
                    text = self._text(&job.out.failures[k])
                elif isinstance(self.texts, np.ndarray):  # a U array: the row's code points
                    text = self.texts[row:row + 1].view(np.uint32)
                else:
                    text = self.texts[row]
                out.append((row, _error(row + self.base, job.out.failures[k].err, text)))
                if first_only:
                    return out
        return out

    def normalize(self, text, errors, *, int threads, bint terminators, bint ends=True,
                  offsets=None, bytearray into=None, bint fit=False):
        """Normalized text of every row, as ``text`` (a TextOptions) says,
        bad rows as the ErrorsMode ``errors`` says: (data, ends, failed
        rows).  ends are int64 row ends; None with ends=False; with
        offsets=np.int32 or np.int64, Arrow offsets of that type (n + 1,
        from 0).  Each job's text is copied into the result as soon as the
        jobs before it are.  With `into`, the text is written into that
        bytearray (grown if it is too small) and data is a memoryview of
        it: a caller reusing one buffer spares the page faults of fresh
        memory.  With `fit` too, data is `into` itself, cut to the text the
        moment the threads are done: no other thread's resize of it can
        come between.  EPD rows always get their four position fields."""
        return self._write_text(_text_opts(text, errors), threads, terminators, ends, offsets,
                                into, fit)

    def decode(self, text, errors, *, int threads, bint terminators, bint ends=True,
               offsets=None, bint missing=False):
        """The text of every record of a ``records`` batch, as normalize
        gives it; ``text`` a TextOptions of records (fields 4 or 6), errors
        RAISE or COERCE (a failed record writes no text).  With `missing`,
        a null record is a missing value: no text, whatever errors says, and
        not among the failed rows."""
        self.missing = missing
        return self._write_text(_text_opts(text, errors), threads, terminators, ends, offsets,
                                None, False)

    cpdef int64_t output_bound(self):
        """Bytes the text of the batch may take."""
        return _output_bound(self)

    cdef _write_text(self, fx_batch_opts opts, int threads, bint terminators, bint ends,
                     offsets, bytearray into, bint fit):
        cdef Job job
        cdef Worker worker
        cdef int64_t k
        cdef int64_t placed = 0, rows = 0, bound = _output_bound(self)
        cdef char *ends_at = NULL
        cdef Py_ssize_t width = 8
        cdef bint overflow = False
        cdef PyObject *raw
        cdef uint8_t *result
        if self.n < 0 and (ends or offsets is not None):  # the row ends need the rows
            self._count_lines(threads)
        opts.terminators = terminators
        self._jobs(opts)
        held = None  # into's buffer, exported while the threads write to it
        if into is not None:
            if len(into) < bound:  # in place: no copy of a zeroed buffer
                PyByteArray_Resize(into, bound)
            # another thread resizing it meanwhile (another call into it) gets BufferError
            held = memoryview(into)
            if len(into) < bound:  # shrunk by a thread the view's allocation let run
                held.release()
                raise BufferError("out was resized by another thread as the call began")
            result = <uint8_t *>PyByteArray_AS_STRING(into)
        else:
            data = PyBytes_FromStringAndSize(NULL, bound)
            result = <uint8_t *>PyBytes_AS_STRING(data)
            fx_advise_huge(result, <size_t>bound)
        row_ends = None
        if offsets is not None:
            row_ends = np.empty(self.n + 1, offsets)
            row_ends[0] = 0
            width = row_ends.itemsize
            ends_at = <char *>cnp.PyArray_DATA(row_ends) + width
        elif ends:
            row_ends = np.empty(self.n, np.int64)
            ends_at = <char *>cnp.PyArray_DATA(row_ends)
        workers = self._workers(threads)
        for worker in workers:
            worker.result, worker.capacity = result, bound
            worker.placed, worker.rows, worker.overflow = &placed, &rows, &overflow
        try:
            for k in range(len(self.jobs)):
                job = self.jobs[k]
                job.out_ends = ends_at + job.lo * width if ends_at != NULL else NULL
                job.out.ends32 = width == 4
                job.turn = PyThread_allocate_lock()
                if job.turn == NULL:
                    raise MemoryError()
                if k:  # taken until the job before is placed
                    PyThread_acquire_lock(job.turn, WAIT_LOCK)
                    (<Job>self.jobs[k - 1]).next_turn = job.turn
            self._run(workers)
            if self.n < 0:
                self.n = rows
        finally:
            for job in self.jobs:
                if job.turn != NULL:
                    PyThread_free_lock(job.turn)
                job.turn = job.next_turn = NULL
            if held is not None:
                held.release()
                if fit:  # no Python code runs between the release and the cut
                    PyByteArray_Resize(into, placed)
        if overflow:
            raise RuntimeError("fastxfen: normalized text outgrew its bound (a bug)")
        if width == 4 and placed > 0x7FFFFFFF:
            raise OverflowError("output exceeds 2 GiB: use a large_string column")
        if opts.errors == RAISE:
            self.raise_first()
        failed = self._rejected_rows() if opts.errors != RAISE else []
        if into is not None:
            return into if fit else memoryview(into)[:placed], row_ends, failed
        # cut the result to its size, in place where the allocator allows
        raw = <PyObject *>data
        Py_INCREF(data)  # raw's own reference: dropping data leaves it the only one
        data = None
        _PyBytes_Resize(&raw, placed)
        data = <object>raw
        Py_DECREF(data)
        return data, row_ends, failed

    def normalize_cells(self, text, errors, *, int threads, Py_ssize_t chars):
        """normalize of an ``S`` cells batch straight into a new ``S<chars>``
        array, or None when a row does not fit a cell of ``chars`` (the text
        path then makes the result).  A coerced row is the empty string, an
        ignored one its input."""
        cdef fx_batch_opts opts = _text_opts(text, errors)
        cdef Job job
        opts.task = FX_NORMALIZE_CELLS
        self._jobs(opts)
        result = np.empty(self.n, f"S{chars}")
        for job in self.jobs:
            job.records = <char *>cnp.PyArray_DATA(result)
            job.itemsize = chars
        self._run(self._workers(threads))
        for job in self.jobs:
            if job.outgrew:
                return None
        if opts.errors == RAISE:
            self.raise_first()
        return result

    def encode(self, records, errors, *, int threads, out=None):
        """Records of every row, as ``records`` (a RecordOptions) says;
        failed rows get the null record; errors RAISE or COERCE.  With
        `out` (a writeable C-contiguous array of n records of the width's
        dtype, checked by the caller), they are written there."""
        cdef fx_batch_opts opts = _opts(FX_ENCODE, errors, records.epd)
        cdef Job job
        opts.wide = records.wide
        self._jobs(opts)  # counts the rows of an uncounted batch
        dtype = POSITION_DTYPE_10x8 if opts.wide else POSITION_DTYPE
        if out is None:
            result = np.empty(self.n, dtype)
        elif (out.dtype != dtype or out.shape != (self.n,) or not out.flags.c_contiguous
              or not out.flags.writeable):
            name = "POSITION_DTYPE_10x8" if opts.wide else "POSITION_DTYPE"
            raise ValueError(f"out must be a writeable C-contiguous array of shape "
                             f"({self.n},) and dtype fastxfen.{name}")
        else:
            result = out
        for job in self.jobs:
            job.records = <char *>cnp.PyArray_DATA(result)
            job.itemsize = result.itemsize
        self._run(self._workers(threads))
        if opts.errors == RAISE:
            self.raise_first()
        return result

    def validate(self, *, int threads, bint epd=False):
        """None or the message of every row."""
        self._jobs(_opts(FX_VALIDATE, COERCE, epd))
        self._run(self._workers(threads))
        out = [None] * self.n
        for row, failure in self._rejections(False):
            out[row] = f"{failure.location}: {failure.reason}"
        return out


cpdef int64_t text_bound(int64_t size):
    """The room normalize needs for a newline buffer of `size` bytes: a row
    grows only when valid, by at most 4 bytes, and a valid row takes 21
    bytes or more ("8/8/8/8/8/8/8/8 w - -") and its newline."""
    return size + size // 5 + 16 + FX_MAX_OUTPUT


cdef int64_t _output_bound(Batch b):
    """The room normalize needs for the batch: what it can write, where a row
    grows by at most the two counters it lacks (" 0 1") and a newline for a
    coerced last row, and a null row writes nothing; plus FX_MAX_OUTPUT,
    which a job writing in the result keeps free past each row's text."""
    cdef int64_t r, bound = 5 * b.n + FX_MAX_OUTPUT
    if b.pieces is not None:
        return text_bound(b.data_size)
    if b.records != NULL:  # each record's text, and its newline
        return b.n * (FX_MAX_OUTPUT + 1) + FX_MAX_OUTPUT
    if b.cell:  # a row holds at most a cell's characters
        return bound + b.n * <int64_t>(b.cell // 4 if b.ucs4 else b.cell)
    if b.row_texts != NULL:
        with nogil:
            for r in range(b.n):
                bound += b.row_lens[r]
        return bound
    cdef int64_t first, last
    if b.offsets != NULL:  # valid offsets rise: the rows hold last - first bytes
        first, last = _offset(b.offsets, b.wide_offsets, 0), _offset(b.offsets, b.wide_offsets, b.n)
        return bound + min(<int64_t>b.data_size, max(0, last - first))
    with nogil:
        for r in range(b.n):
            if b.nulls == NULL or not b.nulls[r]:
                bound += b.ends[r] - b.starts[r]
    return bound


cdef Batch _batch(object keep, const uint8_t *data, starts, ends, nulls=None):
    cdef Batch b = Batch()
    cdef const int64_t[::1] s = starts
    cdef const int64_t[::1] e = ends
    cdef const uint8_t[::1] z
    if e.shape[0] != s.shape[0]:
        raise ValueError("starts and ends differ in length")
    b.keep = (keep, starts, ends, nulls)
    b.data = data if data != NULL else <const uint8_t *>b""  # never offset a NULL
    b.n = s.shape[0]
    b.starts = &s[0] if b.n else NULL
    b.ends = &e[0] if b.n else NULL
    if nulls is not None and b.n:
        z = nulls
        if z.shape[0] != b.n:
            raise ValueError("nulls differs in length")
        b.nulls = &z[0]
    return b


def records(array):
    """Batch of the records of a 1-d C-contiguous POSITION_DTYPE or
    POSITION_DTYPE_10x8 array, for decode."""
    if array.dtype != POSITION_DTYPE and array.dtype != POSITION_DTYPE_10x8:
        raise TypeError("expected records of fastxfen.POSITION_DTYPE or "
                        f"POSITION_DTYPE_10x8, got dtype {array.dtype}")
    if array.ndim != 1 or not array.flags.c_contiguous:
        raise ValueError("expected a 1-d C-contiguous array of records")
    cdef Batch b = Batch()
    b.keep = array
    b.n = array.shape[0]
    b.data = <const uint8_t *>b""
    b.records = <const char *>cnp.PyArray_DATA(array) if b.n else <const char *>b.data
    b.itemsize = array.itemsize
    b.wide_records = array.dtype == POSITION_DTYPE_10x8
    return b


cdef class _Counter:
    """Counts the lines of pieces [lo, hi) of a buffer, in a thread of its own."""
    cdef const uint8_t *data
    cdef const int64_t *cuts
    cdef int64_t *counts
    cdef int64_t lo, hi
    cdef fx_flag *halt

    def count(self):
        cdef int64_t k
        with nogil:
            for k in range(self.lo, self.hi):
                if fx_halted(self.halt):
                    break
                self.counts[k] = fx_count_lines(self.data, self.cuts[k], self.cuts[k + 1])


#: Bytes per piece of a newline buffer: about 16,000 FEN lines, whose text,
#: line offsets and output stay in the core's cache while a job runs.
PIECE_BYTES = 1 << 20
#: Bytes per thread below which a buffer's lines are counted in one thread.
MIN_BYTES_PER_THREAD = 1 << 22


def lines(buffer, *, int threads=1, bint count=True):
    """Batch of the lines of a newline-separated buffer (a final newline
    ends the last line; it does not start another).  The buffer is cut at
    newlines into pieces of about PIECE_BYTES whose lines are counted, in up
    to `threads` threads (0: one per CPU) for large buffers.  With
    count=False they are not: `n` is -1 until `normalize` has counted them
    in its jobs (only normalize takes such a batch)."""
    cdef const uint8_t[::1] view = _bytes_view(buffer)
    cdef size_t size = view.shape[0], at
    cdef const uint8_t *data = &view[0] if size else NULL
    cdef const uint8_t *newline
    cdef size_t cut = 0
    cdef list cut_list = [0]
    while cut < size:
        at = cut + PIECE_BYTES
        newline = NULL if at >= size else <const uint8_t *>memchr(data + at - 1, 10, size - at + 1)
        cut = size if newline == NULL else <size_t>(newline - data) + 1
        cut_list.append(cut)
    cdef Batch batch = _batch(view, data, np.empty(0, np.int64), np.empty(0, np.int64))
    batch.data_size = size
    batch.pieces = (np.array(cut_list, np.int64), None)
    batch.n = -1
    if count:
        batch._count_lines(threads)
    return batch


def strings(list rows):
    """Batch of a list's rows, read where they are: each ``str`` of ASCII
    text is handed to the row loop as its characters (the batch keeps a
    tuple of the rows, so they live as long as it does, whatever happens to
    the list); every other item is a null row, listed in ``Batch.slow`` for
    the row-by-row glue.  ``texts`` is the list, for messages."""
    cdef tuple kept = tuple(rows)
    cdef Py_ssize_t i, n = len(kept)
    cdef list slow = []
    texts = np.empty(n, np.uintp)
    lens = np.empty(n, np.uintp)
    nulls = np.zeros(n, np.uint8)
    cdef size_t[::1] t = texts, m = lens
    cdef uint8_t[::1] z = nulls
    cdef const uint8_t *empty = <const uint8_t *>b""
    for i in range(n):
        item = kept[i]
        if type(item) is str and PyUnicode_IS_ASCII(item):
            t[i] = <size_t>PyUnicode_DATA(item)
            m[i] = <size_t>PyUnicode_GET_LENGTH(item)
        else:
            t[i], m[i], z[i] = <size_t>empty, 0, 1
            slow.append(i)
    cdef Batch batch = _batch(kept, NULL, np.empty(0, np.int64), np.empty(0, np.int64))
    batch.n = n
    if n:
        batch.row_texts = <const uint8_t *const *>&t[0]
        batch.row_lens = <const size_t *>&m[0]
        batch.nulls = &z[0]
    batch.keep = (kept, texts, lens, nulls)
    batch.texts = rows
    batch.slow = slow
    return batch


def rows_from(list rows, data, ends, list failed, *, bint ignore, one):
    """The list normalize returns for a ``strings`` batch: a row's own object
    where its text came out unchanged, else a new ``str``; failed rows (in
    row order) give the row (``ignore``) or None; ``one(i)`` answers for a
    slow row."""
    cdef const uint8_t[::1] text = _bytes_view(data)
    cdef const int64_t[::1] e = np.ascontiguousarray(ends, np.int64)
    cdef Py_ssize_t i, n = len(rows), k = 0, n_failed = len(failed)
    cdef int64_t start = 0, length
    cdef list out = [None] * n
    cdef object item
    for i in range(n):
        item = rows[i]
        length = e[i] - start
        if k < n_failed and failed[k] == i:
            k += 1
            out[i] = item if ignore else None
        elif type(item) is not str or not PyUnicode_IS_ASCII(item):
            out[i] = one(i)
        elif (length == PyUnicode_GET_LENGTH(item)
              and memcmp(&text[start] if length else NULL, PyUnicode_DATA(item), length) == 0):
            out[i] = item
        else:
            out[i] = PyUnicode_New(length, 127)
            if length:
                memcpy(PyUnicode_DATA(out[i]), &text[start], length)
        start = e[i]
    return out


def from_fixed_width(array):
    """Batch of the rows of a 1-d C-contiguous numpy ``S`` or ``U`` array,
    read in place: the row loop trims each cell's trailing NULs (they are
    not part of a row) and reads a ``U`` cell as one byte per character,
    non-ASCII as '?' (never valid FEN, and columns still count characters)."""
    cdef Py_ssize_t n = array.shape[0], itemsize = array.dtype.itemsize
    cdef const uint8_t[::1] raw = array.view(np.uint8) if n and itemsize else np.empty(0, np.uint8)
    if not (n and itemsize):  # n empty rows
        return _batch(raw, NULL, np.zeros(n, np.int64), np.zeros(n, np.int64))
    cdef Batch b = _batch(raw, &raw[0], np.empty(0, np.int64), np.empty(0, np.int64))
    b.n = n
    b.cell, b.ucs4 = itemsize, array.dtype.kind == "U"
    return b


def spans(data, starts, ends, nulls=None):
    """Batch of rows data[starts[i]:ends[i]]; rows where nulls is 1 are null."""
    cdef const uint8_t[::1] view = _bytes_view(data)
    starts = np.ascontiguousarray(starts, np.int64)
    ends = np.ascontiguousarray(ends, np.int64)
    if starts.size and (starts.min() < 0 or ends.max() > view.shape[0]
                        or (ends < starts).any()):
        raise ValueError("row offsets outside the data buffer")
    if nulls is not None:
        nulls = np.ascontiguousarray(nulls, np.uint8)
    return _batch(view, &view[0] if view.shape[0] else NULL, starts, ends, nulls)


def offsets(data, offsets, nulls=None):
    """Batch of the rows of an Arrow string column: row r is
    data[offsets[r]:offsets[r + 1]] (offsets: int32 or int64, n + 1 of them,
    checked by the jobs); rows where nulls is 1 are null."""
    cdef const uint8_t[::1] view = _bytes_view(data)
    offsets = np.ascontiguousarray(offsets)
    if offsets.dtype not in (np.int32, np.int64) or offsets.ndim != 1 or not offsets.size:
        raise ValueError("offsets must be a non-empty 1-d int32 or int64 array")
    cdef Batch b = _batch(view, &view[0] if view.shape[0] else NULL,
                          np.empty(0, np.int64), np.empty(0, np.int64))
    b.n = offsets.size - 1
    b.offsets = cnp.PyArray_DATA(offsets)
    b.wide_offsets = offsets.dtype == np.int64
    b.data_size = view.shape[0]
    if nulls is not None and b.n:
        nulls = np.ascontiguousarray(nulls, np.uint8)
        if nulls.shape[0] != b.n:
            raise ValueError("nulls differs in length")
        b.nulls = <const uint8_t *>cnp.PyArray_DATA(nulls)
    b.keep = (view, offsets, nulls)
    return b


def longest_row(ends):
    """The length of the longest row of text whose rows end at ends (int64,
    from 0), or 0."""
    cdef const int64_t[::1] e = np.ascontiguousarray(ends, np.int64)
    cdef int64_t i, start = 0, top = 0
    with nogil:
        for i in range(e.shape[0]):
            top = max(top, e[i] - start)
            start = e[i]
    return top


def to_fixed_width(data, ends, Py_ssize_t chars, *, bint ucs4=False, int threads=1, out=None):
    """Rows data[ends[i-1]:ends[i]] as a numpy ``S`` (or, with ucs4, ``U``)
    array of chars characters per row, zero padded, written in up to
    `threads` threads (0: jobs_for); into `out` (flat, C-contiguous, of
    that dtype, rows no longer than chars: the caller checks) if given."""
    cdef const uint8_t[::1] src = _bytes_view(data)
    cdef const int64_t[::1] e = np.ascontiguousarray(ends, np.int64)
    cdef Py_ssize_t n = e.shape[0]
    if out is None:  # every byte of every cell is written
        out = np.empty(n, f"U{chars}" if ucs4 else f"S{chars}")
    cdef uint8_t[::1] dst = out.view(np.uint8) if n and chars else np.empty(0, np.uint8)
    cdef _Widen part
    cdef int64_t k, parts
    cdef fx_flag halt = 0
    if n and chars:
        parts = jobs_for(n, threads)
        copies = []
        for k in range(parts):
            part = _Widen()
            part.src, part.size = &src[0] if src.shape[0] else NULL, src.shape[0]
            part.ends, part.dst = &e[0], &dst[0]
            part.chars, part.ucs4 = chars, ucs4
            part.lo, part.hi = n * k // parts, n * (k + 1) // parts
            part.halt = &halt
            copies.append(part)
        each(copies, _Widen.run, &halt)
    return out


cdef enum:
    WIDEN_BLOCK = 4096  # rows copied between two looks at the halt flag


cdef class _Widen:
    """Rows [lo, hi) of to_fixed_width."""
    cdef const uint8_t *src
    cdef size_t size
    cdef const int64_t *ends
    cdef uint8_t *dst
    cdef Py_ssize_t chars, lo, hi
    cdef bint ucs4
    cdef fx_flag *halt

    def run(self):
        cdef Py_ssize_t i = self.lo, stop
        with nogil:
            while i < self.hi and not fx_halted(self.halt):
                stop = min(i + WIDEN_BLOCK, self.hi)
                fx_rows_to_cells(self.src, self.size, self.ends, i, stop, self.chars,
                                 self.ucs4, self.dst)
                i = stop


cdef _bytes_view(buffer):
    view = memoryview(buffer)
    if view.format not in ("B", "b", "c") or view.ndim != 1 or not view.c_contiguous:
        view = memoryview(view.tobytes())
    return view.cast("B") if view.format != "B" else view
