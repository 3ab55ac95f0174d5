"""Leaks and threads.

Leaks: millions of conversions (valid and invalid rows, every error mode,
every input kind, single rows and batches, normalize / validate / encode /
decode) must not grow the memory Python tracks (tracemalloc) nor the
process's resident memory (which also sees the C core's and the bulk glue's
own malloc) beyond a small bound, measured after a warm-up.  The suite runs
LEAK_CONVERSIONS conversions (default 5,000,000; FASTXFEN_LEAK_CONVERSIONS
sets another count).

Threads: sixteen Python threads calling the API at once on the same input
objects get exactly what one thread gets, also with threads=2 inside each
call, and the inputs are left as they were.
"""

import gc
import os
import sys
import threading
import tracemalloc

import numpy as np
import pytest

import fastxfen as fx

LEAK_CONVERSIONS = int(os.environ.get("FASTXFEN_LEAK_CONVERSIONS", "5000000"))

FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
ROWS = [
    FEN,
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r3k2r/8/8/8/8/8/8/R3K2R w AHah - 0 1",
    "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
    "4k3/8/8/2KPp1r1/8/8/8/8 w - e6 0 2",
    "8/8/8/8/8/8/8/8 w - -",
    # invalid
    "",
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    FEN + " extra",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 99999999999 1",
    "rnbqkbnr/pppppppp/\u0663/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
]
ASCII_ROWS = [r for r in ROWS if r.isascii()]


def _rss():
    """Resident memory in bytes, or None where it cannot be read cheaply."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, AttributeError):
        return None


class Workload:
    """One round of calls over every input kind and error mode; `rows` is the
    number of row conversions one round makes."""

    def __init__(self, batch=200):
        rows = (ROWS * (batch // len(ROWS) + 1))[:batch]
        ascii_rows = (ASCII_ROWS * (batch // len(ASCII_ROWS) + 1))[:batch]
        self.list = rows
        self.buffer = "".join(r + "\n" for r in ascii_rows).encode()
        self.u = np.array(rows)
        self.s = np.array([r.encode() for r in ascii_rows])
        self.obj = np.array(rows, dtype=object)
        self.records8 = fx.encode(rows, errors="coerce")
        self.records10 = fx.encode(rows, width=10, errors="coerce")
        try:
            import pyarrow as pa
        except ImportError:
            self.arrow = []
        else:
            self.arrow = [
                pa.array(rows + [None]),
                pa.array(rows, pa.large_string()),
                pa.chunked_array([pa.array(rows[:50]), pa.array(rows[50:])]),
            ]
        self.batch = batch
        self.rows = 0

    def _count(self, n):
        self.rows += n

    def round(self):
        n = self.batch
        for errors in ("coerce", "ignore"):
            for castling, ep in (("xfen", "xfen"), ("shredder", "legal"), ("xfen", "fen")):
                fx.normalize(self.list, castling=castling, en_passant=ep, errors=errors)
                fx.normalize(self.buffer, castling=castling, en_passant=ep, errors=errors)
                self._count(2 * n)
            fx.normalize(self.u, errors=errors)
            fx.normalize(self.s, errors=errors)
            fx.normalize(self.obj, errors=errors)
            self._count(3 * n)
            for column in self.arrow:
                fx.normalize(column, errors=errors)
                self._count(n)
        for kind in (self.list, self.buffer, self.u, self.s, self.obj, *self.arrow):
            fx.validate(kind)
            self._count(n)
            for width in (8, 10):
                fx.encode(kind, width=width, errors="coerce")
                self._count(n)
            for call in (lambda kind=kind: fx.normalize(kind), lambda kind=kind: fx.encode(kind)):
                try:
                    call()
                except fx.FenError:
                    pass
                self._count(n)  # rows read before the first bad one, give or take
        for recs in (self.records8, self.records10):
            fx.decode(recs, errors="coerce", en_passant="legal")
            self._count(n)
            try:
                fx.decode(recs)
            except fx.FenError:
                pass
        for row in ROWS:  # single rows, every path that takes one
            fx.validate(row)
            fx.normalize(row, errors="coerce")
            try:
                fx.normalize(row)
            except fx.FenError as e:
                str(e)
            fx.encode(row, width=10, errors="coerce")
            self._count(4)
        fx.normalize(self.buffer, threads=2, errors="coerce")
        fx.validate(self.s, threads=2)
        self._count(2 * n)


@pytest.mark.slow
def test_no_leak():
    work = Workload()
    for _ in range(3):  # warm-up: caches, free lists, thread pool machinery
        work.round()
    gc.collect()
    rss_before = _rss()
    tracemalloc.start()
    try:
        for _ in range(3):
            work.round()
        gc.collect()
        traced_before, _ = tracemalloc.get_traced_memory()
        start_rows = work.rows
        traced_rounds = max(3, (LEAK_CONVERSIONS // 10) // (work.rows // 6))
        for _ in range(traced_rounds):
            work.round()
        gc.collect()
        traced_after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    traced_rows = work.rows - start_rows
    while work.rows < LEAK_CONVERSIONS:  # the rest without tracemalloc's overhead
        work.round()
    gc.collect()
    rss_after = _rss()
    growth = traced_after - traced_before
    print(
        f"\n{work.rows:,} conversions; tracemalloc grew {growth:,} B over "
        f"{traced_rows:,} conversions; RSS grew "
        f"{'n/a' if rss_before is None else f'{rss_after - rss_before:,} B'}",
        file=sys.stderr,
    )
    assert work.rows >= LEAK_CONVERSIONS
    assert growth < 256 * 1024, f"tracemalloc grew {growth:,} bytes"
    if rss_before is not None:
        assert rss_after - rss_before < 16 * 1024 * 1024, (
            f"RSS grew {rss_after - rss_before:,} bytes over {work.rows:,} conversions"
        )


# ---------------------------------------------------------------- threads


def _snapshot(work):
    """Every call of the thread test and its result, from one thread."""
    calls = {
        "list": lambda: fx.normalize(work.list, errors="coerce"),
        "list-ignore": lambda: fx.normalize(work.list, errors="ignore", en_passant="legal"),
        "buffer": lambda: fx.normalize(work.buffer, errors="coerce", threads=2),
        "buffer-shredder": lambda: fx.normalize(
            work.buffer, castling="shredder", errors="ignore", threads=2
        ),
        "u": lambda: fx.normalize(work.u, errors="coerce", threads=2).tolist(),
        "s": lambda: fx.normalize(work.s, errors="coerce", threads=2).tolist(),
        "obj": lambda: fx.normalize(work.obj, errors="coerce").tolist(),
        "validate-list": lambda: fx.validate(work.list),
        "validate-buffer": lambda: fx.validate(work.buffer, threads=2),
        "validate-s": lambda: fx.validate(work.s, threads=2),
        "encode-buffer": lambda: fx.encode(
            work.buffer, width=10, errors="coerce", threads=2
        ).tobytes(),
        "encode-u": lambda: fx.encode(work.u, errors="coerce", threads=2).tobytes(),
        "decode": lambda: fx.decode(work.records10, errors="coerce", en_passant="legal"),
        "raise": lambda: _error_of(lambda: fx.normalize(work.buffer, threads=2)),
        "raise-encode": lambda: _error_of(lambda: fx.encode(work.s, threads=2)),
    }
    for k, column in enumerate(work.arrow):
        calls[f"arrow{k}"] = lambda c=column: fx.normalize(
            c, errors="coerce", threads=2
        ).to_pylist()
        calls[f"arrow{k}-validate"] = lambda c=column: fx.validate(c, threads=2)
        calls[f"arrow{k}-encode"] = lambda c=column: fx.encode(
            c, errors="coerce", threads=2
        ).tobytes()
    return calls, {name: call() for name, call in calls.items()}


def _error_of(call):
    try:
        call()
    except fx.FenError as e:
        return (e.index, e.column, e.field, e.reason)
    return None


@pytest.mark.slow
def test_sixteen_threads_agree_with_one():
    work = Workload(batch=3000)  # big enough that threads=2 really splits
    calls, expected = _snapshot(work)
    inputs_before = (
        list(work.list),
        work.buffer,
        work.u.copy(),
        work.s.copy(),
        work.obj.copy(),
        work.records10.copy(),
    )
    barrier = threading.Barrier(16)
    failures = []
    names = sorted(calls)

    def worker(k):
        try:
            barrier.wait()
            for rep in range(4):
                for j in range(len(names)):
                    name = names[(j + k + rep) % len(names)]  # threads interleave calls
                    got = calls[name]()
                    if got != expected[name]:
                        failures.append((k, name))
        except Exception as e:  # pragma: no cover - reported below
            failures.append((k, repr(e)))

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures[:10]
    assert work.list == inputs_before[0] and work.buffer == inputs_before[1]
    assert np.array_equal(work.u, inputs_before[2]) and np.array_equal(work.s, inputs_before[3])
    assert list(work.obj) == list(inputs_before[4])
    assert work.records10.tobytes() == inputs_before[5].tobytes()


def test_threads_option_gives_identical_results():
    work = Workload(batch=5000)
    one = fx.normalize(work.buffer, errors="coerce", threads=1)
    for n in (2, 3, 7, 16):
        assert fx.normalize(work.buffer, errors="coerce", threads=n) == one
        assert fx.validate(work.s, threads=n) == fx.validate(work.s, threads=1)
        assert (
            fx.encode(work.u, errors="coerce", threads=n).tobytes()
            == fx.encode(work.u, errors="coerce", threads=1).tobytes()
        )
    with pytest.raises(fx.FenError) as info:
        fx.normalize(work.buffer, threads=16)
    first_bad = fx.validate(work.buffer).index(next(m for m in fx.validate(work.buffer) if m))
    assert info.value.index == first_bad
