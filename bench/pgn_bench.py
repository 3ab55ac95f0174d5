"""Throughput of ``fastxfen pgn`` on a header-heavy PGN file, against
python-chess reading the headers of the same file.

Writes a PGN file of the requested size (with ``--fen-dense``, games that are
a FEN tag, a SetUp tag in half of them and a move or none: one FEN tag per
~86 bytes); otherwise games of 7-12 header tags and short
movetexts (some with ``{ [%clk ...] }`` comments), a share of them with a FEN
tag (from random standard and Chess960 games, in X-FEN or Shredder-FEN, with
and without SetUp and Variant tags, with en-passant targets, leading zeros and
extra blanks) and a few bad FEN tags.  Then:

1. in turns, ``--repeat`` rounds: a plain read + write copy of the file
   (8 MB blocks, in a child process: the floor of any file-to-file tool on
   this machine), ``python -m fastxfen pgn FILE -o OUT --errors coerce`` of
   this tree and, with ``--before TREE``, of another source tree (built in
   place), each timed end to end, process start included, the output file
   removed before each run; and memcpy in this process.  Prints MB/s of input
   (median, spread), CPU time, and the ratios to the plain copy and to
   memcpy; with ``--one-core`` each child is pinned to one CPU (Linux), so
   that reading, scanning, normalizing and writing share it;
2. python-chess, ``chess.pgn.read_headers`` in a loop over the first
   ``--sample`` MB of the same file (text mode), scaled to MB/s; and the same
   loop also normalizing each FEN tag with
   ``chess.Board(fen, chess960=True).fen()``, which is the work fastxfen does.

Not part of the test suite.  Usage::

    python bench/pgn_bench.py                 # 256 MB file in a temp dir
    python bench/pgn_bench.py 500M --keep     # keep the generated file
    python bench/pgn_bench.py --input games.pgn --one-core --repeat 7
    python bench/pgn_bench.py 100M -- --threads 2 --castling shredder
    python bench/pgn_bench.py --fen-dense --keep --no-python-chess
    python bench/pgn_bench.py --input dense.pgn --before ../old --one-core
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import builds

EVENTS = [
    "Rated Blitz game",
    "Rated Bullet game",
    "Casual Rapid game",
    "Titled Arena",
    "Open Championship",
    "Club match",
    "?",
]
RESULTS = ["1-0", "0-1", "1/2-1/2", "*"]
OPENINGS = [
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6",
    "1. d4 d5 2. c4 e6 3. Nc3 Nf6",
    "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6",
    "1. c4 e5 2. Nc3 Nf6",
    "1. Nf3 d5 2. g3",
    "1. e4 e6 2. d4 d5 3. Nc3 Bb4",
]


def parse_size(text: str) -> int:
    scale = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}.get(text[-1:].lower(), 1)
    return int(float(text[:-1] if scale != 1 else text) * scale)


def fen_pool(n: int, rng: random.Random) -> list:
    """(fen, chess960) from random games: standard and Chess960 starts, a few
    random plies, written in varied but valid styles."""
    import chess

    pool = []
    while len(pool) < n:
        is960 = rng.random() < 0.5
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if is960 else chess.Board()
        board.chess960 = True
        for _ in range(rng.randrange(0, 24)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        fen = board.fen(shredder=rng.random() < 0.4, en_passant="fen")
        fields = fen.split()
        if rng.random() < 0.15:
            fields[4] = "0" + fields[4]  # leading zero, dropped on output
        if rng.random() < 0.1:
            fields = fields[:4]  # no counters
        pool.append((" ".join(fields) if rng.random() < 0.9 else "  ".join(fields), is960))
    return pool


def make_games(count: int, rng: random.Random, fens: list, fen_share: float) -> list:
    games = []
    for _ in range(count):
        tags = [
            f'[Event "{rng.choice(EVENTS)}"]',
            f'[Site "https://example.org/{rng.getrandbits(40):010x}"]',
            f'[Date "20{rng.randrange(10, 25)}.{rng.randrange(1, 13):02d}.'
            f'{rng.randrange(1, 29):02d}"]',
            f'[Round "{rng.choice(["-", "1", "2", "3.1"])}"]',
            f'[White "player{rng.randrange(100000)}"]',
            f'[Black "player{rng.randrange(100000)}"]',
            f'[Result "{rng.choice(RESULTS)}"]',
        ]
        extra = [
            f'[WhiteElo "{rng.randrange(800, 2900)}"]',
            f'[BlackElo "{rng.randrange(800, 2900)}"]',
            f'[TimeControl "{rng.choice(["60+0", "180+2", "600+5", "-"])}"]',
            f'[ECO "{rng.choice("ABCDE")}{rng.randrange(100):02d}"]',
            f'[Termination "{rng.choice(["Normal", "Time forfeit"])}"]',
        ]
        tags += rng.sample(extra, rng.randrange(0, 6))
        movetext = rng.choice(OPENINGS)
        if rng.random() < fen_share:
            fen, is960 = rng.choice(fens)
            if rng.random() < 0.002:
                fen = fen.replace("/", "/9", 1)  # a bad one now and then
            if is960 and rng.random() < 0.8:
                tags.append(f'[Variant "{rng.choice(["Chess960", "Fischerandom"])}"]')
            if rng.random() < 0.6:
                tags.append('[SetUp "1"]')
            tags.append(f'[FEN "{fen}"]')
            movetext = "1. a3" if " w " in fen else "1... a6"
        if rng.random() < 0.3:
            movetext = " ".join(
                part + " { [%clk 0:03:00] }" if part[0].isalpha() else part
                for part in movetext.split()
            )
        games.append("\n".join(tags) + "\n\n" + movetext + " " + tags[6][9:-2] + "\n\n")
    return games


def make_dense_games(count: int, rng: random.Random, fens: list) -> list:
    """Games that are little more than a FEN tag (a SetUp tag in half of
    them, a move or none): about one FEN tag per 90 bytes."""
    games = []
    for _ in range(count):
        fen, _ = rng.choice(fens)
        if rng.random() < 0.002:
            fen = fen.replace("/", "/9", 1)  # a bad one now and then
        tags = '[SetUp "1"]\n' if rng.random() < 0.5 else ""
        tags += f'[FEN "{fen}"]\n'
        movetext = rng.choice(["*", "1-0", "0-1", ("1. a3 *" if " w " in fen else "1... a6 *")])
        games.append(tags + "\n" + movetext + "\n\n")
    return games


def write_pgn(path: str, size: int, seed: int, fen_share: float, dense: bool = False) -> int:
    rng = random.Random(seed)
    fens = fen_pool(4000, rng)
    made = make_dense_games(20000, rng, fens) if dense else make_games(20000, rng, fens, fen_share)
    games = [g.encode() for g in made]
    written = 0
    with open(path, "wb") as f:
        while written < size:
            rng.shuffle(games)
            block = b"".join(games)
            f.write(block)
            written += len(block)
    return written


_COPY = """
import sys
with open(sys.argv[1], "rb", buffering=0) as f, open(sys.argv[2], "wb", buffering=0) as g:
    while True:
        block = f.read(8 << 20)
        if not block:
            break
        g.write(block)
"""


def memcpy_mb_s(size: int = 256 << 20) -> float:
    """This process's memcpy bandwidth (numpy copyto of warm buffers, best of 3), MB/s."""
    import numpy as np

    a = np.ones(size, np.uint8)
    b = np.empty_like(a)
    np.copyto(b, a)
    best = min(_timed(lambda: np.copyto(b, a)) for _ in range(3))
    return size / 1e6 / best


def _timed(call) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def variants(path: str, out: str, extra: list, before: str | None) -> list:
    """(name, command, PYTHONPATH or None, whether it is fastxfen) of each
    variant timed: a plain read + write copy of the file (the floor), this
    tree's fastxfen and, with ``before``, that tree's."""
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    cmd = [sys.executable, "-m", "fastxfen", "pgn", path, "-o", out, "--errors", "coerce"]
    found = [("plain copy", [sys.executable, "-c", _COPY, path, out], None, False)]
    found.append(("fastxfen", cmd + extra, here if os.path.isdir(here) else None, True))
    if before:
        found.append(("before", cmd + extra, os.path.join(before, "src"), True))
    return found


def run_once(command: list, pythonpath: str | None, out: str, one_core: bool) -> tuple:
    """(wall seconds, CPU seconds, first stderr line) of one run, process
    start included; the output file is removed first, so that no run pays
    for truncating the last one's."""
    env = builds.installed_env()
    if pythonpath:
        env["PYTHONPATH"] = pythonpath + os.pathsep + env.get("PYTHONPATH", "")
    pin = None
    if one_core:
        core = min(os.sched_getaffinity(0))
        pin = lambda: os.sched_setaffinity(0, {core})  # noqa: E731
    if os.path.exists(out):
        os.remove(out)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(command, env=env, stderr=subprocess.PIPE, text=True, preexec_fn=pin)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if command[1:3] == ["-m", "fastxfen"]:  # exit 1 with its summary: rows rejected
        builds.check_cli(proc, " ".join(command[:4]))
    elif proc.returncode != 0:
        sys.exit(f"benchmark failed: {command[:4]}: exit {proc.returncode}\n{proc.stderr}")
    return wall, cpu, (proc.stderr.strip().splitlines() or [""])[0]


def time_turns(path: str, out: str, extra: list, rounds: int, one_core: bool, before) -> dict:
    """Each variant once a round, in turns; memcpy once a round.  Returns
    {name: (walls, cpus)} and prints the fastxfen summary line of round 1."""
    runs = variants(path, out, extra, before)
    times: dict = {name: ([], []) for name, *_ in runs}
    times["memcpy"] = ([], [])
    for round_ in range(rounds):
        for name, command, pythonpath, is_fastxfen in runs:
            wall, cpu, line = run_once(command, pythonpath, out, one_core)
            times[name][0].append(wall)
            times[name][1].append(cpu)
            if round_ == 0 and is_fastxfen:
                print(f"  {name}: {line}")
        times["memcpy"][0].append(memcpy_mb_s())
    if os.path.exists(out):
        os.remove(out)
    return times


def report(times: dict, mb: float) -> float:
    """Print medians and spreads, and ratios to the plain copy and to
    memcpy; returns fastxfen's median MB/s."""
    memcpy = statistics.median(times["memcpy"][0])
    floor = mb / statistics.median(times["plain copy"][0])
    print(
        f"  memcpy: median {memcpy:,.0f} MB/s (spread {min(times['memcpy'][0]):,.0f}-"
        f"{max(times['memcpy'][0]):,.0f})"
    )
    result = 0.0
    for name, (walls, cpus) in times.items():
        if name == "memcpy":
            continue
        rates = sorted(mb / w for w in walls)
        median = mb / statistics.median(walls)
        if name == "fastxfen":
            result = median
        print(
            f"  {name}: median {median:,.0f} MB/s (spread {rates[0]:,.0f}-{rates[-1]:,.0f}, "
            f"{len(walls)} runs), CPU {statistics.median(cpus):.2f} s; "
            f"{median / floor:.2f} of the plain copy, {median / memcpy:.3f} of memcpy"
        )
    if "before" in times:
        ratios = sorted(b / a for a, b in zip(times["fastxfen"][0], times["before"][0]))
        print(
            f"  fastxfen / before: median {statistics.median(ratios):.2f}x "
            f"(per round {ratios[0]:.2f}-{ratios[-1]:.2f})"
        )
    return result


def time_python_chess(path: str, sample: int, normalize: bool) -> tuple:
    """(seconds, bytes read) for read_headers over the first ``sample`` bytes."""
    import chess
    import chess.pgn

    started = time.perf_counter()
    games = 0
    with open(path, encoding="utf-8") as f:
        while True:
            headers = chess.pgn.read_headers(f)
            if headers is None:
                break
            games += 1
            if normalize and "FEN" in headers:
                try:
                    chess.Board(headers["FEN"], chess960=True).fen()
                except ValueError:
                    pass
            if games % 256 == 0 and f.buffer.tell() >= sample:
                break
        done = f.buffer.tell()
    return time.perf_counter() - started, done, games


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("size", nargs="?", default="256M", help="file size (default 256M)")
    parser.add_argument(
        "--fen-share", type=float, default=0.4, help="share of games with a FEN tag (default 0.4)"
    )
    parser.add_argument("--sample", default="16M", help="bytes python-chess reads (default 16M)")
    parser.add_argument(
        "--repeat", "--rounds", type=int, default=5, help="rounds of turns (default 5)"
    )
    parser.add_argument(
        "--fen-dense",
        action="store_true",
        help="generate games that are little more than a FEN tag (one per ~90 bytes)",
    )
    parser.add_argument("--before", help="also time the fastxfen of this source tree, in turns")
    parser.add_argument("--input", help="time this PGN file instead of generating one")
    parser.add_argument("--one-core", action="store_true", help="pin fastxfen to one CPU (Linux)")
    parser.add_argument("--no-python-chess", action="store_true", help="time fastxfen only")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the generated files")
    parser.add_argument("extra", nargs="*", help="options for fastxfen pgn (after --)")
    args = parser.parse_args(argv)

    folder = tempfile.mkdtemp(prefix="fastxfen-pgn-bench-")
    path = args.input or os.path.join(folder, "games.pgn")
    out = os.path.join(folder, "out.pgn")
    try:
        if args.input:
            size = os.path.getsize(path)
        else:
            started = time.perf_counter()
            size = write_pgn(path, parse_size(args.size), args.seed, args.fen_share, args.fen_dense)
            print(
                f"generated {size / 1e6:,.0f} MB in {time.perf_counter() - started:.1f} s: {path}"
            )
        mb = size / 1e6

        for name, _, pythonpath, is_fastxfen in variants(path, out, args.extra, args.before):
            if is_fastxfen:
                env = dict(os.environ)
                if pythonpath:
                    env["PYTHONPATH"] = pythonpath + os.pathsep + env.get("PYTHONPATH", "")
                print(f"{name}: {builds.describe_child(env)}")
        print("fastxfen pgn" + (" (one core)" if args.one_core else "") + ", in turns:")
        times = time_turns(path, out, args.extra, args.repeat, args.one_core, args.before)
        fast = report(times, mb)
        if args.no_python_chess:
            return 0

        sample = parse_size(args.sample)
        results = {}
        for normalize in (False, True):
            seconds, done, games = time_python_chess(path, sample, normalize)
            results[normalize] = done / 1e6 / seconds
            what = "read_headers + Board(fen).fen()" if normalize else "read_headers"
            print(
                f"python-chess {what}: {games:,} games, {done / 1e6:,.1f} MB in "
                f"{seconds:.2f} s: {results[normalize]:,.2f} MB/s "
                f"(the whole file: ~{mb / results[normalize]:,.0f} s)"
            )
        print(
            f"speed-up: {fast / results[False]:,.0f}x over read_headers, "
            f"{fast / results[True]:,.0f}x over read_headers + FEN normalization"
        )
    finally:
        if args.keep:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
