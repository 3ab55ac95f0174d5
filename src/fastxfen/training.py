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

import concurrent.futures
import os
from typing import Any, Iterator, Optional

import numpy as np

from fastxfen import _options, _training
from fastxfen._errors import FenError
from fastxfen._optional import require_arrow
from fastxfen._training_io import (
    FORMATS,
    TrainingDataError,
    arrow_batch,
    failure_error,
    format_of,
    numpy_batch,
    read_exact,
    table_of,
    text_column,
)

__all__ = [
    "COLUMNS",
    "DEFAULT_COLUMNS",
    "FORMATS",
    "STATUS_NAMES",
    "Reader",
    "TrainingDataError",
    "Writer",
    "batches",
    "illegal_positions",
    "legal_moves",
    "perft",
    "read",
    "status",
    "status_flags",
    "write",
]

#: Every column a reader can give, and those it gives by default.
COLUMNS = _training.COLUMNS
DEFAULT_COLUMNS = ("fen", "move", "score", "ply", "result", "rule50", "chain")
#: python-chess's Board.status() flags (same bits) and their names.
STATUS_NAMES = {
    1 << 0: "no_white_king",
    1 << 1: "no_black_king",
    1 << 2: "too_many_kings",
    1 << 3: "too_many_white_pawns",
    1 << 4: "too_many_black_pawns",
    1 << 5: "pawns_on_backrank",
    1 << 6: "too_many_white_pieces",
    1 << 7: "too_many_black_pieces",
    1 << 8: "bad_castling_rights",
    1 << 9: "invalid_ep_square",
    1 << 10: "opposite_check",
    1 << 11: "empty",
    1 << 15: "too_many_checkers",
    1 << 16: "impossible_check",
}
BATCH = 1 << 14  # entries a batch: 1.3 MB of records, in the CPU cache
WHOLE = 1 << 20  # read()'s batches: a 1 MiB block in one piece
CHUNK = 1 << 22  # bytes of .bin and .plain read at a time


# ---------------------------------------------------------------- moves and legality


def legal_moves(fen: str, *, chess960: bool = False) -> list:
    """The legal moves of one 8x8 position as UCI text: castling as the
    king's two-square step (``e1g1``), or with ``chess960`` as the king
    taking its rook (``e1h1``)."""
    return _training.legal_moves(fen, chess960)


def perft(fen: str, depth: int) -> int:
    """Leaf positions ``depth`` plies (0..12) below one 8x8 position."""
    return _training.perft(fen, depth)


def status_flags(fens, *, chess960: bool = True, errors: str = "raise") -> np.ndarray:
    """python-chess's ``Board.status()`` of each FEN row, as a ``uint32``
    array with the same bits (``chess.STATUS_*``; 0 is valid).

    ``chess960`` judges castling rights as ``chess.Board(fen,
    chess960=True)`` does (a rook of the right color on the back rank,
    each beside the king); ``False`` as a standard board does (corner rooks,
    king on e1 / e8).  A row that cannot be read raises its ``FenError``, or
    with ``errors="coerce"`` gets the flag ``1 << 31``.
    """
    if errors not in ("raise", "coerce"):
        raise ValueError(f"errors must be 'raise' or 'coerce', not {errors!r}")
    fens = [fens] if isinstance(fens, (str, bytes)) else fens
    data, offsets, missing = text_column(fens, len(fens))
    flags, failed = _training.status_rows(data, offsets, bool(chess960))
    for row in np.flatnonzero(missing):
        failed[int(row)] = FenError(int(row), 0, "input", "missing value")
    if failed and errors == "raise":
        raise failed[min(failed)]
    for row in failed:
        flags[row] = 1 << 31
    return flags


def status(fens, *, chess960: bool = True, errors: str = "raise") -> list:
    """The problems of each position as a tuple of names (python-chess's
    status flags in lower case, such as ``"no_white_king"``,
    ``"opposite_check"``, ``"invalid_ep_square"``); ``()`` for a valid
    position, ``None`` for a row ``errors="coerce"`` could not read."""
    return [
        None if f >> 31 else tuple(name for bit, name in STATUS_NAMES.items() if f & bit)
        for f in status_flags(fens, chess960=chess960, errors=errors).tolist()
    ]


def illegal_positions(fens, *, chess960: bool = True) -> list:
    """``None`` for each valid position, else ``"illegal position: "`` and
    its problems (``validate``'s form of a message); a row that cannot be
    read gives its syntax message."""
    fens = [fens] if isinstance(fens, (str, bytes)) else list(fens)
    data, offsets, missing = text_column(fens, len(fens))
    flags, failed = _training.status_rows(data, offsets, bool(chess960))
    out = []
    for row, f in enumerate(flags.tolist()):
        if missing[row]:
            out.append(None)
        elif row in failed:
            out.append(f"{failed[row].location}: {failed[row].reason}")
        elif f:
            names = [name.replace("_", " ") for bit, name in STATUS_NAMES.items() if f & bit]
            out.append("illegal position: " + ", ".join(names))
        else:
            out.append(None)
    return out


# ---------------------------------------------------------------- reading


class Reader:
    """Batches of the entries of one training file, in file order.

    Iterate for ``pyarrow.RecordBatch``es (``output="arrow"``) or dicts of
    numpy arrays (``output="numpy"``), each of at most ``batch_size``
    entries.  ``errors``: ``"raise"`` raises the first
    ``TrainingDataError``; ``"coerce"`` leaves out what cannot be read (an
    entry of ``.bin`` or ``.plain``; the rest of a ``.binpack`` chain, or of
    its block when the move text cannot be followed) and appends each
    error to ``.errors``.  ``.entries`` counts the entries given so far.
    """

    def __init__(
        self,
        source,
        *,
        format=None,
        columns=DEFAULT_COLUMNS,
        castling="xfen",
        en_passant="xfen",
        output="arrow",
        batch_size=BATCH,
        errors="raise",
        threads=None,
    ):
        if output not in ("arrow", "numpy"):
            raise ValueError(f"output must be 'arrow' or 'numpy', not {output!r}")
        if errors not in ("raise", "coerce"):
            raise ValueError(f"errors must be 'raise' or 'coerce', not {errors!r}")
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int, not {batch_size!r}")
        self.spec = _training.Spec(columns, castling, en_passant)
        self.columns, self.output, self.batch_size = tuple(columns), output, batch_size
        self.raising, self.threads = errors == "raise", _options.threads(threads)
        self.errors, self.entries = [], 0
        if output == "arrow":
            require_arrow("output='arrow'")
        if isinstance(source, (str, bytes, os.PathLike)):
            self.name, self.file, self.owned = os.fspath(source), open(source, "rb"), True
        elif hasattr(source, "read"):
            self.name, self.file, self.owned = getattr(source, "name", None), source, False
        else:
            raise TypeError(f"expected a path or a binary file, not {type(source).__name__}")
        head = b""
        if format is None and not _known_suffix(self.name):
            head = read_exact(self.file, 4)
        self.format = format_of(self.name if isinstance(self.name, str) else None, format, head)
        self.head = head

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self) -> None:
        if self.owned:
            self.file.close()

    def __iter__(self) -> Iterator[Any]:
        parts = {"binpack": self._binpack, "bin": self._bin, "plain": self._plain}
        for cols, n in parts[self.format]():
            if n:
                self.entries += n
                yield (
                    arrow_batch(cols, n, self.columns)
                    if self.output == "arrow"
                    else numpy_batch(cols, self.columns)
                )

    def _fail(self, error: TrainingDataError) -> None:
        if self.raising:
            raise error
        self.errors.append(error)

    def _read(self, n: int) -> bytes:
        head, self.head = self.head[:n], self.head[n:]
        return head + read_exact(self.file, n - len(head))

    # .binpack: blocks, each read by one thread, given in order

    def _blocks(self):
        offset, index = 0, 0
        while True:
            header = self._read(8)
            if not header:
                return
            size = int.from_bytes(header[4:8], "little") if len(header) == 8 else 0
            if len(header) < 8:
                problem = ("truncated", f"the file ends {len(header)} bytes into a block header")
            elif header[:4] != b"BINP":
                problem = ("magic", "the block does not start with 'BINP'")
            elif size > _training.BLOCK_LIMIT:
                problem = ("block_size", f"block size {size} is above {_training.BLOCK_LIMIT}")
            else:
                problem = None
            data = self._read(size) if problem is None else b""
            if problem is None and len(data) < size:
                problem = (
                    "truncated",
                    f"the file ends {len(data)} bytes into a block of {size} bytes",
                )
            if problem:
                self._fail(
                    TrainingDataError(
                        problem[1],
                        field="block",
                        code=problem[0],
                        file=self.name,
                        format="binpack",
                        entry=self.entries,
                        offset=offset,
                        block=index,
                    )
                )
                return
            yield index, offset, data
            offset, index = offset + 8 + size, index + 1

    def _decode(self, index, offset, data, lazy):
        """(columns, n, chains, errors) pieces of one block."""
        block = _training.BinpackBlock(data)
        while not block.done:
            cols, n, failure, lost = block.read(self.spec, self.batch_size)
            problems = []
            if failure is not None:
                ply = failure.value if failure.value >= 0 else None
                problems.append(
                    failure_error(
                        failure,
                        "binpack",
                        file=self.name,
                        block=index,
                        chain=failure.chain,
                        ply=ply,
                        offset=offset + 8 + failure.offset,
                    )
                )
            yield cols, n, block.chains, problems
            if not lazy and failure is not None and self.raising:
                return

    def _binpack(self):
        chains = 0
        threads = self.threads or 1
        if threads > 1:
            yield from self._binpack_threads(threads)
            return
        for index, offset, data in self._blocks():
            base = chains
            for cols, n, chains_now, problems in self._decode(index, offset, data, True):
                yield self._chain_base(cols, base, problems, n)
                chains = base + chains_now

    def _chain_base(self, cols, base, problems, n):
        if "chain" in cols and base:
            cols["chain"] += base
        for error in problems:
            error.entry = error.index = self.entries + n
            if error.chain is not None:
                error.chain += base
            self._fail(error)
        return cols, n

    def _binpack_threads(self, threads):
        def job(index, offset, data):
            return list(self._decode(index, offset, data, False))

        chains = 0
        with concurrent.futures.ThreadPoolExecutor(threads) as pool:
            pending = []
            blocks = self._blocks()
            for item in blocks:
                pending.append(pool.submit(job, *item))
                if len(pending) > threads:
                    chains = yield from self._give(pending.pop(0).result(), chains)
            for future in pending:
                chains = yield from self._give(future.result(), chains)

    def _give(self, pieces, chains):
        base = chains
        for cols, n, chains_now, problems in pieces:
            yield self._chain_base(cols, base, problems, n)
            chains = base + chains_now
        return chains

    # .bin: 40-byte records

    def _bin(self):
        chains, offset = _training.Chains(), 0
        size = _training.BIN_SIZE
        while True:
            data = self._read(size * self.batch_size)
            whole = len(data) - len(data) % size
            at = 0
            while at < whole:
                cols, n, failure = _training.read_bin(
                    data[at:whole], self.spec, chains, self.batch_size
                )
                yield cols, n
                if failure is not None:
                    self._fail(
                        failure_error(
                            failure,
                            "bin",
                            file=self.name,
                            entry=self.entries,
                            offset=offset + at + failure.offset,
                        )
                    )
                    n += 1
                at += size * n
            offset += whole
            if len(data) < size * self.batch_size:
                if len(data) > whole:
                    self._fail(
                        TrainingDataError(
                            f"the file ends {len(data) - whole} bytes into a {size}-byte record",
                            field="block",
                            code="truncated",
                            file=self.name,
                            format="bin",
                            entry=self.entries,
                            offset=offset,
                        )
                    )
                return

    # .plain: text, read a chunk at a time

    def _plain(self):
        chains, offset, line = _training.Chains(), 0, 1
        text, final = b"", False
        while True:
            if not final and len(text) < CHUNK:
                more = self._read(CHUNK)
                final = len(more) < CHUNK
                text += more
            cols, n, used, failure = _training.read_plain(
                text, final, self.spec, chains, self.batch_size
            )
            yield cols, n
            if failure is not None:
                self._fail(
                    failure_error(
                        failure,
                        "plain",
                        file=self.name,
                        entry=self.entries,
                        offset=offset + failure.offset,
                        line=line + text.count(b"\n", 0, failure.offset),
                    )
                )
            line += text.count(b"\n", 0, used)
            offset, text = offset + used, text[used:]
            if final and not text:
                return
            if not (used or n or failure) and not final and len(text) >= CHUNK:
                text += self._read(CHUNK)  # one entry longer than a chunk


def _known_suffix(name) -> bool:
    return isinstance(name, str) and os.path.splitext(name)[1].lower().lstrip(".") in FORMATS


def batches(source, **options) -> Reader:
    """A ``Reader`` over ``source`` (a path, or a binary file object with
    ``format=``): iterate it for batches.  See ``read`` for the options and
    ``Reader`` for ``batch_size`` and ``errors``."""
    return Reader(source, **options)


def read(
    source,
    *,
    format=None,
    columns=DEFAULT_COLUMNS,
    castling="xfen",
    en_passant="xfen",
    output="arrow",
    errors="raise",
    threads=None,
):
    """Every entry of a training file, as one ``pyarrow.Table`` or (with
    ``output="numpy"``) a dict of numpy arrays.

    ``format``: ``"binpack"``, ``"bin"`` or ``"plain"``; by default the
    file's suffix, else its first bytes.  ``columns``: any of
    ``COLUMNS`` -- ``fen`` (canonical text in ``castling`` and
    ``en_passant`` modes, as ``normalize`` writes it), ``record``
    (``POSITION_DTYPE``), ``packed`` (Stockfish's 24 bytes), ``move``
    (UCI), ``sfmove`` (Stockfish's 16-bit move), ``score``, ``ply``,
    ``result``, ``rule50``, ``chain`` (the game, counted from 0).
    ``threads``: ``.binpack`` blocks decoded on that many threads, in
    order.  For files of any size use ``batches``.
    """
    with Reader(
        source,
        format=format,
        columns=columns,
        castling=castling,
        en_passant=en_passant,
        output=output,
        errors=errors,
        threads=threads,
    ) as r:
        parts = list(r)
    if output == "arrow":
        import pyarrow as pa

        return pa.Table.from_batches(parts, schema=None if parts else _schema(columns))
    if not parts:
        parts = [
            numpy_batch(
                _training.BinpackBlock(b"").read(_training.Spec(columns, castling, en_passant), 0)[
                    0
                ],
                columns,
            )
        ]
    if len(parts) == 1:
        return parts[0]
    return {name: np.concatenate([p[name] for p in parts]) for name in columns}


def _schema(columns):
    import pyarrow as pa

    types = {
        "fen": pa.string(),
        "move": pa.string(),
        "record": pa.binary(80),
        "packed": pa.binary(24),
        "sfmove": pa.uint16(),
        "score": pa.int16(),
        "ply": pa.uint16(),
        "result": pa.int8(),
        "rule50": pa.uint32(),
        "chain": pa.int64(),
    }
    return pa.schema([(name, types[name]) for name in columns])


# ---------------------------------------------------------------- writing


class Writer:
    """Writes entries to a training file, batch after batch.

    ``target`` is a path or a binary file object; ``format`` defaults to the
    path's suffix.  ``write(table)`` takes any table with the columns
    ``fen`` (or ``record``), ``move`` (UCI, or ``sfmove``), ``score``,
    ``ply`` and ``result``: a pyarrow Table or RecordBatch, a pandas or
    polars DataFrame, a numpy structured array or a dict of columns.
    ``.binpack`` chains and blocks are formed as Stockfish's writer forms
    them, across batches.  ``errors="coerce"`` leaves out rows that cannot
    be written and appends their ``TrainingDataError`` to ``.errors``.
    ``close()`` (or the end of a ``with`` block) writes what is pending.
    """

    def __init__(self, target, *, format: Optional[str] = None, errors: str = "raise"):
        if errors not in ("raise", "coerce"):
            raise ValueError(f"errors must be 'raise' or 'coerce', not {errors!r}")
        path = os.fspath(target) if isinstance(target, (str, os.PathLike)) else None
        self.format = format_of(path, format)
        self.raising, self.errors, self.entries = errors == "raise", [], 0
        self.name = path if path is not None else getattr(target, "name", None)
        self.file = open(path, "wb") if path is not None else target
        self.owned = path is not None
        self.packer = _training.BinpackWriter() if self.format == "binpack" else None
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
        table = table_of(data)
        before, start = self.entries, 0
        while start < table.n:
            if self.packer is not None:
                done, state, failure = self.packer.add(table, start)
                if state == 1:
                    self.file.write(self.packer.take())
            else:
                out, done, failure = _training.write_rows(table, start, 1 << 16, self.format)
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


def write(target, data, *, format: Optional[str] = None, errors: str = "raise") -> int:
    """Write a table's rows to a training file (see ``Writer``); returns the
    entries written."""
    with Writer(target, format=format, errors=errors) as w:
        w.write(data)
    return w.entries
