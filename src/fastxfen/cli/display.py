"""What the command line shows on stderr while a run goes and when it
ends: the progress bar (tqdm), the notice that the input is read from the
terminal, and the closing lines."""

from __future__ import annotations

import os
import sys

#: The size assumed for a terminal that reports none (0 columns or lines).
FALLBACK_SIZE = (80, 24)


def _size(stream):
    """The (columns, lines) of the terminal ``stream`` writes to, 0 for
    what it does not report."""
    try:
        return tuple(os.get_terminal_size(stream.fileno()))
    except (AttributeError, OSError, ValueError):
        return (0, 0)


def _isatty(stream) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        return False


class Bar:
    """A tqdm bar on stderr, drawn as a run reports its position (a
    progress callback of fastxfen.files).  It is redrawn at most every
    MININTERVAL seconds, as wide as the terminal; on a terminal that
    reports no size, where tqdm draws nothing, as wide as FALLBACK_SIZE
    says."""

    MININTERVAL = 0.25

    def __init__(self) -> None:
        self.bar = None
        self.at = 0

    def __call__(self, position: int, total, unit: str) -> None:
        if self.bar is None:
            from tqdm import tqdm

            columns, lines = _size(sys.stderr)
            sized = columns > 0 and lines > 0
            self.bar = tqdm(
                total=total,
                unit=unit,
                unit_scale=True,
                unit_divisor=1024 if unit == "B" else 1000,
                dynamic_ncols=sized,
                ncols=None if sized else columns or FALLBACK_SIZE[0],
                nrows=None if sized else lines or FALLBACK_SIZE[1],
                leave=False,
                file=sys.stderr,
                mininterval=self.MININTERVAL,
            )
        if position > self.at:
            self.bar.update(position - self.at)
            self.at = position

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def bar(args) -> Bar | None:
    """The progress bar of a command: none with --quiet, nor while its
    input is typed at the terminal (the bar would be drawn over it), nor
    when stderr is no terminal."""
    typed = args.input in (None, "-") and _isatty(sys.stdin)
    if args.quiet or typed or not _isatty(sys.stderr):
        return None
    return Bar()


def notice(message: str) -> None:
    """A message for the user while the run goes."""
    print(f"fastxfen: {message}", file=sys.stderr)


def closing(result, quiet: bool) -> int:
    """Print the closing lines of a run's result (files.Stats or
    PgnReport); return its exit status."""
    sys.stderr.write(result.closing(quiet))
    return result.status
