"""normalize, validate, encode and dedupe on a table (cli.tables): the
column of positions converted one record batch at a time, every other
column passed through, rows numbered from 1 over the whole table."""

from __future__ import annotations

import contextlib

import numpy as np

import fastxfen as fx
from fastxfen._errors import FenError
from fastxfen.cli import formats, tables
from fastxfen.cli.args import make, threads_for
from fastxfen.cli.commands.text import _for_the_command_line, check_text_options, run_text
from fastxfen.cli.errors import Rejected
from fastxfen.cli.io import NpyWriter, StreamWriter, close_at_end, open_outputs
from fastxfen.cli.report import Progress, Stats, bar_wanted, finish
from fastxfen.cli.unique import Unique

_MISSING = "missing value"


def _mask(array) -> np.ndarray:
    return array.to_numpy(zero_copy_only=False).astype(bool, copy=False)


class TableJob:
    """One command over the batches of a table.  ``convert(text, batch)``
    gives (output, rejected rows as (row, FenError)); ``emit(output, upto)``
    writes the output of the first ``upto`` rows.  ``output`` is where the
    command writes (binary rows when ``binary``)."""

    binary = False

    def __init__(self, args, reader: tables.TableReader, stats: Stats, stack, progress) -> None:
        self.args = args
        self.stats = stats
        self.schema = reader.schema
        self.index = tables.find_column(reader.schema, getattr(args, "column", None))
        field = reader.schema.field(self.index)
        self.name = field.name
        self.text_type = tables.text_type(field.type, self.name)
        self.errors = getattr(args, "errors", None)
        output, rejects = open_outputs(args, stack, binary=self.binary)
        self.output = progress.paced(output)
        self.rejects = tables.RejectsTable(rejects, self.text_type)
        if rejects is not None:
            close_at_end(stack, self.rejects, rejects)
        self.unique = Unique(args, stats) if getattr(args, "unique", False) else None

    def text(self, batch):
        column = batch.column(self.index)
        return column if column.type == self.text_type else column.cast(self.text_type)

    def batch(self, batch, first: int) -> None:
        """Convert and write one batch whose first row is row ``first + 1``."""
        text = self.text(batch)
        n = batch.num_rows
        output, failures = self.convert(text, batch)
        upto = failures[0][0] if failures and self.errors == "raise" else n
        self.stats.read += n
        self.emit(output, upto)
        if failures:
            if self.errors == "raise":
                failures = failures[:1]
            rows = [(first + row + 1, error, text[row].as_py()) for row, error in failures]
            self.stats.rejected += len(rows)
            self.rejects.add(rows)
            if self.errors == "raise":
                raise Rejected(rows[0][0], rows[0][1], "row")

    def failed(self, result, text) -> np.ndarray:
        """Rows null in a coerced result that hold a value."""
        return np.flatnonzero(_mask(result.is_null()) & _mask(text.is_valid()))

    def reasons(self, text, rows, check) -> list:
        """(row, FenError) of rejected rows, the error found by ``check``
        (one row's conversion under errors='raise')."""
        out = []
        for row in rows:
            value = text[int(row)].as_py()
            if value is None:
                out.append((int(row), FenError(int(row), 0, "input", _MISSING)))
                continue
            try:
                check(value)
            except FenError as e:
                error = FenError(int(row), e.column, e.field, e.reason)
                error.code = e.code
                out.append((int(row), _for_the_command_line(error)))
        return out

    def keep(self, text, failed: np.ndarray, pass_failed: bool) -> np.ndarray:
        """--unique: the rows to write (missing values always, rejected rows
        when ``pass_failed``)."""
        a = self.args
        records = fx.encode(
            text, width=10, errors="coerce", threads=threads_for(a, len(text)), epd=a.epd
        )
        kept = _mask(text.is_null())
        if pass_failed:
            kept[failed] = True
        return self.unique.keep(records, kept)


class TableOutput(TableJob):
    """A job whose output is a table: the input's, with the column replaced
    (or a new one added after it)."""

    to_column = None  # the new column's name, if one is added

    def __init__(self, args, reader, stats, stack, progress, out_field) -> None:
        super().__init__(args, reader, stats, stack, progress)
        self.out_schema = tables.with_column(
            self.schema, self.index, out_field(self), self.to_column
        )
        kind = tables.output_format(args, reader.kind)
        self.writer = tables.TableWriter(self.output, kind, self.out_schema)
        close_at_end(stack, self.writer, self.output)

    def write(self, batch, column, mask: np.ndarray | None, upto: int) -> None:
        pa = tables.require_pyarrow()
        out = tables.put_column(batch, self.index, column, self.to_column, self.out_schema)
        out = out.slice(0, upto)
        if mask is not None:
            out = out.filter(pa.array(mask[:upto]))
        self.stats.written += out.num_rows
        self.writer.write(out)


class NormalizeTable(TableOutput):
    def __init__(self, args, reader, stats, stack, progress) -> None:
        self.to_column = args.to_column
        pa = tables.require_pyarrow()

        def field(job):
            return pa.field(job.to_column or job.name, job.text_type)

        super().__init__(args, reader, stats, stack, progress, field)

    def options(self) -> dict:
        a = self.args
        return dict(castling=a.castling, en_passant=a.en_passant, epd=a.epd, fields=a.fields)

    def convert(self, text, batch):
        pa = tables.require_pyarrow()
        a = self.args
        result = fx.normalize(
            text, errors="coerce", threads=threads_for(a, len(text)), **self.options()
        )
        failed = self.failed(result, text)
        if len(failed) and self.errors == "ignore":
            flags = np.zeros(len(text), bool)
            flags[failed] = True
            result = pa.compute.if_else(pa.array(flags), text, result)
        mask = None
        if self.unique is not None:
            mask = self.keep(text, failed, self.errors == "ignore")
        failures = self.reasons(text, failed, lambda v: fx.normalize(v, **self.options()))
        return (batch, result, mask), failures

    def emit(self, output, upto):
        batch, column, mask = output
        self.write(batch, column, mask, upto)


class DedupeTable(TableOutput):
    """The rows holding the first occurrence of their position, unchanged."""

    def __init__(self, args, reader, stats, stack, progress) -> None:
        super().__init__(
            args, reader, stats, stack, progress, lambda job: job.schema.field(job.index)
        )
        self.unique = Unique(args, stats)

    def convert(self, text, batch):
        a = self.args
        records = fx.encode(
            text, width=10, errors="coerce", threads=threads_for(a, len(text)), epd=a.epd
        )
        failed = np.flatnonzero((records["width"] == 0) & _mask(text.is_valid()))
        kept = _mask(text.is_null())
        if self.errors == "ignore":
            kept[failed] = True
        mask = self.unique.keep(records, kept)
        failures = self.reasons(text, failed, lambda v: fx.encode(v, width=10, epd=a.epd))
        return (batch, mask), failures

    def emit(self, output, upto):
        batch, mask = output
        self.write(batch, batch.column(self.index), mask, upto)


class ValidateTable(TableJob):
    """Messages as for text, or (--reasons-column) the table with a column
    of reasons after the positions, null for a good row."""

    def __init__(self, args, reader, stats, stack, progress) -> None:
        super().__init__(args, reader, stats, stack, progress)
        pa = tables.require_pyarrow()
        self.to_column = args.reasons_column
        self.writer = None
        self.first = 0
        if self.to_column is not None:
            field = pa.field(self.to_column, pa.string())
            self.out_schema = tables.with_column(self.schema, self.index, field, self.to_column)
            kind = tables.output_format(args, reader.kind)
            self.writer = tables.TableWriter(self.output, kind, self.out_schema)
            close_at_end(stack, self.writer, self.output)

    def batch(self, batch, first):
        self.first = first
        super().batch(batch, first)

    def convert(self, text, batch):
        a = self.args
        result = fx.normalize(text, errors="coerce", threads=threads_for(a, len(text)), epd=a.epd)
        failed = self.failed(result, text)
        failures = self.reasons(text, failed, lambda v: fx.normalize(v, epd=a.epd))
        return (batch, failures), failures

    def emit(self, output, upto):
        pa = tables.require_pyarrow()
        batch, failures = output
        if self.writer is None:
            lines = [f"{self.first + row + 1}: {e.location}: {e.reason}\n" for row, e in failures]
            if lines:
                self.output.write("".join(lines).encode())
            return
        reasons = np.full(batch.num_rows, None, object)
        for row, e in failures:
            reasons[row] = f"{e.location}: {e.reason}"
        column = pa.array(reasons, pa.string())
        out = tables.put_column(batch, self.index, column, self.to_column, self.out_schema)
        self.stats.written += out.num_rows
        self.writer.write(out)


class EncodeTable(TableJob):
    """The column's positions as the rows of an encode --format."""

    binary = True

    def __init__(self, args, reader, stats, stack, progress) -> None:
        super().__init__(args, reader, stats, stack, progress)
        output = self.output
        self.encoder = make(formats.encoder, args)
        stats.coerced_as = self.encoder.coerced_as
        if args.format == "lichess":
            self.writer = StreamWriter(output)
        else:
            self.writer = NpyWriter(output, self.encoder.dtype, self.encoder.row_shape)
        close_at_end(stack, self.writer, output)

    def convert(self, text, batch):
        a = self.args
        width = self.encoder.width
        records = fx.encode(
            text, width=width, errors="coerce", threads=threads_for(a, len(text)), epd=a.epd
        )
        failed = np.flatnonzero(records["width"] == 0)
        failures = self.reasons(text, failed, lambda v: fx.encode(v, width=width, epd=a.epd))
        rows, later = self.encoder.convert(records)
        return rows, formats.merge(failures, later)

    def emit(self, rows, upto):
        self.writer.write(self.encoder.cut(rows, upto))
        self.stats.written += upto


JOBS = {
    "normalize": NormalizeTable,
    "validate": ValidateTable,
    "encode": EncodeTable,
    "dedupe": DedupeTable,
}


def run_table(args, kind: str) -> int:
    """Run ``args.command`` over a table input of format ``kind``; return the
    exit status."""
    stats = Stats(args.command)
    stopped = None
    try:
        with contextlib.ExitStack() as stack:
            reader = tables.TableReader(args, kind, stack)
            progress = Progress(bar_wanted(args), reader.total, reader.unit)
            stack.callback(progress.close)
            job = JOBS[args.command](args, reader, stats, stack, progress)
            first = 0
            for batch in reader.batches():
                progress.aim(reader.position())
                job.batch(batch, first)
                first += batch.num_rows
                progress.to(reader.position())
    except Rejected as exc:  # nothing was published
        stopped = exc
        stats.read = exc.number
    return finish(args, stats, stopped, "row")


def run_rows(args, text_job, output_kind: str) -> int:
    """Run a row command: over a table input, or over text lines with
    ``text_job`` writing ``output_kind``; return the exit status."""
    kind = tables.input_format(args)
    if kind != "text":
        return run_table(args, kind)
    check_text_options(args)
    return run_text(args, text_job, output_kind)
