"""Fairy-Stockfish (pyffish) as a second opinion on 10x8 positions.

pyffish normalizes a FEN with ``get_fen(variant, fen, [], chess960)``.  Its
semantics differ from fastxfen's on purpose in a few places, listed (with
reasons) in docs/variants.md; this file asserts agreement only where the two
are meant to agree, and checks both sides of every documented difference:
if a pyffish release changes its side, the check fails until
docs/variants.md (and DIFFERENCES below) say what it does now.  Without
pyffish the file is skipped.
"""

import pytest
from support import gen10x8

import fastxfen as fx

sf = pytest.importorskip("pyffish")

FILES = "abcdefghij"
# pyffish keeps counters in C ints: above these it clamps or resets them.
FSF_MAX_HALFMOVE = 2**31 - 1
FSF_MAX_FULLMOVE = 2**30

ARRAYS = {
    "capablanca": "RNABQKBCNR",
    "gothic": "RNBQCKABNR",
    "embassy": "RNBQKCABNR",
    "janus": "RANBKQBNAR",
}
PREFIX = {"embassy": "m", "janus": "s"}


def to_fsf(fen, variant):
    """pyffish's janus variant writes the janus piece (our archbishop) as J."""
    if variant != "janus":
        return fen
    placement, rest = fen.split(" ", 1)
    return placement.replace("a", "j").replace("A", "J") + " " + rest


def from_fsf(fen, variant):
    if variant != "janus":
        return fen
    placement, rest = fen.split(" ", 1)
    return placement.replace("j", "a").replace("J", "A") + " " + rest


def strip_prefix(fen):
    """pyffish drops the castling prefix; compare the rest."""
    parts = fen.split()
    parts[2] = parts[2].lstrip("sm") or "-"
    return " ".join(parts)


def get_fen(variant, fen, chess960):
    return from_fsf(sf.get_fen(variant, to_fsf(fen, variant), [], chess960), variant)


# ---------------------------------------------------------------- comparable


def parse(fen):
    fields = fen.split()
    ranks = fields[0].split("/")
    squares = []
    for text in reversed(ranks):
        row, number = [], ""
        for ch in text + "/":
            if ch.isdigit():
                number += ch
                continue
            if number:
                row += ["."] * int(number)
                number = ""
            if ch != "/":
                row.append(ch)
        squares.append(row)
    return squares, fields


def comparable(fen):
    """True when pyffish and fastxfen are meant to agree on ``fen``: one
    king per color, counters inside pyffish's range, and a castling field
    in which every K/Q flag finds a rook on its own side of the king and no
    color has two flags for the same side (see docs/variants.md)."""
    rows, fields = parse(fen)
    flat = [p for row in rows for p in row]
    if flat.count("K") != 1 or flat.count("k") != 1:
        return False
    half = int(fields[4]) if len(fields) > 4 else 0
    full = int(fields[5]) if len(fields) > 5 else 1
    if half > FSF_MAX_HALFMOVE or full > FSF_MAX_FULLMOVE:
        return False
    flags = "" if fields[2] == "-" else fields[2].lstrip("sm")
    for upper, back in ((True, 0), (False, 7)):
        rank = rows[back]
        king = "K" if upper else "k"
        rook = "R" if upper else "r"
        if king not in rank:
            continue  # both drop this color's rights
        kf = rank.index(king)
        rooks = [f for f, p in enumerate(rank) if p == rook]
        sides = []
        for flag in flags:
            if flag.isupper() != upper:
                continue
            letter = flag.upper()
            if letter == "K":
                if rooks and not any(f > kf for f in rooks):
                    return False  # pyffish's K search passes the king
                sides.append("h")
            elif letter == "Q":
                if rooks and not any(f < kf for f in rooks):
                    return False
                sides.append("a")
            else:
                sides.append("h" if FILES.index(letter.lower()) > kf else "a")
        if len(sides) != len(set(sides)):
            return False  # pyffish lets the later flag win
    return True


# ---------------------------------------------------------------- start arrays


@pytest.mark.parametrize("variant", sorted(ARRAYS))
def test_start_arrays_match_pyffish(variant):
    array = ARRAYS[variant]
    ours = (
        f"{array.lower()}/pppppppppp/10/10/10/10/PPPPPPPPPP/{array} "
        f"w {PREFIX.get(variant, '')}KQkq - 0 1"
    )
    assert from_fsf(sf.start_fen(variant), variant) == strip_prefix(ours)
    assert get_fen(variant, ours, False) == strip_prefix(fx.normalize(ours))
    assert get_fen(variant, ours, True) == strip_prefix(fx.normalize(ours, castling="shredder"))


def test_caparandom_start_matches_capablanca():
    assert sf.start_fen("caparandom") == sf.start_fen("capablanca")


# ---------------------------------------------------------------- generated


def rows_for_comparison(n_per_kind, seed):
    rows = []
    for offset, kind in enumerate(("game", "ep", "castling")):
        rows += [
            r for r in gen10x8.sample(n_per_kind, seed=seed + offset, kind=kind) if comparable(r)
        ]
    return rows


@pytest.mark.slow
def test_generated_positions_agree_in_shredder_mode():
    """caparandom writes Shredder letters: compare with castling="shredder".
    pyffish keeps pseudo-legal en-passant targets: en_passant="xfen"."""
    rows = rows_for_comparison(500, seed=100)
    assert len(rows) > 700
    ours = fx.normalize(rows, castling="shredder", en_passant="xfen")
    for row, text in zip(rows, ours):
        assert get_fen("caparandom", row, True) == strip_prefix(text), row


@pytest.mark.slow
def test_generated_positions_agree_in_kq_mode():
    """Without chess960 pyffish writes every right as K/Q.  That agrees with
    our xfen output whenever each surviving right is the outermost rook."""
    rows = rows_for_comparison(250, seed=200)
    ours = fx.normalize(rows, castling="xfen", en_passant="xfen")
    compared = 0
    for row, text in zip(rows, ours):
        field = text.split()[2].lstrip("sm")
        if any(ch not in "KQkq-" for ch in field):
            continue  # an inner rook: pyffish writes it as K/Q, lossily
        assert get_fen("capablanca", row, False) == strip_prefix(text), row
        compared += 1
    assert compared > 250


def test_janus_positions_agree():
    rows = []
    import random

    rng = random.Random(4)
    for _ in range(60):
        board = gen10x8.Board.start(ARRAYS["janus"])
        white, target = gen10x8.random_moves(rng, board, True, rng.randrange(12))
        # the janus set has no chancellor: promotions to C become A
        placement = board.placement().replace("C", "A").replace("c", "a")
        side = "w" if white else "b"
        ep = gen10x8.square_name(*target) if target else "-"
        rows.append(f"{placement} {side} sKQkq {ep} 0 1")
    rows = [r for r in rows if comparable(r)]
    ours = fx.normalize(rows, castling="xfen", en_passant="xfen")
    for row, text in zip(rows, ours):
        if any(ch not in "KQkq-" for ch in text.split()[2].lstrip("s")):
            continue
        assert get_fen("janus", row, False) == strip_prefix(text), row


# ---------------------------------------------------------------- differences

# (name, variant, chess960, input, fastxfen output, pyffish output observed)
# fastxfen output uses castling="shredder" when chess960 is True, else "xfen";
# en_passant="legal" for the ep row, "xfen" otherwise.
DIFFERENCES = [
    (
        "K flag without a rook on the king's j side",
        "caparandom",
        True,
        "r4k4/10/10/10/10/10/10/R4K4 w K - 0 1",
        "r4k4/10/10/10/10/10/10/R4K4 w - - 0 1",
        "r4k4/10/10/10/10/10/10/R4K4 w A - 0 1",
    ),
    (
        "two flags for one side: the outermost wins, not the last",
        "caparandom",
        True,
        "5k4/10/10/10/10/10/10/R1R2K4 w QC - 0 1",
        "5k4/10/10/10/10/10/10/R1R2K4 w A - 0 1",
        "5k4/10/10/10/10/10/10/R1R2K4 w C - 0 1",
    ),
    (
        "inner rook without chess960: kept as a file letter",
        "capablanca",
        False,
        "5k4/10/10/10/10/10/10/R1R2K4 w C - 0 1",
        "5k4/10/10/10/10/10/10/R1R2K4 w C - 0 1",
        "5k4/10/10/10/10/10/10/R1R2K4 w Q - 0 1",
    ),
    (
        "castling prefix is kept",
        "embassy",
        False,
        "rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w mKQkq - 0 1",
        "rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w mKQkq - 0 1",
        "rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w KQkq - 0 1",
    ),
    (
        "en passant that exposes the king to an archbishop (legal mode)",
        "capablanca",
        False,
        "9k/6a3/10/3pP5/10/10/1K8/10 w - d6 0 1",
        "9k/6a3/10/3pP5/10/10/1K8/10 w - - 0 1",
        "9k/6a3/10/3pP5/10/10/1K8/10 w - d6 0 1",
    ),
    (
        "halfmove clock above 2**31 - 1",
        "capablanca",
        False,
        "9k/10/10/10/10/10/10/K9 w - - 2147483648 7",
        "9k/10/10/10/10/10/10/K9 w - - 2147483648 7",
        "9k/10/10/10/10/10/10/K9 w - - 2147483647 1",
    ),
    (
        "fullmove number above 2**30",
        "capablanca",
        False,
        "9k/10/10/10/10/10/10/K9 b - - 0 2147483647",
        "9k/10/10/10/10/10/10/K9 b - - 0 2147483647",
        "9k/10/10/10/10/10/10/K9 b - - 0 1",
    ),
]


def ours_for(chess960, fen, legal):
    return fx.normalize(
        fen,
        castling="shredder" if chess960 else "xfen",
        en_passant="legal" if legal else "xfen",
    )


@pytest.mark.parametrize("name, variant, chess960, fen, ours, _theirs", DIFFERENCES)
def test_our_side_of_each_difference(name, variant, chess960, fen, ours, _theirs):
    assert ours_for(chess960, fen, "passant" in name) == ours


def test_pyffish_side_of_each_difference():
    changed = []
    for name, variant, chess960, fen, _ours, theirs in DIFFERENCES:
        got = get_fen(variant, fen, chess960)
        if got != theirs:
            changed.append(f"{name}: {got}")
    assert not changed, "pyffish no longer behaves as docs/variants.md says: " + "; ".join(changed)


def test_janus_letter():
    # pyffish's janus variant writes the janus piece as J; X-FEN (and
    # fastxfen) write it as A, and reject J as a piece.
    assert "j" in sf.start_fen("janus").split()[0]
    with pytest.raises(fx.FenError):
        fx.normalize(sf.start_fen("janus"))


def fsf_castling_model(fen):
    """How pyffish reads castling flags (observed, see docs/variants.md):
    per color with one king on its back rank, flags are taken in the order
    written; K takes the first own rook met walking from the j corner toward
    the a file (past the king if need be), Q the first from the a corner,
    a letter the rook on that file; the rook becomes the right of whichever
    side of the king it stands on, replacing an earlier right of that side.
    Written in Shredder letters, white h side first."""
    rows, fields = parse(fen)
    flags = "" if fields[2] == "-" else fields[2].lstrip("sm")
    out = []
    for upper, back in ((True, 0), (False, 7)):
        rank = rows[back]
        king = "K" if upper else "k"
        rook = "R" if upper else "r"
        flat = [p for row in rows for p in row]
        if flat.count(king) != 1 or king not in rank:
            continue
        kf = rank.index(king)
        rights = {}
        for flag in flags:
            if flag.isupper() != upper:
                continue
            letter = flag.upper()
            if letter == "K":
                found = [f for f in reversed(range(len(rank))) if rank[f] == rook]
            elif letter == "Q":
                found = [f for f in range(len(rank)) if rank[f] == rook]
            else:
                f = FILES.index(letter.lower())
                found = [f] if rank[f] == rook else []
            if found:
                rights["h" if found[0] > kf else "a"] = found[0]
        for side in "ha":
            if side in rights:
                letter = FILES[rights[side]]
                out.append(letter.upper() if upper else letter)
    return "".join(out) or "-"


@pytest.mark.slow
def test_pyffish_castling_model():
    """The description of pyffish's castling reading in docs/variants.md,
    checked on generated positions (one king per color): a mismatch means
    the description is out of date."""
    rows = []
    for kind, seed in (("castling", 300), ("game", 301)):
        for row in gen10x8.sample(300, seed=seed, kind=kind):
            flat = parse(row)[0]
            pieces = [p for r in flat for p in r]
            if pieces.count("K") == 1 and pieces.count("k") == 1:
                rows.append(row)
    mismatches = [
        (row, got)
        for row in rows
        if (got := sf.get_fen("caparandom", row, [], True).split()[2]) != fsf_castling_model(row)
    ]
    assert not mismatches, f"pyffish castling reading changed, e.g. {mismatches[0]}"
