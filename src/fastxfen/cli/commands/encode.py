"""``fastxfen encode``: text to the rows of a binary file, by --format."""

from __future__ import annotations

from fastxfen.cli import formats
from fastxfen.cli.args import check_format_options, threads_for
from fastxfen.cli.commands.table import run_rows
from fastxfen.cli.commands.text import TextJob

#: The options that apply to some formats only.
OPTIONS = {
    "width": ("npy", "planes"),
    "en_passant": ("lichess", "stockfish", "planes"),
    "extra": ("planes",),
    "perspective": ("planes",),
    "dtype": ("planes",),
}


class EncodeJob(TextJob):
    """Text -> records -> the rows of one --format (see cli.formats)."""

    def __init__(self, args, stats, rejects, writer, encoder) -> None:
        super().__init__(args, stats, rejects)
        self.writer = writer
        self.encoder = encoder

    def run(self, batch, n):
        a = self.args
        records = batch.encode(
            width=self.encoder.width, errors="coerce", threads=threads_for(a, n), epd=a.epd
        )
        return self.encoder.convert(records)

    def rejections(self, batch, result):
        return formats.merge(batch.rejections(), result[1])

    def emit(self, result, upto):
        self.writer.write(self.encoder.cut(result[0], upto))

    def on_long_line(self, item):
        self.writer.write(self.encoder.null())


def run(args) -> int:
    """Run ``fastxfen encode``; return the exit status."""
    check_format_options(args, OPTIONS)
    return run_rows(args, EncodeJob, "binary")
