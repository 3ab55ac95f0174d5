"""What a first-time user of the command line tripped over: --version, the
count of subcommands in docs/cli.md, the progress bar (always there, moving
while a compressed output is written, never drawn over input typed at the
terminal), and --fields."""

import os
import platform
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import chess
import numpy as np
import pytest

import fastxfen as fx
from fastxfen import cli
from fastxfen.cli.display import Bar
from fastxfen.files.progress import PacedOutput, Progress

ROOT = Path(__file__).resolve().parent.parent
FOUR = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3"
ROWS = [chess.STARTING_FEN, FOUR, "8/8/8/8/8/8/8/K6k w - - 3 40", "4k3/8/8/8/8/8/8/4K3 w - - 0"]


def run(*argv):
    return cli.main([str(a) for a in argv])


def test_version(capsys):
    assert run("--version") == 0
    lines = capsys.readouterr().out.splitlines()  # then the reader (test_reader_parity.py)
    assert lines[0] == f"fastxfen {fx.__version__}"
    assert lines[1] == f"placement reader {fx.info()['reader']}, writer {fx.info()['writer']}"


def test_docs_count_the_subcommands():
    text = (ROOT / "docs" / "cli.md").read_text()
    words = {4: "four", 5: "five", 6: "six", 7: "seven"}
    assert f"It has {words[len(cli.COMMANDS)]} subcommands" in text
    listed = re.findall(r"^\| `(\w+)` \|", text.split("## ")[0], re.M)
    assert sorted(listed) == sorted(cli.COMMANDS)


@pytest.mark.parametrize(
    "fields, expected",
    [
        ("6", fx.normalize(ROWS)),
        ("4", fx.normalize(ROWS, fields=4)),
        ("same", fx.normalize(ROWS, fields="same")),
    ],
)
def test_normalize_fields(tmp_path, fields, expected):
    path = tmp_path / "in.fen"
    path.write_text("\n".join(ROWS) + "\n")
    out = tmp_path / "out.fen"
    assert run("normalize", path, "-o", out, "--fields", fields) == 0
    got = out.read_text().splitlines()
    assert got == expected
    assert [len(row.split()) for row in got] == {
        "6": [6, 6, 6, 6],
        "4": [4, 4, 4, 4],
        "same": [6, 4, 6, 5],
    }[fields]


def test_decode_fields(tmp_path, capsys):
    records = tmp_path / "r.npy"
    np.save(records, fx.encode(ROWS))
    out = tmp_path / "out.fen"
    assert run("decode", records, "-o", out, "--fields", "4") == 0
    assert out.read_text().splitlines() == [" ".join(r.split()[:4]) for r in fx.normalize(ROWS)]


def test_decode_refuses_fields_same(tmp_path, capsys):
    records = tmp_path / "r.npy"
    np.save(records, fx.encode(ROWS))
    assert run("decode", records, "-o", tmp_path / "o.fen", "--fields", "same") == 2
    assert "records have no such count" in capsys.readouterr().err


class _Bar:
    def __init__(self):
        self.updates = []

    def update(self, n):
        self.updates.append(n)

    def close(self):
        pass


class _Compressed:
    kind = "xz"

    def __init__(self):
        self.data = []

    def write(self, data):
        self.data.append(bytes(data))


def test_compressed_output_moves_the_bar_as_it_is_written():
    bar = Bar()
    bar.bar = _Bar()  # tqdm's part
    progress = Progress(bar)
    progress.to(1000)
    output = _Compressed()
    assert isinstance(progress.paced(output), PacedOutput)
    progress.aim(5000)
    chunk = bytes(range(256)) * 4096  # 1 MiB: four slices
    progress.paced(output).write(chunk)
    assert b"".join(output.data) == chunk
    assert len(output.data) == 4
    assert bar.bar.updates[0] == 1000
    assert len(bar.bar.updates) == 5
    assert progress.at == 5000


def _pty_run(argv, stdin_tty, input_file=None, feed=b"", columns=100):
    """Run the command with stderr (and, if stdin_tty, stdin) on terminals
    ``columns`` wide; return what it drew on stderr."""
    pty = pytest.importorskip("pty")
    import fcntl
    import struct
    import termios

    err_master, err_slave = pty.openpty()
    # a new terminal reports 0 columns (as some terminals do)
    fcntl.ioctl(err_slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    if stdin_tty:
        in_master, in_slave = pty.openpty()
        stdin = in_slave
    else:
        stdin = open(input_file, "rb")
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    if columns:
        env["COLUMNS"] = str(columns)
    proc = subprocess.Popen(
        [sys.executable, "-m", "fastxfen", *map(str, argv)],
        stdin=stdin,
        stdout=subprocess.DEVNULL,
        stderr=err_slave,
        env=env,
    )
    os.close(err_slave)
    if stdin_tty:
        os.close(in_slave)
        time.sleep(0.5)
        os.write(in_master, feed)
        # Ctrl-D at the start of a line ends the input; once more for a
        # reader that asks again after the first end of file
        for _ in range(2):
            time.sleep(0.3)
            os.write(in_master, b"\x04")
    drawn = b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([err_master], [], [], 0.2)
        if ready:
            try:
                more = os.read(err_master, 65536)
            except OSError:
                break
            if not more:
                break
            drawn += more
        elif proc.poll() is not None:
            break
    proc.wait(timeout=60)
    os.close(err_master)
    if stdin_tty:
        os.close(in_master)
    else:
        stdin.close()
    return proc.returncode, drawn.decode(errors="replace")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_no_bar_over_input_typed_at_the_terminal(tmp_path):
    status, drawn = _pty_run(["normalize", "-"], True, feed=chess.STARTING_FEN.encode() + b"\n")
    assert status == 0
    assert "reading positions from the terminal" in drawn
    assert "1 rows read" in drawn
    assert "B/s" not in drawn and "%|" not in drawn and "it/s" not in drawn


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_bar_drawn_for_a_file_input(tmp_path):
    path = tmp_path / "in.fen"
    path.write_text((chess.STARTING_FEN + "\n") * 20000)
    status, drawn = _pty_run(
        ["normalize", path, "-o", tmp_path / "out.fen.gz"], False, input_file=path
    )
    assert status == 0
    assert "B/s" in drawn or "B [" in drawn


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_bar_drawn_on_a_terminal_of_no_width(monkeypatch):
    """A terminal that reports 0 columns gets a bar FALLBACK_SIZE wide
    (tqdm, sizing itself to the terminal, draws nothing there)."""
    pty = pytest.importorskip("pty")
    import fcntl
    import struct
    import termios

    from fastxfen.cli import display

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 0, 0, 0, 0))
    monkeypatch.delenv("COLUMNS", raising=False)
    with os.fdopen(slave, "w") as terminal:
        monkeypatch.setattr(sys, "stderr", terminal)
        monkeypatch.setattr(Bar, "MININTERVAL", 0)
        bar = Bar()
        for position in (0, 500, 1000):
            bar(position, 1000, "rows")
        terminal.flush()
        drawn = b""
        while select.select([master], [], [], 0.5)[0]:
            drawn += os.read(master, 1 << 16)
        bar.close()
    os.close(master)
    lines = [line for line in drawn.decode(errors="replace").split("\r") if line.strip()]
    assert any("500/1.00k" in line for line in lines), drawn
    assert max(len(line) for line in lines) == display.FALLBACK_SIZE[0]


@pytest.mark.skipif(
    not sys.platform.startswith("linux") or platform.libc_ver()[0] != "glibc",
    reason="glibc's mallopt",
)
def test_command_line_keeps_freed_buffers_on_glibc(monkeypatch):
    from fastxfen.cli import heap

    assert heap.reuse_freed_blocks()
    calls = []
    monkeypatch.setattr(heap, "reuse_freed_blocks", lambda: calls.append(1))
    assert cli.main(["validate", "--help"]) == 0
    assert calls == [1]  # every run of the command line sets it first


def test_heap_thresholds_are_left_alone_off_linux(monkeypatch):
    from fastxfen.cli import heap

    monkeypatch.setattr(heap.sys, "platform", "darwin")
    assert heap.reuse_freed_blocks() is False


@pytest.mark.parametrize(
    "argv, library",
    [
        (["normalize", "--castling", "kqkq"], lambda: fx.normalize(FOUR, castling="kqkq")),
        (["normalize", "--en-passant", "all"], lambda: fx.normalize(FOUR, en_passant="all")),
        (["normalize", "--errors", "skip"], lambda: fx.normalize(FOUR, errors="skip")),
        (["normalize", "--fields", "5"], lambda: fx.normalize(FOUR, fields=5)),
        (["decode", "--fields", "same"], lambda: fx.decode(fx.encode([FOUR]), fields="same")),
        (["encode", "--errors", "ignore"], lambda: fx.encode(FOUR, errors="ignore")),
        (["encode", "--width", "9"], lambda: fx.encode(FOUR, width=9)),
        (["validate", "--threads", "0"], lambda: fx.validate([FOUR], threads=0)),
        (["decode", "--perspective", "black"], lambda: fx.to_planes([FOUR], perspective="black")),
        (
            ["encode", "--format", "planes", "--extra", "turn,nope"],
            lambda: fx.to_planes([FOUR], extra=("turn", "nope")),
        ),
    ],
)
def test_a_bad_option_gets_the_library_message(capsys, argv, library):
    """One message per mistake: the command line's is the library's."""
    with pytest.raises(ValueError) as raised:
        library()
    assert run(*argv) == 2
    err = capsys.readouterr().err
    assert err.count(f": {raised.value}\n") == 1 and "error: " in err


def test_exit_statuses_of_a_missing_package_and_an_internal_error(capsys):
    """Exit 1 means rows rejected, outputs published: a missing package is
    a usage error (2) naming the extra to install, and an unexpected
    exception an internal error (70) in one line, no traceback."""
    from fastxfen.cli import exits

    def missing(args):
        raise ImportError('this needs distributed: pip install "fastxfen[dask]"')

    def broken(args):
        raise RuntimeError("a bug")

    argv = ["normalize", "-", "-q"]
    assert exits.run_argv(argv, {"normalize": missing}) == exits.EXIT_FAILED == 2
    err = capsys.readouterr().err
    assert 'pip install "fastxfen[dask]"' in err and "Traceback" not in err
    assert exits.run_argv(argv, {"normalize": broken}) == exits.EXIT_INTERNAL == 70
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: a bug" in err and "Traceback" not in err


def test_dask_without_distributed_is_exit_2(tmp_path):
    pytest.importorskip("pyarrow")
    try:
        import distributed  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("distributed is installed")
    src = tmp_path / "a.fen"
    src.write_text(chess.STARTING_FEN + "\n")
    (tmp_path / "out").mkdir()
    argv = ["normalize", src, "-o", tmp_path / "out", "--dask", "tcp://127.0.0.1:1"]
    done = subprocess.run(
        [sys.executable, "-m", "fastxfen", *map(str, argv)], capture_output=True, text=True
    )
    assert done.returncode == 2, done.stderr
    assert "fastxfen[dask]" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize("command", ["normalize", "validate", "encode", "decode", "dedupe", "pgn"])
def test_each_command_help_fits_a_screen(command, capsys, monkeypatch):
    """Each command's help lists INPUT once, in groups, in at most 60
    lines of at most 80 columns; the long explanations are topics of
    `fastxfen help`, which it names."""
    monkeypatch.setenv("COLUMNS", "80")
    assert cli.main([command, "--help"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert len(lines) <= 60, len(lines)
    assert max(map(len, lines)) <= 80
    assert len(re.findall(r"^  INPUT ", out, re.M)) == 1
    assert "input and output:" in out and "running:" in out
    assert "fastxfen help TOPIC" in out


def test_help_topics(capsys):
    from fastxfen.cli.help_texts import TOPICS

    assert cli.main(["help"]) == 0
    listed = capsys.readouterr().out
    for topic, (summary, text) in TOPICS.items():
        assert f"  {topic} " in listed and summary in listed
        assert cli.main(["help", topic]) == 0
        assert capsys.readouterr().out == text
        assert max(len(line) for line in text.splitlines()) <= 79
    assert cli.main(["help", "nope"]) == 2
    assert "invalid choice" in capsys.readouterr().err
