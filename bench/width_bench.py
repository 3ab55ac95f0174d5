"""10x8 against 8x8: the same generator (tests/support/gen10x8.py: random setups after
random moves) makes both corpora, so only the width differs.

    python bench/width_bench.py [--n 50000] [--repeat 7]

Prints the median ns/position of normalize, encode (width=10) and validate for
each width and the 10x8 / 8x8 ratio.
"""

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))

import builds  # noqa: E402
from support import gen10x8  # noqa: E402

import fastxfen as fx  # noqa: E402


def median_ns(call, rows, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call(rows)
        times.append(time.perf_counter() - start)
    return statistics.median(times) / len(rows) * 1e9


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    rng = random.Random(2026)
    corpora = {w: [gen10x8.random_fen(rng, w) for _ in range(args.n)] for w in (8, 10)}
    cases = {
        "normalize": lambda rows: fx.normalize(rows),
        "normalize (bytes buffer)": None,
        "encode width=10": lambda rows: fx.encode(rows, width=10),
        "validate": fx.validate,
    }
    buffers = {w: ("\n".join(rows) + "\n").encode() for w, rows in corpora.items()}
    print(builds.describe(fx))
    print(f"{args.n} positions per width, median of {args.repeat} runs\n")
    print("| case | 8x8 ns/position | 10x8 ns/position | 10x8 / 8x8 |")
    print("| --- | ---: | ---: | ---: |")
    for name, call in cases.items():
        if call is None:
            result = {
                w: median_ns(
                    lambda _, w=w: fx.normalize(buffers[w], threads=1), corpora[w], args.repeat
                )
                for w in (8, 10)
            }
        else:
            result = {w: median_ns(call, corpora[w], args.repeat) for w in (8, 10)}
        print(f"| {name} | {result[8]:.0f} | {result[10]:.0f} | {result[10] / result[8]:.2f} |")
    for w, rows in corpora.items():
        print(f"\nwidth {w}: {sum(map(len, rows)) / len(rows):.1f} characters per row")


if __name__ == "__main__":
    main()
