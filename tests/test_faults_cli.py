"""The command line under faults at the level of files and processes (issue
15): inputs that change during a run, truncated and corrupt compressed
inputs, interrupted runs, full disks, aliased file names, long last lines,
bad .npy headers and rows rejected under --errors raise, for text and
table outputs alike.  Each fault must end the run with a clear error and
exit status 2 (or 130 / 143 for a signal), never a crash, and leave no file
under an output's final name unless it is complete.

Runs that need a process of their own (a file changed under it, a signal, a
file size limit) are subprocesses of ``python -m fastxfen``; the others run
``cli.main`` in-process."""

import bz2
import gzip
import lzma
import os
import random
import signal
import struct
import subprocess
import sys
import time
import zlib

import numpy as np
import pytest
from support.compressed import decompress

import fastxfen as fx
from fastxfen import cli, pgn
from fastxfen.files import outputs, signals, table_jobs, text_chunks

zstandard = pytest.importorskip("zstandard")

POSIX = pytest.mark.skipif(os.name != "posix", reason="signals and rlimits of POSIX")

GOOD = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 5 39",
]
BAD = "not a position"


def rows(n: int, every: int = 5) -> list:
    """n rows, every ``every``-th one bad."""
    return [BAD if i % every == every - 1 else GOOD[i % len(GOOD)] for i in range(n)]


def text(lines: list) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def run(argv) -> int:
    return cli.main([str(a) for a in argv])


def command(*argv, **kwargs) -> subprocess.Popen:
    """``python -m fastxfen ARGV`` started, stdout and stderr piped."""
    return subprocess.Popen(
        [sys.executable, "-m", "fastxfen", *map(str, argv)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **kwargs,
    )


def content(path) -> bytes:
    """A file's bytes, decompressed by its extension (a gzip header holds a
    time, so two runs differ in their compressed bytes)."""
    data = path.read_bytes()
    ext = path.suffix[1:]
    if ext in ("gz", "bz2", "xz", "zst") and data not in (b"old output", b"old rejects"):
        return decompress(ext, data)
    return data


def temporaries(folder) -> list:
    return sorted(name for name in os.listdir(folder) if ".fastxfen-" in name)


# ------------------------------------------------------- inputs that change


def _grow(path, size):
    with open(path, "ab") as f:
        f.write(text(GOOD))


def _truncate(path, size):
    os.truncate(path, size // 3)


def _rewrite(path, size):
    with open(path, "r+b") as f:  # the same size, other bytes
        f.write(text(GOOD[::-1]) * 4)


@POSIX
@pytest.mark.parametrize("change", [_truncate, _rewrite, _grow])
@pytest.mark.parametrize("cmd, ext", [("normalize", ".fen.gz"), ("encode", ".fen"), ("pgn", "")])
def test_an_input_that_changes_during_the_run_stops_it(tmp_path, cmd, ext, change):
    """The run is held by its rejects going to a pipe that is not read yet:
    once the first rejected row comes through, the input is changed in
    place; the run then reads on and must stop with an error naming the
    file, status 2, and no output published."""
    if cmd == "pgn":
        game = b'[Event "x"]\n[FEN "%s"]\n\n1. e4 e5 *\n\n'
        data = b"".join(game % (BAD if i % 2 else GOOD[0]).encode() for i in range(40000))
        src = tmp_path / "in.pgn"
    else:
        data = text(rows(60000, every=2))
        src = tmp_path / f"in{ext}"
    src.write_bytes(gzip.compress(data, 1) if ext.endswith(".gz") else data)
    size = src.stat().st_size
    out = tmp_path / ("out.npy" if cmd == "encode" else "out.txt")
    out.write_bytes(b"before")
    argv = [cmd, src, "-o", out, "--rejects", "-", "--errors", "coerce", "--chunk-size", "16K"]
    proc = command(*argv, "-q")
    assert proc.stdout.read(1)  # the first rejected row: the run is under way
    change(src, size)
    proc.stdout.read()
    status, err = proc.wait(), proc.stderr.read().decode()
    assert status == 2, err
    assert f"{src} changed during the run" in err
    assert out.read_bytes() == b"before" and temporaries(tmp_path) == []


# ------------------------------------------------------- compressed input


def _frames(ext: str, first: bytes, second: bytes):
    """(compressed bytes, [(cut, what the prefix is)]): two members (frames,
    streams) of ``first`` and ``second``; zstd and gzip flush a block at a
    line boundary inside the first one."""
    half = first.rfind(b"\n", 0, len(first) // 2) + 1
    if ext == "gz":
        one = zlib.compressobj(6, zlib.DEFLATED, 31)
        head = one.compress(first[:half]) + one.flush(zlib.Z_FULL_FLUSH)
        a = head + one.compress(first[half:]) + one.flush()
        b = gzip.compress(second)
    elif ext == "zst":
        maker = zstandard.ZstdCompressor(write_checksum=True)
        one = maker.compressobj()
        head = one.compress(first[:half]) + one.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
        a = head + one.compress(first[half:]) + one.flush()
        b = maker.compress(second)
    else:
        squeeze = bz2.compress if ext == "bz2" else lzma.compress
        a, b = squeeze(first), squeeze(second)
        head = a[: len(a) // 2]
    cuts = [
        (3, "cut"),
        (len(head), "cut"),  # a line boundary inside a frame (gz, zst)
        (len(a) - 1, "cut"),
        (len(a), "first"),  # a frame boundary: a complete stream
        (len(a) + 1, "cut"),
        (len(a) + len(b) - 1, "cut"),
    ]
    return a + b, cuts


def _payload(cmd: str):
    """(first part, second part, input suffix, extra arguments) of a
    command's input."""
    if cmd == "pgn":
        game = b'[Event "x"]\n[FEN "%s"]\n\n1. e4 e5 *\n\n'
        games = [game % (BAD if i % 9 == 8 else GOOD[i % 4]).encode() for i in range(400)]
        return b"".join(games[:250]), b"".join(games[250:]), ".pgn", ["--errors", "coerce"]
    if cmd == "decode":
        records = fx.encode(GOOD * 100)
        whole = np.lib.format.header_data_from_array_1_0(records)
        buf = __import__("io").BytesIO()
        np.lib.format.write_array_header_1_0(buf, whole)
        data = buf.getvalue() + records.tobytes()
        cut = len(buf.getvalue()) + 250 * records.itemsize
        return data[:cut], data[cut:], ".npy", ["--errors", "coerce"]
    lines = rows(600, every=7)
    extra = ["--errors", "coerce"] if cmd != "validate" else []
    return text(lines[:350]), text(lines[350:]), ".fen", extra


@pytest.mark.parametrize("ext", ["gz", "bz2", "xz", "zst"])
@pytest.mark.parametrize("cmd", ["normalize", "validate", "encode", "decode", "pgn"])
def test_truncated_compressed_input(tmp_path, capsys, cmd, ext):
    """Cut anywhere but at a frame boundary, the input is an error naming
    the file and the fault, status 2, nothing published; no row is blamed.
    Cut at a frame boundary, it is a complete stream: the same as the first
    frame's data given uncompressed."""
    first, second, suffix, extra = _payload(cmd)
    packed, cuts = _frames(ext, first, second)
    plain = tmp_path / f"plain{suffix}"
    plain.write_bytes(first)
    expected_out = tmp_path / "expected"
    expected = run([cmd, plain, "-o", expected_out, "--chunk-size", "1K", "-q", *extra])
    capsys.readouterr()
    name = {"gz": "gzip", "bz2": "bzip2", "zst": "zstd"}.get(ext, ext)
    src = tmp_path / f"in{suffix}.{ext}"
    out = tmp_path / "out"
    for cut, what in cuts:
        src.write_bytes(packed[:cut])
        status = run([cmd, src, "-o", out, "--chunk-size", "1K", "-q", *extra])
        err = capsys.readouterr().err
        where = f"cut at {cut} of {len(packed)}: {err}"
        if what == "first":  # (decode: a .npy shorter than its header says)
            assert status == expected, where
            assert out.exists() == expected_out.exists(), where
            if out.exists():
                assert out.read_bytes() == expected_out.read_bytes(), where
                out.unlink()
            continue
        assert status == 2, where
        assert f"{src}: truncated {name} stream after {cut:,} bytes" in err, where
        assert "line " not in err and "game " not in err, where
        assert not out.exists() and temporaries(tmp_path) == [], where


@pytest.mark.parametrize("ext", ["gz", "bz2", "xz", "zst"])
@pytest.mark.parametrize("cmd", ["normalize", "decode", "pgn"])
def test_corrupt_compressed_input(tmp_path, capsys, cmd, ext):
    """A flipped byte is an error naming the file, status 2, nothing
    published: the codec's own error where it checks (a gzip member's CRC
    comes at its end), or the .npy header's when that is hit first."""
    first, second, suffix, extra = _payload(cmd)
    packed, _ = _frames(ext, first + second, b"")
    src = tmp_path / f"in{suffix}.{ext}"
    out = tmp_path / "out"
    for at in (len(packed) // 3, len(packed) // 2):
        broken = bytearray(packed)
        broken[at] ^= 0x55
        src.write_bytes(bytes(broken))
        assert run([cmd, src, "-o", out, "-q", *extra]) == 2
        err = capsys.readouterr().err
        assert f"error: {src}" in err and "Traceback" not in err, err
        assert not out.exists() and temporaries(tmp_path) == []


def test_zstd_skippable_frames_and_empty_frames_are_complete(tmp_path, capsys):
    data = text(GOOD * 5)
    maker = zstandard.ZstdCompressor(write_checksum=True)
    skippable = struct.pack("<II", 0x184D2A5A, 3) + b"abc"
    src = tmp_path / "in.fen.zst"
    src.write_bytes(skippable + maker.compress(data[:100]) + maker.compress(b"") + skippable)
    src.write_bytes(src.read_bytes() + maker.compress(data[100:]))
    assert run(["normalize", src, "-o", tmp_path / "o", "-q"]) == 0
    assert (tmp_path / "o").read_bytes() == fx.normalize(data)


# ------------------------------------------------------- outputs and signals


def _signal_cases(tmp_path):
    """(argv, output, rejects) of a few runs long enough to be interrupted."""
    src = tmp_path / "in.fen"
    src.write_bytes(text(rows(400_000, every=11)))
    cases = []
    for name, cmd in (("o.fen.gz", "normalize"), ("o.npy", "encode"), ("o.npy.zst", "encode")):
        out, rej = tmp_path / name, tmp_path / f"{name}.rejects"
        argv = [cmd, src, "-o", out, "--rejects", rej, "--errors", "coerce"]
        cases.append((argv + ["--chunk-size", "64K", "-q"], out, rej))
    return cases


def _table_signal_cases(tmp_path):
    """As _signal_cases, for a CSV input and table outputs."""
    pa = pytest.importorskip("pyarrow")
    pcsv = pytest.importorskip("pyarrow.csv")
    lines = rows(120_000, every=11)
    src = tmp_path / "in.csv"
    pcsv.write_csv(pa.table({"id": list(range(len(lines))), "fen": lines}), src)
    cases = []
    for name, cmd in (("o.parquet", "normalize"), ("o.jsonl.gz", "dedupe")):
        out, rej = tmp_path / name, tmp_path / f"{name}.rejects.csv"
        argv = [cmd, src, "-o", out, "--rejects", rej, "--errors", "coerce"]
        cases.append((argv + ["--chunk-size", "64K", "-q"], out, rej))
    return cases


def _interrupt(tmp_path, runs: int, seed: int, cases=None, signums=(signal.SIGINT, signal.SIGTERM)):
    pick = random.Random(seed)
    cases = _signal_cases(tmp_path) if cases is None else cases
    complete = {}
    for argv, out, rej in cases:
        started = time.monotonic()
        assert subprocess.run([sys.executable, "-m", "fastxfen", *map(str, argv)]).returncode == 1
        complete[out] = (content(out), content(rej), time.monotonic() - started)
    for k in range(runs):
        argv, out, rej = cases[k % len(cases)]
        out.write_bytes(b"old output")
        rej.write_bytes(b"old rejects")
        proc = command(*argv)
        while not temporaries(tmp_path) and proc.poll() is None:
            time.sleep(0.002)  # until the outputs are open: the run is under way
        time.sleep(pick.uniform(0, complete[out][2]))
        signum = pick.choice(signums)
        proc.send_signal(signum)
        _, err = proc.communicate()
        status = proc.returncode
        where = f"run {k}, {signum!r}, status {status}: {err.decode()}"
        new = (content(out), content(rej))
        assert status in (1, 130, 143, -signum), where
        # both untouched or both complete: a published output has its rejects
        assert new in ((b"old output", b"old rejects"), complete[out][:2]), where
        if status in (1, -signum):  # finished, or killed on its way out
            assert new == complete[out][:2], where
        assert temporaries(tmp_path) == [], where


@POSIX
def test_signals_leave_outputs_untouched_or_complete(tmp_path):
    _interrupt(tmp_path, 3, seed=1)


@POSIX
@pytest.mark.slow
def test_signals_at_random_moments(tmp_path):
    _interrupt(tmp_path, 30, seed=2)


@POSIX
def test_sigterm_leaves_table_outputs_untouched_or_complete(tmp_path):
    _interrupt(tmp_path, 2, seed=3, cases=_table_signal_cases(tmp_path), signums=[signal.SIGTERM])


def test_a_swallowed_signal_still_publishes_nothing(tmp_path, monkeypatch, capsys):
    """Code that catches every exception (pyarrow does, around its lazy
    import of pandas) can swallow the Terminated that SIGTERM raised in it:
    the run then ends as terminated where it would have published."""
    pytest.importorskip("pyarrow")
    src, _ = _raise_input(tmp_path, "in.csv")
    mask = table_jobs._mask

    def swallowing(array):
        try:
            signals._handler(signal.SIGTERM, None)  # what the signal does
        except BaseException:
            pass
        return mask(array)

    monkeypatch.setattr(table_jobs, "_mask", swallowing)
    out, rej = tmp_path / "o.parquet", tmp_path / "r.csv"
    argv = ["normalize", src, "-o", out, "--rejects", rej, "--errors", "coerce", "-q"]
    assert run(argv) == 143
    assert "fastxfen: terminated" in capsys.readouterr().err
    assert not out.exists() and not rej.exists() and temporaries(tmp_path) == []
    monkeypatch.setattr(table_jobs, "_mask", mask)
    assert run(argv) == 1  # the next run starts afresh
    assert out.exists() and rej.exists()


def test_a_signal_while_the_outputs_open_leaves_no_file(tmp_path, monkeypatch, capsys):
    """SIGINT just after an output's temporary file is made (its writer
    thread not yet started, the file not yet among the run's outputs): the
    run ends as interrupted and no temporary file is left."""
    started = outputs._Background

    def interrupted(write):
        signals._handler(signal.SIGINT, None)  # what the signal does
        return started(write)

    monkeypatch.setattr(outputs, "_Background", interrupted)
    src = tmp_path / "in.fen"
    src.write_text("8/8/8/8/8/8/8/K6k w - - 0 1\n")
    argv = ["normalize", src, "-o", tmp_path / "o.fen.gz", "--rejects", tmp_path / "r.fen"]
    assert run([*argv, "-q"]) == 130
    assert "fastxfen: interrupted" in capsys.readouterr().err
    assert sorted(os.listdir(tmp_path)) == ["in.fen"]


def test_an_output_that_fails_to_start_leaves_no_file(tmp_path, monkeypatch):
    def failing(write):
        raise OSError(24, "Too many open files")

    monkeypatch.setattr(outputs, "_Background", failing)
    with pytest.raises(OSError, match="Too many open files"):
        outputs.Output(str(tmp_path / "o.fen"), background=True)
    assert os.listdir(tmp_path) == []


def test_a_signal_while_an_output_is_discarded_still_removes_its_file(tmp_path):
    """Called from Python (no signal held back), a KeyboardInterrupt raised
    while a discarded .gz output ends its compressed stream leaves no
    temporary file: the removal comes whatever stops the rest."""
    output = outputs.Output(str(tmp_path / "o.fen.gz"))
    output.write(b"8/8/8/8/8/8/8/K6k w - - 0 1\n" * 1000)
    real_close = output.stream.close

    def interrupted():
        real_close()
        raise KeyboardInterrupt

    output.stream.close = interrupted
    with pytest.raises(KeyboardInterrupt):
        output.discard()
    assert os.listdir(tmp_path) == []


def test_an_error_after_a_swallowed_signal_ends_the_run_as_the_signal(
    tmp_path, monkeypatch, capsys
):
    """A signal swallowed during an import (pyarrow's of pandas) leaves the
    module half imported, and the next use of it fails: the run ends as
    terminated, not with that error's traceback and status 1."""
    pytest.importorskip("pyarrow")
    src, _ = _raise_input(tmp_path, "in.csv")

    def half_imported(array):
        try:
            signals._handler(signal.SIGTERM, None)
        except BaseException:
            pass
        raise AttributeError("partially initialized module 'pandas' has no attribute 'core'")

    monkeypatch.setattr(table_jobs, "_mask", half_imported)
    out, rej = tmp_path / "o.parquet", tmp_path / "r.csv"
    out.write_bytes(b"old output")
    argv = ["normalize", src, "-o", out, "--rejects", rej, "--errors", "coerce", "-q"]
    assert run(argv) == 143
    assert "fastxfen: terminated" in capsys.readouterr().err
    assert out.read_bytes() == b"old output" and not rej.exists()
    assert temporaries(tmp_path) == []


@POSIX
def test_a_file_size_limit_is_a_write_error(tmp_path):
    """RLIMIT_FSIZE stands for a full disk (EFBIG instead of ENOSPC): the
    run stops with status 2 and leaves no file behind."""
    resource = pytest.importorskip("resource")
    src = tmp_path / "in.fen"
    src.write_bytes(text(rows(50_000)))
    out = tmp_path / "o.fen"
    out.write_bytes(b"before")

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))

    proc = command("normalize", src, "-o", out, "--errors", "coerce", "-q", preexec_fn=limit)
    _, err = proc.communicate()
    assert proc.returncode == 2, err
    assert f"cannot write {out}: File too large" in err.decode()
    assert out.read_bytes() == b"before" and temporaries(tmp_path) == []


@POSIX
def test_a_full_disk_is_a_write_error(tmp_path):
    """A 1 MB tmpfs (needs the right to mount; skipped without it)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)], capture_output=True
    )
    if mounted.returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        src = tmp_path / "in.fen"
        src.write_bytes(text(rows(50_000)))
        for cmd, name in (("normalize", "o.fen"), ("encode", "o.npy")):
            proc = command(cmd, src, "-o", disk / name, "--errors", "coerce", "-q")
            _, err = proc.communicate()
            assert proc.returncode == 2, err
            assert "No space left on device" in err.decode()
            assert os.listdir(disk) == []
    finally:
        subprocess.run(["umount", str(disk)], check=True)


def test_an_error_publishes_nothing_and_keeps_the_old_files(tmp_path, capsys):
    src = tmp_path / "in.fen.gz"
    src.write_bytes(gzip.compress(text(rows(3000)))[:-30])
    out, rej = tmp_path / "o.npy", tmp_path / "r.tsv"
    out.write_bytes(b"old")
    assert run(["encode", src, "-o", out, "--rejects", rej, "--errors", "coerce", "-q"]) == 2
    assert out.read_bytes() == b"old" and not rej.exists() and temporaries(tmp_path) == []


# ------------------------------------------------------- --errors raise

RAISE_ROWS, RAISE_BAD = 300, 200  # the 1-based row that stops the run


def _raise_input(tmp_path, name: str):
    """A file of RAISE_ROWS positions, row RAISE_BAD bad, in the format
    ``name`` says; and how the error names that row."""
    lines = [GOOD[i % len(GOOD)] for i in range(RAISE_ROWS)]
    lines[RAISE_BAD - 1] = BAD
    path = tmp_path / name
    where = f"line {RAISE_BAD}: column"
    if name.endswith(".npy"):
        np.save(path, fx.encode(lines, errors="coerce"))
        where = f"record {RAISE_BAD}: column 0 (record.width)"
    elif name.endswith(".pgn"):
        game = '[Event "g"]\n[FEN "%s"]\n\n1. e4 *\n\n'
        path.write_text("".join(game % line for line in lines))
        where = f"game {RAISE_BAD}, line {5 * RAISE_BAD - 3}: column"
    elif name.endswith((".csv", ".parquet", ".jsonl")):
        pa = pytest.importorskip("pyarrow")
        table = pa.table({"id": list(range(RAISE_ROWS)), "fen": lines})
        if name.endswith(".csv"):
            pytest.importorskip("pyarrow.csv").write_csv(table, path)
        elif name.endswith(".parquet"):
            pytest.importorskip("pyarrow.parquet").write_table(table, path)
        else:
            path.write_text("".join(f'{{"id": {i}, "fen": "{f}"}}\n' for i, f in enumerate(lines)))
        where = f"row {RAISE_BAD}: column"
    else:
        path.write_bytes(text(lines))
    return path, where


RAISE_CASES = {
    "normalize": ("normalize", "in.fen", "o.fen.gz", "r.tsv"),
    "encode": ("encode", "in.fen", "o.npy", "r.tsv"),
    "encode spooled": ("encode", "in.fen", "o.npy.zst", "r.tsv"),
    "encode lichess": ("encode", "in.fen", "o.bin", "r.tsv", "--format", "lichess"),
    "decode": ("decode", "in.npy", "o.fen", "r.tsv"),
    "dedupe": ("dedupe", "in.fen", "o.fen", "r.tsv"),
    "pgn": ("pgn", "in.pgn", "o.pgn", "r.pgn"),
    "normalize table": ("normalize", "in.csv", "o.parquet", "r.csv"),
    "encode table": ("encode", "in.parquet", "o.npy", "r.parquet"),
    "dedupe table": ("dedupe", "in.jsonl", "o.arrow", "r.jsonl"),
}


@pytest.mark.parametrize("case", list(RAISE_CASES))
def test_raise_publishes_nothing(tmp_path, capsys, case):
    """A row rejected under --errors raise (the default) ends the run with
    status 2 and an error naming the row; neither the output nor the rejects
    file is written, and files already under those names stay as they were,
    though rows before the bad one were converted (small chunks)."""
    cmd, name, out_name, rej_name, *extra = RAISE_CASES[case]
    src, where = _raise_input(tmp_path, name)
    out, rej = tmp_path / out_name, tmp_path / rej_name
    argv = [cmd, src, "-o", out, "--rejects", rej, "--chunk-size", "1K", *extra]
    assert run(argv) == 2
    err = capsys.readouterr().err
    assert f"fastxfen: error: {where}" in err, err
    assert f"stopped at {where.split(':')[0].split(',')[0]}" in err, err
    assert not out.exists() and not rej.exists() and temporaries(tmp_path) == []
    out.write_bytes(b"old output")
    rej.write_bytes(b"old rejects")
    assert run([*argv, "-q"]) == 2
    assert f"fastxfen: error: {where}" in capsys.readouterr().err
    assert (out.read_bytes(), rej.read_bytes()) == (b"old output", b"old rejects")
    assert temporaries(tmp_path) == []


def test_raise_ends_a_table_on_stdout_whole(tmp_path, capsysbinary):
    """Stdout cannot be taken back: it gets the rows before the bad one, as
    an Arrow IPC stream with its end marker."""
    ipc = pytest.importorskip("pyarrow.ipc")
    src, where = _raise_input(tmp_path, "in.csv")
    assert run(["normalize", src, "--output-format", "arrow", "--chunk-size", "1K", "-q"]) == 2
    captured = capsysbinary.readouterr()
    assert f"fastxfen: error: {where}".encode() in captured.err
    got = ipc.open_stream(captured.out).read_all()
    assert got.column("fen").to_pylist() == fx.normalize(
        [GOOD[i % len(GOOD)] for i in range(RAISE_BAD - 1)]
    )


@pytest.mark.parametrize("name", ["in.csv.gz", "in.jsonl.xz", "in.tsv.zst"])
def test_a_truncated_table_input_publishes_no_table(tmp_path, capsys, name):
    pa = pytest.importorskip("pyarrow")
    pytest.importorskip("pyarrow.csv")
    lines = rows(20_000)
    table = pa.table({"id": list(range(len(lines))), "fen": lines})
    plain = tmp_path / name.rsplit(".", 1)[0]
    if plain.suffix == ".jsonl":
        plain.write_text("".join(f'{{"id": {i}, "fen": "{f}"}}\n' for i, f in enumerate(lines)))
    else:
        options = pa.csv.WriteOptions(delimiter="\t" if plain.suffix == ".tsv" else ",")
        pa.csv.write_csv(table, plain, write_options=options)
    squeeze = {"gz": gzip.compress, "xz": lzma.compress, "zst": zstandard.compress}
    packed = squeeze[name.rsplit(".", 1)[1]](plain.read_bytes())
    src = tmp_path / name
    src.write_bytes(packed[: len(packed) * 2 // 3])
    out, rej = tmp_path / "o.parquet", tmp_path / "r.csv"
    argv = ["normalize", src, "-o", out, "--rejects", rej, "--errors", "coerce", "-q"]
    argv += ["--chunk-size", "16K"]
    assert run(argv) == 2
    err = capsys.readouterr().err
    assert f"error: {src}: truncated" in err, err
    assert not out.exists() and not rej.exists() and temporaries(tmp_path) == []
    out.write_bytes(b"old output")
    rej.write_bytes(b"old rejects")
    assert run(argv) == 2
    assert f"error: {src}: truncated" in capsys.readouterr().err
    assert (out.read_bytes(), rej.read_bytes()) == (b"old output", b"old rejects")
    assert temporaries(tmp_path) == []


def test_outputs_keep_the_mode_of_the_file_they_replace(tmp_path):
    src = tmp_path / "in.fen"
    src.write_bytes(text(GOOD))
    out = tmp_path / "o.fen"
    out.write_bytes(b"old")
    out.chmod(0o640)
    assert run(["normalize", src, "-o", out, "-q"]) == 0
    assert out.stat().st_mode & 0o777 == 0o640
    assert out.read_bytes() == fx.normalize(text(GOOD))


# ------------------------------------------------------- aliasing


def _aliases(tmp_path, target):
    """Other names of ``target``: a hard link, a symlink, a dangling symlink
    (when target does not exist yet: a symlink to its name)."""
    hard, soft = tmp_path / "hard", tmp_path / "soft"
    if target.exists():
        os.link(target, hard)
        soft.symlink_to(target)
        return {"path": target, "hard link": hard, "symlink": soft}
    soft.symlink_to(target)
    return {"path": target, "dangling symlink": soft}


ALIASES = [
    (pair, route)
    for pair in ("input/-o", "input/--rejects", "-o/--rejects")
    for route in ("path", "hard link", "symlink")
] + [("-o/--rejects", "dangling symlink")]  # (an input exists: no dangling link to it)


def _alias_is_refused(tmp_path, capsys, src, out, rej, pair, route):
    """normalize given the two files of ``pair``, the second as an alias
    (made by ``route``) of the first, exits 2 naming both and leaves every
    file as it was; return the aliased file."""
    first, second = pair.split("/")
    target = {"input": src, "-o": out}[first]
    alias = _aliases(tmp_path, target)[route]
    files = {"input": src, "-o": out, "--rejects": rej, second: alias}
    before = {p: p.read_bytes() for p in (src, out, rej) if p.exists()}
    argv = ["normalize", files["input"], "-o", files["-o"], "--rejects", files["--rejects"]]
    assert run([*argv, "--errors", "coerce", "-q"]) == 2
    err = capsys.readouterr().err
    assert "are the same file" in err and str(alias) in err and str(target) in err
    assert {p: p.read_bytes() for p in (src, out, rej) if p.exists()} == before
    assert temporaries(tmp_path) == []
    return target


@pytest.mark.parametrize("pair, route", ALIASES)
def test_aliases_are_refused_before_anything_is_written(tmp_path, capsys, pair, route):
    src = tmp_path / "in.fen"
    src.write_bytes(text(rows(100)))
    out, rej = tmp_path / "o.fen", tmp_path / "r.tsv"
    if route != "dangling symlink":
        out.write_bytes(b"old output")
    target = _alias_is_refused(tmp_path, capsys, src, out, rej, pair, route)
    assert not (route == "dangling symlink" and target.exists())


@pytest.mark.parametrize("pair", ["input/-o", "-o/--rejects"])
@pytest.mark.parametrize("route", ["path", "hard link", "symlink"])
def test_table_aliases_are_refused_before_anything_is_written(tmp_path, capsys, pair, route):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    src, out, rej = tmp_path / "in.parquet", tmp_path / "o.parquet", tmp_path / "r.parquet"
    pq.write_table(pa.table({"fen": rows(100)}), src)
    out.write_bytes(b"old output")
    _alias_is_refused(tmp_path, capsys, src, out, rej, pair, route)


def test_writing_through_a_symlink_keeps_the_link(tmp_path):
    src = tmp_path / "in.fen"
    src.write_bytes(text(GOOD))
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "o.fen"
    link = tmp_path / "o.fen"
    link.symlink_to(target)  # dangling until the run
    assert run(["normalize", src, "-o", link, "-q"]) == 0
    assert link.is_symlink() and target.read_bytes() == fx.normalize(text(GOOD))


# ------------------------------------------------------- long last lines


@pytest.mark.parametrize("chunk", ["64", "100", "250"])
@pytest.mark.parametrize("length", [150, 1200])
def test_a_long_last_line_keeps_its_row(tmp_path, monkeypatch, chunk, length):
    """A last line without newline, longer than the chunk (1200 also longer
    than MAX_LINE, which is made 300 here): rows in = rows out for every
    text command and errors mode."""
    monkeypatch.setattr(text_chunks, "MAX_LINE", 300)
    lines = [*GOOD, "8/8/8/8/8/8/8/8 w - - 0 " + "1" * length]
    src = tmp_path / "in.fen"
    src.write_bytes("\n".join(lines).encode())
    base = ["--chunk-size", chunk, "-q"]
    for errors in ("coerce", "ignore"):
        out = tmp_path / f"{errors}.fen"
        assert run(["normalize", src, "-o", out, "--errors", errors, *base]) == 1
        data = out.read_bytes()
        assert data.count(b"\n") + (not data.endswith(b"\n")) == len(lines), errors
    npy = tmp_path / "o.npy"
    assert run(["encode", src, "-o", npy, "--errors", "coerce", *base]) == 1
    assert np.load(npy).shape == (len(lines),)
    report = tmp_path / "v.txt"
    assert run(["validate", src, "-o", report, *base]) == 1
    assert report.read_text().startswith(f"{len(lines)}: ")


@pytest.mark.parametrize("chunk", ["64", "100", "1K"])
def test_a_long_last_pgn_line_keeps_its_game(tmp_path, chunk):
    game = '[Event "x"]\n[FEN "%s"]\n\n1. e4 e5 *\n\n'
    data = ("".join(game % fen for fen in GOOD) + game % GOOD[0] + "1. e4 " * 600).encode()
    src = tmp_path / "in.pgn"
    src.write_bytes(data)
    out = tmp_path / "o.pgn"
    assert run(["pgn", src, "-o", out, "--chunk-size", chunk, "-q"]) == 0
    assert out.read_bytes() == pgn.normalize_pgn(data)


# ------------------------------------------------------- .npy headers


def _npy(shape: str, descr: str, data: bytes) -> bytes:
    header = "{'descr': %r, 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    size = -(-(10 + len(header) + 1) // 64) * 64 - 10
    header += " " * (size - len(header) - 1) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", size) + header.encode() + data


NPY_CASES = {
    "negative shape": ("(-1,)", None, "negative size in the shape (-1,)"),
    "overflowing shape": (f"({2**62}, {2**62})", None, "more data than a file can hold"),
    "unknown dtype": ("(4,)", "<q9", "not a .npy file"),
    "short data": ("(9,)", None, "its header announces 9 rows, the data holds 4"),
}


@pytest.mark.parametrize("ext", ["", ".gz", ".bz2", ".xz", ".zst"])
@pytest.mark.parametrize("case", list(NPY_CASES))
def test_bad_npy_headers(tmp_path, capsys, case, ext):
    shape, descr, message = NPY_CASES[case]
    records = fx.encode(GOOD)
    descr = descr or np.lib.format.dtype_to_descr(records.dtype)
    data = _npy(shape, descr, records.tobytes())
    squeeze = {
        ".gz": gzip.compress,
        ".bz2": bz2.compress,
        ".xz": lzma.compress,
        ".zst": zstandard.ZstdCompressor().compress,
    }.get(ext, bytes)
    src = tmp_path / f"in.npy{ext}"
    src.write_bytes(squeeze(data))
    out = tmp_path / "o.fen"
    assert run(["decode", src, "-o", out, "-q"]) == 2
    err = capsys.readouterr().err
    assert f"error: {src}" in err and message in err, err
    assert "Traceback" not in err and not out.exists()
