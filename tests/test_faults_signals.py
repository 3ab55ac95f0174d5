"""SIGINT and SIGTERM at random moments into the library's threaded entry
points: a process (support/interrupted.py) calls them over and over with
threads=2 while this one sends it signals.  Every call either completes
with the result it gives undisturbed or raises the signal's exception
(KeyboardInterrupt; Terminated for SIGTERM) once every thread it started
has stopped; the process never crashes, and a Deduper interrupted in an
add holds what it held before.  (The command line's runs under signals
are in test_faults_runs.py.)"""

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest
from support import interrupted

POSIX = pytest.mark.skipif(os.name != "posix", reason="signals of POSIX")
SCRIPT = interrupted.__file__
#: Every entry point interrupted.calls knows.
NAMES = (
    "normalize_buffer",
    "normalize_list",
    "normalize_unicode",
    "normalize_arrow",
    "encode",
    "decode",
    "validate",
    "zobrist",
    "unique",
    "deduper",
    "to_planes",
    "to_bitboards",
    "pack",
    "pgn",
    "training_read",
)


def interrupt(names, seconds: float, rows: int, seed: int) -> dict:
    """Run support/interrupted.py on ``names`` for ``seconds``, sending it
    SIGINT or SIGTERM at random moments (a call's time apart on average);
    its closing figures, and ``sent``, the signals sent."""
    pick = random.Random(seed)
    child = subprocess.Popen(
        [sys.executable, SCRIPT, ",".join(names), str(seconds), str(rows)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    ready = child.stdout.readline().split()
    assert ready[:1] == ["ready"], child.communicate()
    mean = float(ready[1])
    end = time.monotonic() + seconds - 0.3
    sent = 0
    while time.monotonic() < end and child.poll() is None:
        time.sleep(pick.uniform(0.001, 2 * mean))
        if time.monotonic() >= end:  # the child may be past its loop
            break
        child.send_signal(pick.choice([signal.SIGINT, signal.SIGTERM]))
        sent += 1
    out, err = child.communicate()
    assert child.returncode == 0, f"status {child.returncode}: {err[-3000:]}"
    figures = json.loads(out)
    assert figures["bad"] == 0, figures
    return {**figures, "sent": sent}


@POSIX
def test_every_entry_point_under_signals():
    """One process, every entry point in turn, about a hundred signals."""
    pytest.importorskip("pyarrow")
    figures = interrupt(NAMES, seconds=3, rows=60_000, seed=1)
    assert figures["stopped"] > 10 and figures["done"] > 10, figures


@POSIX
@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_each_entry_point_under_signals(name):
    """Several processes per entry point, a million rows per call."""
    pytest.importorskip("pyarrow")
    total = {"done": 0, "stopped": 0, "sent": 0}
    for seed in range(3):
        figures = interrupt([name], seconds=4, rows=1_000_000, seed=seed)
        for key in total:
            total[key] += figures[key]
    print(name, total)
    assert total["stopped"] > 0 and total["done"] > 0, total
