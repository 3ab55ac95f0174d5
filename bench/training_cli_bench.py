"""The command line converting training data, against another converter in
the same rounds: ``fastxfen normalize X.binpack -o X.plain`` and back.
fastxfen's processes start as an installed package does, from compiled
bytecode (the warm-up round writes it for a source tree; see
builds.installed_env).

The input is a .binpack file given as the argument, its blocks repeated
``--copies`` times (so that the conversion, not the interpreter's start,
is timed), or without one a file of random games written by fastxfen.
Each round runs, one after the other, fastxfen .binpack -> .plain,
fastxfen .plain -> .binpack, the interpreter's start (importing fastxfen
and numpy) and the peers, each a fresh process writing a file; the
figures are entries a second by wall clock and by CPU time (the child's
user and system time, every thread's), medians over ``--repeat`` rounds,
and the ratio of the peer's time to fastxfen's per round, whole and
without the same round's start.  fastxfen's outputs are checked against
the peer's, byte for byte.  The files go to the temporary folder
(``TMPDIR``): on a disk the wall clock includes the fsync fastxfen does
before it publishes an output, which the peer does not do; on a tmpfs
(``TMPDIR=/dev/shm``) the conversions alone are compared.  Every timed run
writes a new file, as a conversion usually does: the output of the round
before is removed first, for every tool.  Overwriting would time the
freeing of the old file's pages too, which a truncating writer does as it
opens the file and reuses at once, and fastxfen's atomic publication does
when it renames its finished output over the old one, after writing it
into other pages: on a virtual machine whose host takes back free memory,
those pages can cost a host fault each (at 2.7 GB of output, rounds two to
three times slower than the first).

Peers are commands with ``{binpack}``, ``{plain}`` and ``{out}`` in place
of the files::

    python bench/training_cli_bench.py data.binpack --copies 8 --repeat 7 \\
        --peer "bp2plain=./converter {binpack} {out} bp2plain" \\
        --peer "plain2bp=./converter {plain} {out} plain2bp"

(nnue-pytorch's and Stockfish's training-data tools build such a converter
on their binpack reader and writer: ``convertBinpackToPlain`` and
``convertPlainToBinpack``).  Without peers, only fastxfen is timed.

``--before COMMIT`` (built outside the tree, in the temporary folder) or
``--before SRC`` (another build's ``src`` folder) runs that build's two
conversions in the same rounds too, and prints this build's speed-up over
it per conversion (its time over this build's, per round).
"""

from __future__ import annotations

import argparse
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from builds import build_commit, installed_env  # noqa: E402
from training_bench import binpack_of  # noqa: E402

import fastxfen.training as ft  # noqa: E402


def timed(args: list, env=None, out: Path | None = None) -> tuple:
    """(wall seconds, CPU seconds) of one run of ``args``, started as an
    installed package starts (``installed_env``), into a new file: ``out``,
    left by the round before, is removed before the clock starts."""
    env = installed_env() if env is None else env
    if out is not None:
        out.unlink(missing_ok=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def fastxfen(source: Path, target: Path, threads) -> list:
    args = [sys.executable, "-m", "fastxfen", "normalize", "-q", str(source), "-o", str(target)]
    return args + (["--threads", str(threads)] if threads else [])


def peer(command: str, binpack: Path, plain: Path, out: Path) -> list:
    return [a.format(binpack=binpack, plain=plain, out=out) for a in shlex.split(command)]


def report(name: str, runs: list, entries: int) -> None:
    for k, clock in enumerate(("wall", "cpu")):
        ts = [run[k] for run in runs]
        print(
            f"{name:28s} {clock:4s} {entries / statistics.median(ts) / 1e6:6.2f} M/s "
            f"(best {entries / min(ts) / 1e6:.2f})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binpack", nargs="?", help=".binpack file (default: random games)")
    parser.add_argument("--copies", type=int, default=8, help="times the file's blocks repeat")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, help="fastxfen's --threads (default: automatic)")
    parser.add_argument("--peer", action="append", default=[], metavar="bp2plain|plain2bp=COMMAND")
    parser.add_argument(
        "--before", help="a commit to build outside the tree, or a built src folder"
    )
    args = parser.parse_args()
    peers = dict(spec.split("=", 1) for spec in args.peer)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        one = binpack_of(args.binpack, work)
        binpack = work / "input.binpack"
        binpack.write_bytes(one.read_bytes() * args.copies)
        plain = work / "input.plain"
        subprocess.run(fastxfen(binpack, plain, args.threads), check=True)
        entries = ft.read(binpack, columns=("ply",), output="numpy")["ply"].size
        print(
            f"{one.name} x {args.copies}: {entries:,} entries, {binpack.stat().st_size:,} "
            f"bytes (.plain {plain.stat().st_size:,}); {os.cpu_count()} CPUs"
        )
        jobs = {
            "fastxfen bp2plain": fastxfen(binpack, work / "fx.plain", args.threads),
            "fastxfen plain2bp": fastxfen(plain, work / "fx.binpack", args.threads),
            "python start": [sys.executable, "-c", "import fastxfen.cli, fastxfen.training"],
        }
        outs = {"fastxfen bp2plain": work / "fx.plain", "fastxfen plain2bp": work / "fx.binpack"}
        envs = {}
        if args.before:
            src = args.before
            if not os.path.isdir(src):
                src = str(build_commit(src, work / "before-build"))
            for kind, (source, out) in {
                "bp2plain": (binpack, "b.plain"),
                "plain2bp": (plain, "b.binpack"),
            }.items():
                jobs[f"before {kind}"] = fastxfen(source, work / out, args.threads)
                outs[f"before {kind}"] = work / out
                envs[f"before {kind}"] = installed_env(PYTHONPATH=os.path.abspath(src))
        for kind, command in peers.items():
            out = work / ("peer.plain" if kind == "bp2plain" else "peer.binpack")
            jobs[f"peer {kind}"] = peer(command, binpack, plain, out)
            outs[f"peer {kind}"] = out
        times = {name: [] for name in jobs}
        for name, command in jobs.items():  # warm up, and check the outputs
            timed(command, envs.get(name))
        for kind, out in (("bp2plain", "plain"), ("plain2bp", "binpack")):
            if kind in peers:
                same = (work / f"fx.{out}").read_bytes() == (work / f"peer.{out}").read_bytes()
                print(f"{kind}: fastxfen's output and the peer's are {'' if same else 'NOT '}equal")
        for kind, out in (("bp2plain", "plain"), ("plain2bp", "binpack")):
            if args.before:
                same = (work / f"fx.{out}").read_bytes() == (work / f"b.{out}").read_bytes()
                verdict = "equal" if same else "NOT equal"
                print(f"{kind}: this build's output and the one before are {verdict}")
        for _ in range(args.repeat):
            for name, command in jobs.items():
                times[name].append(timed(command, envs.get(name), outs.get(name)))
        for name, runs in times.items():
            report(name, runs, entries)
        for kind in ("bp2plain", "plain2bp") if args.before else ():
            ratios = [
                b[1] / f[1] for b, f in zip(times[f"before {kind}"], times[f"fastxfen {kind}"])
            ]
            print(
                f"same-run ratio {kind} cpu: before / this build median "
                f"{statistics.median(ratios):.2f} (rounds {_listed(ratios)})"
            )
        start = times["python start"]
        for kind in peers:
            ours, theirs = times[f"fastxfen {kind}"], times[f"peer {kind}"]
            for k, clock in enumerate(("wall", "cpu")):
                ratios = [p[k] / f[k] for p, f in zip(theirs, ours)]
                net = [p[k] / max(f[k] - s[k], 1e-9) for p, f, s in zip(theirs, ours, start)]
                print(
                    f"same-run ratio {kind} {clock}: peer / fastxfen median "
                    f"{statistics.median(ratios):.2f} (rounds {_listed(ratios)}); "
                    f"without the interpreter's start {statistics.median(net):.2f} "
                    f"(rounds {_listed(net)})"
                )


def _listed(ratios: list) -> str:
    return ", ".join(f"{r:.2f}" for r in ratios)


if __name__ == "__main__":
    main()
