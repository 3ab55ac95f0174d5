"""The C kernel alone (bench/c/kernel.c), without Python, against memcpy.

    python bench/kernel_bench.py [--n 100000] [--rounds 21] [--turns 3]
                                 [--before COMMIT] [--count] [--readers ...]

Builds the harness with the C compiler from the source tree, then runs it
on the bench corpus (one FEN per line) with each placement reader and
writer built in that the CPU runs (FASTXFEN_READER=avx512, avx2, sse2,
neon, scalar; SSE2 and scalar with the table-driven writer).  Cases:
placement (the placement reader alone), parse, validate (the verdict
alone), normalize (parse, then the row copied when it is its own
canonical text, else written with the placement copied, as the row loop
does), write (the placement written from the board, as decode does) and
loop (normalize through the row loop over a buffer's spans, as the buffer
path runs it).

With ``--before COMMIT``, the same harness is also built against that
commit's core (``git archive``, outside the repository) and each turn runs
both builds, in turns, per reader: the table adds the median of the
per-turn ratios before / after (above 1: this tree is faster), their
range, and the ratio of the best rounds (on a shared machine the best
round is the one least disturbed).  Builds without core/readers/ are
forced with FASTXFEN_NO_AVX512 and FASTXFEN_NO_AVX2 (one without an AVX2
reader runs SSE2 there); the harness needs fx_parse's ``fields`` (commit
3ca50d8 or later).

On Linux the harness is a fixed-address executable (``-no-pie``).  Built
position-independent, the address it is loaded at decided its speed: of
20 processes of one build, about half ran parse at 48 to 65 ns a row and
the others at 38 (e054fb0's build: 73 or 56), the same code and input;
fixed, every process ran at 38.0 to 39.3 (e054fb0: 56.2 to 57.0).  The
extension module is not affected this way (encode in 20 processes: 47 to
52.5 ns a row).

Times are this process's CPU time (``--clock wall``: wall time): per turn
the median of ``--rounds`` rounds, then the median over the turns and the
best round.  "x memcpy" is the time over a 256 MB memcpy in the same run.

``--count`` counts instead, with valgrind (callgrind, its branch
predictor simulated): instructions, conditional branches and mispredicted
ones per row, per case, for the readers valgrind runs (not AVX-512),
over ``--count-rows`` rows.  Counts do not depend on the machine's load.

Fails (non-zero exit, nothing printed as a result) when a build or a run
fails, or when a reader runs other than the one asked for.
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import builds
import corpus

HERE = Path(__file__).resolve().parent
NAMES = ("avx512", "avx2", "neon", "sse2", "scalar")
CASES = ("placement", "parse", "validate", "normalize", "write", "loop")
# the harness's function for each case (valgrind --toggle-collect)
FUNCTIONS = {
    "placement": "place_only",
    "parse": "parse_only",
    "validate": "validate_only",
    "normalize": "normalize",
    "write": "write_only",
    "loop": "loop",
}
LINE = re.compile(r"(\w+)\s+([\d.]+) ns/row \(([\d.]+) to ([\d.]+)\)")
# the core files the harness needs (older commits: avx2.c and avx512.c at the top)
CORE_FILES = ("tables", "parse", "tail", "rules", "write", "record", "batch", "avx2", "avx512")


def compiler() -> list:
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    if not shutil.which(cc[0]):
        raise SystemExit("needs a C compiler")
    return cc


def build(exe: Path, core: Path, debug: bool = False) -> None:
    """The harness against the core in `core` (a src/fastxfen/core folder)."""
    sources = [HERE / "c" / "kernel.c"]
    sources += [core / f"{name}.c" for name in CORE_FILES if (core / f"{name}.c").exists()]
    sources += sorted((core / "readers").glob("*.c"))
    flags = ["-O3", "-std=c11", f"-I{core}"] + (["-g"] if debug else [])
    if sys.platform.startswith("linux"):  # one load address for every run (docstring)
        flags.append("-no-pie")
    builds.run([*compiler(), *flags, *map(str, sources), "-o", str(exe)], what=f"build {exe}")


def core_of(commit: str, tmp: Path) -> Path:
    """That commit's core, unpacked under tmp."""
    full = builds.resolve(commit)
    out = tmp / full[:7]
    out.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(builds.ROOT), "archive", "--format=tar", full, "src/fastxfen/core"],
        capture_output=True,
        check=True,
    ).stdout
    builds.run(["tar", "-x", "-C", str(out)], input=archive, text=False, what="unpack")
    core = out / "src" / "fastxfen" / "core"
    if "int *fields" not in (core / "fx.h").read_text():
        raise SystemExit(
            f"{commit}: its fx_parse has no fields (the harness needs 3ca50d8 or later)"
        )
    return core


def runnable(exe: Path, path: Path) -> list:
    """The readers this build has and this CPU runs (the harness refuses
    the others)."""
    ok = []
    for name in NAMES:
        done = subprocess.run(
            [str(exe), str(path), "1", "memcpy"],
            capture_output=True,
            text=True,
            env={**os.environ, "FASTXFEN_READER": name},
        )
        if done.returncode == 0:
            ok.append(name)
    return ok


def ran_by(core: Path, name: str) -> str:
    """The reader a build of `core` runs when asked for `name` (builds
    before core/readers/ know only FASTXFEN_NO_AVX512 and _NO_AVX2)."""
    if (core / "readers").is_dir():
        return name
    if name == "avx512" and (core / "avx512.c").exists():
        return "avx512"
    if name in ("avx512", "avx2") and (core / "avx2.c").exists():
        return "avx2"
    return "sse2"


def run(exe: Path, path: Path, rounds: int, name: str, clock: str, check: bool) -> dict:
    """{case: (median, best)} ns per row from one run of the harness with
    reader `name` (check: the harness must say it ran it)."""
    env = {**os.environ, **builds.reader_env(name), "FX_BENCH_CLOCK": clock}
    out = builds.run([str(exe), str(path), str(rounds)], env=env, what=f"{exe.name} {name}").stdout
    ran = re.search(r"^reader (\S+)", out, re.M)
    if check and (not ran or ran[1] != name):
        raise SystemExit(f"asked for reader {name}, the harness ran {ran and ran[1]}")
    got = {m[1]: (float(m[2]), float(m[3])) for m in LINE.finditer(out)}
    if "parse" not in got:
        raise SystemExit(f"{exe.name} {name}: no timings in its output:\n{out}")
    return got


# the part of the work each source file of the core does
PARTS = (
    ("readers/", "placement"),
    ("parse.c", "other fields"),
    ("tail.c", "other fields"),
    ("rules.c", "rules"),
    ("write.c", "writing"),
    ("batch.c", "loop"),
)


def part_of(source: str, function: str = "") -> str | None:
    """The part a source file's function does; None outside the core.
    Before core/readers/, the placement readers were functions named for
    it in parse.c, avx2.c and avx512.c (unless inlined into fx_parse)."""
    if "/fastxfen/core/" not in source:
        return "harness" if source.endswith("kernel.c") else None
    if "placement" in function and "write" not in function:
        return "placement"
    if "write_placement" in function:
        return "writing"
    return next((part for tail, part in PARTS if tail in source), "other core")


def parts(out: Path, rows: int) -> dict:
    """{part: [instructions, mispredicted branches] per row} from a
    callgrind file: each function's own cost goes to its part (part_of:
    the file that defines it, code inlined from headers included), and
    calls out of the core (memcpy) to the caller's part."""
    names: dict = {}
    totals: dict = {}
    current = callee = pending = None
    source = ""
    in_call = False

    def name(line: str) -> str:  # "(id) name" or "(id)": the name given once
        key, _, rest = line.partition(" ")
        return names.setdefault(key, rest) if rest else names.get(key, key)

    for line in out.read_text().splitlines():
        key, _, value = line.partition("=")
        if key == "fl":
            source = name(value)
            current = part_of(source)
        elif key in ("cfl", "cfi"):  # the callee's file, when not the caller's
            callee_file = name(value)
            pending = (part_of(callee_file), callee_file)
        elif key == "cfn":
            function = name(value)
            callee = part_of(pending[1], function) if pending else part_of(source, function)
            pending = None
        elif key == "fn":
            current = part_of(source, name(value))
        elif key in ("fi", "fe", "ob", "cob"):
            name(value)
        elif key == "calls":
            in_call = True
        elif line[:1].isdigit() or line[:1] in "+-*":
            costs = [int(v) for v in line.split()[1:]]
            own = not in_call or callee is None
            if own and current and costs:
                entry = totals.setdefault(current, [0, 0])
                entry[0] += costs[0]
                entry[1] += costs[2] if len(costs) > 2 else 0
            in_call = False
    return {part: [v / rows for v in values] for part, values in totals.items()}


def count(exe: Path, path: Path, name: str, case: str, tmp: Path) -> tuple:
    """Instructions, conditional branches and mispredicted ones per row of
    one case under callgrind, reader `name`."""
    out = tmp / f"callgrind.{exe.name}.{name}.{case}"
    rows = sum(1 for _ in path.open())
    builds.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--branch-sim=yes",
            f"--toggle-collect={FUNCTIONS[case]}",
            f"--callgrind-out-file={out}",
            str(exe),
            str(path),
            "0",
            case,
        ],
        env={**os.environ, **builds.reader_env(name)},
        what=f"callgrind {exe.name} {name} {case}",
    )
    for line in out.read_text().splitlines():
        if line.startswith(("summary:", "totals:")):
            ir, bc, bcm = (int(v) for v in line.split()[1:4])
            return ir / rows, bc / rows, bcm / rows, parts(out, rows)
    raise SystemExit(f"{out}: no totals")


def count_table(exes: dict, path: Path, names: list, tmp: Path, cases: list) -> None:
    if not shutil.which("valgrind"):
        raise SystemExit("--count needs valgrind")
    names = [name for name in names if name != "avx512"]  # valgrind has no AVX-512
    print("| reader | case | build (reader) | instructions/row | branches/row | mispredicted/row |")
    print("| --- | --- | --- | ---: | ---: | ---: |")
    split = {}
    for name in names:
        for case in cases:
            for build_name, (exe, core) in exes.items():
                if case == "placement" and not (core / "readers").is_dir():
                    continue  # older cores have no reader table to call alone
                ir, bc, bcm, by_part = count(exe, path, name, case, tmp)
                split[name, case, build_name] = by_part
                print(
                    f"| {name} | {case} | {build_name} ({ran_by(core, name)}) | {ir:.0f} "
                    f"| {bc:.1f} | {bcm:.2f} |"
                )
    print("\nBy part, instructions (mispredicted branches) per row:\n")
    order = list(dict.fromkeys(part for _, part in PARTS)) + ["other core", "harness"]
    print("| reader | case | build | " + " | ".join(order) + " |")
    print("| --- | --- | --- |" + " ---: |" * len(order))
    for (name, case, build_name), by_part in split.items():
        cells = [
            f"{by_part[p][0]:.0f} ({by_part[p][1]:.2f})" if p in by_part else "" for p in order
        ]
        print(f"| {name} | {case} | {build_name} | " + " | ".join(cells) + " |")


def time_table(args, exes: dict, path: Path, names: list, rows: list) -> None:
    results = {(b, name): [] for b in exes for name in names}
    for _ in range(args.turns):
        for name in names:
            for b, (exe, _) in exes.items():
                results[b, name].append(
                    run(exe, path, args.rounds, name, args.clock, check=b == "after")
                )
    size = sum(len(row) + 1 for row in rows) / len(rows)
    print(
        f"{len(rows):,} rows of {size:.1f} bytes, {args.turns} turns of {args.rounds} rounds, "
        f"{args.clock} time\n"
    )
    head = "| reader | case | ns/row (median) | best | M rows/s | GB/s | x memcpy |"
    rule = "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
    if "before" in exes:
        head += " before (reader): median, best | before / after: medians (range), bests |"
        rule += " ---: | ---: |"
        old_core = exes["before"][1]
    print(head)
    print(rule)
    for name in names:
        turns = results["after", name]
        copy = statistics.median(turn["bandwidth"][0] for turn in turns)
        for case in CASES:
            if case not in turns[0]:
                continue
            median = statistics.median(turn[case][0] for turn in turns)
            best = min(turn[case][1] for turn in turns)
            line = (
                f"| {name} | {case} | {median:.1f} | {best:.1f} | {1e3 / median:.1f} "
                f"| {size / median:.2f} | {median / copy:.1f} |"
            )
            old = results.get(("before", name))
            if old and case in old[0]:
                ratios = [o[case][0] / t[case][0] for o, t in zip(old, turns)]
                old_best = min(o[case][1] for o in old)
                old_median = statistics.median(o[case][0] for o in old)
                line += (
                    f" ({ran_by(old_core, name)}) {old_median:.1f}, "
                    f"{old_best:.1f} | {statistics.median(ratios):.2f} "
                    f"({min(ratios):.2f}-{max(ratios):.2f}), {old_best / best:.2f} |"
                )
            elif old:
                line += " | |"
            print(line)
    print()
    for what, case in (("256 MB memcpy", "bandwidth"), ("in-cache memcpy", "memcpy")):
        each = ", ".join(
            f"{name} {statistics.median(t[case][0] for t in results['after', name]):.2f}"
            for name in names
        )
        print(f"{what}, ns/row: {each}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=21)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--before", help="a commit whose core to compare with")
    parser.add_argument("--readers", help="comma-separated readers (default: all this CPU runs)")
    parser.add_argument("--cases", default=",".join(CASES), help="cases for --count")
    parser.add_argument("--clock", choices=["cpu", "wall"], default="cpu")
    parser.add_argument("--count", action="store_true", help="count with callgrind, not time")
    parser.add_argument("--count-rows", type=int, default=20_000)
    args = parser.parse_args()
    rows = corpus.load(args.n)
    if args.count:
        rows = rows[: args.count_rows]
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        path = tmp / "rows.fen"
        path.write_text("\n".join(rows) + "\n")
        exes = {"after": (tmp / "kernel", HERE.parent / "src" / "fastxfen" / "core")}
        if args.before:
            exes["before"] = (tmp / "kernel-before", core_of(args.before, tmp))
        for exe, core in exes.values():
            build(exe, core, debug=args.count)
        names = runnable(exes["after"][0], path)
        if args.readers:
            names = [name for name in args.readers.split(",") if name in names]
        cc = builds.run([*compiler(), "--version"]).stdout.splitlines()[0]
        print(f"after: this source tree, commit {builds.commit_of(builds.ROOT)}")
        if args.before:
            print(f"before: commit {builds.resolve(args.before)[:7]}")
        print(f"compiler: {cc}; readers: {', '.join(names)}\n")
        if args.count:
            count_table(exes, path, names, tmp, args.cases.split(","))
        else:
            time_table(args, exes, path, names, rows)


if __name__ == "__main__":
    main()
