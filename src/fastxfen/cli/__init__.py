"""The ``fastxfen`` command: normalize, validate, encode, decode, dedupe and
pgn on files of any size, run by the library's file engine
(fastxfen.files).

The package keeps what belongs to a command line: ``parser`` and
``help_texts`` (the arguments and their help), ``values`` (the arguments
turned into the engine's values), ``display`` (progress bar, notices,
closing lines), ``exits`` (exit statuses), ``heap`` (freed buffers kept
for the next chunks, glibc) and ``commands``, one thin module per command.
The library (fastxfen.*) never imports this package.
"""

from __future__ import annotations

from fastxfen.cli import heap
from fastxfen.cli.commands import dask, decode, dedupe, encode, help, normalize, pgn, validate
from fastxfen.cli.exits import run_argv

__all__ = ["main"]


def _normalize(args) -> int:
    if args.dask or args.more_inputs:
        return dask.run(args)
    return normalize.run(args)


#: The function that runs each command.
COMMANDS = {
    "normalize": _normalize,
    "validate": validate.run,
    "encode": encode.run,
    "decode": decode.run,
    "dedupe": dedupe.run,
    "pgn": pgn.run,
    "help": help.run,
}


def main(argv=None) -> int:
    """Run the command line ``argv`` (default: sys.argv[1:]); return the exit status."""
    heap.reuse_freed_blocks()
    return run_argv(argv, COMMANDS)
