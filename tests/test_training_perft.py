"""The move generator (core/movegen.c) against the public perft suites
(tests/data/perft.txt: node counts of python-chess's examples/perft files)
and against python-chess's legal moves."""

import os
import random

import chess
import pytest

import fastxfen.training as ft

HERE = os.path.dirname(os.path.abspath(__file__))


def suites():
    rows = []
    with open(os.path.join(HERE, "data", "perft.txt")) as f:
        for line in f:
            if not line.startswith("#"):
                suite, fen, counts = line.rstrip("\n").split(";")
                rows.append((suite, fen, [int(c) for c in counts.split()]))
    return rows


SUITES = suites()


def test_the_suites_are_all_there():
    names = [s for s, _, _ in SUITES]
    counts = (names.count("tricky"), names.count("chess960"), names.count("random"))
    assert counts == (19, 960, 6838)


@pytest.mark.parametrize("suite", ["tricky", "chess960", "random"])
def test_perft_to_depth_3(suite):
    wrong = []
    for name, fen, counts in SUITES:
        if name == suite:
            for depth, want in enumerate(counts[:3], 1):
                got = ft.perft(fen, depth)
                if got != want:
                    wrong.append((fen, depth, want, got))
                    break
    assert not wrong, wrong[:3]


#: The largest node count the slow run checks at one position and depth:
#: every position to each published depth up to it (5,356 of the 7,817
#: positions to their last published depth), 2.5 billion nodes in all,
#: under a minute on one core (every depth would take about ten).
NODE_BUDGET = 1_000_000


@pytest.mark.slow
@pytest.mark.parametrize("suite", ["tricky", "chess960", "random"])
def test_perft_published_depths_within_budget(suite):
    """Each position of the suite at every published depth whose node count
    is at most NODE_BUDGET (the deeper counts, up to 107 million nodes a
    position, are left out)."""
    wrong, checked = [], 0
    for name, fen, counts in SUITES:
        if name == suite:
            for depth, want in enumerate(counts, 1):
                if want > NODE_BUDGET:
                    break
                checked += want
                if ft.perft(fen, depth) != want:
                    wrong.append((fen, depth, want))
                    break
    assert not wrong, wrong[:3]
    assert checked > 1_000_000  # the budget leaves every suite something deep


def _python_chess_moves(fen, chess960):
    board = chess.Board(fen, chess960=True)
    return sorted(board.uci(m, chess960=chess960) for m in board.legal_moves)


@pytest.mark.parametrize("chess960", [False, True])
def test_legal_moves_are_python_chess_moves(chess960):
    rng = random.Random(25)
    starts = [fen for _, fen, _ in rng.sample(SUITES, 600)]
    fens = list(starts)
    for fen in starts:  # and a few plies further, where other moves arise
        board = chess.Board(fen, chess960=True)
        for _ in range(3):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
            fens.append(board.fen())
    for fen in fens:
        got = sorted(ft.legal_moves(fen, chess960=chess960))
        assert got == _python_chess_moves(fen, chess960), fen


@pytest.mark.parametrize(
    "fen, moves",
    [
        # castling: not out of, through or into check; a-side needs b1 empty only
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", {"e1g1", "e1c1"}),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", {"e1g1", "e1c1"}),
        ("r3k2r/8/8/8/8/5r2/8/R3K2R w KQkq - 0 1", {"e1c1"}),
        ("r3k2r/8/8/8/8/3r4/8/R3K2R w KQkq - 0 1", {"e1g1"}),
        ("r3k2r/8/8/8/8/1r6/8/R3K2R w KQkq - 0 1", {"e1g1", "e1c1"}),
        ("r3k2r/8/8/8/8/4r3/8/R3K2R w KQkq - 0 1", set()),
        # Chess960: the king already on its square, the rook passing the king
        ("1r4kr/8/8/8/8/8/8/1R4KR w HBhb - 0 1", {"g1h1", "g1b1"}),
    ],
)
def test_castling(fen, moves):
    castles = {m for m in ft.legal_moves(fen, chess960=True) if _is_castle(fen, m)}
    assert castles == {_king_takes_rook(fen, m) for m in moves}


def _is_castle(fen, uci):
    board = chess.Board(fen, chess960=True)
    return board.is_castling(chess.Move.from_uci(uci))


def _king_takes_rook(fen, uci):
    board = chess.Board(fen, chess960=True)
    return board.uci(board.parse_uci(uci), chess960=True)


@pytest.mark.parametrize(
    "fen, ep, legal",
    [
        ("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1", "e5d6", False),  # rank pin through both pawns
        ("8/8/8/3pP3/8/8/8/K6k w - d6 0 1", "e5d6", True),
        ("7k/8/8/3pP3/8/8/8/B6K w - d6 0 1", "e5d6", True),
        ("8/8/3k4/3pP3/8/8/8/7K w - d6 0 1", "e5d6", True),
        ("8/8/8/2k5/3Pp3/8/8/6BK b - d3 0 1", "e4d3", False),  # diagonal pin on the taker
    ],
)
def test_en_passant(fen, ep, legal):
    assert (ep in ft.legal_moves(fen)) == legal
    assert (ep in _python_chess_moves(fen, False)) == legal


def test_every_promotion():
    moves = ft.legal_moves("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    assert sorted(m for m in moves if m[:2] == "b7") == ["b7b8b", "b7b8n", "b7b8q", "b7b8r"]


def test_perft_checks_its_arguments():
    with pytest.raises(ValueError):
        ft.perft(chess.STARTING_FEN, 13)
    with pytest.raises(ValueError):
        ft.perft("rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w - -", -1)
    with pytest.raises(ValueError):
        ft.perft("rnbqkbnr/8/8/8 w - -", 1)
    assert ft.perft(chess.STARTING_FEN, 0) == 1
