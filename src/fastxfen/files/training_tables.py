"""Engine training data as table formats: Stockfish's .binpack, .bin and
.plain (fastxfen.training) read as tables of the columns fen, move, score,
ply, result, rule50 and chain, and written from any table holding fen (or
record), move (or sfmove), score, ply and result.

The reader goes on past an entry it cannot read (errors "coerce") and
keeps its error in ``TableReader.failures``, which the jobs reject as the
run's errors mode says; a file cut short (inside a block header, a block or
a .bin record) or a block header that is no block is a RunError naming the
file and the byte.  The writer refuses a row its format cannot hold
(``write_checked``).  fastxfen.training itself is imported only when such a
file is read or written."""

from __future__ import annotations

from fastxfen._errors import FenError, fen_error, renumbered
from fastxfen.files.errors import RunError
from fastxfen.files.tables import TableFormat

#: The training formats, by name.
NAMES = ("binpack", "bin", "plain")
#: Codes of the errors after which nothing more of the file can be read.
FATAL = ("truncated", "magic", "block_size")


def _training():
    import fastxfen.training as training

    return training


def fatal(error) -> RunError:
    """The RunError of a file whose rest cannot be read."""
    return RunError(f"{error.location}: {error.reason}; the file cannot be read past this point")


def entries(reader, name: str, columns, output: str, threads=None):
    """A training Reader of format ``name`` over a TableReader's stream:
    batches of at most a chunk's rows, entries that cannot be read kept in
    ``reader.failures``."""
    training = _training()
    source = reader.stream()
    reader.total = source.size  # the progress is in bytes of the file
    found = training.Reader(
        source,
        format=name,
        columns=columns,
        output=output,
        errors="coerce",
        batch_size=reader.rows,
        threads=threads,
    )
    reader.failures = found.errors
    return found


def batches(found):
    """The batches of a training Reader, then a RunError if the file could
    not be read to its end."""
    yield from found
    if found.errors and found.errors[-1].code in FATAL:
        raise fatal(found.errors[-1])


def _open(name: str):
    def open_(reader):
        training = _training()
        found = entries(reader, name, training.DEFAULT_COLUMNS, "arrow")
        return training.arrow_schema(training.DEFAULT_COLUMNS), batches(found)

    return open_


class _Sink:
    """The file object a training Writer writes to: an Output; once
    ``muted``, writes go nowhere.  What the Writer writes stays unchanged
    until its write after next, and the Output holds one write at a time
    (``write`` returns once the one before is written), so it is handed
    over without a copy."""

    def __init__(self, output) -> None:
        self.output = output
        self.name = output.name
        self.muted = False

    def write(self, data) -> None:
        if not self.muted:
            self.output.write(data)


class TrainingWriter:
    """Record batches written as entries of a training format to an Output
    (``.binpack`` chains formed across batches).  ``write_checked(batch,
    stop)`` writes the rows the format can hold and returns those it
    refused as (row of the batch, TrainingDataError); with ``stop`` it
    writes none after the first.  ``write`` refuses nothing silently: a
    row it cannot write is a RunError."""

    def __init__(self, output, name: str) -> None:
        training = _training()
        self.sink = _Sink(output)
        self.writer = training.Writer(self.sink, format=name, errors="coerce")
        self.entry_size = training._training.ENTRY_SIZE  # bytes of an "entries" entry

    def write_checked(self, batch, stop: bool) -> list:
        writer = self.writer
        before, rows = len(writer.errors), writer.rows
        writer.raising = stop
        try:
            writer.write(batch)
        except ValueError as error:  # a TrainingDataError under stop, or no such table
            if getattr(error, "entry", None) is None:
                raise RunError(f"cannot write {self.sink.name}: {error}") from None
            refused = [error]
        else:
            refused = writer.errors[before:]
        return [(e.entry - rows, _row_error(e, e.entry - rows)) for e in refused]

    def write(self, batch) -> None:
        refused = self.write_checked(batch, True)
        if refused:
            raise RunError(f"cannot write {self.sink.name}: {refused[0][1]}")

    def close(self) -> None:
        self.writer.close()

    def abandon(self) -> None:
        """Let go of a file that will not be published."""
        self.sink.muted = True
        self.writer.close()


def _row_error(error, row: int) -> FenError:
    """A writer's TrainingDataError as the error of a table's row: its
    field and reason (a position's text: the position reader's error)."""
    if error.position_error is not None:
        return renumbered(error.position_error, row)
    return fen_error(row, 0, error.field, error.reason)


def _writer(name: str):
    def make(output, schema) -> TrainingWriter:
        return TrainingWriter(output, name)

    return make


#: The formats, in the order the command line lists them.
FORMATS = tuple(TableFormat(name, (f".{name}",), _open(name), _writer(name)) for name in NAMES)
