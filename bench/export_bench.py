"""Throughput of the training-data export functions (fastxfen.export).

Every case runs on one core (text is read with ``threads=1``; the export
kernels are single-threaded) over the deterministic corpus of corpus.py, once
to warm up and then ``--repeat`` times.  Figures are positions per second from
the median time and, in brackets, from the fastest run.  ``--clock wall``
(the default) times with ``time.perf_counter``; ``--clock cpu`` counts the
CPU time of the calling thread (``time.thread_time``, user and system time,
so page faults of new arrays count), which is steadier on a machine shared
with other jobs.

Cases:

* ``to_planes`` (uint8, the 12 piece planes) from text (a list of str and a
  newline-separated bytes buffer) and from records; from records both into a
  fresh array and into an ``out=`` array that is reused, over the whole
  corpus and in minibatches of ``--batch`` rows (the minibatch output stays
  in the CPU cache, the whole-corpus output does not);
* ``to_planes`` with float32 and the lossless extra planes;
* ``to_bitboards`` from records;
* ``pack`` / ``unpack`` for the lichess and the stockfish formats, and
  ``pack`` lichess from a list of str (the text goes through ``encode``);
* floors: ``encode`` alone (the text reader, which text input goes through)
  and a numpy fill of an array as large as the uint8 planes (the memory
  traffic every to_planes call has to pay).

Usage::

    python bench/export_bench.py                   # 100,000 positions
    python bench/export_bench.py --n 20000 --repeat 5 --json out.json
    python bench/export_bench.py --clock cpu        # on a busy machine
"""

from __future__ import annotations

import argparse
import gc
import json
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

from fastxfen import export as ex  # noqa: E402

LOSSLESS = ("turn", "castling_rooks", "en_passant", "halfmove")


def time_case(fn, repeat, clock=time.perf_counter):
    fn()
    times = []
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        t0 = clock()
        fn()
        times.append(clock() - t0)
        gc.enable()
    return times


def minibatches(records, size, out):
    def run():
        for lo in range(0, len(records) - size + 1, size):
            ex.to_planes(records[lo : lo + size], out=out)

    return run


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    print(builds.describe(fx))

    fens = corpus.load(args.n)
    buf = ("\n".join(fens) + "\n").encode("ascii")
    records = fx.encode(fens)
    n = len(records)
    batched = n - n % args.batch
    lichess = ex.pack(records)
    stockfish = ex.pack(records, format="stockfish", errors="coerce")
    storable = stockfish.any(axis=1)
    sf_rows, sf_records = stockfish[storable], records[storable]
    planes_out = np.empty((n, 12, 8, 8), np.uint8)
    batch_out = np.empty((args.batch, 12, 8, 8), np.uint8)
    bb_out = np.empty((n, 12), np.uint64)

    cases = [
        ("floor: encode text (list of str)", n, lambda: fx.encode(fens, threads=1)),
        ("floor: numpy fill of n*768 bytes", n, lambda: planes_out.fill(0)),
        ("to_planes uint8 from list of str", n, lambda: ex.to_planes(fens, threads=1)),
        ("to_planes uint8 from bytes buffer", n, lambda: ex.to_planes(buf, threads=1)),
        ("to_planes uint8 from records", n, lambda: ex.to_planes(records)),
        ("to_planes uint8 from records, out=", n, lambda: ex.to_planes(records, out=planes_out)),
        (
            f"to_planes uint8 from records, {args.batch}-row batches, out=",
            batched,
            minibatches(records, args.batch, batch_out),
        ),
        (
            "to_planes float32 + 4 extras from records",
            n,
            lambda: ex.to_planes(records, dtype=np.float32, extra=LOSSLESS),
        ),
        ("to_bitboards from records, out=", n, lambda: ex.to_bitboards(records, out=bb_out)),
        ("pack lichess", n, lambda: ex.pack(records)),
        ("pack lichess from list of str", n, lambda: ex.pack(fens, threads=1)),
        ("unpack lichess", n, lambda: ex.unpack(lichess)),
        ("pack stockfish", len(sf_records), lambda: ex.pack(sf_records, format="stockfish")),
        ("unpack stockfish", len(sf_rows), lambda: ex.unpack(sf_rows, format="stockfish")),
    ]

    print(
        f"fastxfen {getattr(fx, '__version__', '?')}, {n} positions "
        f"({len(sf_records)} storable in the stockfish format), "
        f"{args.repeat} runs, {args.clock} clock, positions/s from the median [fastest] run"
    )
    clock = time.perf_counter if args.clock == "wall" else time.thread_time
    results = {}
    width = max(len(name) for name, _, _ in cases)
    for name, count, fn in cases:
        times = time_case(fn, args.repeat, clock)
        median, best = count / statistics.median(times), count / min(times)
        results[name] = {"positions": count, "median_per_s": median, "best_per_s": best}
        print(f"{name:<{width}}  {median / 1e6:7.2f} M/s  [{best / 1e6:6.2f}]")
    print(f"lichess: {lichess.offsets[-1] / n:.1f} bytes per position on average")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
