"""The command line's arguments: the parser of every command and its help
text, and the checks of options that argparse cannot make."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import textwrap

from fastxfen import __version__, _options
from fastxfen.cli import chunks, formats, signals, tables
from fastxfen.cli.errors import CliError, Terminated
from fastxfen.cli.io import DEFAULT_CHUNK
from fastxfen.cli.report import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_TERMINATED
from fastxfen.export import PLANE_EXTRAS


def threads_for(args, rows: int) -> int:
    """The threads for a chunk of ``rows`` rows: --threads (capped to the
    CPUs), else one per CHUNK_ROWS_PER_THREAD rows (the library's own
    automatic choice splits only much larger batches than a chunk holds)."""
    return _options.resolve_threads(args.threads, rows, _options.CHUNK_ROWS_PER_THREAD)


def make(factory, args):
    """factory(args), its ValueError (a bad option) a usage error."""
    try:
        return factory(args)
    except ValueError as exc:
        raise CliError(str(exc)) from None


def check_format_options(args, options) -> None:
    """A usage error for an option given with a --format it does not apply
    to; ``options`` maps an option to its formats."""
    for name, kinds in options.items():
        if getattr(args, name, None) is not None and args.format not in kinds:
            option = "--" + name.replace("_", "-")
            raise CliError(f"{option} applies to --format {' or '.join(kinds)} only")


def _size(text: str) -> int:
    units = {"k": 1 << 10, "m": 1 << 20}
    scale = units.get(text[-1:].lower(), 1)
    number = text[:-1] if scale != 1 else text
    try:
        value = int(number) * scale
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (try 8M)") from None
    if not 1 <= value <= chunks.MAX_LINE:
        raise argparse.ArgumentTypeError(
            f"must be between 1 byte and {chunks.MAX_LINE >> 20}M, not {text}"
        )
    return value


def _fields(text: str):
    """--fields: 6, 4 or same."""
    if text == "same":
        return text
    if text in ("4", "6"):
        return int(text)
    raise argparse.ArgumentTypeError(f"expected 6, 4 or same, not {text!r}")


def _record_fields(text: str) -> int:
    """decode's --fields: 6 or 4."""
    if text == "same":
        raise argparse.ArgumentTypeError("6 or 4: records keep no count of fields to keep")
    return _fields(text)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive number, not {text!r}")
    return value


EPILOG = """\
files:
  INPUT and -o OUT may be '-' (the default) for stdin and stdout. Names ending
  in .gz, .bz2, .xz or .zst are decompressed when read and compressed when
  written.

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
"""

ROWS_HELP = """\
rows:
  One position per line; a line may end in \\n or \\r\\n, and the last one may
  lack its newline. Output row i belongs to input row i, in input order. Line
  numbers are 1-based over the whole input; columns are 0-based byte offsets
  into the line.
"""


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``fastxfen``: a subcommand per command, whose name is
    ``args.command``."""

    def fmt(prog):
        return argparse.RawDescriptionHelpFormatter(prog, max_help_position=28)

    def para(text):
        return textwrap.fill(" ".join(text.split()), 79)

    parser = argparse.ArgumentParser(
        prog="fastxfen",
        description=para(
            "Read and write chess positions in FEN, X-FEN and Shredder-FEN (8x8 and "
            "10x8 boards), streaming files of any size in bounded memory."
        ),
        epilog=EPILOG,
        formatter_class=fmt,
    )
    parser.add_argument("--version", action="version", version=f"fastxfen {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def command(name, summary, description, epilog):
        return commands.add_parser(
            name, help=summary, description=para(description), epilog=epilog, formatter_class=fmt
        )

    def common(p, input_help, output_help, threads=True):
        p.add_argument("input", nargs="?", default="-", metavar="INPUT", help=input_help)
        p.add_argument("-o", "--output", default="-", metavar="OUT", help=output_help)
        p.add_argument(
            "--rejects",
            metavar="FILE",
            help="write one tab-separated line per rejected row: line number, column, "
            "field, reason, and the row exactly as read (without its line terminator)"
            if threads
            else "write one tab-separated line per rejected record: record number, column, "
            "field, reason, and the record's bytes in hex",
        )
        if threads:
            p.add_argument(
                "--epd",
                action="store_true",
                help="rows are EPD: the four position fields then operations "
                "('bm Nf3; id \"x\";'), which are kept byte for byte; hmvc/fmvn "
                "operations give the counters",
            )
            threads_option(p, "rows")
            table_options(p)
        p.add_argument(
            "--chunk-size",
            type=_size,
            default=DEFAULT_CHUNK,
            metavar="BYTES",
            help="read the input this many bytes at a time (suffix K or M; default 8M, "
            "at most 16M); memory use grows with it",
        )
        p.add_argument(
            "--level",
            type=int,
            metavar="N",
            help="compression level of a compressed OUT (default: the format's usual "
            "one: gzip 6, bzip2 9, xz 6, zstd 3; gzip 1 is several times faster)",
        )
        last_options(p)

    def table_options(p):
        p.add_argument(
            "--input-format",
            choices=tables.INPUT_FORMATS,
            help="'text' (one position per line) or a table: parquet, arrow (IPC file "
            "or stream, Feather v2), csv, tsv, jsonl (default: by INPUT's extension, "
            "compression extension looked past; text when it names no table)",
        )
        p.add_argument(
            "--column",
            metavar="NAME",
            help="tables: the column of positions (default: the one column named fen "
            "or epd, in any case)",
        )

    def output_format(p):
        p.add_argument(
            "--output-format",
            choices=tables.TABLE_FORMATS,
            help="tables: the format of OUT (default: by its extension, else the input's)",
        )

    def unique_options(p, flag):
        if flag:
            p.add_argument(
                "--unique",
                action="store_true",
                help="write only the first occurrence of each position (as 'dedupe' "
                "defines sameness); the summary counts the duplicates dropped",
            )
        p.add_argument(
            "--counters",
            action="store_true",
            help="with the halfmove clock and fullmove number in the sameness of "
            "positions (by default they are ignored)",
        )

    def fields_option(p, same=True):
        p.add_argument(
            "--fields",
            type=_fields if same else _record_fields,
            default=6,
            metavar="6|4|same" if same else "6|4",
            help="6 writes both counters (default), 4 none (placement, side, castling, "
            "en passant: a position key)"
            + (", same as many fields as each row came with (4, 5 or 6)" if same else "")
            + "; EPD rows never get counters",
        )

    def threads_option(p, unit):
        p.add_argument(
            "--threads",
            type=_positive,
            metavar="N",
            help=f"threads per chunk (default: one per 16384 {unit} of a chunk, up to "
            "the number of CPUs)",
        )

    def last_options(p):
        p.add_argument(
            "--keep-cache",
            action="store_true",
            help="leave a large OUT file in the page cache as written (by default, "
            "past its first 256 MB the pages the disk has taken are released behind "
            "the writer: memory stays free, and where new memory is slow to get, as "
            "on some virtual machines, the run is faster)",
        )
        p.add_argument(
            "-q", "--quiet", action="store_true", help="no progress bar and no summary on stderr"
        )

    def modes(p):
        p.add_argument(
            "--castling",
            choices=_options.CASTLING,
            default="xfen",
            help="castling field style: 'xfen' writes KQkq, using a rook's file letter "
            "only where K or Q would name another rook; 'shredder' always writes rook "
            "files, e.g. HAha (default: xfen)",
        )
        p.add_argument(
            "--en-passant",
            choices=_options.EN_PASSANT,
            default="xfen",
            help="which valid en-passant targets to keep: 'fen' every one, 'xfen' only "
            "when a pawn can capture, 'legal' only when such a capture is legal "
            "(default: xfen)",
        )

    def formats_option(p, encode=False):
        p.add_argument(
            "--format",
            choices=formats.ENCODE_FORMATS if encode else formats.FORMATS,
            default="npy",
            help="the binary file's format (default: npy, records); see below",
        )

    def planes_options(p, decode=False):
        again = " (give the values the planes were written with)" if decode else ""
        p.add_argument(
            "--extra",
            metavar="NAME[,NAME...]",
            help="planes: extra planes after the piece planes, in this order: "
            + ", ".join(PLANE_EXTRAS)
            + again,
        )
        p.add_argument(
            "--perspective",
            choices=_options.PERSPECTIVES,
            help="planes: 'white' the board as it stands; 'side_to_move' mirrored and "
            "colors swapped when black is to move (default: white)" + again,
        )

    text_epilog = ROWS_HELP + "\n" + TABLES_HELP + "\n" + EPILOG
    text_input = "FEN text, one position per line, or a table (see --input-format) (default: stdin)"

    p = command(
        "normalize",
        "rewrite positions in canonical form",
        "Rewrite every position in canonical form: castling rights and en-passant "
        "targets checked against the board, counters without leading zeros, single "
        "spaces between fields. Each line keeps its own terminator.",
        text_epilog,
    )
    common(p, text_input, "where to write the text (default: stdout)")
    modes(p)
    p.add_argument(
        "--errors",
        choices=_options.ERRORS,
        default="raise",
        help="what to do with a row that cannot be read: 'raise' stops at the first "
        "one (exit status 2); 'coerce' writes an empty line in its place; 'ignore' "
        "copies it unchanged; with coerce or ignore the exit status is 1 if any row "
        "was rejected (default: raise)",
    )
    fields_option(p)
    output_format(p)
    p.add_argument(
        "--to-column",
        metavar="NAME",
        help="tables: write the result to a new column NAME, right after the column "
        "of positions, which is kept (default: in place of it)",
    )
    unique_options(p, flag=True)
    p.add_argument(
        "more_inputs", nargs="*", metavar="INPUT", help="with --dask: more input files (or shards)"
    )
    p.add_argument(
        "--dask",
        metavar="SCHEDULER_ADDRESS",
        help="run on a Dask cluster (pip install fastxfen[dask]): each INPUT becomes a "
        "task that normalizes it with this same streaming code and writes OUT/<name>; "
        "-o OUT is then a directory, and --rejects DIR too (DIR/<name>). The files must "
        "be reachable by the workers under the same paths",
    )

    p = command(
        "validate",
        "report the rows that cannot be read",
        "Check every row. Prints 'LINE: column C (field): reason' for each bad row "
        "and nothing for good ones; the exit status is 1 if any row is bad.",
        text_epilog,
    )
    common(p, text_input, "where to write the messages (default: stdout)")
    p.set_defaults(errors=None)
    output_format(p)
    p.add_argument(
        "--reasons-column",
        metavar="NAME",
        help="tables: write the table with a column NAME after the column of "
        "positions: why each bad row is bad, null for a good one (instead of the "
        "messages)",
    )

    p = command(
        "encode",
        "turn positions into records, planes or packed positions",
        "Turn positions into the rows of a binary file, by --format: 'npy' (default) "
        "fixed-size records (fastxfen.POSITION_DTYPE, 80 bytes, or "
        "POSITION_DTYPE_10x8, 96 bytes) in a .npy file; 'stockfish' a .npy of uint8 "
        "shape (N, 24), Stockfish's compressed position; 'planes' a .npy of plane "
        "tensors (N, C, 8, W) as fastxfen.to_planes gives; 'lichess' lichess binary "
        "FEN values, each after a length byte (255 alone for a rejected row). A .npy "
        "header holds the final count, so writing one to stdout or to a compressed "
        "file first spools the rows to a temporary file; numpy.load(..., "
        "mmap_mode='r') maps a plain one.",
        FORMATS_HELP + "\n" + text_epilog,
    )
    common(p, text_input, "the file to write (default: stdout, never a terminal)")
    formats_option(p, encode=True)
    p.add_argument(
        "--width",
        type=int,
        choices=_options.WIDTHS,
        help="npy: 8 gives 80-byte records and rejects 10-wide rows, 10 gives 96-byte "
        "records holding 8x8 and 10x8 positions; planes: the board width, 8 (12 piece "
        "planes) or 10 (16 piece planes), rows of the other width rejected (default: 8)",
    )
    p.add_argument(
        "--en-passant",
        choices=_options.EN_PASSANT,
        help="lichess, stockfish, planes: which valid en-passant target to store (the "
        "'en_passant' plane): 'fen' every one, 'xfen' only when a pawn can capture, "
        "'legal' only when such a capture is legal (default: fen, lossless)",
    )
    planes_options(p)
    p.add_argument(
        "--dtype",
        metavar="DTYPE",
        help="planes: the element type, a numpy name: bool, uint8, int8, ..., float16, "
        "float32, float64 (default: uint8)",
    )
    p.add_argument(
        "--errors",
        choices=_options.RECORD_ERRORS,
        default="raise",
        help="'raise' stops at the first row that cannot be read or stored (exit status "
        "2); 'coerce' writes a null row in its place (npy: the null record of width 0; "
        "stockfish, planes: zeros; lichess: the byte 255), and the exit status is 1 if "
        "any row was rejected (default: raise)",
    )

    p = command(
        "decode",
        "turn records, planes or packed positions back into text",
        "Write the canonical text of each row of a file written by 'fastxfen encode' "
        "with the same --format (or by numpy.save of such arrays), one line per row. "
        "The file is read a chunk at a time.",
        FORMATS_HELP + "\n" + EPILOG,
    )
    common(
        p,
        "the file to read (default: stdin)",
        "where to write the text (default: stdout)",
        threads=False,
    )
    formats_option(p)
    modes(p)
    planes_options(p, decode=True)
    p.add_argument(
        "--errors",
        choices=_options.RECORD_ERRORS,
        default="raise",
        help="'raise' stops at the first row that cannot be read (exit status 2); "
        "'coerce' writes an empty line in its place (the null rows of 'encode --errors "
        "coerce' cannot be read), and the exit status is 1 if any row was rejected "
        "(default: raise)",
    )
    threads_option(p, "rows")
    fields_option(p, same=False)

    p = command(
        "dedupe",
        "keep the first occurrence of each position",
        "Write every row whose position was not seen in an earlier row, unchanged, in "
        "input order. Two rows hold the same position when their placement, side to "
        "move, castling rights and en-passant target (as --en-passant keeps it) are "
        "equal, after the repairs normalize makes; with --counters their move counters "
        "too. Positions are compared whole (keys only find candidates), so no two are "
        "ever merged by a key collision. Memory grows with the distinct positions, "
        "about 60 to 90 bytes each.",
        text_epilog,
    )
    common(p, text_input, "where to write the rows kept (default: stdout)")
    p.add_argument(
        "--en-passant",
        choices=_options.EN_PASSANT,
        default="xfen",
        help="which en-passant targets count in the sameness: 'fen' every valid one, "
        "'xfen' only when a pawn can capture, 'legal' only when such a capture is "
        "legal (default: xfen)",
    )
    p.add_argument(
        "--errors",
        choices=_options.ERRORS,
        default="raise",
        help="what to do with a row that cannot be read: 'raise' stops at the first "
        "one (exit status 2); 'coerce' drops it; 'ignore' writes it unchanged; with "
        "coerce or ignore the exit status is 1 if any row was rejected (default: raise)",
    )
    output_format(p)
    unique_options(p, flag=False)

    p = command(
        "pgn",
        "normalize the FEN tags of a PGN file",
        'Stream a PGN file and rewrite the value of every [FEN "..."] tag of a game\'s '
        "header section in canonical form, leaving every other byte untouched; a game "
        'with a FEN tag but no SetUp tag gets [SetUp "1"] just before its first FEN '
        "tag. Castling is read Chess960-style whatever the Variant tag says.",
        "rejected games:\n"
        "  A game whose FEN tag cannot be read is handled whole: 'raise' stops before\n"
        "  it, 'coerce' drops it, 'ignore' copies it unchanged. --rejects FILE gets\n"
        "  each such game as a line\n"
        "    %fastxfen<TAB>GAME<TAB>LINE<TAB>COLUMN<TAB>FIELD<TAB>REASON\n"
        "  followed by the game's original bytes (a PGN escape line: the file stays\n"
        "  readable as PGN). GAME and LINE are 1-based, COLUMN a 0-based byte offset\n"
        "  into the line.\n\n" + EPILOG,
    )
    p.add_argument(
        "input", nargs="?", default="-", metavar="INPUT", help="a PGN file (default: stdin)"
    )
    p.add_argument(
        "-o",
        "--output",
        default="-",
        metavar="OUT",
        help="where to write the PGN text (default: stdout)",
    )
    modes(p)
    p.add_argument(
        "--errors",
        choices=_options.ERRORS,
        default="raise",
        help="what to do with a game whose FEN tag cannot be read: 'raise' stops there "
        "(exit status 2); 'coerce' drops the game; 'ignore' copies it unchanged; with "
        "coerce or ignore the exit status is 1 if any game was rejected (default: raise)",
    )
    p.add_argument(
        "--select",
        choices=("standard", "setup"),
        help="keep only the games without a FEN tag (and without a Variant tag naming "
        "another game than chess): 'standard'; or only those with one: 'setup'",
    )
    p.add_argument(
        "--rejects",
        metavar="FILE",
        help="write every rejected game there, after a %%fastxfen line naming "
        "game, line, column, field and reason",
    )
    threads_option(p, "FEN tags")
    p.add_argument(
        "--chunk-size",
        type=_size,
        default=DEFAULT_CHUNK,
        metavar="BYTES",
        help="read the input this many bytes at a time (suffix K or M; default 8M, at "
        "most 16M); chunks are cut at game starts; memory use grows with it",
    )
    p.add_argument(
        "--level",
        type=int,
        metavar="N",
        help="compression level of a compressed OUT (default: the format's usual one)",
    )
    last_options(p)
    return parser


def run_argv(argv, commands: dict) -> int:
    """Parse ``argv`` and run its command (``commands`` maps a command's
    name to the function that runs it); return the exit status, whatever
    stops the run."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else EXIT_FAILED
    try:
        with signals.handled():
            return commands[args.command](args)
    except CliError as exc:
        print(f"fastxfen: error: {exc}", file=sys.stderr)
        return EXIT_FAILED
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, and keep Python
        # from complaining when it flushes stdout at exit.
        with contextlib.suppress(OSError):
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILED
    except KeyboardInterrupt:
        print("fastxfen: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Terminated:
        print("fastxfen: terminated", file=sys.stderr)
        return EXIT_TERMINATED
