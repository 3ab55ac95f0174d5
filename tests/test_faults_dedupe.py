"""Deduper.add is all or nothing: a call that raises (a bad row under
errors="raise", a corrupt record, running out of memory, an interrupt:
tests/test_faults_signals.py) leaves the set, ``rows`` and ``distinct`` as
they were before it, for every input kind and however the input is cut
into chunks.  The model is a Python set of normalized positions fed only
the calls that succeed."""

import os
import random
import subprocess
import sys
import textwrap

import numpy as np
import pyarrow as pa
import pytest
from test_unique import START, corpus, with_key_mask

import fastxfen as fx
from fastxfen import keys

BAD = "8/8/8 w - - 0 1"


class Model:
    """The set of positions of the calls that succeeded."""

    def __init__(self) -> None:
        self.seen: set = set()
        self.rows = 0

    def add(self, rows) -> list:
        mask = []
        for row in rows:
            if row is None or fx.validate(row) is not None:
                mask.append(False)
                continue
            key = " ".join(fx.normalize(row).split()[:4])
            mask.append(key not in self.seen)
            self.seen.add(key)
        self.rows += len(rows)
        return mask


def kinds(rows):
    """The input kinds a list of rows can be handed to add as."""
    yield "list", rows
    yield "iterator", iter(rows)
    yield "numpy S", np.array([row.encode() for row in rows], "S")
    yield "numpy U", np.array(rows, "U")
    yield "arrow", pa.array(rows)
    yield "chunked arrow", pa.chunked_array([rows[: len(rows) // 2], rows[len(rows) // 2 :]])
    yield "buffer", ("\n".join(rows) + "\n").encode()


def check(dedupe: fx.Deduper, model: Model, probe: list) -> None:
    """The Deduper holds what the model holds: the same rows and distinct
    count, and a probe of positions is new to both alike (after a failing
    call that held the probe too)."""
    assert dedupe.rows == model.rows and dedupe.distinct == len(model.seen)
    with pytest.raises(fx.FenError):
        dedupe.add([*probe, BAD])
    assert dedupe.add(probe).tolist() == model.add(probe)


def test_the_rows_before_a_bad_row_are_not_added():
    a, b = START, "8/8/8/8/8/8/8/K6k w - - 0 1"
    dedupe = fx.Deduper()
    with pytest.raises(fx.FenError) as info:
        dedupe.add([a, b, "bad"])
    assert info.value.index == 2
    assert (dedupe.rows, dedupe.distinct) == (0, 0)
    assert dedupe.add([a, b]).tolist() == [True, True]
    assert (dedupe.rows, dedupe.distinct) == (2, 2)
    with pytest.raises(fx.FenError) as info:
        dedupe.add([b, START.replace(" w ", " b "), "bad"])
    assert info.value.index == 4  # numbered from the first row ever added
    assert dedupe.add([START.replace(" w ", " b ")]).tolist() == [True]


@pytest.mark.parametrize("chunk", [7, 64, keys.CHUNK_ROWS])
def test_every_kind_and_chunking_adds_all_or_nothing(monkeypatch, chunk):
    monkeypatch.setattr(keys, "CHUNK_ROWS", chunk)
    fens = list(corpus(400, seed=11))
    rng = random.Random(chunk)
    for kind, _ in kinds(fens[:2]):
        dedupe, model = fx.Deduper(), Model()
        for step in range(6):
            part = fens[step * 60 : step * 60 + 60]
            fails = step % 2 == 1
            if fails:  # a bad row late in the call, after whole chunks of good ones
                part.insert(rng.randrange(len(part) - 10, len(part)), BAD)
            given = dict(kinds(part))[kind]
            if fails:
                with pytest.raises(fx.FenError):
                    dedupe.add(given)
            else:
                assert dedupe.add(given).tolist() == model.add(part), (kind, step)
            check(dedupe, model, fens[step * 60 : step * 60 + 5] + fens[-3:])


@pytest.mark.parametrize("mask", [0, 1, 0xFF, 0xFFFF])
def test_taking_positions_out_keeps_the_table_whole(mask):
    """Keys cut to a few bits make long runs of slots: the positions a
    failed call takes out must leave every other one findable, through
    several growths of the table and many failed calls."""
    fens = list(corpus(3_000, seed=12))
    rng = random.Random(mask)
    dedupe, model = with_key_mask(mask), Model()
    at = 0
    while at < len(fens):
        size = rng.choice([1, 30, 200, 700])
        part = fens[at : at + size]
        at += size
        if rng.random() < 0.4:
            with pytest.raises(fx.FenError):
                dedupe.add(part + [BAD] + part[:3])
            continue
        assert dedupe.add(part).tolist() == model.add(part)
    assert dedupe.rows == model.rows and dedupe.distinct == len(model.seen)
    again = list(fens)
    rng.shuffle(again)
    assert dedupe.add(again).tolist() == model.add(again)


def test_a_corrupt_record_adds_no_record():
    recs = fx.encode([START, "8/8/8/8/8/8/8/K6k w - - 0 1"] * 3)
    recs["fullmove"][5] = 0
    dedupe = fx.Deduper()
    with pytest.raises(fx.FenError) as info:
        dedupe.add(recs)
    assert (info.value.index, info.value.field) == (5, "record.fullmove")
    assert (dedupe.rows, dedupe.distinct) == (0, 0)
    assert dedupe.add(recs, errors="coerce").tolist() == [True, True, False, False, False, False]


def test_rows_and_distinct_agree_after_a_failure_deep_in_a_large_call(monkeypatch):
    """The issue's case, scaled: a bad row at 80 % of a list of several
    chunks; rows and distinct both say nothing was added."""
    monkeypatch.setattr(keys, "CHUNK_ROWS", 1 << 12)
    fens = list(corpus(2_000, seed=13)) * 8
    fens[int(len(fens) * 0.8)] = BAD
    dedupe = fx.Deduper()
    dedupe.add(fens[:100])
    distinct = dedupe.distinct
    with pytest.raises(fx.FenError):
        dedupe.add(fens, threads=2)
    assert (dedupe.rows, dedupe.distinct) == (100, distinct)


@pytest.mark.slow
def test_the_issue_case_at_full_size():
    """1.5 million rows, the bad one at 1,200,000."""
    fens = list(corpus(20_000, seed=14)) * 75
    fens[1_200_000] = BAD
    dedupe = fx.Deduper()
    with pytest.raises(fx.FenError) as info:
        dedupe.add(fens, threads=2)
    assert info.value.index == 1_200_000
    assert (dedupe.rows, dedupe.distinct) == (0, 0)


@pytest.mark.skipif(os.name != "posix", reason="RLIMIT_AS")
def test_running_out_of_memory_adds_nothing(tmp_path):
    """A process whose address space is capped runs out while the set
    grows: the call raises MemoryError and takes back what it added, and
    the set still works."""
    script = textwrap.dedent(
        """
        import resource, sys
        import numpy as np
        import fastxfen as fx

        start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        dedupe = fx.Deduper(counters=True)
        recs = np.repeat(fx.encode([start]), 4_000_000)
        recs["halfmove"] = np.arange(len(recs)) % 100
        recs["fullmove"] = np.arange(len(recs)) // 100 + 1
        first = recs[:1000]
        assert dedupe.add(first).all()
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        with open("/proc/self/statm") as f:
            used = int(f.read().split()[0]) * resource.getpagesize()
        resource.setrlimit(resource.RLIMIT_AS, (used + (96 << 20), hard))
        try:
            dedupe.add(recs)
        except MemoryError as exc:
            print("out of memory:", exc, file=sys.stderr)
        else:
            sys.exit("the set never ran out of memory")
        assert (dedupe.rows, dedupe.distinct) == (1000, 1000), (dedupe.rows, dedupe.distinct)
        assert not dedupe.add(first).any()
        assert dedupe.add(recs[1000:1100]).all()
        print("ok")
        """
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "ok\n", done.stderr
    assert "out of memory after" in done.stderr
