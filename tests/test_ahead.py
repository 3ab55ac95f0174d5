"""fastxfen._jobs.Ahead, the helper threads of the .binpack reader: results
in the order started, and no task running once a call stops, whatever
stops it (a signal, a task's error, a reader closed early)."""

import _thread
import io
import time

import pytest

import fastxfen.training as ft
from fastxfen._jobs import Ahead


def test_results_come_in_the_order_started():
    ahead = Ahead(3)  # two tasks a helper
    for k in range(6):
        ahead.start(lambda k: (time.sleep(0.001 * (6 - k)), k)[1], k)
    assert len(ahead) == 6
    assert [ahead.take() for _ in range(6)] == list(range(6))
    assert len(ahead) == 0 and not ahead.halted


def _until_halted(ahead, seen: list):
    """A task that runs until ``ahead`` is halted, then notes that it ended."""

    def task(_):
        seen.append("began")
        while not ahead.halted:
            time.sleep(0.001)
        time.sleep(0.02)  # still at work a while after the halt
        seen.append("ended")

    return task


def test_a_signal_in_take_is_raised_once_no_task_runs():
    ahead, seen = Ahead(3), []
    ahead.start(_until_halted(ahead, seen), None)
    ahead.start(_until_halted(ahead, seen), None)
    _began(seen, 2)
    ahead.start(lambda _: _thread.interrupt_main(), None)  # SIGINT's exception
    with pytest.raises(KeyboardInterrupt):
        for _ in range(3):
            ahead.take()
    assert seen.count("ended") == 2 and ahead.halted and len(ahead) == 0


def _began(seen: list, n: int) -> None:
    deadline = time.monotonic() + 5
    while seen.count("began") < n and time.monotonic() < deadline:
        time.sleep(0.001)
    assert seen.count("began") == n


def test_a_tasks_error_stops_the_others_first():
    ahead, seen = Ahead(2), []

    def fails(_):
        raise ValueError("bad block")

    ahead.start(fails, None)
    ahead.start(_until_halted(ahead, seen), None)
    _began(seen, 1)
    with pytest.raises(ValueError, match="bad block"):
        ahead.take()
    assert seen == ["began", "ended"] and len(ahead) == 0


def test_close_returns_once_no_task_runs():
    ahead, seen = Ahead(3), []
    for _ in range(3):
        ahead.start(_until_halted(ahead, seen), None)
    _began(seen, 3)
    ahead.close()
    assert ahead.halted and len(ahead) == 0
    assert seen.count("ended") == 3


def test_a_task_not_begun_never_runs():
    ahead, ran = Ahead(2), []
    for k in range(50):
        ahead.start(ran.append, k)
    ahead.close()
    now = list(ran)
    time.sleep(0.05)
    assert ran == now  # those left unstarted by close stay so


def _blocks(seed: int, copies: int) -> bytes:
    """A .binpack of ``copies`` blocks, each the games of ``seed``."""
    from models import training as model

    out = io.BytesIO()
    ft.write(out, model.columns(model.corpus(seed=seed, games=40)), format="binpack")
    return out.getvalue() * copies


def test_map_gives_results_in_order_and_closes_at_the_end():
    ahead = Ahead(2)
    assert list(ahead.map(lambda k: (time.sleep(0.001 * (k % 3)), k * k)[1], range(9))) == [
        k * k for k in range(9)
    ]
    assert ahead.halted and len(ahead) == 0


def test_a_reader_closed_early_leaves_no_thread_running(tmp_path):
    """Closing the batches of a threaded .binpack read after the first
    stops its helper threads before it returns; the file is read whole by
    another reader after."""
    path = tmp_path / "many.binpack"
    path.write_bytes(_blocks(seed=3, copies=40))
    whole = ft.read(path, columns=("fen",))
    before = _thread._count()
    batches = iter(ft.batches(path, columns=("fen",), batch_size=64, threads=2))
    next(batches)
    batches.close()
    deadline = time.monotonic() + 5  # a finished thread takes a moment to exit
    while _thread._count() > before and time.monotonic() < deadline:
        time.sleep(0.001)
    assert _thread._count() == before
    assert ft.read(path, columns=("fen",), threads=2).equals(whole)


def test_at_most_threads_helpers_and_none_left_after_close():
    before = _thread._count()
    ahead = Ahead(2)
    for k in range(10):
        ahead.start(lambda _: _thread.get_ident(), k)
    idents = {ahead.take() for _ in range(10)}
    assert len(idents) == 2 and _thread.get_ident() not in idents
    ahead.close()
    deadline = time.monotonic() + 5  # a helper takes a moment to exit after its loop
    while _thread._count() > before and time.monotonic() < deadline:
        time.sleep(0.001)
    assert _thread._count() == before
    with pytest.raises(RuntimeError, match="closed"):
        ahead.start(print, None)


def test_a_reader_left_unfinished_at_the_programs_end_lets_it_end(tmp_path):
    """A threaded .binpack read left open when the program ends (its
    generator finalized with the modules, when helper threads can no
    longer take the GIL) neither hangs the exit nor crashes it: the exit
    handlers close it while its helpers can still end."""
    import subprocess
    import sys

    path = tmp_path / "many.binpack"
    path.write_bytes(_blocks(seed=5, copies=40))
    script = (
        "import fastxfen.training as ft\n"
        f"it = iter(ft.batches({str(path)!r}, columns=('record',), output='numpy',"
        " threads=2, batch_size=64))\n"
        "next(it)\n"
        "print('left open')\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stdout == "left open\n", done.stderr[-2000:]


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="fork of POSIX")
# a fork with threads alive is the case under test (Python 3.12 on warns of it)
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")
def test_a_reader_going_on_in_a_forked_child_says_why_it_cannot():
    """A threaded read started in a parent and continued in a forked child
    (whose copy has no helper threads) raises at once; the parent's goes on."""
    import os

    data = _blocks(seed=6, copies=20)  # in memory: a file's offset is shared with the child
    whole = ft.read(io.BytesIO(data), format="binpack", columns=("fen",))
    batches = iter(
        ft.batches(io.BytesIO(data), format="binpack", columns=("fen",), batch_size=64, threads=2)
    )
    first = next(batches)
    pid = os.fork()
    if pid == 0:  # the child: its exit status says what happened
        status = 3
        try:
            for _ in batches:
                pass
            status = 1
        except RuntimeError as exc:
            status = 0 if "forked" in str(exc) else 2
        finally:
            os._exit(status)
    deadline = time.monotonic() + 30
    while not (done := os.waitpid(pid, os.WNOHANG))[0] and time.monotonic() < deadline:
        time.sleep(0.01)
    if not done[0]:  # the child hangs, waiting for threads it does not have
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    assert done[0] and os.WIFEXITED(done[1]) and os.WEXITSTATUS(done[1]) == 0, done
    import pyarrow as pa

    assert pa.Table.from_batches([first, *batches]).equals(whole)
