"""``fastxfen normalize``: every line rewritten in canonical form, with its
own terminator (several inputs with --dask: the dask command; a table:
commands.table).  With --unique only the first occurrence of each position
is written."""

from __future__ import annotations

from fastxfen import _bulk
from fastxfen.cli import chunks
from fastxfen.cli.args import threads_for
from fastxfen.cli.commands.table import run_rows
from fastxfen.cli.commands.text import TextJob
from fastxfen.cli.errors import CliError
from fastxfen.cli.io import Output
from fastxfen.cli.unique import Unique


class NormalizeJob(TextJob):
    counts_first = False  # normalize counts the lines in its jobs

    # Output buffers taken in turn: the writer holds at most one chunk while
    # the next is normalized (Output.write returns once the chunk before is
    # written), so a buffer is free again by the chunk after next.
    # Reused memory spares the page faults of a fresh result per chunk.
    OUTPUT_BUFFERS = 2

    def __init__(self, args, stats, rejects, output: Output) -> None:
        super().__init__(args, stats, rejects)
        self.output = output
        # sized for the largest chunk text_chunks makes of short lines
        size = _bulk.text_bound(chunks.CARRY_ROOM + min(args.chunk_size, chunks.MAX_LINE))
        self._outputs = [bytearray(size) for _ in range(self.OUTPUT_BUFFERS)]
        self.unique = Unique(args, stats) if args.unique else None

    def run(self, batch, n):
        a = self.args
        errors = "coerce" if self.raise_mode else a.errors
        into = self._outputs[0]
        self._outputs.append(self._outputs.pop(0))
        threads = threads_for(a, n)
        result = batch.normalize(
            castling=a.castling,
            en_passant=a.en_passant,
            errors=errors,
            threads=threads,
            terminators=True,
            epd=a.epd,
            ends=False,
            into=into,
            fields=a.fields,
        )
        if self.unique is None:
            return result
        # the positions of the same lines, read again (a batch converts once)
        again = _bulk.lines(self.text, threads=threads)
        records = again.encode(width=10, errors="coerce", threads=threads, epd=a.epd)
        return (*result, records)

    def emit(self, result, upto):
        if self.unique is not None:
            data, _, failed, records = result
            passed = failed if self.errors == "ignore" else []
            self.unique.write(self.output, data, records, upto, passed)
            return
        data, _, failed = result
        if not (failed and upto == failed[0]):
            self.output.write(data)
        elif upto:  # stopping at a rejected row
            # Each row's text ends with its own line's terminator (a coerced
            # row is just the terminator), so row upto starts past the
            # upto-th newline.
            self.output.write(memoryview(data)[: int(chunks.newline_offsets(data)[upto - 1]) + 1])

    def on_long_line(self, item):
        if self.errors == "ignore":
            item.copy_to(self.output.write)
        elif self.unique is not None:  # a coerced row holds no position: dropped
            self.stats.written -= 1
        else:  # an empty line, ended like the row (a last row without one: \n)
            self.output.write(item.terminator or b"\n")


def run(args) -> int:
    """Run ``fastxfen normalize``; return the exit status."""
    if args.counters and not args.unique:
        raise CliError("--counters applies with --unique")
    return run_rows(args, NormalizeJob, "text")
