"""Tables on the command line: Parquet, Arrow IPC, CSV/TSV and JSON Lines,
read one record batch at a time and written back with pyarrow's own readers
and writers.  The commands find the column of positions here
(``find_column``), and write their rejected rows as a table (``RejectsTable``).

What is streamed: Parquet by batches of rows within each row group (a
buffered stream of the file, not the whole row group at once); Arrow IPC
files batch by batch through a memory map, IPC streams batch by batch; CSV,
TSV and JSON Lines by blocks of ``--chunk-size`` bytes (a row may not be
longer than a block).  CSV and TSV columns are all read as text, so that
every value is written back as it came; JSON Lines keep the types pyarrow
infers from the first block.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat

from fastxfen.cli.errors import CliError
from fastxfen.cli.io import Input, Output, compression, is_stdio

TABLE_FORMATS = ("parquet", "arrow", "csv", "tsv", "jsonl")
#: What --input-format takes: FEN text (one position per line) or a table.
INPUT_FORMATS = ("text", *TABLE_FORMATS)

_BY_EXTENSION = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".arrow": "arrow",
    ".feather": "arrow",
    ".ipc": "arrow",
    ".csv": "csv",
    ".tsv": "tsv",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
}
#: Formats that hold their own compression and need a file to seek in.
_SELF_COMPRESSED = ("parquet",)
#: The columns of positions found without --column, compared in lower case.
DEFAULT_COLUMNS = ("fen", "epd")
#: Rows of one record batch handed to the library, per byte of --chunk-size.
_BYTES_PER_ROW = 64


def require_pyarrow():
    """pyarrow, or a CliError saying how to install it."""
    try:
        import pyarrow
    except ImportError:
        raise CliError("tables need pyarrow: pip install fastxfen[arrow]") from None
    return pyarrow


def format_by_name(path: str | None) -> str | None:
    """The table format a file name's extension names (a compression
    extension such as .gz looked past), or None."""
    if is_stdio(path):
        return None
    base = os.path.splitext(path)[0] if compression(path) else path
    return _BY_EXTENSION.get(os.path.splitext(base)[1].lower())


def input_format(args) -> str:
    """'text' or the table format of the input: --input-format, else its
    extension."""
    return getattr(args, "input_format", None) or format_by_name(args.input) or "text"


def output_format(args, input_kind: str) -> str:
    """The table format of the output: --output-format, else the output's
    extension, else the input's format."""
    given = getattr(args, "output_format", None)
    if given:
        return given
    return format_by_name(args.output) or input_kind


def batch_rows(args) -> int:
    """Rows per record batch handed to the library."""
    return max(1, args.chunk_size // _BYTES_PER_ROW)


# ------------------------------------------------------------------ reading


class _ReadStream:
    """The file object pyarrow reads from: ``head`` (bytes already read to
    find the CSV header), then the rest of an Input."""

    closed = False

    def __init__(self, source: Input, head: bytes = b"") -> None:
        self.source = source
        self.head = head

    def read(self, n: int = -1) -> bytes:
        if self.head:
            data = self.head if n < 0 else self.head[:n]
            self.head = self.head[len(data) :]
            return data
        if n < 0:
            return b"".join(iter(lambda: self.source.read(1 << 20), b""))
        return self.source.read(n)

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def close(self) -> None:
        self.closed = True


class TableReader:
    """The record batches of a table input.  ``schema`` is the input's
    schema; ``total`` and ``unit`` size the progress bar, which ``position``
    moves (bytes read, or rows for the formats that know their row count)."""

    def __init__(self, args, kind: str, stack: contextlib.ExitStack) -> None:
        self.kind = kind
        self.name = "<stdin>" if is_stdio(args.input) else args.input
        self.rows_done = 0
        self.total = None
        self.unit = "B"
        self.source = None
        self._rows = batch_rows(args)
        opener = {
            "parquet": self._parquet,
            "arrow": self._arrow,
            "csv": self._csv,
            "tsv": self._csv,
            "jsonl": self._jsonl,
        }[kind]
        try:
            self.schema, self._batches = opener(args, stack)
        except (OSError, ValueError) as exc:  # pyarrow's ArrowInvalid is a ValueError
            raise CliError(f"cannot read {self.name} as {kind}: {exc}") from None

    def _file(self, args) -> str:
        if is_stdio(args.input) or compression(args.input):
            raise CliError(
                f"{self.kind} is read from a plain file (it compresses inside and is "
                "read by seeking): not from stdin or a compressed file"
            )
        return args.input

    def _parquet(self, args, stack):
        require_pyarrow()
        import pyarrow.parquet as pq

        # A buffered stream instead of whole column chunks in memory.
        file = pq.ParquetFile(self._file(args), buffer_size=1 << 20, pre_buffer=False)
        stack.callback(file.close)
        self.total, self.unit = file.metadata.num_rows, "rows"
        return file.schema_arrow, file.iter_batches(batch_size=self._rows, use_threads=False)

    def _arrow(self, args, stack):
        pa = require_pyarrow()
        import pyarrow.ipc as ipc

        path = args.input
        if not is_stdio(path) and not compression(path) and _regular(path):
            # Read, never memory-mapped: a mapped file truncated by another
            # process would kill the run with SIGBUS (docs/failures.md).
            file = pa.OSFile(path, "rb")
            stack.callback(file.close)
            try:
                reader = ipc.open_file(file)
            except pa.ArrowInvalid:  # not the file format: an IPC stream
                file.seek(0)
                reader = ipc.open_stream(file)
                self.unit = "rows"
                return reader.schema, iter(reader)
            count = reader.num_record_batches
            counted = getattr(reader, "count_rows", None)  # pyarrow 15 and later
            self.total = counted() if counted else None
            self.unit = "rows"
            return reader.schema, (reader.get_batch(i) for i in range(count))
        self.source = Input(path, stack)
        reader = ipc.open_stream(pa.PythonFile(_ReadStream(self.source), mode="r"))
        return reader.schema, iter(reader)

    def _csv(self, args, stack):
        pa = require_pyarrow()
        import pyarrow.csv as pcsv

        self.source = Input(args.input, stack)
        parse = pcsv.ParseOptions(delimiter="\t" if self.kind == "tsv" else ",")
        block = min(max(args.chunk_size, 1 << 16), 1 << 30)
        # The header names every column, so that each is read as text.
        head = b""
        while b"\n" not in head:
            more = self.source.read(1 << 16)
            if not more:
                break
            head += more
        header = head[: head.find(b"\n") + 1] if b"\n" in head else head
        if not header.strip():
            raise CliError(f"{self.name} is empty: a {self.kind.upper()} needs a header line")
        names = pcsv.read_csv(
            pa.BufferReader(header), parse_options=parse
        ).column_names  # the header parsed by pyarrow
        convert = pcsv.ConvertOptions(
            column_types={name: pa.string() for name in names},
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
        )
        reader = pcsv.open_csv(
            pa.PythonFile(_ReadStream(self.source, head), mode="r"),
            read_options=pcsv.ReadOptions(block_size=block, use_threads=False),
            parse_options=parse,
            convert_options=convert,
        )
        return reader.schema, iter(reader)

    def _jsonl(self, args, stack):
        pa = require_pyarrow()
        import pyarrow.json as pjson

        self.source = Input(args.input, stack)
        block = min(max(args.chunk_size, 1 << 16), 1 << 30)
        reader = pjson.open_json(
            pa.PythonFile(_ReadStream(self.source), mode="r"),
            read_options=pjson.ReadOptions(block_size=block, use_threads=False),
        )
        return reader.schema, iter(reader)

    def batches(self):
        """The record batches, none longer than a chunk's rows."""
        try:
            for batch in self._batches:
                for at in range(0, batch.num_rows, self._rows):
                    # counted once in hand, so the bar aims at its end
                    self.rows_done += min(self._rows, batch.num_rows - at)
                    yield batch.slice(at, self._rows)
        except (OSError, ValueError) as exc:
            raise CliError(f"cannot read {self.name} as {self.kind}: {exc}") from None

    def position(self) -> int:
        """Where the progress bar stands."""
        if self.source is None:
            return self.rows_done
        return self.source.position()


def _regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError as exc:
        raise CliError(f"cannot read {path}: {exc.strerror or exc}") from None


# ------------------------------------------------------------------ the column


def find_column(schema, name: str | None) -> int:
    """The index of the column of positions: ``name`` (--column), else the
    one column named fen or epd in any case; a CliError listing the columns
    otherwise."""
    names = schema.names
    listed = ", ".join(names) or "(none)"
    if name is not None:
        if names.count(name) == 1:
            return names.index(name)
        how = "twice" if name in names else "no column"
        raise CliError(f"--column {name}: the table has {how} by that name; its columns: {listed}")
    found = [i for i, n in enumerate(names) if n.lower() in DEFAULT_COLUMNS]
    if len(found) == 1:
        return found[0]
    why = "several columns" if found else "no column"
    raise CliError(
        f"the table has {why} named fen or epd (in any case); name the column of "
        f"positions with --column; its columns: {listed}"
    )


def is_text_type(kind) -> bool:
    """Whether an Arrow type holds text the library reads."""
    pa = require_pyarrow()
    types = pa.types
    view = getattr(types, "is_string_view", lambda _: False)
    return types.is_string(kind) or types.is_large_string(kind) or view(kind)


def text_type(kind, column: str):
    """The type the column's text is read as: its own, or string for a
    dictionary of strings or a column of nulls only."""
    pa = require_pyarrow()
    if is_text_type(kind):
        return kind
    if pa.types.is_null(kind) or (pa.types.is_dictionary(kind) and is_text_type(kind.value_type)):
        return pa.string()
    raise CliError(f"column {column} holds {kind}, not text")


def with_column(schema, index: int, field, to_column: str | None):
    """The schema with ``field`` in place of column ``index``, or inserted
    after it when ``to_column`` names a new column."""
    if to_column is None:
        return schema.set(index, field)
    if to_column in schema.names:
        raise CliError(f"--to-column {to_column}: the table has a column by that name already")
    return schema.insert(index + 1, field)


def put_column(batch, index: int, array, to_column: str | None, schema):
    """The batch with ``array`` in place of column ``index``, or after it."""
    pa = require_pyarrow()
    columns = list(batch.columns)
    if to_column is None:
        columns[index] = array
    else:
        columns.insert(index + 1, array)
    return pa.RecordBatch.from_arrays(columns, schema=schema)


# ------------------------------------------------------------------ writing


class _WriteStream:
    """The file object pyarrow writes to: an Output (compressed by its name,
    written in the background); once ``muted``, writes go nowhere."""

    closed = False
    muted = False

    def __init__(self, output: Output) -> None:
        self.output = output
        self.at = 0

    def write(self, data) -> int:
        if not self.muted:
            data = bytes(data)  # pyarrow may reuse its buffer; Output keeps it
            self.output.write(data)
        self.at += len(data)
        return len(data)

    def tell(self) -> int:
        return self.at

    def flush(self) -> None:
        pass

    def writable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False

    def close(self) -> None:
        self.closed = True


def _json_value(value):
    """What json cannot write by itself (dates, times, decimals, bytes), as text."""
    if isinstance(value, (bytes, bytearray)):
        return value.decode("utf-8", "replace")
    return value.isoformat() if hasattr(value, "isoformat") else str(value)


class TableWriter:
    """Record batches of one schema written as a table of ``kind`` to an
    Output.  Parquet, Arrow IPC and CSV/TSV through pyarrow's writers; JSON
    Lines (pyarrow writes none) one object per row through Python's json."""

    def __init__(self, output: Output, kind: str, schema) -> None:
        pa = require_pyarrow()
        if kind in _SELF_COMPRESSED and output.kind is not None:
            raise CliError(
                f"{output.name}: {kind} compresses inside; write it without a compression extension"
            )
        self.kind = kind
        self.output = output
        self.schema = schema
        self.rows = 0
        self._stream = _WriteStream(output)
        try:
            self._writer = self._open(pa.PythonFile(self._stream, mode="w"))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
            raise CliError(f"cannot write {output.name} as {kind}: {exc}") from None

    def _open(self, sink):
        kind, schema = self.kind, self.schema
        if kind == "parquet":
            import pyarrow.parquet as pq

            return pq.ParquetWriter(sink, schema)
        elif kind == "arrow":
            import pyarrow.ipc as ipc

            # A file (Feather v2) where one can be written; a stream to stdout.
            opener = ipc.new_stream if self.output.is_stdout else ipc.new_file
            return opener(sink, schema)
        elif kind in ("csv", "tsv"):
            import pyarrow.csv as pcsv

            options = pcsv.WriteOptions(delimiter="\t" if kind == "tsv" else ",")
            return pcsv.CSVWriter(sink, schema, write_options=options)
        return None

    def write(self, batch) -> None:
        if not batch.num_rows:
            return
        self.rows += batch.num_rows
        try:
            if self._writer is not None:
                self._writer.write_batch(batch)
                return
            lines = [
                json.dumps(row, ensure_ascii=False, separators=(",", ":"), default=_json_value)
                for row in batch.to_pylist()
            ]
            self._stream.write(("\n".join(lines) + "\n").encode())
        except (OSError, ValueError, TypeError) as exc:
            raise CliError(f"cannot write {self.output.name} as {self.kind}: {exc}") from None

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


class RejectsTable:
    """The --rejects file of a table input: one row per rejected row (its
    1-based row number, the column, field and reason of the error, and the
    value as read), as a table of the format the file's name says (CSV for
    a name that says none)."""

    def __init__(self, output: Output | None, column_type) -> None:
        self.output = output
        if output is None:
            return
        pa = require_pyarrow()
        self.schema = pa.schema(
            [
                ("row", pa.int64()),
                ("column", pa.int64()),
                ("field", pa.string()),
                ("reason", pa.string()),
                ("value", column_type),
            ]
        )
        kind = format_by_name(output.name) or "csv"
        self.writer = TableWriter(output, kind, self.schema)

    def add(self, rows: list) -> None:
        """rows: (row number, FenError, original value) of rejected rows."""
        if self.output is None or not rows:
            return
        pa = require_pyarrow()
        numbers, errors, values = zip(*rows)
        self.writer.write(
            pa.RecordBatch.from_arrays(
                [
                    pa.array(numbers, pa.int64()),
                    pa.array([e.column for e in errors], pa.int64()),
                    pa.array([e.field for e in errors], pa.string()),
                    pa.array([e.reason for e in errors], pa.string()),
                    pa.array(values, self.schema.field("value").type),
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
