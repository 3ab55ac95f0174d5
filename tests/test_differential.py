"""fastxfen against python-chess, and against the rule model.

The reference (docs/semantics.md): for 8x8 rows with exactly one king a side
that python-chess reads, fastxfen writes what

    b = chess.Board(fen, chess960=True)
    b.fen(shredder=..., en_passant=...)

writes, once an invalid en-passant target has been dropped (a documented
difference).  Rows come from random games (standard and Chess960 starts,
many right after a double push), crafted back ranks and crafted en-passant
scenes, in varied text forms (Shredder / X-FEN / mixed castling, whitespace,
counters with leading zeros, 4/5/6 fields, line terminators).

What python-chess cannot judge (several kings, any flag order, prefixes,
10-wide boards) is compared with ``strategies.ref_normalize``, a model of
docs/semantics.md that is itself checked against python-chess below.
"""

import random

import chess
import pytest
from hypothesis import given, settings
from models import semantics as model
from support import strategies as S
from support.profiles import examples

import fastxfen

MODE_PARAMS = pytest.mark.parametrize("castling,en_passant", model.MODES, ids=model.MODE_IDS)
# The python-chess comparisons are the tests of docs/semantics.md's REF-PYTHON-CHESS.
REF_MODE_PARAMS = pytest.mark.parametrize(
    "castling,en_passant", model.MODES, ids=[f"REF-PYTHON-CHESS/{m}" for m in model.MODE_IDS]
)


@pytest.fixture(scope="module")
def oracle_table():
    """(rows, {mode: expected outputs}) for the whole python-chess corpus."""
    rows = list(S.oracle_corpus())
    expected = {m: [] for m in model.MODES}
    for row in rows:
        out = S.chess_oracle_all(row)
        for m in model.MODES:
            expected[m].append(out[m])
    return rows, expected


@pytest.mark.slow
def test_corpus_is_meaningful(oracle_table):
    """Guard against a generator that silently degenerates: the corpus must
    be large and must exercise every rule the oracle checks."""
    rows, expected = oracle_table
    assert len(rows) >= 15000
    assert all(S.python_chess_accepts(r) for r in rows[::50])
    fen_ep = sum(e.split()[3] != "-" for e in expected[("xfen", "fen")])
    xfen_ep = sum(e.split()[3] != "-" for e in expected[("xfen", "xfen")])
    legal_ep = sum(e.split()[3] != "-" for e in expected[("xfen", "legal")])
    # every mode keeps some targets, and each stricter mode drops some more
    assert fen_ep > xfen_ep > legal_ep > 500
    assert fen_ep - xfen_ep > 500 and xfen_ep - legal_ep > 300
    # inner-rook rights (file letters in X-FEN) and plain K/Q rights
    xfen_castling = [e.split()[2] for e in expected[("xfen", "fen")]]
    assert sum(any(c in "abcdefghABCDEFGH" for c in f) for f in xfen_castling) > 300
    assert sum(f == "KQkq" for f in xfen_castling) > 500
    # inputs that differ from the output (repair, whitespace, counters, ...)
    changed = sum(r != e for r, e in zip(rows, expected[("xfen", "fen")]))
    assert changed > len(rows) // 3


@pytest.mark.slow
@REF_MODE_PARAMS
def test_bulk_matches_python_chess(oracle_table, castling, en_passant):
    rows, expected = oracle_table
    got = fastxfen.normalize(rows, castling=castling, en_passant=en_passant)
    assert isinstance(got, list) and len(got) == len(rows)
    bad = S.first_mismatches(rows, expected[(castling, en_passant)], got)
    n_bad = sum(e != g for e, g in zip(expected[(castling, en_passant)], got))
    assert not bad, f"{n_bad} of {len(rows)} rows differ:\n" + "\n".join(bad)


@pytest.mark.slow
@REF_MODE_PARAMS
def test_row_by_row_matches_python_chess(oracle_table, castling, en_passant):
    rows, expected = oracle_table
    rng = random.Random(model.MODES.index((castling, en_passant)))
    picks = rng.sample(range(len(rows)), 600)
    for i in picks:
        got = fastxfen.normalize(rows[i], castling=castling, en_passant=en_passant)
        assert got == expected[(castling, en_passant)][i], rows[i]


@REF_MODE_PARAMS
@settings(max_examples=examples(120), deadline=None, derandomize=True)
@given(row=S.oracle_rows())
def test_hypothesis_matches_python_chess(row, castling, en_passant):
    assert S.one_king_each(row)
    expected = S.chess_oracle(row, castling, en_passant)
    assert fastxfen.normalize(row, castling=castling, en_passant=en_passant) == expected
    # the same row inside a list gives the same text
    assert (
        fastxfen.normalize([row, row], castling=castling, en_passant=en_passant) == [expected] * 2
    )


@pytest.mark.slow
def test_rule_model_matches_python_chess(oracle_table):
    """The model used below is only trusted because it agrees with
    python-chess wherever python-chess applies."""
    rows, expected = oracle_table
    for i in range(0, len(rows), 3):
        ours = model.normalize_all(rows[i])
        for m in model.MODES:
            assert ours[m] == expected[m][i], (m, rows[i])


# --------------------------------------------------------------- rule model


@pytest.fixture(scope="module")
def model_table():
    rows = list(S.model_corpus())
    expected = {m: [] for m in model.MODES}
    for row in rows:
        out = model.normalize_all(row)
        for m in model.MODES:
            expected[m].append(out[m])
    return rows, expected


def test_model_corpus_is_meaningful(model_table):
    rows, expected = model_table
    assert all(e is not None for e in expected[("xfen", "fen")])
    kings = [S.kings_per_side(r) for r in rows]
    assert sum(k != (1, 1) for k in kings) > 1000
    assert sum(model.parse(r)["width"] == 10 for r in rows) > 1000
    out = expected[("xfen", "fen")]
    assert sum(o.split()[2][0] in "sm" for o in out) > 200
    assert sum(o.split()[3] != "-" for o in expected[("xfen", "legal")]) > 500


@MODE_PARAMS
def test_bulk_matches_rule_model(model_table, castling, en_passant):
    """Several or no kings, flags in any order, s/m prefixes, 10x8 boards."""
    rows, expected = model_table
    got = fastxfen.normalize(rows, castling=castling, en_passant=en_passant)
    bad = S.first_mismatches(rows, expected[(castling, en_passant)], got)
    n_bad = sum(e != g for e, g in zip(expected[(castling, en_passant)], got))
    assert not bad, f"{n_bad} of {len(rows)} rows differ:\n" + "\n".join(bad)


@MODE_PARAMS
@settings(max_examples=examples(80), deadline=None, derandomize=True)
@given(row=S.model_rows())
def test_hypothesis_matches_rule_model(row, castling, en_passant):
    expected = model.normalize(row, castling, en_passant)
    assert expected is not None
    assert fastxfen.normalize(row, castling=castling, en_passant=en_passant) == expected


# --------------------------------------------------------------- exhaustive scans
#
# Small geometric worlds enumerated completely, judged by the rule model
# (its functions are called directly, without re-reading the text, so that
# hundreds of thousands of rows stay cheap).  They catch what random boards
# hit rarely: board edges, wrap-around from the h/j file to the a file of the
# next rank, every knight jump and every slider ray.


def _flag_sets(width):
    letters = ["K", "Q"] + [c.upper() for c in model.FILES[:width]]
    return [""] + letters + [a + b for a in letters for b in letters if a != b]


def _back_rank_rows(width, configs):
    """Rows for white back ranks ``configs`` (strings, '.' empty) with black
    king e8/f8 and every flag set of one or two white flags, in both colors
    (the black version is the mirror image).  Returns rows and the expected
    castling field per mode."""
    rows, expected = [], {"xfen": [], "shredder": []}
    flag_sets = _flag_sets(width)
    for i, config in enumerate(configs):
        black = i % 2 == 1
        board = {(f, 0): p for f, p in enumerate(config) if p != "."}
        board[(width // 2, 7)] = "k"
        if black:
            board = {(f, 7 - r): p.swapcase() for (f, r), p in board.items()}
        placement = S.Pos(board, width).placement()
        for flags in flag_sets:
            if black:
                flags = flags.lower()
            rows.append(f"{placement} w {flags or '-'} - 0 1")
            pos = {
                "board": board,
                "width": width,
                "prefix": "",
                "rights": model.repair(board, width, flags),
            }
            for c in expected:
                expected[c].append(model.castling_text(pos, c))
    return rows, expected


def _check_castling(rows, expected):
    for castling, exp in expected.items():
        got = [t.split(" ")[2] for t in fastxfen.normalize(rows, castling=castling)]
        bad = S.first_mismatches(rows, exp, got)
        assert not bad, castling + ":\n" + "\n".join(bad)


@pytest.mark.slow
def test_every_back_rank_with_rooks_8():
    """Every king file and every set of rooks on the other seven files, with
    every flag set of up to two flags: 8 * 128 * 101 rows, both colors."""
    configs = []
    for k in range(8):
        others = [f for f in range(8) if f != k]
        for mask in range(128):
            rank = ["."] * 8
            rank[k] = "K"
            for i, f in enumerate(others):
                if mask >> i & 1:
                    rank[f] = "R"
            configs.append("".join(rank))
    _check_castling(*_back_rank_rows(8, configs))


@pytest.mark.parametrize("width", [8, 10])
def test_mixed_back_ranks(width):
    """Random back ranks holding own rooks, enemy rooks, knights, sometimes no
    king or two kings, with every flag set."""
    rng = random.Random(width)
    configs = []
    for _ in range(300 if width == 8 else 200):
        rank = [rng.choice("..RRrN") for _ in range(width)]
        roll = rng.random()
        if roll < 0.85:
            rank[rng.randrange(width)] = "K"
        if roll > 0.95:
            rank[rng.randrange(width)] = "K"
        configs.append("".join(rank))
    _check_castling(*_back_rank_rows(width, configs))


def _ep_scan(width, files, attackers, step=1):
    """White to move, a black pawn just pushed on ``file``, a white capturer
    on one side (or none), the white king on every square and one more piece
    on every square.  Yields (row, expected target for xfen, for legal)."""
    n = 0
    for f in files:
        target = (f, 5)
        for side in (-1, 1, None):
            if side is not None and not 0 <= f + side < width:
                continue
            base = {(f, 4): "p"}
            if side is not None:
                base[(f + side, 4)] = "P"
            squares = [
                (x, y)
                for y in range(8)
                for x in range(width)
                if (x, y) not in base and (x, y) not in ((f, 5), (f, 6))
            ]
            kings = squares if side is not None else [(width - 1, 0)]
            for k in kings:
                for a in attackers:
                    for sq in squares:
                        if sq == k:
                            continue
                        n += 1
                        if n % step:
                            continue
                        board = dict(base)
                        board[k] = "K"
                        board[sq] = a
                        ep = model.square_name(*target)
                        row = f"{S.Pos(board, width).placement()} w - {ep} 0 1"
                        keep = [
                            model.ep_keep(board, width, "w", target, m) for m in ("xfen", "legal")
                        ]
                        yield row, keep


@pytest.mark.slow
@pytest.mark.parametrize(
    "width,files,attackers,step",
    [
        (8, (0, 3, 7), "nbrqkpP", 1),
        (10, (0, 9), "acnqP", 1),
        (10, (4,), "acrbk", 2),
    ],
    ids=["8x8", "10x8-edges", "10x8-middle"],
)
def test_every_single_attacker_en_passant(width, files, attackers, step):
    data = list(_ep_scan(width, files, attackers, step))
    rows = [r for r, _ in data]
    assert len(rows) > 15000
    for i, mode in enumerate(("xfen", "legal")):
        got = [t.split(" ")[3] != "-" for t in fastxfen.normalize(rows, en_passant=mode)]
        exp = [keep[i] for _, keep in data]
        assert sum(exp) > 1000 and sum(not e for e in exp) > 100
        bad = S.first_mismatches(rows, exp, got)
        assert not bad, mode + ":\n" + "\n".join(bad)


# --------------------------------------------------------------- documented differences

PC_ONLY = [
    # (row python-chess reads, why fastxfen refuses it)
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KK - 0 1", "flag repeated"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - +5 1", "sign"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -0 1", "sign"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1_0 1", "underscore"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - \u0663 1", "Unicode digit"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 \uff11", "Unicode digit"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "three fields"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", "two fields"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ~KBNR w KQkq - 0 1", "promoted marker"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\x0bw KQkq - 0 1", "vertical tab"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\u00a00 1", "no-break space"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\n", "two terminators"),
]


@pytest.mark.parametrize("row,why", PC_ONLY, ids=[w for _, w in PC_ONLY])
def test_python_chess_is_more_lenient(row, why):
    """The table of semantics.md: python-chess reads these rows, fastxfen
    refuses them."""
    assert S.python_chess_accepts(row)
    assert fastxfen.validate(row) is not None
    assert model.normalize(row) is None


def test_documented_output_differences():
    # an invalid target: python-chess keeps it in fen mode, fastxfen drops it
    row = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1"
    assert chess.Board(row, chess960=True).fen(en_passant="fen").split()[3] == "e3"
    assert fastxfen.normalize(row, en_passant="fen").split()[3] == "-"
    # two white kings: python-chess still gives white rights, fastxfen none
    row = "r3k2r/8/8/8/8/8/4K3/R3K2R w KQkq - 0 1"
    assert any(c.isupper() for c in chess.Board(row, chess960=True).fen().split()[2])
    assert fastxfen.normalize(row).split()[2] == "kq"
    # flags out of order: python-chess refuses, fastxfen reads
    for flags in ("kK", "KkQq"):
        row = f"r3k2r/8/8/8/8/8/8/R3K2R w {flags} - 0 1"
        assert not S.python_chess_accepts(row)
        assert fastxfen.normalize(row).split()[2] == "".join(sorted(flags, key="KQkq".index))


@pytest.mark.parametrize(
    "fen, castling",
    [
        # a second white king anywhere (here on rank 4, or on the 10x8 board's
        # last squares, past the first 64) takes White's rights away
        ("r3k2r/8/8/8/4K3/8/8/R3K2R w KQkq - 0 1", "kq"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "KQkq"),
        ("r4k3r/10/10/10/10/10/10/R4K3R w KQkq - 0 1", "KQkq"),
        ("r4k3r/9K/10/10/10/10/10/R4K3R w KQkq - 0 1", "kq"),
        ("K3k4r/10/10/10/10/10/10/R4K3R w KQkq - 0 1", "k"),
    ],
)
def test_castling_needs_exactly_one_king_of_the_color(fen, castling):
    # the king search reads the whole board, 8- and 10-wide, in 64-byte blocks
    assert fastxfen.normalize(fen).split()[2] == castling
    assert fastxfen.normalize(fen.encode() + b"\n").split()[2].decode() == castling
