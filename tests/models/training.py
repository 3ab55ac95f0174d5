"""The plain-Python model of Stockfish's training formats (docs/training.md),
written on python-chess and apart from the C core: the tests compare what
fastxfen.training reads and writes with what this model reads and writes.

An :class:`Entry` is a position (FEN text, read by python-chess as a
Chess960 board, so castling is the king taking its rook), the move played
(UCI text in that form), score, ply and result.  Positions hold only the
en-passant targets a pawn can legally take (what Stockfish keeps); the
fullmove number of a .binpack position is ``ply // 2 + 1``.

Slow and simple: bits are lists of ints, boards are python-chess boards.
"""

from __future__ import annotations

import dataclasses
import random

import chess

HEAD = 34
BLOCK_CUT = 1 << 20


@dataclasses.dataclass(frozen=True)
class Entry:
    fen: str
    move: str  # UCI, castling as the king taking its rook
    score: int
    ply: int
    result: int


def columns(entries) -> dict:
    """The entries as a table of columns, as fastxfen.training writes them."""
    return {k: [getattr(e, k) for e in entries] for k in ("fen", "move", "score", "ply", "result")}


def board_of(fen: str) -> chess.Board:
    board = chess.Board(fen, chess960=True)
    if board.ep_square is not None and not board.has_legal_en_passant():
        board.ep_square = None
    return board


def fen_of(board: chess.Board) -> str:
    return board.fen(en_passant="legal")


def fold(v: int) -> int:
    """Score sign folding: 0, -1, 1, -2 ... to 0, 1, 2, 3 ..."""
    v &= 0xFFFF
    if v & 0x8000:
        v ^= 0x7FFF
    return ((v << 1) | (v >> 15)) & 0xFFFF


def unfold(u: int) -> int:
    r = ((u >> 1) | (u << 15)) & 0xFFFF
    if r & 0x8000:
        r ^= 0x7FFF
    return r - 0x10000 if r & 0x8000 else r


def wrap16(v: int) -> int:
    v &= 0xFFFF
    return v - 0x10000 if v & 0x8000 else v


# ---------------------------------------------------------------- 24-byte positions

NIBBLE = {(chess.WHITE, t): 2 * (t - 1) for t in range(1, 7)}
NIBBLE.update({(chess.BLACK, t): 2 * (t - 1) + 1 for t in range(1, 7)})


def pack_position(board: chess.Board) -> bytes:
    occupied = board.occupied
    nibbles = []
    pushed = None
    if board.ep_square is not None:
        pushed = board.ep_square - 8 if board.turn == chess.WHITE else board.ep_square + 8
    for sq in chess.scan_forward(occupied):
        piece = board.piece_at(sq)
        v = NIBBLE[piece.color, piece.piece_type]
        if piece.piece_type == chess.PAWN and sq == pushed:
            v = 12
        elif piece.piece_type == chess.ROOK and board.castling_rights & chess.BB_SQUARES[sq]:
            v = 13 if piece.color == chess.WHITE else 14
        elif piece.piece_type == chess.KING and piece.color == chess.BLACK and not board.turn:
            v = 15
        nibbles.append(v)
    nibbles += [0] * (32 - len(nibbles))
    codes = bytes(nibbles[i] | nibbles[i + 1] << 4 for i in range(0, 32, 2))
    return occupied.to_bytes(8, "big") + codes


def unpack_position(data: bytes, rule50: int, ply: int) -> chess.Board:
    board = chess.Board(None, chess960=True)
    occupied = int.from_bytes(data[:8], "big")
    rights, ep, turn = 0, None, chess.WHITE
    for k, sq in enumerate(chess.scan_forward(occupied)):
        v = data[8 + k // 2] >> (4 * (k & 1)) & 15
        if v < 12:
            board.set_piece_at(sq, chess.Piece(v // 2 + 1, not (v & 1)))
        elif v == 12:
            white = chess.square_rank(sq) == 3
            board.set_piece_at(sq, chess.Piece(chess.PAWN, white))
            ep = sq - 8 if white else sq + 8
        elif v in (13, 14):
            board.set_piece_at(sq, chess.Piece(chess.ROOK, v == 13))
            rights |= chess.BB_SQUARES[sq]
        else:
            board.set_piece_at(sq, chess.Piece(chess.KING, chess.BLACK))
            turn = chess.BLACK
    board.turn, board.castling_rights, board.ep_square = turn, rights, ep
    board.halfmove_clock, board.fullmove_number = rule50, ply // 2 + 1
    return board


# ---------------------------------------------------------------- moves


def head_move(move: chess.Move, board: chess.Board) -> int:
    """The 16 bits of a chain head's move."""
    kind = 0
    if move.promotion:
        kind = 1
    elif board.is_castling(move):
        kind = 2
    elif board.is_en_passant(move):
        kind = 3
    promo = move.promotion - chess.KNIGHT if move.promotion else 0
    return kind << 14 | move.from_square << 8 | move.to_square << 2 | promo


def sf_move(move: chess.Move, board: chess.Board) -> int:
    """Stockfish's engine move: to | from << 6 | promotion << 12 | type << 14."""
    kind, promo = 0, 0
    if move.promotion:
        kind, promo = 1, move.promotion - chess.KNIGHT
    elif board.is_en_passant(move):
        kind = 2
    elif board.is_castling(move):
        kind = 3
    return kind << 14 | promo << 12 | move.from_square << 6 | move.to_square


def targets(board: chess.Board, sq: int):
    """The squares the move text numbers for the piece on sq, and its count
    of codes (docs/training.md)."""
    piece, us = board.piece_at(sq), board.turn
    own = board.occupied_co[us]
    if piece.piece_type == chess.PAWN:
        prey = board.occupied_co[not us]
        if board.ep_square is not None:
            prey |= chess.BB_SQUARES[board.ep_square]
        to = chess.BB_PAWN_ATTACKS[us][sq] & prey
        ahead = sq + (8 if us else -8)
        if 0 <= ahead < 64 and not board.occupied & chess.BB_SQUARES[ahead]:
            to |= chess.BB_SQUARES[ahead]
            twice = ahead + (8 if us else -8)
            if chess.square_rank(sq) == (1 if us else 6) and not board.piece_at(twice):
                to |= chess.BB_SQUARES[twice]
        last = chess.square_rank(sq) == (6 if us else 1)
        return to, chess.popcount(to) * (4 if last else 1)
    to = board.attacks_mask(sq) & ~own
    count = chess.popcount(to)
    if piece.piece_type == chess.KING:
        back = chess.BB_RANK_1 if us else chess.BB_RANK_8
        count += chess.popcount(board.castling_rights & back)
    return to, count


def index_bits(n: int) -> int:
    return 0 if n <= 1 else (n - 1).bit_length()


def encode_ply(board, move, score, last, bits):
    """Append the codes of one ply to the list of bits; returns the new
    base of the next score."""
    own = board.occupied_co[board.turn]
    put = lambda v, n: bits.extend((v >> (n - 1 - i)) & 1 for i in range(n))  # noqa: E731
    below = own & (chess.BB_SQUARES[move.from_square] - 1)
    put(chess.popcount(below), index_bits(chess.popcount(own)))
    to, count = targets(board, move.from_square)
    steps = chess.popcount(to)
    if board.is_castling(move):
        back = chess.BB_RANK_1 if board.turn else chess.BB_RANK_8
        rights = chess.scan_forward(board.castling_rights & back)
        a_right = any(r < move.from_square for r in rights)
        index = steps - 1 + a_right + (move.to_square > move.from_square)
    else:
        index = chess.popcount(to & (chess.BB_SQUARES[move.to_square] - 1))
        if move.promotion:
            index = 4 * index + move.promotion - chess.KNIGHT
    put(index, index_bits(count))
    v = fold(score - last)
    while True:
        put((v & 15) | (16 if v > 15 else 0), 5)
        v >>= 4
        if not v:
            return wrap16(-score)


def decode_ply(board, bits, at, last):
    """(move, score, next at, next base) of the ply at bit `at`."""

    def get(n):
        nonlocal at
        v = 0
        for _ in range(n):
            v = v << 1 | bits[at]
            at += 1
        return v

    own = list(chess.scan_forward(board.occupied_co[board.turn]))
    sq = own[get(index_bits(len(own)))]
    to, count = targets(board, sq)
    index = get(index_bits(count))
    squares = list(chess.scan_forward(to))
    if board.piece_type_at(sq) == chess.PAWN and count != len(squares):
        move = chess.Move(sq, squares[index // 4], chess.KNIGHT + index % 4)
    elif index < len(squares):
        move = chess.Move(sq, squares[index])
    else:
        back = chess.BB_RANK_1 if board.turn else chess.BB_RANK_8
        rooks = list(chess.scan_forward(board.castling_rights & back))
        a_side = [r for r in rooks if r < sq]
        rook = a_side[0] if index == len(squares) and a_side else [r for r in rooks if r > sq][0]
        move = chess.Move(sq, rook)
    v, shift = 0, 0
    while True:
        group = get(5)
        v |= (group & 15) << shift
        shift += 4
        if not group & 16:
            break
    score = wrap16(last + unfold(v))
    return move, score, at, wrap16(-score)


# ---------------------------------------------------------------- .binpack


def continues(last: Entry | None, entry: Entry) -> bool:
    if last is None or last.result != -entry.result or last.ply + 1 != entry.ply:
        return False
    after = board_of(last.fen)
    after.push(chess.Move.from_uci(last.move))
    now = board_of(entry.fen)
    if after.ep_square is not None and not after.has_legal_en_passant():
        after.ep_square = None
    return (after.board_fen(), after.turn, after.clean_castling_rights(), after.ep_square) == (
        now.board_fen(),
        now.turn,
        now.clean_castling_rights(),
        now.ep_square,
    )


def _head(entry: Entry) -> bytes:
    board = board_of(entry.fen)
    move = chess.Move.from_uci(entry.move)
    return (
        pack_position(board)
        + head_move(move, board).to_bytes(2, "big")
        + fold(entry.score).to_bytes(2, "big")
        + (entry.ply | fold(entry.result) << 14).to_bytes(2, "big")
        + board.halfmove_clock.to_bytes(2, "big")
    )


def write_binpack(entries) -> bytes:
    blocks, block, chain, last = [], bytearray(), None, None

    def close():
        count, bits = chain
        block.extend(count.to_bytes(2, "big"))
        bits = bits + [0] * (-len(bits) % 8)
        block.extend(int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits), 8))

    base = 0
    for entry in entries:
        if chain is not None and continues(last, entry):
            board = board_of(entry.fen)
            base = encode_ply(board, chess.Move.from_uci(entry.move), entry.score, base, chain[1])
            chain[0] += 1
        else:
            if chain is not None:
                close()
            if len(block) >= BLOCK_CUT:
                blocks.append(bytes(block))
                block = bytearray()
            block.extend(_head(entry))
            chain, base = [0, []], wrap16(-entry.score)
        last = entry
    if chain is not None:
        close()
    if block:
        blocks.append(bytes(block))
    return b"".join(b"BINP" + len(b).to_bytes(4, "little") + b for b in blocks)


def read_binpack(data: bytes):
    """Entries and the chain of each."""
    out, chains, at = [], [], 0
    while at < len(data):
        size = int.from_bytes(data[at + 4 : at + 8], "little")
        block, at, offset = data[at + 8 : at + 8 + size], at + 8 + size, 0
        while offset < len(block):
            head = block[offset : offset + HEAD]
            rule50, pr = int.from_bytes(head[30:32], "big"), int.from_bytes(head[28:30], "big")
            board = unpack_position(head[:24], rule50, pr & 0x3FFF)
            m = int.from_bytes(head[24:26], "big")
            move = chess.Move(
                (m >> 8) & 63, (m >> 2) & 63, chess.KNIGHT + (m & 3) if m >> 14 == 1 else None
            )
            score = unfold(int.from_bytes(head[26:28], "big"))
            ply, result = pr & 0x3FFF, unfold(pr >> 14)
            count = int.from_bytes(head[32:34], "big")
            offset += HEAD
            bits = [b >> (7 - i) & 1 for b in block[offset:] for i in range(8)]
            at_bit, base = 0, wrap16(-score)
            out.append(Entry(fen_of(board), board.uci(move), score, ply, result))
            chains.append(chains[-1] + 1 if chains else 0)
            for _ in range(count):
                board.push(move)
                if board.ep_square is not None and not board.has_legal_en_passant():
                    board.ep_square = None
                move, score, at_bit, base = decode_ply(board, bits, at_bit, base)
                ply, result = ply + 1, -result
                out.append(Entry(fen_of(board), board.uci(move), score, ply, result))
                chains.append(chains[-1])
            offset += (at_bit + 7) // 8
    return out, chains


# ---------------------------------------------------------------- .bin and .plain


def write_bin(entries) -> bytes:
    out = bytearray()
    for e in entries:
        board, bits = board_of(e.fen), []

        def put(v, n, bits=bits):
            bits.extend((v >> i) & 1 for i in range(n))

        put(0 if board.turn else 1, 1)
        put(board.king(chess.WHITE), 6)
        put(board.king(chess.BLACK), 6)
        for rank in range(7, -1, -1):
            for file in range(8):
                piece = board.piece_at(chess.square(file, rank))
                if piece is None:
                    put(0, 1)
                elif piece.piece_type != chess.KING:
                    put(1 | (piece.piece_type - 1) << 1 | (not piece.color) << 4, 5)
        rights = board.clean_castling_rights()
        for color, side in ((chess.WHITE, 1), (chess.WHITE, 0), (chess.BLACK, 1), (chess.BLACK, 0)):
            back = chess.BB_RANK_1 if color else chess.BB_RANK_8
            king = board.king(color)
            mine = [r for r in chess.scan_forward(rights & back) if (r > king) == side]
            put(1 if mine else 0, 1)
        put(board.ep_square is not None, 1)
        if board.ep_square is not None:
            put(board.ep_square, 6)
        put(board.halfmove_clock & 63, 6)
        put(board.fullmove_number & 255, 8)
        put(board.fullmove_number >> 8, 8)
        put(board.halfmove_clock >> 6, 1)
        bits += [0] * (256 - len(bits))
        packed = bytes(sum(bits[8 * k + i] << i for i in range(8)) for k in range(32))
        move = sf_move(chess.Move.from_uci(e.move), board)
        out += packed + (e.score & 0xFFFF).to_bytes(2, "little") + move.to_bytes(2, "little")
        out += e.ply.to_bytes(2, "little") + (e.result & 0xFF).to_bytes(1, "little") + b"\xff"
    return bytes(out)


def plain_move(entry: Entry) -> str:
    board = board_of(entry.fen)
    return board.uci(chess.Move.from_uci(entry.move), chess960=False)


def write_plain(entries) -> str:
    return "".join(
        f"fen {e.fen}\nmove {plain_move(e)}\nscore {e.score}\nply {e.ply}\nresult {e.result}\ne\n"
        for e in entries
    )


# ---------------------------------------------------------------- games


SEEDS = (
    chess.STARTING_FEN,
    "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/P1PBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/1P6/8/2pP4/8/8/6p1/R3K2R w KQkq c6 0 1",
    "4k3/1P4P1/8/8/8/8/1p4p1/4K3 w - - 0 1",
    "rn2k2r/8/8/8/8/8/8/R3K1NR b KQkq - 0 1",
)
#: Chess960 starts with the rooks in the corners (every format holds their
#: rights), the king away from e1 in all but the standard one.
CORNER_960 = tuple(
    n for n in range(960) if chess.Board.from_chess960_pos(n).board_fen()[-8::7] == "RR"
)


def _pick(board: chess.Board, rng: random.Random) -> chess.Move:
    moves = list(board.legal_moves)
    special = [
        m
        for m in moves
        if m.promotion
        or board.is_castling(m)
        or board.is_en_passant(m)
        or board.piece_type_at(m.to_square) == chess.ROOK
    ]
    pushes = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN]
    if special and rng.random() < 0.7:
        return rng.choice(special)
    if pushes and rng.random() < 0.4:
        return rng.choice(pushes)
    return rng.choice(moves)


#: Short lines that play each kind of move for sure (UCI, castling as the
#: king taking its rook).
SCRIPTS = (
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1h1 e8a8"),
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8h8 e1a1"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "a1a8 e8e7 h1h8"),
    ("rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1", "b1h1 b8a8"),
    ("rk5r/8/8/8/8/8/8/RK5R b KQkq - 0 1", "b8h8 b1a1"),
    ("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "e2e4 d4e3 e1e2"),
    ("4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1", "b7b8n g2g1b"),
    ("4k3/1P6/8/8/8/8/6p1/4K3 w - - 0 1", "b7b8r e8e7 e1e2 g2g1q"),
)


def game(
    start: str, plies: int, rng: random.Random, result: int | None = None, script: str = ""
) -> list:
    """Entries of a random game from `start`, or of the moves of `script`:
    every special move it can make is likely; scores anywhere in 16 bits."""
    board, out = board_of(start), []
    result = rng.choice((-1, 0, 1)) if result is None else result
    ply = 2 * (board.fullmove_number - 1) + (not board.turn)
    moves = [chess.Move.from_uci(m) for m in script.split()]
    for _ in range(len(moves) or plies):  # noqa: B020
        if board.is_game_over(claim_draw=False) or not any(board.legal_moves):
            break
        move = moves.pop(0) if moves else _pick(board, rng)
        assert board.is_legal(move), (board.fen(), move)
        score = rng.choice((rng.randint(-300, 300), rng.randint(-32768, 32767), 32767, -32768))
        board.fullmove_number = ply // 2 + 1
        out.append(Entry(fen_of(board), board.uci(move), score, ply, result))
        board.push(move)
        if board.ep_square is not None and not board.has_legal_en_passant():
            board.ep_square = None
        ply, result = ply + 1, -result
    return out


def corpus(seed: int, games: int = 40) -> list:
    """Entries of many games: long ones, one-entry ones, and games with a
    ply left out (a chain broken in two)."""
    rng = random.Random(seed)
    starts = list(SEEDS) + [chess.Board.from_chess960_pos(n).fen() for n in CORNER_960[::3]]
    out = []
    for fen, script in SCRIPTS:
        out += game(fen, 0, rng, script=script)
    for i in range(games):
        moves = game(rng.choice(starts), rng.choice((1, 2, 5, 40, 200)), rng)
        if len(moves) > 4 and i % 3 == 0:
            del moves[rng.randrange(1, len(moves) - 1)]
        out += moves
    return out
