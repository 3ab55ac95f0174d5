"""What the three text commands (normalize, validate, encode) share: a
TextJob runs the library on each chunk of lines, writes the rows before a
stop, and reports the rejected rows by their line in the whole input.

Reading (and decompressing) the next chunk runs in one background thread and
writing (and compressing) the previous result in another, each holding at most
one chunk, while the library converts the current chunk on its own threads.
Under ``--errors raise`` a chunk is still converted in coerce mode, so that the
rows before the first rejected one reach stdout before the run stops (an
output file is not published).
"""

from __future__ import annotations

import contextlib
import sys

from fastxfen import _bulk, _codec, _options
from fastxfen._errors import FenError
from fastxfen.cli import chunks, formats, tables
from fastxfen.cli.args import make
from fastxfen.cli.chunks import LongLine, prefetch
from fastxfen.cli.errors import CliError, Rejected
from fastxfen.cli.io import Input, NpyWriter, StreamWriter, close_at_end, open_outputs
from fastxfen.cli.report import Progress, Rejects, Stats, bar_wanted, finish

_WIDE_ROW_HINT = "a 10-wide position needs --width 10"


def _for_the_command_line(error: FenError) -> FenError:
    """The error as the command line words it: a row too wide for the
    records asked for names --width rather than encode()'s argument."""
    if error.code == _codec.E_WIDE_ROW:
        return FenError(error.index, error.column, error.field, _WIDE_ROW_HINT)
    return error


class TextJob:
    """Runs one text command over the chunks of the input.  A subclass gives
    ``run`` (the library call on a batch), ``emit`` (write the first rows of
    its result) and ``on_long_line``."""

    counts_first = True  # whether run needs the batch's lines counted first

    def __init__(self, args, stats: Stats, rejects: Rejects) -> None:
        self.args = args
        self.stats = stats
        self.rejects = rejects
        self.errors = getattr(args, "errors", None)
        self.raise_mode = self.errors == "raise"
        self.text = None  # the chunk being handled, for run and emit

    def reject(self, number: int, error: FenError, original) -> None:
        self.stats.rejected += 1
        self.rejects.add(number, error, original)
        if self.raise_mode:
            raise Rejected(number, error)

    def chunk(self, chunk, line: int) -> int:
        """Handle a buffer of whole lines, the first being line ``line + 1``;
        return the number of rows."""
        self.text = chunk
        batch = _bulk.lines(
            chunk, threads=_options.kernel_threads(self.args.threads), count=self.counts_first
        )
        # Always run in coerce mode: under --errors raise the rows before the
        # first rejected one still reach stdout, and the batch is not run twice.
        result = self.run(batch, batch.rows_reckoned())
        n = batch.n
        self.stats.read += n
        rejected = self.rejections(batch, result)
        upto = rejected[0][0] if rejected and self.raise_mode else n
        self.emit(result, upto)
        self.stats.written += upto
        if rejected:
            newlines = chunks.newline_offsets(chunk)
            for row, error in rejected:
                self.reject(
                    line + row + 1,
                    _for_the_command_line(error),
                    chunks.line_of(chunk, newlines, row),
                )
        self.after_chunk()
        self.text = None
        return n

    def rejections(self, batch, result) -> list:
        """(row, FenError) of every rejected row of the batch, in row order."""
        return batch.rejections()

    def after_chunk(self) -> None:
        pass

    def long_line(self, item: LongLine, line: int) -> None:
        self.stats.read += 1
        try:
            if not self.raise_mode:
                self.on_long_line(item)
                self.stats.written += 1
            self.reject(line + 1, chunks.long_line_error(), item)
        finally:
            item.close()


#: The options that apply to table inputs only.
TABLE_ONLY = ("column", "to_column", "reasons_column", "output_format")


def check_text_options(args) -> None:
    """A usage error for a table option given with FEN text in and out."""
    for name in TABLE_ONLY:
        if getattr(args, name, None) is not None:
            option = "--" + name.replace("_", "-")
            raise CliError(
                f"{option} applies to a table input (Parquet, Arrow, CSV, TSV, JSON Lines; "
                "see --input-format)"
            )
    named = tables.format_by_name(args.output)
    if named is not None and getattr(args, "format", None) is None:
        raise CliError(
            f"OUT {args.output} names a {named} table, but the input is FEN text; "
            "a table is written from a table input"
        )


def run_text(args, job_type, output_kind: str) -> int:
    """Run ``job_type`` over the text input of ``args``; ``output_kind`` is
    "text" or "binary" (the rows of an encode --format)."""
    stats = Stats(args.command)
    line = 0
    stopped = None
    try:
        with contextlib.ExitStack() as stack:
            source = Input(args.input, stack)
            if source.path is None and sys.stdin.isatty() and not args.quiet:
                print(
                    "fastxfen: reading positions from the terminal (end with Ctrl-D)",
                    file=sys.stderr,
                )
            progress = Progress(bar_wanted(args), source.size)
            stack.callback(progress.close)
            output, rejects_file = open_outputs(args, stack, binary=output_kind == "binary")
            output = progress.paced(output)
            rejects = Rejects(rejects_file)
            if output_kind == "binary":
                encoder = make(formats.encoder, args)
                stats.coerced_as = encoder.coerced_as
                if args.format == "lichess":
                    writer = StreamWriter(output)
                else:
                    writer = NpyWriter(output, encoder.dtype, encoder.row_shape)
                    close_at_end(stack, writer, output)  # the .npy header's final count
                job = job_type(args, stats, rejects, writer, encoder)
            else:
                job = job_type(args, stats, rejects, output)
            pieces = prefetch(chunks.text_chunks(source, args.chunk_size))
            stack.callback(pieces.close)
            for item in pieces:
                progress.aim(source.position())
                if isinstance(item, LongLine):
                    job.long_line(item, line)
                    line += 1
                else:
                    line += job.chunk(item, line)
                item = None  # let the chunk go before the next one is asked for
                progress.to(source.position())
    except Rejected as exc:  # nothing was published
        stopped = exc
        stats.read = exc.number  # the rows up to the rejected one
    # Everything is published (and the .npy header final) before reporting.
    return finish(args, stats, stopped, "line")
