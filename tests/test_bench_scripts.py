"""The benchmarks in bench/ cannot report a rate for a run that failed.

bench/builds.py decides what counts as a failed child (a fastxfen command
exits 1 when rows were rejected, but Python exits 1 too when the command
cannot be imported); pgn_bench.py, run against a fastxfen that cannot be
imported, must stop with a non-zero status and print no rate.  Not timed."""

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


def load_builds():
    if not (BENCH / "builds.py").exists():
        pytest.skip("needs the source tree's bench/")
    spec = importlib.util.spec_from_file_location("bench_builds", BENCH / "builds.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def done(code, stderr):
    return subprocess.CompletedProcess(["fastxfen"], code, "", stderr)


def test_check_cli_tells_rejected_rows_from_failures():
    builds = load_builds()
    assert builds.check_cli(done(0, ""), "ok").returncode == 0
    summary = "fastxfen pgn: 2 games read, 1 written, 1 rejected (dropped)\n"
    assert builds.check_cli(done(1, summary), "rows rejected").returncode == 1
    traceback = "Traceback (most recent call last):\nImportError: cannot import name '_bulk'\n"
    for code, err in ((1, traceback), (2, "fastxfen: error: no such file\n"), (-9, "")):
        with pytest.raises(SystemExit, match="benchmark failed"):
            builds.check_cli(done(code, err), "failed")


def test_pgn_bench_fails_without_a_rate(tmp_path):
    """Against a fastxfen that cannot be imported (a checkout without a
    build): the bench once printed a rate although every child had died."""
    load_builds()
    for name in ("pgn_bench.py", "builds.py"):
        (tmp_path / "bench").mkdir(exist_ok=True)
        shutil.copy(BENCH / name, tmp_path / "bench" / name)
    broken = tmp_path / "src" / "fastxfen"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("raise ImportError('no compiled extension here')\n")
    games = tmp_path / "games.pgn"
    games.write_text('[Event "x"]\n[FEN "8/8/8/8/8/8/8/K6k w - - 0 1"]\n\n*\n')
    run = subprocess.run(
        [
            sys.executable,
            str(tmp_path / "bench" / "pgn_bench.py"),
            "--input",
            str(games),
            "--repeat",
            "1",
            "--no-python-chess",
        ],  # fmt: skip
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode != 0
    assert "benchmark failed" in run.stderr
    assert "MB/s" not in run.stdout
