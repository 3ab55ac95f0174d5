"""Time fastxfen against python-chess and a string-building floor, in one run.

Everything is measured in the same process on the same corpus (see
corpus.py).  Each case is run once to warm up and then ``--repeat`` times; the
table shows the median.  Machines used for CI and development are shared and
noisy, so read the medians and the ratios, not single runs.

Cases:

* ``fx.normalize`` on the whole corpus (a list in, a list out) for several
  (castling, en_passant) mode pairs;
* python-chess doing the same job, one string at a time:
  ``chess.Board(fen, chess960=True).fen(shredder=..., en_passant=...)``.  It
  is about two orders of magnitude slower, so it runs on a subsample
  (``--chess-n``, default 5,000, the first rows of the corpus) and its time is
  scaled per position;
* ``fx.encode`` alone (text -> records), ``fx.decode`` alone (records ->
  text, as a list and, on one thread, as bytes and an Arrow column) and
  ``fx.validate``;
* the floor: ``copy_rows(fens)`` of bench/_floor.pyx (compiled on first use
  by floor.py), which reads every string and builds a new string of the same
  bytes per row the way normalize's glue makes its output strings, with no
  parsing at all.  No list-of-str -> list-of-str function can beat it; "x
  floor" shows how much of each case's time is the unavoidable cost of
  reading and making Python strings.  Without Cython or a C compiler it
  falls back to the next row;
* a pure-Python reference: ``list(map(str.upper, fens))``, the cheapest
  per-string builtin method, for comparison with the floor.

Usage::

    python bench/compare.py                    # 100,000 positions, 7 repeats
    python bench/compare.py --n 20000 --repeat 5 --json out.json
"""

from __future__ import annotations

import argparse
import datetime
import gc
import importlib
import importlib.util
import json
import os
import platform
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

corpus = importlib.import_module("corpus")


def _import_fastxfen():
    """Import the installed package, else the in-place build in src/; with
    which build that is (builds.describe: origin, commit, reader)."""
    builds = importlib.import_module("builds")
    try:
        import fastxfen
    except ImportError:
        sys.path.insert(0, str(HERE.parent / "src"))
        import fastxfen
    return fastxfen, builds.describe(fastxfen)


MODE_PAIRS = [
    ("xfen", "fen"),
    ("xfen", "xfen"),
    ("xfen", "legal"),
    ("shredder", "fen"),
    ("shredder", "legal"),
]


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine_info(fx, origin: str) -> dict:
    import numpy

    try:
        import chess

        chess_version = chess.__version__
    except ImportError:
        chess_version = None
    return {
        "date": datetime.date.today().isoformat(),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "python-chess": chess_version,
        "fastxfen": getattr(fx, "__version__", "unknown"),
        "fastxfen from": origin,
    }


def time_cases(cases: list, repeat: int, warmup: int = 1) -> None:
    """Time every case repeat times, round-robin, garbage collector off.

    Each case runs warmup times first.  The timed runs then go in rounds (one
    run of every case per round) rather than case after case, so a slow
    stretch of a noisy machine hits all cases alike and the ratios between
    them stay fair.  Wall time (perf_counter) and this process's CPU time
    (process_time, which leaves out time spent waiting for a core) are both
    kept, in case["wall"] and case["cpu"].
    """
    for case in cases:
        case["wall"], case["cpu"] = [], []
        for _ in range(warmup):
            case["fn"]()
    was_enabled = gc.isenabled()
    try:
        for round_no in range(repeat):
            for case in cases:
                gc.collect()
                gc.disable()
                c0 = time.process_time()
                t0 = time.perf_counter()
                case["fn"]()
                t1 = time.perf_counter()
                c1 = time.process_time()
                gc.enable()
                case["wall"].append(t1 - t0)
                case["cpu"].append(c1 - c0)
            print(f"  round {round_no + 1}/{repeat} done", file=sys.stderr)
    finally:
        if was_enabled:
            gc.enable()


def python_chess_normalize(fens, castling: str, en_passant: str) -> list:
    import chess

    shredder = castling == "shredder"
    Board = chess.Board
    return [Board(f, chess960=True).fen(shredder=shredder, en_passant=en_passant) for f in fens]


def run(n: int, repeat: int, chess_n: int, seed: int) -> dict:
    fx, origin = _import_fastxfen()
    info = machine_info(fx, origin)
    fens = corpus.load(n, seed)
    sub = fens[: min(chess_n, n)]
    try:
        import chess  # noqa: F401

        have_chess = bool(sub)
    except ImportError:
        have_chess = False

    cases = []

    def add(name, fn, count, group=None, note=""):
        cases.append({"case": name, "fn": fn, "positions": count, "group": group, "note": note})

    copy_rows = importlib.import_module("floor").copy_rows()
    if copy_rows is not None:
        add("floor: copy_rows(fens) (bench/_floor.pyx)", lambda: copy_rows(fens), n)
    add("reference: list(map(str.upper, fens))", lambda: list(map(str.upper, fens)), n)

    agreement = {}
    for castling, ep in MODE_PAIRS:
        group = f"{castling}/{ep}"
        add(
            f"fx.normalize castling={castling} en_passant={ep}",
            lambda c=castling, e=ep: fx.normalize(fens, castling=c, en_passant=e),
            n,
            group=group,
        )
        if have_chess:
            add(
                f"python-chess castling={castling} en_passant={ep}",
                lambda c=castling, e=ep: python_chess_normalize(sub, c, e),
                len(sub),
                group=group,
                note="subsample, scaled per position",
            )
            ours = fx.normalize(sub, castling=castling, en_passant=ep)
            theirs = python_chess_normalize(sub, castling, ep)
            agreement[group] = sum(a != b for a, b in zip(ours, theirs))

    records = fx.encode(fens)
    add("fx.encode (text -> records)", lambda: fx.encode(fens), n)
    add(
        "fx.decode castling=xfen en_passant=fen (records -> text)",
        lambda: fx.decode(records, castling="xfen", en_passant="fen"),
        n,
    )
    add(
        "fx.decode castling=shredder en_passant=legal (records -> text)",
        lambda: fx.decode(records, castling="shredder", en_passant="legal"),
        n,
    )
    for output in ("bytes", "arrow"):
        if output == "arrow" and importlib.util.find_spec("pyarrow") is None:
            continue
        add(
            f"fx.decode output={output} threads=1 (records -> text)",
            lambda o=output: fx.decode(records, output=o, threads=1),
            n,
        )
    add("fx.validate", lambda: fx.validate(fens), n)

    print(
        f"corpus: {n:,} positions; {len(cases)} cases x {repeat} rounds",
        file=sys.stderr,
    )
    time_cases(cases, repeat)

    rows = []
    for case in cases:
        count = case["positions"]
        med = statistics.median(case["wall"])
        cpu_med = statistics.median(case["cpu"])
        rows.append(
            {
                "case": case["case"],
                "group": case["group"],
                "positions": count,
                "median_s": med,
                "min_s": min(case["wall"]),
                "times_s": case["wall"],
                "cpu_median_s": cpu_med,
                "cpu_times_s": case["cpu"],
                "per_s": count / med,
                "ns_per_position": med / count * 1e9,
                "cpu_ns_per_position": cpu_med / count * 1e9,
                "note": case["note"],
            }
        )

    # Speed-up of fastxfen over python-chess per mode pair (time per position).
    by_group = {}
    for row in rows:
        if row["group"]:
            by_group.setdefault(row["group"], []).append(row)
    for group_rows in by_group.values():
        fx_row = next(r for r in group_rows if r["case"].startswith("fx."))
        pc_rows = [r for r in group_rows if r["case"].startswith("python-chess")]
        if pc_rows:
            fx_row["speedup_vs_python_chess"] = (
                pc_rows[0]["ns_per_position"] / fx_row["ns_per_position"]
            )

    floor_ns = rows[0]["ns_per_position"]  # copy_rows, else str.upper
    for row in rows:
        row["x_floor"] = row["ns_per_position"] / floor_ns

    return {
        "machine": info,
        "n": n,
        "repeat": repeat,
        "chess_subsample": len(sub) if have_chess else 0,
        "floor": rows[0]["case"],
        "seed": seed,
        "corpus": corpus.summary(fens),
        "mismatches_vs_python_chess": agreement,
        "rows": rows,
    }


def markdown(result: dict) -> str:
    m = result["machine"]
    lines = [
        (
            f"Machine: {m['cpu']}, {m['cores']} cores; Python {m['python']}, numpy {m['numpy']}, "
            f"python-chess {m['python-chess']}, fastxfen {m['fastxfen']} ({m['fastxfen from']}); "
            f"{m['date']}."
        ),
        "",
        (
            f"Corpus: {result['n']:,} positions (seed {result['seed']}); medians of "
            f"{result['repeat']} runs after one warm-up run; the cases take turns, one run of "
            "each per round."
        ),
    ]
    if result["chess_subsample"]:
        lines.append(
            f"python-chess rows: timed on the first {result['chess_subsample']:,} positions "
            "only, figures are per position."
        )
    lines += [
        "",
        (
            "| case | positions timed | median time | positions/s | ns/position "
            "| CPU ns/position | x floor | fastxfen speed-up over python-chess |"
        ),
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in result["rows"]:
        speed = row.get("speedup_vs_python_chess")
        template = (
            "| {case} | {pos:,} | {t} | {rate:,.0f} | {ns:,.0f} | {cpu:,.0f} | {xf:.1f} | {sp} |"
        )
        lines.append(
            template.format(
                case=row["case"],
                pos=row["positions"],
                t=_fmt_time(row["median_s"]),
                rate=row["per_s"],
                ns=row["ns_per_position"],
                cpu=row["cpu_ns_per_position"],
                xf=row["x_floor"],
                sp=(f"{speed:.1f}x" if speed < 10 else f"{speed:,.0f}x") if speed else "",
            )
        )
    lines += [
        "",
        (
            f"floor = `{result['floor'].split(': ', 1)[1]}`: read each string and build a new "
            "string of the same bytes, no parsing; about the least a list-of-str -> list-of-str "
            "pass can cost. `copy_rows` (bench/_floor.pyx) does it as the C glue makes "
            "normalize's output strings; `list(map(str.upper, fens))` is the cheapest "
            "pure-Python way, shown for reference."
        ),
        (
            "ns/position is wall time; CPU ns/position is this process's CPU time (leaves out "
            "time spent waiting for a core on a busy machine). x floor and the speed-up use "
            "wall time."
        ),
        "x floor = ns/position divided by the floor's ns/position.",
    ]
    mism = result["mismatches_vs_python_chess"]
    if mism:
        parts = ", ".join(f"{k}: {v}" for k, v in mism.items())
        lines.append(
            "Rows of the python-chess subsample where the two outputs differ, "
            f"per mode pair: {parts}."
        )
    return "\n".join(lines)


def _fmt_time(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.0f} us"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        description="Time fastxfen against python-chess and a string-building floor."
    )
    parser.add_argument(
        "--n", type=int, default=corpus.DEFAULT_N, help="corpus size (default 100000)"
    )
    parser.add_argument("--repeat", type=int, default=7, help="timed runs per case (default 7)")
    parser.add_argument(
        "--chess-n",
        type=int,
        default=5000,
        help="python-chess subsample size (default 5000; 0 to skip)",
    )
    parser.add_argument("--seed", type=int, default=corpus.DEFAULT_SEED)
    parser.add_argument(
        "--json",
        metavar="PATH",
        help="also write all figures, raw times included, as JSON",
    )
    args = parser.parse_args(argv)
    if args.n < 1 or args.repeat < 1:
        parser.error("--n and --repeat must be at least 1")

    result = run(args.n, args.repeat, args.chess_n, args.seed)
    print(markdown(result))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(result, f, indent=2)
            f.write("\n")
    if any(result["mismatches_vs_python_chess"].values()):
        print("benchmark failed: fastxfen and python-chess differ (above)", file=sys.stderr)
        return 1  # the rates are of wrong output
    return 0


if __name__ == "__main__":
    sys.exit(main())
