"""fastxfen.zobrist: polyglot keys for 8x8 positions (against python-chess),
the documented 10x8 extension (its generator, a reference model of its
layout, checked-in keys), and the input kinds and error modes."""

import random

import chess
import chess.polyglot
import numpy as np
import pyarrow as pa
import pytest

import fastxfen as fx
from fastxfen import _keys

M64 = (1 << 64) - 1
WIDE_SEED = 0x666173747866656E  # b"fastxfen"


def polyglot(fen):
    return chess.polyglot.zobrist_hash(chess.Board(fen, chess960=True))


# ---------------------------------------------------------------- positions


def random_game(board, rng, plies):
    """FENs of the positions of one random game from board, en passant
    written after every double push, castling in X-FEN or Shredder form."""
    out = []
    for _ in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
        fen = board.fen(en_passant="fen")
        out.append(board.shredder_fen(en_passant="fen") if rng.random() < 0.3 else fen)
    return out


def chess960_board(rng):
    board = chess.Board.from_chess960_pos(rng.randrange(960))
    board.chess960 = True
    return board


def crafted_en_passant():
    """A double push on every file, each way, with and without a capturer
    beside the pushed pawn; some capturers pinned (still hashed: polyglot
    asks for a pseudo-legal capture)."""
    fens = []
    for f in range(8):
        for left in (False, True):
            for right in (False, True):
                for pinned in (False, True):
                    # white pushed to rank 4: target rank 3, black to move
                    rank4 = ["."] * 8
                    rank4[f] = "P"
                    if left and f > 0:
                        rank4[f - 1] = "p"
                    if right and f < 7:
                        rank4[f + 1] = "p"
                    black_king = "k" if not pinned else "."
                    rows = [
                        f"{black_king}7" if black_king == "k" else "8",
                        "8",
                        "8",
                        "8",
                        "".join(rank4),
                        "8",
                        "8",
                        "4K3" if not pinned else "k3K2Q",
                    ]
                    board = chess.Board(None, chess960=True)
                    board.set_board_fen(_compress("/".join(rows)))
                    target = chess.square_name(chess.square(f, 2))
                    fens.append(f"{board.board_fen()} b - {target} 0 1")
                    mirrored = board.mirror()
                    target = chess.square_name(chess.square(f, 5))
                    fens.append(f"{mirrored.board_fen()} w - {target} 0 1")
    return fens


def _compress(text):
    out, run = [], 0
    for ch in text:
        if ch == ".":
            run += 1
            continue
        if run:
            out.append(str(run))
            run = 0
        out.append(ch)
    if run:
        out.append(str(run))
    return "".join(out)


def crafted_castling(rng, n):
    """Chess960 starts and early positions with a random subset of rights,
    some naming an inner rook, some naming a rook that is not there."""
    fens = []
    for _ in range(n):
        board = chess960_board(rng)
        for _ in range(rng.randrange(6)):
            board.push(rng.choice(list(board.legal_moves)))
        placement, side = board.board_fen(), "wb"[board.turn == chess.BLACK]
        white = rng.sample("KQABCDEFGH", rng.randrange(3))
        black = rng.sample("kqabcdefgh", rng.randrange(3))
        rights = "".join(white + black) or "-"
        fens.append(f"{placement} {side} {rights} - 0 1")
    return fens


def corpus(n, seed):
    rng = random.Random(seed)
    fens = crafted_en_passant() + crafted_castling(rng, n // 20)
    while len(fens) < n:
        start = chess960_board(rng) if rng.random() < 0.4 else chess.Board(chess960=True)
        fens.append(start.fen())
        fens += random_game(start, rng, rng.randrange(20, 120))
    return fens[:n]


def check_against_python_chess(fens):
    expected = np.array([polyglot(f) for f in fens], np.uint64)
    keys = fx.zobrist(fens)
    bad = np.flatnonzero(keys != expected)
    assert not bad.size, [fens[i] for i in bad[:5]]
    assert (fx.zobrist(fx.encode(fens)) == expected).all()
    assert (fx.zobrist(fx.encode(fens, width=10)) == expected).all()


def test_polyglot_differential():
    check_against_python_chess(corpus(5_000, seed=17))


@pytest.mark.slow
def test_polyglot_differential_100k():
    check_against_python_chess(corpus(100_000, seed=1717))


def test_crafted_cases_hash_en_passant_as_polyglot_does():
    fens = crafted_en_passant()
    keys = fx.zobrist(fens)
    assert keys.tolist() == [polyglot(f) for f in fens]
    # a capturer beside the pawn puts the en-passant file into the key
    with_ep = [f for f in fens if fx.normalize(f) != fx.normalize(f, en_passant="fen")]
    assert any(fx.normalize(f).split()[3] != "-" for f in fens)
    assert with_ep  # and some targets with no capturer


def test_invalid_target_is_dropped_as_normalize_drops_it():
    # e3 with white to move is no en-passant target: fastxfen drops it on
    # reading, python-chess keeps it and hashes it (a white pawn on d2 stands
    # beside e2); the key is that of the position without it.
    fen = "4k3/8/8/8/8/8/3P4/4K3 w - e3 0 1"
    assert fx.zobrist(fen) == polyglot(fx.normalize(fen))
    assert fx.zobrist(fen) != polyglot(fen)


# ---------------------------------------------------------------- tables


def splitmix64(seed, n):
    state, out = seed, []
    for _ in range(n):
        state = (state + 0x9E3779B97F4A7C15) & M64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        out.append(z ^ (z >> 31))
    return out


def test_polyglot_table_is_the_formats():
    assert _keys.POLYGLOT_KEYS.tolist() == chess.polyglot.POLYGLOT_RANDOM_ARRAY


def test_wide_table_is_the_documented_generator():
    assert WIDE_SEED.to_bytes(8, "big") == b"fastxfen"
    keys = splitmix64(WIDE_SEED, 1313)
    assert _keys.WIDE_KEYS.tolist() == keys == WIDE_KEYS
    assert len(set(keys)) == len(keys) and 0 not in keys


WIDE_KEYS = splitmix64(WIDE_SEED, 1313)


def wide_reference(rec):
    """The documented 10x8 key of a checked record, in plain Python."""
    k = WIDE_KEYS
    h = 0
    for sq, code in enumerate(rec["board"].tolist()):
        if code:
            h ^= k[80 * (code - 1) + sq]
    for slot, f in enumerate(rec["castling"].tolist()):
        if f != 255:
            h ^= k[1280 + 10 * (slot // 2) + f]
    ep = int(rec["ep"])
    if ep != 255:  # kept when a pawn of the side to move stands beside the pushed pawn
        own = 1 if rec["turn"] == 0 else 7
        pushed = ep - 10 if rec["turn"] == 0 else ep + 10
        beside = [pushed + d for d in (-1, 1) if 0 <= ep % 10 + d < 10]
        if any(rec["board"][s] == own for s in beside):
            h ^= k[1300 + ep % 10]
    if rec["turn"] == 0:
        h ^= k[1310]
    if rec["prefix"]:
        h ^= k[1311 + int(rec["prefix"]) - 1]
    return h


CHECKED_IN_10x8 = [
    ("rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1", 0xA79EB3278F1A4863),
    ("rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR b KQkq - 0 1", 0xE18F4CB806409FE5),
    ("rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w mKQkq - 0 1", 0x9B19A8FE78F3A847),
    ("ranbkqbnar/pppppppppp/10/10/10/10/PPPPPPPPPP/RANBKQBNAR w sKQkq - 0 1", 0x4D3E7F13D8C2756D),
    ("rnabqkbcnr/pppp1ppppp/10/10/3pP5/10/PPPP1PPPPP/RNABQKBCNR b Ja e3 0 3", 0xEEDA7D758FF4E3E8),
    ("4k5/10/10/10/10/10/10/4K5 w - - 0 1", 0xA2B5611383BF784B),
]


@pytest.mark.parametrize("fen,key", CHECKED_IN_10x8)
def test_10x8_keys_are_stable(fen, key):
    assert fx.zobrist(fen) == key
    assert wide_reference(fx.encode(fen, width=10)[0]) == key


def random_wide_records(n, seed):
    """Checked 10x8 records: random boards with both kings, random side,
    rights, prefix and en-passant targets (the record check repairs them)."""
    rng = np.random.default_rng(seed)
    recs = np.zeros(n, fx.POSITION_DTYPE_10x8)
    board = rng.integers(1, 17, (n, 80)) * (rng.random((n, 80)) < 0.3)
    board[board == 6] = 0
    board[board == 12] = 0
    board[:, 4], board[:, 74] = 6, 12  # kings on e1 and e8
    corners = rng.random((n, 4)) < 0.7  # rooks for rights to survive the repair
    for k, (sq, rook) in enumerate([(0, 4), (9, 4), (70, 10), (79, 10)]):
        board[corners[:, k], sq] = rook
    recs["board"] = board
    recs["width"] = 10
    recs["turn"] = rng.integers(0, 2, n)
    recs["prefix"] = rng.integers(0, 3, n)
    files = np.where(rng.random((n, 4)) < 0.8, [9, 0, 9, 0], rng.integers(0, 10, (n, 4)))
    recs["castling"] = np.where(rng.random((n, 4)) < 0.5, files, 255)
    recs["ep"] = 255
    for i in np.flatnonzero(rng.random(n) < 0.3):  # a double push just made
        white = recs["turn"][i] == 0
        f = int(rng.integers(0, 10))
        target, step = (50 + f, -10) if white else (20 + f, 10)
        board = recs["board"][i]
        board[target] = board[target - step] = 0
        board[target + step] = 7 if white else 1
        for side in (-1, 1):
            if 0 <= f + side < 10 and rng.random() < 0.5:
                board[target + step + side] = 1 if white else 7
        recs["ep"][i] = target
    recs["fullmove"] = 1
    return recs


def test_10x8_keys_follow_the_documented_layout():
    recs = random_wide_records(300, seed=3)
    checked = fx.encode(fx.decode(recs, en_passant="fen"), width=10)
    assert fx.zobrist(recs).tolist() == [wide_reference(r) for r in checked]


def test_distinct_10x8_positions_get_distinct_keys():
    recs = random_wide_records(20_000, seed=4)
    # every position also with the other side to move and without its rights
    flipped, plain = recs.copy(), recs.copy()
    flipped["turn"] ^= 1
    plain["castling"] = 255
    allrecs = np.concatenate([recs, flipped, plain])
    texts = fx.decode(allrecs, en_passant="xfen")
    keys = fx.zobrist(allrecs)
    by_text = dict(zip(texts, keys.tolist()))
    assert len(set(by_text.values())) == len(by_text)
    assert len(by_text) > 50_000
    fields = [text.split() for text in by_text]
    assert sum(f[2] != "-" for f in fields) > 10_000
    assert sum(f[3] != "-" for f in fields) > 1_000


def test_8x8_positions_in_wide_records_keep_polyglot_keys():
    fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    assert fx.zobrist(fx.encode(fen, width=10)).tolist() == [polyglot(fen)]


# ---------------------------------------------------------------- inputs and errors

START = chess.STARTING_FEN
START_KEY = 0x463B96181691FC9C  # the polyglot format's published start key


def test_one_str_gives_an_int():
    key = fx.zobrist(START)
    assert type(key) is int and key == START_KEY


def test_input_kinds():
    fens = [START, "8/8/8/8/8/8/8/K6k b - - 3 9"]
    expected = [START_KEY, polyglot(fens[1])]
    assert fx.zobrist(fens).dtype == np.uint64
    assert fx.zobrist(fens).tolist() == expected
    assert fx.zobrist(iter(fens)).tolist() == expected
    assert fx.zobrist("\n".join(fens).encode() + b"\n").tolist() == expected
    assert fx.zobrist(pa.array(fens)).tolist() == expected
    assert fx.zobrist(pa.chunked_array([fens[:1], fens[1:]])).tolist() == expected
    grid = np.array([fens, fens[::-1]])
    for arr in (grid, grid.astype("S"), grid.astype(object)):
        assert fx.zobrist(arr).tolist() == [expected, expected[::-1]]
    recs = fx.encode(fens)
    assert fx.zobrist(recs.reshape(2, 1)).shape == (2, 1)
    assert fx.zobrist(recs[1]) == expected[1]
    assert fx.zobrist([]).shape == (0,)


def test_missing_values_give_zero():
    assert fx.zobrist([None, START]).tolist() == [0, START_KEY]
    assert fx.zobrist(np.array([START, None], object)).tolist() == [START_KEY, 0]
    assert fx.zobrist(pa.array([None, START])).tolist() == [0, START_KEY]
    null = np.zeros(1, fx.POSITION_DTYPE)
    assert fx.zobrist(null).tolist() == [0]


def test_bad_rows_raise_or_give_zero():
    rows = [START, None, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"]
    with pytest.raises(fx.FenError) as info:
        fx.zobrist(rows)
    assert info.value.index == 2 and info.value.field == "placement"
    assert fx.zobrist(rows, errors="coerce").tolist() == [START_KEY, 0, 0]
    with pytest.raises(fx.FenError) as info:
        fx.zobrist(b"x\n" + START.encode())
    assert info.value.index == 0
    assert fx.zobrist(pa.array(["x", START]), errors="coerce").tolist() == [0, START_KEY]


def test_bad_records_raise_or_give_zero():
    recs = fx.encode([START, START, START])
    recs["turn"][1] = 7
    with pytest.raises(fx.FenError) as info:
        fx.zobrist(recs)
    assert (info.value.index, info.value.field) == (1, "record.turn")
    assert fx.zobrist(recs, errors="coerce").tolist() == [START_KEY, 0, START_KEY]


def test_records_are_checked_and_repaired():
    # a right whose rook is gone and an en-passant target with no pushed pawn
    recs = fx.encode(["4k3/8/8/8/8/8/8/4K2R w K - 0 1"])
    recs["board"][0, 7] = 0
    recs["ep"] = 20
    assert fx.zobrist(recs).tolist() == [polyglot("4k3/8/8/8/8/8/8/4K3 w - - 0 1")]


def test_options_are_checked():
    with pytest.raises(ValueError, match="errors"):
        fx.zobrist([START], errors="ignore")
    with pytest.raises(ValueError, match="threads"):
        fx.zobrist(np.array([START] * 3), threads=0)
