"""The libFuzzer target of the training readers (tests/fuzz/training_fuzz.c),
built with a replay main and run over its committed seeds: each seed must
pass the target's properties (no crash, valid records, blocks that read
back the same after writing)."""

import os
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest
from support.c_harness import KERNEL

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "src" / "fastxfen" / "core"
SEEDS = ROOT / "tests" / "fuzz" / "corpus" / "training"
TRAINING = [
    "attacks",
    "movegen",
    "notation",
    "status",
    "sfpack",
    "ply_bmi2",
    "emit",
    "entries",
    "binpack",
    "binpack_write",
    "sfbin",
    "plain",
]


def test_the_target_passes_on_its_seeds(tmp_path):
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    if not shutil.which(cc[0]) or not CORE.is_dir():
        pytest.skip("needs a C compiler and the source tree")
    exe = tmp_path / "replay"
    core = [*KERNEL, *TRAINING]
    sources = [ROOT / "tests" / "fuzz" / "training_fuzz.c", *(CORE / f"{c}.c" for c in core)]
    subprocess.run(
        [
            *cc,
            "-O0",
            "-std=c11",
            "-DTRAINING_REPLAY",
            f"-I{CORE}",
            *map(str, sources),
            "-o",
            str(exe),
        ],
        check=True,
    )
    seeds = sorted(SEEDS.iterdir())
    assert len(seeds) >= 30
    out = subprocess.run([str(exe), *map(str, seeds)], check=True, capture_output=True, text=True)
    assert out.stdout.strip() == f"{len(seeds)} inputs"
