"""One module per command of ``fastxfen``; each has ``run(args)``, which
builds the command's task from its arguments, runs it through the file
engine (``execute``) and returns the exit status."""

from __future__ import annotations

from fastxfen import files
from fastxfen.cli import display, values


def execute(task, args) -> int:
    """Run ``task`` from ``args.input`` to ``args.output`` with the
    command's settings, the progress bar drawn meanwhile; print the closing
    lines and return the exit status."""
    bar = display.bar(args)
    settings = values.settings(args, bar)
    try:
        result = files.run(task, args.input, args.output, settings)
    finally:
        if bar is not None:
            bar.close()
    return display.closing(result, args.quiet)
