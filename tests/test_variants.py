"""Start positions of the 10x8 variants (docs/variants.md): each reads and
writes back in both castling modes, survives encode/decode with width=10, and
keeps its castling prefix.

The expected strings are written out by hand from each variant's rules; the
arrays are listed in docs/variants.md.
"""

import numpy as np
import pytest
from support.gen10x8 import is_crc_array

import fastxfen as fx

EMPTY = "10/10/10/10"
PAWNS_B, PAWNS_W = "pppppppppp", "PPPPPPPPPP"


def start(array, castling="KQkq"):
    return f"{array.lower()}/{PAWNS_B}/{EMPTY}/{PAWNS_W}/{array} w {castling} - 0 1"


# name -> (X-FEN as written by hand, expected Shredder-FEN castling field)
STARTS = {
    "capablanca": (
        "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
        "JAja",
    ),
    "gothic": (
        "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1",
        "JAja",
    ),
    "embassy": (
        "rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w mKQkq - 0 1",
        "mJAja",
    ),
    "janus": (
        "ranbkqbnar/pppppppppp/10/10/10/10/PPPPPPPPPP/RANBKQBNAR w sKQkq - 0 1",
        "sJAja",
    ),
    # Capablanca Random Chess: three arrays checked by hand against the CRC
    # rules (see docs/variants.md); rooks are not always in the corners.
    "crc-1": (
        "qcnbnrkrba/pppppppppp/10/10/10/10/PPPPPPPPPP/QCNBNRKRBA w KQkq - 0 1",
        "HFhf",
    ),
    "crc-2": (
        "rbqkcnbarn/pppppppppp/10/10/10/10/PPPPPPPPPP/RBQKCNBARN w KQkq - 0 1",
        "IAia",
    ),
    "crc-3": (
        "brnbkaqncr/pppppppppp/10/10/10/10/PPPPPPPPPP/BRNBKAQNCR w KQkq - 0 1",
        "JBjb",
    ),
}

CODE = {"P": 1, "N": 2, "B": 3, "R": 4, "Q": 5, "K": 6, "A": 13, "C": 14}


def code(piece):
    c = CODE[piece.upper()]
    if piece.islower():
        c += 6 if c <= 6 else 2
    return c


def swap_castling(fen, field):
    parts = fen.split()
    parts[2] = field
    return " ".join(parts)


@pytest.mark.parametrize("name", sorted(STARTS))
def test_start_position_both_modes(name):
    xfen, shredder_field = STARTS[name]
    shredder = swap_castling(xfen, shredder_field)
    assert fx.validate([xfen, shredder]) == [None, None]
    assert fx.normalize(xfen) == xfen
    assert fx.normalize(xfen, castling="xfen") == xfen
    assert fx.normalize(xfen, castling="shredder") == shredder
    # and back: the Shredder text reads to the same rights
    assert fx.normalize(shredder) == xfen
    assert fx.normalize(shredder, castling="shredder") == shredder
    for ep in ("fen", "xfen", "legal"):
        assert fx.normalize(xfen, en_passant=ep) == xfen


@pytest.mark.parametrize("name", sorted(STARTS))
def test_start_position_records(name):
    xfen, shredder_field = STARTS[name]
    recs = fx.encode([xfen], width=10)
    assert recs.dtype == fx.POSITION_DTYPE_10x8
    rec = recs[0]
    assert rec["width"] == 10 and rec["turn"] == 0 and rec["ep"] == 255
    assert rec["halfmove"] == 0 and rec["fullmove"] == 1
    prefix = {"s": 1, "m": 2}.get(shredder_field[0], 0)
    assert rec["prefix"] == prefix
    array = xfen.split("/")[-1].split()[0]
    board = rec["board"].reshape(8, 10)
    assert list(board[0]) == [code(p) for p in array]
    assert list(board[1]) == [1] * 10
    assert not board[2:6].any()
    assert list(board[6]) == [7] * 10
    assert list(board[7]) == [code(p) for p in array.lower()]
    rooks = [f for f, p in enumerate(array) if p == "R"]
    assert list(rec["castling"]) == [rooks[1], rooks[0], rooks[1], rooks[0]]
    assert fx.decode(recs) == [xfen]
    assert fx.decode(recs, castling="shredder") == [swap_castling(xfen, shredder_field)]
    # an 8-wide dtype cannot hold them
    with pytest.raises(fx.FenError) as info:
        fx.encode([xfen])
    assert info.value.field == "placement"


def test_crc_examples_obey_the_crc_rules():
    for name, (xfen, _) in STARTS.items():
        array = xfen.split("/")[-1].split()[0]
        if name.startswith("crc"):
            assert is_crc_array(array), name
            bishops = [f for f, p in enumerate(array) if p == "B"]
            assert bishops[1] - bishops[0] > 1  # no neighbouring bishops
    # Gothic obeys the four CRC rules too (CRC excludes it by name); the
    # classical Capablanca array does not: its i-pawn is unprotected, and its
    # queen and archbishop stand on squares of the same color.
    assert is_crc_array("RNBQCKABNR")
    assert not is_crc_array("RNABQKBCNR")


# ---------------------------------------------------------------- the prefix


@pytest.mark.parametrize(
    "castling, xfen, shredder, prefix",
    [
        ("sKQkq", "sKQkq", "sJAja", 1),
        ("mKQkq", "mKQkq", "mJAja", 2),
        ("sJAja", "sKQkq", "sJAja", 1),
        ("mk", "mk", "mj", 2),
        ("sQ", "sQ", "sA", 1),
        ("mq", "mq", "ma", 2),
        ("sKQkq", "sKQkq", "sJAja", 1),
    ],
)
def test_prefix_round_trips(castling, xfen, shredder, prefix):
    fen = start("RNBQKCABNR", castling)
    assert fx.normalize(fen) == start("RNBQKCABNR", xfen)
    assert fx.normalize(fen, castling="shredder") == start("RNBQKCABNR", shredder)
    recs = fx.encode([fen, start("RNBQKCABNR", shredder)], width=10)
    assert list(recs["prefix"]) == [prefix, prefix]
    assert fx.decode(recs) == [start("RNBQKCABNR", xfen)] * 2
    assert fx.decode(recs, castling="shredder") == [start("RNBQKCABNR", shredder)] * 2


JANUS_MOVED = (
    # the white king has left e1, the black j-rook has left j8
    "ranbkqbna1/ppppppppp1/9r/10/10/10/PPPPPPPPPP/RANB1QBNAR w sKQkq - 3 5",
    "ranbkqbna1/ppppppppp1/9r/10/10/10/PPPPPPPPPP/RANB1QBNAR w sq - 3 5",
    "ranbkqbna1/ppppppppp1/9r/10/10/10/PPPPPPPPPP/RANB1QBNAR w sa - 3 5",
)


def test_prefix_kept_while_a_right_survives():
    # The white king is gone from e1 (not even on the board); black keeps q.
    fen, xfen, shredder = JANUS_MOVED
    assert fx.normalize(fen) == xfen
    assert fx.normalize(fen, castling="shredder") == shredder
    rec = fx.encode([fen], width=10)[0]
    assert rec["prefix"] == 1
    assert list(rec["castling"]) == [255, 255, 255, 0]


@pytest.mark.parametrize("prefix", ["s", "m"])
def test_prefix_dropped_when_no_right_survives(prefix):
    # kings off their back ranks: every right is gone, and so is the prefix
    fen = f"rnbq1cabnr/ppppkppppp/10/10/10/10/PPPPKPPPPP/RNBQ1CABNR w {prefix}KQkq - 2 3"
    expected = fen.replace(f"{prefix}KQkq", "-")
    assert fx.normalize(fen) == expected
    assert fx.normalize(fen, castling="shredder") == expected
    recs = fx.encode([fen], width=10)
    # the record may or may not remember the prefix, but the text has none
    assert fx.decode(recs) == [expected]
    assert fx.decode(recs, castling="shredder") == [expected]


@pytest.mark.parametrize("bad", ["s", "m", "s-", "m-", "sm", "ms", "S", "M", "-s", "Ks", "x"])
def test_prefix_syntax(bad):
    fen = start("RNBQKCABNR", bad)
    with pytest.raises(fx.FenError) as info:
        fx.normalize(fen)
    assert info.value.field == "castling"


def test_prefix_on_records_decodes_for_every_value():
    fen = STARTS["capablanca"][0]
    recs = fx.encode([fen] * 3, width=10)
    recs["prefix"] = [0, 1, 2]
    assert fx.decode(recs) == [
        fen,
        swap_castling(fen, "sKQkq"),
        swap_castling(fen, "mKQkq"),
    ]
    recs["prefix"][0] = 3
    with pytest.raises(fx.FenError):
        fx.decode(recs)


# ---------------------------------------------------------------- after a move


@pytest.mark.parametrize("name", ["capablanca", "gothic", "embassy", "janus"])
def test_double_push_in_each_variant(name):
    xfen, shredder_field = STARTS[name]
    placement, rest = xfen.split(" ", 1)
    ranks = placement.split("/")
    # 1. e2-e4 (the e-pawn double push); no black pawn can take en passant
    ranks[4] = "4P5"
    ranks[6] = "PPPP1PPPPP"
    fen = "/".join(ranks) + " b " + rest.split(" ", 1)[1].replace(" - 0 1", " e3 0 1")
    dropped = fen.replace(" e3 ", " - ")
    assert fx.normalize(fen, en_passant="fen") == fen
    assert fx.normalize(fen, en_passant="xfen") == dropped
    assert fx.normalize(fen, en_passant="legal") == dropped
    recs = fx.encode([fen], width=10)
    assert recs[0]["ep"] == 2 * 10 + 4
    assert fx.decode(recs, en_passant="fen") == [fen]
    assert fx.decode(recs, en_passant="xfen") == [dropped]
    assert fx.decode(recs, castling="shredder", en_passant="xfen") == [
        swap_castling(fen, shredder_field).replace(" e3 ", " - ")
    ]


def test_janus_pieces_are_archbishops():
    # X-FEN has no letter J for a piece: Janus programs that write "j" for
    # the janus piece need it mapped to "a" first.
    fen = "rjnbkqbnjr/pppppppppp/10/10/10/10/PPPPPPPPPP/RJNBKQBNJR w sKQkq - 0 1"
    with pytest.raises(fx.FenError) as info:
        fx.normalize(fen)
    assert info.value.field == "placement" and info.value.column == 1
    mapped = fen.replace("j", "a").replace("J", "A")
    assert fx.normalize(mapped) == STARTS["janus"][0]


def test_all_variants_in_one_batch():
    fens = [xfen for xfen, _ in STARTS.values()]
    fens.append("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    recs = fx.encode(fens, width=10)
    assert list(recs["width"]) == [10] * len(STARTS) + [8]
    assert fx.decode(recs) == fens
    assert np.array_equal(fx.encode(fx.decode(recs), width=10), recs)
