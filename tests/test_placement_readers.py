"""The placement readers (and writers) of the C core agree
(tests/c/placement_readers.c), and the reader is chosen as documented
(tests/c/reader_choice.c).

Every reader built in that the CPU runs is checked against the exact reader
on random mutated boards of both widths: AVX-512, AVX2, SSE2 and scalar on
x86-64 (NEON and scalar on AArch64), and the scalar reader alone in a
FASTXFEN_NO_SIMD build.  The exact reader names errors.  Skipped without a C
compiler or a source tree."""

import subprocess

import pytest
from support.c_harness import READERS, build


def per_reader(stdout):
    """{reader: {count: value}} from the harness's lines."""
    lines = [line.split() for line in stdout.splitlines()]
    return {
        words[0]: dict(zip(words[1::2], map(int, words[2::2])))
        for words in lines
        if words and words[0] != "rows"
    }


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["vector", "scalar"])
def test_fast_readers_agree_with_exact_reader(tmp_path, variant):
    flags = ["-O2", "-std=c11"]
    if variant == "scalar":
        flags.append("-DFASTXFEN_NO_SIMD")
    names = (*READERS, "tail", "rules", "write", "tables", "record")
    exe = build("placement_readers", names, tmp_path / "readers", flags=flags)
    run = subprocess.run([str(exe), "300000", "20261122"], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.split()[-4:] == ["rows", "300000", "mismatches", "0"]
    readers = per_reader(run.stdout)
    assert readers["scalar"]["runs"] == 1  # the scalar reader runs everywhere
    for name, counts in readers.items():
        assert counts["mismatches"] == 0, name
        if not counts["runs"]:
            assert counts["accepted"] == counts["written"] == 0, name
        elif name in ("scalar", "sse2"):  # readers of both widths read the valid rows
            assert counts["accepted"] > 100000, name
        else:  # 8-wide readers read their share, and their writers wrote every board
            assert counts["accepted"] > 40000, name
            assert counts["written"] == 300000, name
    if variant == "scalar":
        assert [name for name, c in readers.items() if c["runs"]] == ["scalar"]


@pytest.mark.parametrize("variant", ["vector", "scalar"])
def test_reader_choice(tmp_path, variant):
    flags = ["-O1", "-std=c11"] + (["-DFASTXFEN_NO_SIMD"] if variant == "scalar" else [])
    exe = build("reader_choice", (*READERS, "tables"), tmp_path / "choice", flags=flags)
    run = subprocess.run([str(exe)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
    words = run.stdout.split()
    assert words[0] == "checks" and int(words[1]) >= 9  # every check ran
    assert words[2:] == ["failed", "0"]
