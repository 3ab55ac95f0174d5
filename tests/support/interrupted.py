"""A process that calls one threaded entry point of the library over and
over while another process sends it SIGINT and SIGTERM (tests/test_faults_
signals.py).  SIGTERM raises ``Terminated`` here, as the command line
makes it do.  Each call either completes, and its result must equal the
one computed before the signals began, or stops with the signal's
exception; the process must never crash.

``python interrupted.py NAMES SECONDS ROWS``: prints ``ready`` and the
mean time of a call once the reference results are known, calls the entry
points NAMES (comma-separated, in turn) for SECONDS, then prints one line
of JSON: calls completed, calls interrupted, signals that came between
calls (``missed``), results that differed (``bad``)."""

from __future__ import annotations

import io
import json
import pathlib
import signal
import sys
import time

import numpy as np

import fastxfen as fx
from fastxfen import export, training
from fastxfen.pgn import normalize_pgn

GOOD = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 5 39",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
]


class Terminated(BaseException):
    """SIGTERM, raised like KeyboardInterrupt."""


class _Armed:
    """Signals raise their exception only while a call runs (``on``): one
    that lands between two calls (on the loop's own bytecode) is counted."""

    on = False
    missed = 0


def _handler(signum, frame):
    if not _Armed.on:
        _Armed.missed += 1
        return
    _Armed.on = False
    raise KeyboardInterrupt() if signum == signal.SIGINT else Terminated()


def rows(n: int) -> list:
    """n rows, all good but every 97th, and many repeated (for unique)."""
    out = []
    for i in range(n):
        if i % 97 == 96:
            out.append("not a position")
        else:
            base = GOOD[i % len(GOOD)]
            out.append(base[: base.rindex(" ")] + f" {i % 50 + 1}")
    return out


def _pgn(n: int) -> bytes:
    games = []
    for i in range(n // 4):
        fen = GOOD[i % len(GOOD)]
        games.append(f'[Event "{i}"]\n[FEN "{fen}"]\n[SetUp "1"]\n\n1. a3 *\n')
    return "\n".join(games).encode()


def _binpack(n: int) -> bytes:
    """A .binpack of at least n entries: the games of the training model's
    corpus over and over, a block each."""
    sys.path.insert(0, str(pathlib.Path(__file__).parents[1]))
    from models import training as model

    games = model.corpus(1, 40)
    return model.write_binpack(games) * -(-n // len(games))


def calls(n: int) -> dict:
    """name: (a function that makes one call, a function that compares a
    result with the reference)."""
    listed = rows(n)
    text = "\n".join(listed).encode()
    good = [row for row in listed if row != "not a position"]
    corner = [row for row in good if " HFhf " not in row]  # what stockfish's format holds
    records = fx.encode(good, threads=2)
    wide = np.array(good, dtype="U")
    pgn = _pgn(n)
    same = np.array_equal

    def lists_equal(a, b):
        return a == b

    distinct = len(set(fx.normalize(good, fields=4)))

    def deduper():
        seen = fx.Deduper()
        masks = []
        for _ in range(3):
            try:
                masks.append(seen.add(text, errors="coerce", threads=2))
            except BaseException:
                # all or nothing: the set holds the calls before (or, for a
                # signal that came as the call returned, this one too)
                rows = seen.rows // len(listed)
                assert seen.rows % len(listed) == 0 and rows - len(masks) in (0, 1), rows
                assert seen.distinct == (distinct if rows else 0), seen.distinct
                raise
        return (seen.rows, seen.distinct, *masks)

    def tuples_equal(a, b):
        return all(np.array_equal(x, y) for x, y in zip(a, b)) and len(a) == len(b)

    table = {
        "normalize_buffer": (lambda: fx.normalize(text, errors="coerce", threads=2), same),
        "normalize_list": (lambda: fx.normalize(listed, errors="coerce", threads=2), lists_equal),
        "normalize_unicode": (lambda: fx.normalize(wide, threads=2), same),
        "encode": (lambda: fx.encode(text, errors="coerce", threads=2), same),
        "decode": (lambda: fx.decode(records, output="bytes", threads=2), same),
        "validate": (lambda: fx.validate(text, threads=2), lists_equal),
        "zobrist": (lambda: fx.zobrist(text, errors="coerce", threads=2), same),
        "unique": (lambda: fx.unique(text, errors="coerce", threads=2), same),
        "deduper": (deduper, tuples_equal),
        "to_planes": (lambda: export.to_planes(text, errors="coerce", threads=2), same),
        "to_bitboards": (lambda: export.to_bitboards(text, errors="coerce", threads=2), same),
        "pack": (lambda: export.pack(corner, format="stockfish", threads=2), same),
        "pgn": (lambda: normalize_pgn(pgn, errors="coerce", threads=2), lists_equal),
    }
    binpack = _binpack(n)
    table["training_read"] = (
        lambda: training.read(io.BytesIO(binpack), output="numpy", threads=2),
        lambda a, b: a.keys() == b.keys() and all(same(a[k], b[k]) for k in a),
    )
    try:
        import pyarrow as pa
    except ImportError:
        return table
    column = pa.array(listed)
    table["normalize_arrow"] = (
        lambda: fx.normalize(column, errors="coerce", threads=2),
        lambda a, b: a.equals(b),
    )
    return table


def main() -> None:
    names, seconds, n = sys.argv[1].split(","), float(sys.argv[2]), int(sys.argv[3])
    table = calls(n)
    work = []  # (call, equal, reference result)
    started = time.monotonic()
    for name in names:
        call, equal = table[name]
        work.append((call, equal, call()))
    signal.signal(signal.SIGINT, _handler)
    signal.signal(signal.SIGTERM, _handler)
    done = stopped = bad = 0
    print("ready", (time.monotonic() - started) / len(work), flush=True)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        call, equal, want = work[(done + stopped) % len(work)]
        try:
            _Armed.on = True
            got = call()
            _Armed.on = False
            done += 1
            bad += not equal(got, want)
        except (KeyboardInterrupt, Terminated):
            _Armed.on = False
            stopped += 1
        got = None
    # past the loop a late signal would kill the process: it is ignored
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    print(json.dumps({"done": done, "stopped": stopped, "missed": _Armed.missed, "bad": bad}))


if __name__ == "__main__":
    main()
