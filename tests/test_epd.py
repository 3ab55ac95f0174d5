"""EPD rows (epd=True): the position fields follow the FEN rules, operations
are written back byte for byte, hmvc / fmvn give the counters."""

import random

import chess
import numpy as np
import pytest

import fastxfen as fx

pa = pytest.importorskip("pyarrow")

OPERATIONS = [
    "",
    'bm Nf3; id "WAC.001";',
    'id "a; quoted; semicolon";   c0 "two  spaces";',
    "hmvc 7; fmvn 31;",
    "fmvn 0012; acd 20; ce -35;",
    'c1 "Caf\u00e9 \u2654";',
]


def _positions(n, seed=5):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        board = (
            chess.Board.from_chess960_pos(rng.randrange(960))
            if rng.random() < 0.3
            else chess.Board()
        )
        board.chess960 = True
        for _ in range(rng.randrange(1, 60)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        out.append(board.epd(shredder=rng.random() < 0.5, en_passant="fen"))
    return out


@pytest.mark.parametrize("castling", ["xfen", "shredder"])
@pytest.mark.parametrize("en_passant", ["fen", "xfen", "legal"])
def test_position_fields_match_python_chess_and_operations_are_kept(castling, en_passant):
    rng = random.Random(11)
    positions = _positions(400)
    rows = []
    for epd in positions:
        ops = rng.choice(OPERATIONS)
        rows.append(f"{epd} {ops}" if ops else epd)
    got = fx.normalize(rows, castling=castling, en_passant=en_passant, epd=True)
    for row, epd, out in zip(rows, positions, got):
        board = chess.Board(None, chess960=True)
        board.set_epd(epd)
        head = board.epd(shredder=castling == "shredder", en_passant=en_passant)
        ops = row[len(epd) :].strip()
        assert out == (f"{head} {ops}" if ops else head)
    # the buffer and Arrow kernels give the same rows
    buffer = "\n".join(rows).encode()
    assert fx.normalize(buffer, castling=castling, en_passant=en_passant, epd=True) == (
        "\n".join(got).encode()
    )
    column = fx.normalize(pa.array(rows), castling=castling, en_passant=en_passant, epd=True)
    assert column.to_pylist() == got


def test_counters_come_from_hmvc_and_fmvn():
    rows = [
        "4k3/8/8/8/8/8/4P3/4K3 w - - hmvc 7; fmvn 31;",
        "4k3/8/8/8/8/8/4P3/4K3 b - - fmvn 0;",
        "4k3/8/8/8/8/8/4P3/4K3 b - - bm Kd2;",
    ]
    for kind in (list, lambda r: np.array(r), lambda r: "\n".join(r).encode()):
        records = fx.encode(kind(rows), epd=True)
        assert records["halfmove"].tolist() == [7, 0, 0]
        assert records["fullmove"].tolist() == [31, 1, 1]
    board = chess.Board(None)
    ops = board.set_epd(rows[0])
    assert (board.halfmove_clock, board.fullmove_number) == (7, 31) and "bm" not in ops


@pytest.mark.parametrize(
    "row, column, field",
    [
        ("4k3/8/8/8/8/8/4P3/4K3 w - - bm e4", 28, "operations"),
        ('4k3/8/8/8/8/8/4P3/4K3 w - - id "open;', 28, "operations"),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - hmvc x;", 33, "halfmove"),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - fmvn ;", 33, "fullmove"),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - hmvc 99999999999;", 42, "halfmove"),
        ("4k3/8/8/8/8/8/4P3/4K3 w -", 25, "fields"),
        ("4k3/8/8/8/8/8/4P3/4K3 x - - bm e4;", 22, "side"),
    ],
)
def test_malformed_rows(row, column, field):
    with pytest.raises(fx.FenError) as info:
        fx.normalize([row], epd=True)
    assert (info.value.index, info.value.column, info.value.field) == (0, column, field)
    assert fx.validate(row, epd=True) == f"{info.value.location}: {info.value.reason}"


def test_error_modes_keep_rows():
    rows = ["4k3/8/8/8/8/8/4P3/4K3 w - - bm e4;", "bad", "4k3/8/8/8/8/8/4P3/4K3 w - -"]
    assert fx.normalize(rows, epd=True, errors="coerce") == [rows[0], None, rows[2]]
    assert fx.normalize(rows, epd=True, errors="ignore") == rows
    text = fx.normalize("\r\n".join(rows).encode() + b"\r\n", epd=True, errors="coerce")
    assert text == f"{rows[0]}\r\n\r\n{rows[2]}\r\n".encode()


def test_unicode_operations_survive_numpy_and_buffers():
    row = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 c0 "\u00e9l\u00e8ve";'
    expected = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - c0 "\u00e9l\u00e8ve";'
    assert fx.normalize(row, epd=True) == expected
    assert fx.normalize(np.array([row]), epd=True).tolist() == [expected]
    assert fx.normalize(row.encode(), epd=True) == expected.encode()
    # as FEN the same row is rejected: non-ASCII text is never a FEN field
    assert fx.validate(row) is not None


# ---------------------------------------------------------------- opcodes

KEY = "4k3/8/8/8/8/8/4P3/4K3 w - -"


@pytest.mark.parametrize(
    "ops, offset, reason",
    [
        # counters written before the operations: the 0 is where it fails
        (
            "0 41 bm e4;",
            0,
            "EPD opcode must start with a letter, not a digit "
            "(counters go in hmvc/fmvn operations)",
        ),
        ("bm e4; 12 c0;", 7, "EPD opcode must start with a letter, not a digit"),
        ("_x 1;", 0, "EPD opcode must start with a letter, not character '_'"),
        ('"id" x;', 0, "EPD opcode must start with a letter, not character '\"'"),
        ("bm e4; ;", 7, "EPD operation without an opcode"),
        ("- ;", 0, "EPD opcode must start with a letter, not character '-'"),
        ("b-m e4;", 1, "EPD opcode holds letters, digits and '_' only, not character '-'"),
        ("bm+ e4;", 2, "EPD opcode holds letters, digits and '_' only, not character '+'"),
        # (a str row names the character, a bytes row the byte)
        ("c\u00e9 x;", 1, "EPD opcode holds letters, digits and '_' only, not "),
    ],
)
def test_opcode_is_a_letter_then_letters_digits_underscores(ops, offset, reason):
    row = f"{KEY} {ops}"
    column = len(KEY) + 1 + offset
    kinds = [
        [row],
        np.array([row], dtype=object),
        pa.array([row]),
        (row + "\n").encode(),
    ]
    if row.isascii():
        kinds.append(np.array([row.encode()]))
    for fens in kinds:
        with pytest.raises(fx.FenError) as info:
            fx.normalize(fens, epd=True)
        assert (info.value.index, info.value.column, info.value.field) == (
            0,
            column if not isinstance(fens, bytes) else len(row[:column].encode()),
            "operations",
        )
        assert info.value.reason.startswith(reason)
    with pytest.raises(fx.FenError):
        fx.encode([row], epd=True)
    assert fx.validate(row, epd=True).startswith(f"column {column} (operations): {reason}")


def test_counters_before_operations_are_never_lost():
    row = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 41 bm Ng5;"
    with pytest.raises(ValueError, match="opcode to start with a letter"):
        chess.Board().set_epd(row)
    assert fx.normalize([row], epd=True, errors="coerce") == [None]
    assert fx.encode([row], epd=True, errors="coerce")["width"].tolist() == [0]
    # read as FEN, the row has too many fields
    assert fx.validate(row).startswith(f"column {row.index('bm')} (fields)")
    # written the EPD way, the counters are kept
    fixed = row.replace(" 0 41 bm Ng5;", " hmvc 0; fmvn 41; bm Ng5;")
    record = fx.encode([fixed], epd=True)
    assert (record["halfmove"][0], record["fullmove"][0]) == (0, 41)


@pytest.mark.parametrize(
    "ops", ['c_0 "x";', 'A1 "x";', "bm e4; am Kd1;", "z;", "acd 20 ;", "ce -35;"]
)
def test_opcodes_python_chess_accepts_are_accepted(ops):
    row = f"{KEY} {ops}"
    chess.Board().set_epd(row)
    assert fx.normalize(row, epd=True) == row
