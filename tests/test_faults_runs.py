"""The command line stopped early, in every way it can, on every input
format and codec (text, CSV, JSON Lines, Parquet, Arrow IPC file and
stream; plain, .gz, .zst): a missing column, a bad first row under
--errors raise, an option found wrong once the input is open, a full
disk, SIGINT and SIGTERM with --threads 2.  Every run must end with the
documented status (2, 130, 143), never a crash; its readers (pyarrow's
threads reading ahead, the decompressor, the prefetch thread) are
stopped before the input is closed; nothing is published and no
temporary file is left.

The early stops run many command lines in one process (support/runs.py):
repeated stops are what crashed the process when a decompressor was closed
under pyarrow's reader thread.  Signals need a process per run."""

import os
import subprocess
import sys

import pytest
from support import runs

pytest.importorskip("pyarrow")
pytest.importorskip("zstandard")


def temporaries(folder) -> list:
    return sorted(name for name in os.listdir(folder) if ".fastxfen-" in name)


def test_a_missing_column_in_a_compressed_csv_never_crashes(tmp_path):
    """The issue's case: a lichess-like puzzle CSV, zstd-compressed, read
    with a column it does not have; a process of its own each time."""
    lines = runs.rows(60_000)
    path = tmp_path / "lichess_db_puzzle.csv.zst"
    path.write_bytes(runs.compress(".zst", runs.table_bytes("csv", lines)))
    for command in ("normalize", "validate", "dedupe"):
        for _ in range(2):
            argv = [command, path, "--column", "fen_col", "-o", tmp_path / "x.parquet"]
            done = subprocess.run(
                [sys.executable, "-m", "fastxfen", *map(str, argv)], capture_output=True
            )
            assert done.returncode == 2, done.stderr
            assert b"--column fen_col: the table has no column by that name" in done.stderr
            assert not (tmp_path / "x.parquet").exists() and temporaries(tmp_path) == []
