"""Write the seeds of training_fuzz.c into corpus/training/: small .binpack
blocks, .bin records and .plain texts of games the test model plays (every
kind of move), and damaged copies.  Byte 0 of a seed picks the reader (see
training_fuzz.c).  Run from anywhere: python tests/fuzz/make_training_corpus.py"""

import io
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import chess  # noqa: E402
from models import training as model  # noqa: E402

import fastxfen.training as ft  # noqa: E402

OUT = os.path.join(HERE, "corpus", "training")


def main():
    rng = random.Random(25)
    os.makedirs(OUT, exist_ok=True)
    seeds = {}
    games = [model.game(fen, 0, rng, script=script) for fen, script in model.SCRIPTS]
    games += [model.game(chess.STARTING_FEN, n, rng) for n in (1, 12, 60)]
    for i, entries in enumerate(games):
        out = io.BytesIO()
        ft.write(out, model.columns(entries), format="binpack")
        block = out.getvalue()[8:]
        seeds[f"binpack-{i}"] = bytes([0]) + block
        seeds[f"binpack-trip-{i}"] = bytes([3 | 4 * (i % 16)]) + block
        damaged = bytearray(block)
        damaged[rng.randrange(len(damaged))] ^= 1 << rng.randrange(8)
        seeds[f"binpack-damaged-{i}"] = bytes([0]) + bytes(damaged)
    for i, entries in enumerate(games[-3:]):
        kept = [e for e in entries if int(e.fen.split()[4]) < 128]
        seeds[f"bin-{i}"] = bytes([1]) + model.write_bin(kept)
        seeds[f"plain-{i}"] = bytes([2]) + model.write_plain(kept[:6]).encode()
    for name, data in seeds.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
