"""What a command tells its user: the progress bar, the rejects file, the
closing summary and the exit status."""

from __future__ import annotations

import sys
import time

from fastxfen._errors import FenError
from fastxfen.cli.io import Output, is_stdio

EXIT_OK = 0  #: every row was accepted
EXIT_REJECTED = 1  #: some rows were rejected (coerce, ignore, validate)
EXIT_FAILED = 2  #: usage or I/O error, or a rejected row under --errors raise
EXIT_INTERRUPTED = 130  #: stopped by SIGINT (Ctrl-C)
EXIT_TERMINATED = 143  #: stopped by SIGTERM


class Rejects:
    """The --rejects file (an Output, or None for none): one TSV line per
    rejected row."""

    def __init__(self, output: Output | None) -> None:
        self.output = output

    def add(self, number: int, error: FenError, original) -> None:
        """original: the row's bytes, or a chunks.LongLine (which copies
        itself)."""
        if self.output is None:
            return
        reason = error.reason.replace("\t", " ").replace("\n", " ")
        self.output.write(f"{number}\t{error.column}\t{error.field}\t{reason}\t".encode())
        if hasattr(original, "copy_to"):
            original.copy_to(self.output.write, terminator=False)
        else:
            self.output.write(original)
        self.output.write(b"\n")


def bar_wanted(args) -> bool:
    """Whether a command draws a progress bar: not with --quiet, nor while
    its input is typed at the terminal (the bar would be drawn over it)."""
    return not args.quiet and not (is_stdio(args.input) and _isatty(sys.stdin))


def _isatty(stream) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """A tqdm bar on stderr when it is a terminal, else nothing.  It is
    redrawn at most every MININTERVAL seconds, and moved at least that often
    while anything moves it: between two chunks, ``aim`` and ``part`` move
    it through a chunk as its output is written (``paced``)."""

    MININTERVAL = 0.25

    def __init__(self, enabled: bool, total=None, unit: str = "B") -> None:
        self.bar = None
        self.at = 0
        self._from = self._to = 0
        if not enabled or not _isatty(sys.stderr):
            return
        from tqdm import tqdm

        self.bar = tqdm(
            total=total,
            unit=unit,
            unit_scale=True,
            unit_divisor=1024 if unit == "B" else 1000,
            dynamic_ncols=True,
            leave=False,
            file=sys.stderr,
            mininterval=self.MININTERVAL,
        )

    def to(self, position: int) -> None:
        if self.bar is not None and position > self.at:
            self.bar.update(position - self.at)
            self.at = position

    def aim(self, position: int) -> None:
        """The bar stands at ``position`` once the chunk in hand is written."""
        self._from, self._to = self.at, max(self.at, position)

    def part(self, fraction: float) -> None:
        """That fraction of the chunk in hand is written."""
        self.to(int(self._from + (self._to - self._from) * fraction))

    def paced(self, output: Output):
        """``output``, writing in slices that move the bar when it is
        compressed (compressing a chunk of xz takes seconds)."""
        if self.bar is None or output.kind is None:
            return output
        return PacedOutput(output, self)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


class PacedOutput:
    """An Output written in slices of SLICE bytes, the bar moved after each:
    a slice is handed to the background writer once the one before is
    compressed and written, so the bar follows the compression."""

    SLICE = 256 << 10

    def __init__(self, output: Output, progress: Progress) -> None:
        self.output = output
        self.progress = progress

    def write(self, data) -> None:
        view = memoryview(data).cast("B")
        size = len(view)
        for at in range(0, size, self.SLICE):
            self.output.write(view[at : at + self.SLICE])
            self.progress.part(min(size, at + self.SLICE) / size)

    def __getattr__(self, name):
        return getattr(self.output, name)


class Stats:
    """Rows read, written and rejected by one run, and its closing line."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.read = 0
        self.written = 0
        self.rejected = 0
        self.coerced_as = "empty lines"  # what --errors coerce writes
        self.duplicates = None  # rows dropped as duplicates (dedupe, --unique)
        self.started = time.perf_counter()

    def summary(self, errors: str | None, stopped_at: int | None, unit: str) -> str:
        seconds = max(time.perf_counter() - self.started, 1e-9)
        parts = [f"{self.read:,} rows read"]
        if self.command != "validate":
            parts.append(f"{self.written:,} written")
        rejected = f"{self.rejected:,} rejected"
        if self.rejected and stopped_at is None:
            dropped = self.duplicates is not None
            rejected += {
                "coerce": " (dropped)" if dropped else f" (written as {self.coerced_as})",
                "ignore": " (passed through unchanged)",
            }.get(errors, "")
        parts.append(rejected)
        if self.duplicates is not None:
            parts.append(f"{self.duplicates:,} duplicates dropped")
        text = f"fastxfen {self.command}: " + ", ".join(parts)
        if stopped_at is not None:
            text += f"; stopped at {unit} {stopped_at}"
        return text + f" in {seconds:.2f} s ({self.read / seconds:,.0f} positions/s)"


def finish(args, stats: Stats, stopped, unit: str) -> int:
    """Print the summary (and the error that ``stopped`` the run, a Rejected
    or None); return the exit status."""
    if not args.quiet:
        print(
            stats.summary(getattr(args, "errors", None), stopped.number if stopped else None, unit),
            file=sys.stderr,
        )
    if stopped is not None:
        print(f"fastxfen: error: {stopped}", file=sys.stderr)
        if not args.quiet:
            print(
                "fastxfen: --errors raise stops at the first rejected row and writes "
                "no output file; --errors coerce keeps going and --rejects FILE lists "
                "every rejected row",
                file=sys.stderr,
            )
        return EXIT_FAILED
    return EXIT_REJECTED if stats.rejected else EXIT_OK
