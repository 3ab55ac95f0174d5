"""The help texts of the command line that argparse shows after the
options: exit statuses, the binary formats, tables and rows."""

from __future__ import annotations

import textwrap


def para(text: str) -> str:
    """``text`` as one paragraph of at most 79 columns."""
    return textwrap.fill(" ".join(text.split()), 79)


EPILOG = """\
files:
  INPUT and -o OUT may be '-' (the default) for stdin and stdout. Names ending
  in .gz, .bz2 or .xz are decompressed when read and compressed when written;
  .zst too when the zstandard package is installed.

exit status:
    0  every row was accepted
    1  some rows were rejected (--errors coerce or ignore, or validate found bad rows)
    2  usage error, unreadable, truncated, corrupt or changing input,
       unwritable output, or a row rejected under --errors raise (the message
       names its line, column, field and reason)
  130  interrupted (SIGINT)
  143  terminated (SIGTERM)
  Output files are written under a temporary name and renamed into place only
  when the run ends with status 0 or 1; any other stop, a row rejected under
  --errors raise included, leaves no new file behind and an existing one as it
  was (stdout keeps what was written to it: the rows before the rejected one).
"""

FORMATS_HELP = """\
formats (--format):
  npy        .npy of records, POSITION_DTYPE or POSITION_DTYPE_10x8 (N,)
  stockfish  .npy of uint8 (N, 24): Stockfish's 24-byte position; decode gives
             the counters 0 and 1 (the format holds none)
  planes     .npy of (N, C, 8, W) plane tensors, see --extra, --perspective,
             --width, --dtype; decode needs the same --extra and --perspective
  lichess    lichess binary FEN: each value after one length byte (0..64); a
             null value (a row rejected under --errors coerce) is the byte 255
  zobrist    .npy of uint64 (N,): each position's Zobrist key (polyglot's for
             8x8), 0 for a rejected row; encode only
  Positions that a format cannot hold (10x8 boards in stockfish, lichess and
  8-wide planes; Chess960 rights of inner rooks in stockfish; ...) are
  rejected rows, named by line, column, field and reason.
"""

TABLES_HELP = """\
tables:
  A Parquet, Arrow IPC, CSV, TSV or JSON Lines INPUT (by its extension, or
  --input-format) is read a record batch at a time. The column of positions
  (--column, or the one column named fen or epd) is converted; every other
  column is written through unchanged. Rows are numbered from 1, header
  excluded. OUT is a table too (by its extension, --output-format, or the
  input's format); --rejects FILE is a table (row, column, field, reason,
  value) in the format its extension names, CSV when it names none.
  Stockfish's training data (.binpack, .bin, .plain) is read as a table of
  fen, move, score, ply, result, rule50 and chain, and written from one with
  fen, move, score, ply and result; from one such format to another, entries
  pass as they are (docs/training.md).
"""

ROWS_HELP = """\
rows:
  One position per line; a line may end in \\n or \\r\\n, and the last one may
  lack its newline. Output row i belongs to input row i, in input order. Line
  numbers are 1-based over the whole input; columns are 0-based byte offsets
  into the line.
"""
