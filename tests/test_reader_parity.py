"""The placement readers chosen at run time give the same answers.

The AVX-512 reader and writer run where the CPU has them, else the AVX2
ones, then the SSE2 (or scalar) reader and the table-driven writer;
FASTXFEN_NO_AVX512 and FASTXFEN_NO_AVX2 turn the first two off.  Each
choice normalizes, encodes, validates and decodes the same rows, valid and
mutated, 8-wide and 10-wide, in a fresh process; every output must be the
same as this process's."""

import os
import pickle
import subprocess
import sys

import pytest
from support.strategies import game_corpus, model_corpus, mutation_corpus

SCRIPT = """
import pickle, sys
import fastxfen as fx
rows = pickle.loads(sys.stdin.buffer.read())
buffer = ("\\n".join(rows) + "\\n").encode("utf-8", "surrogatepass")
records = fx.encode(buffer, errors="coerce", width=10)
out = (
    fx.normalize(buffer, errors="coerce"),
    fx.normalize(rows, errors="coerce", castling="shredder", en_passant="legal"),
    records.tobytes(),
    fx.validate(buffer),
    fx.decode(records, output="bytes", castling="shredder"),
)
sys.stdout.buffer.write(pickle.dumps(out))
"""


def run(rows, env):
    """SCRIPT's outputs for rows, in a process with env added."""
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        input=pickle.dumps(rows),
        capture_output=True,
        env={**os.environ, **env},
        check=True,
    )
    return pickle.loads(done.stdout)


@pytest.fixture(scope="module")
def rows():
    lines = game_corpus()[:4000] + model_corpus() + mutation_corpus()
    # rows of one line each (a newline buffer carries them too)
    return [row for row in lines if "\n" not in row and "\r" not in row]


@pytest.mark.parametrize(
    "env",
    [
        {"FASTXFEN_NO_AVX512": "1"},
        {"FASTXFEN_NO_AVX512": "1", "FASTXFEN_NO_AVX2": "1"},
    ],
    ids=["no-avx512", "sse2"],
)
def test_every_reader_and_writer_gives_the_same_outputs(rows, env):
    assert len(rows) > 15000
    expected = run(rows, {})
    got = run(rows, env)
    for name, a, b in zip(("buffer", "list", "records", "validate", "decode"), expected, got):
        assert a == b, name
    # the rows really hold both kinds: good and bad ones
    assert None in expected[1] and any(row is not None for row in expected[1])
