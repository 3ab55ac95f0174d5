"""Tables as a run reads and writes them: a table format (TableFormat: its
name, extensions, reader and writer), the record batches of an input
(TableReader), the column of positions in them, and the file objects that
pyarrow's readers and writers use on top of an Input and an Output.

Each format reads its input a record batch at a time and writes record
batches of one schema; the formats themselves are in arrow_tables (and any
module that registers one in table_formats)."""

from __future__ import annotations

import contextlib
import gc
import os
import threading
import time
import weakref
from typing import Callable, Optional

import numpy as np

from fastxfen.files import codecs, inputs
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
        import pyarrow.compute  # noqa: F401  (pyarrow.compute, for every table)
    except ImportError:
        raise RunError("tables need pyarrow: pip install fastxfen[arrow]") from None
    return pyarrow


class TableFormat(Value):
    """A table format.  ``open(reader)`` gives (schema, iterator of record
    batches) for a TableReader (setting its ``total`` and ``unit`` when the
    format knows its row count); ``writer(output, schema)`` gives an object
    with ``write(batch)``, ``close()`` (ends the table) and ``abandon()``
    (lets go of a table that will not be published).  A format that
    ``compresses_inside`` is never written with a compression extension.
    ``check(schema, where)``, if given, raises a RunError naming the first
    column whose type the format cannot write back as it was (``where``
    names the output in the message); it runs before any output is made."""

    _fields = ("name", "extensions", "open", "writer", "compresses_inside", "check")
    name: str
    extensions: tuple
    open: Callable
    writer: Callable
    compresses_inside: bool
    check: Optional[Callable]

    def __init__(
        self,
        name: str,
        extensions: tuple,
        open: Callable,
        writer: Callable,
        compresses_inside: bool = False,
        check: Optional[Callable] = None,
    ) -> None:
        self._set(name=name, extensions=tuple(extensions), open=open, writer=writer)
        self._set(compresses_inside=bool(compresses_inside), check=check)


class TableReader:
    """The record batches of a table input of ``kind`` (a TableFormat), none
    longer than a chunk's rows.  ``schema`` is the input's schema; ``total``
    and ``unit`` size the progress, which ``position`` moves (bytes read, or
    rows for the formats that know their row count).  ``failures`` holds
    the errors (FenErrors, ``index`` the rows given before each) of what
    the format read but could not give as a row, in input order."""

    def __init__(
        self, path, kind: TableFormat, chunk_size: int, stack, column=None, column_types=()
    ) -> None:
        self.path = path
        self.kind = kind.name
        self.name = "<stdin>" if codecs.is_stdio(path) else path
        self.chunk_size = chunk_size
        self.stack = stack
        self.column = column  # the column of positions (None: fen or epd)
        self.column_types = column_types  # (name, type name) pairs for a typeless format
        self.types_used = False  # set by a format that reads column_types
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
        if column_types and not self.types_used:
            raise RunError(
                f"--column-types applies to CSV and TSV inputs, whose columns hold "
                f"text; {self.name} is {self.kind}, whose columns have their types"
            )

    def stream(self) -> Input:
        """The input as a byte stream (decompressed, watched), read by
        ``position``."""
        self.source = Input(self.path, self.stack)
        return self.source

    def read_stream(self, head: bytes = b"", source: Input | None = None) -> ReadStream:
        """A ReadStream of the input (``source``, else a new ``stream()``),
        closed on the way out of the run before the input is."""
        stream = ReadStream(self.stream() if source is None else source, head)
        self.stack.callback(stream.close)
        return stream

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

    def watch(self, fd: int) -> None:
        """Watch the open file ``fd`` that pyarrow reads by itself (Parquet,
        an Arrow IPC file): ``batches`` checks it after every batch, as an
        Input checks after every read."""
        before = inputs.stamp(fd)
        self._changed = lambda: inputs.changed(self.name, before, os.fstat(fd))

    def _changed(self) -> RunError | None:
        return None

    def batches(self):
        """The record batches, none longer than a chunk's rows."""
        pa = require_pyarrow()
        try:
            for batch in self._batches:
                self._check()
                for at in range(0, batch.num_rows, self.rows):
                    # counted once in hand, so the progress aims at its end
                    self.rows_done += min(self.rows, batch.num_rows - at)
                    yield batch.slice(at, self.rows)
            self._check()
        except (OSError, ValueError, pa.ArrowException) as exc:
            _unlinked(exc)
            changed = self._changed()
            if changed is not None:
                raise changed from None
            raise RunError(f"cannot read {self.name} as {self.kind}: {exc}") from None
        finally:
            # the frames of an error hold this reader: let go of pyarrow's
            self._batches = None

    def _check(self) -> None:
        changed = self._changed()
        if changed is not None:
            raise changed

    def position(self) -> int:
        """Where the progress stands."""
        if self.source is None:
            return self.rows_done
        return self.source.position()


class ReadStream:
    """The file object pyarrow reads from: ``head`` (bytes already read, to
    find a CSV header), then the rest of an Input.  While ``kept`` is a
    list, what is read is appended to it too (to read it again).

    pyarrow's CSV and JSON readers read ahead from threads of their own,
    and go on doing so after their reader is closed; reading a closed
    decompressor (zstandard's) crashes the process.  So the stream is
    closed first, on every way out of a run (TableReader.read_stream puts
    it on the run's stack after the Input): ``close`` waits for the read in
    progress in another thread, and every later read raises, which stops
    pyarrow's reading ahead; only then is the Input closed."""

    kept = None

    def __init__(self, source: Input, head: bytes = b"") -> None:
        self.source = source
        self.head = head
        self.closed = False
        self.tail = head[-8:]  # the last bytes read (the end of an Arrow IPC stream)
        self._readers: dict = {}  # the threads inside a read (dict operations are atomic)
        self._batches = None  # the pyarrow reader reading this stream ahead

    def read(self, n: int = -1) -> bytes:
        me = threading.get_ident()
        try:
            self._readers[me] = True
            if self.closed:
                raise ValueError(f"{self.source.name}: the run stopped reading it")
            data = self._read(n)
            self.tail = (self.tail + data)[-8:] if len(data) < 8 else data[-8:]
            if self.kept is not None:
                self.kept.append(data)
            return data
        finally:
            self._readers.pop(me, None)

    def _read(self, n: int) -> bytes:
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

    def lend(self):
        """This stream as the file object of a pyarrow reader that reads
        ahead on threads of its own (CSV, JSON Lines), noted so that
        ``released`` can wait for pyarrow to let go of it.

        Read through a buffered stream, the bytes pyarrow's threads keep
        are copies in Arrow's memory: a PythonFile read directly gives
        them views of the Python bytes, whose release on those threads
        would need the GIL, late (see ``released``).  pyarrow closes the
        file it reads from on its own threads, when it lets go of it: that
        close leaves this stream alone, which the run closes itself."""
        pa = require_pyarrow()
        lent = _Lent(self)
        _lent.add(lent)
        return pa.BufferedInputStream(pa.PythonFile(lent, mode="r"), _LENT_BUFFER)

    def read_by(self, batches) -> None:
        """Note ``batches``, the pyarrow reader that reads this stream ahead
        (CSV, JSON Lines): ``close`` stops it."""
        self._batches = batches

    def close(self) -> None:
        """Refuse reads from now on, once the reads under way in other
        threads are done (a signal meanwhile is raised after them); then
        stop the pyarrow reader reading ahead (``read_by``)."""
        self.closed = True
        try:
            self._wait_for_reads()
        finally:
            batches, self._batches = self._batches, None
            if batches is not None:
                _stop(batches)

    def _wait_for_reads(self) -> None:
        me, caught = threading.get_ident(), None
        while self._readers.keys() - {me}:
            try:
                time.sleep(_CLOSE_POLL)
            except BaseException as exc:  # (a signal outside the command line)
                caught = caught if caught is not None else exc
        if caught is not None:
            raise caught


#: Seconds between two looks at the reads under way while a ReadStream closes.
_CLOSE_POLL = 0.002


class _Lent:
    """A ReadStream as pyarrow sees it: its reads, and a close that does
    nothing (the stream's own close waits for reads and stops pyarrow's
    reader, which on a thread of pyarrow's would wait for itself)."""

    __slots__ = ("read", "__weakref__")

    def __init__(self, stream: ReadStream) -> None:
        self.read = stream.read

    closed = False

    def close(self) -> None:
        pass

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False


#: What was lent to pyarrow (weakly: alive while pyarrow holds it).
_lent: weakref.WeakSet = weakref.WeakSet()
#: Bytes of the buffer between a lent ReadStream and pyarrow (larger reads
#: go straight into the caller's memory).
_LENT_BUFFER = 1 << 16


def released(timeout: float = 5.0) -> bool:
    """Wait until pyarrow has freed every ReadStream lent to it; False if one
    is still held after ``timeout`` seconds.

    pyarrow's reading ahead lets go of a stream (a Python object) on its
    own thread, after the reader has delivered the end, and needs the GIL
    for it: if the interpreter is ending by then, that thread is stopped
    in the middle of C++ code and the process aborts ("terminate called
    without an active exception"). The command line waits here, once the
    run has let go of its readers, so that it ends only after them."""
    if not _lent:
        return True
    gc.collect()  # a reader held only by a reference cycle
    deadline = time.monotonic() + timeout
    while _lent and time.monotonic() < deadline:
        time.sleep(_CLOSE_POLL)  # the GIL is free for pyarrow's thread meanwhile
    return not _lent


def _stop(batches) -> None:
    """Stop a pyarrow reader whose stream refuses reads: read it to the
    error that refusal gives.  Its reading ahead (a task on pyarrow's I/O
    threads) ends there; left pending, that task would wait for the GIL
    after the interpreter's end, and its clean-up would hang the process's
    exit."""
    try:
        while True:
            batches.read_next_batch()
    except Exception as exc:
        _unlinked(exc)
    with contextlib.suppress(Exception):
        batches.close()


def _unlinked(exc: BaseException) -> None:
    """Drop the frames of an exception pyarrow raised: pyarrow keeps the
    Python exception of a failed read in its reader's state, so frames
    holding the reader would make a cycle through C++ that Python's
    collector never sees; freed only at the process's exit, on pyarrow's
    threads, the reader's clean-up would then hang the exit."""
    exc.__traceback__ = None


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


def with_column(schema, index: int, field, to_column: str | None, option: str = "--to-column"):
    """The schema with ``field`` in place of column ``index``, or inserted
    after it when ``to_column`` (the value of ``option``) names a new column."""
    if to_column is None:
        return schema.set(index, field)
    if to_column in schema.names:
        raise RunError(f"{option} {to_column}: the table has a column by that name already")
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


# ------------------------------------------------------------------ arrays
# Built from their buffers: pyarrow.array() imports pandas where it is
# installed (0.4 s a run), to check whether its input is a pandas object.


def int_array(values):
    """An int64 Arrow array of ``values`` (ints)."""
    pa = require_pyarrow()
    data = np.ascontiguousarray(values, np.int64)
    return pa.Array.from_buffers(pa.int64(), len(data), [None, pa.py_buffer(data)])


def numpy_mask(bools) -> np.ndarray:
    """A boolean Arrow array without nulls as a numpy bool array, unpacked
    from its bits."""
    bits = np.frombuffer(bools.buffers()[1], np.uint8)
    start = bools.offset
    return np.unpackbits(bits, bitorder="little")[start : start + len(bools)].view(bool)


def bool_array(mask):
    """A boolean Arrow array of a numpy bool array."""
    pa = require_pyarrow()
    bits = np.packbits(np.asarray(mask, bool), bitorder="little")
    return pa.Array.from_buffers(pa.bool_(), len(mask), [None, pa.py_buffer(bits)])


def text_array(values):
    """A string Arrow array of ``values`` (str or None)."""
    pa = require_pyarrow()
    missing = np.fromiter((v is None for v in values), bool, len(values))
    encoded = [b"" if v is None else v.encode() for v in values]
    offsets = np.zeros(len(values) + 1, np.int32)
    np.cumsum([len(e) for e in encoded], out=offsets[1:])
    validity = pa.py_buffer(np.packbits(~missing, bitorder="little")) if missing.any() else None
    data = pa.py_buffer(b"".join(encoded))
    buffers = [validity, pa.py_buffer(offsets), data]
    return pa.Array.from_buffers(pa.string(), len(values), buffers)
