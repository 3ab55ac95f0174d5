"""Deterministic benchmark corpus: FEN strings taken from random games.

Games are played with python-chess, choosing uniformly among the legal moves,
either from the standard start position or from one of the 960 Chess960
starts.  Positions are sampled along each game, so the corpus mixes openings
(full castling rights, many en-passant targets after double pushes) with
middle games and endings (partial or no castling rights, few pieces).

Text forms in the corpus:

* standard games: plain FEN (``KQkq``);
* Chess960 games: X-FEN (``KQkq`` or rook files where ambiguous) or
  Shredder-FEN (``HAha``), chosen at random per game;
* the en-passant field is written after every double push (python-chess's
  ``en_passant="fen"``), so the normalizers have real targets to check and to
  drop.

The same (n, seed) always gives the same list.  The list is cached as a text
file under ``bench/.cache/`` (one FEN per line), keyed by n, seed, the
generator version and the python-chess version, so only the first run pays
for generating it.

Usage::

    python bench/corpus.py --n 100000          # build (or reuse) and summarize
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

import chess

# Bump when the generator changes in a way that changes its output.
GENERATOR_VERSION = 1

DEFAULT_N = 100_000
DEFAULT_SEED = 20240601

CACHE_DIR = Path(__file__).resolve().parent / ".cache"

# Share of games started from a Chess960 position.
CHESS960_SHARE = 0.35
# Longest game played, in plies; each game's length is drawn up to this.
MAX_PLIES = 160
# Chance that a position along a game is put in the corpus.
SAMPLE_RATE = 0.35


def _cache_path(n: int, seed: int) -> Path:
    tag = chess.__version__.replace(".", "_")
    return CACHE_DIR / f"corpus-v{GENERATOR_VERSION}-chess{tag}-n{n}-s{seed}.fen"


def _one_game(rng: random.Random, out: list, n: int) -> None:
    if rng.random() < CHESS960_SHARE:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        shredder = rng.random() < 0.5
    else:
        board = chess.Board(chess960=True)
        shredder = False
    plies = rng.randint(1, MAX_PLIES)
    # The start position itself is rarely sampled, so it does not dominate.
    if rng.random() < 0.02:
        out.append(board.fen(shredder=shredder, en_passant="fen"))
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(moves[rng.randrange(len(moves))])
        if rng.random() < SAMPLE_RATE:
            out.append(board.fen(shredder=shredder, en_passant="fen"))
            if len(out) >= n:
                return


def generate(n: int = DEFAULT_N, seed: int = DEFAULT_SEED) -> list:
    """Play random games until n positions are collected; return them shuffled."""
    rng = random.Random(seed)
    out: list = []
    while len(out) < n:
        _one_game(rng, out, n)
    # Shuffle so that neighbouring rows do not come from the same game.
    rng.shuffle(out)
    return out


def load(n: int = DEFAULT_N, seed: int = DEFAULT_SEED, *, cache: bool = True) -> list:
    """The corpus of n FEN strings for this seed, from the cache when present."""
    path = _cache_path(n, seed)
    if cache and path.is_file():
        fens = path.read_text(encoding="ascii").splitlines()
        if len(fens) == n:
            return fens
    fens = generate(n, seed)
    if cache:
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".tmp{os.getpid()}")
        tmp.write_text("\n".join(fens) + "\n", encoding="ascii")
        os.replace(tmp, path)
    return fens


def summary(fens: list) -> dict:
    """Counts that show what the corpus is made of."""
    castling_any = ep = shredderish = 0
    for fen in fens:
        fields = fen.split(" ")
        if fields[2] != "-":
            castling_any += 1
            if any(c not in "KQkq" for c in fields[2]):
                shredderish += 1
        if fields[3] != "-":
            ep += 1
    return {
        "positions": len(fens),
        "with castling rights": castling_any,
        "castling written with file letters": shredderish,
        "with en-passant field": ep,
        "mean length (chars)": round(sum(map(len, fens)) / max(len(fens), 1), 1),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=DEFAULT_N)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--no-cache", action="store_true")
    parser.add_argument("--show", type=int, default=0, help="print the first SHOW positions")
    args = parser.parse_args(argv)
    t0 = time.perf_counter()
    fens = load(args.n, args.seed, cache=not args.no_cache)
    dt = time.perf_counter() - t0
    for key, value in summary(fens).items():
        print(f"{key}: {value}")
    print(f"loaded in {dt:.2f} s")
    for fen in fens[: args.show]:
        print(fen)
    return 0


if __name__ == "__main__":
    sys.exit(main())
