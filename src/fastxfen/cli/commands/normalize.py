"""``fastxfen normalize``: every row rewritten in canonical form (several
inputs with --dask: the dask command)."""

from __future__ import annotations

from fastxfen import files
from fastxfen.cli import values
from fastxfen.cli.commands import execute


def task(args) -> files.Normalize:
    """The task of normalize's arguments."""
    return values.build(
        files.Normalize,
        castling=args.castling,
        en_passant=args.en_passant,
        fields=args.fields,
        epd=args.epd,
        unique=args.unique,
        counters=args.counters,
        to_column=args.to_column,
    )


def run(args) -> int:
    """Run ``fastxfen normalize``; return the exit status."""
    return execute(task(args), args)
