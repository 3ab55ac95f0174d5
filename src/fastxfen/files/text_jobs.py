"""normalize, validate, encode and dedupe over text, one position per line:
a TextJob runs the library on each chunk of lines, writes the rows before a
stop, and reports the rejected rows by their line in the whole input.

Reading (and decompressing) the next chunk runs in one background thread and
writing (and compressing) the previous result in another, each holding at most
one chunk, while the library converts the current chunk on its own threads.
Under errors "raise" a chunk is still converted in coerce mode, so that the
rows before the first rejected one reach stdout before the run stops (an
output file is not published).
"""

from __future__ import annotations

import contextlib

from fastxfen import _bulk, _codec, _legality
from fastxfen._errors import FenError, fen_error
from fastxfen._inputs import BUFFER
from fastxfen._options import ErrorsMode, RecordOptions
from fastxfen.files import text_chunks
from fastxfen.files.binary_formats import merge
from fastxfen.files.errors import Rejected
from fastxfen.files.inputs import Input
from fastxfen.files.prefetch import prefetch
from fastxfen.files.publication import close_at_end, open_outputs
from fastxfen.files.report import Rejects
from fastxfen.files.text_chunks import LongLine
from fastxfen.files.unique import Unique

_WIDE_ROW_HINT = "a 10-wide position needs --width 10"
TERMINAL_NOTICE = "reading positions from the terminal (end with Ctrl-D)"


def for_the_command_line(error: FenError) -> FenError:
    """The error as a run over files words it: a row too wide for the
    records asked for names --width rather than encode()'s argument."""
    if error.code == _codec.E_WIDE_ROW:
        return fen_error(error.index, error.column, error.field, _WIDE_ROW_HINT, error.code)
    return error


def table_hint(line: bytes):
    """What to do when a rejected first line looks like the header of a CSV
    or TSV table (fields split by commas or tabs, naming a fen or epd
    column or holding no '/' as a placement does), else None."""
    text = line.decode("utf-8", "replace").rstrip("\r\n")
    for kind, delimiter in (("csv", ","), ("tsv", "\t")):
        names = [name.strip().strip('"').lower() for name in text.split(delimiter)]
        if len(names) > 1 and ("/" not in text or {"fen", "epd"} & set(names)):
            return (
                f"line 1 looks like the header of a {kind.upper()} table: read the input "
                f"as one with --input-format {kind} (and --column NAME for the column of "
                "positions, unless it is named fen or epd)"
            )
    return None


class TextJob:
    """Runs one task over the chunks of the input.  A subclass gives ``run``
    (the library call on a batch), ``emit`` (write the first rows of its
    result) and ``on_long_line``."""

    counts_first = True  # whether run needs the batch's lines counted first

    def __init__(self, run, rejects: Rejects) -> None:
        self.task = run.task
        self.settings = run.settings
        self.stats = run.stats
        self.rejects = rejects
        self.errors = run.errors
        self.raise_mode = self.errors is ErrorsMode.RAISE
        self.text = None  # the chunk being handled, for run and emit
        self.busy = 0  # CPUs kept busy by the reader: 1 while it decompresses

    def threads(self, rows: int) -> int:
        """The threads converting a batch of ``rows`` rows."""
        return self.settings.chunk_threads(rows, self.busy)

    def reject(self, number: int, error: FenError, original) -> None:
        if number == 1 and isinstance(original, (bytes, bytearray, memoryview)):
            self.stats.hint = table_hint(bytes(original))
        self.stats.rejected += 1
        self.rejects.add(number, error, original)
        if self.raise_mode:
            raise Rejected(number, error)

    def chunk(self, chunk, line: int) -> int:
        """Handle a buffer of whole lines, the first being line ``line + 1``;
        return the number of rows."""
        self.text = chunk
        rows = len(chunk) // _bulk.ROW_BYTES  # an estimate, until they are counted
        batch = _bulk.lines(chunk, threads=self.threads(rows), count=self.counts_first)
        # Always run in coerce mode: under errors "raise" the rows before the
        # first rejected one still reach stdout, and the batch is not run twice.
        result = self.run(batch, batch.rows_reckoned())
        n = batch.n
        self.stats.read += n
        rejected = self.rejections(batch, result)
        upto = rejected[0][0] if rejected and self.raise_mode else n
        self.emit(result, upto)
        self.stats.written += upto
        if rejected:
            newlines = text_chunks.newline_offsets(chunk)
            for row, error in rejected:
                self.reject(
                    line + row + 1,
                    for_the_command_line(error),
                    text_chunks.line_of(chunk, newlines, row),
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
            self.reject(line + 1, text_chunks.long_line_error(), item)
        finally:
            item.close()


class NormalizeJob(TextJob):
    """Text -> every line in canonical form, with its own terminator (with
    ``unique``, the lines of first occurrences only)."""

    counts_first = False  # normalize counts the lines in its jobs

    # Output buffers taken in turn: the writer holds at most one chunk while
    # the next is normalized (Output.write returns once the chunk before is
    # written), so a buffer is free again by the chunk after next.
    # Reused memory spares the page faults of a fresh result per chunk.
    OUTPUT_BUFFERS = 2

    def __init__(self, run, rejects, output) -> None:
        super().__init__(run, rejects)
        self.output = output
        # sized for the largest chunk text_chunks makes of short lines
        largest = text_chunks.CARRY_ROOM + min(self.settings.chunk_size, text_chunks.MAX_LINE)
        size = _bulk.text_bound(largest)
        self._outputs = [bytearray(size) for _ in range(self.OUTPUT_BUFFERS)]
        task = self.task
        self.unique = Unique(task.keys, self.stats) if task.unique else None
        self.records = RecordOptions(10, task.text.epd)  # the positions, for unique

    def run(self, batch, n):
        errors = ErrorsMode.COERCE if self.raise_mode else self.errors
        into = self._outputs[0]
        self._outputs.append(self._outputs.pop(0))
        threads = self.threads(n)
        result = batch.normalize(
            self.task.text, errors, threads=threads, terminators=True, ends=False, into=into
        )
        if self.unique is None:
            return result
        # the positions of the same lines, read again (a batch converts once)
        again = _bulk.lines(self.text, threads=threads)
        records = again.encode(self.records, ErrorsMode.COERCE, threads=threads)
        return (*result, records)

    def emit(self, result, upto):
        if self.unique is not None:
            data, _, failed, records = result
            passed = failed if self.errors is ErrorsMode.IGNORE else []
            self.unique.write(self.output, data, records, upto, passed)
            return
        data, _, failed = result
        if not (failed and upto == failed[0]):
            self.output.write(data)
        elif upto:  # stopping at a rejected row
            # Each row's text ends with its own line's terminator (a coerced
            # row is just the terminator), so row upto starts past the
            # upto-th newline.
            end = int(text_chunks.newline_offsets(data)[upto - 1]) + 1
            self.output.write(memoryview(data)[:end])

    def on_long_line(self, item):
        if self.errors is ErrorsMode.IGNORE:
            item.copy_to(self.output.write)
        elif self.unique is not None:  # a coerced row holds no position: dropped
            self.stats.written -= 1
        else:  # an empty line, ended like the row (a last row without one: \n)
            self.output.write(item.terminator or b"\n")


class ValidateJob(TextJob):
    """Text -> one message line per rejected row."""

    def __init__(self, run, rejects, output) -> None:
        super().__init__(run, rejects)
        self.output = output
        self.messages: list = []

    def run(self, batch, n):
        return batch.validate(threads=self.threads(n), epd=self.task.text.epd)

    def rejections(self, batch, result):
        rejected = batch.rejections()
        if not self.task.legal:
            return rejected
        rows = _legality.unrejected(batch.n, rejected)
        illegal = _legality.illegal(self.text, BUFFER, rows, self.task.text.epd)
        return sorted(rejected + illegal, key=lambda item: item[0])

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


class EncodeJob(TextJob):
    """Text -> records -> the rows of one binary format (binary_formats),
    through ``writer``."""

    def __init__(self, run, rejects, writer, encoder) -> None:
        super().__init__(run, rejects)
        self.writer = writer
        self.encoder = encoder

    def run(self, batch, n):
        threads = self.threads(n)
        records = batch.encode(self.task.records, ErrorsMode.COERCE, threads=threads)
        return self.encoder.convert(records)

    def rejections(self, batch, result):
        return merge(batch.rejections(), result[1])

    def emit(self, result, upto):
        self.writer.write(self.encoder.cut(result[0], upto))

    def on_long_line(self, item):
        self.writer.write(self.encoder.null())


class DedupeJob(TextJob):
    """Text -> the lines of first occurrences (and, under errors "ignore",
    the rejected lines)."""

    def __init__(self, run, rejects, output) -> None:
        super().__init__(run, rejects)
        self.output = output
        self.unique = Unique(self.task.keys, self.stats)
        self._failed: list = []

    def run(self, batch, n):
        threads = self.threads(n)
        return batch.encode(self.task.records, ErrorsMode.COERCE, threads=threads)

    def rejections(self, batch, result):
        rejected = batch.rejections()
        self._failed = [row for row, _ in rejected]
        return rejected

    def emit(self, records, upto):
        passed = self._failed if self.errors is ErrorsMode.IGNORE else []
        self.unique.write(self.output, self.text, records, upto, passed)

    def on_long_line(self, item):
        if self.errors is ErrorsMode.IGNORE:
            item.copy_to(self.output.write)
        else:  # a coerced row holds no position: dropped
            self.stats.written -= 1


def _job(run, rejects: Rejects, output, stack) -> TextJob:
    """The TextJob of ``run.task``, writing to ``output`` (through the
    writer of its binary format, for encode)."""
    if run.encoder is None:
        kind = {"normalize": NormalizeJob, "validate": ValidateJob, "dedupe": DedupeJob}
        return kind[run.task.command](run, rejects, output)
    writer = run.task.format.writer(output, run.encoder)
    close_at_end(stack, writer, output)  # a .npy header's final count
    return EncodeJob(run, rejects, writer, run.encoder)


def run_text(run):
    """Run ``run.task`` over its text input, writing its output (the rows
    of ``run.encoder``, for encode); return its stats."""
    settings, progress = run.settings, run.progress
    line = 0
    try:
        with contextlib.ExitStack() as stack:
            reader = Input(run.source, stack)
            if reader.on_terminal and settings.notice is not None:
                settings.notice(TERMINAL_NOTICE)
            progress.start(reader.size)
            binary = run.encoder is not None
            output, rejects_file = open_outputs(run.source, run.target, settings, stack, binary)
            output = progress.paced(output)
            job = _job(run, Rejects(rejects_file), output, stack)
            # A compressed input keeps one CPU decompressing (text_chunks in
            # prefetch's thread): on 2 CPUs, converting on the other alone
            # beats sharing both (bench/RESULTS.md, "zstd input").
            job.busy = int(reader.kind is not None)
            pieces = prefetch(text_chunks.text_chunks(reader, settings.chunk_size))
            stack.callback(pieces.close)
            for item in pieces:
                progress.aim(reader.position())
                if isinstance(item, LongLine):
                    job.long_line(item, line)
                    line += 1
                else:
                    line += job.chunk(item, line)
                item = None  # let the chunk go before the next one is asked for
                progress.to(reader.position())
    except Rejected as exc:  # nothing was published
        run.stats.stop(exc)
    # Everything is published (and the .npy header final) before reporting.
    return run.stats
