"""Throughput of the training-data readers and writers (fastxfen.training).

Every case runs on one core unless it says threads, over a .binpack file
given as the argument (or, without one, a file of random games written by
fastxfen itself), once to warm up and then ``--repeat`` times, interleaved
case after case so that every case sees the same load.  Figures are entries
per second from the median time and, in brackets, from the fastest run;
``--clock cpu`` (the default) counts the CPU time of this process (user and
system, page faults of fresh arrays included), steadier on a shared
machine; ``--clock wall`` times with ``time.perf_counter``.

Cases:

* ``binpack->records``: ``batches(columns=("record",), output="numpy")``,
  every batch consumed;
* ``binpack->fen``: the same with canonical FEN text (``columns=("fen",)``,
  Arrow);
* ``binpack->arrow+uci``: ``read()`` into one Arrow table of fen, move (UCI),
  score, ply and result;
* ``records->binpack``: ``write()`` of records, 16-bit moves, score, ply and
  result, into memory;
* ``binpack->plain`` and ``plain->binpack``: ``convert()``, file to file;
* ``binpack->records threads=2``: the file's blocks on two threads (the
  file is repeated to have blocks enough).

``--peer NAME=COMMAND`` times another program in the same rounds: COMMAND
is run with ``{file}`` replaced by the .binpack path (``{plain}`` by the
.plain one) and is taken to process the file's entries once, or REPS times
with ``NAME@REPS=COMMAND``; its CPU time comes from the child's resource
usage.  The ratio of each case named NAME to it is printed per round and
as the median.

Usage::

    python bench/training_bench.py data.binpack --repeat 7
    python bench/training_bench.py data.binpack \\
        --peer "binpack->records@20=./reader {file} 20"

For instructions per entry, run one case under callgrind::

    valgrind --tool=callgrind python bench/training_bench.py data.binpack \\
        --repeat 1 --cases binpack->records
"""

from __future__ import annotations

import argparse
import gc
import io
import os
import random
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
try:
    import fastxfen.training as ft
except ImportError:  # the in-place build in src/
    sys.path.insert(0, str(HERE.parent / "src"))
    import fastxfen.training as ft

RECORD_COLUMNS = ("record", "sfmove", "score", "ply", "result")
TABLE_COLUMNS = ("fen", "move", "score", "ply", "result")


def random_binpack(path: Path, games: int, seed: int = 25) -> None:
    """A .binpack of random games (python-chess plays them)."""
    import chess

    rng = random.Random(seed)
    rows = {name: [] for name in TABLE_COLUMNS}
    for _ in range(games):
        board, result = chess.Board(), rng.choice((-1, 0, 1))
        for ply in range(rng.randint(20, 160)):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            for name, value in zip(
                TABLE_COLUMNS,
                (
                    board.fen(en_passant="legal"),
                    board.uci(move),
                    rng.randint(-900, 900),
                    ply,
                    result,
                ),
            ):
                rows[name].append(value)
            board.push(move)
            result = -result
    ft.write(path, rows)


def binpack_of(given, work: Path) -> Path:
    """The .binpack file ``given``, or without one a file of random games
    written into the folder ``work``."""
    if given:
        return Path(given)
    path = work / "games.binpack"
    random_binpack(path, 300)
    return path


def cpu_time() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def cases(path: Path, plain: Path, work: Path, repeated: Path, entries: int) -> dict:
    def records():
        for _ in ft.batches(path, columns=("record",), output="numpy"):
            pass

    def fen():
        for _ in ft.batches(path, columns=("fen",)):
            pass

    def arrow():
        ft.read(path, columns=TABLE_COLUMNS)

    data = ft.read(path, columns=RECORD_COLUMNS, output="numpy")

    def write():
        ft.write(io.BytesIO(), data, format="binpack")

    def to_plain():
        ft.convert(path, work / "out.plain")

    def from_plain():
        ft.convert(plain, work / "out.binpack")

    def threaded():
        for _ in ft.batches(repeated, columns=("record",), output="numpy", threads=2):
            pass

    return {
        "binpack->records": (records, entries),
        "binpack->fen": (fen, entries),
        "binpack->arrow+uci": (arrow, entries),
        "records->binpack": (write, entries),
        "binpack->plain": (to_plain, entries),
        "plain->binpack": (from_plain, entries),
        "binpack->records threads=2": (threaded, 4 * entries),
    }


def run_peer(command: str, path: Path, plain: Path) -> float:
    """CPU seconds of one run of an outside program."""
    args = [a.format(file=path, plain=plain) for a in shlex.split(command)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("binpack", nargs="?", help=".binpack file (default: random games)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--cases", nargs="*", help="names of the cases to run")
    parser.add_argument("--peer", action="append", default=[], metavar="NAME[@REPS]=COMMAND")
    args = parser.parse_args()
    clock = cpu_time if args.clock == "cpu" else time.perf_counter
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        path = binpack_of(args.binpack, work)
        plain = work / "games.plain"
        ft.write(plain, ft.read(path, columns=TABLE_COLUMNS))
        repeated = work / "repeated.binpack"
        repeated.write_bytes(path.read_bytes() * 4)
        entries = ft.read(path, columns=("ply",), output="numpy")["ply"].size
        todo = cases(path, plain, work, repeated, entries)
        if args.cases:
            todo = {k: v for k, v in todo.items() if k in args.cases}
        peers, reps = {}, {}
        for spec in args.peer:
            name, command = spec.split("=", 1)
            name, _, count = name.partition("@")
            peers[name], reps[name] = command, int(count or 1)
        print(
            f"{path.name}: {entries:,} entries, {path.stat().st_size:,} bytes; "
            f"clock {args.clock}; {os.cpu_count()} CPUs"
        )
        times = {name: [] for name in list(todo) + [f"peer {n}" for n in peers]}
        for fn, _ in todo.values():
            fn()  # warm up
        for _ in range(args.repeat):
            for name, (fn, _) in todo.items():
                gc.collect()
                t0 = clock()
                fn()
                times[name].append(clock() - t0)
            for name, command in peers.items():
                times[f"peer {name}"].append(run_peer(command, path, plain))
        for name, (_, n) in todo.items():
            ts = times[name]
            print(
                f"{name:30s} {n / statistics.median(ts) / 1e6:7.2f} M/s ({n / min(ts) / 1e6:.2f})"
            )
        for name in peers:
            ts = [t / reps[name] for t in times[f"peer {name}"]]
            print(
                f"{'peer ' + name:30s} {entries / statistics.median(ts) / 1e6:7.2f} M/s "
                f"({entries / min(ts) / 1e6:.2f})"
            )
            if name in times:
                ratios = [p / reps[name] / m for p, m in zip(times[f"peer {name}"], times[name])]
                print(
                    f"  same-run ratio {name} / peer: median {statistics.median(ratios):.2f} "
                    f"(rounds {', '.join(f'{r:.2f}' for r in ratios)})"
                )


if __name__ == "__main__":
    main()
