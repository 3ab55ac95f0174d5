"""pgn: the FEN tags of a PGN file normalized (fastxfen.pgn), with the
inputs, outputs, progress and rejects of every other run."""

from __future__ import annotations

import contextlib
import os
from typing import Callable, Optional

from fastxfen import pgn
from fastxfen.files.errors import Rejected, RunError
from fastxfen.files.inputs import Input
from fastxfen.files.prefetch import prefetch
from fastxfen.files.publication import open_outputs
from fastxfen.files.report import PgnReport

TERMINAL_NOTICE = "reading PGN from the terminal (end with Ctrl-D)"


def progress_of(progress, source) -> Optional[Callable[[], None]]:
    """What moves the progress, if anyone is told, after each chunk.  The
    position comes from the file descriptor: asking the file object would
    wait for the read that the reader thread is doing."""
    if progress.report is None:
        return None

    def update() -> None:
        try:
            at = os.lseek(source.raw.fileno(), 0, os.SEEK_CUR)
        except (OSError, ValueError, AttributeError):
            at = source.position()
        progress.to(at)

    return update


def run_pgn(run) -> PgnReport:
    """Run the pgn task over ``run.source``; return its report."""
    task, settings = run.task, run.settings
    try:
        with contextlib.ExitStack() as stack:
            source = Input(run.source, stack)
            if source.on_terminal and settings.notice is not None:
                settings.notice(TERMINAL_NOTICE)
            output, rejects = open_outputs(run.source, run.target, settings, stack, False)
            run.progress.start(source.size)
            size = settings.chunk_size
            blocks = iter(lambda: source.read(size), b"")
            try:
                stats = pgn.stream_pgn(
                    blocks,
                    output.write,
                    castling=task.text.castling,
                    en_passant=task.text.en_passant,
                    errors=run.errors,
                    select=task.select,
                    threads=settings.threads.asked,
                    reject=rejects.write if rejects is not None else None,
                    spill=4 * size,
                    progress=progress_of(run.progress, source),
                    # (not for stdin: a reader thread blocked on it at exit can
                    # abort the interpreter when a run stops early)
                    prefetch=prefetch if source.path is not None else None,
                )
            except pgn.PgnError as exc:
                raise Rejected(exc.game, exc, "game") from None
            except pgn.PgnFormatError as exc:
                raise RunError(f"{source.name}: {exc}") from None
    except Rejected as exc:  # nothing was published
        return PgnReport(exc.error.stats, run.errors, exc.error)
    # Everything is written and closed before reporting.
    return PgnReport(stats, run.errors)
