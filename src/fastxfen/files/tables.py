"""Tables as a run reads and writes them: a table format (TableFormat: its
name, extensions, reader and writer), the record batches of an input
(TableReader), the column of positions in them, and the file objects that
pyarrow's readers and writers use on top of an Input and an Output.

Each format reads its input a record batch at a time and writes record
batches of one schema; the formats themselves are in arrow_tables (and any
module that registers one in table_formats)."""

from __future__ import annotations

from typing import Callable

from fastxfen.files import codecs
from fastxfen.files.errors import RunError
from fastxfen.files.inputs import Input
from fastxfen.files.values import Value

#: Rows of one record batch handed to the library, per byte of chunk_size.
_BYTES_PER_ROW = 64
#: The columns of positions found without a column name, compared in lower case.
DEFAULT_COLUMNS = ("fen", "epd")


def require_pyarrow():
    """pyarrow, or a RunError saying how to install it."""
    try:
        import pyarrow
    except ImportError:
        raise RunError("tables need pyarrow: pip install fastxfen[arrow]") from None
    return pyarrow


class TableFormat(Value):
    """A table format.  ``open(reader)`` gives (schema, iterator of record
    batches) for a TableReader (setting its ``total`` and ``unit`` when the
    format knows its row count); ``writer(output, schema)`` gives an object
    with ``write(batch)``, ``close()`` (ends the table) and ``abandon()``
    (lets go of a table that will not be published).  A format that
    ``compresses_inside`` is never written with a compression extension."""

    _fields = ("name", "extensions", "open", "writer", "compresses_inside")
    name: str
    extensions: tuple
    open: Callable
    writer: Callable
    compresses_inside: bool

    def __init__(
        self,
        name: str,
        extensions: tuple,
        open: Callable,
        writer: Callable,
        compresses_inside: bool = False,
    ) -> None:
        self._set(name=name, extensions=tuple(extensions), open=open, writer=writer)
        self._set(compresses_inside=bool(compresses_inside))


class TableReader:
    """The record batches of a table input of ``kind`` (a TableFormat), none
    longer than a chunk's rows.  ``schema`` is the input's schema; ``total``
    and ``unit`` size the progress, which ``position`` moves (bytes read, or
    rows for the formats that know their row count).  ``failures`` holds
    the errors (FenErrors, ``index`` the rows given before each) of what
    the format read but could not give as a row, in input order."""

    def __init__(self, path, kind: TableFormat, chunk_size: int, stack) -> None:
        self.path = path
        self.kind = kind.name
        self.name = "<stdin>" if codecs.is_stdio(path) else path
        self.chunk_size = chunk_size
        self.stack = stack
        self.rows_done = 0
        self.total = None
        self.unit = "B"
        self.source = None
        self.rows = max(1, chunk_size // _BYTES_PER_ROW)
        self.failures: list = []
        try:
            self.schema, self._batches = kind.open(self)
        except (OSError, ValueError) as exc:  # pyarrow's ArrowInvalid is a ValueError
            raise RunError(f"cannot read {self.name} as {self.kind}: {exc}") from None

    def stream(self) -> Input:
        """The input as a byte stream (decompressed, watched), read by
        ``position``."""
        self.source = Input(self.path, self.stack)
        return self.source

    def plain_file(self) -> str:
        """The input's path, for a format read by seeking: a RunError for
        stdin or a compressed file."""
        if codecs.is_stdio(self.path) or codecs.compression(self.path):
            raise RunError(
                f"{self.kind} is read from a plain file (it compresses inside and is "
                "read by seeking): not from stdin or a compressed file"
            )
        return self.path

    def block_size(self) -> int:
        """Bytes a streamed text table is read at a time."""
        return min(max(self.chunk_size, 1 << 16), 1 << 30)

    def batches(self):
        """The record batches, none longer than a chunk's rows."""
        try:
            for batch in self._batches:
                for at in range(0, batch.num_rows, self.rows):
                    # counted once in hand, so the progress aims at its end
                    self.rows_done += min(self.rows, batch.num_rows - at)
                    yield batch.slice(at, self.rows)
        except (OSError, ValueError) as exc:
            raise RunError(f"cannot read {self.name} as {self.kind}: {exc}") from None

    def position(self) -> int:
        """Where the progress stands."""
        if self.source is None:
            return self.rows_done
        return self.source.position()


class ReadStream:
    """The file object pyarrow reads from: ``head`` (bytes already read, to
    find a CSV header), then the rest of an Input."""

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


class WriteStream:
    """The file object pyarrow writes to: an Output (compressed by its name,
    written in the background); once ``muted``, writes go nowhere."""

    closed = False
    muted = False

    def __init__(self, output) -> None:
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


# ------------------------------------------------------------------ the column


def find_column(schema, name: str | None) -> int:
    """The index of the column of positions: ``name``, else the one column
    named fen or epd in any case; a RunError listing the columns otherwise."""
    names = schema.names
    listed = ", ".join(names) or "(none)"
    if name is not None:
        if names.count(name) == 1:
            return names.index(name)
        how = "twice" if name in names else "no column"
        raise RunError(f"--column {name}: the table has {how} by that name; its columns: {listed}")
    found = [i for i, n in enumerate(names) if n.lower() in DEFAULT_COLUMNS]
    if len(found) == 1:
        return found[0]
    why = "several columns" if found else "no column"
    raise RunError(
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
    raise RunError(f"column {column} holds {kind}, not text")


def with_column(schema, index: int, field, to_column: str | None):
    """The schema with ``field`` in place of column ``index``, or inserted
    after it when ``to_column`` names a new column."""
    if to_column is None:
        return schema.set(index, field)
    if to_column in schema.names:
        raise RunError(f"--to-column {to_column}: the table has a column by that name already")
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
