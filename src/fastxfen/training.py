"""Engine training data: Stockfish's ``.binpack``, ``.bin`` and ``.plain``
files read into Arrow or numpy columns and written from any table, a move
generator, and position legality checks (docs/training.md).

>>> import fastxfen.training as ft
>>> ft.perft("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3)
8902
>>> ft.status(["8/8/8/8/8/8/8/K6k w - - 0 1", "8/8/8/8/8/8/8/8 w - - 0 1"])
[(), ('no_white_king', 'no_black_king', 'empty')]
"""

from __future__ import annotations

import os
from typing import Literal, Optional, Sequence

import numpy as np

from fastxfen import _training
from fastxfen._training_io import (
    FORMATS,
    TrainingDataError,
    arrow_schema,
    failure_error,
    format_of,
    table_of,
)
from fastxfen._training_read import COLUMNS, DEFAULT_COLUMNS, Reader
from fastxfen._training_status import (
    STATUS_NAMES,
    illegal_positions,
    legal_moves,
    perft,
    status,
    status_flags,
)
from fastxfen._types import Castling, EnPassant, RecordErrors

__all__ = [
    "COLUMNS",
    "DEFAULT_COLUMNS",
    "FORMATS",
    "STATUS_NAMES",
    "Reader",
    "TrainingDataError",
    "Writer",
    "batches",
    "convert",
    "illegal_positions",
    "legal_moves",
    "perft",
    "read",
    "status",
    "status_flags",
    "write",
]

Format = Literal["binpack", "bin", "plain"]
WHOLE = 1 << 20  # read()'s batches: a 1 MiB block in one piece
WRITE_ROWS = 1 << 16  # rows of .bin and .plain a C call writes


def batches(source, **options) -> Reader:
    """A ``Reader`` over a training file: iterate it for its entries in
    batches, in file order, with memory that stays flat whatever the
    file's size.

    Parameters
    ----------
    source : str, os.PathLike or binary file object
        The file.
    **options
        ``format``, ``columns``, ``castling``, ``en_passant``, ``output``,
        ``errors`` and ``threads`` as for ``read``, and ``batch_size``
        (default 16,384): the most entries a batch holds.

    Returns
    -------
    Reader
        Iterable of ``pyarrow.RecordBatch`` (or dicts of numpy arrays with
        ``output="numpy"``); ``.errors`` keeps what ``errors="coerce"`` left
        out, ``.entries`` counts the entries given; a context manager.

    Raises
    ------
    ValueError
        An option out of range, or a format it cannot tell.
    TrainingDataError
        While iterating: an entry that cannot be read (``errors="raise"``).

    Examples
    --------
    >>> import io
    >>> import fastxfen.training as ft
    >>> buf = io.BytesIO()
    >>> ft.write(buf, {"fen": ["4k3/8/8/8/8/8/8/4K3 w - - 0 1"], "move": ["e1e2"],
    ...     "score": [0], "ply": [0], "result": [0]}, format="binpack")
    1
    >>> [b.num_rows for b in ft.batches(io.BytesIO(buf.getvalue()), format="binpack")]
    [1]
    """
    return Reader(source, **options)


def read(
    source,
    *,
    format: Optional[Format] = None,
    columns: Sequence[str] = DEFAULT_COLUMNS,
    castling: Castling = "xfen",
    en_passant: EnPassant = "xfen",
    output: Literal["arrow", "numpy"] = "arrow",
    errors: RecordErrors = "raise",
    threads: Optional[int] = None,
):
    """Every entry of a training file at once.

    Parameters
    ----------
    source : str, os.PathLike or binary file object
        The file (``gzip.open(...)`` works).
    format : {"binpack", "bin", "plain"}, optional
        By default the file name's suffix, else what its first bytes show.
    columns : sequence of str, default DEFAULT_COLUMNS
        Any of ``COLUMNS``: ``fen`` (canonical text), ``record``
        (``POSITION_DTYPE``), ``packed`` (Stockfish's 24 bytes), ``move``
        (UCI), ``sfmove`` (Stockfish's 16 bits), ``score``, ``ply``,
        ``result`` (score and result from the side to move's view),
        ``rule50`` and ``chain`` (the game, from 0).
    castling : {"xfen", "shredder"}, default "xfen"
        The castling field of ``fen``, as ``normalize`` writes it.
    en_passant : {"fen", "xfen", "legal"}, default "xfen"
        The en-passant field of ``fen``, as ``normalize`` writes it.
    output : {"arrow", "numpy"}, default "arrow"
        One ``pyarrow.Table``, or a dict of numpy arrays (text as ``S``
        arrays as wide as their longest value).
    errors : {"raise", "coerce"}, default "raise"
        ``"coerce"`` leaves out what cannot be read (docs/training.md).
    threads : int, optional
        ``.binpack`` blocks decoded on that many threads, given in order.

    Returns
    -------
    pyarrow.Table or dict of numpy.ndarray

    Raises
    ------
    TrainingDataError
        The first entry that cannot be read (``errors="raise"``).
    ValueError
        An option out of range, or a format it cannot tell.

    Examples
    --------
    >>> import io
    >>> import fastxfen.training as ft
    >>> buf = io.BytesIO()
    >>> ft.write(buf, {"fen": ["4k3/8/8/8/8/8/8/4K3 w - - 0 1"], "move": ["e1e2"],
    ...     "score": [12], "ply": [0], "result": [0]}, format="plain")
    1
    >>> ft.read(io.BytesIO(buf.getvalue()), columns=("fen", "move", "score")).to_pylist()
    [{'fen': '4k3/8/8/8/8/8/8/4K3 w - - 0 1', 'move': 'e1e2', 'score': 12}]
    """
    with Reader(
        source,
        format=format,
        columns=columns,
        castling=castling,
        en_passant=en_passant,
        output=output,
        batch_size=WHOLE,
        errors=errors,
        threads=threads,
    ) as r:
        parts = list(r)
    if output == "arrow":
        import pyarrow as pa

        return pa.Table.from_batches(parts, schema=None if parts else arrow_schema(columns))
    if not parts:
        parts = [{name: values[:0] for name, values in _empty(columns, castling).items()}]
    if len(parts) == 1:
        return parts[0]
    return {name: np.concatenate([p[name] for p in parts]) for name in columns}


def _empty(columns, castling):
    from fastxfen._training_io import numpy_batch

    return numpy_batch(
        _training.BinpackBlock(b"").read(_training.Spec(columns, castling), 0)[0], columns
    )


class Writer:
    """Writes entries to a training file, batch after batch.

    Parameters
    ----------
    target : str, os.PathLike or binary file object
        The file (a path is created or truncated).
    format : {"binpack", "bin", "plain"}, optional
        By default the path's suffix.
    errors : {"raise", "coerce"}, default "raise"
        ``"coerce"`` leaves out rows that cannot be written and appends
        their ``TrainingDataError`` to ``.errors``.

    Returns
    -------
    Writer
        ``write(table)`` takes a table with the columns ``fen`` (or
        ``record``), ``move`` (UCI, or ``sfmove``), ``score``, ``ply`` and
        ``result``: a pyarrow Table or RecordBatch, a pandas or polars
        DataFrame, a numpy structured array or a dict of columns, and
        returns the entries written.  ``.binpack`` chains and blocks are
        formed as Stockfish's writer forms them, across batches.
        ``close()`` (or leaving a ``with`` block) writes what is pending.

    Raises
    ------
    TrainingDataError
        From ``write``: a row that cannot be written (``errors="raise"``).
    ValueError
        A format it cannot tell, or a table without the columns.

    Examples
    --------
    >>> import io
    >>> import fastxfen.training as ft
    >>> buf = io.BytesIO()
    >>> with ft.Writer(buf, format="bin") as w:
    ...     w.write({"fen": ["4k3/8/8/8/8/8/8/4K3 w - - 0 1"], "move": ["e1d1"],
    ...              "score": [5], "ply": [0], "result": [1]})
    1
    >>> len(buf.getvalue())
    40
    """

    def __init__(self, target, *, format: Optional[Format] = None, errors: RecordErrors = "raise"):
        if errors not in ("raise", "coerce"):
            raise ValueError(f"errors must be 'raise' or 'coerce', not {errors!r}")
        path = os.fspath(target) if isinstance(target, (str, os.PathLike)) else None
        self.format = format_of(path, format)
        self.raising, self.errors, self.entries = errors == "raise", [], 0
        self.name = path if path is not None else getattr(target, "name", None)
        self.file = open(path, "wb") if path is not None else target
        self.owned = path is not None
        self.packer = _training.BinpackWriter() if self.format == "binpack" else None
        row = _training.BIN_ROW if self.format == "bin" else _training.PLAIN_ROW
        # two buffers taken in turn (the packer has its own two): what the
        # file is given stays unchanged until the write after next
        size = 0 if self.packer else WRITE_ROWS * row
        self.scratch, self.other = np.empty(size, np.uint8), np.empty(size, np.uint8)
        self.rows = 0  # rows of earlier write() calls

    def __enter__(self):
        return self

    def __exit__(self, exc_type, *exc):
        if exc_type is None:
            self.close()
        elif self.owned:
            self.file.close()

    def write(self, data) -> int:
        """Write a table's rows; returns the entries written."""
        if (
            self.format == "plain"
            and isinstance(data, dict)
            and isinstance(data.get("plain"), tuple)
        ):
            text, offsets = data["plain"]  # the entries as .plain text (a reader's column)
            self.file.write(text)
            self.entries += len(offsets) - 1
            self.rows += len(offsets) - 1
            return len(offsets) - 1
        table = table_of(data)
        before, start = self.entries, 0
        while start < table.n:
            if self.packer is not None:
                done, state, failure = self.packer.add(table, start)
                if state == 1:
                    self.file.write(self.packer.take())
            else:
                out, done, failure = _training.write_rows(table, start, self.scratch, self.format)
                self.scratch, self.other = self.other, self.scratch
                self.file.write(out)
            self.entries += done
            start += done
            if failure is not None:
                error = failure_error(failure, self.format, file=self.name, entry=self.rows + start)
                if self.raising:
                    raise error
                self.errors.append(error)
                start += 1
        self.rows += table.n
        return self.entries - before

    def close(self) -> None:
        """Write the last block (``.binpack``) and close a file it opened."""
        if self.packer is not None:
            self.packer.finish()
            self.file.write(self.packer.take())
            self.packer = None
        if self.owned and not self.file.closed:
            self.file.close()


def write(target, data, *, format: Optional[Format] = None, errors: RecordErrors = "raise") -> int:
    """Write a table's rows to a training file.

    Parameters
    ----------
    target : str, os.PathLike or binary file object
        The file.
    data : table
        As ``Writer.write`` takes it: columns ``fen`` or ``record``,
        ``move`` or ``sfmove``, ``score``, ``ply``, ``result``.
    format : {"binpack", "bin", "plain"}, optional
        By default the path's suffix.
    errors : {"raise", "coerce"}, default "raise"
        As for ``Writer``.

    Returns
    -------
    int
        The entries written.

    Raises
    ------
    TrainingDataError
        A row that cannot be written (``errors="raise"``).
    ValueError
        A format it cannot tell, or a table without the columns.

    Examples
    --------
    >>> import io
    >>> import fastxfen.training as ft
    >>> buf = io.BytesIO()
    >>> ft.write(buf, {"fen": ["4k3/8/8/8/8/8/8/4K3 w - - 0 1"], "move": ["e1e2"],
    ...     "score": [0], "ply": [0], "result": [0]}, format="plain")
    1
    >>> print(buf.getvalue().decode(), end="")
    fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1
    move e1e2
    score 0
    ply 0
    result 0
    e
    """
    with Writer(target, format=format, errors=errors) as w:
        w.write(data)
    return w.entries


def convert(
    source,
    target,
    *,
    format: Optional[Format] = None,
    to: Optional[Format] = None,
    errors: RecordErrors = "raise",
    threads: Optional[int] = None,
) -> int:
    """Convert a training file into another format.

    The entries go from the reader to the writer as they are, with no text
    to write and read again in between.

    Parameters
    ----------
    source, target : str, os.PathLike or binary file object
        The file to read and the file to write.
    format, to : {"binpack", "bin", "plain"}, optional
        Their formats; by default from the names (``format`` also from the
        source's first bytes).
    errors : {"raise", "coerce"}, default "raise"
        ``"coerce"`` leaves out what cannot be read or written (as
        ``batches`` and ``Writer`` do).
    threads : int, optional
        ``.binpack`` blocks decoded on that many threads.

    Returns
    -------
    int
        The entries written.

    Raises
    ------
    TrainingDataError
        An entry that cannot be read or written (``errors="raise"``).
    ValueError
        A format it cannot tell.

    Examples
    --------
    >>> import io
    >>> import fastxfen.training as ft
    >>> plain = b"fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\\nmove e1e2\\nscore 3\\nply 0\\nresult 0\\ne\\n"
    >>> out = io.BytesIO()
    >>> ft.convert(io.BytesIO(plain), out, format="plain", to="bin")
    1
    """
    with Writer(target, format=to, errors=errors) as w:
        with Reader(
            source,
            format=format,
            columns=("plain",) if w.format == "plain" else ("entries",),
            output="numpy",
            errors=errors,
            threads=threads,
        ) as r:
            for batch in r:
                w.write(batch)
    return w.entries
