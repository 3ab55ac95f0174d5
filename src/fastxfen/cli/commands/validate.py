"""``fastxfen validate``: a message for every row that cannot be read."""

from __future__ import annotations

from fastxfen.cli.args import threads_for
from fastxfen.cli.commands.table import run_rows
from fastxfen.cli.commands.text import TextJob
from fastxfen.cli.io import Output


class ValidateJob(TextJob):
    """Text -> one message line per rejected row."""

    def __init__(self, args, stats, rejects, output: Output) -> None:
        super().__init__(args, stats, rejects)
        self.output = output
        self.messages: list = []

    def run(self, batch, n):
        return batch.validate(threads=threads_for(self.args, n), epd=self.args.epd)

    def emit(self, result, upto):
        pass

    def reject(self, number, error, original):
        self.messages.append(f"{number}: {error.location}: {error.reason}\n")
        super().reject(number, error, original)

    def after_chunk(self):
        if self.messages:
            self.output.write("".join(self.messages).encode())
            self.messages = []

    def on_long_line(self, item):
        pass

    def long_line(self, item, line):
        super().long_line(item, line)
        self.after_chunk()


def run(args) -> int:
    """Run ``fastxfen validate``; return the exit status."""
    return run_rows(args, ValidateJob, "text")
