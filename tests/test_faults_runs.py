"""The command line stopped early, in every way it can, on every input
format and codec (text, CSV, JSON Lines, Parquet, Arrow IPC file and
stream, the training formats .binpack, .bin and .plain; plain, .gz,
.zst): a missing column, a bad first row under
--errors raise, an option found wrong once the input is open, a full
disk, SIGINT and SIGTERM with --threads 2.  Every run must end with the
documented status (2, 130, 143), never a crash; its readers (pyarrow's
threads reading ahead, the decompressor, the prefetch thread) are
stopped before the input is closed; nothing is published and no
temporary file is left.

The early stops run many command lines in one process (support/runs.py):
repeated stops are what crashed the process when a decompressor was closed
under pyarrow's reader thread.  Signals need a process per run."""

import json
import os
import select
import subprocess
import sys

import pytest
from support import runs

pytest.importorskip("pyarrow")
pytest.importorskip("zstandard")


#: Seconds after which a run counts as hung (a hang at exit was one of the
#: faults found): the test fails instead of holding the suite.
HANG = 240


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
                [sys.executable, "-m", "fastxfen", *map(str, argv)],
                capture_output=True,
                timeout=HANG,
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


def _cli(argv, stdin: bytes = b"") -> tuple:
    """``cli.main(argv)`` in this process, ``stdin`` its standard input:
    its status and what it printed on stderr."""
    import contextlib
    import io

    from fastxfen import cli

    err = io.StringIO()
    fake = io.TextIOWrapper(io.BytesIO(stdin))
    with contextlib.redirect_stderr(err), pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", fake)
        status = cli.main([str(a) for a in argv])
    return status, err.getvalue()


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
        got, err = _cli(argv, data[:cut] if codec == "stdin" else b"")
        assert got == status, err
        if status == 2:
            rows = (ends.index(cut) + 1) * 2_000
            assert f"is truncated: its Arrow IPC stream stops after {rows:,} rows" in err
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
        got, err = _cli(["normalize", src, "-o", out, "--errors", "coerce", "-q"])
        assert got == status, err
        if status == 2:
            assert "is truncated: its Arrow IPC file stops in its footer" in err
            assert not out.exists() and temporaries(tmp_path) == []
        else:
            out.unlink()
    legacy = tmp_path / "legacy.arrow"
    _ipc_stream(legacy, lines, legacy=True)
    assert _cli(["normalize", legacy, "-o", out, "--errors", "coerce", "-q"])[0] == 1


# ------------------------------------------------------------ early stops

TABLES = ("csv", "jsonl", "parquet", "arrow", "arrows")


def _early_stops(folder, n: int, commands: int) -> list:
    """(argv, the message the run must end with) of every way a run stops
    early, on every input format and codec, each with --threads 2; the
    first ``commands`` commands of each kind of stop."""
    good = {**runs.inputs(folder, n), **runs.training_inputs(folder, n)}
    bad = {
        **runs.inputs(folder, n, bad_first=True, stem="bad"),
        **runs.training_inputs(folder, n, stem="bad", bad_first=True),
    }
    out = folder / "out"
    out.mkdir()
    cases = []
    for (fmt, codec), path in sorted(good.items()):
        table = fmt in TABLES or fmt in runs.TRAINING
        # the training formats' columns: fen, move, score, ply, result, ...
        taken = ("move", "score") if fmt in runs.TRAINING else ("note", "id")
        o = out / ("o.csv" if table else "o.fen")
        common = ["--threads", "2", "-q"]
        if table:
            missing = ("normalize", "validate", "dedupe", "encode")[:commands]
            for command in missing:
                target = out / ("o.npy" if command == "encode" else "o.parquet")
                argv = [command, path, "--column", "fen_col", "-o", target]
                cases.append((argv + common, "no column by that name"))
            argv = ["normalize", path, "--to-column", taken[0], "-o", o]
            cases.append((argv + common, f"--to-column {taken[0]}: the table has a column"))
            argv = ["validate", path, "--reasons-column", taken[1], "-o", o]
            cases.append((argv + common, f"--reasons-column {taken[1]}: the table has a column"))
        else:
            argv = ["normalize", path, "--column", "fen", "-o", o]
            cases.append((argv + common, "--column applies to a table input"))
        for command in ("normalize", "dedupe", "encode")[:commands]:
            target = out / "o.npy" if command == "encode" else o
            argv = [command, bad[fmt, codec], "--errors", "raise", "-o", target]
            reason = {"binpack": "piece index", "bin": "the two kings on one square"}
            cases.append((argv + common, reason.get(fmt, "unexpected character")))
    return cases


def _drive(folder, cases, fsize=None) -> list:
    """Run ``cases`` (argv lists) in one process of support/runs.py; their
    statuses and messages.  The process must not crash."""
    listed = folder / "cases.json"
    listed.write_text(json.dumps([[str(a) for a in argv] for argv in cases]))
    argv = [sys.executable, runs.__file__, str(listed)] + ([str(fsize)] if fsize else [])
    done = subprocess.run(argv, capture_output=True, text=True, timeout=HANG)
    assert done.returncode == 0, f"status {done.returncode}: {done.stderr[-3000:]}"
    return json.loads(done.stdout)


def _stop_early_everywhere(folder, n: int, commands: int, rounds: int) -> int:
    cases = _early_stops(folder, n, commands)
    for _ in range(rounds):
        for (argv, message), got in zip(cases, _drive(folder, [argv for argv, _ in cases])):
            assert got["status"] == 2 and message in got["err"], (argv, got)
    assert os.listdir(folder / "out") == [] and temporaries(folder) == []
    # a full disk (a file size limit) on every input
    full = []
    fulls = {**runs.inputs(folder, n, stem="full"), **runs.training_inputs(folder, n, "full")}
    for (fmt, _), path in sorted(fulls.items()):
        table = fmt in TABLES or fmt in runs.TRAINING
        target = folder / "out" / ("o.csv" if table else "o.fen")
        full.append(["normalize", path, "-o", target, "--errors", "coerce", "--threads", "2"])
    for argv, got in zip(full, _drive(folder, full, fsize=64 << 10)):
        assert got["status"] == 2 and "File too large" in got["err"], (argv, got)
    assert os.listdir(folder / "out") == [] and temporaries(folder) == []
    return len(cases) * rounds + len(full)


@pytest.mark.skipif(os.name != "posix", reason="rlimits of POSIX")
def test_every_early_stop_on_every_format_and_codec(tmp_path):
    """A missing column, an option found wrong once the table is open, a
    bad first row under --errors raise and a full disk, on every input
    format and codec, in one process: exit 2 each time, no crash, nothing
    published, no temporary file."""
    assert _stop_early_everywhere(tmp_path, 6_000, commands=1, rounds=1) > 60


@pytest.mark.skipif(os.name != "posix", reason="rlimits of POSIX")
@pytest.mark.slow
def test_every_early_stop_again_and_again(tmp_path):
    """As above with every command, larger inputs (pyarrow reads ahead
    more), three times over in one process."""
    assert _stop_early_everywhere(tmp_path, 60_000, commands=4, rounds=3) > 400


# ------------------------------------------------------------ signals


def _signal_everywhere(folder, n: int, per_input: int, seed: int, every: bool = True) -> dict:
    """SIGINT or SIGTERM at a random moment into runs with --threads 2 of
    normalize, dedupe and encode, ``per_input`` runs on every input format
    and codec (the training formats too): each ends finished (0 or 1, its
    outputs published) or stopped (130 or 143, nothing published), never
    crashed, no temporary file.  Without ``every``, one codec per format
    (in turns)."""
    import random
    import signal
    import time

    pick = random.Random(seed)
    out = folder / "out"
    out.mkdir()
    tally = {"finished": 0, "stopped": 0}
    inputs = {**runs.inputs(folder, n), **runs.training_inputs(folder, 2 * n)}
    kinds = (*runs.FORMATS, *runs.TRAINING)
    for (fmt, codec), path in sorted(inputs.items()):
        turn = runs.CODECS[kinds.index(fmt) % len(runs.CODECS)]
        if not every and codec != (turn if fmt != "parquet" else ""):
            continue
        for k in range(per_input):
            command = ("normalize", "dedupe", "encode")[k % 3]
            table = fmt in TABLES or fmt in runs.TRAINING
            o = out / ("o.npy" if command == "encode" else "o.parquet" if table else "o.fen.gz")
            rej = out / ("r.csv" if table else "r.fen")
            argv = [command, path, "-o", o, "--rejects", rej, "--errors", "coerce"]
            proc = subprocess.Popen(
                [sys.executable, "-m", "fastxfen", *map(str, argv), "--threads", "2", "-q"],
                stderr=subprocess.PIPE,
            )
            while not temporaries(out) and proc.poll() is None:
                time.sleep(0.002)  # until the outputs are open: the run is under way
            time.sleep(pick.uniform(0, 0.2))
            signum = pick.choice([signal.SIGINT, signal.SIGTERM])
            proc.send_signal(signum)
            _, err = proc.communicate(timeout=HANG)
            where = f"{argv[:2]} {signum!r}: status {proc.returncode}: {err.decode()[-2000:]}"
            # finished: 1 for the text and tables (they hold bad rows), 0
            # for the training files
            assert proc.returncode in (0, 1, 130, 143, -signum), where
            assert temporaries(out) == [], where
            # both files or neither: a signal after the renames stops
            # nothing more (130 or 143 with both published), and one that
            # kills the process (-signum: a shell shows 130 or 143) comes
            # once the run has cleaned up or published
            published = o.exists() and rej.exists()
            assert published or (not o.exists() and not rej.exists()), where
            if proc.returncode in (0, 1):
                assert published, where
                tally["finished"] += 1
            else:
                assert b"interrupted" in err or b"terminated" in err or published, where
                tally["stopped" if not published else "finished"] += 1
            for name in os.listdir(out):
                os.unlink(out / name)
    return tally


@pytest.mark.skipif(os.name != "posix", reason="signals of POSIX")
def test_signals_into_threaded_runs_of_every_format(tmp_path):
    """One signal into a run on each input format (the codecs in turns)."""
    tally = _signal_everywhere(tmp_path, 20_000, per_input=1, seed=1, every=False)
    assert tally["stopped"] > 0, tally


@pytest.mark.skipif(os.name != "posix", reason="signals of POSIX")
@pytest.mark.slow
@pytest.mark.parametrize("seed", [2])
def test_signals_into_threaded_runs_again_and_again(tmp_path, seed):
    """Three commands on every input format and codec, larger inputs."""
    tally = _signal_everywhere(tmp_path, 200_000, per_input=3, seed=seed)
    print(tally)
    assert tally["stopped"] > 10, tally


@pytest.mark.parametrize("fmt", ["parquet", "arrow"])
def test_bad_utf8_in_a_parquet_or_arrow_column_is_a_bad_row(tmp_path, fmt):
    """Parquet and Arrow do not check that a string column is UTF-8: such a
    row is a bad row like any other, its error naming row, column and byte
    (--errors raise: exit 2), and it goes to the rejects file (coerce)."""
    import pyarrow as pa
    import pyarrow.ipc as ipc
    import pyarrow.parquet as pq

    good = runs.GOOD[0].encode()
    raw = pa.array([good, b"8/8\xff\xfe bad", good], pa.binary())
    table = pa.table({"fen": pa.Array.from_buffers(pa.string(), 3, raw.buffers())})
    src = tmp_path / f"in.{fmt}"
    if fmt == "parquet":
        pq.write_table(table, src)
    else:
        with ipc.new_file(str(src), table.schema) as writer:
            writer.write_table(table)
    message = "row 2: column 3 (input): not UTF-8 text: byte 0xFF at byte 3"
    for command, out in (("normalize", "o.csv"), ("encode", "o.npy"), ("dedupe", "o.csv")):
        status, err = _cli([command, src, "-o", tmp_path / out, "-q"])
        assert status == 2 and message in err, err
        assert temporaries(tmp_path) == [] and not (tmp_path / out).exists()
    rejects = tmp_path / "r.parquet"
    argv = ["normalize", src, "-o", tmp_path / "o.csv", "--errors", "coerce", "--rejects", rejects]
    assert _cli(argv)[0] == 1
    got = pq.read_table(rejects, columns=["row", "reason"]).to_pylist()
    assert got == [{"row": 2, "reason": "not UTF-8 text: byte 0xFF at byte 3"}]
    status, err = _cli(["validate", src, "-o", tmp_path / "v.txt"])
    assert status == 1 and "not UTF-8" in (tmp_path / "v.txt").read_text()


@pytest.mark.skipif(os.name != "posix", reason="named pipes of POSIX")
@pytest.mark.parametrize("fmt", ["parquet", "arrow"])
@pytest.mark.parametrize("change", ["truncate", "rewrite"])
def test_a_parquet_or_arrow_input_that_changes_during_the_run_stops_it(tmp_path, fmt, change):
    """pyarrow reads these files itself; they are watched as text inputs
    are: the output, a named pipe, holds the run once its buffer is full;
    the input is then changed in place, and the run must stop naming it."""
    src = runs.write_input(tmp_path, fmt, "", runs.rows(200_000))
    size = src.stat().st_size
    out = tmp_path / "o.csv"
    os.mkfifo(out)
    argv = ["normalize", src, "-o", out, "--errors", "coerce", "--chunk-size", "64K", "-q"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "fastxfen", *map(str, argv)], stderr=subprocess.PIPE
    )
    # Opened without waiting for a writer: a run that fails before it
    # opens its output fails the test instead of holding it.
    with open(os.open(out, os.O_RDONLY | os.O_NONBLOCK), "rb") as pipe:
        while not select.select([pipe], [], [], 0.1)[0]:
            assert proc.poll() is None, proc.stderr.read().decode()
        os.set_blocking(pipe.fileno(), True)
        assert pipe.read(1)  # the run is under way
        if change == "truncate":
            os.truncate(src, size // 2)
        else:
            with open(src, "r+b") as f:  # the same size, other bytes
                f.seek(size // 2)
                f.write(b"\0" * (size // 4))
        pipe.read()
    status, err = proc.wait(timeout=HANG), proc.stderr.read().decode()
    assert status == 2, err
    assert f"{src} changed during the run" in err
    assert temporaries(tmp_path) == []


# ------------------------------------------------------------ the end of a run


class _OneBlock:
    """An input giving one bytearray, then its end."""

    name = "<block>"

    def __init__(self, block: bytearray) -> None:
        self.block = block

    def read(self, n: int = -1):
        block, self.block = self.block, b""
        return block


def test_a_stream_lent_to_pyarrow_gives_it_copies_not_views():
    """What pyarrow's threads keep of a lent stream is in Arrow's memory:
    a view of the Python bytes would be released on those threads, with
    the GIL, possibly after the interpreter ended."""
    from fastxfen.files import tables

    block = bytearray(b"fen\n" + b"8/8/8/8/8/8/8/K6k w - - 0 1\n" * 4000)
    kept = bytes(block)
    buffer = tables.ReadStream(_OneBlock(block)).lend().read_buffer(1 << 20)
    block.extend(b"more")  # refused (BufferError) while a view of it is exported
    block[:3] = b"xxx"
    assert buffer.to_pybytes() == kept


def test_the_end_waits_for_the_streams_lent_to_pyarrow():
    """``released`` is True once nothing holds a lent stream, and False
    after its timeout while something does."""
    from fastxfen.files import tables

    stream = tables.ReadStream(_OneBlock(bytearray(b"fen\n")))
    lent = stream.lend()
    assert not tables.released(timeout=0.01)
    del lent
    assert tables.released(timeout=1)


def test_pyarrow_closing_what_it_was_lent_leaves_the_stream_to_the_run():
    """pyarrow closes the file it reads from on a thread of its own when it
    lets go of it; the stream's own close (wait for reads, stop pyarrow's
    reader) would there wait for pyarrow itself: that close is the run's."""
    from fastxfen.files import tables

    stream = tables.ReadStream(_OneBlock(bytearray(b"fen\n")))
    stopped = []
    stream.read_by(stopped)  # what ReadStream.close would stop
    lent = stream.lend()
    lent.close()
    del lent
    assert not stream.closed and stream._batches is stopped
    assert stream.read() == b"fen\n"


def _table_runs_on_stdin(runs_each: int, workers: int) -> dict:
    """``normalize`` of small CSV, TSV and JSON Lines tables piped in,
    ``runs_each`` times per format, ``workers`` processes at a time (a busy
    machine is what delays pyarrow's threads past the end): the statuses
    seen, and the first message of each other than 0."""
    from concurrent.futures import ThreadPoolExecutor

    fen = runs.GOOD[0]
    data = {
        "csv": f"id,fen\n1,{fen}\n".encode(),
        "tsv": f"id\tfen\n1\t{fen}\n".encode(),
        "jsonl": json.dumps({"id": 1, "fen": fen}).encode() + b"\n",
    }

    def one(fmt: str):
        done = subprocess.run(
            [sys.executable, "-m", "fastxfen", "normalize", "--input-format", fmt, "-q"],
            input=data[fmt],
            capture_output=True,
            timeout=HANG,
        )
        return done.returncode, done.stderr.decode(errors="replace")[-300:]

    seen: dict = {}
    with ThreadPoolExecutor(workers) as pool:
        for status, message in pool.map(one, [fmt for fmt in data for _ in range(runs_each)]):
            seen.setdefault(status, message)
    return seen


def test_table_runs_on_stdin_end_cleanly():
    seen = _table_runs_on_stdin(runs_each=2, workers=2)
    assert list(seen) == [0], seen


@pytest.mark.slow
def test_table_runs_on_stdin_end_cleanly_again_and_again():
    """Before the end of a run waited for pyarrow's threads, about 1 run
    in 200 of these aborted at exit on a loaded machine ("terminate called
    without an active exception", status -6)."""
    seen = _table_runs_on_stdin(runs_each=60, workers=4)
    assert list(seen) == [0], seen
