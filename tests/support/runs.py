"""Inputs of every format and codec for the command line's fault suite
(tests/test_faults_runs.py), and a driver that runs many command lines in
one process (``python runs.py CASES.json``): each ``cli.main(argv)``, its
status and the end of what it printed on stderr, as one JSON list on
stdout.  A crash of any run ends the process, which the test sees."""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import sys

GOOD = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 5 39",
]
BAD = "not a position"
#: The formats (text, and tables by extension) and codecs of the inputs.
FORMATS = ("fen", "csv", "jsonl", "parquet", "arrow", "arrows")
CODECS = ("", ".gz", ".zst")


def rows(n: int, bad_first: bool = False) -> list:
    """n rows, every 11th bad (and with ``bad_first`` the first)."""
    out = [BAD if i % 11 == 10 else GOOD[i % len(GOOD)] for i in range(n)]
    if bad_first:
        out[0] = BAD
    return out


def table_bytes(fmt: str, lines: list) -> bytes:
    """The bytes of a table of ``fmt`` with the columns id, fen and note."""
    import pyarrow as pa

    table = pa.table(
        {
            "id": list(range(len(lines))),
            "fen": lines,
            "note": [f"game {i % 97}" for i in range(len(lines))],
        }
    )
    sink = pa.BufferOutputStream()
    if fmt == "csv":
        import pyarrow.csv as pcsv

        pcsv.write_csv(table, sink)
    elif fmt == "jsonl":
        return "".join(
            json.dumps({"id": i, "fen": fen, "note": f"game {i % 97}"}) + "\n"
            for i, fen in enumerate(lines)
        ).encode()
    elif fmt == "parquet":
        import pyarrow.parquet as pq

        pq.write_table(table, sink, row_group_size=max(1, len(lines) // 8))
    else:
        import pyarrow.ipc as ipc

        opener = ipc.new_stream if fmt == "arrows" else ipc.new_file
        with opener(sink, table.schema) as writer:
            for batch in table.to_batches(max_chunksize=max(1, len(lines) // 8)):
                writer.write_batch(batch)
    return sink.getvalue().to_pybytes()


def compress(codec: str, data: bytes) -> bytes:
    if codec == ".gz":
        return gzip.compress(data, 1)
    if codec == ".zst":
        import zstandard

        return zstandard.ZstdCompressor().compress(data)
    return data


def write_input(folder, fmt: str, codec: str, lines: list, stem: str = "in"):
    """The input file of ``fmt`` and ``codec`` holding ``lines``; None for a
    combination no reader takes (Parquet compresses inside).  An Arrow IPC
    stream is named .arrow, as the command line reads it."""
    if fmt == "parquet" and codec:
        return None
    data = ("\n".join(lines) + "\n").encode() if fmt == "fen" else table_bytes(fmt, lines)
    path = folder / f"{stem}-{fmt}.{'arrow' if fmt == 'arrows' else fmt}{codec}"
    path.write_bytes(compress(codec, data))
    return path


def inputs(folder, n: int, bad_first: bool = False, stem: str = "in") -> dict:
    """(format, codec) -> path of every input the readers take."""
    lines = rows(n, bad_first)
    out = {}
    for fmt in FORMATS:
        for codec in CODECS:
            path = write_input(folder, fmt, codec, lines, stem)
            if path is not None:
                out[fmt, codec] = path
    return out


#: The engines' training data formats, read as tables.
TRAINING = ("binpack", "bin", "plain")


def training_inputs(folder, entries: int, stem: str = "in", bad_first: bool = False) -> dict:
    """(format, codec) -> path of a file of each training format and codec
    holding at least ``entries`` entries: games of the model's corpus over
    and over (a .binpack of many blocks); with ``bad_first``, its first
    entry damaged (a move index past the pieces, both kings on one square,
    a position that is no FEN)."""
    from models import training

    games = training.corpus(1, 40)
    copies = -(-entries // len(games))
    data = {
        "binpack": bytearray(training.write_binpack(games) * copies),
        "bin": bytearray(training.write_bin(games) * copies),
        "plain": training.write_plain(games).encode() * copies,
    }
    if bad_first:
        data["binpack"][40:60] = b"\xff" * 20
        data["bin"][0:32] = b"\xff" * 32
        data["plain"] = b"fen not a position" + data["plain"][data["plain"].index(b"\n") :]
    out = {}
    for fmt in TRAINING:
        for codec in CODECS:
            path = folder / f"{stem}-{fmt}.{fmt}{codec}"
            path.write_bytes(compress(codec, bytes(data[fmt])))
            out[fmt, codec] = path
    return out


def main() -> None:
    """``runs.py CASES.json [FSIZE]``: FSIZE, a file size limit in bytes for
    the whole process (what a full disk does to a write, EFBIG for ENOSPC)."""
    from fastxfen import cli

    with open(sys.argv[1]) as f:
        cases = json.load(f)
    if len(sys.argv) > 2:
        import resource

        limit = int(sys.argv[2])
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    results = []
    for argv in cases:
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            status = cli.main(argv)
        results.append({"status": status, "err": err.getvalue()[-600:]})
    print(json.dumps(results))


if __name__ == "__main__":
    main()
