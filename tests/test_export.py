"""Bitboards and plane tensors (fastxfen.export), and their inverses.

The corpus is a few thousand positions of random games played with
python-chess from the standard start and from Chess960 starts; it is shared
with test_binary_formats.py through :func:`game_fens`.
"""

import random
import threading

import chess
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from support.records import same_records
from support.strategies import game_fens

import fastxfen as fx
from fastxfen import export as ex
from fastxfen._options import EnPassantMode, ErrorsMode
from fastxfen._records import POSITION_DTYPE, POSITION_DTYPE_10x8

START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
CAPABLANCA_FEN = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
LOSSLESS = ("turn", "castling_rooks", "en_passant", "halfmove")


# ---------------------------------------------------------------- corpus


@pytest.fixture(scope="module")
def fens():
    return game_fens()


@pytest.fixture(scope="module")
def recs(fens):
    return fx.encode(fens)


def wide_fens(n=300, seed=7):
    """Random 10x8 rows: a king per side (often between two rooks on its back
    rank), scattered pieces, and castling flags and en-passant squares that
    the reader has to repair."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        board = ["."] * 80
        for rank, case in ((0, str.upper), (7, str.lower)):
            if rng.random() < 0.6:
                k = rng.randrange(1, 9)
                for f, p in ((rng.randrange(0, k), "R"), (k, "K"), (rng.randrange(k + 1, 10), "R")):
                    board[rank * 10 + f] = case(p)
            else:
                board[rng.choice([i for i in range(80) if board[i] == "."])] = case("K")
        free = [i for i in range(80) if board[i] == "."]
        rng.shuffle(free)
        for _ in range(rng.randint(0, 24)):
            sq, letter = free.pop(), rng.choice("PNBRQACpnbrqac")
            if not (letter in "Pp" and sq // 10 in (0, 7)):
                board[sq] = letter
        ranks = []
        for r in range(7, -1, -1):
            text, run = "", 0
            for p in board[r * 10 : r * 10 + 10]:
                if p == ".":
                    run += 1
                else:
                    text, run = text + (str(run) if run else "") + p, 0
            ranks.append(text + (str(run) if run else ""))
        castling = rng.choice(["KQkq", "-", "Kq", "CHch", "Ja", "Q"])
        ep = rng.choice(["-", "-", "abcdefghij"[rng.randrange(10)] + rng.choice("36")])
        out.append(
            f"{'/'.join(ranks)} {rng.choice('wb')} {castling} {ep} "
            f"{rng.randrange(120)} {rng.randrange(1, 90)}"
        )
    return out


def expected_planes(bb):
    """(N, 12, 8, 8) uint8 planes from (N, 12) bitboards, bit i -> [i // 8, i % 8]."""
    bits = np.unpackbits(bb.astype("<u8").view(np.uint8), bitorder="little")
    return bits.reshape(len(bb), 12, 8, 8)


# ---------------------------------------------------------------- bitboards


def test_bitboards_agree_with_python_chess(fens):
    bb = ex.to_bitboards(fens)
    assert bb.dtype == np.uint64 and bb.shape == (len(fens), 12)
    for row, fen in zip(bb, fens):
        board = chess.Board(fen, chess960=True)
        want = [
            board.pieces_mask(pt, color)
            for color in (chess.WHITE, chess.BLACK)
            for pt in range(chess.PAWN, chess.KING + 1)
        ]
        assert [int(v) for v in row] == want, fen


def test_bitboards_from_records_text_and_buffers_agree(fens, recs):
    bb = ex.to_bitboards(recs)
    np.testing.assert_array_equal(ex.to_bitboards(fens), bb)
    np.testing.assert_array_equal(ex.to_bitboards("\n".join(fens).encode()), bb)
    np.testing.assert_array_equal(ex.to_bitboards(np.array(fens)), bb)
    wide = fx.encode(fens, width=10)
    np.testing.assert_array_equal(ex.to_bitboards(wide), bb)


def test_bitboards_round_trip(recs):
    bb = ex.to_bitboards(recs)
    back = ex.from_bitboards(
        bb,
        turn=recs["turn"],
        castling=recs["castling"],
        en_passant=recs["ep"],
        halfmove=recs["halfmove"],
        fullmove=recs["fullmove"],
    )
    same_records(back, recs)


def test_from_bitboards_defaults_and_castling_flags():
    bb = ex.to_bitboards(START_FEN)
    assert fx.decode(ex.from_bitboards(bb)) == [START_FEN.replace("KQkq", "-")]
    assert fx.decode(ex.from_bitboards(bb, castling="KQkq")) == [START_FEN]
    assert fx.decode(ex.from_bitboards(bb, castling="HAha"), castling="shredder") == [
        START_FEN.replace("KQkq", "HAha")
    ]
    row = ex.from_bitboards(bb, turn="b", halfmove=3, fullmove=9)
    assert fx.decode(row) == [START_FEN.replace("w KQkq - 0 1", "b - - 3 9")]
    # int64 bitboards (as frameworks without uint64 hold them) read the same
    same_records(ex.from_bitboards(bb.view(np.int64)), ex.from_bitboards(bb))


def test_from_bitboards_repairs_like_the_reader():
    bb = ex.to_bitboards("4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    # rights without rooks are dropped, as in text; an en-passant target that
    # is no valid target is dropped
    out = ex.from_bitboards(bb, castling="KQkq", en_passant="e6")
    assert fx.decode(out) == ["4k3/8/8/8/8/8/8/4K3 w - - 0 1"]


def test_from_bitboards_two_pieces_on_a_square():
    bb = ex.to_bitboards([START_FEN, START_FEN])
    bb[1, 7] |= 1 << 12  # a black knight on e2, where a white pawn stands
    with pytest.raises(fx.FenError) as info:
        ex.from_bitboards(bb)
    err = info.value
    assert (err.index, err.column, err.field) == (1, 12, "bitboards")
    assert "bitboards 0 (P) and 7 (n)" in err.reason and "e2" in err.reason
    out = ex.from_bitboards(bb, errors="coerce")
    assert out["width"].tolist() == [8, 0]


def test_from_bitboards_argument_checks():
    bb = ex.to_bitboards(START_FEN)
    with pytest.raises(TypeError):
        ex.from_bitboards(bb.astype(np.float64))
    with pytest.raises(ValueError):
        ex.from_bitboards(bb[:, :11])
    with pytest.raises(ValueError):
        ex.from_bitboards(bb, turn=2)
    with pytest.raises(ValueError):
        ex.from_bitboards(bb, castling="KK")
    with pytest.raises(ValueError):
        ex.from_bitboards(bb, castling="Kx")
    with pytest.raises(ValueError):
        ex.from_bitboards(bb, en_passant="e9")
    with pytest.raises(ValueError):
        ex.from_bitboards(bb, fullmove=0)
    with pytest.raises(ValueError):
        ex.from_bitboards(bb, castling=np.array([8, 255, 255, 255]))
    with pytest.raises(ValueError):
        ex.from_bitboards(bb, halfmove=[1, 2])


def test_bitboards_reject_wide_rows():
    with pytest.raises(fx.FenError) as info:
        ex.to_bitboards([START_FEN, CAPABLANCA_FEN])
    assert (info.value.index, info.value.field) == (1, "record.width")
    out = ex.to_bitboards([START_FEN, CAPABLANCA_FEN], errors="coerce")
    assert out[1].tolist() == [0] * 12 and out[0].any()


def test_bitboards_of_null_and_invalid_records():
    recs = fx.encode([START_FEN, "not a fen"], errors="coerce")
    assert not ex.to_bitboards(recs)[1].any()  # the null record: a missing value
    recs["board"][1, 0] = 1  # width 0 but not the null record
    with pytest.raises(fx.FenError) as info:
        ex.to_bitboards(recs)
    assert (info.value.index, info.value.field) == (1, "record.width")
    bad = fx.encode([START_FEN, START_FEN])
    bad["board"][0, 20] = 13  # no such piece on 8x8
    with pytest.raises(fx.FenError) as info:
        ex.to_bitboards(bad)
    assert (info.value.index, info.value.column, info.value.field) == (0, 20, "record.board")


def test_records_are_repaired_before_export():
    """A hand-made record goes through the same checks and repair as decode."""
    rec = fx.encode("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")
    rec["castling"][0] = [7, 0, 7, 0]  # black rights without black rooks
    rec["ep"][0] = 20  # e3: not a valid target here
    planes = ex.to_planes(rec, extra=("castling", "en_passant"))
    assert planes[0, 12:14].all() and not planes[0, 14:].any()


# ---------------------------------------------------------------- planes


def test_planes_match_bitboards(recs):
    planes = ex.to_planes(recs)
    assert planes.dtype == np.uint8 and planes.shape == (len(recs), 12, 8, 8)
    np.testing.assert_array_equal(planes, expected_planes(ex.to_bitboards(recs)))


def test_planes_from_text_equal_planes_from_records(fens, recs):
    np.testing.assert_array_equal(ex.to_planes(fens), ex.to_planes(recs))
    np.testing.assert_array_equal(ex.to_planes(np.array(fens, dtype=object)), ex.to_planes(recs))


def test_start_position_planes():
    planes = ex.to_planes(START_FEN)[0]
    assert planes[0, 1].tolist() == [1] * 8  # white pawns on rank 2
    assert planes[5, 0].tolist() == [0, 0, 0, 0, 1, 0, 0, 0]  # white king e1
    assert planes[11, 7].tolist() == [0, 0, 0, 0, 1, 0, 0, 0]  # black king e8
    assert planes[9, 7].tolist() == [1, 0, 0, 0, 0, 0, 0, 1]  # black rooks
    assert planes.sum() == 32


def test_side_to_move_perspective(recs):
    white = ex.to_planes(recs)
    mover = ex.to_planes(recs, perspective="side_to_move")
    black = recs["turn"] == 1
    np.testing.assert_array_equal(mover[~black], white[~black])
    swapped = white[black][:, [6, 7, 8, 9, 10, 11, 0, 1, 2, 3, 4, 5], ::-1, :]
    np.testing.assert_array_equal(mover[black], swapped)


def test_extra_planes_content(recs):
    extra = ("turn", "castling", "castling_rooks", "en_passant", "halfmove")
    planes = ex.to_planes(recs, extra=extra, dtype=np.float32)
    assert planes.shape == (len(recs), 20, 8, 8)
    turn, castling, rooks, ep, half = (
        planes[:, 12],
        planes[:, 13:17],
        planes[:, 17],
        planes[:, 18],
        planes[:, 19],
    )
    np.testing.assert_array_equal(turn, np.broadcast_to(recs["turn"][:, None, None], turn.shape))
    has = recs["castling"] != 255
    np.testing.assert_array_equal(castling, np.broadcast_to(has[:, :, None, None], castling.shape))
    for k, rec in enumerate(recs):
        marks = {
            (0 if slot < 2 else 7, int(f)) for slot, f in enumerate(rec["castling"]) if f != 255
        }
        assert set(zip(*np.nonzero(rooks[k]))) == marks
        want = set() if rec["ep"] == 255 else {(rec["ep"] // 8, rec["ep"] % 8)}
        assert set(zip(*np.nonzero(ep[k]))) == want
    np.testing.assert_array_equal(
        half, np.broadcast_to(recs["halfmove"][:, None, None], half.shape)
    )
    assert set(np.unique(planes[:, :12])) <= {0.0, 1.0}


def test_extra_planes_in_side_to_move_perspective():
    fen = "r3k2r/8/8/3pP3/8/8/8/4K2R w Kq d6 12 30"
    planes = ex.to_planes(
        fen, perspective="side_to_move", extra=("turn", "castling", "castling_rooks", "en_passant")
    )[0]
    assert not planes[12].any()  # white to move
    assert [bool(p.all()) for p in planes[13:17]] == [True, False, False, True]
    assert set(zip(*np.nonzero(planes[17]))) == {(0, 7), (7, 0)}
    assert set(zip(*np.nonzero(planes[18]))) == {(5, 3)}  # d6
    black = ex.to_planes(
        fen.replace(" w Kq d6", " b Kq -"),
        perspective="side_to_move",
        extra=("turn", "castling", "castling_rooks"),
    )[0]
    assert black[12].all()  # the turn plane keeps the real turn
    # black's rights come first: black h side, black a side, white h, white a
    assert [bool(p.all()) for p in black[13:17]] == [False, True, True, False]
    # the board is mirrored: black's a8 rook is on rank index 0
    assert set(zip(*np.nonzero(black[17]))) == {(0, 0), (7, 7)}
    assert black[3, 0, 0] == 1 and black[9, 7, 7] == 1  # own rook a8, their rook h1


def test_en_passant_modes():
    fen = "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"  # d4 can take e3
    blocked = "4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1"  # nothing can take e3
    for mode, want in (("fen", [1, 1]), ("xfen", [1, 0]), ("legal", [1, 0])):
        planes = ex.to_planes([fen, blocked], extra=("en_passant",), en_passant=mode)
        assert planes[:, 12, 2, 4].tolist() == want, mode


def test_halfmove_planes_saturate_and_scale():
    fens = [START_FEN.replace(" 0 1", f" {h} 1") for h in (0, 37, 100, 300, 70000)]
    raw = ex.to_planes(fens, extra=("halfmove",))[:, 12, 0, 0]
    assert raw.tolist() == [0, 37, 100, 255, 255]
    raw16 = ex.to_planes(fens, extra=("halfmove",), dtype=np.int16)[:, 12, 0, 0]
    assert raw16.tolist() == [0, 37, 100, 300, 32767]
    half = ex.to_planes(fens, extra=("halfmove",), dtype=np.float16)[:, 12, 0, 0]
    assert half.tolist() == [0, 37, 100, 300, 65504]
    scaled = ex.to_planes(fens, extra=("halfmove_scaled",), dtype=np.float32)[:, 12, 0, 0]
    np.testing.assert_allclose(scaled, [0, 0.37, 1, 1, 1])
    back = ex.from_planes(
        ex.to_planes(fens, extra=("halfmove_scaled",), dtype=np.float32), extra=("halfmove_scaled",)
    )
    assert back["halfmove"].tolist() == [0, 37, 100, 100, 100]
    with pytest.raises(ValueError):
        ex.to_planes(START_FEN, extra=("halfmove_scaled",))


@pytest.mark.parametrize(
    "dtype", [np.uint8, np.int8, np.uint16, np.int32, np.uint64, np.float16, np.float32, np.float64]
)
@pytest.mark.parametrize("perspective", ["white", "side_to_move"])
def test_planes_round_trip(recs, dtype, perspective):
    planes = ex.to_planes(recs, dtype=dtype, perspective=perspective, extra=LOSSLESS)
    assert planes.dtype == dtype
    np.testing.assert_array_equal(
        planes[:, :12].astype(np.uint8), ex.to_planes(recs, perspective=perspective)
    )
    back = ex.from_planes(
        planes, perspective=perspective, extra=LOSSLESS, fullmove=recs["fullmove"]
    )
    same_records(back, recs)


def test_bool_planes_round_trip_board(recs):
    planes = ex.to_planes(recs, dtype=bool, extra=("turn", "castling_rooks", "en_passant"))
    back = ex.from_planes(
        planes,
        extra=("turn", "castling_rooks", "en_passant"),
        halfmove=recs["halfmove"],
        fullmove=recs["fullmove"],
    )
    same_records(back, recs)


def test_castling_flag_planes_read_as_outermost_rooks(fens, recs):
    """The four 'castling' planes say which rights exist, not which rook; read
    back they mean K/Q/k/q (the outermost rook), exact for standard chess."""
    planes = ex.to_planes(recs, extra=("turn", "castling", "en_passant", "halfmove"))
    back = ex.from_planes(
        planes, extra=("turn", "castling", "en_passant", "halfmove"), fullmove=recs["fullmove"]
    )
    as_flags = fx.decode(back, en_passant="fen")
    want = []
    for fen in fens:
        recs_row = fx.encode(fen)[0]
        letters = "".join(letter for letter, f in zip("KQkq", recs_row["castling"]) if f != 255)
        parts = fen.split(" ")
        parts[2] = letters or "-"
        want.append(fx.normalize(" ".join(parts), en_passant="fen"))
    assert as_flags == want


def test_planes_from_text_with_errors(fens):
    rows = [fens[0], "not a fen", fens[1]]
    with pytest.raises(fx.FenError) as info:
        ex.to_planes(rows)
    assert info.value.index == 1
    planes = ex.to_planes(rows, errors="coerce")
    assert not planes[1].any() and planes[0].any() and planes[2].any()


def test_out_argument(recs):
    out = np.full((len(recs), 13, 8, 8), 7, np.uint8)
    got = ex.to_planes(recs, extra=("turn",), out=out)
    assert got is out
    np.testing.assert_array_equal(out, ex.to_planes(recs, extra=("turn",)))
    bb = np.empty((len(recs), 12), np.uint64)
    assert ex.to_bitboards(recs, out=bb) is bb
    bad = [
        np.empty((len(recs), 12, 8, 8), np.uint8),  # wrong plane count
        np.empty((len(recs), 13, 8, 8), np.float32),  # wrong dtype
        np.empty((len(recs), 13, 8, 16), np.uint8)[..., ::2],  # not contiguous
        np.empty((len(recs) + 1, 13, 8, 8), np.uint8),  # wrong length
    ]
    for arr in bad:
        with pytest.raises(ValueError):
            ex.to_planes(recs, extra=("turn",), out=arr)
    ro = np.empty((len(recs), 13, 8, 8), np.uint8)
    ro.flags.writeable = False
    with pytest.raises(ValueError):
        ex.to_planes(recs, extra=("turn",), out=ro)


def test_planes_argument_checks():
    with pytest.raises(ValueError):
        ex.to_planes(START_FEN, extra=("turn", "turn"))
    with pytest.raises(ValueError):
        ex.to_planes(START_FEN, extra=("moves",))
    with pytest.raises(ValueError):
        ex.to_planes(START_FEN, perspective="black")
    with pytest.raises(ValueError):
        ex.to_planes(START_FEN, dtype=np.complex64)
    with pytest.raises(ValueError):
        ex.to_planes(START_FEN, dtype=">f4")
    with pytest.raises(ValueError):
        ex.to_planes(START_FEN, width=9)
    with pytest.raises(ValueError):
        ex.to_planes(START_FEN, errors="ignore")
    assert ex.to_planes(START_FEN, extra="turn").shape == (1, 13, 8, 8)


def test_from_planes_checks_shapes_and_keywords():
    planes = ex.to_planes(START_FEN, extra=("turn",))
    with pytest.raises(ValueError):
        ex.from_planes(planes)  # 13 planes, extra=() has 12
    with pytest.raises(ValueError):
        ex.from_planes(planes[:, :, :7], extra=("turn",))
    with pytest.raises(ValueError):
        ex.from_planes(planes, extra=("turn",), turn="b")  # the plane gives the turn
    one = ex.from_planes(planes[0], extra=("turn",))  # a single tensor
    assert fx.decode(one) == [START_FEN.replace("KQkq", "-")]


def test_from_planes_rejects_invalid_tensors():
    planes = ex.to_planes([START_FEN] * 3, extra=LOSSLESS)
    planes[1, 7, 1, 4] = 1  # a black knight on e2, over the white pawn
    with pytest.raises(fx.FenError) as info:
        ex.from_planes(planes, extra=LOSSLESS)
    err = info.value
    assert (err.index, err.field) == (1, "planes")
    assert err.column == 7 * 64 + 1 * 8 + 4
    assert "planes 0 and 7" in err.reason
    coerced = ex.from_planes(planes, extra=LOSSLESS, errors="coerce")
    assert coerced["width"].tolist() == [8, 0, 8]

    cases = []
    p = ex.to_planes(START_FEN, dtype=np.float32, extra=LOSSLESS)
    p[0, 2, 0, 1] = 0.5  # not 0 or 1
    cases.append((p, "expected 0 or 1"))
    p = ex.to_planes(START_FEN, extra=LOSSLESS)
    p[0, 12, 3, 3] = 1  # turn plane not constant
    cases.append((p, "one value"))
    p = ex.to_planes(START_FEN, extra=LOSSLESS)
    p[0, 13, 3, 3] = 1  # castling rook off the back ranks
    cases.append((p, "castling rook"))
    p = ex.to_planes(START_FEN, extra=LOSSLESS)
    p[0, 14, 5, 1] = p[0, 14, 5, 2] = 1  # two en-passant marks
    cases.append((p, "second en-passant"))
    p = ex.to_planes(START_FEN, dtype=np.float32, extra=LOSSLESS)
    p[0, 15] = 2.5  # no halfmove clock
    cases.append((p, "halfmove"))
    p = ex.to_planes(START_FEN, dtype=np.int16, extra=LOSSLESS)
    p[0, 15] = -1
    cases.append((p, "halfmove"))
    for tensor, words in cases:
        with pytest.raises(fx.FenError) as info:
            ex.from_planes(tensor, extra=LOSSLESS)
        assert info.value.field == "planes" and words in info.value.reason


def test_from_planes_without_turn_plane_uses_the_turn_keyword(recs):
    planes = ex.to_planes(recs, perspective="side_to_move", extra=("castling_rooks",))
    back = ex.from_planes(
        planes,
        perspective="side_to_move",
        extra=("castling_rooks",),
        turn=recs["turn"],
        en_passant=recs["ep"],
        halfmove=recs["halfmove"],
        fullmove=recs["fullmove"],
    )
    same_records(back, recs)


# ---------------------------------------------------------------- 10x8


def test_wide_planes_round_trip():
    fens = wide_fens() + [CAPABLANCA_FEN]
    recs = fx.encode(fens, width=10)
    assert (recs["width"] == 10).all()
    planes = ex.to_planes(recs, width=10, extra=LOSSLESS)
    assert planes.shape == (len(fens), 20, 8, 10)
    for persp in ("white", "side_to_move"):
        planes = ex.to_planes(fens, width=10, perspective=persp, extra=LOSSLESS)
        back = ex.from_planes(planes, perspective=persp, extra=LOSSLESS, fullmove=recs["fullmove"])
        assert back.dtype == POSITION_DTYPE_10x8
        same_records(back, recs)


def test_wide_piece_planes():
    planes = ex.to_planes(CAPABLANCA_FEN, width=10)[0]
    order = "PNBRQKpnbrqkACac"
    for k, letter in enumerate(order):
        squares = {(r, f) for r, f in zip(*np.nonzero(planes[k]))}
        rank_text = {0: "RNABQKBCNR", 1: "P" * 10, 6: "p" * 10, 7: "rnabqkbcnr"}
        want = {(r, f) for r, text in rank_text.items() for f, c in enumerate(text) if c == letter}
        assert squares == want, letter
    mover = ex.to_planes(
        CAPABLANCA_FEN.replace(" w ", " b "), width=10, perspective="side_to_move"
    )[0]
    # black to move: own archbishop (plane 12) is black's, on rank index 0
    assert mover[12, 0, 2] == 1 and mover[14, 7, 2] == 1


def test_width_mismatch_is_a_row_error():
    rows = [START_FEN, CAPABLANCA_FEN]
    with pytest.raises(fx.FenError) as info:
        ex.to_planes(rows)
    assert (info.value.index, info.value.field) == (1, "record.width")
    assert "width=10" in info.value.reason
    with pytest.raises(fx.FenError) as info:
        ex.to_planes(rows, width=10)
    assert (info.value.index, info.value.field) == (0, "record.width")
    coerced = ex.to_planes(rows, width=10, errors="coerce")
    assert not coerced[0].any() and coerced[1].any()


# ---------------------------------------------------------------- threads


def test_kernels_run_in_threads(recs):
    """The kernels release the GIL; concurrent calls give the same results."""
    want = ex.to_planes(recs, extra=LOSSLESS)
    results = [None] * 4

    def work(k):
        results[k] = ex.to_planes(recs, extra=LOSSLESS)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for got in results:
        np.testing.assert_array_equal(got, want)


def test_record_dtypes_are_accepted_as_rows(recs):
    one = recs[3]
    assert isinstance(one, np.void) and one.dtype == POSITION_DTYPE
    np.testing.assert_array_equal(ex.to_bitboards(one), ex.to_bitboards(recs[3:4]))
    grid = recs[:6].reshape(2, 3)
    np.testing.assert_array_equal(ex.to_bitboards(grid), ex.to_bitboards(recs[:6]))


# ---------------------------------------------------------------- arbitrary tensors


@given(
    hnp.arrays(np.uint8, (2, 16, 8, 8), elements=st.integers(0, 1)),
    st.sampled_from(["white", "side_to_move"]),
)
def test_arbitrary_tensors(planes, perspective):
    """Any 0/1 tensor is read or refused cleanly; what is read writes back to
    a tensor that reads to the same records."""
    recs = ex.from_planes(planes, perspective=perspective, extra=LOSSLESS, errors="coerce")
    ok = recs["width"] == 8
    if not ok.all():
        with pytest.raises(fx.FenError):
            ex.from_planes(planes, perspective=perspective, extra=LOSSLESS)
    again = ex.to_planes(recs[ok], perspective=perspective, extra=LOSSLESS)
    same_records(
        ex.from_planes(
            again, perspective=perspective, extra=LOSSLESS, fullmove=recs["fullmove"][ok]
        ),
        recs[ok],
    )


@given(hnp.arrays(np.uint64, (3, 12), elements=st.integers(0, 2**64 - 1)))
def test_arbitrary_bitboards(bb):
    recs = ex.from_bitboards(bb, castling="KQkq", errors="coerce")
    ok = recs["width"] == 8
    overlap = np.array(
        [any(int(row[i]) & int(row[j]) for i in range(12) for j in range(i)) for row in bb]
    )
    assert (ok == ~overlap).all()
    np.testing.assert_array_equal(ex.to_bitboards(recs[ok]), bb[ok])


@given(st.data())
def test_hand_made_records_are_checked_like_decode(recs, data):
    """Records with arbitrary castling files, en-passant squares and prefixes
    come out of every export as decode would see them (decode, then encode)."""
    rec = recs[data.draw(st.integers(0, len(recs) - 1))].copy()
    rec["castling"] = data.draw(
        st.lists(st.sampled_from([0, 1, 2, 5, 6, 7, 255]), min_size=4, max_size=4)
    )
    rec["ep"] = data.draw(st.sampled_from([255, 16, 20, 23, 40, 44, 47, 28]))
    rec["prefix"] = data.draw(st.integers(0, 2))
    row = np.array([rec])
    want = fx.encode(fx.decode(row, castling="shredder", en_passant="fen"))
    np.testing.assert_array_equal(
        ex.to_planes(row, extra=LOSSLESS), ex.to_planes(want, extra=LOSSLESS)
    )
    if want["prefix"][0] == 0:
        same_records(ex.unpack(ex.pack(row)), want)


# ---------------------------------------------------------------- collected failures


def _errors_one_by_one(run, n):
    """(index, column, field, reason) of every row that run(i) (one row,
    errors="raise") rejects."""
    out = []
    for i in range(n):
        try:
            run(i)
        except fx.FenError as exc:
            out.append((i, exc.column, exc.field, exc.reason))
    return out


def _as_tuples(failures):
    return [(e.index, e.column, e.field, e.reason) for e in failures]


def test_kernels_collect_every_failure():
    """The glue's ``failures=`` list (used by the command line) names the
    same rows, with the same errors, as running each row alone, and leaves
    the other rows' outputs as errors="coerce" does."""
    from fastxfen import _export
    from fastxfen._options import PlaneOptions

    FEN, COERCE = EnPassantMode.FEN, ErrorsMode.COERCE
    inner = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
    texts = [START_FEN, inner, CAPABLANCA_FEN, "8/8/8/8/8/8/8/8 w - - 0 1", inner, START_FEN]
    recs = fx.encode(texts, width=10)
    n = len(recs)

    failures = []
    out = np.empty((n, 24), np.uint8)
    _export.stockfish_pack(
        recs, trusted=True, en_passant=FEN, errors=COERCE, out=out, failures=failures
    )
    assert _as_tuples(failures) == _errors_one_by_one(
        lambda i: ex.pack(recs[i : i + 1], format="stockfish"), n
    )
    assert [e.index for e in failures] == [1, 2, 4]
    assert np.array_equal(out, ex.pack(recs, format="stockfish", errors="coerce"))

    failures = []
    out = np.empty((n, 12, 8, 8), np.uint8)
    _export.planes(recs, PlaneOptions(), trusted=True, errors=COERCE, out=out, failures=failures)
    assert _as_tuples(failures) == _errors_one_by_one(lambda i: ex.to_planes(recs[i : i + 1]), n)
    assert np.array_equal(out, ex.to_planes(recs, errors="coerce"))

    failures = []
    data, offsets, valid = _export.lichess_pack(
        recs, trusted=True, en_passant=FEN, errors=COERCE, failures=failures
    )
    assert _as_tuples(failures) == _errors_one_by_one(lambda i: ex.pack(recs[i : i + 1]), n)
    expected = ex.pack(recs, errors="coerce")
    assert ex.BinaryColumn(data, offsets, valid).tolist() == expected.tolist()

    # past the first LICHESS_CHUNK rows (2**18): a failure of the first
    # chunk is not named again in the next
    first = [e.index for e in failures]
    many = np.concatenate([recs, fx.encode([START_FEN] * (1 << 18), width=10)])
    failures = []
    _export.lichess_pack(many, trusted=True, en_passant=FEN, errors=COERCE, failures=failures)
    assert [e.index for e in failures] == first == [2]

    # readers: per-row counters must stay with their rows after a failure
    rows = ex.pack(fx.encode([START_FEN] * 5), format="stockfish")
    rows[1, :8] = 0xFF  # 64 occupied squares
    rows[3, 8] = 0x0C  # en-passant pawn nibble on a1
    halfmove = np.arange(5, dtype=np.uint32) + 10
    failures = []
    got = _export.stockfish_unpack(
        rows, _export.Defaults(5, halfmove=halfmove), errors=COERCE, failures=failures
    )
    assert [e.index for e in failures] == [1, 3]
    assert list(got["halfmove"]) == [10, 0, 12, 0, 14]
    assert _as_tuples(failures) == _errors_one_by_one(
        lambda i: ex.unpack(rows[i : i + 1], format="stockfish"), 5
    )
