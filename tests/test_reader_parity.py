"""The placement readers chosen at run time give the same answers.

The AVX-512 reader and writer run where the CPU has them, else the AVX2
ones, then the SSE2 (or scalar) reader and the table-driven writer; NEON on
ARM64.  FASTXFEN_READER forces any reader built in that the CPU runs, and
FASTXFEN_NO_AVX512 and FASTXFEN_NO_AVX2 turn the first two off.  Each choice
normalizes, encodes, validates and decodes the same rows, valid and
mutated, 8-wide and 10-wide, in a fresh process; every output must be the
same as this process's, and fastxfen.info() must name the reader forced.
A reader that cannot run is refused when fastxfen is imported."""

import os
import pickle
import subprocess
import sys

import pytest
from support.strategies import game_corpus, model_corpus, mutation_corpus

import fastxfen as fx

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
sys.stdout.buffer.write(pickle.dumps((out, fx.info())))
"""
NAMES = ("buffer", "list", "records", "validate", "decode")
ABOUT = fx.info()


def environment(env):
    """This process's environment with no FASTXFEN_ variable but env's."""
    return {**{k: v for k, v in os.environ.items() if not k.startswith("FASTXFEN_")}, **env}


def run(rows, env):
    """SCRIPT's outputs for rows and fastxfen.info(), in a process with env."""
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        input=pickle.dumps(rows),
        capture_output=True,
        env=environment(env),
        check=True,
    )
    return pickle.loads(done.stdout)


def refusal(env):
    """The error importing fastxfen gives with env."""
    command = [sys.executable, "-c", "import fastxfen"]
    done = subprocess.run(command, capture_output=True, text=True, env=environment(env))
    assert done.returncode != 0
    return done.stderr.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def rows():
    lines = game_corpus()[:4000] + model_corpus() + mutation_corpus()
    # rows of one line each (a newline buffer carries them too)
    return [row for row in lines if "\n" not in row and "\r" not in row]


@pytest.fixture(scope="module")
def expected(rows):
    out, about = run(rows, {})
    assert about["reader"] == about["runnable"][-1]  # auto takes the last (best) one
    return out


def same(expected, got):
    for name, a, b in zip(NAMES, expected, got):
        assert a == b, name


@pytest.mark.parametrize(
    "env, reader",
    [
        ({"FASTXFEN_NO_AVX512": "1"}, "avx2"),
        ({"FASTXFEN_NO_AVX512": "1", "FASTXFEN_NO_AVX2": "1"}, "sse2"),
    ],
    ids=["no-avx512", "sse2"],
)
def test_every_reader_and_writer_gives_the_same_outputs(rows, expected, env, reader):
    assert len(rows) > 15000
    got, about = run(rows, env)
    same(expected, got)
    if reader in ABOUT["runnable"]:  # the aliases turn the readers above it off
        assert about["reader"] == reader
    # the rows really hold both kinds: good and bad ones
    assert None in expected[1] and any(row is not None for row in expected[1])


@pytest.mark.parametrize("reader", ["scalar", "sse2", "avx2", "avx512", "neon"])
def test_each_forced_reader_gives_the_same_outputs(rows, expected, reader):
    if reader not in ABOUT["runnable"]:
        pytest.skip(f"this build or CPU has no {reader} reader")
    got, about = run(rows, {"FASTXFEN_READER": reader})
    same(expected, got)
    assert about["reader"] == reader
    assert about["writer"] == (reader if reader not in ("scalar", "sse2") else "table")


def test_info_reports_the_reader_and_what_it_was_chosen_from():
    assert set(ABOUT) == {
        "version",
        "reader",
        "writer",
        "readers",
        "runnable",
        "cpu",
        "compiler",
        "machine",
    }
    assert ABOUT["version"] == fx.__version__
    assert ABOUT["reader"] in ABOUT["runnable"]
    assert set(ABOUT["runnable"]) <= set(ABOUT["readers"])
    assert ABOUT["readers"][0] == ABOUT["runnable"][0] == "scalar"  # built and run everywhere
    assert ABOUT["compiler"]


def test_a_reader_that_cannot_run_is_refused_clearly():
    missing = "neon" if "avx2" in ABOUT["readers"] else "avx2"
    built = ", ".join(ABOUT["readers"])
    assert refusal({"FASTXFEN_READER": missing}) == (
        f"ImportError: FASTXFEN_READER={missing}: this build has no {missing} reader "
        f"(it has {built})"
    )
    assert refusal({"FASTXFEN_READER": "avx-2"}) == (
        "ImportError: FASTXFEN_READER=avx-2: no such reader "
        "(auto, scalar, sse2, avx2, avx512 or neon)"
    )
    if "avx512" in ABOUT["runnable"]:
        assert refusal({"FASTXFEN_READER": "avx512", "FASTXFEN_NO_AVX512": "1"}) == (
            "ImportError: FASTXFEN_READER=avx512: FASTXFEN_NO_AVX512 is set too"
        )


def test_version_shows_the_reader():
    done = subprocess.run(
        [sys.executable, "-m", "fastxfen", "--version"],
        capture_output=True,
        text=True,
        env=environment({"FASTXFEN_READER": "scalar"}),
        check=True,
    )
    lines = done.stdout.splitlines()
    assert lines[0] == f"fastxfen {fx.__version__}"
    assert lines[1] == "placement reader scalar, writer table"
