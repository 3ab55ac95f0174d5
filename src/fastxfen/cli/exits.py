"""How the command line ends: parse the arguments, run the command, and
turn whatever stops it into its exit status and message."""

from __future__ import annotations

import contextlib
import os
import sys
import traceback

from fastxfen.cli.parser import build_parser
from fastxfen.files import report, signals, tables
from fastxfen.files.errors import RunError
from fastxfen.files.signals import Terminated

EXIT_OK = report.OK  #: every row was accepted
EXIT_REJECTED = report.REJECTED  #: some rows were rejected (coerce, ignore, validate)
EXIT_FAILED = report.FAILED  #: usage or I/O error, a missing package, a row rejected under raise
EXIT_INTERNAL = 70  #: an internal error (a bug in fastxfen; sysexits' EX_SOFTWARE)
EXIT_INTERRUPTED = 130  #: stopped by SIGINT (Ctrl-C)
EXIT_TERMINATED = 143  #: stopped by SIGTERM

#: What an internal error adds to its one-line message.
_INTERNAL_HINT = (
    "fastxfen: this is a bug in fastxfen: nothing was published; "
    "`python -X dev -m fastxfen ...` shows where it happened"
)


def run_argv(argv, commands: dict) -> int:
    """Parse ``argv`` and run its command (``commands`` maps a command's
    name to the function that runs it); return the exit status, whatever
    stops the run."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_FAILED
    status = _run(commands[args.command], args)
    # The run has let go of its readers; the process ends only once
    # pyarrow's threads have too (a signal now changes nothing).
    with signals.handled(), signals.deferred(drop=True):
        tables.released()
    return status


def _run(command, args) -> int:
    """The exit status of ``command(args)``, whatever stops it."""
    try:
        with signals.handled():
            return command(args)
    except (KeyboardInterrupt, Terminated) as exc:
        return _stopped(type(exc))
    except Exception as exc:
        # A signal's exception turned into another on its way (a Cython
        # module's import makes it a SystemError) still stops the run as
        # the signal does.
        by_signal = signals.raised()
        return _stopped(by_signal) if by_signal is not None else _error(exc)


def _stopped(exc: type) -> int:
    if exc is KeyboardInterrupt:
        print("fastxfen: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    print("fastxfen: terminated", file=sys.stderr)
    return EXIT_TERMINATED


def _error(exc: Exception) -> int:
    """The status of a run stopped by ``exc``, its message printed."""
    if isinstance(exc, (RunError, ImportError)):  # an ImportError names the extra
        return _failed(str(exc))
    if isinstance(exc, MemoryError):
        return _failed("out of memory; nothing was published")
    if isinstance(exc, BrokenPipeError):
        # The reader went away (e.g. `| head`): stop quietly, and keep Python
        # from complaining when it flushes stdout at exit.
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILED
    # anything else is a bug: a short message, its own status
    print(f"fastxfen: internal error: {type(exc).__name__}: {exc}", file=sys.stderr)
    print(_INTERNAL_HINT, file=sys.stderr)
    if sys.flags.dev_mode:
        traceback.print_exception(exc)
    return EXIT_INTERNAL


def _failed(message: str) -> int:
    print(f"fastxfen: error: {message}", file=sys.stderr)
    return EXIT_FAILED
