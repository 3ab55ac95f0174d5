"""``fastxfen validate``: a message for every row that cannot be read."""

from __future__ import annotations

from fastxfen import files
from fastxfen.cli import values
from fastxfen.cli.commands import execute


def run(args) -> int:
    """Run ``fastxfen validate``; return the exit status."""
    task = values.build(
        files.Validate, epd=args.epd, reasons_column=args.reasons_column, legal=args.legal
    )
    return execute(task, args)
