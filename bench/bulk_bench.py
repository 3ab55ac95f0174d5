"""Bulk paths: newline buffer -> buffer, Arrow -> Arrow, numpy U -> U, and the
list path, on one and two threads, in one run on the bench corpus.

    python bench/bulk_bench.py [--n 100000] [--copies 10] [--repeat 7]

The corpus is repeated --copies times so each call is large enough to split.
Prints median positions/s per case and the two-thread / one-thread ratio.
"""

import argparse
import statistics
import time

import corpus
import numpy as np

import fastxfen as fx


def rate(call, n, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return n / statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    rows = corpus.load(args.n) * args.copies
    n = len(rows)
    buffer = ("\n".join(rows) + "\n").encode()
    texts = np.array(rows)
    cases = {"newline buffer": buffer, "numpy U": texts}
    try:
        import pyarrow as pa

        cases["Arrow string"] = pa.array(rows, pa.string())
    except ImportError:
        pass
    print(f"{n:,} positions ({len(buffer) / n:.1f} bytes each), median of {args.repeat}\n")
    print("| input | 1 thread, positions/s | 2 threads, positions/s | 2 / 1 |")
    print("| --- | ---: | ---: | ---: |")
    for name, data in cases.items():
        one = rate(lambda data=data: fx.normalize(data, threads=1), n, args.repeat)
        two = rate(lambda data=data: fx.normalize(data, threads=2), n, args.repeat)
        print(f"| {name} | {one:,.0f} | {two:,.0f} | {two / one:.2f} |")
    listed = rate(lambda: fx.normalize(rows), n, args.repeat)
    print(f"| list of str (GIL held, one thread) | {listed:,.0f} | | |")
    mb = len(buffer) / 1e6
    one = rate(lambda: fx.normalize(buffer, threads=1), n, args.repeat) * mb / n
    print(f"\nnewline buffer, one thread: {one:,.0f} MB/s")


if __name__ == "__main__":
    main()
