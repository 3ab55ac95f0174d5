"""``fastxfen pgn``: the FEN tags of a PGN file normalized (fastxfen.pgn),
with the files, progress bar and exit statuses of the other commands."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Callable, Optional

from fastxfen import pgn
from fastxfen.cli.chunks import prefetch
from fastxfen.cli.errors import CliError, Rejected
from fastxfen.cli.io import Input, open_outputs
from fastxfen.cli.report import EXIT_FAILED, EXIT_OK, EXIT_REJECTED, Progress, bar_wanted


def _progress(progress, source) -> Optional[Callable[[], None]]:
    """What moves the progress bar, if there is one, after each chunk.  The
    position comes from the file descriptor: asking the file object would
    wait for the read that the reader thread is doing."""
    if progress.bar is None:
        return None

    def update() -> None:
        try:
            at = os.lseek(source.raw.fileno(), 0, os.SEEK_CUR)
        except (OSError, ValueError, AttributeError):
            at = source.position()
        progress.to(at)

    return update


def run(args) -> int:
    """Run ``fastxfen pgn``; return the exit status."""
    stats = None
    stopped = None
    try:
        with contextlib.ExitStack() as stack:
            source = Input(args.input, stack)
            if source.path is None and sys.stdin.isatty() and not args.quiet:
                print("fastxfen: reading PGN from the terminal (end with Ctrl-D)", file=sys.stderr)
            output, rejects = open_outputs(args, stack, binary=False)
            progress = Progress(bar_wanted(args), source.size)
            stack.callback(progress.close)
            size = args.chunk_size
            blocks = iter(lambda: source.read(size), b"")
            try:
                stats = pgn.stream_pgn(
                    blocks,
                    output.write,
                    castling=args.castling,
                    en_passant=args.en_passant,
                    errors=args.errors,
                    select=args.select,
                    threads=args.threads,
                    reject=rejects.write if rejects is not None else None,
                    spill=4 * size,
                    progress=_progress(progress, source),
                    # (not for stdin: a reader thread blocked on it at exit can
                    # abort the interpreter when a run stops early)
                    prefetch=prefetch if source.path is not None else None,
                )
            except pgn.PgnError as exc:
                raise Rejected(exc.game, exc, "game") from None
            except pgn.PgnFormatError as exc:
                raise CliError(f"{source.name}: {exc}") from None
    except Rejected as exc:  # nothing was published
        stopped, stats = exc.error, exc.error.stats
    # Everything is written and closed before reporting.
    if not args.quiet:
        print(stats.summary(args.errors, stopped), file=sys.stderr)
    if stopped is not None:
        print(
            f"fastxfen: error: game {stopped.game}, line {stopped.line}: "
            f"{stopped.location}: {stopped.reason}",
            file=sys.stderr,
        )
        if not args.quiet:
            print(
                "fastxfen: --errors raise stops at the first rejected FEN tag and "
                "writes no output file; --errors coerce drops its game and goes on, and "
                "--rejects FILE keeps the dropped games",
                file=sys.stderr,
            )
        return EXIT_FAILED
    return EXIT_REJECTED if stats.rejected else EXIT_OK
