"""The C row loop (core/batch.c) on its own (tests/c/batch.c): text, row
ends, records and failures of a few rows, and its stops for room and under
errors="raise"; an export kernel keeps the same conventions.  Skipped
without a C compiler or a source tree."""

import os
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "src" / "fastxfen" / "core"
HARNESS = ROOT / "tests" / "c" / "batch.c"


def _compiler():
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    return cc if shutil.which(cc[0]) else None


def test_row_loop_harness(tmp_path):
    cc = _compiler()
    if cc is None or not CORE.is_dir():
        pytest.skip("needs a C compiler and the source tree")
    exe = tmp_path / "batch"
    names = ("batch", "parse", "avx512", "rules", "write", "tables", "record", "export")
    sources = [HARNESS] + [CORE / f"{name}.c" for name in names]
    flags = ["-O1", "-std=c11", f"-I{CORE}"]
    subprocess.run([*cc, *flags, *map(str, sources), "-lm", "-o", str(exe)], check=True)
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    words = run.stdout.split()
    assert words[0] == "checks" and int(words[1]) >= 50  # every check ran
    assert words[2:] == ["failed", "0"]
