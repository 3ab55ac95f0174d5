"""``fastxfen pgn``: the FEN tags of a PGN file normalized (fastxfen.pgn),
with the files, progress bar and exit statuses of the other commands."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Callable, Iterator, Optional

from fastxfen import pgn
from fastxfen.cli.chunks import prefetch
from fastxfen.cli.errors import CliError
from fastxfen.cli.io import Input, Output, open_output
from fastxfen.cli.mapped import map_input
from fastxfen.cli.report import EXIT_FAILED, EXIT_OK, EXIT_REJECTED, Progress, bar_wanted


def _mapped_blocks(source, size: int) -> Optional[Iterator[pgn.MappedBlock]]:
    """Blocks of ``size`` bytes of a regular, uncompressed input file read
    through a memory map (no read copies), or None if it cannot be mapped.
    ``source.consumed`` follows the blocks, for the progress bar."""
    mapped = map_input(source)
    if mapped is None:
        return None
    whole = mapped.view

    def blocks() -> Iterator[pgn.MappedBlock]:
        for at in range(0, len(whole), size):
            # the block before last is done with by now
            mapped.release(at - 2 * size)
            end = min(at + size, len(whole))
            source.consumed = end
            yield pgn.MappedBlock(whole, at, end)

    return blocks()


def _progress(progress, source, mapped: bool) -> Optional[Callable[[], None]]:
    """What moves the progress bar, if there is one, after each chunk.  The
    position comes from the blocks made of a memory-mapped file, else from
    the file descriptor: asking the file object would wait for the read that
    the reader thread is doing."""
    if progress.bar is None:
        return None

    def update() -> None:
        if mapped:
            at = source.consumed
        else:
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
    with contextlib.ExitStack() as stack:
        source = Input(args.input, stack)
        if source.path is None and sys.stdin.isatty() and not args.quiet:
            print("fastxfen: reading PGN from the terminal (end with Ctrl-D)", file=sys.stderr)
        output = open_output(args, stack, binary=False)
        rejects = None
        if args.rejects:
            rejects = Output(args.rejects)
            stack.callback(rejects.close)
        progress = Progress(bar_wanted(args), source.size)
        stack.callback(progress.close)
        size = args.chunk_size
        blocks = _mapped_blocks(source, size)
        mapped = blocks is not None
        if blocks is None:
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
                progress=_progress(progress, source, mapped),
                # (not for stdin: a reader thread blocked on it at exit can
                # abort the interpreter when a run stops early)
                prefetch=prefetch if source.path is not None else None,
            )
        except pgn.PgnError as exc:
            stopped, stats = exc, exc.stats
        except pgn.PgnFormatError as exc:
            raise CliError(f"{source.name}: {exc}") from None
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
                "fastxfen: --errors raise stops at the first rejected FEN tag; --errors "
                "coerce drops its game and goes on, and --rejects FILE keeps the dropped "
                "games",
                file=sys.stderr,
            )
        return EXIT_FAILED
    return EXIT_REJECTED if stats.rejected else EXIT_OK
