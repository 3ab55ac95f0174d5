"""The command line's parser: a subcommand per command, its options in
groups (input and output, positions, tables, running), each help a line or
two; the longer explanations are topics of ``fastxfen help TOPIC``
(help_texts).  The ``type=`` functions of values.py turn each option's
text into a checked value."""

from __future__ import annotations

import argparse

from fastxfen import _info, _options
from fastxfen.cli import values
from fastxfen.cli.help_texts import EXIT_STATUS, FORMATS_SHORT, MORE, TOPICS, para
from fastxfen.export import PLANE_EXTRAS
from fastxfen.files import binary_formats, table_formats
from fastxfen.files.text_chunks import DEFAULT_CHUNK

_TOPICS = ", ".join(TOPICS)
_EPILOG = EXIT_STATUS + "\n" + para(MORE.format(topics=_TOPICS))
_TEXT_INPUT = "FEN text, a line each, or a table (default: stdin)"


def _formatter(prog):
    return argparse.RawDescriptionHelpFormatter(prog, max_help_position=24)


def build_parser() -> argparse.ArgumentParser:
    """The parser of ``fastxfen``: a subcommand per command, whose name is
    ``args.command``."""
    parser = argparse.ArgumentParser(
        prog="fastxfen",
        description=para(
            "Read and write chess positions in FEN, X-FEN and Shredder-FEN (8x8 and "
            "10x8 boards), streaming files of any size in bounded memory."
        ),
        epilog=_EPILOG,
        formatter_class=_formatter,
    )
    parser.add_argument("--version", action="version", version=_info.version_text())
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in (_normalize, _validate, _encode, _decode, _dedupe, _pgn, _help):
        add(commands)
    return parser


def _command(commands, name, summary, description, epilog=_EPILOG, inputs="[INPUT]"):
    return commands.add_parser(
        name,
        help=summary,
        usage=f"fastxfen {name} [OPTIONS] {inputs}",
        description=para(description),
        epilog=epilog,
        formatter_class=_formatter,
    )


# ------------------------------------------------------------------ option groups


def _files(p, input_help: str, output_help: str, unit: str = "row"):
    """The group of INPUT, -o and --rejects; returned for more options."""
    group = p.add_argument_group("input and output")
    group.add_argument("input", nargs="?", default="-", metavar="INPUT", help=input_help)
    group.add_argument("-o", "--output", default="-", metavar="OUT", help=output_help)
    group.add_argument(
        "--rejects",
        metavar="FILE",
        help=f"write each rejected {unit} there (fastxfen help errors)",
    )
    return group


def _errors(group, records: bool, help_text: str) -> None:
    group.add_argument(
        "--errors",
        type=values.record_errors if records else values.errors,
        metavar="MODE",
        default="raise",
        help=help_text,
    )


def _running(p, unit: str = "rows"):
    """The group of --threads, --chunk-size, --level, --keep-cache, -q;
    returned for more options."""
    group = p.add_argument_group("running")
    group.add_argument(
        "--threads",
        type=values.threads,
        metavar="N",
        help=f"threads (default: one per 16384 {unit} of a chunk)",
    )
    group.add_argument(
        "--chunk-size",
        type=values.size,
        default=DEFAULT_CHUNK,
        metavar="BYTES",
        help="bytes read at a time, K or M (default 8M, at most 16M)",
    )
    group.add_argument("--level", type=int, metavar="N", help="compression level of OUT")
    group.add_argument(
        "--keep-cache",
        action="store_true",
        help="leave a large OUT in the page cache",
    )
    group.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary")
    return group


def _tables(p, output: bool = True, to_column: str | None = None) -> None:
    """The group of the table options (--input-format, --column, and, when
    the command writes a table, --output-format and ``to_column``)."""
    group = p.add_argument_group("tables (fastxfen help tables)")
    group.add_argument(
        "--input-format",
        choices=("text", *table_formats.names()),
        metavar="FORMAT",
        help="text or a table format (default: by extension)",
    )
    if output:
        group.add_argument(
            "--output-format",
            choices=table_formats.names(),
            metavar="FORMAT",
            help="OUT's table format (default: by extension)",
        )
    group.add_argument(
        "--column",
        metavar="NAME",
        type=values.column,
        help="the column of positions (default: fen or epd)",
    )
    group.add_argument(
        "--column-types",
        type=values.column_types,
        metavar="TYPES",
        help="CSV, TSV: NAME=TYPE,... (fastxfen help csv)",
    )
    if to_column == "to_column":
        group.add_argument(
            "--to-column",
            metavar="NAME",
            type=values.column,
            help="the result in a new column after the positions",
        )
    elif to_column == "reasons_column":
        group.add_argument(
            "--reasons-column",
            metavar="NAME",
            type=values.column,
            help="write the table, with why each row is bad in a new column "
            "after the positions (instead of the messages)",
        )


def _epd(group) -> None:
    group.add_argument(
        "--epd",
        action="store_true",
        help="rows are EPD (operations kept byte for byte)",
    )


def _fields(group, same: bool = True) -> None:
    group.add_argument(
        "--fields",
        type=values.fields if same else values.record_fields,
        default=6,
        metavar="6|4|same" if same else "6|4",
        help="counters written: 6 both (default), 4 none" + (", same as read" if same else ""),
    )


def _modes(group, en_passant: str = "xfen") -> None:
    group.add_argument(
        "--castling",
        type=values.castling,
        metavar=values.choices(_options.CASTLING),
        default="xfen",
        help="xfen writes KQkq, shredder rook files (HAha)",
    )
    _en_passant(group, en_passant, "targets kept")


def _en_passant(group, default: str | None, what: str) -> None:
    group.add_argument(
        "--en-passant",
        type=values.en_passant,
        metavar=values.choices(_options.EN_PASSANT),
        default=default,
        help=f"{what}: all valid, where a pawn can capture, where a capture "
        f"is legal (default: {default or 'fen'})",
    )


def _counters(group) -> None:
    group.add_argument(
        "--counters",
        action="store_true",
        help="counters count in the sameness of positions",
    )


def _planes(group, decode: bool = False) -> None:
    again = " (as written)" if decode else ""
    group.add_argument(
        "--extra",
        type=values.extras,
        metavar="NAME,...",
        help="planes: extra planes, of " + ", ".join(PLANE_EXTRAS) + again,
    )
    group.add_argument(
        "--perspective",
        type=values.perspective,
        metavar=values.choices(_options.PERSPECTIVES),
        help="planes: as is (default) or mirrored for black" + again,
    )


def _format(group, encode: bool = False) -> None:
    group.add_argument(
        "--format",
        choices=binary_formats.names(decoding=not encode),
        default="npy",
        metavar="FORMAT",
        help="the binary file's format (default: npy)",
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
        inputs="[INPUT ...]",
    )
    group = _files(p, _TEXT_INPUT, "where to write (default: stdout)")
    _errors(
        group,
        False,
        "raise stops at a bad row (default), coerce writes an empty line, ignore copies it",
    )
    group = p.add_argument_group("positions")
    _modes(group)
    _fields(group)
    _epd(group)
    group.add_argument(
        "--unique",
        action="store_true",
        help="only the first occurrence of each position",
    )
    _counters(group)
    _tables(p, to_column="to_column")
    group = _running(p)
    # with --dask: more input files
    p.add_argument("more_inputs", nargs="*", metavar="INPUT", help=argparse.SUPPRESS)
    group.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="each INPUT a task on this Dask scheduler, -o a directory",
    )


def _validate(commands) -> None:
    p = _command(
        commands,
        "validate",
        "report the rows that cannot be read",
        "Check every row. Prints 'LINE: column C (field): reason' for each bad row "
        "and nothing for good ones; the exit status is 1 if any row is bad.",
    )
    group = _files(p, _TEXT_INPUT, "where to write the messages (default: stdout)")
    p.set_defaults(errors=None)
    _epd(group)
    group.add_argument(
        "--legal",
        action="store_true",
        help="also reject positions that cannot occur in a game, as python-chess's "
        "Board.status() finds them (8x8 only; fastxfen help training)",
    )
    _tables(p, to_column="reasons_column")
    _running(p)


def _encode(commands) -> None:
    p = _command(
        commands,
        "encode",
        "turn positions into records, planes or packed positions",
        "Turn positions into the rows of a binary file, by --format (below; "
        "fastxfen help formats). A .npy written to stdout or a compressed file is "
        "spooled first; numpy.load(path, mmap_mode='r') maps a plain one.",
        FORMATS_SHORT + "\n" + _EPILOG,
    )
    group = _files(p, _TEXT_INPUT, "the file to write (default: stdout, never a terminal)")
    _errors(
        group,
        True,
        "raise stops at a bad row (default), coerce writes the format's null row",
    )
    group = p.add_argument_group("format")
    _format(group, encode=True)
    group.add_argument(
        "--width",
        type=values.width,
        metavar=values.choices(_options.WIDTHS),
        help="npy: 80-byte records (8) or 96-byte ones, 10x8 too (10); "
        "planes: the board width (default: 8)",
    )
    _en_passant(group, None, "the target stored")
    _planes(group)
    group.add_argument(
        "--dtype",
        type=values.dtype,
        metavar="DTYPE",
        help="planes: a numpy element type (default: uint8)",
    )
    _epd(group)
    _tables(p, output=False)
    _running(p)


def _decode(commands) -> None:
    p = _command(
        commands,
        "decode",
        "turn records, planes or packed positions back into text",
        "Write the canonical text of each row of a file written by 'fastxfen encode' "
        "with the same --format (or by numpy.save of such arrays), one line per row.",
        FORMATS_SHORT + "\n" + _EPILOG,
    )
    group = _files(p, "the file to read (default: stdin)", "where to write the text", "record")
    _errors(
        group,
        True,
        "raise stops at a bad row (default), coerce writes an empty line",
    )
    group = p.add_argument_group("format and positions")
    _format(group)
    _planes(group, decode=True)
    _modes(group)
    _fields(group, same=False)
    _running(p)


def _dedupe(commands) -> None:
    p = _command(
        commands,
        "dedupe",
        "keep the first occurrence of each position",
        "Write every row whose position was not seen in an earlier row, unchanged, in "
        "input order. Two rows hold the same position when placement, side to move, "
        "castling rights and en-passant target are equal after the repairs normalize "
        "makes (with --counters, the counters too); positions are compared whole, "
        "never merged by a key collision. Memory grows with the distinct positions.",
    )
    group = _files(p, _TEXT_INPUT, "where to write the rows kept (default: stdout)")
    _errors(
        group,
        False,
        "raise stops at a bad row (default), coerce drops it, ignore writes it",
    )
    group = p.add_argument_group("positions")
    _en_passant(group, "xfen", "targets that count")
    _counters(group)
    _epd(group)
    _tables(p)
    _running(p)


_PGN_EPILOG = (
    "rejected games:\n"
    "  --rejects FILE gets each game whose FEN tag cannot be read as a line\n"
    "    %fastxfen<TAB>GAME<TAB>LINE<TAB>COLUMN<TAB>FIELD<TAB>REASON\n"
    "  then the game's original bytes (the file stays readable as PGN).\n\n" + _EPILOG
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
    group = _files(p, "a PGN file (default: stdin)", "where to write the PGN", "game")
    _errors(
        group,
        False,
        "a bad FEN tag: raise stops (default), coerce drops the game, ignore copies it",
    )
    group.add_argument(
        "--select",
        type=values.select,
        metavar=values.choices(_options.SELECTIONS),
        help="only games without a FEN tag (standard), with one (setup)",
    )
    _modes(p.add_argument_group("positions"))
    _running(p, "FEN tags")


def _help(commands) -> None:
    p = commands.add_parser(
        "help",
        help="explain a topic: " + _TOPICS,
        usage="fastxfen help [TOPIC]",
        description="Explain a topic of the command line (without one, list them).",
        formatter_class=_formatter,
    )
    p.add_argument("topic", nargs="?", choices=tuple(TOPICS), metavar="TOPIC", help=_TOPICS)
