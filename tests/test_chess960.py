"""Chess960 start positions: chess960_fen / chess960_number.

python-chess is the reference for the numbering (its Board.from_chess960_pos
and chess960_pos); the rules of what counts as a start position are the ones
written in docs/variants.md.
"""

import random

import pytest

import fastxfen as fx
from fastxfen.chess960 import chess960_fen, chess960_number

chess = pytest.importorskip("chess")

ALL = range(960)
CLASSICAL = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def with_fields(fen, **fields):
    """Replace fields of a FEN row by name."""
    names = ["placement", "side", "castling", "ep", "half", "full"]
    parts = fen.split()
    for name, value in fields.items():
        parts[names.index(name)] = value
    return " ".join(parts)


# ---------------------------------------------------------------- hand examples


def test_classical_is_518():
    assert chess960_fen(518) == CLASSICAL
    assert chess960_number(CLASSICAL) == 518


@pytest.mark.parametrize(
    "n, array",
    [
        (0, "BBQNNRKR"),
        (1, "BQNBNRKR"),  # light bishop moves b1 -> d1
        (4, "QBBNNRKR"),  # dark bishop moves a1 -> c1
        (16, "BBNQNRKR"),  # queen on the second empty square
        (96, "BBQNRNKR"),  # knights on empties 1 and 3
        (518, "RNBQKBNR"),
        (959, "RKRNNQBB"),
    ],
)
def test_hand_examples(n, array):
    fen = f"{array.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{array} w KQkq - 0 1"
    assert chess960_fen(n) == fen
    assert chess960_number(fen) == n


# ---------------------------------------------------------------- all 960


def test_all_960_against_python_chess():
    seen = set()
    for n in ALL:
        fen = chess960_fen(n)
        board = chess.Board.from_chess960_pos(n)
        assert fen == board.fen(), n
        assert chess.Board(fen, chess960=True).chess960_pos() == n
        assert chess960_number(fen) == n
        # Shredder spelling of the same rights
        assert chess960_number(board.fen(shredder=True)) == n
        seen.add(fen.split()[0])
    assert len(seen) == 960


def test_all_960_are_canonical():
    fens = [chess960_fen(n) for n in ALL]
    assert fx.normalize(fens) == fens
    assert fx.validate(fens) == [None] * 960
    recs = fx.encode(fens)
    assert fx.decode(recs) == fens
    shredder = fx.normalize(fens, castling="shredder")
    for n, text in zip(ALL, shredder):
        board = chess.Board.from_chess960_pos(n)
        assert text == board.fen(shredder=True)
        assert chess960_number(text) == n


def test_every_array_is_distinct_and_legal():
    arrays = {chess960_fen(n).split()[0].split("/")[-1] for n in ALL}
    assert len(arrays) == 960
    for array in arrays:
        assert sorted(array) == sorted("RNBQKBNR")
        b = [f for f, p in enumerate(array) if p == "B"]
        r = [f for f, p in enumerate(array) if p == "R"]
        assert (b[0] + b[1]) % 2 == 1
        assert r[0] < array.index("K") < r[1]


# ---------------------------------------------------------------- what counts


@pytest.mark.parametrize("n", [0, 1, 287, 518, 707, 959])
def test_equivalent_spellings_count(n):
    fen = chess960_fen(n)
    array = fen.split()[0].split("/")[-1]
    rooks = [f for f, p in enumerate(array) if p == "R"]
    letters = "abcdefgh"
    shredder = (letters[rooks[1]] + letters[rooks[0]]).upper() + (
        letters[rooks[1]] + letters[rooks[0]]
    )
    variants = [
        fen,
        with_fields(fen, castling=shredder),
        with_fields(fen, castling="kqQK"),  # any flag order
        with_fields(fen, half="12", full="40"),  # counters are ignored
        with_fields(fen, full="0"),
        " ".join(fen.split()[:4]),  # four fields
        fen.replace(" ", " \t "),
        with_fields(fen, ep="e3"),  # not a valid target: dropped first
        with_fields(fen, ep="c6"),
    ]
    for text in variants:
        assert chess960_number(text) == n, text


@pytest.mark.parametrize("n", [0, 518, 959])
def test_not_a_start_position(n):
    fen = chess960_fen(n)
    placement = fen.split()[0]
    ranks = placement.split("/")
    not_start = [
        with_fields(fen, side="b"),
        with_fields(fen, castling="-"),
        with_fields(fen, castling="KQk"),
        with_fields(fen, castling="Qkq"),
        with_fields(fen, castling="sKQkq"),  # symmetric castling is not 960
        with_fields(fen, castling="mKQkq"),
        # a pawn pushed
        "/".join(ranks[:4] + ["P7", "8", "1PPPPPPP"] + ranks[7:]) + " b KQkq - 0 1",
        # a black pawn missing
        "/".join([ranks[0], "1ppppppp"] + ranks[2:]) + " w KQkq - 0 1",
        # an extra piece in the middle
        "/".join(ranks[:3] + ["3N4"] + ranks[4:]) + " w KQkq - 0 1",
        # black's array is not the mirror of white's
        "/".join([ranks[0][::-1]] + ranks[1:]) + " w KQkq - 0 1",
    ]
    for text in not_start:
        assert chess960_number(text) is None, text


def test_reversed_symmetric_array_is_still_a_start():
    # RNBQKBNR reversed is RNBKQBNR: a start position of its own (not 518)
    fen = chess960_fen(518).replace("rnbqkbnr", "rnbkqbnr").replace("RNBQKBNR", "RNBKQBNR")
    n = chess960_number(fen)
    assert n is not None and n != 518
    assert chess960_fen(n) == fen


@pytest.mark.parametrize(
    "array",
    [
        "RNBBQKNR",  # bishops on c1 and d1: a start array
        "RNBKBQNR",  # bishops on c1 and e1: same color
        "BRKRNNQB",  # bishops in the corners, king between b1 and d1
        "KRRNNBBQ",  # king not between the rooks
        "RRKNNBBQ",  # king beside both rooks, on one side
        "RNBQKBRN",  # a start array
        "RNNQKBBR",  # bishops side by side: opposite colors
        "QNBRKBNR",  # rooks d1 and h1
        "RNBQKNBR",  # bishops on c1 and g1: same color
        "RNBQKQNR",  # two queens, one bishop
        "RNBAKBNR",  # an archbishop: not even valid 8x8 text
    ],
)
def test_arrays_against_python_chess(array):
    fen = f"{array.lower()}/pppppppp/8/8/8/8/PPPPPPPP/{array} w KQkq - 0 1"
    if "A" in array:
        with pytest.raises(fx.FenError):
            chess960_number(fen)
        return
    expected = chess.Board(fen, chess960=True).chess960_pos()
    assert chess960_number(fen) == expected


def test_returning_to_the_start_counts():
    # 1. Nf3 Nf6 2. Ng1 Ng8: the start array again, counters 4 3
    board = chess.Board()
    for uci in ["g1f3", "g8f6", "f3g1", "f6g8"]:
        board.push_uci(uci)
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3"
    assert chess960_number(board.fen()) == 518 == board.chess960_pos()


def test_random_games_agree_with_python_chess():
    rng = random.Random(960)
    for _ in range(150):
        n = rng.randrange(960)
        board = chess.Board.from_chess960_pos(n)
        for _ in range(rng.randrange(0, 8)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        for shredder in (False, True):
            fen = board.fen(shredder=shredder)
            assert chess960_number(fen) == board.chess960_pos(), fen


def test_ten_wide_rows_are_not_chess960():
    capablanca = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
    assert chess960_number(capablanca) is None
    wide = "rnbqkbnrrr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKBNRRR w - - 0 1"
    assert chess960_number(wide) is None


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize("bad", [-1, 960, 10**20, True, False, 1.0, 518.0, "518", None, [518]])
def test_chess960_fen_rejects(bad):
    with pytest.raises(ValueError):
        chess960_fen(bad)


def test_chess960_fen_accepts_index_like_ints():
    np = pytest.importorskip("numpy")
    assert chess960_fen(np.int64(518)) == CLASSICAL
    assert chess960_fen(np.uint16(0)) == chess960_fen(0)


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "not a fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR",  # one field
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
    ],
)
def test_chess960_number_raises_on_bad_text(bad):
    with pytest.raises(fx.FenError) as info:
        chess960_number(bad)
    assert info.value.index == 0


@pytest.mark.parametrize("bad", [518, None, CLASSICAL.encode(), [CLASSICAL]])
def test_chess960_number_wants_a_str(bad):
    with pytest.raises(TypeError):
        chess960_number(bad)
