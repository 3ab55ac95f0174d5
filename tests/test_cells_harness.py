"""Rows into fixed-width cells (core/cells.c) on their own (tests/c/cells.c),
with SIMD and without, and with SIMD under ASan and UBSan (a read past the
text or a write past the cells is an error there): every cell width up to 90
characters, S and UCS-4, guard bytes around the cells.  Skipped without a C
compiler or a source tree; the sanitized build, without the sanitizers'
libraries."""

import subprocess

import pytest
from support.c_harness import build

FLAGS = {
    "simd": ["-O1"],
    "plain": ["-O1", "-DFASTXFEN_NO_SIMD"],
    "sanitized": ["-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all"],
}


@pytest.mark.parametrize("variant", list(FLAGS))
def test_rows_to_cells(tmp_path, variant):
    try:
        exe = build("cells", ("cells",), tmp_path / "cells", flags=["-std=c11", *FLAGS[variant]])
    except subprocess.CalledProcessError:
        if variant != "sanitized":
            raise
        pytest.skip("the compiler cannot build with ASan and UBSan here")
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    words = run.stdout.split()
    assert words[0] == "checks" and int(words[1]) == 20000  # every check ran
    assert words[2:] == ["failed", "0"]
