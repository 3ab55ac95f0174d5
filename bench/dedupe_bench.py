"""Rows/s and peak memory of ``fastxfen dedupe`` on a generated file.

Writes ROWS FEN lines (default 100 M) holding DISTINCT distinct positions
(default a quarter of the rows), each repeated with other move counters in a
scattered order, then runs ``python -m fastxfen dedupe FILE -o OUT`` in a
child process and prints the rows/s and the child's peak resident memory
(VmHWM, Linux), beside the bytes per distinct position the Deduper held.

The positions are built as records in numpy (two kings, white pawns on ranks
2 to 6 from the bits of the position's number) and written by
``fastxfen.decode``, so generating 100 M rows takes a minute, not an hour.
The file takes about 45 bytes a row (4.5 GB at 100 M rows) in the system's
temporary directory unless --dir says otherwise; ``--suffix .fen.zst``
writes it compressed.  Not part of the test suite.

Usage::

    python bench/dedupe_bench.py                 # 100 M rows, 25 M distinct
    python bench/dedupe_bench.py 10M --distinct 1M
    python bench/dedupe_bench.py 10M -- --counters --threads 2
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import builds
import numpy as np

import fastxfen as fx

BLOCK = 1 << 20  # rows generated at a time
_PAWN_SQUARES = np.arange(8, 48)  # ranks 2 to 6: a pawn there never checks e8


def parse_count(text: str) -> int:
    scale = {"k": 10**3, "m": 10**6, "g": 10**9}.get(text[-1:].lower(), 1)
    return int(float(text[:-1] if scale != 1 else text) * scale)


def block_records(first: int, n: int, distinct: int) -> np.ndarray:
    """Rows first .. first + n - 1: row i holds position number
    (i * a large odd number) mod distinct, its counters from i."""
    rows = np.arange(first, first + n, dtype=np.uint64)
    ids = (rows * np.uint64(0x9E3779B97F4A7C15)) % np.uint64(distinct)
    recs = np.zeros(n, fx.POSITION_DTYPE)
    board = recs["board"]
    board[:, 4] = 6  # white king e1
    board[:, 60] = 12  # black king e8
    bits = (ids[:, None] >> np.arange(40, dtype=np.uint64)[None, :]) & np.uint64(1)
    board[:, _PAWN_SQUARES] = bits.astype(np.uint8)  # 1: a white pawn
    recs["width"] = 8
    recs["ep"] = 255
    recs["castling"] = 255
    recs["halfmove"] = (rows % 50).astype(np.uint32)
    recs["fullmove"] = (rows % 200 + 1).astype(np.uint32)
    return recs


def write_input(path: str, rows: int, distinct: int) -> None:
    """The rows as text, compressed if the name says so (zstd only)."""
    if path.endswith(".zst"):
        import zstandard

        out = zstandard.ZstdCompressor(level=3).stream_writer(open(path, "wb"))
    else:
        out = open(path, "wb")
    with out:
        for first in range(0, rows, BLOCK):
            n = min(BLOCK, rows - first)
            out.write(fx.decode(block_records(first, n, distinct), output="bytes"))


CHILD = """
import sys
from fastxfen import cli
status = cli.main(sys.argv[1:])
hwm = [line for line in open('/proc/self/status') if line.startswith('VmHWM')]
print(int(hwm[0].split()[1]) * 1024 if hwm else -1)
sys.exit(status)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", nargs="?", default="100M", help="rows to stream (default 100M)")
    parser.add_argument("--distinct", help="distinct positions (default: a quarter of the rows)")
    parser.add_argument("--dir", default=tempfile.gettempdir(), help="where to write the file")
    parser.add_argument("--suffix", default=".fen", help="the input file's suffix (.fen, .fen.zst)")
    parser.add_argument("extra", nargs="*", help="options for the command, after --")
    args = parser.parse_args()
    print(builds.describe(fx))
    rows = parse_count(args.rows)
    distinct = parse_count(args.distinct) if args.distinct else max(1, rows // 4)
    if distinct > 1 << 40:
        parser.error("at most 2**40 distinct positions")
    fd, path = tempfile.mkstemp(prefix="fastxfen-dedupe-", suffix=args.suffix, dir=args.dir)
    os.close(fd)
    tiny = path + ".one.fen"
    try:
        started = time.perf_counter()
        write_input(path, rows, distinct)
        print(
            f"generated {rows:,} rows ({distinct:,} distinct positions), "
            f"{os.path.getsize(path) / 1e9:.2f} GB, in {time.perf_counter() - started:.1f} s"
        )
        # the memory of the command on one row: what the positions add to
        with open(tiny, "wb") as f:
            f.write(fx.decode(block_records(0, 1, 1), output="bytes"))
        base = _run_child(["dedupe", tiny, "-o", os.devnull, "-q"])
        argv = ["dedupe", path, "-o", os.devnull, *args.extra]
        started = time.perf_counter()
        done = _run_child(argv)
        seconds = time.perf_counter() - started
    finally:
        os.unlink(path)
        if os.path.exists(tiny):
            os.unlink(tiny)
    for run in (base, done):  # no figure from a run that failed
        if run.returncode != 0:
            print(f"benchmark failed: exit {run.returncode}\n{run.stderr}", file=sys.stderr)
            return run.returncode
    peak = int(done.stdout.split()[-1])
    floor = int(base.stdout.split()[-1])
    print(done.stderr.strip())
    print(f"{rows / seconds:,.0f} rows/s over {seconds:.1f} s")
    if peak > 0:
        print(
            f"peak RSS {peak / 2**20:,.0f} MiB ({floor / 2**20:,.0f} MiB on one row): "
            f"{(peak - floor) / distinct:.0f} bytes per distinct position"
        )
    return 0


def _run_child(argv):
    return subprocess.run(
        [sys.executable, "-c", CHILD, *map(str, argv)], capture_output=True, text=True, check=False
    )


if __name__ == "__main__":
    sys.exit(main())
