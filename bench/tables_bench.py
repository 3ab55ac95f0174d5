"""JSON Lines output against Parquet output of the same evaluation table.

Writes ROWS rows shaped like the lichess evaluation file (a 4-field FEN;
one to three evaluations, each one to five principal variations holding a
centipawn score or a mate count and a line of moves, knodes and depth) as
JSON Lines (or, with ``--input parquet``, as Parquet, so that reading costs
little), then runs ``python -m fastxfen normalize IN -o OUT --fields 4`` in
child processes, a Parquet OUT and a JSON Lines OUT in turns, ROUNDS times.
Prints each output's median wall time with its spread and the rows/s, and
the ratio of the two rates in the same run (the machine may be shared: the
ratio is the figure to keep).

``--writer`` also times the writers alone on the table in memory, in turns:
the JSON Lines renderer (fastxfen.files.json_lines) against the writer it
replaced (``json.dumps`` of each row of ``batch.to_pylist()``) and
pyarrow's Parquet writer.

Every child must exit 0 and every output must hold ROWS rows, else the
bench stops with the child's message; it says which fastxfen it ran (the
module's path and, in a git checkout, the commit).  Not part of the test
suite.

Usage::

    python bench/tables_bench.py                     # 500k rows, 5 rounds
    python bench/tables_bench.py 100k --rounds 3 --input parquet --writer
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import fastxfen as fx

MOVES = [
    f"{f}{r}{g}{s}" for f, g in zip("abcdefgh", "hgfedcba") for r, s in (("2", "4"), ("7", "5"))
]


def parse_count(text: str) -> int:
    scale = {"k": 10**3, "m": 10**6}.get(text[-1:].lower(), 1)
    return int(float(text[:-1] if scale != 1 else text) * scale)


def rows(n: int, seed: int = 0):
    """n evaluation rows (dicts), their FENs from random positions."""
    rng = random.Random(seed)
    fens = _fens(min(n, 5000), rng)
    for i in range(n):
        evals = []
        for _ in range(rng.randint(1, 3)):
            pvs = []
            for _ in range(rng.randint(1, 5)):
                line = " ".join(rng.choice(MOVES) for _ in range(rng.randint(4, 14)))
                if rng.random() < 0.1:
                    pvs.append({"mate": rng.randint(-9, 9) or 1, "line": line})
                else:
                    pvs.append({"cp": rng.randint(-900, 900), "line": line})
            evals.append({"pvs": pvs, "knodes": rng.randint(1, 10**7), "depth": rng.randint(1, 60)})
        yield {"fen": fens[i % len(fens)], "evals": evals}


def _fens(n: int, rng: random.Random) -> list:
    """n 4-field FENs of positions along random games."""
    import chess

    out, board = [], chess.Board()
    while len(out) < n:
        moves = list(board.legal_moves)
        if not moves or board.fullmove_number > 50:
            board = chess.Board()
            continue
        board.push(rng.choice(moves))
        out.append(" ".join(board.fen().split()[:4]))
    return out


def write_input(path: str, n: int, kind: str) -> None:
    """The rows as JSON Lines (as lichess writes them), or as Parquet."""
    if kind == "jsonl":
        with open(path, "w", encoding="utf-8") as f:
            for row in rows(n):
                f.write(json.dumps(row, separators=(",", ":")) + "\n")
        return
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.Table.from_pylist(list(rows(n))), path)


def command(source: str, out: str) -> tuple:
    """(wall, CPU) seconds of one run; exits loudly when the run fails."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "fastxfen", "normalize", source, "-o", out, "--fields", "4", "-q"],
        stderr=subprocess.PIPE,
        text=True,
    )
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"fastxfen failed ({proc.returncode}) writing {out}:\n{proc.stderr}")
    return seconds, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def count_rows(path: str) -> int:
    if path.endswith(".parquet"):
        import pyarrow.parquet as pq

        return pq.ParquetFile(path).metadata.num_rows
    with open(path, "rb") as f:
        return sum(1 for line in f if json.loads(line))


def writers(table, rounds: int) -> dict:
    """Seconds of each writer over the table in memory, in turns."""
    import pyarrow.parquet as pq

    from fastxfen.files.json_lines import JsonRender

    batches = table.to_batches(max_chunksize=131072)

    def rendered():
        render = JsonRender(table.schema)
        return sum(len(piece) for batch in batches for piece in render.rows(batch))

    def dumped():
        size = 0
        for batch in batches:
            lines = [
                json.dumps(row, ensure_ascii=False, separators=(",", ":"))
                for row in batch.to_pylist()
            ]
            size += len(("\n".join(lines) + "\n").encode())
        return size

    def parquet():
        sink = io.BytesIO()
        with pq.ParquetWriter(sink, table.schema) as writer:
            for batch in batches:
                writer.write_batch(batch)
        return len(sink.getvalue())

    cases = {"json_lines renderer": rendered, "json.dumps per row": dumped, "parquet": parquet}
    times: dict = {name: [] for name in cases}
    for _ in range(rounds):
        for name, case in cases.items():
            started = time.perf_counter()
            case()
            times[name].append(time.perf_counter() - started)
    return times


def build() -> str:
    where = os.path.dirname(fx.__file__)
    try:
        commit = subprocess.run(
            ["git", "-C", where, "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "no git checkout"
    return f"fastxfen {fx.__version__} from {where} ({commit})"


def spread(seconds: list) -> str:
    return (
        f"median {statistics.median(seconds):.2f} s "
        f"(min {min(seconds):.2f}, max {max(seconds):.2f}, {len(seconds)} runs)"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rows", nargs="?", default="500k", type=parse_count)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--input", choices=("jsonl", "parquet"), default="jsonl")
    parser.add_argument("--writer", action="store_true", help="also time the writers alone")
    parser.add_argument("--dir", default=None, help="where the files go (default: a temp dir)")
    args = parser.parse_args(argv)
    print(build())
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        source = os.path.join(folder, "evals." + args.input)
        write_input(source, args.rows, args.input)
        size = os.path.getsize(source)
        print(f"input: {args.rows:,} evaluation rows, {args.input}, {size / 1e6:.1f} MB")
        outs = {kind: os.path.join(folder, "out." + kind) for kind in ("parquet", "jsonl")}
        times: dict = {kind: [] for kind in outs}
        cpu: dict = {kind: [] for kind in outs}
        for _ in range(args.rounds):
            for kind, out in outs.items():
                wall, used = command(source, out)
                times[kind].append(wall)
                cpu[kind].append(used)
        for out in outs.values():
            if count_rows(out) != args.rows:
                sys.exit(f"{out} holds {count_rows(out):,} rows, not {args.rows:,}")
        for kind in outs:
            rate = args.rows / statistics.median(times[kind])
            print(
                f"  -o out.{kind:8s} {spread(times[kind])}, {rate:,.0f} rows/s, "
                f"CPU median {statistics.median(cpu[kind]):.2f} s"
            )
        ratio = statistics.median(times["parquet"]) / statistics.median(times["jsonl"])
        print(f"JSON Lines rate / Parquet rate: {ratio:.2f} (same run)")
        if args.writer:
            import pyarrow.parquet as pq

            if args.input == "parquet":
                table = pq.read_table(source)
            else:
                import pyarrow as pa

                table = pa.Table.from_pylist(list(rows(args.rows)))
            print("writers alone, on the table in memory:")
            for name, seconds in writers(table, args.rounds).items():
                print(f"  {name:22s} {spread(seconds)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
