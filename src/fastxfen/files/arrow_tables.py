"""The table formats pyarrow reads and writes: Parquet, Arrow IPC, CSV/TSV
and JSON Lines.

What is streamed: Parquet by batches of rows within each row group (a
buffered stream of the file, not the whole row group at once); Arrow IPC
files batch by batch, IPC streams batch by batch; CSV, TSV and JSON Lines by
blocks of ``chunk_size`` bytes (a row may not be longer than a block).  CSV
and TSV columns are read as text and typed by csv_types; JSON Lines keep the
types pyarrow infers from the first block, but for strings that look like
times, which stay strings.

Parquet and Arrow IPC are written by pyarrow's writers; CSV, TSV and JSON
Lines by csv_writer and json_lines, column by column.  Each format's check
refuses, before any output is made, a column it cannot write back as it
was.
"""

from __future__ import annotations

import contextlib
import os
import stat

from fastxfen.files import codecs, csv_types, csv_writer, json_lines
from fastxfen.files.errors import RunError
from fastxfen.files.tables import TableFormat, WriteStream, require_pyarrow

# ------------------------------------------------------------------ reading


def _parquet(reader):
    require_pyarrow()
    import pyarrow.parquet as pq

    # A buffered stream instead of whole column chunks in memory.
    source = _watched(reader, reader.plain_file())
    file = pq.ParquetFile(source, buffer_size=1 << 20, pre_buffer=False)
    reader.stack.callback(file.close)
    reader.total, reader.unit = file.metadata.num_rows, "rows"
    return file.schema_arrow, file.iter_batches(batch_size=reader.rows, use_threads=False)


def _watched(reader, path: str):
    """``path`` opened as a pyarrow OSFile, closed with the run and watched
    for changes through a descriptor of the same file (an OSFile's own
    ``fileno()`` fails before pyarrow 22)."""
    pa = require_pyarrow()
    fd = os.open(path, os.O_RDONLY)
    reader.stack.callback(os.close, fd)
    file = pa.OSFile(path, "rb")
    reader.stack.callback(file.close)
    if not os.path.samestat(os.fstat(fd), os.stat(path)):
        raise RunError(f"{reader.name} was replaced while it was opened")
    reader.watch(fd)
    return file


#: How an Arrow IPC stream ends (a continuation marker and a length of 0),
#: and the 4 zero bytes that ended the legacy streams of Arrow before 0.15.
_END = b"\xff\xff\xff\xff\x00\x00\x00\x00"
_LEGACY_END = b"\x00\x00\x00\x00"
#: What an IPC file starts (padded to 8 bytes) and ends with.
_FILE_MAGIC = b"ARROW1"


def _arrow(reader):
    pa = require_pyarrow()
    import pyarrow.ipc as ipc

    path = reader.path
    reader.unit = "rows"
    if not codecs.is_stdio(path) and not codecs.compression(path) and _regular(path):
        # Read, never memory-mapped: a mapped file truncated by another
        # process would kill the run with SIGBUS (docs/failures.md).
        file = _watched(reader, path)
        try:
            ipc_file = ipc.open_file(file)
        except pa.ArrowInvalid:  # not the file format: an IPC stream
            file.seek(0)
            legacy = file.read(4) != _END[:4]
            file.seek(0)

            def ending() -> bytes:
                at = file.tell()
                file.seek(max(0, at - 8))
                return file.read(min(at, 8))

            return _stream(reader, ipc.open_stream(file), legacy, ending)
        count = ipc_file.num_record_batches
        counted = getattr(ipc_file, "count_rows", None)  # pyarrow 15 and later
        reader.total = counted() if counted else None
        return ipc_file.schema, (ipc_file.get_batch(i) for i in range(count))
    # A stream; or a file (compressed, or on stdin), read as the stream it
    # holds, and then its footer.
    source = reader.stream()
    head = source.read_exactly(8)
    inside_file = head.startswith(_FILE_MAGIC)
    stream = reader.read_stream(b"" if inside_file else head, source)
    legacy = not inside_file and head[:4] != _END[:4]
    opened = ipc.open_stream(pa.PythonFile(stream, mode="r"))  # read on this thread
    footer = (lambda: _last_bytes(source)) if inside_file else None
    return _stream(reader, opened, legacy, lambda: stream.tail, footer)


def _last_bytes(source) -> bytes:
    """The last 8 bytes of the rest of ``source`` (read to its end)."""
    end = b""
    while True:
        data = source.read(1 << 20)
        if not data:
            return end
        end = (end + data)[-8:]


def _stream(reader, opened, legacy: bool, ending, footer=None):
    """(schema, batches) of an open IPC stream: after the last batch, a
    RunError unless the bytes read end with the stream's end marker
    (``ending()``: the last 8 bytes read) and, for a stream inside an IPC
    file (``footer()``: the rest of the file), the file's footer.  A stream
    cut between two batches reads as complete: only the marker tells."""

    def batches():
        rows = 0
        for batch in opened:
            rows += batch.num_rows
            yield batch
        end = ending()
        if not (end.endswith(_LEGACY_END) if legacy else end == _END):
            raise RunError(
                f"{reader.name} is truncated: its Arrow IPC stream stops after {rows:,} rows "
                "without its end-of-stream marker"
            )
        if footer is not None and not footer().endswith(_FILE_MAGIC):
            raise RunError(f"{reader.name} is truncated: its Arrow IPC file stops in its footer")

    return opened.schema, batches()


def _csv(reader):
    pa = require_pyarrow()
    import pyarrow.csv as pcsv

    source = reader.stream()
    parse = pcsv.ParseOptions(delimiter="\t" if reader.kind == "tsv" else ",")
    # The header names every column, so that each is read as text.
    head = b""
    while b"\n" not in head:
        more = source.read(1 << 16)
        if not more:
            break
        head += more
    header = head[: head.find(b"\n") + 1] if b"\n" in head else head
    if not header.strip():
        raise RunError(f"{reader.name} is empty: a {reader.kind.upper()} needs a header line")
    # The header parsed by pyarrow, on this thread: the threaded reader's
    # last parts are freed later on pyarrow's threads, and one still alive
    # when the process exits hangs it.
    names = pcsv.read_csv(
        pa.BufferReader(header),
        read_options=pcsv.ReadOptions(use_threads=False),
        parse_options=parse,
    ).column_names
    # Every column as text, an unquoted empty field null, a quoted one "":
    # csv_types gives the columns their types.
    convert = pcsv.ConvertOptions(
        column_types={name: pa.string() for name in names},
        null_values=[""],
        strings_can_be_null=True,
        quoted_strings_can_be_null=False,
    )
    stream = reader.read_stream(head, source)
    batches = pcsv.open_csv(
        stream.lend(),
        read_options=pcsv.ReadOptions(block_size=reader.block_size(), use_threads=False),
        parse_options=parse,
        convert_options=convert,
    )
    stream.read_by(batches)
    first = next(iter(batches), None)
    types = csv_types.CsvTypes(reader, batches.schema, first)
    reader.types_used = True
    return types.schema, types.batches(first, batches)


def _jsonl(reader):
    require_pyarrow()
    import pyarrow.json as pjson

    read = pjson.ReadOptions(block_size=reader.block_size(), use_threads=False)
    stream = reader.read_stream()
    stream.kept = []  # the bytes pyarrow reads until it has the schema
    batches = pjson.open_json(stream.lend(), read_options=read)
    stream.read_by(batches)
    strings = _timestamps_as_strings(batches.schema)
    if strings == batches.schema:
        stream.kept = None
        return batches.schema, iter(batches)
    # pyarrow reads a string that looks like a time as a timestamp, which
    # would be written back as other text ("2024-01-31" as "2024-01-31
    # 00:00:00"): the first block is read again, those columns as strings.
    # The first reader is stopped first, so that every byte it read ahead
    # is kept and none is read twice.
    stream.close()
    again = reader.read_stream(b"".join(stream.kept), stream.source)
    parse = pjson.ParseOptions(explicit_schema=strings)
    batches = pjson.open_json(again.lend(), read_options=read, parse_options=parse)
    again.read_by(batches)
    return batches.schema, iter(batches)


def _timestamps_as_strings(schema):
    """``schema`` with every timestamp, at any depth, a string."""
    pa = require_pyarrow()

    def fixed(kind):
        if pa.types.is_timestamp(kind):
            return pa.string()
        if pa.types.is_struct(kind):
            return pa.struct([field.with_type(fixed(field.type)) for field in kind])
        if pa.types.is_list(kind):
            return pa.list_(kind.value_field.with_type(fixed(kind.value_type)))
        return kind

    return pa.schema([field.with_type(fixed(field.type)) for field in schema])


def _regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError as exc:
        raise RunError(f"cannot read {path}: {exc.strerror or exc}") from None


# ------------------------------------------------------------------ writing


class TableWriter:
    """Record batches of one schema written as a Parquet or Arrow IPC table
    to an Output, through pyarrow's writers."""

    def __init__(self, output, kind: str, schema) -> None:
        pa = require_pyarrow()
        self.kind = kind
        self.output = output
        self.schema = schema
        self.rows = 0
        self._stream = WriteStream(output)
        try:
            self._writer = self._open(pa.PythonFile(self._stream, mode="w"))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
            raise RunError(f"cannot write {output.name} as {kind}: {exc}") from None

    def _open(self, sink):
        if self.kind == "parquet":
            import pyarrow.parquet as pq

            return pq.ParquetWriter(sink, self.schema)
        import pyarrow.ipc as ipc

        # A file (Feather v2) where one can be written; a stream to stdout.
        opener = ipc.new_stream if self.output.is_stdout else ipc.new_file
        return opener(sink, self.schema)

    def write(self, batch) -> None:
        if not batch.num_rows:
            return
        self.rows += batch.num_rows
        pa = require_pyarrow()
        try:
            self._writer.write_batch(batch)
        except (OSError, ValueError, TypeError, pa.ArrowException) as exc:
            raise RunError(f"cannot write {self.output.name} as {self.kind}: {exc}") from None

    def close(self) -> None:
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.close()

    def abandon(self) -> None:
        """Let go of a table that will not be published: pyarrow's writer is
        closed without writing its end to the output."""
        self._stream.muted = True
        with contextlib.suppress(Exception):
            self.close()


class TextTableWriter:
    """Record batches of one schema written as CSV, TSV or JSON Lines to an
    Output: each batch rendered to text column by column (csv_writer,
    json_lines) and its bytes handed to the output."""

    def __init__(self, output, kind: str, schema) -> None:
        self.kind = kind
        self.output = output
        self.schema = schema
        self.rows = 0
        if kind == "jsonl":
            self.render = json_lines.JsonRender(schema)
        else:
            self.render = csv_writer.CsvRender(schema, "\t" if kind == "tsv" else ",")
            output.write(self.render.header())

    def write(self, batch) -> None:
        if not batch.num_rows:
            return
        pa = require_pyarrow()
        try:
            pieces = self.render.rows(batch)
        except pa.ArrowException as exc:  # a value this pyarrow cannot write as text
            raise RunError(f"cannot write {self.output.name} as {self.kind}: {exc}") from None
        except json_lines.NonFinite:
            row, column = json_lines.first_non_finite(batch, self.schema)
            raise RunError(
                f"cannot write {self.output.name} as jsonl: row {self.rows + row + 1} of the "
                f"output, column {column!r}: NaN and infinities have no JSON form (write "
                "Parquet, Arrow or CSV)"
            ) from None
        for piece in pieces:
            self.output.write(piece)
        self.rows += batch.num_rows

    def close(self) -> None:
        pass

    def abandon(self) -> None:
        pass


def _parquet_check(schema, where: str) -> None:
    """A RunError naming the first column Parquet cannot hold (pyarrow's
    writer refuses it: intervals, unions, ...)."""
    pa = require_pyarrow()
    import pyarrow.parquet as pq

    def refused(fields) -> bool:
        try:
            pq.ParquetWriter(pa.BufferOutputStream(), pa.schema(fields)).close()
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError, TypeError):
            return True
        return False

    if refused(list(schema)):
        field = next((field for field in schema if refused([field])), schema[0])
        raise RunError(
            f"{where}: column {field.name!r} holds {field.type}, which Parquet cannot "
            "hold: write Arrow"
        )


def _writer(kind: str):
    def make(output, schema):
        if kind in ("parquet", "arrow"):
            return TableWriter(output, kind, schema)
        return TextTableWriter(output, kind, schema)

    return make


#: The formats, in the order the command line lists them.
FORMATS = (
    TableFormat("parquet", (".parquet", ".pq"), _parquet, _writer("parquet"), True, _parquet_check),
    TableFormat("arrow", (".arrow", ".feather", ".ipc"), _arrow, _writer("arrow")),
    TableFormat("csv", (".csv",), _csv, _writer("csv"), check=csv_writer.check),
    TableFormat("tsv", (".tsv",), _csv, _writer("tsv"), check=csv_writer.check),
    TableFormat("jsonl", (".jsonl", ".ndjson"), _jsonl, _writer("jsonl"), check=json_lines.check),
)
