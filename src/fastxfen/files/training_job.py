"""normalize and dedupe from one training format to another (.binpack,
.bin, .plain): the entries go from the reader to the writer as the C core
holds them (fastxfen.training's "entries" column), with no text or Arrow
table between, a few thousand at a time (to .plain, normalize has the
reader write the entries' text itself, the "plain" column); dedupe keeps
an entry when its position (the "record" column) is seen for the first
time.  With more
than one thread, the next batch is read (decoded) in a thread of its own
while the main thread writes the last.

A training file at either end takes errors "raise" or "coerce" only: an
entry that cannot be read or written has no text to pass through."""

from __future__ import annotations

import contextlib

import numpy as np

from fastxfen._options import ErrorsMode, cpu_count
from fastxfen.files import table_formats
from fastxfen.files.errors import Rejected, RunError
from fastxfen.files.inputs import Input
from fastxfen.files.prefetch import prefetch
from fastxfen.files.publication import close_at_end, open_outputs
from fastxfen.files.table_jobs import Refusals, RejectsTable
from fastxfen.files.tables import require_pyarrow
from fastxfen.files.tasks import Dedupe, Normalize
from fastxfen.files.training_tables import NAMES, TrainingWriter, batches, entries
from fastxfen.files.unique import Unique

#: Bytes of --chunk-size per entry of a batch: 4,096 entries at the default
#: 8 MiB, so that a batch of entries (208 bytes each) stays in the cache.
_BYTES_PER_ENTRY = 2048
#: The same for a batch of .plain text, which the reader writes itself
#: (about 100 bytes an entry): 32,768 entries, for fewer calls.
_BYTES_PER_TEXT = 256


def by_entries(run, kind: str) -> bool:
    """Whether ``run`` (its input a table of format ``kind``) goes from a
    training file to a training file by its entries: normalize (without
    --unique or --to-column) and dedupe.  With a training file at either
    end, rejected rows are dropped (the summary says so), and errors
    "ignore" is a RunError."""
    settings = run.settings
    out = _table_out(run, kind)
    if kind not in NAMES and out not in NAMES:
        return False
    if run.errors is ErrorsMode.IGNORE:
        raise RunError(
            "--errors ignore passes rows through unchanged; an entry of a training file "
            "(.binpack, .bin, .plain) that cannot be read or written has no such row: "
            "use raise or coerce"
        )
    run.stats.coerced_as = None
    if kind not in NAMES or out not in NAMES or settings.column is not None:
        return False
    task = run.task
    if isinstance(task, Normalize):
        return not task.unique and task.to_column is None
    return isinstance(task, Dedupe)


def _table_out(run, kind: str) -> str | None:
    """The format of the table ``run`` writes (None: it writes messages or
    binary rows)."""
    task = run.task
    if isinstance(task, (Normalize, Dedupe)) or getattr(task, "reasons_column", None):
        return table_formats.output_format(run.target, run.settings.output_format, kind)
    return None


class _Source:
    """What training_tables.entries reads from: the run's Input, with the
    fields of a TableReader it sets."""

    def __init__(self, source: Input, rows: int) -> None:
        self.source = source
        self.rows = rows
        self.total = None
        self.failures: list = []

    def stream(self) -> Input:
        return self.source


def run_entries(run, kind: str):
    """Run normalize or dedupe from the training file ``run.source`` (of
    format ``kind``) to a training file; return its stats."""
    settings, stats = run.settings, run.stats
    out = table_formats.output_format(run.target, settings.output_format, kind)
    dedupe = isinstance(run.task, Dedupe)
    # to .plain (without dedupe) the reader writes the text itself
    text = out == "plain" and not dedupe
    columns = ("plain",) if text else ("entries", "record") if dedupe else ("entries",)
    try:
        with contextlib.ExitStack() as stack:
            per_entry = _BYTES_PER_TEXT if text else _BYTES_PER_ENTRY
            rows = max(1, settings.chunk_size // per_entry)
            source = _Source(Input(run.source, stack), rows)
            reader = entries(source, kind, columns, "numpy")
            run.progress.start(source.total)
            binary = out != "plain"
            output, rejects_file = open_outputs(run.source, run.target, settings, stack, binary)
            kind = require_pyarrow().string() if rejects_file else None
            rejects = RejectsTable(rejects_file, kind)
            writer = TrainingWriter(run.progress.paced(output), out)
            close_at_end(stack, writer, output)
            refusals = Refusals(stats, rejects, run.errors, source.failures, lambda _: None)
            unique = Unique(run.task.keys, stats) if dedupe else None
            first = 0
            pieces = batches(reader)
            if (settings.threads.count or cpu_count()) > 1:
                pieces = prefetch(pieces)  # read the next batch while this one is written
                stack.callback(pieces.close)
            for batch in pieces:
                run.progress.aim(source.source.position())
                refusals.unread(first)
                n = _write(batch, unique, writer, rejects, first, stats, run.errors)
                stats.read += n
                first += n
                run.progress.to(source.source.position())
            refusals.unread(None)
    except Rejected as exc:  # nothing was published
        stats.stop(exc)
    return stats


def _write(batch, unique, writer, rejects, first: int, stats, errors) -> int:
    """Write one batch of entries whose first is row ``first + 1`` (those
    of first occurrences, with ``unique``); returns its entries."""
    if "plain" in batch:  # the entries as .plain text: nothing to refuse
        writer.write(batch)
        n = len(batch["plain"][1]) - 1
        stats.written += n
        return n
    raw = batch["entries"]
    n = raw.size // writer.entry_size
    rows = np.arange(n)
    if unique is not None:
        mask = unique.keep(batch["record"])
        rows = np.flatnonzero(mask)
        raw = raw.reshape(n, -1)[mask].reshape(-1)
    stop = errors is ErrorsMode.RAISE
    refused = writer.write_checked({"entries": raw}, stop)
    stats.written += len(rows) - (len(rows) - refused[0][0] if stop and refused else len(refused))
    for at, error in refused:
        number = first + int(rows[at]) + 1
        stats.rejected += 1
        rejects.add([number], [error], None)
        if stop:
            raise Rejected(number, error, "row")
    return n
