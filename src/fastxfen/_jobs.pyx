# cython: language_level=3
"""The jobs of a batch and the threads that run them.

A batch (fastxfen._bulk.Batch) is cut into jobs of consecutive rows.  A job
finds its rows (``Source``: spans, a newline buffer's lines, Arrow offsets,
numpy cells, a list's str rows, or records) a block at a time and hands them
to the C row loop (core/batch.c), making the room it asks for; it keeps its
own list of failed rows.  Workers, one per thread, take the jobs in row
order as each gets free and run them with the GIL released; for normalize,
each job's text is placed in the result in row order.  The workers run in a
pool of helper threads of the calling thread, which waits for them looking
at signals; whatever stops a call raises a flag the jobs look at between
blocks, and the call ends only once every worker has stopped (``each``).
"""
from cpython.exc cimport PyErr_CheckSignals
from cpython.pythread cimport (NOWAIT_LOCK, PY_LOCK_ACQUIRED, WAIT_LOCK, PyLockStatus,
                               PyThread_acquire_lock, PyThread_allocate_lock,
                               PyThread_free_lock, PyThread_release_lock, PyThread_type_lock)
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memset

cimport cython

from fastxfen._core cimport *

import _thread
import atexit
import os
import weakref

from fastxfen._options import resolve_threads

cdef extern from "advise.h" nogil:
    void fx_advise_huge(void *p, size_t n)
    void fx_copy_out(uint8_t *dst, const uint8_t *src, size_t n)

cdef extern from "pythread.h" nogil:
    PyLockStatus PyThread_acquire_lock_timed(PyThread_type_lock lock, long long microseconds,
                                             int intr_flag)

cdef extern from *:
    """
    #if PY_VERSION_HEX >= 0x030D0000
    #define fx_py_finalizing() Py_IsFinalizing()
    #else
    #define fx_py_finalizing() _Py_IsFinalizing()
    #endif
    """
    int fx_py_finalizing()

cdef extern from "lines.h" nogil:
    int64_t fx_line_spans(const uint8_t *data, size_t *at, size_t size, int64_t *starts,
                          int64_t *ends, int64_t max_rows)

fx_init_tables()


@cython.final
cdef class Job:
    """Rows [lo, hi) of a batch and what became of them.  The job finds its
    rows (a block at a time) and hands them to the C row loop (core/batch.c),
    making the room it asks for."""

    def __dealloc__(self):
        free(self.out.failures)
        free(self.narrow)

    cdef bint _make_room(self) noexcept nogil:
        """Make the room the row loop stopped for; False if it cannot be made
        (out of memory, or the text is the result and its bound was wrong)."""
        cdef size_t cap
        cdef void *p
        if self.out.stop == FX_STOP_FAILURES:
            cap = self.out.failures_cap * 2 if self.out.failures_cap else 16
            p = realloc(self.out.failures, cap * sizeof(fx_failure))
            if p == NULL:
                self.out_of_memory = True
                return False
            self.out.failures, self.out.failures_cap = <fx_failure *>p, cap
            return True
        if self.fixed:
            self.outgrew = True
            return False
        cap = self.out.cap
        while cap - self.out.len < self.out.need:
            cap = cap * 2 if cap else 1 << 16
        p = realloc(self.out.text, cap)
        if p == NULL:
            self.out_of_memory = True
            return False
        fx_advise_huge(p, cap)
        self.out.text, self.out.cap = <uint8_t *>p, cap
        return True

    cdef void _loop(self, fx_rows *rows, int64_t first, int64_t last) noexcept nogil:
        """Rows first to last (rows[0] is row first) through the row loop."""
        cdef size_t at = 0, n = <size_t>(last - first)
        rows.first = first
        if self.nulls != NULL:
            rows.nulls = self.nulls + first
        if self.out_ends != NULL:
            self.out.ends = (<char *>self.out_ends
                             + (first - self.lo) * (4 if self.out.ends32 else 8))
        if self.source == RECORDS:
            rows.records = <const uint8_t *>self.records + first * self.itemsize
        elif self.opts.task == FX_ENCODE or self.opts.task == FX_NORMALIZE_CELLS:
            self.out.records = <uint8_t *>self.records + first * self.itemsize
            self.out.cell = <size_t>self.itemsize
        while not fx_halted(self.halt):
            if self.source == RECORDS:
                at = fx_batch_records(&self.opts, rows, at, n, &self.out)
            else:
                at = fx_batch_rows(&self.opts, rows, at, n, &self.out)
            if self.out.stop == FX_STOP_DONE:
                return
            if self.out.stop == FX_STOP_FAILURE:
                self.hi = first + <int64_t>at
                self.stopped = True
                return
            if self.out.stop == FX_STOP_WIDE:  # the caller takes the text path
                self.outgrew = self.stopped = True
                return
            if not self._make_room():
                return

    cdef void _run(self) noexcept nogil:
        cdef fx_rows rows
        memset(&rows, 0, sizeof(rows))
        rows.data = self.data
        if self.source == SPANS:
            rows.starts, rows.ends = self.starts + self.lo, self.ends + self.lo
            self._loop(&rows, self.lo, self.hi)
        elif self.source == LINES:
            self._lines(rows)
        elif self.source == RECORDS:
            self._loop(&rows, self.lo, self.hi)
        elif self.source == TEXTS:
            rows.data, rows.texts, rows.lens = NULL, self.texts + self.lo, self.lens + self.lo
            self._loop(&rows, self.lo, self.hi)
        elif self.source == CELLS:
            rows.itemsize, rows.ucs4 = self.cell, self.ucs4
            if self.ucs4:
                if self.narrow == NULL:
                    self.narrow = <uint8_t *>malloc(self.cell // 4)
                if self.narrow == NULL:
                    self.out_of_memory = True
                    return
                rows.narrow = self.narrow
            self._loop(&rows, self.lo, self.hi)
        else:
            self._offset_rows(rows)

    cdef void _offset_rows(self, fx_rows rows) noexcept nogil:
        """The rows of an offsets array, BLOCK at a time, once every offset
        of the job is known to lie in the data (so a bad one is reported
        whatever the rows before it hold).  Each block's offsets are checked
        again as they are copied: the array may change meanwhile."""
        cdef int64_t spans[2 * BLOCK]
        cdef int64_t k, r = self.lo
        rows.starts, rows.ends = spans, spans + BLOCK
        self.bad_row = _first_bad_offset(self.offsets, self.wide_offsets, self.lo, self.hi,
                                         self.data_size)
        while r < self.hi and not self.stopped and self.bad_row < 0 and not fx_halted(self.halt):
            k = min(<int64_t>BLOCK, self.hi - r)
            self.bad_row = _offset_spans(self.offsets, self.wide_offsets, r, k, spans,
                                         spans + BLOCK, self.data_size)
            if self.bad_row >= 0:
                return
            self._loop(&rows, r, r + k)
            r += k

    cdef void _lines(self, fx_rows rows) noexcept nogil:
        """The piece's lines, BLOCK at a time, found as they are read:
        one pass over the bytes, which also counts an uncounted piece.  A
        counted piece reads no more rows than were counted, and notes
        (changed) when its lines are not those counted."""
        cdef int64_t spans[2 * BLOCK]
        cdef size_t at = self.byte_lo
        cdef int64_t k, limit, r = self.lo
        rows.starts, rows.ends = spans, spans + BLOCK
        while not self.stopped and not fx_halted(self.halt):
            limit = BLOCK if self.uncounted else min(<int64_t>BLOCK, self.hi - r)
            k = fx_line_spans(self.data, &at, self.byte_hi, spans, spans + BLOCK, limit)
            if k == 0:
                break
            self._loop(&rows, r, r + k)
            r += k
        if self.uncounted:
            self.count = r
            self.hi = r
        elif not self.stopped and not fx_halted(self.halt) and (r != self.hi
                                                               or at < self.byte_hi):
            self.changed = True



cdef int64_t _first_bad_offset(const void *offsets, bint wide, int64_t lo, int64_t hi,
                               size_t size) noexcept nogil:
    """The first row of lo to hi whose offsets leave the data's size bytes
    (offsets must rise and stay in [0, size]), or -1."""
    cdef int64_t k, a, b
    for k in range(lo, hi):
        a, b = _offset(offsets, wide, k), _offset(offsets, wide, k + 1)
        if a < 0 or b < a or <size_t>b > size:
            return k
    return -1


cdef int64_t _offset_spans(const void *offsets, bint wide, int64_t lo, int64_t n,
                           int64_t *starts, int64_t *ends, size_t size) noexcept nogil:
    """Rows lo to lo + n of an offsets array as spans; the first of them
    that, as read here, leaves the data's size bytes, or -1."""
    cdef int64_t k, a, b
    for k in range(n):
        a, b = _offset(offsets, wide, lo + k), _offset(offsets, wide, lo + k + 1)
        if a < 0 or b < a or <size_t>b > size:
            return lo + k
        starts[k], ends[k] = a, b
    return -1


def jobs_for(int64_t n, int threads):
    """How many threads a batch of n rows runs on: `threads` (0: automatic),
    as _options.resolve_threads gives it, and at most one per row."""
    return max(1, min(resolve_threads(threads if threads > 0 else None, n), n))



@cython.final
cdef class Worker:
    """One thread's share of a batch's jobs: it takes the next job not yet
    taken until none is left, so its jobs rise.  A normalize job whose turn
    has come as it starts (every job, on one thread) writes straight into
    the result; the others write into a scratch buffer of the worker's and
    are placed when their turn comes: the job takes the room after the text
    of the jobs before it, hands the turn on, then copies its text there.
    A worker holds up to SLACK written jobs unplaced, so it goes on with
    its next job while another thread's job before is still being written."""

    def __dealloc__(self):
        cdef int k
        for k in range(SLACK):
            free(self.buffers[k])

    def run(self):
        cdef Job job
        cdef list written = []  # normalize jobs not yet placed, in row order
        try:
            while True:
                if len(written) == SLACK:  # (releases the GIL while it waits)
                    self._place(written.pop(0), True)
                # the GIL makes taking a job atomic; halted, the worker takes no more
                if self.taken[0] >= len(self.jobs) or fx_halted(self.halt):
                    break
                job = self.jobs[self.taken[0]]
                if job.opts.task != FX_NORMALIZE:
                    self.taken[0] += 1
                    with nogil:
                        job._run()
                    continue
                written.append(job)  # (before it is taken: a taken job is always placed)
                self.taken[0] += 1
                with nogil:
                    self._write(job)
                while written and self._place(written[0], False):
                    written.pop(0)
        except BaseException:  # (out of memory) the other workers stop too
            fx_halt(self.halt)
            raise
        finally:
            # the jobs after these wait for their turns: placed whatever happened
            for job in written:
                self._place(job, True)

    cdef void _write(self, Job job) noexcept nogil:
        cdef int slot = 0
        job.has_turn = PyThread_acquire_lock(job.turn, NOWAIT_LOCK)
        if job.has_turn:
            job.slot = -1
            job.out.text = self.result + self.placed[0]
            job.out.cap = <size_t>(self.capacity - self.placed[0])
        else:
            while self.busy >> slot & 1:
                slot += 1
            self.busy |= 1u << slot
            job.slot = slot
            job.out.text, job.out.cap = self.buffers[slot], self.caps[slot]
        job.out.len, job.fixed = 0, job.has_turn
        job._run()
        if not job.has_turn:  # the buffer may have grown
            self.buffers[job.slot], self.caps[job.slot] = job.out.text, job.out.cap

    cdef bint _place(self, Job job, bint wait):
        """Place a written job when its turn has come (with `wait`, once it
        comes); False if it has not."""
        if not job.has_turn:
            if wait:
                with nogil:
                    PyThread_acquire_lock(job.turn, WAIT_LOCK)
            elif not PyThread_acquire_lock(job.turn, NOWAIT_LOCK):
                return False
            job.has_turn = True
        with nogil:
            self._placed(job)
        return True

    cdef void _placed(self, Job job) noexcept nogil:
        cdef int64_t at, k, first
        cdef bint fits
        if job.uncounted:
            first = self.rows[0]
            self.rows[0] += job.count
            for k in range(<int64_t>job.out.n_failures):
                job.out.failures[k].row += first
        at = self.placed[0]
        fits = not job.outgrew and at + <int64_t>job.out.len <= self.capacity
        if fits:
            self.placed[0] = at + job.out.len
        else:
            self.overflow[0] = True
        # the next job needs only the offset: the copy (and the page faults
        # of fresh result memory) runs while it is placed
        if job.next_turn != NULL:
            PyThread_release_lock(job.next_turn)
        if job.slot >= 0:  # written aside: copy it, and free its buffer
            if fits and job.out.len:
                fx_copy_out(self.result + at, job.out.text, job.out.len)
            self.busy &= ~(1u << job.slot)
        job.out.text = NULL
        if not fits:
            return
        if job.out_ends != NULL and job.out.ends32:
            for k in range(job.hi - job.lo):
                (<int32_t *>job.out_ends)[k] += <int32_t>at
        elif job.out_ends != NULL:
            for k in range(job.hi - job.lo):
                (<int64_t *>job.out_ends)[k] += at



def _start(run):
    """run() in a new thread.  Not a pool's submit: that takes Python
    locks (threading's), which a signal's exception raised between their
    acquire and release would leave held, hanging the next call."""
    _thread.start_new_thread(run, ())


cdef enum:
    POLL_US = 5000  # microseconds between two looks at signals while the caller waits


@cython.final
cdef class _Task:
    """method(item) in a helper thread.  ``done`` is held until it has run;
    whoever takes ``claim`` first runs it: the helper, or the caller winding
    down, after which the helper leaves it alone (a task that never started
    never starts)."""
    cdef object method, item, result, error
    cdef PyThread_type_lock claim
    cdef PyThread_type_lock done

    def __cinit__(self, method, item):
        self.method, self.item = method, item
        self.claim = PyThread_allocate_lock()
        self.done = PyThread_allocate_lock()
        if self.claim == NULL or self.done == NULL:
            raise MemoryError()
        PyThread_acquire_lock(self.done, WAIT_LOCK)

    def __dealloc__(self):
        if self.claim != NULL:
            PyThread_free_lock(self.claim)
        if self.done != NULL:
            PyThread_free_lock(self.done)

    def run(self):
        if not PyThread_acquire_lock(self.claim, NOWAIT_LOCK):
            return
        try:
            self.result = self.method(self.item)
        except BaseException as exc:  # raised by the caller once all are done
            self.error = exc
        finally:
            PyThread_release_lock(self.done)

    cdef bint _claimed(self):
        """Whether the caller took the task before it started (so it never runs)."""
        return PyThread_acquire_lock(self.claim, NOWAIT_LOCK)


cdef _wait(list tasks, fx_flag *halt, bint claim):
    """Return once no task runs or will run: each has run, or (with
    ``claim``, or once halted) was claimed before it started.  Signals are
    looked at meanwhile: the exception of one (KeyboardInterrupt, the
    command line's SIGTERM) raises ``halt`` and is returned, the first of
    them, once the tasks are done."""
    cdef _Task task
    caught = None
    for task in tasks:
        if (claim or fx_halted(halt)) and task._claimed():
            continue
        exc = _await(task.done, halt)
        caught = caught if caught is not None else exc
    return caught


cdef _await(PyThread_type_lock lock, fx_flag *halt):
    """Take ``lock`` once it is free, looking at signals meanwhile: the
    exception of the first raises ``halt`` and is returned."""
    cdef PyLockStatus got
    caught = None
    while True:
        with nogil:  # (a signal to this thread cuts the wait short: PY_LOCK_INTR)
            got = PyThread_acquire_lock_timed(lock, POLL_US, 1)
        if got == PY_LOCK_ACQUIRED:
            return caught
        try:
            PyErr_CheckSignals()
        except BaseException as exc:
            fx_halt(halt)
            caught = caught if caught is not None else exc


cdef each(list items, method, fx_flag *halt):
    """method(item) for every item at once, each in a helper thread of the
    calling thread (one item: in the calling thread), which meanwhile waits
    for them, looking at signals.  Returns or raises only once no item's
    method runs any more: whatever stops the call (a signal's exception in
    the calling thread, an error in an item) first raises ``halt``, which
    the items look at between blocks of rows, and is raised once they have
    all stopped (KeyboardInterrupt first)."""
    cdef list tasks = []
    cdef _Task task
    if not items:
        return
    if len(items) == 1:
        method(items[0])
        return
    try:
        for item in items:
            task = _Task(method, item)
            tasks.append(task)
            _start(task.run)
    except BaseException:
        fx_halt(halt)
        caught = _wait(tasks, halt, True)
        if caught is not None:
            raise caught
        raise
    caught = _wait(tasks, halt, False)
    if caught is not None:
        raise caught
    for task in tasks:
        if task.error is not None:
            raise task.error


@cython.final
cdef class _Helper:
    """A helper thread of an Ahead: it runs the tasks given to it in the
    order given (skipping those the caller claimed), sleeps while it has
    none, and ends once closed with none left.  The GIL guards ``tasks``,
    ``sleeping`` and ``closing``; ``wake`` is held but while a sleeping
    helper is being woken, so it is released once per sleep."""
    cdef list tasks
    cdef bint sleeping, closing
    cdef PyThread_type_lock wake
    cdef PyThread_type_lock gone  # held until the thread has left its loop

    def __cinit__(self):
        self.tasks = []
        self.wake = PyThread_allocate_lock()
        self.gone = PyThread_allocate_lock()
        if self.wake == NULL or self.gone == NULL:
            raise MemoryError()
        PyThread_acquire_lock(self.wake, WAIT_LOCK)
        PyThread_acquire_lock(self.gone, WAIT_LOCK)

    def __dealloc__(self):
        if self.wake != NULL:
            PyThread_free_lock(self.wake)
        if self.gone != NULL:
            PyThread_free_lock(self.gone)

    def run(self):
        cdef _Task task
        try:
            while True:
                if self.tasks:
                    task = self.tasks.pop(0)
                    task.run()
                elif self.closing:
                    return
                else:
                    self.sleeping = True
                    with nogil:
                        PyThread_acquire_lock(self.wake, WAIT_LOCK)
        finally:
            PyThread_release_lock(self.gone)

    cdef give(self, _Task task):
        self.tasks.append(task)
        self._wake()

    cdef close(self):
        self.closing = True
        self._wake()

    cdef _wake(self):
        if self.sleeping:
            self.sleeping = False
            PyThread_release_lock(self.wake)


@cython.final
cdef class Ahead:
    """method(item) for items started one at a time, run by up to
    ``threads`` helper threads (each keeps its tasks in order), the results
    taken back in the order started: a reader decoding the blocks after the
    one it gives.  ``take`` waits for the oldest, looking at signals;
    whatever stops it (a signal's exception, the task's error) raises
    ``halted``, which the tasks look at between pieces of work, and is
    raised once no task runs any more (one not yet begun never runs).
    ``close`` does the same for the tasks still started, for a caller
    stopped elsewhere (a generator closed early), and ends the helpers;
    every way out of a caller must close."""
    cdef list tasks    # started, not yet taken, oldest first
    cdef list helpers
    cdef int threads
    cdef Py_ssize_t started
    cdef fx_flag halt
    cdef bint orphaned  # in a process forked while its helpers ran
    cdef object __weakref__

    def __cinit__(self, int threads):
        self.tasks, self.helpers, self.threads = [], [], max(1, threads)

    def __len__(self):
        return len(self.tasks)

    @property
    def halted(self) -> bool:
        return fx_halted(&self.halt) != 0

    def start(self, method, item):
        cdef _Task task = _Task(method, item)
        cdef _Helper helper
        self._check_process()
        if fx_halted(&self.halt):
            raise RuntimeError("this Ahead is closed")
        self.tasks.append(task)
        try:
            if len(self.helpers) < self.threads:
                helper = _Helper()
                _start(helper.run)
                self.helpers.append(helper)
                _open.add(self)
            helper = self.helpers[self.started % len(self.helpers)]
        except BaseException:
            self._raise_after_stop()
            raise
        helper.give(task)
        self.started += 1

    def take(self):
        """The result of the oldest task started, once it has run."""
        cdef _Task task
        self._check_process()
        task = self.tasks.pop(0)
        caught = _wait([task], &self.halt, False)
        if caught is None and task.error is None:
            return task.result
        self._raise_after_stop()
        raise caught if caught is not None else task.error

    def close(self):
        """Stop the tasks still started and end the helpers; return once
        none runs."""
        self._raise_after_stop()

    def map(self, method, items):
        """method(item) for each of ``items``, in order, one task more
        started than there are helpers (so that none idles while the
        caller uses a result); closed at the end, or when what iterates
        this stops (the generator closed or collected)."""
        try:
            for item in items:
                self.start(method, item)
                if len(self.tasks) > self.threads:
                    yield self.take()
            while self.tasks:
                yield self.take()
        finally:
            self.close()

    cdef _check_process(self):
        if self.orphaned:
            raise RuntimeError(
                "a threaded reader cannot go on in a process forked from the one that "
                "started it (its threads stay behind): open it in this process"
            )

    cdef _orphan(self):
        """In a forked child: the helpers stayed in the parent (the tasks
        stay listed, so that a caller asks for them and is told)."""
        fx_halt(&self.halt)
        self.orphaned = True

    cdef _raise_after_stop(self):
        cdef _Helper helper
        cdef _Task task
        fx_halt(&self.halt)
        tasks, self.tasks = self.tasks, []
        helpers, self.helpers = self.helpers, []
        _open.discard(self)
        if self.orphaned or fx_py_finalizing():
            # no helper here (a forked child), or past the point where other
            # threads may take the GIL, so that they cannot end: nothing is
            # waited for (the Aheads left open were closed before, by
            # _close_open)
            for task in tasks:
                task._claimed()
            return
        caught = _wait(tasks, &self.halt, True)
        for helper in helpers:
            helper.close()
        for helper in helpers:
            exc = _await(helper.gone, &self.halt)
            caught = caught if caught is not None else exc
        if caught is not None:
            raise caught


#: The Aheads whose helpers may still run (a caller that never closed one,
#: such as a reader's generator left unfinished at the program's end).
_open = weakref.WeakSet()


def _forked():
    cdef Ahead ahead
    for ahead in list(_open):
        ahead._orphan()
    _open.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)


@atexit.register
def _close_open():
    """Close every Ahead left open, while the helpers can still end: after
    the exit handlers, threads can no longer take the GIL, and a close then
    (by the generator's finalizer) would wait for them forever."""
    for ahead in list(_open):
        try:
            ahead.close()
        except BaseException:  # (a signal at exit) the others still close
            pass
