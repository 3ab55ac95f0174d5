"""Throughput and peak memory of the ``fastxfen`` command on a large file.

Writes a FEN file of the requested size (positions from random games when
python-chess is installed, else a fixed set, with varied move counters and a
malformed row now and then), runs ``python -m fastxfen normalize`` on it in a
child process and reports the throughput and the child's peak resident memory
(``resource.getrusage(RUSAGE_CHILDREN).ru_maxrss``).  Not part of the test
suite: it needs several GB of disk and a minute or more.

Usage::

    python bench/cli_memory.py 2G                      # normalize to /dev/null
    python bench/cli_memory.py 2G --write              # write the output file too
    python bench/cli_memory.py 1G --command encode     # .npy records instead
    python bench/cli_memory.py 1G -- --threads 2       # extra options for the CLI

Unix only (``resource``).  The exit status is 1 when the peak memory exceeds
``--limit-mb`` (default 200); a command that fails (any exit status but 0,
or 1 for rejected rows, or a traceback) stops it before any figure, with
the command's output.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import resource
import subprocess
import sys
import tempfile
import time

from builds import check_cli, describe_child

FALLBACK = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 5 39",
]


def parse_size(text: str) -> int:
    scale = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}.get(text[-1:].lower(), 1)
    return int(float(text[:-1] if scale != 1 else text) * scale)


def position_pool(n: int, seed: int) -> list:
    """Distinct placements/sides/castling/en-passant fields (counters dropped)."""
    rng = random.Random(seed)
    try:
        import chess
    except ImportError:
        return [" ".join(f.split()[:4]) for f in FALLBACK]
    pool = []
    while len(pool) < n:
        board = (
            chess.Board.from_chess960_pos(rng.randrange(960))
            if rng.random() < 0.2
            else chess.Board()
        )
        board.chess960 = True
        for _ in range(rng.randrange(1, 150)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            if rng.random() < 0.15:
                pool.append(" ".join(board.fen(en_passant="fen").split()[:4]))
    return pool


def write_corpus(path: str, size: int, seed: int, bad_every: int) -> int:
    """Write about ``size`` bytes of FEN lines to ``path``; return the row count."""
    rng = random.Random(seed)
    print(f"building a pool of positions (seed {seed}) ...", file=sys.stderr)
    pool = position_pool(20000, seed)
    rows = written = 0
    started = time.perf_counter()
    with open(path, "wb") as out:
        while written < size:
            lines = []
            for _ in range(50000):
                fen = rng.choice(pool)
                rows += 1
                if bad_every and rows % bad_every == 0:
                    lines.append(fen.replace("/", "/9", 1) + " 0 1")  # rank too long
                else:
                    lines.append(f"{fen} {rng.randrange(100)} {rng.randrange(1, 300)}")
            block = ("\n".join(lines) + "\n").encode()
            out.write(block)
            written += len(block)
    seconds = time.perf_counter() - started
    print(f"wrote {written / 1e6:,.0f} MB, {rows:,} rows in {seconds:.1f} s", file=sys.stderr)
    return rows


def _env() -> dict:
    """The environment for the child: the source tree on the path when
    fastxfen is not installed."""
    env = dict(os.environ)
    if importlib.util.find_spec("fastxfen") is None:
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "src")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [src, env.get("PYTHONPATH")]))
    return env


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("size", type=parse_size, help="input size, e.g. 1500M or 2G")
    parser.add_argument(
        "--dir", default=None, help="where to put the files (default: the system temp dir)"
    )
    parser.add_argument("--input", help="use this FEN file instead of generating one")
    parser.add_argument("--keep", action="store_true", help="keep the generated files")
    parser.add_argument(
        "--command", default="normalize", choices=("normalize", "validate", "encode")
    )
    parser.add_argument(
        "--write", action="store_true", help="write the output to a file (default: /dev/null)"
    )
    parser.add_argument(
        "--bad-every",
        type=int,
        default=100000,
        help="make every Nth row malformed (0: none; default 100000)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit-mb", type=float, default=200)
    parser.epilog = "Arguments after -- go to the fastxfen command."
    argv = list(sys.argv[1:] if argv is None else argv)
    # split off the command's arguments here: argparse would match an empty
    # trailing positional at SIZE and then reject what follows --
    cli_args = argv[argv.index("--") + 1 :] if "--" in argv else []
    args = parser.parse_args(argv[: argv.index("--")] if "--" in argv else argv)

    print(f"measuring: {describe_child(_env())}")
    workdir = tempfile.mkdtemp(prefix="fastxfen-bench-", dir=args.dir)
    source = args.input or os.path.join(workdir, "positions.fen")
    made = []
    try:
        rows = None
        if not args.input:
            rows = write_corpus(source, args.size, args.seed, args.bad_every)
            made.append(source)
        size = os.path.getsize(source)
        if args.write:
            output = os.path.join(workdir, "out.npy" if args.command == "encode" else "out.fen")
            made.append(output)
        else:
            output = os.devnull
        errors = [] if args.command == "validate" else ["--errors", "coerce"]
        command = [
            sys.executable,
            "-m",
            "fastxfen",
            args.command,
            source,
            "-o",
            output,
            "-q",
            *errors,
            *cli_args,
        ]
        print("running:", " ".join(command), file=sys.stderr)
        started = time.perf_counter()
        proc = subprocess.run(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=_env()
        )
        seconds = time.perf_counter() - started
        check_cli(proc, " ".join(command[2:5]))  # stops here, before any figure, on a failure
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        peak_mb = peak / (1 << 20) if sys.platform == "darwin" else peak / 1024
        print(f"command       fastxfen {args.command} (exit status {proc.returncode})")
        print(f"input         {size / 1e6:,.0f} MB" + (f", {rows:,} rows" if rows else ""))
        print(f"time          {seconds:.1f} s")
        print(
            f"throughput    {size / 1e6 / seconds:,.1f} MB/s"
            + (f", {rows / seconds:,.0f} positions/s" if rows else "")
        )
        print(f"peak RSS      {peak_mb:,.1f} MB (limit {args.limit_mb:,.0f} MB)")
        return 0 if peak_mb <= args.limit_mb else 1
    finally:
        if not args.keep:
            for path in made:
                if os.path.exists(path):
                    os.remove(path)
            if not os.listdir(workdir):
                os.rmdir(workdir)


if __name__ == "__main__":
    sys.exit(main())
