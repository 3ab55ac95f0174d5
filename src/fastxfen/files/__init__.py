"""The file engine: normalize, validate, encode, decode, dedupe and pgn over
files of any size (FEN text and its codecs, tables, .npy and the other
binary formats, PGN), streamed in chunks so that memory stays bounded, with
atomic publication of the outputs, rejects files and statistics.  The
command line and fastxfen.dask are thin callers of ``run``::

    from fastxfen import files

    stats = files.run(
        files.Normalize(castling="shredder"),
        "games.fen.gz",
        "clean.fen.zst",
        files.Settings(errors="coerce", rejects="bad.tsv", threads=2),
    )
    stats.status, stats.read, stats.rejected

The package is cut by what each module holds: the values (``tasks``,
``settings``, ``binary_formats``), the entry point (``engine``), the jobs
per kind of input (``text_jobs``, ``table_jobs``, ``decode_job``,
``pgn_job``), the inputs (``inputs``, ``codecs``, ``zstd_frames``,
``text_chunks``, ``prefetch``, ``npy``, ``lichess_frames``), the tables
(``tables``, ``table_formats``, ``arrow_tables``), the outputs
(``outputs``, ``publication``, ``gzip_members``, ``direct``,
``dropbehind``), and what a run reports (``report``, ``progress``,
``errors``, ``signals``, ``unique``).  It never imports fastxfen.cli.
"""

from fastxfen.files.binary_formats import Lichess, Planes, Records, Stockfish, Zobrist
from fastxfen.files.engine import run
from fastxfen.files.errors import Rejected, RunError
from fastxfen.files.report import PgnReport, Stats
from fastxfen.files.settings import Settings
from fastxfen.files.table_formats import register
from fastxfen.files.tables import TableFormat
from fastxfen.files.tasks import Decode, Dedupe, Encode, Normalize, Pgn, Validate

__all__ = [
    "Decode",
    "Dedupe",
    "Encode",
    "Lichess",
    "Normalize",
    "Pgn",
    "PgnReport",
    "Planes",
    "Records",
    "Rejected",
    "RunError",
    "Settings",
    "Stats",
    "Stockfish",
    "TableFormat",
    "Validate",
    "Zobrist",
    "register",
    "run",
]
