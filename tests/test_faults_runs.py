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


def _ipc_stream(path, lines, batches: int = 3, legacy: bool = False) -> list:
    """An Arrow IPC stream of ``lines`` in ``batches`` batches at ``path``;
    the stream's size after each batch."""
    import pyarrow as pa
    import pyarrow.ipc as ipc

    table = pa.table({"id": list(range(len(lines))), "fen": lines})
    sink = pa.BufferOutputStream()
    options = ipc.IpcWriteOptions(use_legacy_format=legacy)
    ends = []
    with ipc.new_stream(sink, table.schema, options=options) as writer:
        for batch in table.to_batches(max_chunksize=len(lines) // batches):
            writer.write_batch(batch)
            ends.append(sink.tell())
    path.write_bytes(sink.getvalue().to_pybytes())
    return ends


@pytest.mark.parametrize("codec", ["", ".gz", ".zst", "stdin"])
def test_an_ipc_stream_without_its_end_marker_is_truncated(tmp_path, codec):
    """A producer killed between two batches leaves a stream that pyarrow
    reads as complete; the missing end-of-stream marker says it is not:
    exit 2, nothing published."""
    lines = runs.rows(6_000)
    whole = tmp_path / "whole.arrow"
    ends = _ipc_stream(whole, lines)
    data = whole.read_bytes()
    out = tmp_path / "o.parquet"
    for cut, status in ((len(data), 1), (ends[0], 2), (ends[1], 2)):
        src = tmp_path / f"in.arrow{'' if codec == 'stdin' else codec}"
        src.write_bytes(runs.compress(codec, data[:cut]))
        argv = ["normalize", "-" if codec == "stdin" else src, "-o", out, "--errors", "coerce"]
        argv += ["--input-format", "arrow", "-q"]
        done = subprocess.run(
            [sys.executable, "-m", "fastxfen", *map(str, argv)],
            input=data[:cut] if codec == "stdin" else None,
            capture_output=True,
        )
        assert done.returncode == status, done.stderr
        if status == 2:
            rows = (ends.index(cut) + 1) * 2_000
            assert f"is truncated: its Arrow IPC stream stops after {rows:,} rows".encode() in (
                done.stderr
            )
            assert not out.exists() and temporaries(tmp_path) == []
        else:
            assert out.exists()
            out.unlink()


def test_an_ipc_file_is_read_from_a_compressed_file_and_its_footer_checked(tmp_path):
    """An IPC file compressed (what `-o x.arrow.zst` writes) is read as the
    stream it holds; cut after its stream but inside its footer, it is
    truncated.  A whole stream of the legacy format (Arrow before 0.15)
    reads as complete."""
    lines = runs.rows(4_000)
    plain = runs.table_bytes("arrow", lines)
    out = tmp_path / "o.csv"
    for cut, status in ((len(plain), 1), (len(plain) - 20, 2)):
        src = tmp_path / "in.arrow.zst"
        src.write_bytes(runs.compress(".zst", plain[:cut]))
        argv = ["normalize", src, "-o", out, "--errors", "coerce", "-q"]
        done = subprocess.run(
            [sys.executable, "-m", "fastxfen", *map(str, argv)], capture_output=True
        )
        assert done.returncode == status, done.stderr
        if status == 2:
            assert b"is truncated: its Arrow IPC file stops in its footer" in done.stderr
            assert not out.exists() and temporaries(tmp_path) == []
        else:
            out.unlink()
    legacy = tmp_path / "legacy.arrow"
    _ipc_stream(legacy, lines, legacy=True)
    argv = ["normalize", legacy, "-o", out, "--errors", "coerce", "-q"]
    done = subprocess.run([sys.executable, "-m", "fastxfen", *map(str, argv)], capture_output=True)
    assert done.returncode == 1, done.stderr
