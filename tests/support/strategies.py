"""Position generators and the python-chess oracle for the fastxfen test suite.

* generators of FEN rows, each driven by a ``random.Random`` (or by the
  ``random.Random`` that hypothesis hands out, so that failures shrink):
  random games played with python-chess, crafted back ranks for the castling
  rules, crafted en-passant scenes, and a re-writer that varies the text form
  (castling notation, whitespace, counters, line terminators);
* :func:`chess_oracle`, python-chess as docs/semantics.md names it (the rule
  model itself is ``models.semantics``);
* hypothesis strategies wrapping the generators, and deterministic corpora
  (cached per test session) built from fixed seeds.

Nothing here imports fastxfen.
"""

import functools
import random

import chess
from hypothesis import strategies as st
from models.semantics import FILES, MAX_COUNTER, MODES, square_name

from support.gen10x8 import placement_text

# ============================================================== positions
#
# A crafted position is a dict {(file, rank): piece letter} (file 0 = a,
# rank 0 = rank 1) plus the text of the other fields.


class Pos:
    def __init__(self, pieces, width=8, turn="w", castling="-", ep="-", halfmove=0, fullmove=1):
        self.pieces = dict(pieces)
        self.width = width
        self.turn = turn
        self.castling = castling
        self.ep = ep
        self.halfmove = halfmove
        self.fullmove = fullmove

    def placement(self):
        return placement_text(self.width, lambda f, r: self.pieces.get((f, r)))

    def fen(self):
        return (
            f"{self.placement()} {self.turn} {self.castling} {self.ep} "
            f"{self.halfmove} {self.fullmove}"
        )

    def mirrored(self):
        """Colors swapped and the board flipped vertically."""
        pieces = {(f, 7 - r): p.swapcase() for (f, r), p in self.pieces.items()}
        ep = self.ep
        if ep != "-":
            ep = ep[0] + str(9 - int(ep[1:]))
        castling = self.castling
        if castling != "-":
            prefix = castling[0] if castling[0] in "sm" else ""
            flags = castling[len(prefix) :].swapcase()
            # keep white flags first, as python-chess wants them
            flags = "".join(c for c in flags if c.isupper()) + "".join(
                c for c in flags if c.islower()
            )
            castling = prefix + flags
        return Pos(
            pieces,
            self.width,
            "b" if self.turn == "w" else "w",
            castling,
            ep,
            self.halfmove,
            self.fullmove,
        )


def kings_per_side(fen):
    placement = fen.split()[0]
    return placement.count("K"), placement.count("k")


def one_king_each(fen):
    return kings_per_side(fen) == (1, 1)


# ============================================================== text forms


def castling_variants(rng, pieces, width, rights):
    """Castling field texts for the rights ``rights`` (a list of
    (is_white, rook file)) of a board, in the forms python-chess can read:
    white flags before black ones, at most two flags a color.

    Returns one text, chosen among: Shredder letters, X-FEN, a mix of K/Q and
    letters, flags shuffled within a color, redundant flags (``K`` and ``H``
    naming one rook) and flags naming squares without a rook."""
    per_color = {True: [], False: []}
    for white, f in rights:
        per_color[white].append(f)
    style = rng.choice(["shredder", "xfen", "mixed", "mixed", "noisy"])
    out = []
    for white in (True, False):
        back = 0 if white else 7
        king = "K" if white else "k"
        rook = "R" if white else "r"
        rooks = sorted(f for f in range(width) if pieces.get((f, back)) == rook)
        kfs = [f for (f, r), p in pieces.items() if p == king and r == back]
        kf = kfs[0] if len(kfs) == 1 else None
        flags = []
        for f in sorted(per_color[white], reverse=True):
            letter = FILES[f]
            kq = None
            if kf is not None:
                if f > kf and not any(r > f for r in rooks):
                    kq = "k"
                elif f < kf and not any(r < f for r in rooks):
                    kq = "q"
            if style == "shredder" or kq is None:
                ch = letter
            elif style == "xfen":
                ch = kq
            else:
                ch = rng.choice([letter, kq])
            flags.append(ch)
        if style == "noisy":
            # add a flag naming a random square (often without a rook) or a
            # second name for a rook that is already named
            extra = rng.choice(["k", "q"] + list(FILES[:width]))
            if extra not in flags and len(flags) < 2:
                flags.append(extra)
        if style != "xfen" and style != "shredder":
            rng.shuffle(flags)
        out.extend(c.upper() if white else c for c in flags)
    return "".join(out) or "-"


def random_flags(rng, width, pieces, allow_any_order=False):
    """Random castling flags with preference for squares holding rooks.
    ``allow_any_order`` also produces black flags before white ones (which
    fastxfen accepts and python-chess does not)."""
    per = []
    for white in (True, False):
        back = 0 if white else 7
        rook = "R" if white else "r"
        cands = ["k", "q", "k", "q"]
        cands += [FILES[f] for f in range(width) if pieces.get((f, back), "").lower() == "r"] * 2
        cands += [FILES[rng.randrange(width)]]
        del rook
        n = rng.choice([0, 1, 1, 2, 2, 2])
        flags = []
        for _ in range(n):
            c = rng.choice(cands)
            if c not in flags:
                flags.append(c)
        per.append([c.upper() for c in flags] if white else flags)
    flags = per[0] + per[1]
    if allow_any_order:
        rng.shuffle(flags)
    return "".join(flags) or "-"


SEPARATORS = [" ", " ", " ", "  ", "\t", " \t", "\t\t ", "   "]


def render(rng, placement, turn, castling, ep, halfmove, fullmove, fancy=True):
    """Join the fields of a row, with (when ``fancy``) random separators,
    surrounding whitespace, counters with leading zeros, 4/5/6 fields and a
    trailing line terminator.  Everything produced is valid input for both
    fastxfen and python-chess."""
    if not fancy:
        return f"{placement} {turn} {castling} {ep} {halfmove} {fullmove}"
    fields = [placement, turn, castling, ep]
    nfields = rng.choice([6, 6, 6, 6, 5, 4])
    if nfields >= 5:
        h = str(halfmove)
        if rng.random() < 0.15:
            h = "0" * rng.randrange(1, 4) + h
        fields.append(h)
    if nfields == 6:
        f = str(fullmove)
        if rng.random() < 0.15:
            f = "0" * rng.randrange(1, 4) + f
        fields.append(f)
    row = fields[0]
    plain = rng.random() < 0.5
    for f in fields[1:]:
        row += (" " if plain else rng.choice(SEPARATORS)) + f
    if rng.random() < 0.2:
        row = rng.choice([" ", "\t", "  ", " \t"]) + row
    if rng.random() < 0.2:
        row = row + rng.choice([" ", "\t", "  ", "\t "])
    if rng.random() < 0.2:
        row = row + rng.choice(["\n", "\r\n"])
    return row


def random_counters(rng, halfmove=None, fullmove=None):
    roll = rng.random()
    if roll < 0.05:
        return MAX_COUNTER, MAX_COUNTER
    if roll < 0.1:
        return rng.randrange(MAX_COUNTER + 1), rng.choice([0, 0, 1, 2**31, MAX_COUNTER])
    if halfmove is None:
        halfmove = rng.choice([0, 0, 1, 3, 50, 99, 100, rng.randrange(1000)])
    if fullmove is None:
        fullmove = rng.choice([1, 1, 2, 17, 60, 0, rng.randrange(1, 1000)])
    return halfmove, fullmove


# ============================================================== random games


def _double_pushes(board, moves):
    return [
        m
        for m in moves
        if board.piece_type_at(m.from_square) == chess.PAWN
        and abs(m.to_square - m.from_square) == 16
    ]


def game_positions(rng, max_plies=80, chess960=None, fancy=True, every=1):
    """Rows taken along one random game (python-chess legal moves), from the
    standard start or a random Chess960 start.  Double pawn pushes are
    preferred, so many rows come right after one and carry its target.

    Castling is re-written in a random form (X-FEN, Shredder, mixed, shuffled
    within a color, redundant); a few rows get a wrong en-passant square."""
    if chess960 is None:
        chess960 = rng.random() < 0.5
    if chess960:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
    else:
        board = chess.Board(chess960=True)
    rows = []
    plies = rng.randrange(1, max_plies + 1)
    for ply in range(plies):
        moves = list(board.legal_moves)
        if not moves:
            break
        doubles = _double_pushes(board, moves)
        if doubles and rng.random() < 0.4:
            move = rng.choice(doubles)
        else:
            move = rng.choice(moves)
        board.push(move)
        if ply % every and board.ep_square is None:
            continue
        rows.append(_row_from_board(rng, board, fancy))
    return rows


def _row_from_board(rng, board, fancy):
    pieces = {
        (chess.square_file(s), chess.square_rank(s)): p.symbol()
        for s, p in board.piece_map().items()
    }
    rights = [
        (bool(chess.BB_SQUARES[s] & chess.BB_RANK_1), chess.square_file(s))
        for s in chess.scan_forward(board.castling_rights)
    ]
    if rng.random() < 0.1:
        castling = random_flags(rng, 8, pieces)
    else:
        castling = castling_variants(rng, pieces, 8, rights)
    if board.ep_square is not None:
        ep = chess.square_name(board.ep_square)
    else:
        ep = "-"
    roll = rng.random()
    if roll < 0.05:
        ep = square_name(rng.randrange(8), rng.randrange(8))
    elif roll < 0.1:
        ep = square_name(rng.randrange(8), rng.choice([2, 5]))
    if rng.random() < 0.85:
        half, full = board.halfmove_clock, board.fullmove_number
    else:
        half, full = random_counters(rng)
    turn = "w" if board.turn else "b"
    return render(rng, board.board_fen(), turn, castling, ep, half, full, fancy)


# ============================================================== crafted boards


def _free_squares(pieces, width, ranks=range(8), exclude=()):
    return [
        (f, r)
        for r in ranks
        for f in range(width)
        if (f, r) not in pieces and (f, r) not in exclude
    ]


def _pieces_for(width):
    return "PNBRQ" + ("AC" if width == 10 else "")


def scatter(rng, pieces, width, n, exclude=(), letters=None, ranks=range(8)):
    letters = letters or (_pieces_for(width) + _pieces_for(width).lower())
    for _ in range(n):
        free = _free_squares(pieces, width, ranks, exclude)
        if not free:
            return
        pieces[rng.choice(free)] = rng.choice(letters)


def crafted_castling(rng, width=8, kings="one", any_order=False, prefix=False):
    """A board built around the castling rules: kings usually on their back
    rank (sometimes off it), zero to four rooks of the king's color on the
    back rank (several on one side of the king), enemy rooks and other pieces
    there too, and random flags: K/Q, rook files (inner and outer rooks) and
    files without a rook.

    ``kings``: "one" (one king a side), or "any" (sometimes none or two of a
    color).  ``any_order`` lets black flags come first; ``prefix`` adds s/m
    prefixes now and then."""
    pieces = {}
    for white in (True, False):
        back = 0 if white else 7
        k, r = ("K", "R") if white else ("k", "r")
        if rng.random() < 0.85:
            pieces[(rng.randrange(width), back)] = k
        else:
            free = _free_squares(pieces, width, range(1, 7))
            pieces[rng.choice(free)] = k
        for _ in range(rng.choice([0, 1, 2, 2, 3, 3, 4])):
            free = _free_squares(pieces, width, [back])
            if free:
                pieces[rng.choice(free)] = r
        if rng.random() < 0.25:
            free = _free_squares(pieces, width, [back])
            if free:
                pieces[rng.choice(free)] = r.swapcase()
        if rng.random() < 0.4:
            letters = "NBQ" + ("AC" if width == 10 else "")
            scatter(
                rng,
                pieces,
                width,
                rng.randrange(1, 3),
                letters=letters + letters.lower(),
                ranks=[back],
            )
    if kings == "any":
        roll = rng.random()
        if roll < 0.2:
            scatter(
                rng,
                pieces,
                width,
                1,
                letters=rng.choice(["K", "k"]),
                ranks=rng.choice([[0], [7], range(8)]),
            )
        elif roll < 0.3:
            gone = rng.choice(["K", "k"])
            for sq in [s for s, p in pieces.items() if p == gone]:
                del pieces[sq]
    scatter(rng, pieces, width, rng.randrange(0, 10), ranks=range(1, 7))
    castling = random_flags(rng, width, pieces, allow_any_order=any_order)
    if prefix and castling != "-" and rng.random() < 0.3:
        castling = rng.choice("sm") + castling
    pos = Pos(pieces, width, rng.choice("wb"), castling)
    if rng.random() < 0.5:
        pos = pos.mirrored()
    return pos


EP_SCENES = [
    "random",
    "rank_pin",
    "rank_pin",
    "diag_pin",
    "file_pin",
    "pushed_diag",
    "knight_check",
    "slider_check",
    "pawn_check",
    "rank6_check",
    "king_next",
]


def crafted_ep(rng, width=8, kings="one", scene=None):
    """An en-passant scene, built with white to move (a black pawn has just
    gone from rank 7 to rank 5) and mirrored half of the time.

    Scenes: capturers on none/one/both sides; the white king pinned with a
    capturer along a diagonal or a file; the rank pin where both pawns leave
    the 5th rank (king and an enemy rook/queen on it); the king on a diagonal
    through the pushed pawn (removing that pawn opens the line); the king in
    check by a knight, by a slider (which the capture may block on rank 6)
    or by the pushed pawn itself.  A quarter of the scenes get an invalid
    target instead: wrong rank, no pushed pawn, occupied origin or target.

    ``kings``: "one" or "any" (sometimes no king or two kings of a color)."""
    P = {}
    f = rng.randrange(width)
    pushed, target, origin = (f, 4), (f, 5), (f, 6)
    P[pushed] = "p"
    capturers = []
    for df in (-1, 1):
        if 0 <= f + df < width and rng.random() < 0.65:
            P[(f + df, 4)] = "P"
            capturers.append((f + df, 4))
    reserved = {target, origin}
    scene = scene or rng.choice(EP_SCENES)
    sliders_r = "rq" + ("c" if width == 10 else "")
    sliders_b = "bq" + ("a" if width == 10 else "")

    def ok(sq):
        return 0 <= sq[0] < width and 0 <= sq[1] < 8 and sq not in P and sq not in reserved

    def put(sq, piece):
        if ok(sq):
            P[sq] = piece
            return True
        return False

    def random_sq(ranks=range(8)):
        free = _free_squares(P, width, ranks, reserved)
        return rng.choice(free)

    def line(start, d, n):
        return [(start[0] + d[0] * i, start[1] + d[1] * i) for i in range(1, n)]

    king_sq = None
    if scene == "rank_pin":
        kf = rng.randrange(width)
        if put((kf, 4), "K"):
            king_sq = (kf, 4)
            step = 1 if kf < f else -1
            far = [sq for sq in line((kf, 4), (step, 0), width) if ok(sq)]
            if far:
                put(rng.choice(far), rng.choice(sliders_r))
    elif scene in ("diag_pin", "file_pin") and capturers:
        c = rng.choice(capturers)
        if scene == "diag_pin":
            d = rng.choice([(1, 1), (1, -1), (-1, 1), (-1, -1)])
            attacker = rng.choice(sliders_b)
        else:
            d = (0, rng.choice([1, -1]))
            attacker = rng.choice(sliders_r)
        back = [sq for sq in line(c, (-d[0], -d[1]), 8) if ok(sq)]
        ahead = [sq for sq in line(c, d, 8) if ok(sq)]
        if back and ahead:
            king_sq = rng.choice(back)
            put(king_sq, "K")
            put(rng.choice(ahead), attacker)
    elif scene == "pushed_diag":
        d = rng.choice([(1, 1), (1, -1), (-1, 1), (-1, -1)])
        back = [sq for sq in line(pushed, (-d[0], -d[1]), 8) if ok(sq)]
        ahead = [sq for sq in line(pushed, d, 8) if ok(sq)]
        if back and ahead:
            king_sq = rng.choice(back)
            put(king_sq, "K")
            put(rng.choice(ahead), rng.choice(sliders_b))
    elif scene == "pawn_check":
        for sq in rng.sample([(f - 1, 3), (f + 1, 3)], 2):
            if put(sq, "K"):
                king_sq = sq
                break
    elif scene == "rank6_check":
        kf = rng.randrange(width)
        if put((kf, 5), "K"):
            king_sq = (kf, 5)
            step = 1 if kf < f else -1
            far = [
                sq for sq in line((kf, 5), (step, 0), width) if ok(sq) and (sq[0] - f) * step > 0
            ]
            if far:
                put(rng.choice(far), rng.choice(sliders_r))
    elif scene == "king_next":
        sq = (f + rng.choice([-2, 2]), 4)
        if put(sq, "K"):
            king_sq = sq
            far = [s for s in line(sq, (1 if sq[0] < f else -1, 0), width) if ok(s)]
            if far and rng.random() < 0.7:
                put(rng.choice(far), rng.choice(sliders_r))
    if king_sq is None:
        king_sq = random_sq()
        put(king_sq, "K")
    if scene == "knight_check":
        jumps = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
        rng.shuffle(jumps)
        for dx, dy in jumps:
            if put(
                (king_sq[0] + dx, king_sq[1] + dy), rng.choice("n" + ("ac" if width == 10 else ""))
            ):
                break
    elif scene == "slider_check":
        d = rng.choice([(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (1, -1), (-1, 1)])
        ahead = [sq for sq in line(king_sq, d, 8) if ok(sq)]
        if ahead:
            piece = rng.choice(sliders_r if 0 in d else sliders_b)
            put(rng.choice(ahead), piece)
    # the other king
    put(random_sq(), "k")
    scatter(rng, P, width, rng.randrange(0, 6), exclude=reserved)
    if kings == "any":
        roll = rng.random()
        if roll < 0.2:
            put(random_sq(), rng.choice("Kk"))
        elif roll < 0.35:
            gone = rng.choice("Kk")
            for sq in [s for s, p in P.items() if p == gone]:
                del P[sq]
    ep = square_name(*target)
    if rng.random() < 0.25:
        bad = rng.choice(["rank", "origin", "target", "no_pawn", "white_pawn", "file"])
        if bad == "rank":
            ep = square_name(f, rng.choice([0, 1, 2, 3, 4, 6, 7]))
        elif bad == "origin":
            P[origin] = rng.choice("pPnNbr")
        elif bad == "target":
            P[target] = rng.choice("pPnNbr")
        elif bad == "no_pawn":
            del P[pushed]
        elif bad == "white_pawn":
            P[pushed] = rng.choice("PNq")
        else:
            ep = square_name((f + rng.randrange(1, width)) % width, 5)
    castling = "-"
    if rng.random() < 0.15:
        castling = random_flags(rng, width, P)
    half, full = random_counters(rng)
    pos = Pos(P, width, "w", castling, ep, half, full)
    if rng.random() < 0.5:
        pos = pos.mirrored()
    return pos


def crafted_row(rng, pos, fancy=True):
    return render(
        rng, pos.placement(), pos.turn, pos.castling, pos.ep, pos.halfmove, pos.fullmove, fancy
    )


# ============================================================== oracles


def chess_oracle(fen, castling, en_passant, board=None):
    """What python-chess writes, with the documented difference that an
    invalid en-passant target is dropped in every mode."""
    b = board if board is not None else chess_board(fen)
    return b.fen(shredder=(castling == "shredder"), en_passant=en_passant)


def chess_board(fen):
    b = chess.Board(fen, chess960=True)
    if b.ep_square is not None and b._valid_ep_square() is None:
        b.ep_square = None
    return b


def chess_oracle_all(fen):
    """{(castling, en_passant): text} for every mode."""
    b = chess_board(fen)
    return {m: chess_oracle(fen, *m, board=b) for m in MODES}


def first_mismatches(inputs, expected, got, limit=5):
    """A readable list of the first rows where two output lists differ."""
    assert len(expected) == len(got), (len(expected), len(got))
    out = []
    for i, (row, e, g) in enumerate(zip(inputs, expected, got)):
        if e != g:
            out.append(f"row {i}: input {row!r}\n  expected {e!r}\n  got      {g!r}")
            if len(out) >= limit:
                break
    return out


def game_fens(games=70, seed=2024, max_plies=110):
    """FENs of every position of `games` random games (a third from Chess960
    starts), written with every en-passant target and, for half of the
    Chess960 games, Shredder castling letters."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        if g % 3 == 2:
            board = chess.Board.from_chess960_pos(rng.randrange(960))
            shredder = rng.random() < 0.5
        else:
            board = chess.Board(chess960=True)
            shredder = False
        for _ in range(rng.randint(10, max_plies)):
            out.append(board.fen(shredder=shredder, en_passant="fen"))
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(moves[rng.randrange(len(moves))])
        out.append(board.fen(shredder=shredder, en_passant="fen"))
    return out


# ============================================================== corpora


def python_chess_accepts(row):
    try:
        chess.Board(row, chess960=True)
    except ValueError:
        return False
    return True


@functools.lru_cache(maxsize=None)
def game_corpus(seed=1, n_games=300, max_plies=90):
    """Rows from random games, deterministic for a seed."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n_games):
        rows.extend(game_positions(rng, max_plies=max_plies))
    return tuple(rows)


@functools.lru_cache(maxsize=None)
def castling_corpus(seed=2, n=3000, width=8, kings="one", any_order=False, prefix=False):
    rng = random.Random(seed)
    return tuple(
        crafted_row(rng, crafted_castling(rng, width, kings, any_order, prefix)) for _ in range(n)
    )


@functools.lru_cache(maxsize=None)
def ep_corpus(seed=3, n=4000, width=8, kings="one"):
    rng = random.Random(seed)
    return tuple(crafted_row(rng, crafted_ep(rng, width, kings)) for _ in range(n))


def oracle_corpus():
    """All rows that python-chess can judge: it reads them and they have one
    king a side."""
    rows = game_corpus() + castling_corpus() + ep_corpus()
    return tuple(r for r in rows if one_king_each(r))


@functools.lru_cache(maxsize=None)
def model_corpus():
    """Rows only the rule model can judge: several or no kings, flags in any
    order, s/m prefixes, 10-wide boards (and some 8x8 rows python-chess could
    judge too)."""
    rows = castling_corpus(seed=11, n=2500, kings="any", any_order=True, prefix=True)
    rows += castling_corpus(seed=12, n=2000, width=10, kings="any", any_order=True, prefix=True)
    rows += ep_corpus(seed=13, n=2500, kings="any")
    rows += ep_corpus(seed=14, n=2500, width=10, kings="any")
    return rows


@functools.lru_cache(maxsize=None)
def mutation_corpus(seed=4, n=6000):
    """Valid rows with one random edit each: a character inserted, deleted,
    replaced or a field duplicated, most of them making the row invalid."""
    rng = random.Random(seed)
    base = list(game_corpus()[:1500]) + list(
        castling_corpus(seed=5, n=500, kings="any", any_order=True, prefix=True)
    )
    base += list(ep_corpus(seed=6, n=300, width=10, kings="any"))
    alphabet = (
        "pnbrqkacPNBRQKAC0123456789/-wbsmxyzijJI .\t\r\n~+_\x00\x7f\u00e9\u0663\uff11\u00a0\u2003"
    )
    out = []
    for _ in range(n):
        row = rng.choice(base)
        kind = rng.random()
        i = rng.randrange(len(row) + 1)
        if kind < 0.35:
            row = row[:i] + rng.choice(alphabet) + row[i:]
        elif kind < 0.6 and row:
            i = min(i, len(row) - 1)
            row = row[:i] + row[i + 1 :]
        elif kind < 0.85 and row:
            i = min(i, len(row) - 1)
            row = row[:i] + rng.choice(alphabet) + row[i + 1 :]
        else:
            parts = row.split(" ")
            j = rng.randrange(len(parts))
            parts.insert(j, parts[j])
            row = " ".join(parts)
        out.append(row)
    return tuple(out)


# ============================================================== hypothesis

_randoms = st.randoms(use_true_random=False)


@st.composite
def game_rows(draw, max_plies=60):
    rng = draw(_randoms)
    rows = game_positions(rng, max_plies=max_plies)
    return draw(st.sampled_from(rows))


@st.composite
def castling_rows(draw, width=8, kings="one", any_order=False, prefix=False):
    rng = draw(_randoms)
    return crafted_row(rng, crafted_castling(rng, width, kings, any_order, prefix))


@st.composite
def ep_rows(draw, width=8, kings="one"):
    rng = draw(_randoms)
    return crafted_row(rng, crafted_ep(rng, width, kings))


def oracle_rows():
    """Rows python-chess reads, one king a side."""
    return st.one_of(game_rows(), castling_rows(), ep_rows())


def model_rows():
    """Rows for the rule model: any king count, any flag order, prefixes,
    8 and 10 files."""
    return st.one_of(
        game_rows(),
        castling_rows(kings="any", any_order=True, prefix=True),
        castling_rows(width=10, kings="any", any_order=True, prefix=True),
        ep_rows(kings="any"),
        ep_rows(width=10, kings="any"),
    )
