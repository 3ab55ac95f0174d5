"""What a command tells its user: the progress bar, the rejects file, the
closing summary and the exit status."""

from __future__ import annotations

import sys
import time

from fastxfen._errors import FenError
from fastxfen.cli.io import Output

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


class Progress:
    """A tqdm bar on stderr when it is a terminal, else nothing."""

    def __init__(self, enabled: bool, total=None, unit: str = "B") -> None:
        self.bar = None
        self.at = 0
        if not enabled:
            return
        try:
            isatty = sys.stderr.isatty()
        except (AttributeError, ValueError):
            isatty = False
        if not isatty:
            return
        try:
            from tqdm import tqdm
        except ImportError:
            return
        self.bar = tqdm(
            total=total,
            unit=unit,
            unit_scale=True,
            unit_divisor=1024 if unit == "B" else 1000,
            dynamic_ncols=True,
            leave=False,
            file=sys.stderr,
        )

    def to(self, position: int) -> None:
        if self.bar is not None and position > self.at:
            self.bar.update(position - self.at)
            self.at = position

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


class Stats:
    """Rows read, written and rejected by one run, and its closing line."""

    def __init__(self, command: str) -> None:
        self.command = command
        self.read = 0
        self.written = 0
        self.rejected = 0
        self.coerced_as = "empty lines"  # what --errors coerce writes
        self.started = time.perf_counter()

    def summary(self, errors: str | None, stopped_at: int | None, unit: str) -> str:
        seconds = max(time.perf_counter() - self.started, 1e-9)
        parts = [f"{self.read:,} rows read"]
        if self.command != "validate":
            parts.append(f"{self.written:,} written")
        rejected = f"{self.rejected:,} rejected"
        if self.rejected and stopped_at is None:
            rejected += {
                "coerce": f" (written as {self.coerced_as})",
                "ignore": " (passed through unchanged)",
            }.get(errors, "")
        parts.append(rejected)
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
                "fastxfen: --errors raise stops at the first rejected row; "
                "--errors coerce keeps going and --rejects FILE lists every rejected row",
                file=sys.stderr,
            )
        return EXIT_FAILED
    return EXIT_REJECTED if stats.rejected else EXIT_OK
