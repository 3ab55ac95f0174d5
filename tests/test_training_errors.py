"""Bad training data: every kind of damage the readers detect is a
TrainingDataError naming file, block, chain, ply and byte offset (and
field), never a crash or a short read; errors="coerce" leaves out exactly
what cannot be read and goes on.  Writers refuse what a format cannot hold."""

import io
import random

import chess
import pyarrow as pa
import pytest
from models import training as model

import fastxfen.training as ft

COLUMNS = ("fen", "move", "score", "ply", "result", "chain")


def head(fen, move, score=0, ply=0, result=0, rule50=0, count=0):
    """A chain head; `move` UCI text (castling as the king taking its rook)
    or 16 bits as they are."""
    board = model.board_of(fen)
    if isinstance(move, str):
        move = model.head_move(chess.Move.from_uci(move), board)
    return (
        model.pack_position(board)
        + move.to_bytes(2, "big")
        + model.fold(score).to_bytes(2, "big")
        + (ply | model.fold(result) << 14).to_bytes(2, "big")
        + rule50.to_bytes(2, "big")
        + count.to_bytes(2, "big")
    )


def block(*parts):
    body = b"".join(parts)
    return b"BINP" + len(body).to_bytes(4, "little") + body


def good_chain():
    entries = model.game(chess.STARTING_FEN, 6, random.Random(3), result=1)
    table = pa.table(model.columns(entries))
    out = io.BytesIO()
    ft.write(out, table, format="binpack")
    return out.getvalue()[8:], entries


def fails(data, fmt="binpack", **where):
    with pytest.raises(ft.TrainingDataError) as info:
        ft.read(io.BytesIO(data), format=fmt, columns=COLUMNS)
    error = info.value
    for key, value in where.items():
        assert getattr(error, key) == value, (key, error)
    assert isinstance(error, ValueError) and error.format == fmt
    return error


# A position with three white pieces after black's move: white's piece
# index takes 2 bits, the a1 rook has 10 destinations (4 bits).
ROOKS = "3rk3/8/8/8/8/8/8/R3K2R b KQ - 0 1"


def test_container_damage():
    chain, _ = good_chain()
    data = block(chain)
    e = fails(b"BINX" + data[4:], code="magic", field="block", block=0, offset=0)
    assert "BINP" in e.reason
    e = fails(data[:5], block=0, offset=0)
    assert "5 bytes into a block header" in e.reason
    e = fails(data[:-3], block=0)
    assert f"ends {len(chain) - 3} bytes into a block of {len(chain)}" in e.reason
    big = b"BINP" + (100 * 2**20 + 1).to_bytes(4, "little")
    assert "above" in fails(data + big, block=1, offset=len(data)).reason
    e = fails(block(chain + b"\0" * 20), code="chain_head", block=0, chain=1)
    assert e.offset == 8 + len(chain) and "20 bytes left" in e.reason


def test_move_text_damage():
    stem = head(ROOKS, "e8f8", score=10, ply=40, count=1)
    fails(block(stem), code="runs_off", field="move", chain=0, ply=41, offset=8 + 34)
    e = fails(block(stem + b"\xc0\x00"), code="piece_index", offset=42)
    assert e.reason == "piece index 3, the side to move has 3 pieces"
    e = fails(block(stem + b"\x3c\x00"), code="move_index")
    assert e.reason == "destination index 15, the piece has 10"
    e = fails(block(stem + b"\x40\x00"), code="illegal", ply=41)  # Kd1, on the rook's file
    assert e.reason == "move e1d1 is not legal in its position"
    fails(block(stem + b"\x03\xff\xff\xf0"), code="score_code", field="score")
    lying = head(ROOKS, "e8f8", count=900)
    with pytest.raises(ft.TrainingDataError):  # a count that lies runs off the block
        ft.read(io.BytesIO(block(lying + b"\x00" * 40)), format="binpack")


def test_head_damage():
    start = chess.STARTING_FEN
    fails(block(head(start, "e2e5")), code="illegal", chain=0, ply=0, offset=8)
    fails(block(head(start, 0)), code="null_move")
    assert "0x0c71" in fails(block(head(start, 12 << 8 | 28 << 2 | 1)), code="move_bits").reason
    fails(block(head(start, "e2e4", ply=5)[:28] + b"\xc0\x05" + b"\0" * 4), code="result_bits")
    two_kings = head("4k3/8/8/8/8/8/8/4K2K w - - 0 1", "e1e2")
    assert fails(block(two_kings), code="kings").reason.startswith("2 white and 1 black")
    bad = bytearray(head("4k3/8/8/8/8/8/8/4K2R w - - 0 1", "e1e2"))
    bad[8] = (bad[8] & 0xF0) | 13  # a castling rook on e1's square... on e1 itself
    assert "cannot stand on e1" in fails(block(bytes(bad)), code="nibble").reason


def test_coerce_leaves_out_the_rest_of_a_chain_and_goes_on():
    chain, entries = good_chain()
    broken = head(ROOKS, "e8f8", count=2) + b"\x40\x00\x00"  # illegal ply, then one more
    data = block(chain + broken + chain)
    reader = ft.batches(io.BytesIO(data), format="binpack", columns=COLUMNS, errors="coerce")
    got = pa.Table.from_batches(list(reader))
    assert got.num_rows == 2 * len(entries) + 1  # the broken chain's head only
    assert got.column("chain").to_pylist() == [0] * 6 + [1] + [2] * 6
    assert [(e.code, e.chain, e.entry) for e in reader.errors] == [("illegal", 1, 7)]
    truncated = block(chain + head(ROOKS, "e8f8", count=1)) + block(chain)
    reader = ft.batches(io.BytesIO(truncated), format="binpack", errors="coerce")
    assert sum(b.num_rows for b in reader) == 2 * len(entries) + 1
    assert [e.code for e in reader.errors] == ["runs_off"]


def test_random_damage_never_crashes():
    chain, _ = good_chain()
    bin_data = io.BytesIO()
    entries = model.game(chess.STARTING_FEN, 30, random.Random(4))
    ft.write(
        bin_data,
        pa.table(model.columns(entries)),
        format="bin",
    )
    rng = random.Random(25)
    for fmt, data in (("binpack", block(chain + chain)), ("bin", bin_data.getvalue())):
        for _ in range(300):
            damaged = bytearray(data)
            for _ in range(rng.randint(1, 4)):
                damaged[rng.randrange(len(damaged))] = rng.randrange(256)
            if rng.random() < 0.2:
                damaged = damaged[: rng.randrange(len(damaged))]
            reader = ft.batches(
                io.BytesIO(bytes(damaged)), format=fmt, columns=COLUMNS, errors="coerce"
            )
            for batch in reader:
                assert batch.num_rows <= 2 * len(entries)
            assert all(isinstance(e, ft.TrainingDataError) for e in reader.errors)


def test_bin_damage():
    entries = model.game(chess.STARTING_FEN, 3, random.Random(5))
    data = model.write_bin(entries)
    e = fails(data + b"\0" * 7, "bin", code="truncated", offset=len(data))
    assert "7 bytes into a 40-byte record" in e.reason
    illegal = bytearray(data)
    illegal[34:36] = (12 << 6 | 36).to_bytes(2, "little")  # e2e5
    fails(bytes(illegal), "bin", code="illegal", entry=0, offset=0)
    assert fails(b"\0" * 40, "bin", code="kings").reason == "the two kings on one square"
    reader = ft.batches(io.BytesIO(bytes(illegal)), format="bin", errors="coerce", columns=COLUMNS)
    assert sum(b.num_rows for b in reader) == len(entries) - 1
    assert reader.errors[0].entry == 0


@pytest.mark.parametrize(
    "text, code, line",
    [
        ("fen 8/8 w\nmove e2e4\nscore 0\nply 0\nresult 0\ne\n", "fen", 1),
        ("fen {s}\nmove e2e5\nscore 0\nply 0\nresult 0\ne\n", "illegal", 2),
        ("fen {s}\nmove e2\nscore 0\nply 0\nresult 0\ne\n", "uci", 2),
        ("fen {s}\nmove e2e4\nscore x\nply 0\nresult 0\ne\n", "number", 3),
        ("fen {s}\nmove e2e4\nscore 40000\nply 0\nresult 0\ne\n", "range", 3),
        ("fen {s}\nmove e2e4\nply 0\nresult 0\ne\n", "missing", 1),
        ("fen {s}\nmove e2e4\nmove e2e4\nscore 0\nply 0\nresult 0\ne\n", "repeat", 3),
        ("fen {s}\nmove e2e4\nwhat 0\nscore 0\nply 0\nresult 0\ne\n", "key", 3),
        ("fen {s}\nmove e2e4\nscore 0\nply 0\nresult 0\ne x\n", "line", 6),
        ("fen {s}\nmove e2e4\nscore 0\nply 0\nresult 0\n", "missing", 1),
    ],
)
def test_plain_damage(text, code, line):
    data = text.format(s=chess.STARTING_FEN).encode()
    e = fails(data, "plain", code=code, line=line, entry=0)
    good = model.write_plain(model.game(chess.STARTING_FEN, 2, random.Random(6)))
    reader = ft.batches(
        io.BytesIO(good.encode() + data + good.encode()), format="plain", errors="coerce"
    )
    assert sum(b.num_rows for b in reader) == 4
    assert [x.code for x in reader.errors] == [code] and reader.errors[0].entry == 2
    assert e.offset is not None


def write_fails(rows, fmt, **where):
    with pytest.raises(ft.TrainingDataError) as info:
        ft.write(io.BytesIO(), pa.table(rows), format=fmt)
    for key, value in where.items():
        assert getattr(info.value, key) == value, (key, info.value)
    return info.value


def rows(fen=chess.STARTING_FEN, move="e2e4", score=0, ply=0, result=0):
    return {
        "fen": [chess.STARTING_FEN, fen],
        "move": ["e2e4", move],
        "score": [0, score],
        "ply": [0, ply],
        "result": [0, result],
    }


@pytest.mark.parametrize("fmt", ["binpack", "bin", "plain"])
def test_writers_refuse_bad_rows(fmt):
    assert write_fails(rows(move="e2e5"), fmt, code="illegal", entry=1, field="move")
    write_fails(rows(move="zz"), fmt, code="uci")
    write_fails(rows(score=40000), fmt, code="range", field="score")
    write_fails(rows(fen="8/8 w - -"), fmt, code="fen", field="position")
    write_fails({**rows(), "move": ["e2e4", None]}, fmt, code="missing", field="move")
    table = pa.table(rows(move="e2e5"))
    writer = ft.Writer(io.BytesIO(), format=fmt, errors="coerce")
    assert writer.write(pa.concat_tables([table, table])) == 2
    assert [e.entry for e in writer.errors] == [1, 3]


def test_what_only_some_formats_hold():
    inner = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"
    assert "castling right" in write_fails(rows(fen=inner), "binpack", code="store").reason
    write_fails(rows(ply=16384), "binpack", code="range", field="ply")
    e = write_fails(rows(result=2), "binpack", code="range", field="result")
    assert e.reason == "result 2 is outside -1..1"
    late = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 128 1"
    write_fails(rows(fen=late), "bin", code="range", field="rule50")
    for fmt in ("plain",):  # .plain holds them all
        out = io.BytesIO()
        ft.write(out, pa.table(rows(fen=inner, move="b1a1", ply=20000, result=2)), format=fmt)
        back = ft.read(io.BytesIO(out.getvalue()), format=fmt)
        assert back.column("fen").to_pylist()[1] == inner.replace("GBgb", "KQkq")
