"""``fastxfen decode``: the rows of a binary file (by --format) back to
text, one line per row."""

from __future__ import annotations

import contextlib

import numpy as np

from fastxfen import _bulk
from fastxfen.cli import chunks, formats
from fastxfen.cli.args import check_format_options, make, threads_for
from fastxfen.cli.errors import Rejected
from fastxfen.cli.io import Input, Output, open_outputs
from fastxfen.cli.report import Rejects, Stats, finish

#: The options that apply to some formats only.
OPTIONS = {"extra": ("planes",), "perspective": ("planes",)}


def _decode_chunk(args, decoder, rows, done: int, output: Output, rejects, stats) -> None:
    """Write the text of one chunk of rows, the first being row done + 1."""
    n = len(rows)
    stats.read += n
    records, failures = decoder.convert(rows)
    batch = _bulk.records(np.ascontiguousarray(records.reshape(-1)))
    text, ends, _ = batch.decode(
        castling=args.castling,
        en_passant=args.en_passant,
        errors="coerce",
        threads=threads_for(args, n),
        terminators=True,
        fields=args.fields,
    )
    bad = formats.merge([(e.index, e) for e in failures], [e for _, e in batch.rejections()])
    raise_mode = args.errors == "raise"
    keep = bad[0][0] if raise_mode and bad else n
    if keep:
        output.write(text if keep == n else text[: ends[keep - 1]])
    stats.written += keep
    for i, error in bad:
        stats.rejected += 1
        rejects.add(done + i + 1, error, decoder.original(rows, i).hex().encode())
        if raise_mode:
            raise Rejected(done + i + 1, error, "record")


def run(args) -> int:
    """Run ``fastxfen decode``; return the exit status."""
    check_format_options(args, OPTIONS)
    decoder = make(formats.decoder, args)
    stats = Stats("decode")
    stopped = None
    try:
        with contextlib.ExitStack() as stack:
            source = Input(args.input, stack)
            output, rejects_file = open_outputs(args, stack, binary=False)
            rejects = Rejects(rejects_file)
            if decoder.npy:
                pieces = chunks.npy_chunks(args, source, stack, decoder)
            else:
                pieces = chunks.frame_chunks(args, source, stack)
            done = 0
            for rows in pieces:
                _decode_chunk(args, decoder, rows, done, output, rejects, stats)
                done += len(rows)
                rows = None
    except Rejected as exc:  # nothing was published
        stopped = exc
        stats.read = exc.number
    return finish(args, stats, stopped, "record")
