"""``fastxfen pgn``: the FEN tags of a PGN file normalized (fastxfen.pgn),
with the files, progress bar and exit statuses of the other commands."""

from __future__ import annotations

from fastxfen import files
from fastxfen.cli import values
from fastxfen.cli.commands import execute


def run(args) -> int:
    """Run ``fastxfen pgn``; return the exit status."""
    task = values.build(
        files.Pgn, castling=args.castling, en_passant=args.en_passant, select=args.select
    )
    return execute(task, args)
