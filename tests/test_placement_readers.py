"""The placement readers (and writers) of the C core agree
(tests/c/placement_readers.c).

The fast readers decide most rows: the AVX-512 one where the CPU has it, then
SSE2 on x86 or scalar elsewhere.  The exact reader names errors.  The C
harness builds the vector and the scalar variant from the source tree and
checks the fast readers against the exact reader on random mutated boards.
Skipped without a C compiler or a source tree."""

import os
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "src" / "fastxfen" / "core"
HARNESS = ROOT / "tests" / "c" / "placement_readers.c"


def _compiler():
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    return cc if shutil.which(cc[0]) else None


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["vector", "scalar"])
def test_fast_reader_agrees_with_exact_reader(tmp_path, variant):
    cc = _compiler()
    if cc is None or not CORE.is_dir():
        pytest.skip("needs a C compiler and the source tree")
    exe = tmp_path / "readers"
    names = ("avx512", "rules", "write", "tables", "record")
    sources = [HARNESS] + [CORE / f"{name}.c" for name in names]
    flags = ["-O2", "-std=c11", f"-I{CORE}"]
    if variant == "scalar":
        flags.append("-DFASTXFEN_NO_SIMD")
    subprocess.run([*cc, *flags, *map(str, sources), "-o", str(exe)], check=True)
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
