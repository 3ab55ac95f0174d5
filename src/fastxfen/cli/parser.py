"""The command line's parser: a subcommand per command, built from the
option groups below.  The ``type=`` functions of values.py turn each
option's text into a checked value."""

from __future__ import annotations

import argparse

from fastxfen import _info, _options
from fastxfen.cli import values
from fastxfen.cli.help_texts import EPILOG, FORMATS_HELP, ROWS_HELP, TABLES_HELP, para
from fastxfen.export import PLANE_EXTRAS
from fastxfen.files import binary_formats, table_formats
from fastxfen.files.text_chunks import DEFAULT_CHUNK

_TEXT_EPILOG = ROWS_HELP + "\n" + TABLES_HELP + "\n" + EPILOG
_TEXT_INPUT = "FEN text, one position per line, or a table (see --input-format) (default: stdin)"


def _formatter(prog):
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=28)


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``fastxfen``: a subcommand per command, whose name is
    ``args.command``."""
    parser = argparse.ArgumentParser(
        prog="fastxfen",
        description=para(
            "Read and write chess positions in FEN, X-FEN and Shredder-FEN (8x8 and "
            "10x8 boards), streaming files of any size in bounded memory."
        ),
        epilog=EPILOG,
        formatter_class=_formatter,
    )
    parser.add_argument("--version", action="version", version=_info.version_text())
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in (_normalize, _validate, _encode, _decode, _dedupe, _pgn):
        add(commands)
    return parser


def _command(commands, name, summary, description, epilog):
    return commands.add_parser(
        name,
        help=summary,
        description=para(description),
        epilog=epilog,
        formatter_class=_formatter,
    )


# ------------------------------------------------------------------ option groups


def _common(p, input_help: str, output_help: str, rows: bool = True) -> None:
    """INPUT, -o, --rejects, the reading options (--epd, --threads and the
    table options for rows of text), --chunk-size, --level and the last
    options."""
    p.add_argument("input", nargs="?", default="-", metavar="INPUT", help=input_help)
    p.add_argument("-o", "--output", default="-", metavar="OUT", help=output_help)
    p.add_argument(
        "--rejects",
        metavar="FILE",
        help="write one tab-separated line per rejected row: line number, column, "
        "field, reason, and the row exactly as read (without its line terminator)"
        if rows
        else "write one tab-separated line per rejected record: record number, column, "
        "field, reason, and the record's bytes in hex",
    )
    if rows:
        p.add_argument(
            "--epd",
            action="store_true",
            help="rows are EPD: the four position fields then operations "
            "('bm Nf3; id \"x\";'), which are kept byte for byte; hmvc/fmvn "
            "operations give the counters",
        )
        _threads(p, "rows")
        _table_input(p)
    _chunk_size(
        p,
        "read the input this many bytes at a time (suffix K or M; default 8M, "
        "at most 16M); memory use grows with it",
    )
    _level(
        p,
        "compression level of a compressed OUT (default: the format's usual "
        "one: gzip 6, bzip2 9, xz 6, zstd 3; gzip 1 is several times faster)",
    )
    _last(p)


def _chunk_size(p, help_text: str) -> None:
    p.add_argument(
        "--chunk-size", type=values.size, default=DEFAULT_CHUNK, metavar="BYTES", help=help_text
    )


def _level(p, help_text: str) -> None:
    p.add_argument("--level", type=int, metavar="N", help=help_text)


def _table_input(p) -> None:
    p.add_argument(
        "--input-format",
        choices=("text", *table_formats.names()),
        help="'text' (one position per line) or a table: parquet, arrow (IPC file "
        "or stream, Feather v2), csv, tsv, jsonl, or engine training data: binpack, "
        "bin, plain (default: by INPUT's extension, compression extension looked "
        "past; text when it names no table)",
    )
    p.add_argument(
        "--column",
        metavar="NAME",
        help="tables: the column of positions (default: the one column named fen "
        "or epd, in any case)",
    )


def _output_format(p) -> None:
    p.add_argument(
        "--output-format",
        choices=table_formats.names(),
        help="tables: the format of OUT (default: by its extension, else the input's)",
    )


def _unique(p, flag: bool) -> None:
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


def _fields(p, same: bool = True) -> None:
    p.add_argument(
        "--fields",
        type=values.fields if same else values.record_fields,
        default=6,
        metavar="6|4|same" if same else "6|4",
        help="6 writes both counters (default), 4 none (placement, side, castling, "
        "en passant: a position key)"
        + (", same as many fields as each row came with (4, 5 or 6)" if same else "")
        + "; EPD rows never get counters",
    )


def _threads(p, unit: str) -> None:
    p.add_argument(
        "--threads",
        type=values.threads,
        metavar="N",
        help=f"threads per chunk (default: one per 16384 {unit} of a chunk, up to "
        "the number of CPUs)",
    )


def _last(p) -> None:
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


def _modes(p) -> None:
    p.add_argument(
        "--castling",
        type=values.castling,
        metavar=values.choices(_options.CASTLING),
        default="xfen",
        help="castling field style: 'xfen' writes KQkq, using a rook's file letter "
        "only where K or Q would name another rook; 'shredder' always writes rook "
        "files, e.g. HAha (default: xfen)",
    )
    p.add_argument(
        "--en-passant",
        type=values.en_passant,
        metavar=values.choices(_options.EN_PASSANT),
        default="xfen",
        help="which valid en-passant targets to keep: 'fen' every one, 'xfen' only "
        "when a pawn can capture, 'legal' only when such a capture is legal "
        "(default: xfen)",
    )


def _errors(p, records: bool, help_text: str) -> None:
    p.add_argument(
        "--errors",
        type=values.record_errors if records else values.errors,
        metavar=values.choices(_options.RECORD_ERRORS if records else _options.ERRORS),
        default="raise",
        help=help_text,
    )


def _format(p, encode: bool = False) -> None:
    p.add_argument(
        "--format",
        choices=binary_formats.names(decoding=not encode),
        default="npy",
        help="the binary file's format (default: npy, records); see below",
    )


def _planes(p, decode: bool = False) -> None:
    again = " (give the values the planes were written with)" if decode else ""
    p.add_argument(
        "--extra",
        type=values.extras,
        metavar="NAME[,NAME...]",
        help="planes: extra planes after the piece planes, in this order: "
        + ", ".join(PLANE_EXTRAS)
        + again,
    )
    p.add_argument(
        "--perspective",
        type=values.perspective,
        metavar=values.choices(_options.PERSPECTIVES),
        help="planes: 'white' the board as it stands; 'side_to_move' mirrored and "
        "colors swapped when black is to move (default: white)" + again,
    )


# ------------------------------------------------------------------ commands


def _normalize(commands) -> None:
    p = _command(
        commands,
        "normalize",
        "rewrite positions in canonical form",
        "Rewrite every position in canonical form: castling rights and en-passant "
        "targets checked against the board, counters without leading zeros, single "
        "spaces between fields. Each line keeps its own terminator.",
        _TEXT_EPILOG,
    )
    _common(p, _TEXT_INPUT, "where to write the text (default: stdout)")
    _modes(p)
    _errors(
        p,
        False,
        "what to do with a row that cannot be read: 'raise' stops at the first "
        "one (exit status 2); 'coerce' writes an empty line in its place; 'ignore' "
        "copies it unchanged; with coerce or ignore the exit status is 1 if any row "
        "was rejected (default: raise)",
    )
    _fields(p)
    _output_format(p)
    p.add_argument(
        "--to-column",
        metavar="NAME",
        help="tables: write the result to a new column NAME, right after the column "
        "of positions, which is kept (default: in place of it)",
    )
    _unique(p, flag=True)
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


def _validate(commands) -> None:
    p = _command(
        commands,
        "validate",
        "report the rows that cannot be read",
        "Check every row. Prints 'LINE: column C (field): reason' for each bad row "
        "and nothing for good ones; the exit status is 1 if any row is bad.",
        _TEXT_EPILOG,
    )
    _common(p, _TEXT_INPUT, "where to write the messages (default: stdout)")
    p.set_defaults(errors=None)
    _output_format(p)
    p.add_argument(
        "--reasons-column",
        metavar="NAME",
        help="tables: write the table with a column NAME after the column of "
        "positions: why each bad row is bad, null for a good one (instead of the "
        "messages)",
    )
    p.add_argument(
        "--legal",
        action="store_true",
        help="also reject positions that cannot occur in a game, as python-chess's "
        "Board.status() finds them (no king, too many kings, pawns on the back rank, "
        "the side not to move in check, impossible checks, too many pieces, bad "
        "castling rights, an invalid en-passant square): 'illegal position: ...'; "
        "8x8 positions only",
    )


def _encode(commands) -> None:
    p = _command(
        commands,
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
        FORMATS_HELP + "\n" + _TEXT_EPILOG,
    )
    _common(p, _TEXT_INPUT, "the file to write (default: stdout, never a terminal)")
    _format(p, encode=True)
    p.add_argument(
        "--width",
        type=values.width,
        metavar=values.choices(_options.WIDTHS),
        help="npy: 8 gives 80-byte records and rejects 10-wide rows, 10 gives 96-byte "
        "records holding 8x8 and 10x8 positions; planes: the board width, 8 (12 piece "
        "planes) or 10 (16 piece planes), rows of the other width rejected (default: 8)",
    )
    p.add_argument(
        "--en-passant",
        type=values.en_passant,
        metavar=values.choices(_options.EN_PASSANT),
        help="lichess, stockfish, planes: which valid en-passant target to store (the "
        "'en_passant' plane): 'fen' every one, 'xfen' only when a pawn can capture, "
        "'legal' only when such a capture is legal (default: fen, lossless)",
    )
    _planes(p)
    p.add_argument(
        "--dtype",
        type=values.dtype,
        metavar="DTYPE",
        help="planes: the element type, a numpy name: bool, uint8, int8, ..., float16, "
        "float32, float64 (default: uint8)",
    )
    _errors(
        p,
        True,
        "'raise' stops at the first row that cannot be read or stored (exit status "
        "2); 'coerce' writes a null row in its place (npy: the null record of width 0; "
        "stockfish, planes: zeros; lichess: the byte 255), and the exit status is 1 if "
        "any row was rejected (default: raise)",
    )


def _decode(commands) -> None:
    p = _command(
        commands,
        "decode",
        "turn records, planes or packed positions back into text",
        "Write the canonical text of each row of a file written by 'fastxfen encode' "
        "with the same --format (or by numpy.save of such arrays), one line per row. "
        "The file is read a chunk at a time.",
        FORMATS_HELP + "\n" + EPILOG,
    )
    _common(
        p,
        "the file to read (default: stdin)",
        "where to write the text (default: stdout)",
        rows=False,
    )
    _format(p)
    _modes(p)
    _planes(p, decode=True)
    _errors(
        p,
        True,
        "'raise' stops at the first row that cannot be read (exit status 2); "
        "'coerce' writes an empty line in its place (the null rows of 'encode --errors "
        "coerce' cannot be read), and the exit status is 1 if any row was rejected "
        "(default: raise)",
    )
    _threads(p, "rows")
    _fields(p, same=False)


def _dedupe(commands) -> None:
    p = _command(
        commands,
        "dedupe",
        "keep the first occurrence of each position",
        "Write every row whose position was not seen in an earlier row, unchanged, in "
        "input order. Two rows hold the same position when their placement, side to "
        "move, castling rights and en-passant target (as --en-passant keeps it) are "
        "equal, after the repairs normalize makes; with --counters their move counters "
        "too. Positions are compared whole (keys only find candidates), so no two are "
        "ever merged by a key collision. Memory grows with the distinct positions, "
        "about 60 to 90 bytes each.",
        _TEXT_EPILOG,
    )
    _common(p, _TEXT_INPUT, "where to write the rows kept (default: stdout)")
    p.add_argument(
        "--en-passant",
        type=values.en_passant,
        metavar=values.choices(_options.EN_PASSANT),
        default="xfen",
        help="which en-passant targets count in the sameness: 'fen' every valid one, "
        "'xfen' only when a pawn can capture, 'legal' only when such a capture is "
        "legal (default: xfen)",
    )
    _errors(
        p,
        False,
        "what to do with a row that cannot be read: 'raise' stops at the first "
        "one (exit status 2); 'coerce' drops it; 'ignore' writes it unchanged; with "
        "coerce or ignore the exit status is 1 if any row was rejected (default: raise)",
    )
    _output_format(p)
    _unique(p, flag=False)


_PGN_EPILOG = (
    "rejected games:\n"
    "  A game whose FEN tag cannot be read is handled whole: 'raise' stops before\n"
    "  it, 'coerce' drops it, 'ignore' copies it unchanged. --rejects FILE gets\n"
    "  each such game as a line\n"
    "    %fastxfen<TAB>GAME<TAB>LINE<TAB>COLUMN<TAB>FIELD<TAB>REASON\n"
    "  followed by the game's original bytes (a PGN escape line: the file stays\n"
    "  readable as PGN). GAME and LINE are 1-based, COLUMN a 0-based byte offset\n"
    "  into the line.\n\n" + EPILOG
)


def _pgn(commands) -> None:
    p = _command(
        commands,
        "pgn",
        "normalize the FEN tags of a PGN file",
        'Stream a PGN file and rewrite the value of every [FEN "..."] tag of a game\'s '
        "header section in canonical form, leaving every other byte untouched; a game "
        'with a FEN tag but no SetUp tag gets [SetUp "1"] just before its first FEN '
        "tag. Castling is read Chess960-style whatever the Variant tag says.",
        _PGN_EPILOG,
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
    _modes(p)
    _errors(
        p,
        False,
        "what to do with a game whose FEN tag cannot be read: 'raise' stops there "
        "(exit status 2); 'coerce' drops the game; 'ignore' copies it unchanged; with "
        "coerce or ignore the exit status is 1 if any game was rejected (default: raise)",
    )
    p.add_argument(
        "--select",
        type=values.select,
        metavar=values.choices(_options.SELECTIONS),
        help="keep only the games without a FEN tag (and without a Variant tag naming "
        "another game than chess): 'standard'; or only those with one: 'setup'",
    )
    p.add_argument(
        "--rejects",
        metavar="FILE",
        help="write every rejected game there, after a %%fastxfen line naming "
        "game, line, column, field and reason",
    )
    _threads(p, "FEN tags")
    _chunk_size(
        p,
        "read the input this many bytes at a time (suffix K or M; default 8M, at "
        "most 16M); chunks are cut at game starts; memory use grows with it",
    )
    _level(p, "compression level of a compressed OUT (default: the format's usual one)")
    _last(p)
