"""The reader of fastxfen.training: batches of a training file's entries,
in file order, from the C core (.binpack blocks on threads)."""

from __future__ import annotations

import os
from typing import Any, Iterator

from fastxfen import _options, _training
from fastxfen._jobs import Ahead
from fastxfen._optional import require_arrow
from fastxfen._streams import read_exact
from fastxfen._training_io import (
    FORMATS,
    TrainingDataError,
    arrow_batch,
    failure_error,
    format_of,
    numpy_batch,
)

#: Every column a reader can give, and those it gives by default.
COLUMNS = _training.COLUMNS
DEFAULT_COLUMNS = ("fen", "move", "score", "ply", "result", "rule50", "chain")
BATCH = 1 << 14  # entries a batch: 1.3 MB of records, in the CPU cache
CHUNK = 1 << 22  # bytes of .bin and .plain read at a time


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
        reuse=False,
    ):
        if output not in ("arrow", "numpy"):
            raise ValueError(f"output must be 'arrow' or 'numpy', not {output!r}")
        if errors not in ("raise", "coerce"):
            raise ValueError(f"errors must be 'raise' or 'coerce', not {errors!r}")
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive int, not {batch_size!r}")
        # reuse (internal): each batch in the arrays of the last, for a
        # caller done with a batch before it takes the next (convert)
        self.spec = _training.Spec(columns, castling, en_passant, reuse and not threads)
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

    def _decode(self, index, offset, data, lazy, ahead=None):
        """(columns, n, chains, errors) pieces of one block (until ``ahead``,
        decoding it in a helper thread, is halted)."""
        block = _training.BinpackBlock(data)
        while not block.done and not (ahead is not None and ahead.halted):
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
        """The blocks decoded ahead in ``threads`` helper threads, given in
        order; the call ends only once none of them runs (Ahead)."""
        ahead = Ahead(threads)

        def job(item):
            return list(self._decode(*item, False, ahead))

        chains, blocks = 0, ahead.map(job, self._blocks())
        try:
            for pieces in blocks:
                chains = yield from self._give(pieces, chains)
        finally:
            blocks.close()  # now, not when collected

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
        text, start, final = bytearray(), 0, False  # text[start:] is still to read
        while True:
            if not final and len(text) - start < CHUNK:
                del text[:start]
                start = 0
                more = self._read(CHUNK)
                final = len(more) < CHUNK
                text += more
            view = memoryview(text)[start:]
            cols, n, used, lines, failure = _training.read_plain(
                view, final, self.spec, chains, self.batch_size
            )
            yield cols, n
            if failure is not None:
                at = failure.offset
                self._fail(
                    failure_error(
                        failure,
                        "plain",
                        file=self.name,
                        entry=self.entries,
                        offset=offset + at,
                        line=line + bytes(view[:at]).count(b"\n"),
                    )
                )
            view.release()
            line, offset, start = line + lines, offset + used, start + used
            if final and start == len(text):
                return
            if not (used or n or failure) and not final:
                text += self._read(CHUNK)  # an entry longer than what is here


def _known_suffix(name) -> bool:
    return isinstance(name, str) and os.path.splitext(name)[1].lower().lstrip(".") in FORMATS
