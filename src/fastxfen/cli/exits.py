"""How the command line ends: parse the arguments, run the command, and
turn whatever stops it into its exit status and message."""

from __future__ import annotations

import contextlib
import os
import sys

from fastxfen.cli.parser import build_parser
from fastxfen.files import report, signals
from fastxfen.files.errors import RunError
from fastxfen.files.signals import Terminated

EXIT_OK = report.OK  #: every row was accepted
EXIT_REJECTED = report.REJECTED  #: some rows were rejected (coerce, ignore, validate)
EXIT_FAILED = report.FAILED  #: usage or I/O error, or a rejected row under --errors raise
EXIT_INTERRUPTED = 130  #: stopped by SIGINT (Ctrl-C)
EXIT_TERMINATED = 143  #: stopped by SIGTERM


def run_argv(argv, commands: dict) -> int:
    """Parse ``argv`` and run its command (``commands`` maps a command's
    name to the function that runs it); return the exit status, whatever
    stops the run."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_FAILED
    try:
        with signals.handled():
            return commands[args.command](args)
    except RunError as exc:
        print(f"fastxfen: error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, and keep Python
        # from complaining when it flushes stdout at exit.
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILED
    except KeyboardInterrupt:
        print("fastxfen: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Terminated:
        print("fastxfen: terminated", file=sys.stderr)
        return EXIT_TERMINATED
