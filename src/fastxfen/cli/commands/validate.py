"""``fastxfen validate``: a message for every row that cannot be read."""

from __future__ import annotations

from fastxfen.cli.args import threads_for
from fastxfen.cli.commands.table import run_table
from fastxfen.cli.commands.text import TextJob, check_text_options, run_text
from fastxfen.cli.io import Output
from fastxfen.cli.tables import input_format


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
    kind = input_format(args)
    if kind != "text":
        return run_table(args, kind)
    check_text_options(args)
    return run_text(args, ValidateJob, "text")
