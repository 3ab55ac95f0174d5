# The jobs of a batch and the threads (workers) that run them, for
# fastxfen._bulk's Batch, which makes and reads them.
from cpython.pythread cimport PyThread_type_lock
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t

cimport cython

from fastxfen._core cimport fx_batch_opts, fx_batch_out, fx_rows


cdef extern from "halt.h" nogil:
    ctypedef int fx_flag
    void fx_halt(fx_flag *flag)
    int fx_halted(const fx_flag *flag)


cdef enum:
    # Rows per job (but for newline buffers, cut by bytes): a normalize
    # job's text (about 1 MB) is still in the core's cache when it is
    # copied into the result.
    CHUNK_ROWS = 16384
    BLOCK = 1024  # rows a newline-buffer or offsets job finds at a time (16 KB of spans)
    SLACK = 3     # written normalize jobs a worker may hold before they are placed

cdef enum Source:  # where a job finds its rows' bytes
    SPANS,    # the batch's starts and ends
    LINES,    # the lines of data[byte_lo:byte_hi]
    OFFSETS,  # an Arrow offsets array: row r is data[offsets[r]:offsets[r + 1]]
    CELLS,    # a numpy S or U array: row r is cell r of data, its NULs trimmed
    TEXTS,    # a list's str rows: row r is texts[r][0:lens[r]]
    RECORDS   # records (decode): row r is records[r]


@cython.final
cdef class Job:
    cdef const uint8_t *data
    cdef const int64_t *starts
    cdef const int64_t *ends
    cdef int source             # Source
    cdef size_t byte_lo, byte_hi
    # LINES not counted up front: the job counts them (count) and numbers
    # its rows from 0 until its turn tells it its first row
    cdef bint uncounted
    cdef int64_t count
    cdef const void *offsets
    cdef bint wide_offsets      # int64 offsets (else int32)
    cdef size_t data_size
    cdef int64_t bad_row         # the first row whose offsets leave the data, or -1
    cdef bint changed           # the lines differ from those counted
    cdef const uint8_t *nulls   # 1 for a null row (Arrow), or NULL
    cdef const uint8_t *const *texts  # TEXTS: each row's characters ...
    cdef const size_t *lens           # ... and their number
    cdef size_t cell            # CELLS: bytes per cell
    cdef bint ucs4              # ... which are UCS-4, narrowed into narrow
    cdef uint8_t *narrow
    cdef int64_t lo, hi
    cdef fx_batch_opts opts     # the work (a records batch's is normalize: text)
    # what the row loop wrote: normalize's text, in a buffer lent by the
    # Worker running the job, and the job's failed rows, in order (with
    # errors="raise" the job stops at the first)
    cdef fx_batch_out out
    # where each row's text ends, in the result's ends or offsets (int64, or
    # with out.ends32 int32), from row lo; or NULL
    cdef void *out_ends
    cdef bint fixed             # out.text is the result itself, which cannot grow
    cdef bint outgrew           # ... and a row did not fit in it
    # the job's turn to copy its text into the result, and the next job's
    cdef PyThread_type_lock turn
    cdef PyThread_type_lock next_turn
    # encode: the record array written; decode: the record array read
    cdef char *records
    cdef Py_ssize_t itemsize
    cdef bint stopped           # at a failed row, with errors="raise"
    cdef bint out_of_memory
    # normalize: its turn taken; the worker's buffer holding its text (or -1)
    cdef bint has_turn
    cdef int slot
    cdef fx_flag *halt          # the batch's: raised, the job stops at its next block

    cdef bint _make_room(self) noexcept nogil
    cdef void _loop(self, fx_rows *rows, int64_t first, int64_t last) noexcept nogil
    cdef void _run(self) noexcept nogil
    cdef void _offset_rows(self, fx_rows rows) noexcept nogil
    cdef void _lines(self, fx_rows rows) noexcept nogil


@cython.final
cdef class Worker:
    cdef list jobs              # the batch's
    cdef Py_ssize_t *taken      # the batch's count of jobs taken
    cdef uint8_t *buffers[SLACK]
    cdef size_t caps[SLACK]
    cdef uint32_t busy          # bit s: buffers[s] holds an unplaced job's text
    cdef uint8_t *result
    cdef int64_t capacity
    cdef int64_t *placed    # bytes of the result filled; read and written in turn
    cdef int64_t *rows      # rows placed (numbering uncounted jobs); likewise
    cdef bint *overflow
    cdef fx_flag *halt          # the batch's: raised, the worker takes no more jobs

    cdef void _write(self, Job job) noexcept nogil
    cdef bint _place(self, Job job, bint wait)
    cdef void _placed(self, Job job) noexcept nogil


cdef inline int64_t _offset(const void *offsets, bint wide, int64_t k) noexcept nogil:
    """Entry k of an int64 (wide) or int32 offsets array."""
    return (<const int64_t *>offsets)[k] if wide else (<const int32_t *>offsets)[k]


cdef each(list items, method, fx_flag *halt)
