"""decode: the rows of a binary file (binary_formats) back to text, one
line per row, a chunk of rows at a time."""

from __future__ import annotations

import contextlib

import numpy as np

from fastxfen import _bulk
from fastxfen._options import ErrorsMode
from fastxfen.files.binary_formats import merge
from fastxfen.files.errors import Rejected
from fastxfen.files.inputs import Input
from fastxfen.files.publication import open_outputs
from fastxfen.files.report import Rejects


def _decode_chunk(run, decoder, rows, done: int, output, rejects: Rejects) -> None:
    """Write the text of one chunk of rows, the first being row done + 1."""
    task, stats = run.task, run.stats
    n = len(rows)
    stats.read += n
    records, failures = decoder.convert(rows)
    batch = _bulk.records(np.ascontiguousarray(records.reshape(-1)))
    threads = run.settings.chunk_threads(n)
    text, ends, _ = batch.decode(task.text, ErrorsMode.COERCE, threads=threads, terminators=True)
    bad = merge([(e.index, e) for e in failures], [e for _, e in batch.rejections()])
    raise_mode = run.errors is ErrorsMode.RAISE
    keep = bad[0][0] if raise_mode and bad else n
    if keep:
        output.write(text if keep == n else text[: ends[keep - 1]])
    stats.written += keep
    for i, error in bad:
        stats.rejected += 1
        rejects.add(done + i + 1, error, decoder.original(rows, i).hex().encode())
        if raise_mode:
            raise Rejected(done + i + 1, error, "record")


def run_decode(run, decoder):
    """Run decode over ``run.source`` with ``decoder`` (of the task's
    binary format); return its stats."""
    try:
        with contextlib.ExitStack() as stack:
            source = Input(run.source, stack)
            output, rejects_file = open_outputs(run.source, run.target, run.settings, stack, False)
            rejects = Rejects(rejects_file)
            chunk_size = run.settings.chunk_size
            pieces = run.task.format.chunks(source, decoder, chunk_size, run.progress)
            done = 0
            for rows in pieces:
                _decode_chunk(run, decoder, rows, done, output, rejects)
                done += len(rows)
                rows = None
    except Rejected as exc:  # nothing was published
        run.stats.stop(exc)
    return run.stats
