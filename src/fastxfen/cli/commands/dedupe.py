"""``fastxfen dedupe``: the rows holding the first occurrence of their
position, unchanged and in input order."""

from __future__ import annotations

from fastxfen import files
from fastxfen.cli import values
from fastxfen.cli.commands import execute


def run(args) -> int:
    """Run ``fastxfen dedupe``; return the exit status."""
    task = values.build(
        files.Dedupe, en_passant=args.en_passant, counters=args.counters, epd=args.epd
    )
    return execute(task, args)
