"""The ``fastxfen`` command: normalize, validate, encode, decode, dedupe and
pgn, on files of any size (FEN text, or tables: Parquet, Arrow IPC, CSV/TSV,
JSON Lines) streamed in chunks, so that memory stays bounded.

The package is cut by role: ``args`` parses the command line, ``io`` opens
the inputs and outputs, ``chunks`` cuts the input into the pieces converted
one at a time, ``tables`` reads and writes the table formats, ``unique``
keeps the first occurrence of each position, ``heap`` keeps freed buffers
for the next chunks (glibc), ``report`` tells the user
(progress, rejects file, summary, exit status), ``formats`` converts records
to the rows of encode's and decode's --format, and ``commands`` holds one
module per command.  The library (fastxfen.*) never imports this package.
"""

from __future__ import annotations

from fastxfen.cli import heap
from fastxfen.cli.args import run_argv
from fastxfen.cli.commands import dask, decode, dedupe, encode, normalize, pgn, validate

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
}


def main(argv=None) -> int:
    """Run the command line ``argv`` (default: sys.argv[1:]); return the exit status."""
    heap.reuse_freed_blocks()
    return run_argv(argv, COMMANDS)
