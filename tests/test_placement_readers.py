"""The placement readers (and writers) of the C core agree
(tests/c/placement_readers.c).

The fast readers decide most rows: the AVX-512 one where the CPU has it, else
the AVX2 one, then SSE2 on x86 or scalar elsewhere.  The exact reader names errors.  The C
harness builds the vector and the scalar variant from the source tree and
checks the fast readers against the exact reader on random mutated boards.
Skipped without a C compiler or a source tree."""

import subprocess

import pytest
from support.c_harness import build


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["vector", "scalar"])
def test_fast_reader_agrees_with_exact_reader(tmp_path, variant):
    flags = ["-O2", "-std=c11"]
    if variant == "scalar":
        flags.append("-DFASTXFEN_NO_SIMD")
    names = ("avx512", "avx2", "rules", "write", "tables", "record")
    exe = build("placement_readers", names, tmp_path / "readers", flags=flags)
    run = subprocess.run([str(exe), "300000", "20261122"], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    counts = dict(zip(run.stdout.split()[::2], map(int, run.stdout.split()[1::2])))
    assert counts["mismatches"] == 0
    assert counts["accepted"] > 100000  # the valid rows really were read by the fast reader
    if counts["avx512"]:  # this CPU runs the AVX-512 reader: it read its share too
        assert counts["accepted512"] > 40000
        assert counts["written512"] == 300000  # and its writer wrote every board
    else:
        assert counts["accepted512"] == counts["written512"] == 0
    if counts["avx2"]:  # this CPU runs the AVX2 reader: it is held to the same rules
        assert counts["accepted_avx2"] > 40000
        assert counts["written_avx2"] == 300000
    else:
        assert counts["accepted_avx2"] == counts["written_avx2"] == 0
