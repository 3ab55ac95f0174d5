"""Every bulk path in one run: positions/s, GB/s, the ratio to the Arrow
path and to memcpy, first call against steady calls, one thread against two.

    python bench/paths_bench.py [--n 100000] [--copies 4] [--repeat 7]
                                [--core 0] [--first-rows 2000000]
                                [--before COMMIT|SRC] [--readers avx512,sse2]
                                [--build-dir DIR] [--sections one,first,threads]

Sections:

* ``one``: on one core (the process pins itself to ``--core``), each path
  (Arrow string column, newline buffer, numpy ``S`` and ``U`` arrays, list of
  ``str``, encode of a buffer, validate of a buffer, decode to bytes, and
  the ``out=`` forms where the build has them) and a memcpy of the buffer's
  size, timed in turns: one run of every case per round, so a slow stretch
  of a shared machine hits all of them.  Per case: the median with its
  range (min-max) over the rounds, positions/s and GB/s of input text, and
  the medians of the per-round ratios to the Arrow path and to memcpy.

  ``--before COMMIT`` builds that commit of this repository outside it (a
  temporary tree: ``git archive``, the extensions built in place with this
  Python; ``--build-dir DIR`` keeps and reuses it) and runs every path of
  both builds in turns, in worker processes, one round each, ``--repeat``
  times, for each reader (``--readers``, by default every reader this
  build's CPU runs, each forced with ``FASTXFEN_READER``; builds from
  before that variable are forced with ``FASTXFEN_NO_AVX512`` and
  ``FASTXFEN_NO_AVX2``, so one without an AVX2 reader runs SSE2 there).
  The table adds, per reader, the before build's rate and the median of the
  per-round ratios after / before with their range.  ``--before SRC`` (a
  folder) takes an already built ``src`` folder instead.  Each worker times
  ``--worker-rounds`` rounds (3 by default) after its warm-up and gives the
  median of them: on a virtual machine whose host takes back the guest's
  free memory (a virtio balloon's free page reporting), the first call
  that touches a large fresh output can pay 5 to 10 times its steady cost
  for the host's page faults, whichever build runs it (the ``first``
  section measures first calls on their own).
* ``first``: each case in ``--first-processes`` fresh processes on
  ``--first-rows`` rows: the first call (into fresh output memory) against
  the median of the next calls, on one core; the median over the processes
  and its range.  The ``out=`` cases write into memory in use (a
  loop's buffer after its first round).
* ``threads``: one thread against two on buffers and Arrow (and decode),
  with the "machine" column of bulk_bench.py (two one-thread calls side by
  side: what the machine gives two cores at that moment).

``--clock cpu`` (the default) times the one-core and first-call sections in
the process's CPU time, page faults included, which a shared machine's
other jobs do not stretch; ``--clock wall`` in wall time.  The threads
section is always wall time.

Every worker says which build and reader it ran; the bench stops (non-zero
exit, no table) when a worker fails, or runs another build or reader than
the one asked for.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

# numpy's OpenBLAS spins a thread per core after import; nothing here uses it
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import builds  # noqa: E402
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
    out["validate buffer"] = lambda: fx.validate(data["buffer"], threads=t)
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
    """Time every case args.rounds times in turns; print the seconds, and
    which build and reader ran them, as JSON."""
    pin(args.core)
    data = inputs(args.n, args.copies)
    calls = cases(data)
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
    about = fx.info() if hasattr(fx, "info") else {}
    meta = {
        "n": len(data["rows"]),
        "bytes": len(data["buffer"]),
        "file": str(Path(fx.__file__).resolve()),
        "build": builds.describe(fx),
        "reader": about.get("reader"),
    }
    print(json.dumps({"meta": meta, "times": times}))


def run_worker(args, src: str | None, rounds: int, reader: str | None) -> dict:
    """One worker's times; src: the src folder of the build to import (None:
    this one); reader: the reader to force (None: the build's choice)."""
    env = {**os.environ, **(builds.reader_env(reader) if reader else {})}
    if src:
        env["PYTHONPATH"] = src + os.pathsep + env.get("PYTHONPATH", "")
    cmd = [sys.executable, __file__, "--worker", "--n", str(args.n), "--copies",
           str(args.copies), "--rounds", str(rounds), "--core", str(args.core),
           "--clock", args.clock]  # fmt: skip
    what = f"worker ({'before' if src else 'this build'}, reader {reader or 'auto'})"
    got = json.loads(builds.run(cmd, env=env, what=what).stdout.strip().splitlines()[-1])
    meta = got["meta"]
    if src and not meta["file"].startswith(str(Path(src).resolve())):
        raise SystemExit(f"{what} imported {meta['file']}, not the build in {src}")
    if not src and meta["file"] != str(Path(fx.__file__).resolve()):
        raise SystemExit(f"{what} imported {meta['file']}, not {fx.__file__}")
    if not src and reader and meta["reader"] != reader:
        raise SystemExit(f"{what} ran reader {meta['reader']}")
    return got


def spread(values: list) -> str:
    return f"{statistics.median(values):,.2f} ({min(values):,.2f}-{max(values):,.2f})"


def before_src(args, keep: list) -> str | None:
    """The src folder of the --before build (built here from a commit)."""
    if not args.before:
        return None
    if Path(args.before).is_dir():
        return str(Path(args.before).resolve())
    where = Path(args.build_dir) if args.build_dir else None
    src = builds.build_commit(args.before, where)
    if not where:
        keep.append(src.parent)  # removed at the end
    return str(src)


def timed(args, src: str | None, reader: str | None) -> tuple:
    """{build: {case: [seconds]}}, metadata per build: the workers of both
    builds in turns, args.repeat times, each giving the median of its
    args.worker_rounds rounds (without a before build, one worker of
    args.repeat rounds)."""
    sources = {"after": None, **({"before": src} if src else {})}
    times: dict = {b: {} for b in sources}
    meta: dict = {}
    per_worker = args.worker_rounds if src else args.repeat
    for _ in range(args.repeat if src else 1):
        for build, path in sources.items():
            got = run_worker(args, path, per_worker, reader)
            meta[build] = got["meta"]
            for name, ts in got["times"].items():
                times[build].setdefault(name, []).extend([statistics.median(ts)] if src else ts)
    return times, meta


def one_table(args, times: dict, meta: dict, reader: str | None) -> None:
    n, size = meta["after"]["n"], meta["after"]["bytes"]
    title = f"reader {reader}" if reader else f"reader {meta['after']['reader'] or 'auto'}"
    count = len(times["after"]["memcpy"])
    rounds = (
        f"{count} workers a build in turns, each the median of its {args.worker_rounds} rounds"
        if "before" in times
        else f"{count} rounds"
    )
    print(
        f"## One core (core {args.core}), {title}: {n:,} positions, {size / n:.1f} bytes "
        f"each, {rounds}; median (min-max)\n"
    )
    forced = ", ".join(f"{k}={v}" for k, v in builds.reader_env(reader).items()) if reader else ""
    for build, about in meta.items():
        ran = about["reader"] or f"not said (no fastxfen.info; forced with {forced or 'nothing'})"
        print(f"- {build}: {about['build']}; ran reader {ran}")
    mem = times["after"]["memcpy"]
    print(f"\nmemcpy of {size / 1e6:.0f} MB: {spread([size / t / 1e9 for t in mem])} GB/s\n")
    head = "| path | M positions/s | GB/s of text | / Arrow | / memcpy |"
    rule = "| --- | ---: | ---: | ---: | ---: |"
    if "before" in times:
        head += " before, M/s | after / before (range) |"
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
        old = times.get("before", {}).get(name)
        if old:
            ratios = [o / t for o, t in zip(old, ts)]
            line += f" | {statistics.median(n / t / 1e6 for t in old):,.2f}"
            line += f" | {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"
        elif "before" in times:
            line += " | | "
        print(line + " |")
    print()


def one_core(args) -> None:
    """The one-core tables: per reader asked for (with --before, this build
    against that one, by default for every reader the CPU runs)."""
    keep: list = []
    try:
        src = before_src(args, keep)
        readers = args.readers.split(",") if args.readers else [None]
        if src and not args.readers:
            readers = list(fx.info()["runnable"])
        for reader in readers:
            times, meta = timed(args, src, reader)
            one_table(args, times, meta, reader)
    finally:
        for tree in keep:
            shutil.rmtree(tree, ignore_errors=True)


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
        outs = [builds.run(cmd, what=f"first call of {name}").stdout for _ in range(k)]
        runs = [json.loads(out.strip().splitlines()[-1]) for out in outs]
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
    parser.add_argument("--before", help="a commit (or a built src folder) to compare with")
    parser.add_argument("--readers", help="comma-separated readers to force (default: auto)")
    parser.add_argument("--build-dir", help="where to build --before's commit (kept, reused)")
    parser.add_argument(
        "--worker-rounds", type=int, default=3, help="rounds a --before worker times"
    )
    parser.add_argument("--sections", default="one,first,threads")
    parser.add_argument("--clock", choices=["cpu", "wall"], default="cpu")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--rounds", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--first-worker", dest="case", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args)
    if args.case:
        return first_worker(args)
    print(
        f"{builds.describe(fx)}\n{os.cpu_count()} CPUs; "
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
