"""``fastxfen decode``: the rows of a binary file (by --format) back to
text, one line per row."""

from __future__ import annotations

from fastxfen import files
from fastxfen.cli import values
from fastxfen.cli.commands import execute

#: The options of decode that apply to some formats only (decode's
#: --en-passant is the text's).
OPTIONS = ("extra", "perspective")


def run(args) -> int:
    """Run ``fastxfen decode``; return the exit status."""
    kind = values.binary_format(args, OPTIONS, decoding=True)
    task = values.build(
        files.Decode,
        format=kind,
        castling=args.castling,
        en_passant=args.en_passant,
        fields=args.fields,
    )
    return execute(task, args)
