"""Positions for the dataframe and SQL tests: random games from standard and
Chess960 starts (many right after a double push), in X-FEN or Shredder-FEN
castling, with what python-chess writes for them."""

import random

import chess


def positions(n=300, seed=17):
    """n FEN rows from random games."""
    rng = random.Random(seed)
    rows = []
    while len(rows) < n:
        if rng.random() < 0.5:
            board = chess.Board.from_chess960_pos(rng.randrange(960))
        else:
            board = chess.Board(chess960=True)
        for _ in range(rng.randrange(60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        rows.append(board.fen(shredder=rng.random() < 0.5, en_passant="fen"))
    return rows


def expected(fen, castling="xfen", en_passant="xfen"):
    """What python-chess writes for a row of `positions` (their en-passant
    targets all follow a double push, so python-chess keeps them too)."""
    board = chess.Board(fen, chess960=True)
    return board.fen(shredder=castling == "shredder", en_passant=en_passant)


BAD = "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def puzzle_columns(fens):
    """The columns of the lichess puzzle CSV, with `fens` as FEN."""
    n = len(fens)
    return {
        "PuzzleId": [f"p{i:05d}" for i in range(n)],
        "FEN": fens,
        "Moves": ["e2e4 e7e5"] * n,
        "Rating": [1500 + i for i in range(n)],
        "RatingDeviation": [75] * n,
        "Popularity": [90] * n,
        "NbPlays": [1000 + i for i in range(n)],
        "Themes": ["crushing hangingPiece long middlegame"] * n,
        "GameUrl": [f"https://lichess.org/abcdefgh#{i}" for i in range(n)],
        "OpeningTags": [None if i % 3 else "Kings_Pawn_Game" for i in range(n)],
    }


def polyglot_keys(fens):
    """python-chess's polyglot keys of rows (a list or an Arrow column)."""
    import chess.polyglot

    rows = fens if isinstance(fens, list) else fens.to_pylist()
    return [chess.polyglot.zobrist_hash(chess.Board(f, chess960=True)) for f in rows]
