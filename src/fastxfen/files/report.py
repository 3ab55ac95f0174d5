"""What a run over files reports: its statistics, the closing lines the
command line prints (summary, the row that stopped it), the status it ends
with, and the rejects file of text inputs."""

from __future__ import annotations

import time

from fastxfen import _options
from fastxfen._errors import FenError

OK = 0  #: every row was accepted
REJECTED = 1  #: some rows were rejected (coerce, ignore, validate)
FAILED = 2  #: a setting, input or output trouble, or a row rejected under "raise"
#: The summary gives a rate only for runs at least this long: the rate of
#: a shorter one measures the start of the process, not the work.
RATE_AFTER_SECONDS = 1.0

_RAISE_HINT = (
    "fastxfen: --errors raise stops at the first rejected row and writes no output file; "
    "--errors coerce keeps going and --rejects FILE lists every rejected row"
)
_PGN_RAISE_HINT = (
    "fastxfen: --errors raise stops at the first rejected FEN tag and writes no output "
    "file; --errors coerce drops its game and goes on, and --rejects FILE keeps the "
    "dropped games"
)


class Rejects:
    """The rejects file of a text input (an Output, or None for none): one
    TSV line per rejected row."""

    def __init__(self, output) -> None:
        self.output = output

    def add(self, number: int, error: FenError, original) -> None:
        """original: the row's bytes, or a text_chunks.LongLine (which copies
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


class Stats:
    """Rows read, written and rejected by one run of ``command``, numbered
    by ``unit`` (line, row or record) under ``errors`` (an ErrorsMode, or
    None); ``stopped`` is the Rejected that stopped it under errors "raise",
    if one did."""

    def __init__(self, command: str, errors, unit: str = "line") -> None:
        self.command = command
        self.errors = errors
        self.unit = unit
        self.read = 0
        self.written = 0
        self.rejected = 0
        self.coerced_as = "empty lines"  # what errors "coerce" writes (None: nothing)
        self.duplicates: int | None = None  # rows dropped as duplicates (dedupe, unique)
        self.stopped = None
        self.hint: str | None = None  # advice on what went wrong, if any
        self.started = time.perf_counter()

    def stop(self, rejected) -> None:
        """The run stopped at the Rejected row ``rejected``."""
        self.stopped = rejected
        self.read = rejected.number  # the rows up to the rejected one

    @property
    def status(self) -> int:
        """The run's exit status: OK, REJECTED or FAILED."""
        if self.stopped is not None:
            return FAILED
        return REJECTED if self.rejected else OK

    def summary(self) -> str:
        seconds = max(time.perf_counter() - self.started, 1e-9)
        parts = [f"{self.read:,} rows read"]
        if self.command != "validate":
            parts.append(f"{self.written:,} written")
        rejected = f"{self.rejected:,} rejected"
        if self.rejected and self.stopped is None:
            dropped = self.duplicates is not None or self.coerced_as is None
            rejected += {
                "coerce": " (dropped)" if dropped else f" (written as {self.coerced_as})",
                "ignore": " (passed through unchanged)",
            }.get(_options.text(self.errors), "")
        parts.append(rejected)
        if self.duplicates is not None:
            parts.append(f"{self.duplicates:,} duplicates dropped")
        text = f"fastxfen {self.command}: " + ", ".join(parts)
        if self.stopped is not None:
            text += f"; stopped at {self.unit} {self.stopped.number}"
        text += f" in {seconds:.2f} s"
        if seconds >= RATE_AFTER_SECONDS:
            text += f" ({self.read / seconds:,.0f} positions/s)"
        return text

    def closing(self, quiet: bool = False) -> str:
        """The lines the command line ends with: the summary (not when
        ``quiet``), the row that stopped the run, and a hint (``hint``, or
        how --errors goes on)."""
        lines = [] if quiet else [self.summary()]
        if self.stopped is not None:
            lines.append(f"fastxfen: error: {self.stopped}")
            if self.hint is not None:
                lines.append(f"fastxfen: {self.hint}")
            elif not quiet:
                lines.append(_RAISE_HINT)
        elif self.hint is not None and not quiet:
            lines.append(f"fastxfen: {self.hint}")
        return "".join(line + "\n" for line in lines)


class PgnReport:
    """What a run of ``pgn`` did: its fastxfen.pgn.PgnStats, and the
    PgnError that stopped it under errors "raise", if one did; the same
    ``status`` and ``closing`` as Stats."""

    def __init__(self, stats, errors: str, stopped=None) -> None:
        self.stats = stats
        self.errors = errors
        self.stopped = stopped

    @property
    def status(self) -> int:
        if self.stopped is not None:
            return FAILED
        return REJECTED if self.stats.rejected else OK

    def closing(self, quiet: bool = False) -> str:
        summary = self.stats.summary(_options.text(self.errors), self.stopped)
        lines = [] if quiet else [summary]
        stopped = self.stopped
        if stopped is not None:
            lines.append(
                f"fastxfen: error: game {stopped.game}, line {stopped.line}: "
                f"{stopped.location}: {stopped.reason}"
            )
            if not quiet:
                lines.append(_PGN_RAISE_HINT)
        return "".join(line + "\n" for line in lines)
