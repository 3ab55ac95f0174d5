"""How a run stops on a signal: under ``handled`` (the command line
installs it) SIGINT raises KeyboardInterrupt and SIGTERM raises Terminated
in the main thread, so that the outputs' temporary files are removed on the
way out (publication.Publication); while the outputs are being renamed into
place a signal waits until the renaming is done.  SIGXFSZ (a file size
limit) is ignored: the write fails with EFBIG, an error like a full disk.

Without ``handled`` (a run called from Python, or outside the main thread)
signals keep the handlers the program set, and ``deferred`` holds nothing
back."""

from __future__ import annotations

import contextlib
import queue
import signal
import threading


class Terminated(BaseException):
    """SIGTERM, raised in the main thread like KeyboardInterrupt for SIGINT;
    the command line ends with exit status 143."""


_EXCEPTIONS = {signal.SIGINT: KeyboardInterrupt, signal.SIGTERM: Terminated}


class _State:
    deferring = False
    drop = False
    pending = None  # the exception of a signal that came while deferring
    raised = None  # the exception of the last signal raised during the run


def _handler(signum, frame) -> None:
    exc = _EXCEPTIONS[signum]
    if _State.deferring:
        _State.pending = _State.pending or exc
        return
    _raise(exc)


def _raise(exc) -> None:
    _State.raised = exc
    raise exc()


@contextlib.contextmanager
def handled():
    """Signals turned into exceptions while the block runs (main thread only;
    elsewhere the block runs as it is), the previous handlers restored after.
    An error that ends the block after a signal's exception was swallowed
    ends it as that signal (see ``swallowed``)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    names = [*_EXCEPTIONS, *([signal.SIGXFSZ] if hasattr(signal, "SIGXFSZ") else [])]
    before = {signum: signal.getsignal(signum) for signum in names}
    _State.raised = None
    try:
        for signum in _EXCEPTIONS:
            signal.signal(signum, _handler)
        if hasattr(signal, "SIGXFSZ"):
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        try:
            yield
        except Exception:
            # The swallowed exception may have stopped an import half way
            # (pyarrow's of pandas), and a later use of the module fails.
            swallowed()
            raise
    finally:
        for signum, previous in before.items():
            signal.signal(signum, previous if previous is not None else signal.SIG_DFL)


def _main() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def deferred(drop: bool = False):
    """SIGINT and SIGTERM held back while the block runs (in the main
    thread), then raised, or with ``drop`` forgotten (the run is stopping
    anyway).  An exception raised by a signal handler at any bytecode could
    leave a lock of a queue or semaphore held and the next wait on it hung;
    the waits of the threads that read and write for the main one run in
    such blocks, polling ``check``."""
    if not _main() or _State.deferring:  # not ours, or held back already
        yield
        return
    _State.deferring, _State.pending, _State.drop = True, None, drop
    try:
        yield
    finally:
        _State.deferring = False
        pending, _State.pending = _State.pending, None
    if pending is not None and not drop:
        _raise(pending)


def swallowed() -> None:
    """Raise again the exception of a signal that was raised during the run
    but never reached the command: code that catches every exception (as
    pyarrow does around its lazy import of pandas) can swallow it.  Called
    where the run would otherwise publish its outputs, and when an error
    ends the run."""
    if _main() and _State.raised is not None:
        raise _State.raised()


def raised():
    """The exception class of the last signal raised during the run (in the
    main thread; a run elsewhere takes no signal), or None."""
    return _State.raised if _main() else None


def check() -> None:
    """Raise the exception of a signal held back by ``deferred`` (at a point
    of the block where that is safe)."""
    if _State.pending is not None and not _State.drop and _main():
        pending, _State.pending = _State.pending, None
        _raise(pending)


#: Seconds between two looks at held-back signals while waiting.
POLL = 0.05


def wait(acquire) -> None:
    """``acquire(timeout=...)`` (of a lock or semaphore) until it succeeds,
    raising held-back signals meanwhile."""
    while not acquire(timeout=POLL):
        check()


def get(q):
    """The next item of queue ``q``, raising held-back signals meanwhile."""
    while True:
        try:
            return q.get(timeout=POLL)
        except queue.Empty:
            check()
