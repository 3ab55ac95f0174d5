"""Throughput of position keys and deduplication (fastxfen.keys).

Cases, on the deterministic corpus of corpus.py, each timed once to warm up
and then ``--repeat`` times, on one core (text is read with ``threads=1``):

* ``zobrist`` from records (``POSITION_DTYPE``, as ``encode`` gives them) and
  from text (a list of str and a newline-separated bytes buffer);
* ``unique`` from records and from a bytes buffer;
* ``--stream ROWS``: a ``Deduper`` fed ``ROWS`` rows in chunks of
  ``--chunk`` records (the corpus over and over, each pass with its own
  fullmove numbers and ``counters=True``, so every pass adds new positions),
  printing rows/s, the distinct positions held, the bytes held per distinct
  position and the process's peak RSS.  ``--stream 100000000`` is the
  100 M-row run of issue 17.
* ``--scale D1,D2,...``: for each number of distinct positions D, a
  newline buffer of ``--rows`` rows (at least D) holding D positions
  (dedupe_bench.py's generator), and in rounds that take turns, ``encode``,
  ``unique`` and ``Deduper.add`` of it on one thread, timed in the
  process's CPU time (which other jobs on a shared machine do not
  stretch): rows/s and the median of the per-round ratios to encode's
  time (into fresh memory, and with ``out=`` into memory in use), and the
  set's bytes per distinct position.

Figures are keys (rows) per second from the median time and, in brackets,
from the fastest run.

Usage::

    python bench/keys_bench.py                     # 100,000 positions
    python bench/keys_bench.py --n 20000 --repeat 5
    python bench/keys_bench.py --stream 100000000
    python bench/keys_bench.py --scale 5000,100000,1000000,10000000 --rows 10000000
"""

from __future__ import annotations

import argparse
import functools
import gc
import resource
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import builds  # noqa: E402
import corpus  # noqa: E402

try:
    import fastxfen as fx
except ImportError:  # the in-place build in src/
    sys.path.insert(0, str(HERE.parent / "src"))
    import fastxfen as fx


def time_case(fn, repeat):
    fn()
    times = []
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
        gc.enable()
    return times


def stream(records, rows, chunk):
    """Feed a Deduper rows records, chunk by chunk; print what it holds."""
    dedupe = fx.Deduper(counters=True)
    batch = np.resize(records, chunk)
    done, rounds = 0, 0
    t0 = time.perf_counter()
    while done < rows:
        take = min(chunk, rows - done)
        part = batch[:take]
        part["fullmove"] = 1 + rounds  # a new pass: new positions
        dedupe.add(part, threads=1)
        done += take
        rounds += 1
    elapsed = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB -> MiB on Linux
    per = dedupe.nbytes / max(dedupe.distinct, 1)
    print(
        f"stream: {done:,} rows in {elapsed:.1f} s ({done / elapsed:,.0f} rows/s), "
        f"{dedupe.distinct:,} distinct, {dedupe.nbytes / 2**20:,.0f} MiB held "
        f"({per:.1f} bytes per distinct position), peak RSS {peak:,.0f} MiB"
    )


def scale(distincts, rows, rounds):
    """unique and Deduper.add against encode of the same buffer, for each
    number of distinct positions asked (the generator's row numbers hit
    fewer when rows is not well above it: the count found is printed)."""
    import dedupe_bench

    cases = {
        "encode": fx.encode,
        "unique": fx.unique,
        "Deduper.add": lambda *a, **k: fx.Deduper().add(*a, **k),
    }
    print(
        f"unique and Deduper.add of a buffer against encode, one thread, CPU time, {rounds} rounds"
    )
    for distinct in distincts:
        n = max(rows, distinct)
        buf = b"".join(
            fx.decode(
                dedupe_bench.block_records(at, min(1 << 20, n - at), distinct), output="bytes"
            )
            for at in range(0, n, 1 << 20)
        )
        seen = fx.Deduper()
        out = np.empty(n, fx.POSITION_DTYPE)  # encode's records in memory in use
        steady = {"encode out=": functools.partial(fx.encode, out=out)}
        times = {name: [] for name in [*cases, *steady]}
        for _ in range(rounds):
            for name, fn in {**cases, **steady}.items():
                gc.collect()
                t0 = time.process_time()
                fn(buf, threads=1)
                times[name].append(time.process_time() - t0)
        seen.add(buf, threads=1)
        print(
            f"  {seen.distinct:>11,} distinct (of {distinct:,} asked) in {n:,} rows "
            f"({len(buf) / n:.0f} bytes a row), {seen.nbytes / seen.distinct:.1f} bytes "
            "per distinct position"
        )
        for name, spent in times.items():
            ratios = [
                statistics.median(e / t for e, t in zip(times[base], spent))
                for base in ("encode", "encode out=")
            ]
            print(
                f"    {name:<12} {n / statistics.median(spent) / 1e6:6.2f} M/s "
                f"({n / max(spent) / 1e6:.2f}-{n / min(spent) / 1e6:.2f}), "
                f"{ratios[0]:.2f} of encode's rate, {ratios[1]:.2f} of encode out='s"
            )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--stream", type=int, default=0, metavar="ROWS")
    parser.add_argument("--chunk", type=int, default=1 << 20)
    parser.add_argument("--scale", metavar="D1,D2,...", help="distinct positions, for --rows")
    parser.add_argument("--rows", type=int, default=2_000_000)
    args = parser.parse_args(argv)
    print(builds.describe(fx))
    if args.scale:
        scale([int(float(d)) for d in args.scale.split(",")], args.rows, args.repeat)
        return 0

    fens = corpus.load(args.n)
    buf = ("\n".join(fens) + "\n").encode("ascii")
    records = fx.encode(fens)
    n = len(records)
    cases = [
        ("zobrist from records", lambda: fx.zobrist(records)),
        ("zobrist from bytes buffer", lambda: fx.zobrist(buf, threads=1)),
        ("zobrist from list of str", lambda: fx.zobrist(fens, threads=1)),
        ("floor: encode bytes buffer", lambda: fx.encode(buf, threads=1)),
        ("unique from records", lambda: fx.unique(records)),
        ("unique from bytes buffer", lambda: fx.unique(buf, threads=1)),
    ]
    print(
        f"fastxfen {getattr(fx, '__version__', '?')}, {n} positions, "
        f"{args.repeat} runs, rows/s from the median [fastest] run"
    )
    width = max(len(name) for name, _ in cases)
    for name, fn in cases:
        times = time_case(fn, args.repeat)
        median, best = n / statistics.median(times), n / min(times)
        print(f"  {name:<{width}}  {median / 1e6:7.2f} M/s  [{best / 1e6:7.2f}]")
    if args.stream:
        stream(records, args.stream, args.chunk)
    return 0


if __name__ == "__main__":
    sys.exit(main())
