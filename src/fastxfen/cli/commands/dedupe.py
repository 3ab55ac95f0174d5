"""``fastxfen dedupe``: the rows holding the first occurrence of their
position, unchanged and in input order (a table: commands.table)."""

from __future__ import annotations

from fastxfen.cli.args import threads_for
from fastxfen.cli.commands.table import run_rows
from fastxfen.cli.commands.text import TextJob
from fastxfen.cli.io import Output
from fastxfen.cli.unique import Unique


class DedupeJob(TextJob):
    """Text -> the lines of first occurrences (and, under --errors ignore,
    the rejected lines)."""

    def __init__(self, args, stats, rejects, output: Output) -> None:
        super().__init__(args, stats, rejects)
        self.output = output
        self.unique = Unique(args, stats)

    def run(self, batch, n):
        a = self.args
        return batch.encode(width=10, errors="coerce", threads=threads_for(a, n), epd=a.epd)

    def rejections(self, batch, result):
        rejected = batch.rejections()
        self._failed = [row for row, _ in rejected]
        return rejected

    def emit(self, records, upto):
        passed = self._failed if self.errors == "ignore" else []
        self.unique.write(self.output, self.text, records, upto, passed)

    def on_long_line(self, item):
        if self.errors == "ignore":
            item.copy_to(self.output.write)
        else:  # a coerced row holds no position: dropped
            self.stats.written -= 1


def run(args) -> int:
    """Run ``fastxfen dedupe``; return the exit status."""
    return run_rows(args, DedupeJob, "text")
