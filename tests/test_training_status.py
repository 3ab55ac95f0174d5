"""Position legality (core/status.c): fastxfen.training.status_flags gives
python-chess's Board.status() bits, on generated positions and on every
position of the public perft suites."""

import random

import chess
import pytest
from support import strategies as gen
from test_training_perft import SUITES

import fastxfen as fx
import fastxfen.training as ft


def python_chess_status(fen, chess960=True):
    return chess.Board(fen, chess960=chess960).status()


def readable(rows):
    """Rows both fastxfen and python-chess read, 8 wide."""
    rows = [r for r in rows if gen.python_chess_accepts(r) and len(r.split()[0].split("/")[0]) <= 8]
    flags = ft.status_flags(rows, errors="coerce")
    return [row for row, f in zip(rows, flags.tolist()) if not f >> 31]


def scattered(seed, n):
    """Random boards with anything on them: kings missing or doubled, pawns
    on the back ranks, too many pieces, checks of every kind, random
    castling flags and en-passant squares."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        board = chess.Board(None)
        pawny = rng.random() < 0.2  # enough pawns of a color for too many
        for _ in range(rng.choice((0, 2, 3, 5, 12, 20, 34))):
            kind = chess.PAWN if pawny else rng.randint(1, 6)
            board.set_piece_at(
                rng.randrange(8, 56) if pawny else rng.randrange(64),
                chess.Piece(kind, rng.random() < 0.5),
            )
        for color in (chess.WHITE, chess.BLACK):
            if rng.random() < 0.8:
                board.set_piece_at(rng.randrange(64), chess.Piece(chess.KING, color))
        flags = "".join(sorted(rng.sample("KQkqABCDEFGHabcdefgh", rng.choice((0, 1, 2, 3)))))
        upper = [c for c in flags if c.isupper()][:2]
        lower = [c for c in flags if c.islower()][:2]
        castling = "".join(upper + lower) or "-"
        ep = rng.choice(
            ["-"] * 4
            + [chess.square_name(rng.randrange(64)) for _ in range(2)]
            + ["e3", "d6", "c6", "f3"]
        )
        rows.append(f"{board.board_fen()} {rng.choice('wb')} {castling} {ep} 0 1")
    return rows


@pytest.fixture(scope="module")
def corpus():
    rows = readable(gen.oracle_corpus()[::6] + gen.model_corpus()[::8] + tuple(scattered(7, 2500)))
    return rows, {c: [python_chess_status(r, c) for r in rows] for c in (True, False)}


def test_the_corpus_has_every_flag(corpus):
    seen = 0
    for flags in corpus[1][True]:
        seen |= flags
    for bit, name in ft.STATUS_NAMES.items():
        assert seen & bit, name


@pytest.mark.parametrize("chess960", [True, False])
def test_status_is_python_chess_status(corpus, chess960):
    rows, want = corpus[0], corpus[1][chess960]
    got = ft.status_flags(rows, chess960=chess960).tolist()
    bad = [(row, g, w) for row, g, w in zip(rows, got, want) if g != w]
    assert not bad, bad[:5]


def test_status_of_every_perft_position():
    fens = [fen for _, fen, _ in SUITES]
    got = ft.status_flags(fens).tolist()
    assert got == [python_chess_status(fen) for fen in fens]
    assert sum(1 for g in got if g) == 6  # random positions with impossible checks


@pytest.mark.parametrize(
    "fen, names",
    [
        ("8/8/8/8/8/8/8/K6k w - - 0 1", ()),
        ("8/8/8/8/8/8/8/7k w - - 0 1", ("no_white_king",)),
        ("K7/8/8/8/8/8/8/8 w - - 0 1", ("no_black_king",)),
        ("8/8/8/8/8/8/8/8 w - - 0 1", ("no_white_king", "no_black_king", "empty")),
        ("K7/8/8/8/8/8/8/K6k w - - 0 1", ("too_many_kings",)),
        ("k7/8/8/8/8/8/PPPPPPPP/4K2P w - - 0 1", ("too_many_white_pawns", "pawns_on_backrank")),
        ("k6K/8/8/8/8/8/8/p7 w - - 0 1", ("pawns_on_backrank",)),
        ("k7/8/QQQQQQQQ/QQQQQQQQ/QK6/8/8/8 b - - 0 1", ("too_many_white_pieces",)),
        ("k7/8/8/8/8/8/8/4K3 w K - 0 1", ("bad_castling_rights",)),
        ("k7/8/8/8/8/8/8/4K3 w - e6 0 1", ("invalid_ep_square",)),
        ("k7/8/8/8/8/8/8/R3K3 w - - 0 1", ("opposite_check",)),
        ("k7/8/8/8/8/8/8/1R2K3 w - - 0 1", ()),
        ("k7/8/1N6/8/8/8/8/R3K3 b - - 0 1", ()),
        ("k7/1P6/1N6/8/8/8/8/R3K3 b - - 0 1", ("too_many_checkers", "impossible_check")),
        ("k7/8/8/8/r2K3r/8/8/8 w - - 0 1", ("impossible_check",)),
        ("k7/8/8/8/3K3r/8/8/6b1 w - - 0 1", ()),
        ("4k3/8/8/3pP3/8/8/8/3QK3 w - d6 0 1", ()),
    ],
)
def test_each_flag(fen, names):
    assert ft.status([fen])[0] == tuple(n for n in ft.STATUS_NAMES.values() if n in names)
    assert ft.status_flags([fen])[0] == python_chess_status(fen)


def test_rows_that_cannot_be_read():
    with pytest.raises(ValueError, match="row 1"):
        ft.status_flags(["8/8/8/8/8/8/8/K6k w - - 0 1", "8/8/8 w - -"])
    assert ft.status(["8/8/8 w - -", None, "8/8/8/8/8/8/8/K6k w - -"], errors="coerce") == [
        None,
        None,
        (),
    ]
    assert ft.status_flags("k7/8/8/8/8/8/8/K7 w - -").tolist() == [0]
    with pytest.raises(ValueError):
        ft.status_flags(["k7/8/8/8/8/8/8/K7 w - -"], errors="ignore")
    with pytest.raises(fx.FenError, match="10-wide"):
        ft.status_flags(["rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"])


def test_illegal_positions_messages():
    got = ft.illegal_positions(
        [
            "8/8/8/8/8/8/8/K6k w - -",
            "8/8/8/8/8/8/8/7k w - -",
            "8/8 w",
            None,
            "k7/8/8/8/8/8/8/R3K3 w - -",
        ]
    )
    assert got[0] is None and got[3] is None
    assert got[1] == "illegal position: no white king"
    assert got[2].startswith("column") and "(" in got[2]
    assert got[4] == "illegal position: opposite check"
    assert ft.illegal_positions("k7/8/8/8/8/8/8/K7 w - -") == [None]
