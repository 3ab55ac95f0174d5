"""The line finder (core/lines.c) and the byte-set helpers of core/bits.h
on their own (tests/c/lines.c), with SIMD and without: every length up to
300 bytes, every start, random newline densities.  Skipped without a C
compiler or a source tree."""

import subprocess

import pytest
from support.c_harness import build


@pytest.mark.parametrize("variant", ["simd", "plain"])
def test_lines_and_byte_sets(tmp_path, variant):
    flags = ["-O1", "-std=c11"] + (["-DFASTXFEN_NO_SIMD"] if variant == "plain" else [])
    exe = build("lines", ("lines",), tmp_path / "lines", flags=flags)
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    words = run.stdout.split()
    assert words[0] == "checks" and int(words[1]) > 10000  # every check ran
    assert words[2:] == ["failed", "0"]
