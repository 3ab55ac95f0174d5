"""The C row loop (core/batch.c) on its own (tests/c/batch.c): text, row
ends, records and failures of a few rows, and its stops for room and under
errors="raise"; an export kernel keeps the same conventions.  Skipped
without a C compiler or a source tree."""

import subprocess

from support.c_harness import EXPORT, KERNEL, build


def test_row_loop_harness(tmp_path):
    names = ("batch", *KERNEL, *EXPORT)
    exe = build("batch", names, tmp_path / "batch", flags=["-O1", "-std=c11"], libs=["-lm"])
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    words = run.stdout.split()
    assert words[0] == "checks" and int(words[1]) >= 50  # every check ran
    assert words[2:] == ["failed", "0"]
