"""normalize, validate, encode and dedupe over a table (tables,
table_formats): the column of positions converted one record batch at a
time, every other column passed through, rows numbered from 1 over the
whole table."""

from __future__ import annotations

import contextlib

import numpy as np

from fastxfen import _codec, _legality, _options, _paths
from fastxfen._errors import FenError, fen_error, rerun_error
from fastxfen._inputs import ARROW
from fastxfen._options import ErrorsMode, RecordOptions
from fastxfen.files import table_formats, tables
from fastxfen.files.binary_formats import merge
from fastxfen.files.errors import Rejected
from fastxfen.files.publication import close_at_end, open_outputs
from fastxfen.files.text_jobs import for_the_command_line
from fastxfen.files.unique import Unique

_MISSING = "missing value"


class Unreadable(Rejected):
    """What the input's format could not read (an entry of a training
    file), under errors "raise": the message is the error's, which names
    the place in the file; ``number`` counts it after the rows before it."""

    def __init__(self, error) -> None:
        super().__init__(error.index + 1, error, "row")
        self.args = (f"{error.location}: {error.reason}",)


#: A boolean Arrow array as a numpy one (pyarrow's to_numpy imports pandas).
_mask = tables.numpy_mask


def _normalized(text, options, threads):
    """The Arrow column ``text`` normalized as ``options`` (TextOptions)
    say, a rejected row null."""
    return _paths.normalize(text, ARROW, options, ErrorsMode.COERCE, threads, None)


def _encoded(text, records: RecordOptions, threads) -> np.ndarray:
    """The records of the Arrow column ``text``, a rejected or missing row
    the null record."""
    return _paths.encode(text, ARROW, records, ErrorsMode.COERCE, threads)


def _text_of(text, row: int):
    """Row ``row`` of an Arrow text column: a str, None (missing), or the
    row's bytes when they are not UTF-8 (Parquet and Arrow do not check)."""
    try:
        return text[row].as_py()
    except UnicodeDecodeError:
        pa = tables.require_pyarrow()
        return text.slice(row, 1).cast(pa.large_binary())[0].as_py()


def _not_text(row: int, value):
    """The error of a row that is missing (None) or not UTF-8 (bytes)."""
    if value is None:
        return fen_error(row, 0, "input", _MISSING)
    try:
        value.decode()
    except UnicodeDecodeError as exc:
        column = len(value[: exc.start].decode())
        reason = f"not UTF-8 text: byte 0x{value[exc.start]:02X} at byte {exc.start}"
        return fen_error(row, column, "input", reason)
    raise AssertionError("text that decodes")  # pragma: no cover


def _normalize_one(options):
    """One row normalized as ``options`` say, under errors "raise"."""
    return lambda value: _codec.normalize_rows([value], text=options, errors=ErrorsMode.RAISE)


def _encode_one(records: RecordOptions):
    """One row read into a record as ``records`` say, under errors "raise"."""
    return lambda value: _codec.encode_rows([value], records=records, errors=ErrorsMode.RAISE)


class RejectsTable:
    """The rejects file of a table input: one row per rejected row (its
    1-based row number, the column, field and reason of the error, and the
    value as read), as a table of the format the file's name says (CSV for
    a name that says none)."""

    def __init__(self, output, column_type) -> None:
        self.output = output
        if output is None:
            return
        pa = tables.require_pyarrow()
        self.schema = pa.schema(
            [
                ("row", pa.int64()),
                ("column", pa.int64()),
                ("field", pa.string()),
                ("reason", pa.string()),
                ("value", column_type),
            ]
        )
        kind = table_formats.format_by_name(output.name) or "csv"
        self.writer = table_formats.FORMATS[kind].writer(output, self.schema)

    def add(self, numbers: list, errors: list, values) -> None:
        """The rejected rows: their numbers, FenErrors and original values
        (an Arrow array of the column's type).  An entry of a training file
        that gave no row has the number None and no value (``values``
        None: every value null)."""
        if self.output is None or not numbers:
            return
        pa = tables.require_pyarrow()
        if values is None:
            values = pa.nulls(len(numbers), self.schema.field("value").type)
        self.writer.write(
            pa.RecordBatch.from_arrays(
                [
                    pa.array(numbers, pa.int64()) if None in numbers else tables.int_array(numbers),
                    tables.int_array([e.column for e in errors]),
                    tables.text_array([e.field for e in errors]),
                    tables.text_array([e.reason for e in errors]),
                    values,
                ],
                schema=self.schema,
            )
        )

    def close(self) -> None:
        if self.output is not None:
            self.writer.close()

    def abandon(self) -> None:
        if self.output is not None:
            self.writer.abandon()


class Refusals:
    """What the input's format read but could not give as a row
    (``failures``, a TableReader's), rejected in input order (``rejects`` a
    RejectsTable, ``errors`` the run's mode); ``note`` gets the message of
    each."""

    def __init__(self, stats, rejects, errors, failures: list, note) -> None:
        self.stats = stats
        self.rejects = rejects
        self.errors = errors
        self.failures = failures
        self.note = note
        self.done = 0  # failures handled

    def unread(self, upto: int | None) -> None:
        """Reject the failures up to the place of row ``upto + 1`` (None:
        all).  Each gave no row: the rejects table's row is null and the
        reason names the place in the file."""
        failures = self.failures
        while self.done < len(failures):
            error = failures[self.done]
            if upto is not None and error.index > upto:
                return
            self.done += 1
            self.stats.read += 1
            self.stats.rejected += 1
            message = f"{error.location}: {error.reason}"
            where = FenError(error.index, error.column, error.field, message)
            self.rejects.add([None], [where], None)
            self.note(message)
            if self.errors is ErrorsMode.RAISE:
                raise Unreadable(error)


class TableJob:
    """One task over the batches of a table.  ``convert(text, batch)``
    gives (output, rejected rows as (row, FenError)); ``emit(output, upto)``
    writes the output of the first ``upto`` rows.  ``output`` is where the
    task writes (binary rows when ``binary``)."""

    binary = False

    def __init__(self, run, reader: tables.TableReader, stack) -> None:
        self.task = run.task
        self.settings = run.settings
        self.stats = run.stats
        self.reader = reader
        self.schema = reader.schema
        self.index = tables.find_column(reader.schema, run.settings.column)
        field = reader.schema.field(self.index)
        self.name = field.name
        self.text_type = tables.text_type(field.type, self.name)
        self.errors = run.stats.errors
        # The output table's format and schema, checked before any file is made.
        self.out_schema = self.table_schema()
        if self.out_schema is not None:
            kind = table_formats.output_format(run.target, run.settings.output_format, reader.kind)
            self.out_kind = table_formats.checked(kind, self.out_schema, run.target)
        output, rejects = open_outputs(reader.path, run.target, run.settings, stack, self.binary)
        self.output = run.progress.paced(output)
        self.rejects = RejectsTable(rejects, self.text_type)
        if rejects is not None:
            close_at_end(stack, self.rejects, rejects)
        self.unique = None
        self.first = 0  # the batch's first row, 0-based
        self.refusals = Refusals(run.stats, self.rejects, self.errors, reader.failures, self.note)

    def table_schema(self):
        """The schema of the table the job writes (None: it writes none)."""
        return None

    def threads(self, text) -> _options.Threads:
        """The threads for a batch of these rows."""
        return _options.threads_of(self.settings.chunk_threads(len(text)))

    def text(self, batch):
        column = batch.column(self.index)
        return column if column.type == self.text_type else column.cast(self.text_type)

    def batch(self, batch, first: int) -> None:
        """Convert and write one batch whose first row is row ``first + 1``."""
        self.first = first
        text = self.text(batch)
        n = batch.num_rows
        output, failures = self.convert(text, batch)
        raise_mode = self.errors is ErrorsMode.RAISE
        upto = failures[0][0] if failures and raise_mode else n
        self.stats.read += n
        self.failed_rows = [row for row, _ in failures]
        refused = self.emit(output, upto)
        if refused:  # rows the output's format cannot hold
            failures = sorted(failures + refused, key=lambda item: item[0])
        if failures:
            if raise_mode:
                failures = failures[:1]
            rows = [row for row, _ in failures]
            numbers = [first + row + 1 for row in rows]
            errors = [error for _, error in failures]
            self.stats.rejected += len(rows)
            self.rejects.add(numbers, errors, text.take(tables.int_array(rows)))
            if raise_mode:
                raise Rejected(numbers[0], errors[0], "row")

    def note(self, message: str) -> None:
        """A message about an entry that gave no row (validate prints it)."""

    def failed(self, result, text) -> np.ndarray:
        """Rows null in a coerced result that hold a value."""
        return np.flatnonzero(_mask(result.is_null()) & _mask(text.is_valid()))

    def reasons(self, text, rows, check) -> list:
        """(row, FenError) of rejected rows, the error found by ``check``
        (one row's conversion under errors='raise')."""
        out = []
        for row in map(int, rows):
            value = _text_of(text, row)
            if value is None or isinstance(value, bytes):
                out.append((row, _not_text(row, value)))
                continue
            error = rerun_error(check, value, row)
            if error is not None:
                out.append((row, for_the_command_line(error)))
        return out

    def keep(self, text, failed: np.ndarray, pass_failed: bool) -> np.ndarray:
        """unique: the rows to write (missing values always, rejected rows
        when ``pass_failed``)."""
        records = _encoded(text, self.records, self.threads(text))
        kept = _mask(text.is_null())
        if pass_failed:
            kept[failed] = True
        return self.unique.keep(records, kept)


class TableOutput(TableJob):
    """A job whose output is a table: the input's, with the column replaced
    (or a new one added after it) by the field ``out_field(job)``."""

    to_column = None  # the new column's name, if one is added

    def __init__(self, run, reader, stack, out_field) -> None:
        self.out_field = out_field
        super().__init__(run, reader, stack)
        self.writer = _table_writer(stack, self.output, self.out_kind, self.out_schema)

    def table_schema(self):
        return tables.with_column(self.schema, self.index, self.out_field(self), self.to_column)

    def write(self, batch, column, mask: np.ndarray | None, upto: int) -> list:
        """Write the first ``upto`` rows of the batch where ``mask`` is True
        (all: None); returns the rows the output's format refused, as
        (row, error).  A format that refuses rows (training data) holds no
        row rejected already: those are left out."""
        checked = getattr(self.writer, "write_checked", None)
        if checked is not None and self.failed_rows:
            mask = np.ones(batch.num_rows, bool) if mask is None else mask.copy()
            mask[self.failed_rows] = False
        out = tables.put_column(batch, self.index, column, self.to_column, self.out_schema)
        out = out.slice(0, upto)
        if mask is not None:
            out = out.filter(tables.bool_array(mask[:upto]))
        self.stats.written += out.num_rows
        if checked is None:
            self.writer.write(out)
            return []
        stop = self.errors is ErrorsMode.RAISE
        refused = checked(out, stop)
        if refused:  # none written after the first, under stop
            self.stats.written -= out.num_rows - refused[0][0] if stop else len(refused)
        rows = np.arange(upto) if mask is None else np.flatnonzero(mask[:upto])
        return [(int(rows[at]), error) for at, error in refused]


def _table_writer(stack, output, kind: str, schema):
    """The writer of the output table, of format ``kind``, closed at the end
    of the run."""
    writer = table_formats.table_writer(output, kind, schema)
    close_at_end(stack, writer, output)
    return writer


class NormalizeTable(TableOutput):
    def __init__(self, run, reader, stack) -> None:
        self.to_column = run.task.to_column
        pa = tables.require_pyarrow()

        def field(job):
            return pa.field(job.to_column or job.name, job.text_type)

        super().__init__(run, reader, stack, field)
        task = self.task
        if task.unique:
            self.unique = Unique(task.keys, self.stats)
            self.records = RecordOptions(10, task.text.epd)  # the positions

    def convert(self, text, batch):
        pa = tables.require_pyarrow()
        options = self.task.text
        result = _normalized(text, options, self.threads(text))
        failed = self.failed(result, text)
        ignore = self.errors is ErrorsMode.IGNORE
        if len(failed) and ignore:
            flags = np.zeros(len(text), bool)
            flags[failed] = True
            result = pa.compute.if_else(tables.bool_array(flags), text, result)
        mask = None
        if self.unique is not None:
            mask = self.keep(text, failed, ignore)
        failures = self.reasons(text, failed, _normalize_one(options))
        return (batch, result, mask), failures

    def emit(self, output, upto):
        batch, column, mask = output
        return self.write(batch, column, mask, upto)


class DedupeTable(TableOutput):
    """The rows holding the first occurrence of their position, unchanged."""

    def __init__(self, run, reader, stack) -> None:
        super().__init__(run, reader, stack, lambda job: job.schema.field(job.index))
        self.unique = Unique(self.task.keys, self.stats)

    def convert(self, text, batch):
        options = self.task.records
        records = _encoded(text, options, self.threads(text))
        failed = np.flatnonzero((records["width"] == 0) & _mask(text.is_valid()))
        kept = _mask(text.is_null())
        if self.errors is ErrorsMode.IGNORE:
            kept[failed] = True
        mask = self.unique.keep(records, kept)
        failures = self.reasons(text, failed, _encode_one(options))
        return (batch, mask), failures

    def emit(self, output, upto):
        batch, mask = output
        return self.write(batch, batch.column(self.index), mask, upto)


class ValidateTable(TableJob):
    """Messages as for text, or (``reasons_column``) the table with a column
    of reasons after the positions, null for a good row."""

    def __init__(self, run, reader, stack) -> None:
        self.to_column = run.task.reasons_column
        super().__init__(run, reader, stack)
        self.writer = None
        if self.out_schema is not None:
            self.writer = _table_writer(stack, self.output, self.out_kind, self.out_schema)

    def table_schema(self):
        if self.to_column is None:
            return None
        pa = tables.require_pyarrow()
        field = pa.field(self.to_column, pa.string())
        return tables.with_column(
            self.schema, self.index, field, self.to_column, "--reasons-column"
        )

    def convert(self, text, batch):
        options = self.task.text
        result = _normalized(text, options, self.threads(text))
        failed = self.failed(result, text)
        failures = self.reasons(text, failed, _normalize_one(options))
        if self.task.legal:
            rows = _legality.unrejected(len(text), failures)
            illegal = _legality.illegal(text, ARROW, rows, options.epd)
            failures = sorted(failures + illegal, key=lambda item: item[0])
        return (batch, failures), failures

    def note(self, message):
        if self.writer is None:
            self.output.write(f"{message}\n".encode())

    def emit(self, output, upto):
        batch, failures = output
        if self.writer is None:
            lines = [f"{self.first + row + 1}: {e.location}: {e.reason}\n" for row, e in failures]
            if lines:
                self.output.write("".join(lines).encode())
            return
        reasons = np.full(batch.num_rows, None, object)
        for row, e in failures:
            reasons[row] = f"{e.location}: {e.reason}"
        column = tables.text_array(reasons)
        out = tables.put_column(batch, self.index, column, self.to_column, self.out_schema)
        self.stats.written += out.num_rows
        self.writer.write(out)


class EncodeTable(TableJob):
    """The column's positions as the rows of a binary format."""

    binary = True

    def __init__(self, run, reader, stack) -> None:
        super().__init__(run, reader, stack)
        self.encoder = run.encoder
        self.writer = self.task.format.writer(self.output, self.encoder)
        close_at_end(stack, self.writer, self.output)

    def convert(self, text, batch):
        options = self.task.records
        records = _encoded(text, options, self.threads(text))
        failed = np.flatnonzero(records["width"] == 0)
        failures = self.reasons(text, failed, _encode_one(options))
        rows, later = self.encoder.convert(records)
        return rows, merge(failures, later)

    def emit(self, rows, upto):
        self.writer.write(self.encoder.cut(rows, upto))
        self.stats.written += upto


JOBS = {
    "normalize": NormalizeTable,
    "validate": ValidateTable,
    "encode": EncodeTable,
    "dedupe": DedupeTable,
}


def run_table(run, kind: str):
    """Run ``run.task`` over a table input of format ``kind``; return its
    stats."""
    try:
        with contextlib.ExitStack() as stack:
            table = table_formats.FORMATS[kind]
            settings = run.settings
            reader = tables.TableReader(
                run.source,
                table,
                settings.chunk_size,
                stack,
                settings.column,
                settings.column_types,
            )
            run.progress.start(reader.total, reader.unit)
            job = JOBS[run.task.command](run, reader, stack)
            first = 0
            for batch in reader.batches():
                run.progress.aim(reader.position())
                job.refusals.unread(first)
                job.batch(batch, first)
                first += batch.num_rows
                run.progress.to(reader.position())
            job.refusals.unread(None)
    except Rejected as exc:  # nothing was published
        run.stats.stop(exc)
    return run.stats
