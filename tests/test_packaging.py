"""What the distributions carry: the LICENSE file in the sdist and in the
installed package's metadata; what the project declares: its dependencies,
the test requirements and the Pythons it claims."""

import importlib.metadata
import re
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _pyproject() -> dict:
    if not (ROOT / "pyproject.toml").exists():
        pytest.skip("needs the source tree")
    try:
        import tomllib
    except ImportError:  # Python before 3.11: pytest's own TOML reader
        import tomli as tomllib
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_base_dependencies():
    """tqdm draws the command line's progress bar; zstandard reads and
    writes .zst files, the format lichess publishes its exports in."""
    names = [re.split(r"[<>=!~ \[;]", dep)[0] for dep in _pyproject()["project"]["dependencies"]]
    assert "tqdm" in names and "zstandard" in names
    assert importlib.metadata.version("zstandard")


def test_requirements_file_is_the_test_extra():
    """requirements/test.txt installs the test extra without building fastxfen."""
    extra = _pyproject()["project"]["optional-dependencies"]["test"]
    lines = (ROOT / "requirements" / "test.txt").read_text().splitlines()
    listed = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    assert listed == extra


def test_claimed_pythons_agree():
    """requires-python's lower bound, the version classifiers and the
    CPython versions cibuildwheel builds name the same run of versions."""
    toml = _pyproject()
    low = re.fullmatch(r">=3\.(\d+)", toml["project"]["requires-python"])
    assert low, toml["project"]["requires-python"]
    prefix = "Programming Language :: Python :: 3."
    classifiers = toml["project"]["classifiers"]
    minors = [int(c[len(prefix) :]) for c in classifiers if c.startswith(prefix)]
    assert minors == list(range(int(low[1]), int(low[1]) + len(minors))), minors
    built = toml["tool"]["cibuildwheel"]["build"].split()
    assert built == [f"cp3{m}-*" for m in minors]


def test_installed_metadata_names_the_license_file():
    try:
        meta = importlib.metadata.metadata("fastxfen")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("fastxfen is not installed with metadata")
    assert meta["License-Expression"] == "MIT"
    assert "LICENSE" in (meta.get_all("License-File") or [])
    files = importlib.metadata.distribution("fastxfen").files or []
    licenses = [f for f in files if f.name == "LICENSE"]
    assert licenses, "no LICENSE among the installed files"
    assert "Copyright (c) 2026 the fastxfen developers" in licenses[0].read_text()


@pytest.mark.slow
def test_sdist_ships_the_license(tmp_path):
    if not (ROOT / "pyproject.toml").exists() or not (ROOT / "src" / "fastxfen").is_dir():
        pytest.skip("needs the source tree")
    pytest.importorskip("Cython")
    build = "import sys; from setuptools import build_meta as b; print(b.build_sdist(sys.argv[1]))"
    out = subprocess.run(
        [sys.executable, "-c", build, str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if out.returncode and "license-files" in out.stderr:
        pytest.skip("setuptools too old for license-files (the build needs 77 or later)")
    assert out.returncode == 0, out.stderr[-2000:]
    name = out.stdout.strip().splitlines()[-1]
    with tarfile.open(tmp_path / name) as sdist:
        top = name[: -len(".tar.gz")]
        names = set(sdist.getnames())
        assert f"{top}/LICENSE" in names
        text = sdist.extractfile(f"{top}/LICENSE").read().decode()
        pkg_info = sdist.extractfile(f"{top}/PKG-INFO").read().decode()
    assert text.startswith("MIT License")
    assert "License-File: LICENSE" in pkg_info
