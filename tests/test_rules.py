"""One or more worked examples for each rule of docs/semantics.md, under the
rule's ID (test ids ``RULE-ID/name``).

The expected texts are worked out by hand from the page; fastxfen and the
rule model (models/semantics.py) must both give them.  Rejections are in
test_rejects.py's catalogue, under the same IDs; the wide tests (python-chess,
generated corpora) are in test_differential.py and test_10x8.py.
"""

import numpy as np
import pytest
from conftest import CAPABLANCA, START, START_FEN
from models import semantics as model

import fastxfen as fx

E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
BAD = START + " x KQkq - 0 1"  # side x: column 44


def example(rule, name, row, want, castling="xfen", en_passant="xfen"):
    return pytest.param(row, want, castling, en_passant, id=f"{rule}/{name}")


OUTPUTS = [
    example("ROW-SHAPE", "six-fields", START_FEN, START_FEN),
    example("ROW-BLANKS", "tabs-and-runs", f"\t {START} \t w  KQkq\t- 0   1 \t", START_FEN),
    example("ROW-TERMINATOR", "lf", START_FEN + "\n", START_FEN),
    example("ROW-TERMINATOR", "crlf", START_FEN + "\r\n", START_FEN),
    example("ROW-FIELD-COUNT", "four-fields", START + " w KQkq -", START_FEN),
    example("ROW-FIELD-COUNT", "five-fields", START + " w KQkq - 7", START + " w KQkq - 7 1"),
    example("PLACEMENT-PIECES", "archbishop-chancellor-on-10", CAPABLANCA + " w - - 0 1", None),
    example("PLACEMENT-CANONICAL", "8-wide", "r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", None),
    example("PLACEMENT-CANONICAL", "10-wide", "r4k3r/10/10/10/10/10/10/R4K3R w - - 0 1", None),
    example("PLACEMENT-NO-LEGALITY", "pawns-on-back-ranks", "P7/8/8/8/8/8/8/7p w - - 0 1", None),
    example("PLACEMENT-NO-LEGALITY", "two-kings", "KK6/8/8/8/8/8/8/8 b - - 0 1", None),
    example("CASTLING-SYNTAX", "dash", START + " w - - 0 1", None),
    example("CASTLING-FLAGS", "any-order", START + " w qkQK - 0 1", START_FEN),
    example("CASTLING-FLAGS", "files", START + " w HAha - 0 1", START_FEN),
    example(
        "CASTLING-NAMES",
        "K-names-the-outermost-rook",
        "4k3/8/8/8/8/8/8/R3KR1R w K - 0 1",
        "4k3/8/8/8/8/8/8/R3KR1R w H - 0 1",
        castling="shredder",
    ),
    example(
        "CASTLING-NAMES",
        "K-names-an-inner-rook-if-no-other",
        "4k3/8/8/8/8/8/8/4K1R1 w K - 0 1",
        "4k3/8/8/8/8/8/8/4K1R1 w G - 0 1",
        castling="shredder",
    ),
    example(
        "CASTLING-NAMES",
        "letters",
        "4k3/8/8/8/8/8/8/1R2K1R1 w GB - 0 1",
        "4k3/8/8/8/8/8/8/1R2K1R1 w KQ - 0 1",
    ),
    example(
        "CASTLING-REPAIR-KING",
        "two-kings",
        "4k3/8/8/8/8/8/8/R2KK2R w KQ - 0 1",
        "4k3/8/8/8/8/8/8/R2KK2R w - - 0 1",
    ),
    example(
        "CASTLING-REPAIR-KING",
        "king-off-the-back-rank",
        "4k3/8/8/8/8/8/4K3/R6R w KQ - 0 1",
        "4k3/8/8/8/8/8/4K3/R6R w - - 0 1",
    ),
    example(
        "CASTLING-REPAIR-ROOK",
        "no-rook-on-the-square",
        "4k3/8/8/8/8/8/8/R3K3 w KQkq - 0 1",
        "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1",
    ),
    example(
        "CASTLING-REPAIR-ROOK",
        "outermost-right-kept",
        "4k3/8/8/8/8/8/8/4KRR1 w FG - 0 1",
        "4k3/8/8/8/8/8/8/4KRR1 w G - 0 1",
        castling="shredder",
    ),
    example(
        "CASTLING-XFEN",
        "inner-rook-by-letter",
        "r3k2r/8/8/8/8/8/8/RR2K2R w BHah - 0 1",
        "r3k2r/8/8/8/8/8/8/RR2K2R w KBkq - 0 1",
    ),
    example("CASTLING-XFEN", "standard-is-plain-fen", START + " w HAha - 0 1", START_FEN),
    example("CASTLING-SHREDDER", "files", START_FEN, START + " w HAha - 0 1", castling="shredder"),
    example(
        "CASTLING-PREFIX",
        "kept",
        "r3k2r/8/8/8/8/8/8/R3K2R w sKQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R w sHAha - 0 1",
        castling="shredder",
    ),
    example(
        "CASTLING-PREFIX",
        "dropped-with-the-last-right",
        "4k3/8/8/8/8/8/8/4K3 w mKQ - 0 1",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
    ),
    example("EP-SYNTAX", "square", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", None),
    example(
        "EP-VALID",
        "no-pushed-pawn",
        START + " w KQkq e6 0 1",
        START_FEN,
        en_passant="fen",
    ),
    example(
        "EP-VALID",
        "origin-occupied",
        "4k3/3p4/8/3pP3/8/8/8/4K3 w - d6 0 2",
        "4k3/3p4/8/3pP3/8/8/8/4K3 w - - 0 2",
        en_passant="fen",
    ),
    example("EP-FEN", "no-capturer", "4k3/8/8/3p4/8/8/8/4K3 w - d6 0 2", None, en_passant="fen"),
    example(
        "EP-XFEN",
        "no-capturer",
        "4k3/8/8/3p4/8/8/8/4K3 w - d6 0 2",
        "4k3/8/8/3p4/8/8/8/4K3 w - - 0 2",
    ),
    example("EP-XFEN", "capturer", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", None),
    example("EP-XFEN", "default-mode", E4, E4.replace("e3", "-"), en_passant="xfen"),
    example(
        "EP-LEGAL",
        "pinned-along-the-rank",
        "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 2",
        "4k3/8/8/K2pP2r/8/8/8/8 w - - 0 2",
        en_passant="legal",
    ),
    example(
        "EP-LEGAL",
        "no-king",
        "8/8/8/3pP2r/8/8/8/8 w - d6 0 2",
        None,
        en_passant="legal",
    ),
    example(
        "COUNTER-DIGITS", "leading-zeros", START + " w KQkq - 007 0012", START + " w KQkq - 7 12"
    ),
    example("COUNTER-RANGE", "largest", START + " w KQkq - 4294967295 4294967295", None),
    example("COUNTER-FULLMOVE-ZERO", "zero", START + " w KQkq - 0 0", START_FEN),
]


@pytest.mark.parametrize("row,want,castling,en_passant", OUTPUTS)
def test_output(row, want, castling, en_passant):
    """``want`` None: the row is its own normal form."""
    want = row if want is None else want
    assert fx.normalize(row, castling=castling, en_passant=en_passant) == want
    assert model.normalize(row, castling, en_passant) == want
    # the normal form is a fixed point
    assert fx.normalize(want, castling=castling, en_passant=en_passant) == want


@pytest.mark.parametrize(
    "row", [E4, START + " w HAha - 0 1", CAPABLANCA + " w KQkq - 0 1"], ids=["e4", "shredder", "10"]
)
@pytest.mark.parametrize("rule", ["DEFAULT-MODES"])
def test_default_modes(rule, row):
    want = fx.normalize(row, castling="xfen", en_passant="xfen", errors="raise")
    assert fx.normalize(row) == want
    recs = fx.encode([row], width=10)
    assert fx.decode(recs) == fx.decode(recs, castling="xfen", en_passant="xfen") == [want]
    with pytest.raises(fx.FenError):
        fx.normalize(BAD)


@pytest.mark.parametrize(
    "row,want",
    [
        pytest.param(
            START + ' w HAha -  bm e4; id "a;b";  ',
            START + ' w KQkq - bm e4; id "a;b";',
            id="EPD-OUTPUT/fields-normalized-operations-kept",
        ),
        pytest.param(
            START + ' w KQkq - c0 "caf\u00e9";',
            START + ' w KQkq - c0 "caf\u00e9";',
            id="EPD-OUTPUT/non-ascii-operand",
        ),
        pytest.param(
            START + ' w KQkq - id "x;y";',
            START + ' w KQkq - id "x;y";',
            id="EPD-OPERATIONS/semicolon-in-quotes",
        ),
    ],
)
def test_epd_output(row, want):
    assert fx.normalize(row, epd=True) == want


@pytest.mark.parametrize("rule", ["EPD-OPERATIONS"])
def test_epd_operation_needs_its_semicolon(rule):
    row = START + " w KQkq - bm e4"
    with pytest.raises(fx.FenError) as info:
        fx.normalize(row, epd=True)
    # reported at the start of the unclosed operation
    assert (info.value.column, info.value.field) == (row.index("bm"), "operations")


@pytest.mark.parametrize(
    "row,fields,want",
    [
        pytest.param(START + " w KQkq -", 6, START_FEN, id="FIELDS-SIX/counters-added"),
        pytest.param(START + " w KQkq - 3 7", 4, START + " w KQkq -", id="FIELDS-FOUR/dropped"),
        pytest.param(START + " w KQkq -", "same", START + " w KQkq -", id="FIELDS-SAME/four"),
        pytest.param(START + " w KQkq - 3", "same", START + " w KQkq - 3", id="FIELDS-SAME/five"),
        pytest.param(
            START + " w HAha - 3 7", "same", START + " w KQkq - 3 7", id="FIELDS-SAME/six"
        ),
    ],
)
def test_fields_written(row, fields, want):
    assert fx.normalize(row, fields=fields) == want
    if fields != "same":
        assert fx.decode(fx.encode([row]), fields=fields) == [want]


@pytest.mark.parametrize(
    "ops,column",
    [
        pytest.param("0 41 bm e4;", 0, id="EPD-OPCODE/counters-before-operations"),
        pytest.param("bm+ e4;", 2, id="EPD-OPCODE/bad-character"),
        pytest.param("bm e4; ;", 7, id="EPD-OPCODE/no-opcode"),
    ],
)
def test_epd_opcode(ops, column):
    head = START + " w KQkq - "
    with pytest.raises(fx.FenError) as info:
        fx.normalize(head + ops, epd=True)
    assert (info.value.column, info.value.field) == (len(head) + column, "operations")


@pytest.mark.parametrize(
    "ops,halfmove,fullmove",
    [
        pytest.param("hmvc 5; fmvn 9;", 5, 9, id="EPD-COUNTERS/both"),
        pytest.param("bm e4;", 0, 1, id="EPD-COUNTERS/none"),
        pytest.param("hmvc +5;", None, None, id="EPD-COUNTERS/digits-only"),
    ],
)
def test_epd_counters(ops, halfmove, fullmove):
    if halfmove is None:
        with pytest.raises(fx.FenError) as info:
            fx.encode([START + " w KQkq - " + ops], epd=True)
        assert info.value.field == "halfmove"
        return
    rec = fx.encode([START + " w KQkq - " + ops], epd=True)
    assert (int(rec["halfmove"][0]), int(rec["fullmove"][0])) == (halfmove, fullmove)


# --------------------------------------------------------------- errors

# The places semantics.md's table names, each computed from the row.


def where(name, row, column, field, width=10):
    return pytest.param(row, column, field, width, id=f"ERROR-COLUMN/{name}")


_R7 = "rnbqkbnr/ppppppp2/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
_R10 = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R10 w - - 0 1"
_NINE = "8/8/8/8/8/8/8/8/8 w - - 0 1"
_SEVEN = "8/8/8/8/8/8/8 w - - 0 1"
_ARCH = "8/8/8/3A4/8/8/8/8 w - - 0 1"
_BIG = START + " w - - 4294967296 1"
COLUMNS = [
    where("rank-past-the-width-digit", _R7, _R7.index("2"), "placement"),
    where("rank-past-the-width-ten", _R10, _R10.index("0"), "placement"),
    where("ninth-rank", _NINE, 15, "placement"),
    where("seven-ranks", _SEVEN, _SEVEN.index(" "), "placement"),
    where("wide-piece-on-8", _ARCH, _ARCH.index("A"), "placement"),
    where("side-wb", START + " wb - - 0 1", len(START) + 2, "side"),
    where("castling-dash-flag", START + " w -K - 0 1", len(START) + 4, "castling"),
    where("castling-prefix-alone", START + " w s - 0 1", len(START) + 4, "castling"),
    where("ep-e9", START + " w - e9 0 1", len(START) + 6, "en_passant"),
    where("ep-e", START + " w - e 0 1", len(START) + 6, "en_passant"),
    where("ep-e33", START + " w - e33 0 1", len(START) + 7, "en_passant"),
    where("counter-over", _BIG, _BIG.index("4294967296") + 9, "halfmove"),
    where("too-few-fields", START + " w -", len(START) + 4, "fields"),
    where("too-many-fields", START_FEN + " 1", len(START_FEN) + 1, "fields"),
    where("10-wide-in-8", "  " + CAPABLANCA + " w - - 0 1", 2, "placement", width=8),
]


@pytest.mark.parametrize("row,column,field,width", COLUMNS)
def test_error_column(row, column, field, width):
    with pytest.raises(fx.FenError) as info:
        fx.encode([row], width=width)
    assert (info.value.column, info.value.field) == (column, field)
    if width == 10:
        assert model.locate(row) == (column, field)


MIXED = [START_FEN, BAD, E4]


@pytest.mark.parametrize("rule", ["ERROR-LOCATION"])
def test_error_location(rule):
    with pytest.raises(fx.FenError) as info:
        fx.normalize(MIXED)
    e = info.value
    assert (e.index, e.column, e.field) == (1, 44, "side")
    assert str(e) == f"row 1, column 44 (side): {e.reason}" and e.reason


@pytest.mark.parametrize("rule", ["ERROR-RAISE"])
def test_error_raise(rule):
    for call in (fx.normalize, fx.encode):
        with pytest.raises(fx.FenError) as info:
            call(MIXED)
        assert isinstance(info.value, ValueError) and info.value.index == 1


@pytest.mark.parametrize("rule", ["ERROR-COERCE"])
def test_error_coerce(rule):
    assert fx.normalize(MIXED, errors="coerce") == [START_FEN, None, fx.normalize(E4)]
    assert list(fx.encode(MIXED, errors="coerce")["width"]) == [8, 0, 8]


@pytest.mark.parametrize("rule", ["ERROR-IGNORE"])
def test_error_ignore(rule):
    assert fx.normalize(MIXED, errors="ignore") == [START_FEN, BAD, fx.normalize(E4)]
    with pytest.raises(ValueError):
        fx.encode(MIXED, errors="ignore")


@pytest.mark.parametrize("rule", ["ERROR-VALIDATE"])
def test_error_validate(rule):
    with pytest.raises(fx.FenError) as info:
        fx.normalize(MIXED)
    assert fx.validate(MIXED) == [None, str(info.value).split(", ", 1)[1], None]
    assert fx.validate(BAD).startswith("column 44 (side): ")


@pytest.mark.parametrize("rule", ["ERROR-NO-DROP"])
def test_no_row_dropped(rule):
    rows = [START_FEN, BAD] * 50 + [E4, "", BAD + "\n"]
    out = fx.normalize(rows, errors="coerce")
    assert len(out) == len(rows)
    assert out == [None if model.locate(r) else model.normalize(r) for r in rows]
    buffer = "\n".join(rows).encode()
    assert len(fx.normalize(buffer, errors="coerce").splitlines()) == len(buffer.splitlines())


@pytest.mark.parametrize("rule", ["ROW-COLUMNS"])
def test_columns_are_offsets_into_the_row(rule):
    row = START + " x KQkq - 0 1"
    text = START_FEN + "\n" + row + "\n"
    assert fx.validate(text.encode())[1] == fx.validate(row)
    assert fx.validate(row).startswith("column 44 ")
    # a non-ASCII character is one column of a str and two bytes of UTF-8
    wide = START + " w KQkq - 0 1 \u00e9\u00e9"
    assert fx.validate(wide).startswith(f"column {len(wide) - 2} ")
    assert fx.validate(wide.encode())[0].startswith(f"column {len(wide) - 2} ")


@pytest.mark.parametrize(
    "kind,coerced",
    [
        pytest.param("list", None, id="INPUT-KINDS/list"),
        pytest.param("buffer", b"", id="INPUT-KINDS/buffer"),
        pytest.param("numpy-S", b"", id="INPUT-KINDS/numpy-S"),
        pytest.param("numpy-U", "", id="INPUT-KINDS/numpy-U"),
        pytest.param("numpy-object", None, id="INPUT-KINDS/numpy-object"),
        pytest.param("bytes-item", None, id="INPUT-KINDS/bytes-item-in-a-list"),
    ],
)
def test_what_a_coerced_row_becomes(kind, coerced):
    if kind == "list":
        out = fx.normalize([START_FEN, BAD], errors="coerce")
    elif kind == "buffer":
        out = fx.normalize((START_FEN + "\n" + BAD).encode(), errors="coerce").splitlines()
    elif kind == "numpy-S":
        out = list(fx.normalize(np.array([START_FEN.encode(), BAD.encode()]), errors="coerce"))
    elif kind == "numpy-U":
        out = list(fx.normalize(np.array([START_FEN, BAD]), errors="coerce"))
    elif kind == "numpy-object":
        out = list(fx.normalize(np.array([START_FEN, BAD], dtype=object), errors="coerce"))
    else:
        out = fx.normalize([START_FEN, BAD.encode()], errors="coerce")
        with pytest.raises(fx.FenError) as info:
            fx.normalize([START_FEN, BAD.encode()])
        assert info.value.field == "input"
    assert len(out) == 2 and out[1] == coerced
