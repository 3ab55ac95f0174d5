"""``fastxfen encode``: text to the rows of a binary file, by --format."""

from __future__ import annotations

from fastxfen import files
from fastxfen.cli import values
from fastxfen.cli.commands import execute


def run(args) -> int:
    """Run ``fastxfen encode``; return the exit status."""
    kind = values.binary_format(args, values.FORMAT_OPTIONS)
    return execute(values.build(files.Encode, format=kind, epd=args.epd), args)
