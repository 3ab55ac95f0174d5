"""The public API type-checks under `mypy --strict` (stubs and py.typed ship)."""

import os
import subprocess
import sys

import pytest

pytest.importorskip("mypy")


@pytest.mark.slow
def test_api_usage_passes_mypy_strict():
    here = os.path.dirname(__file__)
    target = os.path.join(here, "typing", "api_usage.py")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "--cache-dir",
            os.devnull,
            target,
        ],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
