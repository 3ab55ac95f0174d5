"""The help texts of the command line: the short sections each command's
help ends with, and the topics of ``fastxfen help TOPIC``, which hold the
longer explanations (docs/cli.md holds them all)."""

from __future__ import annotations

import textwrap


def para(text: str) -> str:
    """``text`` as one paragraph of at most 79 columns."""
    return textwrap.fill(" ".join(text.split()), 79)


EXIT_STATUS = """\
exit status:
  0 every row accepted; 1 rows rejected (--errors coerce or ignore) or bad
  rows found (validate); 2 a usage error, an input or output that cannot be
  read or written, a missing package, or a row rejected under --errors raise;
  70 an internal error (a bug); 130 interrupted; 143 terminated. Outputs are
  published only with status 0 or 1.
"""

#: The last lines of every command's help.
MORE = "more: fastxfen help TOPIC ({topics}); docs/cli.md"

FORMATS_SHORT = """\
formats (--format):
  npy        records, POSITION_DTYPE (POSITION_DTYPE_10x8 with --width 10)
  stockfish  uint8 (N, 24): Stockfish's packed position, without counters
  planes     (N, C, 8, W) tensors: --extra, --perspective, --width, --dtype
  lichess    lichess binary FEN, each value after a length byte (255: null)
  zobrist    uint64 (N,): each position's key (encode only)
"""

_FILES = """\
files:
  INPUT and -o OUT may be '-' (the default) for stdin and stdout. Names ending
  in .gz, .bz2, .xz or .zst are decompressed when read and compressed when
  written (--level N). A .gz or .zst OUT is compressed on --threads threads.

  OUT and the --rejects file are written under a temporary name in their
  folder and renamed into place only when the run ends with status 0 or 1;
  any other stop leaves no new file and an existing one as it was (stdout
  keeps what was written to it). INPUT, OUT and the rejects file must be
  three different files.
"""

_ROWS = """\
rows:
  One position per line; a line may end in \\n or \\r\\n, and the last one may
  lack its newline. Output row i belongs to input row i, in input order. Line
  numbers are 1-based over the whole input; columns are 0-based byte offsets
  into the line. A line longer than 16 MiB is rejected as one row.
"""

_ERRORS = """\
errors:
  --errors raise (the default) stops at the first row that cannot be read,
  with its line, column, field and reason (exit status 2, nothing published);
  coerce writes an empty line (encode: the format's null row; dedupe: drops
  it) and goes on; ignore (normalize, dedupe) copies the row unchanged. With
  coerce or ignore the exit status is 1 if any row was rejected.

  --rejects FILE writes one line per rejected row:
    LINE <TAB> COLUMN <TAB> FIELD <TAB> REASON <TAB> ORIGINAL
  ORIGINAL is the row as read (split on the first four tabs). For a table
  input the rejects file is a table (row, column, field, reason, value) in the
  format its extension names, CSV when it names none.
"""

_FORMATS = """\
binary formats (encode and decode --format):
  npy        .npy of records, POSITION_DTYPE or POSITION_DTYPE_10x8 (N,);
             lossless
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
  rejected rows, named by line, column, field and reason. A .npy written to
  stdout or a compressed file is spooled to a temporary file first (its header
  holds the count).
"""

_TABLES = """\
tables:
  A Parquet (.parquet, .pq), Arrow IPC (.arrow, .feather, .ipc), CSV (.csv),
  TSV (.tsv) or JSON Lines (.jsonl, .ndjson) INPUT, by its extension or
  --input-format, is read a record batch at a time. The column of positions
  (--column, or the one column named fen or epd in any case) is converted;
  every other column is written through. Rows are numbered from 1, header
  excluded. OUT is a table of the format its extension names (an extension
  that names none is an error), of --output-format, or of the input's.

  Parquet and Arrow IPC write every column back as it was (Parquet keeps
  date64 as date32 and seconds as milliseconds). CSV, TSV and JSON Lines
  write each value as text that reads back to the same value of the column's
  type, and refuse, before writing anything, a column they cannot (binary,
  maps; CSV and TSV also lists and structs). See 'fastxfen help csv' and
  'fastxfen help jsonl'.
"""

_CSV = """\
csv (and tsv):
  The column of positions is read as text. Every other column gets a type
  from the rows of the first block (--chunk-size) when every one of its values
  is written back by that type as the same text: int64 ('1487', not '0075'),
  float64, bool ('true', 'false'), date32 ('2024-01-31') or timestamp
  ('2024-01-31 12:00:00'); any other column is text. A later value the
  column's type cannot hold stops the run, naming its row and column: give
  the type with --column-types NAME=TYPE,... (pyarrow's type names: int32,
  float64, string, date32, timestamp[ms], ...; '*=string' reads every other
  column as text). An empty field is a missing value, a quoted empty one
  ("") the empty string.

  CSV and TSV are written with minimal quoting (RFC 4180): a field is quoted
  only when it holds the delimiter, a quote, a line break, or is the empty
  string; a missing value is an empty field. Numbers, dates and times are
  written as pyarrow writes them, which pyarrow and DuckDB read back.
"""

_JSONL = """\
jsonl:
  Each row is written as Python's json.dumps(row, ensure_ascii=False,
  separators=(",", ":"), allow_nan=False) writes it: keys in the table's
  column order, UTF-8, no spaces. Inside nested objects a member whose value
  is missing is left out (as a file with optional keys has it); a column of
  the table is always written, missing as null. Decimals are numbers with
  their digits; dates, times and timestamps strings as pyarrow writes them;
  durations numbers of their unit. A NaN or infinite number has no JSON form
  and stops the run, naming its row and column. Binary and map columns are
  refused before anything is written.
"""

_TRAINING = """\
training (.binpack, .bin, .plain):
  Stockfish's training data is a table format of every command, chosen by
  the extension (compressed or not) or --input-format / --output-format:
  read as a table of fen, move, score, ply, result, rule50 and chain, and
  written from a table with fen, move, score, ply and result. From one such
  format to another, normalize and dedupe pass the entries as they are
  (.binpack to .plain and back gives the same bytes). An entry that cannot
  be read (an illegal move, a damaged chain) is a rejected row without a row
  number; a file cut short stops the run (exit status 2); --errors ignore
  does not apply.

  validate --legal also rejects positions that cannot occur in a game, for
  the reasons python-chess's Board.status() gives: no king, too many kings,
  pawns on the back rank, the side not to move in check, impossible checks,
  too many pieces, bad castling rights, an invalid en-passant square (8x8
  positions only; normalize never checks this). See docs/training.md.
"""

#: The topics of ``fastxfen help TOPIC``: a summary and the text of each.
TOPICS = {
    "files": ("stdin and stdout, compression, outputs published whole", _FILES),
    "rows": ("lines, row order, line and column numbers", _ROWS),
    "errors": ("--errors and the rejects file", _ERRORS),
    "exit-status": ("what each exit status means", EXIT_STATUS),
    "formats": ("the binary formats of encode and decode", _FORMATS),
    "tables": ("Parquet, Arrow, CSV, TSV and JSON Lines files", _TABLES),
    "csv": ("the types of CSV and TSV columns, and quoting", _CSV),
    "jsonl": ("how JSON Lines rows are written", _JSONL),
    "training": ("Stockfish's .binpack, .bin and .plain; validate --legal", _TRAINING),
}
