"""Every bulk path in one run: positions/s, GB/s, the ratio to the Arrow
path and to memcpy, first call against steady calls, one thread against two.

    python bench/paths_bench.py [--n 100000] [--copies 4] [--repeat 7]
                                [--core 0] [--first-rows 2000000] [--threads 1]
                                [--before SRC] [--sections one,first,threads]

Sections:

* ``one``: on one core (the process pins itself to ``--core``), each path
  (Arrow string column, newline buffer, numpy ``S`` and ``U`` arrays, list of
  ``str``, encode of a buffer, decode to bytes, and the ``out=`` forms where
  the build has them) and a memcpy of the buffer's size, timed in turns:
  one run of every case per round, so a slow stretch of a shared machine
  hits all of them.  Per case: the median with its range (min-max) over the
  rounds, positions/s and GB/s of input text, and the medians of the
  per-round ratios to the Arrow path and to memcpy.  With ``--before SRC``
  (the ``src`` folder of another build), each round runs this build's and
  that build's cases in turns, in two worker processes, and the table adds
  after / before.  ``--threads 2`` runs the same table with two threads
  per call (unpinned; with ``--clock wall``): an A/B of the threaded paths.
* ``first``: each case in ``--first-processes`` fresh processes on
  ``--first-rows`` rows: the first call (into fresh output memory) against
  the median of the next calls, on one core; the median over the processes
  and its range.  The ``out=`` cases write into memory in use (a
  loop's buffer after its first round).

``--clock cpu`` (the default) times the one-core and first-call sections in
the process's CPU time, page faults included, which a shared machine's
other jobs do not stretch; ``--clock wall`` in wall time.  The threads
section is always wall time.
* ``threads``: one thread against two on buffers and Arrow (and decode),
  with the "machine" column of bulk_bench.py (two one-thread calls side by
  side: what the machine gives two cores at that moment).
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

# numpy's OpenBLAS spins a thread per core after import; nothing here uses it
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import corpus  # noqa: E402
import numpy as np  # noqa: E402

import fastxfen as fx  # noqa: E402


def inputs(n: int, copies: int) -> dict:
    """The corpus as every input kind, and the records of it."""
    rows = corpus.load(n) * copies
    buffer = ("\n".join(rows) + "\n").encode()
    data = {"rows": rows, "buffer": buffer, "S": np.array(rows, "S"), "U": np.array(rows)}
    try:
        import pyarrow as pa

        data["arrow"] = pa.array(rows, pa.string())
    except ImportError:
        pass
    data["records"] = fx.encode(buffer)
    return data


def has_out(fn) -> bool:
    return "out" in inspect.signature(fn).parameters


def cases(data: dict, threads: int = 1) -> dict:
    """name -> call, every path the build has."""
    t = threads
    out = {}
    if "arrow" in data:
        out["Arrow string"] = lambda: fx.normalize(data["arrow"], threads=t)
    out["newline buffer"] = lambda: fx.normalize(data["buffer"], threads=t)
    out["numpy S"] = lambda: fx.normalize(data["S"], threads=t)
    out["numpy U"] = lambda: fx.normalize(data["U"], threads=t)
    out["list of str"] = lambda: fx.normalize(data["rows"], threads=t)
    out["encode buffer -> records"] = lambda: fx.encode(data["buffer"], threads=t)
    out["decode records -> bytes"] = lambda: fx.decode(data["records"], output="bytes", threads=t)
    if has_out(fx.normalize):
        into = bytearray(len(data["buffer"]) * 2)  # in use already: touched
        out["newline buffer, out="] = lambda: fx.normalize(data["buffer"], threads=t, out=into)
        for kind in "SU":  # wide enough for any row (a row grows by 4 at most)
            cells = np.full(len(data[kind]), "x", f"{kind}{data['S'].itemsize + 4}")
            out[f"numpy {kind}, out="] = lambda k=kind, c=cells: fx.normalize(
                data[k], threads=t, out=c
            )
    if has_out(fx.encode):
        records = np.ones_like(data["records"])  # in use already: touched
        out["encode, out="] = lambda: fx.encode(data["buffer"], threads=t, out=records)
    return out


def memcpy_case(data: dict):
    src = np.frombuffer(data["buffer"], np.uint8)
    dst = np.ones_like(src)  # faulted in: a copy, not page faults
    return lambda: np.copyto(dst, src)


def clock(name: str):
    """The timer: "cpu" is this process's CPU time (user and system, page
    faults included), which leaves out the time a shared machine's other
    jobs take the core; "wall" is perf_counter."""
    return time.process_time if name == "cpu" else time.perf_counter


def pin(core: int) -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {core})


def worker(args) -> None:
    """Time every case args.rounds times in turns; print the seconds as JSON."""
    if args.threads == 1:
        pin(args.core)
    data = inputs(args.n, args.copies)
    calls = cases(data, args.threads)
    calls["memcpy"] = memcpy_case(data)
    for call in calls.values():  # warm-up: first calls pay for fresh memory
        call()
    times = {name: [] for name in calls}
    now = clock(args.clock)
    for _ in range(args.rounds):
        for name, call in calls.items():
            start = now()
            call()
            times[name].append(now() - start)
    meta = {"n": len(data["rows"]), "bytes": len(data["buffer"])}
    print(json.dumps({"meta": meta, "times": times}))


def run_worker(args, src: str | None, rounds: int) -> dict:
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [
        sys.executable,
        __file__,
        "--worker",
        "--n",
        str(args.n),
        "--copies",
        str(args.copies),
        "--rounds",
        str(rounds),
        "--core",
        str(args.core),
        "--threads",
        str(args.threads),
        "--clock",
        args.clock,
    ]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def spread(values: list) -> str:
    return f"{statistics.median(values):,.2f} ({min(values):,.2f}-{max(values):,.2f})"


def one_core(args) -> None:
    """The one-core table (with --before, this build against that one)."""
    builds = {"after": None}
    if args.before:
        builds["before"] = args.before
    times: dict = {b: {} for b in builds}
    meta = None
    # taking turns: one worker round of each build, args.repeat times
    per_worker = 1 if args.before else args.repeat
    for _ in range(args.repeat if args.before else 1):
        for build, src in builds.items():
            got = run_worker(args, src, per_worker)
            meta = got["meta"]
            for name, ts in got["times"].items():
                times[build].setdefault(name, []).extend(ts)
    n, size = meta["n"], meta["bytes"]
    where = f"One core (core {args.core})" if args.threads == 1 else f"{args.threads} threads"
    print(
        f"## {where}: {n:,} positions, {size / n:.1f} bytes each, "
        f"{len(times['after']['memcpy'])} rounds; median (min-max)\n"
    )
    mem = times["after"]["memcpy"]
    print(f"memcpy of {size / 1e6:.0f} MB: {spread([size / t / 1e9 for t in mem])} GB/s\n")
    head = "| path | M positions/s | GB/s of text | / Arrow | / memcpy |"
    rule = "| --- | ---: | ---: | ---: | ---: |"
    if args.before:
        head += " before, M/s | after / before |"
        rule += " ---: | ---: |"
    print(head)
    print(rule)
    after = times["after"]
    arrow = after.get("Arrow string")
    for name, ts in after.items():
        if name == "memcpy":
            continue
        rate, gbs = spread([n / t / 1e6 for t in ts]), spread([size / t / 1e9 for t in ts])
        line = f"| {name} | {rate} | {gbs} | "
        line += f"{statistics.median(a / t for a, t in zip(arrow, ts)):.2f}" if arrow else ""
        line += f" | {statistics.median(m / t for m, t in zip(mem, ts)):.3f}"
        if args.before:
            old = times["before"].get(name)
            if old:
                line += f" | {statistics.median(n / t / 1e6 for t in old):,.2f}"
                line += f" | {statistics.median(o / t for o, t in zip(old, ts)):.2f}"
            else:
                line += " | | "
        print(line + " |")
    print()


def first_worker(args) -> None:
    """One fresh process: the first call of case args.case against the
    median of the next ones; prints the seconds as JSON."""
    pin(args.core)
    copies = max(1, args.first_rows // args.n)
    data = inputs(args.n, copies)
    call = cases(data)[args.case]
    now = clock(args.clock)
    start = now()
    call()
    first = now() - start
    steady = []
    for _ in range(4):
        start = now()
        call()
        steady.append(now() - start)
    print(json.dumps({"first": first, "steady": steady, "n": len(data["rows"])}))


def first_calls(args) -> None:
    names = list(cases(inputs(1000, 1)))
    skip = {"list of str", "numpy U"} if args.first_rows > 1_000_000 else set()
    k = args.first_processes
    print(f"## First call against steady calls ({k} fresh processes per case, core {args.core})\n")
    print(
        "| path | rows | first, M/s (median) | steady, M/s (median) "
        "| steady / first (median, range over processes) |"
    )
    print("| --- | ---: | ---: | ---: | ---: |")
    for name in names:
        if name in skip:
            continue
        cmd = [
            sys.executable,
            __file__,
            "--first-worker",
            name,
            "--n",
            str(args.n),
            "--first-rows",
            str(args.first_rows),
            "--core",
            str(args.core),
            "--clock",
            args.clock,
        ]
        runs = [
            json.loads(
                subprocess.run(cmd, capture_output=True, text=True, check=True)
                .stdout.strip()
                .splitlines()[-1]
            )
            for _ in range(k)
        ]
        n = runs[0]["n"]
        first = statistics.median(run["first"] for run in runs)
        steady = statistics.median(t for run in runs for t in run["steady"])
        ratios = sorted(run["first"] / statistics.median(run["steady"]) for run in runs)
        print(
            f"| {name} | {n:,} | {n / first / 1e6:,.2f} | {n / steady / 1e6:,.2f} "
            f"| {statistics.median(ratios):.2f} ({ratios[0]:.2f}-{ratios[-1]:.2f}) |"
        )
    print()


def two_threads(args) -> None:
    import bulk_bench

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))
    data = inputs(args.n, args.copies)
    n = len(data["rows"])
    one, two = cases(data, 1), cases(data, 2)
    names = [
        "Arrow string",
        "newline buffer",
        "decode records -> bytes",
        "numpy S",
        "encode buffer -> records",
    ]
    print(f"## One thread against two ({n:,} positions, median of {args.repeat})\n")
    print("| path | 1 thread, M/s | 2 threads, M/s | 2 / 1 (median of rounds) | machine |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name in names:
        if name not in one:
            continue
        one[name](), two[name]()
        r1, r2, ratio, _, machine = bulk_bench.rates(
            one[name], two[name], n, args.repeat, control=True
        )
        print(f"| {name} | {r1 / 1e6:,.2f} | {r2 / 1e6:,.2f} | {ratio:.2f} | {machine:.2f} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--copies", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--core", type=int, default=0)
    parser.add_argument("--first-rows", type=int, default=2_000_000)
    parser.add_argument(
        "--first-processes", type=int, default=3, help="fresh processes per first-call case"
    )
    parser.add_argument("--before", help="the src folder of a build to compare with")
    parser.add_argument("--sections", default="one,first,threads")
    parser.add_argument("--clock", choices=["cpu", "wall"], default="cpu")
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="threads of each call in the one-core section (more: not pinned; use --clock wall)",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--first-worker", dest="case", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args)
    if args.case:
        return first_worker(args)
    print(
        f"fastxfen from {Path(fx.__file__).parent}; {os.cpu_count()} CPUs; "
        f"{args.clock} time (one core, first calls), wall time (threads)\n"
    )
    sections = args.sections.split(",")
    if "one" in sections:
        one_core(args)
    if "first" in sections:
        first_calls(args)
    if "threads" in sections:
        two_threads(args)


if __name__ == "__main__":
    main()
