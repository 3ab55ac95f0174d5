"""The page cache of large outputs released behind the writer
(fastxfen.files.dropbehind) and the command line's --keep-cache."""

import os
import time

import pytest

import fastxfen as fx
from fastxfen import cli
from fastxfen.files import direct, dropbehind, publication

pytestmark = pytest.mark.skipif(
    not hasattr(os, "posix_fadvise"), reason="no posix_fadvise on this system"
)


@pytest.fixture
def advice(monkeypatch):
    """Every posix_fadvise call as (fd, offset, length, advice), passed on to
    the real one."""
    calls = []
    real = os.posix_fadvise

    def spy(fd, offset, length, how):
        calls.append((fd, offset, length, how))
        return real(fd, offset, length, how)

    monkeypatch.setattr(os, "posix_fadvise", spy)
    return calls


@pytest.fixture
def small(monkeypatch):
    """Advice from 1,000 bytes on, every 500, over the last 2,000."""
    monkeypatch.setattr(dropbehind, "START", 1000)
    monkeypatch.setattr(dropbehind, "STEP", 500)
    monkeypatch.setattr(dropbehind, "WINDOW", 2000)


def wait_for(predicate, seconds=10.0):
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.001)


def test_windows_behind_the_written_end(tmp_path, advice, small):
    path = tmp_path / "out"
    data = bytes(range(256)) * 40  # 10,240 bytes
    with open(path, "wb", buffering=0) as f:
        fd = f.fileno()
        drop = dropbehind.DropBehind.attach(fd)
        assert drop is not None
        for at in range(0, len(data), 100):
            f.write(data[at : at + 100])
            drop.wrote(f.tell())
            wait_for(lambda: not drop._due())  # the thread has caught up
        drop.stop()
        f.write(b"tail")
        drop.wrote(f.tell())  # posting to a stopped thread is harmless
    # from START (1,000) on, an advice every STEP (500) over the last WINDOW (2,000)
    ends = range(1000, len(data) + 1, 500)
    dontneed = os.POSIX_FADV_DONTNEED
    assert advice == [(fd, max(0, e - 2000), min(e, 2000), dontneed) for e in ends]
    assert path.read_bytes() == data + b"tail"


def test_no_advice_before_start(tmp_path, advice):
    with open(tmp_path / "out", "wb") as f:
        drop = dropbehind.DropBehind.attach(f.fileno())
        f.write(b"x" * 4096)
        drop.wrote(4096)
        drop.stop()
    assert advice == []


def test_only_regular_files(tmp_path):
    read, write = os.pipe()
    try:
        assert dropbehind.DropBehind.attach(write) is None
    finally:
        os.close(read)
        os.close(write)
    with open(os.devnull, "wb") as f:
        assert dropbehind.DropBehind.attach(f.fileno()) is None


def test_not_where_the_system_lacks_the_call(tmp_path, monkeypatch):
    monkeypatch.delattr(os, "posix_fadvise")
    with open(tmp_path / "out", "wb") as f:
        assert dropbehind.DropBehind.attach(f.fileno()) is None


def test_refused_advice_ends_the_thread_only(tmp_path, monkeypatch, small):
    def refuse(*args):
        raise OSError(22, "refused")

    monkeypatch.setattr(os, "posix_fadvise", refuse)
    with open(tmp_path / "out", "wb") as f:
        drop = dropbehind.DropBehind.attach(f.fileno())
        f.write(b"y" * 3000)
        drop.wrote(3000)
        wait_for(lambda: not drop.is_alive())
        drop.wrote(6000)  # posting to an ended thread is harmless
        drop.stop()
    assert (tmp_path / "out").read_bytes() == b"y" * 3000


ROWS = [
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "8/8/8/8/8/8/8/8 w - -",
    "not a position",
]


@pytest.fixture
def attached(monkeypatch):
    """Every DropBehind the command line attaches."""
    made = []
    real = dropbehind.DropBehind.attach.__func__

    def attach(cls, fd):
        drop = real(cls, fd)
        made.append(drop)
        return drop

    monkeypatch.setattr(dropbehind.DropBehind, "attach", classmethod(attach))
    return made


@pytest.mark.parametrize("command", ["normalize", "encode"])
@pytest.mark.parametrize("keep", [False, True])
def test_command_line_output(tmp_path, advice, small, attached, command, keep):
    data = ("\n".join(ROWS * 100) + "\n").encode()  # about 15 KB
    src, out = tmp_path / "in.fen", tmp_path / "out"
    src.write_bytes(data)
    argv = [command, str(src), "-o", str(out), "--errors", "coerce", "-q", "--chunk-size", "1K"]
    assert cli.main(argv + (["--keep-cache"] if keep else [])) == 1
    if command == "normalize":
        assert out.read_bytes() == fx.normalize(data, errors="coerce")
    else:  # the .npy header, rewritten at the end, is whole
        np = pytest.importorskip("numpy")
        assert (np.load(out) == fx.encode(data, errors="coerce")).all()
    if keep:
        assert attached == [] and advice == []
        return
    (drop,) = attached
    assert not drop.is_alive()  # stopped before the file was closed
    assert drop._written == out.stat().st_size  # every write posted
    assert all(o + n <= drop._written for _, o, n, _ in advice)


def test_command_line_to_stdout_never_advises(tmp_path, advice, small, attached, capsysbinary):
    src = tmp_path / "in.fen"
    src.write_bytes(("\n".join(ROWS[:3] * 200) + "\n").encode())
    assert cli.main(["normalize", str(src), "-q", "--chunk-size", "1K"]) == 0
    assert len(capsysbinary.readouterr().out) > 1000
    assert attached == [] and advice == []


@pytest.mark.parametrize("keep", [False, True])
def test_pgn_command_output(tmp_path, advice, small, attached, keep):
    game = '[Event "e"]\n[FEN "{}"]\n\n1. e4 1-0\n\n'
    data = "".join(game.format(ROWS[i % 2]) for i in range(200)).encode()
    src, out = tmp_path / "in.pgn", tmp_path / "out.pgn"
    src.write_bytes(data)
    argv = ["pgn", str(src), "-o", str(out), "-q", "--chunk-size", "1K"]
    assert cli.main(argv + (["--keep-cache"] if keep else [])) == 0
    assert out.read_bytes().count(b"[SetUp") == 200
    if keep:
        assert attached == [] and advice == []
    else:
        (drop,) = attached
        assert drop._written == out.stat().st_size


# ------------------------------------------------------------- direct writes

needs_direct = pytest.mark.skipif(not direct._DIRECT, reason="no O_DIRECT on this system")


@pytest.fixture
def setfl(monkeypatch):
    """The flags of every F_SETFL fcntl call direct makes, passed on."""
    calls = []
    real = direct.fcntl.fcntl

    def spy(fd, cmd, arg=0):
        if cmd == direct.fcntl.F_SETFL:
            calls.append(arg)
        return real(fd, cmd, arg)

    monkeypatch.setattr(direct.fcntl, "fcntl", spy)
    return calls


@pytest.fixture
def blocks(monkeypatch):
    """A 3-block buffer."""
    monkeypatch.setattr(direct, "SIZE", 3 * direct.ALIGN)


@needs_direct
def test_direct_writes_of_any_sizes(tmp_path, blocks, setfl):
    data = bytes(range(251)) * 200  # about 12 blocks, not a whole number
    for sizes in ([len(data)], [1, 4095, 4097, 3 * 4096, len(data)], [1000] * 60):
        path = tmp_path / "out"
        with open(path, "wb") as f:
            writer = direct.DirectWriter(f.fileno())
            at = 0
            for size in sizes:
                piece = data[at : at + size]
                assert writer.write(piece) == len(piece)
                at += len(piece)
                assert writer.tell() == at
            writer.close()
        assert path.read_bytes() == data[:at]
        assert setfl[0] & direct._DIRECT and not setfl[-1] & direct._DIRECT
        setfl.clear()


@needs_direct
def test_a_file_under_one_buffer_goes_through_the_page_cache(tmp_path, monkeypatch, setfl):
    monkeypatch.setattr(direct, "SIZE", 2 * direct.ALIGN)
    with open(tmp_path / "out", "wb") as f:
        writer = direct.DirectWriter(f.fileno())
        writer.write(b"x" * (2 * direct.ALIGN - 1))
        writer.close()
    assert setfl == []
    assert (tmp_path / "out").read_bytes() == b"x" * (2 * direct.ALIGN - 1)


@needs_direct
@pytest.mark.parametrize("refusal", ["fcntl", "write"])
def test_a_refused_direct_write_is_an_ordinary_one(tmp_path, monkeypatch, blocks, refusal):
    """A filesystem that refuses O_DIRECT, or a direct write, gets the same
    bytes written through the page cache."""
    real_fcntl, real_write = direct.fcntl.fcntl, os.write
    refused = []

    def fcntl(fd, cmd, arg=0):
        if refusal == "fcntl" and cmd == direct.fcntl.F_SETFL and arg & direct._DIRECT:
            refused.append(cmd)
            raise OSError(22, "Invalid argument")
        return real_fcntl(fd, cmd, arg)

    def write(fd, data):
        if refusal == "write" and real_fcntl(fd, direct.fcntl.F_GETFL) & direct._DIRECT:
            refused.append(fd)
            raise OSError(22, "Invalid argument")
        return real_write(fd, data)

    monkeypatch.setattr(direct.fcntl, "fcntl", fcntl)
    monkeypatch.setattr(direct.os, "write", write)
    data = bytes(range(256)) * 100
    with open(tmp_path / "out", "wb") as f:
        writer = direct.DirectWriter(f.fileno())
        writer.write(data)
        writer.close()
    assert refused
    assert (tmp_path / "out").read_bytes() == data


@needs_direct
@pytest.mark.parametrize("command", ["normalize", "encode"])
def test_command_line_writes_large_outputs_direct(tmp_path, blocks, setfl, monkeypatch, command):
    monkeypatch.setattr(direct, "filesystem", lambda fd: "ext4")  # wherever tmp_path is
    data = ("\n".join(ROWS * 300) + "\n").encode()  # about 45 KB
    src, out = tmp_path / "in.fen", tmp_path / "out"
    src.write_bytes(data)
    argv = [command, str(src), "-o", str(out), "--errors", "coerce", "-q", "--chunk-size", "5K"]
    # an input under DROP_START: the output is written through the page cache
    assert cli.main(argv) == 1
    assert setfl == []
    # one of DROP_START bytes or more: direct from the first byte
    monkeypatch.setattr(publication, "DROP_START", len(data))
    assert cli.main(argv) == 1
    if command == "normalize":
        assert out.read_bytes() == fx.normalize(data, errors="coerce")
    else:  # the .npy header, rewritten at the end after the direct writes
        np = pytest.importorskip("numpy")
        assert (np.load(out) == fx.encode(data, errors="coerce")).all()
    assert any(flags & direct._DIRECT for flags in setfl)
    setfl.clear()
    assert cli.main(argv + ["--keep-cache"]) == 1
    assert setfl == []


@needs_direct
@pytest.mark.parametrize("kind", sorted(direct.IN_MEMORY))
def test_no_direct_writes_on_a_filesystem_in_memory(tmp_path, setfl, monkeypatch, kind):
    """There the page cache is the file: the output is written as it comes,
    not copied into the direct writer's buffer first."""
    monkeypatch.setattr(direct, "filesystem", lambda fd: kind)
    monkeypatch.setattr(publication, "DROP_START", 1)
    data = ("\n".join(ROWS * 300) + "\n").encode()
    src, out = tmp_path / "in.fen", tmp_path / "out"
    src.write_bytes(data)
    made = []
    monkeypatch.setattr(direct.DirectWriter, "__init__", lambda *a: made.append(a))
    assert cli.main(["normalize", str(src), "-o", str(out), "--errors", "coerce", "-q"]) == 1
    assert made == [] and setfl == []
    assert out.read_bytes() == fx.normalize(data, errors="coerce")


@pytest.mark.skipif(not os.path.exists("/proc/self/mountinfo"), reason="no mountinfo")
def test_the_filesystem_of_a_file(tmp_path):
    with open(tmp_path / "f", "wb") as f:
        kind = direct.filesystem(f.fileno())
    assert kind and kind.isprintable() and " " not in kind
    shm = "/dev/shm"
    if os.path.isdir(shm) and os.access(shm, os.W_OK):
        with open(os.path.join(shm, f"fastxfen-{os.getpid()}"), "wb") as f:
            try:
                kind = direct.filesystem(f.fileno())
                if kind == "tmpfs":
                    assert not direct.worthwhile(f.fileno())
            finally:
                os.unlink(f.name)
