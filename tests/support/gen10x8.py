"""Random 8x8 and 10x8 positions for the tests.

Pure Python, independent of fastxfen and of any chess engine.  A position
starts from a random start array (Capablanca Random Chess like on 10x8,
Chess960 like on 8x8) and is then changed by a few random pseudo-moves of a
deliberately simple mover: pieces jump to random squares, pawns push one or
two squares and capture, pieces disappear.  The text fields around the
placement (castling flags, en-passant square, counters) are then chosen at
random among values that are well formed but often do not match the board,
so that the repair rules of the codec have something to do.

Everything is driven by a ``random.Random``; :func:`fens` wraps the generator
as a hypothesis strategy (hypothesis controls the draws, so failures shrink
to short move lists).

Board representation: a list of ``8 * width`` one-letter strings, ``"."``
for an empty square, index ``rank * width + file`` with rank 0 = rank 1 and
file 0 = file a (the square numbering of the position records).
"""

import random

FILES = "abcdefghij"
WHITE_PIECES_10 = "KQRRBBNNAC"
WHITE_PIECES_8 = "KQRRBBNN"


# ---------------------------------------------------------------- start arrays


def king_between_rooks(rank):
    rooks = [f for f, p in enumerate(rank) if p.upper() == "R"]
    king = rank.upper().index("K")
    return len(rooks) == 2 and rooks[0] < king < rooks[1]


def bishops_on_opposite_colors(rank):
    bishops = [f for f, p in enumerate(rank) if p.upper() == "B"]
    return len(bishops) == 2 and (bishops[0] + bishops[1]) % 2 == 1


def random_back_rank(rng, width=10, opposite_bishops=None):
    """A random white back rank (upper case) with the king between the two
    rooks.  On 10 files it holds K Q R R B B N N A C, on 8 files K Q R R B B
    N N.  ``opposite_bishops`` True/False forces the bishops onto squares of
    opposite/any colors; None picks at random.  Built square by square (no
    retries), so that hypothesis can shrink it."""
    if opposite_bishops is None:
        opposite_bishops = rng.random() < 0.7
    rank = [None] * width
    free = list(range(width))
    if opposite_bishops:
        for parity in (0, 1):
            f = rng.choice([g for g in free if g % 2 == parity])
            rank[f] = "B"
            free.remove(f)
    else:
        for f in rng.sample(free, 2):
            rank[f] = "B"
            free.remove(f)
    # rook, king, rook on three free squares, in that order
    for f, piece in zip(sorted(rng.sample(free, 3)), "RKR"):
        rank[f] = piece
        free.remove(f)
    rest = list("QNNAC" if width == 10 else "QNN")
    rng.shuffle(rest)
    for f, piece in zip(free, rest):
        rank[f] = piece
    return "".join(rank)


def _attacks_from_back_rank(rank, file_):
    """Files of rank 2 that the piece on ``file_`` of rank 1 defends (for the
    "every pawn protected" rule of Capablanca Random Chess)."""
    piece = rank[file_]
    width = len(rank)
    out = set()
    if piece in "BQAK":  # one step diagonally forward
        out.update(f for f in (file_ - 1, file_ + 1) if 0 <= f < width)
    if piece in "RQCK":  # straight forward
        out.add(file_)
    if piece in "NAC":  # knight jumps that land on rank 2
        out.update(f for f in (file_ - 2, file_ + 2) if 0 <= f < width)
    return out


def is_crc_array(rank):
    """True if a 10-letter white back rank obeys the rules of Capablanca
    Random Chess: the ten pieces K Q R R B B N N A C, bishops on squares of
    opposite colors, queen and archbishop on squares of opposite colors, king
    between the rooks, and every pawn of rank 2 defended by a piece."""
    if len(rank) != 10 or sorted(rank) != sorted(WHITE_PIECES_10):
        return False
    if not (bishops_on_opposite_colors(rank) and king_between_rooks(rank)):
        return False
    if (rank.index("Q") + rank.index("A")) % 2 == 0:
        return False
    defended = set()
    for f in range(10):
        defended |= _attacks_from_back_rank(rank, f)
    return defended == set(range(10))


def random_crc_array(rng):
    pieces = list(WHITE_PIECES_10)
    while True:
        rng.shuffle(pieces)
        rank = "".join(pieces)
        if is_crc_array(rank):
            return rank


# ---------------------------------------------------------------- the board


class Board:
    def __init__(self, width, squares=None):
        assert width in (8, 10)
        self.width = width
        self.sq = list(squares) if squares is not None else ["."] * (8 * width)

    @classmethod
    def start(cls, back_rank):
        width = len(back_rank)
        board = cls(width)
        for f, piece in enumerate(back_rank):
            board.set(f, 0, piece.upper())
            board.set(f, 1, "P")
            board.set(f, 6, "p")
            board.set(f, 7, piece.lower())
        return board

    def copy(self):
        return Board(self.width, self.sq)

    def get(self, f, r):
        return self.sq[r * self.width + f]

    def set(self, f, r, piece):
        self.sq[r * self.width + f] = piece

    def squares_of(self, pred):
        return [(i % self.width, i // self.width) for i, p in enumerate(self.sq) if pred(p)]

    def placement(self):
        """The canonical placement text (rank 8 first, empties as numbers)."""
        return placement_text(
            self.width, lambda f, r: None if self.get(f, r) == "." else self.get(f, r)
        )


def placement_text(width, piece_at):
    """Canonical placement text of a board: piece_at(file, rank) gives a
    piece letter or None; rank 8 first, runs of empty squares as numbers."""
    ranks = []
    for r in range(7, -1, -1):
        out, run = [], 0
        for f in range(width):
            p = piece_at(f, r)
            if p is None:
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            out.append(p)
        if run:
            out.append(str(run))
        ranks.append("".join(out))
    return "/".join(ranks)


def square_name(f, r):
    return f"{FILES[f]}{r + 1}"


def is_white(p):
    return p != "." and p.isupper()


def is_black(p):
    return p != "." and p.islower()


def own(p, white):
    return is_white(p) if white else is_black(p)


# ---------------------------------------------------------------- the mover


def _pawn_moves(board, white):
    """(from, to, double) for pushes and diagonal captures of one side."""
    step = 1 if white else -1
    start = 1 if white else 6
    pawn = "P" if white else "p"
    moves = []
    for f, r in board.squares_of(lambda p: p == pawn):
        r1 = r + step
        if not 0 <= r1 < 8:
            continue
        if board.get(f, r1) == ".":
            moves.append(((f, r), (f, r1), False))
            r2 = r + 2 * step
            if r == start and board.get(f, r2) == ".":
                moves.append(((f, r), (f, r2), True))
        for df in (-1, 1):
            f1 = f + df
            if 0 <= f1 < board.width:
                target = board.get(f1, r1)
                if target != "." and not own(target, white) and target.upper() != "K":
                    moves.append(((f, r), (f1, r1), False))
    return moves


def random_moves(rng, board, white_to_move, count, allow_king_moves=True):
    """Play ``count`` random pseudo-moves on ``board`` (in place), alternating
    sides.  Returns (white_to_move, double_push_target) after the last move;
    the target is the square a double push passed over, if the last move was
    one, else None."""
    ep = None
    for _ in range(count):
        ep = None
        white = white_to_move
        kind = rng.random()
        if kind < 0.45:
            moves = _pawn_moves(board, white)
            if moves:
                (f0, r0), (f1, r1), double = rng.choice(moves)
                piece = board.get(f0, r0)
                board.set(f0, r0, ".")
                last_rank = 7 if white else 0
                if r1 == last_rank and rng.random() < 0.9:
                    choices = "QRBNAC" if board.width == 10 else "QRBN"
                    piece = rng.choice(choices)
                    piece = piece if white else piece.lower()
                board.set(f1, r1, piece)
                if double:
                    ep = (f0, (r0 + r1) // 2)
        elif kind < 0.85:
            # a non-pawn piece jumps to an empty square or captures
            pieces = board.squares_of(
                lambda p, white=white: (
                    own(p, white) and p.upper() != "P" and (allow_king_moves or p.upper() != "K")
                )
            )
            if pieces:
                f0, r0 = rng.choice(pieces)
                targets = board.squares_of(
                    lambda p, white=white: p == "." or (not own(p, white) and p.upper() != "K")
                )
                f1, r1 = rng.choice(targets)
                board.set(f1, r1, board.get(f0, r0))
                board.set(f0, r0, ".")
        else:
            # a piece of the other side disappears (kings rarely)
            victims = board.squares_of(
                lambda p, white=white: (
                    p != "." and not own(p, white) and (p.upper() != "K" or rng.random() < 0.05)
                )
            )
            if victims:
                f, r = rng.choice(victims)
                board.set(f, r, ".")
        white_to_move = not white_to_move
    return white_to_move, ep


# ---------------------------------------------------------------- text fields


def random_castling(rng, width):
    """A well-formed castling field: '-' or an optional prefix and one to four
    flags, at most two per color, none repeated, in random order."""
    if rng.random() < 0.15:
        return "-"
    if rng.random() < 0.3:
        flags = rng.choice(["KQkq", "KQ", "kq", "Kq", "Q"])
        if width == 10 and rng.random() < 0.4:
            flags = rng.choice(["JAja", "JA", "ja", "Ja", "KAjq"])
        elif rng.random() < 0.4:
            flags = rng.choice(["HAha", "HA", "Hh", "Aa"])
    else:
        letters = "KQ" + "ABCDEFGHIJ"[:width]
        flags = []
        for color_upper in (True, False):
            n = rng.choice([0, 1, 1, 2, 2])
            chosen = rng.sample(letters, n)
            flags += [c if color_upper else c.lower() for c in chosen]
        if not flags:
            return "-"
        rng.shuffle(flags)
        flags = "".join(flags)
    if rng.random() < 0.15:
        flags = rng.choice("sm") + flags
    return flags


def random_ep(rng, width, real_target):
    roll = rng.random()
    if real_target is not None and roll < 0.75:
        return square_name(*real_target)
    if roll < 0.85:
        return "-"
    rank = rng.choice([2, 5, 5, 2, rng.randrange(8)])
    return square_name(rng.randrange(width), rank)


def random_counters(rng):
    roll = rng.random()
    if roll < 0.1:
        return ""  # four fields
    half = rng.choice([0, 0, 1, 7, 49, 100, rng.randrange(1000)])
    full = rng.choice([1, 1, 2, 40, 0, rng.randrange(500)])
    text_half = str(half)
    if rng.random() < 0.1:
        text_half = "0" + text_half
    if roll < 0.2:
        return f" {text_half}"  # five fields
    return f" {text_half} {full}"


def random_fen(rng, width=10, max_moves=30):
    """One random X-FEN row of the given width (8 or 10)."""
    board = Board.start(random_back_rank(rng, width))
    white, target = random_moves(rng, board, True, rng.randrange(max_moves + 1))
    turn = "w" if white else "b"
    if rng.random() < 0.05:
        turn = "b" if white else "w"  # a side to move that does not fit
    castling = random_castling(rng, width)
    ep = random_ep(rng, width, target)
    return f"{board.placement()} {turn} {castling} {ep}{random_counters(rng)}"


# ---------------------------------------------------------------- en passant


def random_ep_fen(rng, width=10):
    """A sparse position built around an en-passant capture: the side that
    just moved has double-pushed a pawn, zero to two enemy pawns stand beside
    it, kings (zero to two per color, usually one) are placed often on a line
    through the capture squares, and random pieces, archbishops and
    chancellors included, are scattered around.  Meant to exercise the legal
    en-passant rule."""
    board = Board(width)
    white_moves = rng.random() < 0.5  # the side to move (the capturer)
    push_rank = 4 if white_moves else 3  # rank 5 / rank 4 (0-based)
    step = 1 if white_moves else -1
    f = rng.randrange(width)
    pushed = "p" if white_moves else "P"
    capturer = "P" if white_moves else "p"
    board.set(f, push_rank, pushed)
    for df in (-1, 1):
        if 0 <= f + df < width and rng.random() < 0.6:
            board.set(f + df, push_rank, capturer)
    protected = {(f, push_rank + step), (f, push_rank + 2 * step)}

    def free(sq):
        return board.get(*sq) == "." and sq not in protected

    def place(piece, sq):
        if free(sq):
            board.set(sq[0], sq[1], piece)

    def random_square():
        return rng.randrange(width), rng.randrange(8)

    own_king = "K" if white_moves else "k"
    # kings of the capturer's color: usually one, sometimes none or two
    n_kings = rng.choice([1, 1, 1, 1, 0, 2])
    for _ in range(n_kings):
        if rng.random() < 0.6:
            # on the capture rank, or on a diagonal/file through the pushed
            # pawn's square or the capturer's squares
            kind = rng.randrange(3)
            if kind == 0:
                sq = (rng.randrange(width), push_rank)
            elif kind == 1:
                d = rng.choice([-3, -2, -1, 1, 2, 3, 4])
                df = rng.choice([-1, 1]) * d
                sq = (f + rng.choice([-1, 0, 1]) + df, push_rank + d)
            else:
                sq = (f + rng.choice([-1, 1]), rng.randrange(8))
            if 0 <= sq[0] < width and 0 <= sq[1] < 8:
                place(own_king, sq)
                continue
        place(own_king, random_square())
    other_king = "k" if white_moves else "K"
    if rng.random() < 0.9:
        place(other_king, random_square())
    black_pieces = "qrbnacp" if width == 10 else "qrbnp"
    enemy = black_pieces if white_moves else black_pieces.upper()
    friend = black_pieces.upper() if white_moves else black_pieces
    for _ in range(rng.randrange(1, 6)):
        place(rng.choice(enemy), random_square())
    for _ in range(rng.randrange(0, 3)):
        place(rng.choice(friend), random_square())
    # no pawns on the back ranks: keep such boards plausible (they are legal
    # input, but they are not what this generator is about)
    for ff in range(width):
        for rr in (0, 7):
            if board.get(ff, rr).upper() == "P":
                board.set(ff, rr, ".")
    target = square_name(f, push_rank + step)
    turn = "w" if white_moves else "b"
    return f"{board.placement()} {turn} - {target} 0 1"


# ---------------------------------------------------------------- castling


def random_castling_fen(rng, width=10):
    """A position built around castling: per color a king usually on its
    back rank (sometimes elsewhere, missing or doubled), zero to four rooks
    on the back rank, other pieces scattered, and flags that name those
    rooks by K/Q or by file letter, inner ones included."""
    board = Board(width)
    letters_for = {}
    for upper in (True, False):
        back = 0 if upper else 7

        def piece(p, upper=upper):
            return p.upper() if upper else p.lower()

        roll = rng.random()
        king_files = []
        if roll < 0.85:
            king_files = [rng.randrange(width)]
            board.set(king_files[0], back, piece("K"))
        elif roll < 0.92:
            f, r = rng.randrange(width), rng.randrange(1, 7)
            board.set(f, r, piece("K"))
        elif roll < 0.97:
            for f in rng.sample(range(width), 2):
                board.set(f, back, piece("K"))
        free = [f for f in range(width) if board.get(f, back) == "."]
        rooks = rng.sample(free, min(len(free), rng.choice([0, 1, 2, 2, 2, 3, 3, 4])))
        for f in rooks:
            board.set(f, back, piece("R"))
        fillers = "QBNAC" if width == 10 else "QBN"
        for f in range(width):
            if board.get(f, back) == "." and rng.random() < 0.3:
                board.set(f, back, piece(rng.choice(fillers)))
        # a rook of the other color on this back rank now and then
        if rng.random() < 0.15:
            free = [f for f in range(width) if board.get(f, back) == "."]
            if free:
                board.set(rng.choice(free), back, "r" if upper else "R")
        pool = ["K", "Q", "K", "Q"] + [FILES[f].upper() for f in rooks] * 2
        pool += [FILES[rng.randrange(width)].upper()]
        chosen = []
        for _ in range(rng.choice([0, 1, 2, 2])):
            flag = rng.choice(pool)
            if flag not in chosen:
                chosen.append(flag)
        letters_for[upper] = [c if upper else c.lower() for c in chosen]
    for _ in range(rng.randrange(0, 8)):
        f, r = rng.randrange(width), rng.randrange(1, 7)
        if board.get(f, r) == ".":
            board.set(f, r, rng.choice("PpNnBbRrQq" + ("AaCc" if width == 10 else "")))
    flags = letters_for[True] + letters_for[False]
    rng.shuffle(flags)
    castling = "".join(flags) or "-"
    if castling != "-" and rng.random() < 0.2:
        castling = rng.choice("sm") + castling
    turn = rng.choice("wb")
    return f"{board.placement()} {turn} {castling} -{random_counters(rng)}"


# ---------------------------------------------------------------- hypothesis


def fens(width=10, max_moves=30):
    """Hypothesis strategy for :func:`random_fen` rows (width 8, 10, or None
    for either)."""
    from hypothesis import strategies as st

    def build(rng, w):
        return random_fen(rng, w, max_moves)

    widths = st.sampled_from([8, 10]) if width is None else st.just(width)
    return st.builds(build, st.randoms(use_true_random=False), widths)


def ep_fens(width=10):
    from hypothesis import strategies as st

    return st.builds(random_ep_fen, st.randoms(use_true_random=False), st.just(width))


def castling_fens(width=10):
    from hypothesis import strategies as st

    return st.builds(random_castling_fen, st.randoms(use_true_random=False), st.just(width))


def any_fens(width=10):
    """Rows of all three generators."""
    return fens(width) | ep_fens(width) | castling_fens(width)


def sample(n, seed=0, width=10, kind="game"):
    """A deterministic list of n rows (``kind`` "game", "ep" or
    "castling")."""
    rng = random.Random(seed)
    make = {
        "game": random_fen,
        "ep": random_ep_fen,
        "castling": random_castling_fen,
    }[kind]
    return [make(rng, width) for _ in range(n)]


if __name__ == "__main__":
    for row in sample(5) + sample(5, kind="ep") + sample(5, kind="castling"):
        print(row)
