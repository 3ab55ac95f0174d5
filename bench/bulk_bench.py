"""Bulk paths: newline buffer -> buffer, Arrow -> Arrow, numpy U -> U, the
list path and records -> bytes (decode), on one and two threads, in one run
on the bench corpus.

    python bench/bulk_bench.py [--n 100000] [--copies 10] [--repeat 7]

The corpus is repeated --copies times so each call is large enough to split.
Prints median positions/s per case, the median of the per-round
two-thread / one-thread ratios (the two are timed in turns) and the ratio of
the best run of each.  Where a one-thread call releases the GIL (buffer,
Arrow, decode), each round also runs two one-thread calls at once in two threads:
twice the work of one call, split with no cost at all, so 2 x one call's
time over theirs is what the machine gives two cores at that moment (the
"machine" column), the ceiling for the two-thread ratio beside it.
"""

import argparse
import os
import statistics
import threading
import time

# numpy's OpenBLAS starts a thread per core that spins for a while after
# import; it is not used here and would take CPU from the two-thread runs
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import builds
import corpus
import numpy as np

import fastxfen as fx


def side_by_side(call):
    """Run call twice at once, in this thread and another."""
    other = threading.Thread(target=call)
    other.start()
    call()
    other.join()


def rates(one, two, n, repeat, control=False):
    """Positions/s of one and two threads, timed in turns (one run of each
    per round, so a slow stretch of a noisy machine hits both), the median
    of the per-round ratios, the ratio of the two best runs (what a quiet
    stretch of the machine gives) and, with control, the median per-round
    ratio of two one-thread calls side by side (None without)."""
    ones, twos, ratios, machine = [], [], [], []
    for _ in range(repeat):
        start = time.perf_counter()
        one()
        middle = time.perf_counter()
        two()
        end = time.perf_counter()
        ones.append(middle - start)
        twos.append(end - middle)
        ratios.append((middle - start) / (end - middle))
        if control:
            side_by_side(one)
            machine.append(2 * (middle - start) / (time.perf_counter() - end))
    best = min(ones) / min(twos)
    ceiling = statistics.median(machine) if control else None
    return (
        n / statistics.median(ones),
        n / statistics.median(twos),
        statistics.median(ratios),
        best,
        ceiling,
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    print(builds.describe(fx))
    rows = corpus.load(args.n) * args.copies
    n = len(rows)
    buffer = ("\n".join(rows) + "\n").encode()

    def normalizing(data):
        return lambda threads: fx.normalize(data, threads=threads)

    cases = {"newline buffer": normalizing(buffer), "numpy U": normalizing(np.array(rows))}
    try:
        import pyarrow as pa

        cases["Arrow string"] = normalizing(pa.array(rows, pa.string()))
    except ImportError:
        pass
    print(f"{n:,} positions ({len(buffer) / n:.1f} bytes each), median of {args.repeat}\n")
    print(
        "| input | 1 thread, positions/s | 2 threads, positions/s "
        "| 2 / 1 (median of rounds) | 2 / 1 (best runs) | machine |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    cases["list of str"] = normalizing(rows)
    records = fx.encode(buffer)
    cases["records -> bytes (decode)"] = lambda threads: fx.decode(
        records, output="bytes", threads=threads
    )
    # one warm-up run of every case first: a process's first large calls
    # also pay for memory the system has not handed it before
    for call in cases.values():
        for threads in (1, 2):
            call(threads)
    for name, call in cases.items():
        one, two, ratio, best, ceiling = rates(
            lambda call=call: call(1),
            lambda call=call: call(2),
            n,
            args.repeat,
            control=name in ("newline buffer", "Arrow string", "records -> bytes (decode)"),
        )
        machine = "" if ceiling is None else f"{ceiling:.2f}"
        print(f"| {name} | {one:,.0f} | {two:,.0f} | {ratio:.2f} | {best:.2f} | {machine} |")
    mb = len(buffer) / 1e6
    one, two, _, _, _ = rates(
        lambda: fx.normalize(buffer, threads=1), lambda: fx.normalize(buffer, threads=2), n, 3
    )
    print(f"\nnewline buffer: {one * mb / n:,.0f} MB/s on one thread, {two * mb / n:,.0f} on two")


if __name__ == "__main__":
    main()
