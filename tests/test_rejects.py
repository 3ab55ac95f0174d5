"""Rejected rows, the error model, and the rules python-chess cannot check.

Each catalogue row is one rule of docs/semantics.md broken once; the test
asserts the FenError's row index, 0-based column and field exactly.  The
expected columns are counted by hand from the rule ("an error at its
column"): the character that breaks the rule, or, when something is missing,
the place where it should have been.
"""

import pytest
from conftest import CAPABLANCA, START, START_FEN
from models import semantics as model
from support import strategies as S

import fastxfen as fx

T = " w KQkq - 0 1"  # the standard tail; side at 44, castling 46, ep 51,
#                      halfmove 53, fullmove 55 after the 43-char START


def at(row, sub, n=1):
    """Column of the n-th occurrence of ``sub`` in ``row``."""
    i = -1
    for _ in range(n):
        i = row.index(sub, i + 1)
    return i


def case(rule, name, row, column, field):
    """A rejected row; its test id is the rule's ID in docs/semantics.md and a name."""
    return pytest.param(row, column, field, id=f"{rule}/{name}")


def _ranks(*ranks):
    return "/".join(ranks)


# Rows where the column is the one character that breaks a rule.
CATALOGUE = [
    # ---- placement
    case(
        "PLACEMENT-WIDTH",
        "rank-too-long-number",
        START.replace("/8/", "/9/", 1) + T,
        18,
        "placement",
    ),
    case(
        "PLACEMENT-WIDTH",
        "rank-too-long-piece",
        "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" + T,
        17,
        "placement",
    ),
    case(
        "PLACEMENT-WIDTH",
        "rank-too-long-sum",
        "rnbqkbnr/pppppppp/8/8/4P4/8/PPPP1PPP/RNBQKBNR" + T,
        at("rnbqkbnr/pppppppp/8/8/4P4/", "4", 2),
        "placement",
    ),
    case(
        "PLACEMENT-WIDTH",
        "rank-too-long-last-rank",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR" + T,
        43,
        "placement",
    ),
    case(
        "PLACEMENT-NUMBERS",
        "zero-count",
        "rnbqkbnr/pppppppp/8/8/3P04/8/PPP1PPPP/RNBQKBNR" + T,
        at("rnbqkbnr/pppppppp/8/8/3P04", "0"),
        "placement",
    ),
    case(
        "PLACEMENT-NUMBERS",
        "zero-rank",
        "rnbqkbnr/pppppppp/8/0/8/8/PPPPPPPP/RNBQKBNR" + T,
        20,
        "placement",
    ),
    case(
        "PLACEMENT-NUMBERS",
        "zero-first",
        "0rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" + T,
        0,
        "placement",
    ),
    case(
        "PLACEMENT-NUMBERS",
        "adjacent-44",
        "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR" + T,
        19,
        "placement",
    ),
    case(
        "PLACEMENT-NUMBERS",
        "adjacent-17",
        "rnbqkbnr/pppppppp/8/17/8/8/PPPPPPPP/RNBQKBNR" + T,
        21,
        "placement",
    ),
    case(
        "PLACEMENT-NUMBERS",
        "adjacent-71",
        "rnbqkbnr/pppppppp/8/8/71/8/PPPPPPPP/RNBQKBNR" + T,
        23,
        "placement",
    ),
    case(
        "PLACEMENT-NUMBERS",
        "adjacent-p35",
        "rnbqkbnr/pppppppp/8/8/p35/8/PPPPPPPP/RNBQKBNR" + T,
        24,
        "placement",
    ),
    case(
        "PLACEMENT-NUMBERS",
        "adjacent-101-wide",
        CAPABLANCA.replace("/10/", "/101/", 1) + T,
        at(CAPABLANCA, "/10/") + 3,
        "placement",
    ),
    case(
        "PLACEMENT-WIDE-PIECES",
        "archbishop-on-rank-8-last",
        "rnbqkbna/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" + T,
        7,
        "placement",
    ),
    case(
        "PLACEMENT-WIDE-PIECES",
        "archbishop-on-rank-8-first",
        "Anbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" + T,
        0,
        "placement",
    ),
    case(
        "PLACEMENT-WIDE-PIECES",
        "archbishop-on-8",
        "rnbqkbnr/pppppppp/8/8/3A4/8/PPPPPPPP/RNBQKBNR" + T,
        23,
        "placement",
    ),
    case(
        "PLACEMENT-WIDE-PIECES",
        "chancellor-on-8",
        "rnbqkbnr/pppppppp/2c5/8/8/8/PPPPPPPP/RNBQKBNR" + T,
        19,
        "placement",
    ),
    case(
        "PLACEMENT-PIECES",
        "bad-letter",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX" + T,
        42,
        "placement",
    ),
    case(
        "PLACEMENT-PIECES",
        "lowercase-x",
        "rnbqkbnr/pppppppp/8/8/8/3x4/PPPPPPPP/RNBQKBNR" + T,
        25,
        "placement",
    ),
    case(
        "PLACEMENT-PIECES",
        "promoted-marker",
        "rnbqkbnr/ppppQ~pp/8/8/8/8/PPPPPPPP/RNBQKBNR" + T,
        14,
        "placement",
    ),
    case(
        "PLACEMENT-WIDTH",
        "rank-short-middle",
        "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" + T,
        16,
        "placement",
    ),
    case(
        "PLACEMENT-WIDTH",
        "rank-short-last",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN" + T,
        42,
        "placement",
    ),
    case(
        "PLACEMENT-WIDTH",
        "rank-empty",
        "rnbqkbnr/pppppppp//8/8/8/PPPPPPPP/RNBQKBNR" + T,
        18,
        "placement",
    ),
    case(
        "PLACEMENT-WIDTH",
        "first-rank-7",
        "rnbqkbn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" + T,
        7,
        "placement",
    ),
    case(
        "PLACEMENT-WIDTH",
        "first-rank-9",
        "rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" + T,
        9,
        "placement",
    ),
    case(
        "PLACEMENT-WIDTH",
        "wide-then-8",
        "rnabqkbcnr/pppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR" + T,
        19,
        "placement",
    ),
    case(
        "PLACEMENT-WIDTH",
        "8-then-wide",
        "rnbqkbnr/pppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" + T,
        17,
        "placement",
    ),
    case(
        "PLACEMENT-RANKS",
        "nine-ranks",
        "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR" + T,
        at("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/", "/", 8),
        "placement",
    ),
    case("PLACEMENT-RANKS", "slash-at-end", START + "/" + T, 43, "placement"),
    case(
        "ROW-CHARACTERS",
        "nul-in-placement",
        "rnbqkbnr/pppp\x00ppp/8/8/8/8/PPPPPPPP/RNBQKBNR" + T,
        13,
        "placement",
    ),
    case(
        "ROW-CHARACTERS",
        "del-in-placement",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPP\x7fPPP/RNBQKBNR" + T,
        30,
        "placement",
    ),
    case(
        "ROW-CHARACTERS",
        "non-ascii-letter",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN\u00e9" + T,
        42,
        "placement",
    ),
    case(
        "ROW-CHARACTERS",
        "non-ascii-digit-in-rank",
        "rnbqkbnr/pppppppp/8/8/\u0668/8/PPPPPPPP/RNBQKBNR" + T,
        22,
        "placement",
    ),
    case(
        "ROW-CHARACTERS",
        "fullwidth-digit",
        "rnbqkbnr/pppppppp/\uff18/8/8/8/PPPPPPPP/RNBQKBNR" + T,
        18,
        "placement",
    ),
    case(
        "PLACEMENT-WIDTH",
        "nine-wide-rank-8-with-A",
        "rnbqkbnrA/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" + T,
        9,
        "placement",
    ),
    # ---- leading blanks shift every column
    case(
        "ROW-COLUMNS",
        "leading-blanks-placement",
        " \t rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR" + T,
        21,
        "placement",
    ),
    case("ROW-COLUMNS", "leading-blanks-side", "\t" + START + " x KQkq - 0 1", 45, "side"),
    case("ROW-COLUMNS", "leading-blanks-ep", "  " + START + " w KQkq i3 0 1", 53, "en_passant"),
    case("ROW-BLANKS", "tabs-between", START + "\tw\t\tKQkq\t-\t+0\t1", 54, "halfmove"),
    # ---- side
    case("SIDE-LETTER", "side-x", START + " x KQkq - 0 1", 44, "side"),
    case("SIDE-LETTER", "side-upper", START + " W KQkq - 0 1", 44, "side"),
    case("SIDE-LETTER", "side-dash", START + " - KQkq - 0 1", 44, "side"),
    case("SIDE-LETTER", "side-non-ascii", START + " \u0175 KQkq - 0 1", 44, "side"),
    # ---- castling
    case("CASTLING-SYNTAX", "dash-then-flag", START + " w -K - 0 1", 47, "castling"),
    case("CASTLING-SYNTAX", "flag-then-dash", START + " w K- - 0 1", 47, "castling"),
    case("CASTLING-SYNTAX", "double-dash", START + " w -- - 0 1", 47, "castling"),
    case("CASTLING-FLAGS", "three-white-flags", START + " w KQA - 0 1", 48, "castling"),
    case("CASTLING-FLAGS", "three-black-flags", START + " w kqb - 0 1", 48, "castling"),
    case("CASTLING-FLAGS", "three-white-late", START + " w kKQH - 0 1", 49, "castling"),
    case("CASTLING-FLAGS", "repeat-K", START + " w KK - 0 1", 47, "castling"),
    case("CASTLING-FLAGS", "repeat-h", START + " w Hhh - 0 1", 48, "castling"),
    case("CASTLING-FLAGS", "valid-then-repeat", START + " w Hkhk - 0 1", 49, "castling"),
    case("CASTLING-FLAGS", "file-I-on-8", START + " w I - 0 1", 46, "castling"),
    case("CASTLING-FLAGS", "file-i-on-8", START + " w KQi - 0 1", 48, "castling"),
    case(
        "CASTLING-FLAGS",
        "repeat-K-on-10",
        CAPABLANCA + " w KQkqK - 0 1",
        len(CAPABLANCA) + 7,
        "castling",
    ),
    case(
        "CASTLING-FLAGS", "file-L-on-10", CAPABLANCA + " w L - 0 1", len(CAPABLANCA) + 3, "castling"
    ),
    case(
        "CASTLING-FLAGS",
        "file-k-on-10",
        CAPABLANCA + " w Kl - 0 1",
        len(CAPABLANCA) + 4,
        "castling",
    ),
    case("CASTLING-FLAGS", "not-a-flag", START + " w KQx - 0 1", 48, "castling"),
    case("CASTLING-SYNTAX", "prefix-after-flag", START + " w Ks - 0 1", 47, "castling"),
    case("CASTLING-SYNTAX", "two-prefixes", START + " w sm - 0 1", 47, "castling"),
    case("CASTLING-SYNTAX", "upper-prefix", START + " w SKQ - 0 1", 46, "castling"),
    case("CASTLING-SYNTAX", "prefix-then-dash", START + " w s- - 0 1", 47, "castling"),
    case("ROW-CHARACTERS", "cr-inside", START + " w KQ\rkq - 0 1", 48, "castling"),
    # ---- en passant
    case("EP-SYNTAX", "ep-file-i", START + " w KQkq i3 0 1", 51, "en_passant"),
    case("EP-SYNTAX", "ep-upper", START + " w KQkq E3 0 1", 51, "en_passant"),
    case("EP-SYNTAX", "ep-digit-first", START + " w KQkq 33 0 1", 51, "en_passant"),
    case(
        "EP-SYNTAX",
        "ep-file-k-on-10",
        CAPABLANCA + " w KQkq k6 0 1",
        len(CAPABLANCA) + 8,
        "en_passant",
    ),
    # ---- counters
    case("COUNTER-DIGITS", "halfmove-plus", START + " w KQkq - +1 1", 53, "halfmove"),
    case("COUNTER-DIGITS", "halfmove-minus-zero", START + " w KQkq - -0 1", 53, "halfmove"),
    case("COUNTER-DIGITS", "halfmove-dot", START + " w KQkq - 1.5 1", 54, "halfmove"),
    case("COUNTER-DIGITS", "halfmove-underscore", START + " w KQkq - 1_0 1", 54, "halfmove"),
    case("COUNTER-DIGITS", "halfmove-hex", START + " w KQkq - 0x1 1", 54, "halfmove"),
    case("COUNTER-DIGITS", "halfmove-arabic-indic", START + " w KQkq - \u0663 1", 53, "halfmove"),
    case(
        "COUNTER-DIGITS",
        "halfmove-digit-then-arabic",
        START + " w KQkq - 1\u0663 1",
        54,
        "halfmove",
    ),
    case("COUNTER-DIGITS", "fullmove-plus", START + " w KQkq - 0 +1", 55, "fullmove"),
    case("COUNTER-DIGITS", "fullmove-letter", START + " w KQkq - 0 1a", 56, "fullmove"),
    case("COUNTER-DIGITS", "fullmove-fullwidth", START + " w KQkq - 0 \uff11", 55, "fullmove"),
    case("COUNTER-DIGITS", "fullmove-superscript", START + " w KQkq - 0 \u00b2", 55, "fullmove"),
    case("ROW-TERMINATOR", "fullmove-nul", START + " w KQkq - 0 1\x00", 56, "fullmove"),
    case("ROW-TERMINATOR", "fullmove-lone-cr", START_FEN + "\r", 56, "fullmove"),
    case("ROW-TERMINATOR", "fullmove-two-newlines", START_FEN + "\n\n", 56, "fullmove"),
    case("ROW-TERMINATOR", "fullmove-cr-cr-lf", START_FEN + "\r\r\n", 56, "fullmove"),
    # ---- field count
    case("ROW-FIELD-COUNT", "seven-fields", START_FEN + " x", 57, "fields"),
    case("ROW-FIELD-COUNT", "seven-fields-numbers", START_FEN + " 0", 57, "fields"),
    case("ROW-FIELD-COUNT", "seven-fields-tabs", START_FEN + "\t\t7 ", 58, "fields"),
]


@pytest.mark.parametrize("row,column,field", CATALOGUE)
def test_catalogue(row, column, field):
    # the row alone (index 0) ...
    with pytest.raises(fx.FenError) as info:
        fx.normalize(row)
    e = info.value
    assert (e.index, e.column, e.field) == (0, column, field), str(e)
    assert isinstance(e.reason, str) and e.reason
    assert str(e) == f"row 0, column {column} ({field}): {e.reason}"
    # ... and behind two good rows (index 2), in every mode and every entry point
    rows = [START_FEN, START_FEN, row, "not even a fen"]
    for castling, en_passant in model.MODES:
        with pytest.raises(fx.FenError) as info:
            fx.normalize(rows, castling=castling, en_passant=en_passant)
        assert (info.value.index, info.value.column, info.value.field) == (2, column, field)
    for width in (8, 10):
        with pytest.raises(fx.FenError) as info:
            fx.encode(rows, width=width)
        assert (info.value.index, info.value.column, info.value.field) == (2, column, field)
    messages = fx.validate(rows)
    assert messages[:2] == [None, None]
    assert messages[2] == f"column {column} ({field}): {e.reason}"
    assert messages[3] is not None
    assert fx.validate(row) == messages[2]
    # the model agrees that the row is rejected
    assert model.normalize(row) is None


# Rows where the text is cut short or runs on.  semantics.md says only that
# the column is "where reading failed"; these read it literally: the first
# character at which the row stops being the beginning of some valid row
# (the '0' that turns "1" into an 11-square "10", the digit that takes a
# counter past 4294967295, the second letter of "wb"), or the end of the row
# or field when the text stops too early.
MISSING = [
    case(
        "PLACEMENT-RANKS",
        "seven-ranks",
        "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR" + T,
        41,
        "placement",
    ),
    case(
        "PLACEMENT-WIDTH",
        "ten-on-8-wide",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R10" + T,
        37,
        "placement",
    ),
    case(
        "PLACEMENT-WIDTH",
        "first-rank-11",
        "rnbqkbnr3/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" + T,
        8,
        "placement",
    ),
    case("ROW-FIELD-COUNT", "too-few-fields-3", START + " w KQkq", 50, "fields"),
    case("ROW-FIELD-COUNT", "too-few-fields-2", START + " w", 45, "fields"),
    case("ROW-FIELD-COUNT", "too-few-fields-1", START, 43, "fields"),
    # trailing blanks are not part of the row (semantics.md: ignored)
    case("ROW-BLANKS", "too-few-fields-3-trailing-space", START + " w KQkq \t ", 50, "fields"),
    case("ROW-TERMINATOR", "too-few-fields-3-newline", START + " w KQkq\n", 50, "fields"),
    case("ROW-FIELD-COUNT", "empty-row", "", 0, "fields"),
    case("ROW-FIELD-COUNT", "blank-row", " \t ", 3, "fields"),
    case("CASTLING-SYNTAX", "prefix-alone", START + " w s - 0 1", 47, "castling"),
    case("CASTLING-SYNTAX", "prefix-alone-m", START + " w m - 0 1", 47, "castling"),
    case("EP-SYNTAX", "ep-rank-9", START + " w KQkq e9 0 1", 52, "en_passant"),
    case("EP-SYNTAX", "ep-rank-0", START + " w KQkq e0 0 1", 52, "en_passant"),
    case("EP-SYNTAX", "ep-file-only", START + " w KQkq e 0 1", 52, "en_passant"),
    case("EP-SYNTAX", "ep-three-chars", START + " w KQkq e33 0 1", 53, "en_passant"),
    case("EP-SYNTAX", "ep-dash-rank", START + " w KQkq -3 0 1", 52, "en_passant"),
    case("SIDE-LETTER", "side-two-letters", START + " wb KQkq - 0 1", 45, "side"),
    case("SIDE-LETTER", "side-word", START + " white KQkq - 0 1", 45, "side"),
    case("COUNTER-RANGE", "halfmove-too-big", START + " w KQkq - 4294967296 1", 62, "halfmove"),
    case(
        "COUNTER-RANGE", "halfmove-way-too-big", START + " w KQkq - 99999999999 1", 62, "halfmove"
    ),
    case(
        "COUNTER-RANGE",
        "halfmove-zeros-too-big",
        START + " w KQkq - 004294967296 1",
        64,
        "halfmove",
    ),
    case("COUNTER-RANGE", "fullmove-too-big", START + " w KQkq - 0 4294967296", 64, "fullmove"),
    case("COUNTER-RANGE", "fullmove-huge", START + " w KQkq - 0 " + "9" * 40, 64, "fullmove"),
]


@pytest.mark.parametrize("row,column,field", MISSING)
def test_missing_or_whole_field(row, column, field):
    with pytest.raises(fx.FenError) as info:
        fx.normalize(["8/8/8/8/8/8/8/8 w - -", row])
    assert (info.value.index, info.value.column, info.value.field) == (1, column, field), str(
        info.value
    )
    assert model.normalize(row) is None


# Control characters between fields belong to no field's text; the row is
# rejected at the character's column whatever field the error names.
BETWEEN = [
    case("ROW-CHARACTERS", "cr-between-fields", START + " w\rKQkq - 0 1", 45, None),
    case("ROW-CHARACTERS", "lf-between-fields", START + " w\nKQkq - 0 1", 45, None),
    case("ROW-CHARACTERS", "vt-separator", START + " w\x0bKQkq - 0 1", 45, None),
    case("ROW-CHARACTERS", "ff-separator", START + " w KQkq\x0c- 0 1", 50, None),
    case("ROW-CHARACTERS", "nbsp-separator", START + " w\u00a0KQkq - 0 1", 45, None),
    case("ROW-CHARACTERS", "em-space-separator", START + " w KQkq -\u20030 1", 52, None),
    case("ROW-TERMINATOR", "lf-then-space", START_FEN + "\n ", 56, None),
    case("ROW-TERMINATOR", "lf-at-start", "\n" + START_FEN, 0, None),
    case("ROW-TERMINATOR", "crlf-twice", START_FEN + "\r\n\r\n", 56, None),
    case("ROW-TERMINATOR", "nul-at-end", START_FEN + " \x00", 57, None),
]


@pytest.mark.parametrize("row,column,field", BETWEEN)
def test_control_characters(row, column, field):
    with pytest.raises(fx.FenError) as info:
        fx.normalize(row)
    assert (info.value.index, info.value.column) == (0, column), str(info.value)
    assert info.value.field in (
        "placement",
        "side",
        "castling",
        "en_passant",
        "halfmove",
        "fullmove",
        "fields",
    )
    assert model.normalize(row) is None


def test_non_str_items():
    # None is a missing value, not a bad row: tests/test_missing_values.py
    for bad in (42, 1.5, ["x"], object()):
        rows = [START_FEN, bad, START_FEN]
        with pytest.raises(fx.FenError) as info:
            fx.normalize(rows)
        assert (info.value.index, info.value.column, info.value.field) == (1, 0, "input")
        assert fx.normalize(rows, errors="coerce") == [START_FEN, None, START_FEN]
        out = fx.normalize(rows, errors="ignore")
        assert out[0] == START_FEN and out[2] == START_FEN and out[1] is bad
        v = fx.validate(rows)
        assert v[0] is None and v[2] is None and v[1].startswith("column 0 (input): ")
        with pytest.raises(fx.FenError) as info:
            fx.encode(rows)
        assert (info.value.index, info.value.field) == (1, "input")


# --------------------------------------------------------------- accepted forms


def test_line_terminators_and_blanks_accepted():
    for row in (
        START_FEN + "\n",
        START_FEN + "\r\n",
        "  " + START_FEN + " \t",
        "\t" + START_FEN + "\t\n",
        START_FEN + "  \r\n",
        START.replace("8", "8", 1) + "\t w \t KQkq\t\t-   0  1",
    ):
        assert fx.normalize(row) == START_FEN, repr(row)
        assert fx.validate(row) is None


def test_missing_counters_default():
    assert fx.normalize(START + " w KQkq -") == START_FEN
    assert fx.normalize(START + " w KQkq - 7") == START + " w KQkq - 7 1"
    assert fx.normalize(START + " b - - 12") == START + " b - - 12 1"


def test_counters():
    assert fx.normalize(START + " w KQkq - 007 0042") == START + " w KQkq - 7 42"
    assert fx.normalize(START + " w KQkq - 00 000") == START + " w KQkq - 0 1"
    assert fx.normalize(START + " w KQkq - 0 0") == START + " w KQkq - 0 1"
    assert fx.normalize(START + " w KQkq - 3 00") == START + " w KQkq - 3 1"
    big = START + " w KQkq - 4294967295 4294967295"
    assert fx.normalize(big) == big
    assert fx.normalize(START + " w KQkq - 0004294967295 1") == START + " w KQkq - 4294967295 1"
    assert fx.normalize(START + " w KQkq - " + "0" * 30 + "5 1") == START + " w KQkq - 5 1"


def test_any_flag_order():
    for flags in ("KQkq", "KkQq", "kK" + "Qq", "qkQK", "kqKQ", "QqKk"):
        assert fx.normalize(START + f" w {flags} - 0 1") == START_FEN
        assert (
            fx.normalize(START + f" w {flags} - 0 1", castling="shredder")
            == START + " w HAha - 0 1"
        )
    assert fx.normalize(START + " w kK - 0 1") == START + " w Kk - 0 1"
    assert fx.normalize(START + " w hH - 0 1") == START + " w Kk - 0 1"
    assert fx.normalize(START + " w aHhA - 0 1", castling="shredder") == START + " w HAha - 0 1"
    assert fx.normalize(START + " w qQ - 0 1") == START + " w Qq - 0 1"


def test_redundant_names_of_one_rook():
    # K and H name the same rook: both flags are allowed (no flag repeated)
    assert fx.normalize(START + " w KH - 0 1") == START + " w K - 0 1"
    assert fx.normalize(START + " w AQ - 0 1", castling="shredder") == START + " w A - 0 1"


def test_prefix_kept_while_a_right_survives():
    assert fx.normalize(START + " w sKQkq - 0 1") == START + " w sKQkq - 0 1"
    assert fx.normalize(START + " w sKQkq - 0 1", castling="shredder") == START + " w sHAha - 0 1"
    assert fx.normalize(START + " w mkq - 0 1") == START + " w mkq - 0 1"
    # only the white queen-side rook is left: one right survives
    assert fx.normalize("4k3/8/8/8/8/8/8/R3K3 w sKQkq - 0 1") == "4k3/8/8/8/8/8/8/R3K3 w sQ - 0 1"
    # no rook at all: the prefix goes with the rights
    assert fx.normalize("4k3/8/8/8/8/8/8/4K3 w sKQkq - 0 1") == "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    assert (
        fx.normalize("4k3/8/8/8/8/8/8/4K3 b mHa - 0 1", castling="shredder")
        == "4k3/8/8/8/8/8/8/4K3 b - - 0 1"
    )


def test_prefix_on_10_files():
    row = CAPABLANCA + " w sKQkq - 0 1"
    assert fx.normalize(row) == row
    assert fx.normalize(row, castling="shredder") == CAPABLANCA + " w sJAja - 0 1"


# --------------------------------------------------------------- castling repair


def test_repair_needs_exactly_one_king_on_the_back_rank():
    base = "r3k2r/8/8/8/8/8/8/R3K2R"
    assert fx.normalize(base + " w KQkq - 0 1") == base + " w KQkq - 0 1"
    # a second white king anywhere: white loses its rights, black keeps them
    two = "r3k2r/8/8/8/8/8/4K3/R3K2R"
    assert fx.normalize(two + " w KQkq - 0 1") == two + " w kq - 0 1"
    assert fx.normalize(two + " w KQkq - 0 1", castling="shredder") == two + " w ha - 0 1"
    two_back = "r3k2r/8/8/8/8/8/8/RK2K2R"
    assert fx.normalize(two_back + " w KQkq - 0 1") == two_back + " w kq - 0 1"
    # two black kings
    two_black = "r3k2r/8/8/4k3/8/8/8/R3K2R"
    assert fx.normalize(two_black + " b KQkq - 0 1") == two_black + " b KQ - 0 1"
    # no white king
    none = "r3k2r/8/8/8/8/8/8/R6R"
    assert fx.normalize(none + " w KQkq - 0 1") == none + " w kq - 0 1"
    # the king off its back rank
    off = "r3k2r/8/8/8/8/8/4K3/R6R"
    assert fx.normalize(off + " w KQkq - 0 1") == off + " w kq - 0 1"
    # a black king on white's back rank: black has no right, and it does
    # not disturb white's (one white king, on h1; K finds no rook on its h
    # side, Q finds a1)
    swapped = "r6r/8/8/8/8/8/8/R3k2K"
    assert fx.normalize(swapped + " w KQkq - 0 1") == swapped + " w Q - 0 1"
    assert fx.normalize(swapped + " w KQkq - 0 1", castling="shredder") == swapped + " w A - 0 1"


def test_repair_rook_of_the_right_color_on_the_square():
    # K names h1, where a black rook stands: no white right
    assert fx.normalize("4k3/8/8/8/8/8/8/4K2r w K - 0 1") == "4k3/8/8/8/8/8/8/4K2r w - - 0 1"
    # a named file holding a knight
    assert fx.normalize("4k3/8/8/8/8/8/8/1N2K2R w BK - 0 1") == "4k3/8/8/8/8/8/8/1N2K2R w K - 0 1"
    # a white rook on rank 8 does not give black a right
    assert fx.normalize("R3k3/8/8/8/8/8/8/4K3 b q - 0 1") == "R3k3/8/8/8/8/8/8/4K3 b - - 0 1"


def test_inner_rooks():
    # rooks a1, c1, king e1, rook h1
    b = "4k3/8/8/8/8/8/8/R1R1K2R"
    assert fx.normalize(b + " w C - 0 1") == b + " w C - 0 1"
    assert fx.normalize(b + " w C - 0 1", castling="shredder") == b + " w C - 0 1"
    assert fx.normalize(b + " w Q - 0 1") == b + " w Q - 0 1"
    assert fx.normalize(b + " w Q - 0 1", castling="shredder") == b + " w A - 0 1"
    # two a-side rights: only the outermost (a1) survives
    assert fx.normalize(b + " w CQ - 0 1") == b + " w Q - 0 1"
    assert fx.normalize(b + " w AC - 0 1") == b + " w Q - 0 1"
    assert fx.normalize(b + " w HC - 0 1") == b + " w KC - 0 1"
    # black: rooks b8, g8, h8, king e8
    k = "1r2k1rr/8/8/8/8/8/8/4K3"
    assert fx.normalize(k + " b g - 0 1") == k + " b g - 0 1"
    assert fx.normalize(k + " b k - 0 1") == k + " b k - 0 1"
    assert fx.normalize(k + " b gq - 0 1") == k + " b gq - 0 1"
    assert fx.normalize(k + " b gq - 0 1", castling="shredder") == k + " b gb - 0 1"
    assert fx.normalize(k + " b gh - 0 1") == k + " b k - 0 1"
    # K/Q with no rook on that side fall back to the corner, which is empty
    r = "4k3/8/8/8/8/8/8/1R2K1R1"
    assert fx.normalize(r + " w KQ - 0 1") == r + " w KQ - 0 1"  # K -> g1, Q -> b1
    assert fx.normalize(r + " w KQ - 0 1", castling="shredder") == r + " w GB - 0 1"
    assert fx.normalize(r + " w HA - 0 1") == r + " w - - 0 1"
    # a rook beside the king on the a side, written as a letter when further
    # rooks stand out; the right on the inner rook alone
    q = "4k3/8/8/8/8/8/8/RR2K3"
    assert fx.normalize(q + " w B - 0 1") == q + " w B - 0 1"


def test_castling_on_ten_files():
    row = CAPABLANCA + " w KQkq - 0 1"
    assert fx.normalize(row) == row
    assert fx.normalize(row, castling="shredder") == CAPABLANCA + " w JAja - 0 1"
    assert fx.normalize(CAPABLANCA + " w JAja - 0 1") == row
    # I names i1, a knight
    assert fx.normalize(CAPABLANCA + " w IA - 0 1") == CAPABLANCA + " w Q - 0 1"


# --------------------------------------------------------------- en passant

E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"


def test_ep_invalid_targets_dropped_in_every_mode():
    for castling, ep in model.MODES:

        def n(row, castling=castling, ep=ep):
            return fx.normalize(row, castling=castling, en_passant=ep).split(" ")[3]

        assert n(E4 + " b KQkq e3 0 1") == ("e3" if ep == "fen" else "-")
        # wrong side to move for that target
        assert n(E4 + " w KQkq e3 0 1") == "-"
        # wrong rank
        assert n(E4 + " b KQkq e4 0 1") == "-"
        assert n(E4 + " b KQkq e6 0 1") == "-"
        # no pushed pawn in front of it
        assert n(E4 + " b KQkq d3 0 1") == "-"
        # the origin square is occupied
        assert n("rnbqkbnr/pppppppp/8/8/4P3/8/PPPPNPPP/RNBQKB1R b KQkq e3 0 1") == "-"
        # the target square is occupied
        assert n("rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/RNBQKB1R b KQkq e3 0 1") == "-"
        # the pawn in front is of the wrong color
        assert n("rnbqkbnr/pppp1ppp/8/8/4p3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1") == "-"
        # the start position, e3 and e6 with either side to move
        assert n(START + " w KQkq e6 0 1") == "-"
        assert n(START + " b KQkq e3 0 1") == "-"


def test_ep_modes_by_hand():
    def n(row, ep):
        return fx.normalize(row, en_passant=ep).split(" ")[3]

    # black pawn d7-d5 beside a white pawn on e5: a capture exists
    row = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
    assert [n(row, m) for m in ("fen", "xfen", "legal")] == ["d6", "d6", "d6"]
    # no white pawn beside it
    row = "4k3/8/8/3p4/4P3/8/8/4K3 w - d6 0 1"
    assert [n(row, m) for m in ("fen", "xfen", "legal")] == ["d6", "-", "-"]
    # rank pin: king h5, rook a5, both pawns leave rank 5
    row = "4k3/8/8/r2pP2K/8/8/8/8 w - d6 0 1"
    assert [n(row, m) for m in ("fen", "xfen", "legal")] == ["d6", "d6", "-"]
    # the same with a second blocker: the capture is legal
    row = "4k3/8/8/rn1pP2K/8/8/8/8 w - d6 0 1"
    assert [n(row, m) for m in ("fen", "xfen", "legal")] == ["d6", "d6", "d6"]
    # diagonal pin of the capturer (bishop h8, pawn e5, king a1): exd6 leaves
    # the diagonal a1-h8
    row = "4k2b/8/8/3pP3/8/8/8/K7 w - d6 0 1"
    assert [n(row, m) for m in ("fen", "xfen", "legal")] == ["d6", "d6", "-"]
    # pinned along the diagonal that exd6 follows (bishop b8, king h2: the
    # capture stays on b8-c7-d6-e5-f4-g3-h2)
    row = "1b2k3/8/8/3pP3/8/8/7K/8 w - d6 0 1"
    assert [n(row, m) for m in ("fen", "xfen", "legal")] == ["d6", "d6", "d6"]
    row = "4k3/2b5/8/3pP3/8/6K1/8/8 w - d6 0 1"
    assert [n(row, m) for m in ("fen", "xfen", "legal")] == ["d6", "d6", "d6"]
    # file pin: king e1, rook e8, capturer e5
    row = "k3r3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
    assert [n(row, m) for m in ("fen", "xfen", "legal")] == ["d6", "d6", "-"]
    # the pushed pawn gives check: capturing it is legal
    row = "4k3/8/8/3pP3/2K5/8/8/8 w - d6 0 1"
    assert [n(row, m) for m in ("fen", "xfen", "legal")] == ["d6", "d6", "d6"]
    # check by a knight the capture does not touch
    row = "4k3/8/8/3pP3/8/8/5n2/7K w - d6 0 1"
    assert [n(row, m) for m in ("fen", "xfen", "legal")] == ["d6", "d6", "-"]
    # check along rank 6 that the capture blocks on d6
    row = "4k3/8/r6K/3pP3/8/8/8/8 w - d6 0 1"
    assert [n(row, m) for m in ("fen", "xfen", "legal")] == ["d6", "d6", "d6"]
    # two capturers, one pinned on the file: the other one makes it legal
    row = "k3r3/8/8/2PpP3/8/8/8/4K3 w - d6 0 1"
    assert [n(row, m) for m in ("fen", "xfen", "legal")] == ["d6", "d6", "d6"]
    # black to move: white pawn c2-c4, black pawn b4, black king a4, white
    # queen h4 on the rank
    row = "8/8/8/8/kpP4Q/8/8/4K3 b - c3 0 1"
    assert [n(row, m) for m in ("fen", "xfen", "legal")] == ["c3", "c3", "-"]
    # the same with a second black king on e8: still illegal (every king is
    # tested; python-chess would look at one king only)
    row = "4k3/8/8/8/kpP4Q/8/8/4K3 b - c3 0 1"
    assert [n(row, m) for m in ("fen", "xfen", "legal")] == ["c3", "c3", "-"]


def test_ep_every_king_is_tested():
    # two white kings; the one on h5 is exposed along rank 5 after exd6
    row = "4k3/8/8/r2pP2K/8/8/8/1K6 w - d6 0 1"
    assert fx.normalize(row, en_passant="xfen").split()[3] == "d6"
    assert fx.normalize(row, en_passant="legal").split()[3] == "-"
    # two kings, neither exposed
    row = "4k3/8/8/3pP2K/8/8/8/1K6 w - d6 0 1"
    assert fx.normalize(row, en_passant="legal").split()[3] == "d6"
    # no white king: every capture is legal
    row = "4k3/8/8/r2pP3/8/8/8/8 w - d6 0 1"
    assert fx.normalize(row, en_passant="legal").split()[3] == "d6"
    # a king of the other color does not matter
    row = "4k3/8/8/r2pP2k/8/8/8/1K6 w - d6 0 1"
    assert fx.normalize(row, en_passant="legal").split()[3] == "d6"


def test_ep_ten_files():
    # j-file pawn pushed, capturer on i
    row = "5k4/10/10/8Pp/10/10/10/5K4 w - j6 0 1"
    assert fx.normalize(row, en_passant="xfen").split()[3] == "j6"
    assert fx.normalize(row, en_passant="legal").split()[3] == "j6"
    # the capturer is pinned by a chancellor on its file
    row = "5k2c1/10/10/8Pp/10/10/10/8K1 w - j6 0 1"
    assert fx.normalize(row, en_passant="legal").split()[3] == "-"
    # an archbishop jumps onto the king after the capture opens nothing: it
    # already gives a knight check that the capture does not stop
    row = "5k4/10/10/8Pp/10/7a2/10/8K1 w - j6 0 1"
    assert fx.normalize(row, en_passant="legal").split()[3] == "-"


# --------------------------------------------------------------- errors= modes

MIXED = [
    START_FEN,
    START + " x KQkq - 0 1",  # bad side
    E4 + " b KQkq e3 0 1",
    "8/8/8/8/8/8/8/8 w KK - 0 1",  # repeated flag
    START + " w KQkq - 0 1\n",
    START + " w KQkq",  # three fields
]
MIXED_BAD = {1: (44, "side"), 3: (19, "castling"), 5: (50, "fields")}


def test_errors_modes_on_mixed_list():
    good = {i: model.normalize(r) for i, r in enumerate(MIXED) if i not in MIXED_BAD}
    for castling, ep in model.MODES:
        with pytest.raises(fx.FenError) as info:
            fx.normalize(MIXED, castling=castling, en_passant=ep)
        assert (info.value.index, info.value.column, info.value.field) == (1, 44, "side")
        coerced = fx.normalize(MIXED, castling=castling, en_passant=ep, errors="coerce")
        ignored = fx.normalize(MIXED, castling=castling, en_passant=ep, errors="ignore")
        assert len(coerced) == len(ignored) == len(MIXED)
        for i, row in enumerate(MIXED):
            if i in MIXED_BAD:
                assert coerced[i] is None
                assert ignored[i] == row
            else:
                expected = model.normalize(row, castling, ep)
                assert coerced[i] == ignored[i] == expected
    assert good[0] == START_FEN
    messages = fx.validate(MIXED)
    for i in range(len(MIXED)):
        if i in MIXED_BAD:
            column, field = MIXED_BAD[i]
            assert messages[i].startswith(f"column {column} ({field}): "), messages[i]
        else:
            assert messages[i] is None
    # the first bad row is reported, wherever it is
    for first in (0, 3, 7):
        rows = [START_FEN] * first + [MIXED[3], MIXED[1]] + [START_FEN] * 2
        with pytest.raises(fx.FenError) as info:
            fx.normalize(rows)
        assert (info.value.index, info.value.column, info.value.field) == (first, 19, "castling")


def test_encode_coerce_and_decode_null():
    recs = fx.encode(MIXED, errors="coerce")
    assert len(recs) == len(MIXED)
    for i in MIXED_BAD:
        assert recs[i].tobytes() == bytes(recs.dtype.itemsize)
    assert all(recs["width"][i] == 8 for i in range(len(MIXED)) if i not in MIXED_BAD)
    out = fx.decode(recs, errors="coerce")
    for i, row in enumerate(MIXED):
        assert out[i] == (None if i in MIXED_BAD else model.normalize(row))
    assert fx.decode(recs) == out  # the null record is a missing value under every mode
    recs["halfmove"][1] = 1  # width 0, but not the null record
    with pytest.raises(fx.FenError) as info:
        fx.decode(recs)
    assert (info.value.index, info.value.column, info.value.field) == (1, 0, "record.width")


# --------------------------------------------------------------- fuzzing


def test_mutations_agree_with_rule_model():
    """One random edit of a valid row: fastxfen accepts it exactly when the
    model of docs/semantics.md does, and then writes the same text; a
    rejected row never raises anything but FenError."""
    rows = list(S.mutation_corpus())
    messages = fx.validate(rows)
    coerced = fx.normalize(rows, errors="coerce")
    expected = [model.normalize(r) for r in rows]
    assert sum(e is None for e in expected) > len(rows) // 3
    assert sum(e is not None for e in expected) > len(rows) // 10
    bad = S.first_mismatches(rows, expected, coerced)
    assert not bad, "\n".join(bad)
    for row, m, e in zip(rows, messages, expected):
        assert (m is None) == (e is not None), (row, m)
        if m is not None:
            assert m.startswith("column ")
    # the reported column lies inside the row
    for row, m in zip(rows, messages):
        if m is not None:
            column = int(m.split()[1])
            assert 0 <= column <= len(row), (row, m)
