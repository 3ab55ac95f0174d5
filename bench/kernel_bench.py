"""The C kernel alone (bench/c/kernel.c), without Python, against memcpy.

    python bench/kernel_bench.py [--n 100000] [--rounds 21] [--turns 3]

Builds the harness with the C compiler from the source tree, then runs it
on the bench corpus (one FEN per line) with each placement reader and
writer built in that the CPU runs (FASTXFEN_READER=avx512, avx2, sse2,
neon, scalar; SSE2 and scalar with the table-driven writer).  The readers
take turns, --turns times.  Prints ns per row for parse,
normalize (parse + write, the placement copied) and write (the placement
written from the board, as decode does): the median over the turns of each
turn's median, the best round, and the ratio to a 256 MB memcpy timed in
the same process, per row of the corpus's size (the machine's memory
bandwidth: the physical limit of a path that reads and writes the rows
once).
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sysconfig
import tempfile
from pathlib import Path

import corpus

HERE = Path(__file__).resolve().parent
CORE = HERE.parent / "src" / "fastxfen" / "core"
READERS = sorted((CORE / "readers").glob("*.c"))
SOURCES = [CORE / f"{name}.c" for name in ("tables", "parse", "rules", "write", "record")]
NAMES = ("avx512", "avx2", "neon", "sse2", "scalar")
LINE = re.compile(r"(\w+)\s+([\d.]+) ns/row \(([\d.]+) to ([\d.]+)\)")


def build(exe):
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    if not shutil.which(cc[0]):
        raise SystemExit("needs a C compiler")
    sources = [str(path) for path in (HERE / "c" / "kernel.c", *SOURCES, *READERS)]
    flags = ["-O3", "-std=c11", f"-I{CORE}"]
    subprocess.run([*cc, *flags, *sources, "-o", str(exe)], check=True)


def runnable(exe, path):
    """The readers this build has and this CPU runs (the harness refuses
    the others)."""
    return [
        name
        for name in NAMES
        if subprocess.run(
            [str(exe), str(path), "1", "memcpy"],
            capture_output=True,
            env={**os.environ, "FASTXFEN_READER": name},
        ).returncode
        == 0
    ]


def run(exe, path, rounds, env):
    """{case: (median, best)} ns per row from one run of the harness."""
    out = subprocess.run(
        [str(exe), str(path), str(rounds)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **env},
    ).stdout
    return {m[1]: (float(m[2]), float(m[3])) for m in LINE.finditer(out)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--turns", type=int, default=3)
    args = parser.parse_args()
    rows = corpus.load(args.n)
    with tempfile.TemporaryDirectory() as tmp:
        exe, path = Path(tmp) / "kernel", Path(tmp) / "rows.fen"
        path.write_text("\n".join(rows) + "\n")
        build(exe)
        results = {name: [] for name in runnable(exe, path)}
        for _ in range(args.turns):
            for name in results:
                results[name].append(run(exe, path, args.rounds, {"FASTXFEN_READER": name}))
    size = sum(len(row) + 1 for row in rows) / len(rows)
    print(f"{len(rows):,} rows of {size:.1f} bytes, {args.turns} turns of {args.rounds} rounds")
    print("\n| reader / writer | case | ns/row (median) | best | M rows/s | GB/s | x memcpy |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for name, turns in results.items():
        copy = statistics.median(turn["bandwidth"][0] for turn in turns)
        for case in ("parse", "normalize", "write"):
            median = statistics.median(turn[case][0] for turn in turns)
            best = min(turn[case][1] for turn in turns)
            print(
                f"| {name} | {case} | {median:.1f} | {best:.1f} | {1e3 / median:.1f} "
                f"| {size / median:.2f} | {median / copy:.0f} |"
            )
    print()
    for what, case in (("256 MB memcpy", "bandwidth"), ("in-cache memcpy", "memcpy")):
        each = ", ".join(
            f"{name} {statistics.median(t[case][0] for t in turns):.2f}"
            for name, turns in results.items()
        )
        print(f"{what}, ns/row: {each}")


if __name__ == "__main__":
    main()
