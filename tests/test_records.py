"""Position records: the layout of docs/records.md, encode, decode and what
decode refuses.  Expected bytes are worked out from records.md and from the
rule model (strategies.ref_record), never read back from fastxfen."""

import random

import numpy as np
import pytest
from conftest import CAPABLANCA, START, START_FEN
from models import semantics as model
from support import strategies as S

import fastxfen as fx

FIELDS = ["board", "width", "turn", "prefix", "ep", "castling", "halfmove", "fullmove"]


# --------------------------------------------------------------- layout


@pytest.mark.parametrize(
    "dtype,squares", [(fx.POSITION_DTYPE, 64), (fx.POSITION_DTYPE_10x8, 80)], ids=["8x8", "10x8"]
)
def test_dtype_layout(dtype, squares):
    assert isinstance(dtype, np.dtype)
    assert list(dtype.names) == FIELDS
    expected = {
        "board": (np.dtype((np.uint8, (squares,))), 0),
        "width": (np.dtype(np.uint8), squares),
        "turn": (np.dtype(np.uint8), squares + 1),
        "prefix": (np.dtype(np.uint8), squares + 2),
        "ep": (np.dtype(np.uint8), squares + 3),
        "castling": (np.dtype((np.uint8, (4,))), squares + 4),
        "halfmove": (np.dtype("<u4"), squares + 8),
        "fullmove": (np.dtype("<u4"), squares + 12),
    }
    for name, (typ, offset) in expected.items():
        got_type, got_offset = dtype.fields[name][:2]
        assert got_type == typ, name
        assert got_offset == offset, name
    assert dtype.itemsize == squares + 16
    assert dtype.itemsize == (80 if squares == 64 else 96)
    # little-endian counters whatever the machine
    assert dtype.fields["halfmove"][0].str == "<u4"


def test_piece_code_table():
    table = dict(zip("PNBRQKpnbrqk", range(1, 13)))
    table.update({"A": 13, "C": 14, "a": 15, "c": 16})
    assert fx.PIECE_CODES == table


def test_start_position_bytes():
    recs = fx.encode(START_FEN)
    assert recs.dtype == fx.POSITION_DTYPE and recs.shape == (1,)
    r = recs[0]
    back = [4, 2, 3, 5, 6, 3, 2, 4]  # R N B Q K B N R
    expected = back + [1] * 8 + [0] * 32 + [7] * 8 + [c + 6 for c in back]
    assert r["board"].tolist() == expected
    assert (int(r["width"]), int(r["turn"]), int(r["prefix"]), int(r["ep"])) == (8, 0, 0, 255)
    assert r["castling"].tolist() == [7, 0, 7, 0]
    assert (int(r["halfmove"]), int(r["fullmove"])) == (0, 1)
    # square index rank * 8 + file: e1 = 4 holds the white king, e8 = 60 the black one
    assert r["board"][4] == 6 and r["board"][60] == 12
    assert recs["board"].reshape(-1, 8, 8)[0, 0, 4] == 6
    assert recs["board"].reshape(-1, 8, 8)[0, 7, 3] == 11


def test_start_position_bytes_10x8():
    recs = fx.encode(START_FEN, width=10)
    assert recs.dtype == fx.POSITION_DTYPE_10x8
    r = recs[0]
    assert int(r["width"]) == 8
    # an 8-wide record keeps index rank * 8 + file and zeros past 64
    assert r["board"][:64].tolist() == fx.encode(START_FEN)[0]["board"].tolist()
    assert r["board"][64:].tolist() == [0] * 16
    cap = fx.encode(CAPABLANCA + " w KQkq - 0 1", width=10)[0]
    assert int(cap["width"]) == 10
    back = [4, 2, 13, 3, 5, 6, 3, 14, 2, 4]  # R N A B Q K B C N R
    assert cap["board"][:10].tolist() == back
    assert cap["board"][10:20].tolist() == [1] * 10
    assert cap["board"][20:60].tolist() == [0] * 40
    assert cap["board"][60:70].tolist() == [7] * 10
    assert cap["board"][70:80].tolist() == [
        {4: 10, 2: 8, 13: 15, 3: 9, 5: 11, 6: 12, 14: 16}[c] for c in back
    ]
    assert cap["castling"].tolist() == [9, 0, 9, 0]


def test_en_passant_index():
    e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    assert int(fx.encode(e4)["ep"][0]) == 2 * 8 + 4
    assert int(fx.encode(e4, width=10)["ep"][0]) == 2 * 8 + 4
    cap_e4 = "rnabqkbcnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNABQKBCNR b KQkq e3 0 1"
    assert int(fx.encode(cap_e4, width=10)["ep"][0]) == 2 * 10 + 4
    # j6 on 10 files: 5 * 10 + 9
    j6 = "5k4/10/10/8Pp/10/10/10/5K4 w - j6 0 1"
    assert int(fx.encode(j6, width=10)["ep"][0]) == 59
    # every valid target is stored, even one no pawn can take (fen mode)
    lone = "4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1"
    assert int(fx.encode(lone)["ep"][0]) == 5 * 8 + 3
    # an invalid target is not stored
    assert int(fx.encode(START + " w KQkq e3 0 1")["ep"][0]) == 255


def test_castling_files_after_repair():
    # rooks a1, c1, king e1, rook h1; flags name c1 and h1
    recs = fx.encode(
        [
            "4k3/8/8/8/8/8/8/R1R1K2R w CK - 0 1",
            "1r2k1rr/8/8/8/8/8/8/4K3 b gq - 0 1",
            "4k3/8/8/8/8/8/8/4K3 w sKQkq - 0 1",
            START + " b mKQkq - 7 9",
        ]
    )
    assert recs["castling"].tolist() == [
        [7, 2, 255, 255],
        [255, 255, 6, 1],
        [255] * 4,
        [7, 0, 7, 0],
    ]
    assert recs["prefix"][3] == 2
    assert recs["turn"].tolist() == [0, 1, 0, 1]
    assert recs["halfmove"].tolist()[3] == 7 and recs["fullmove"].tolist()[3] == 9


def test_counters_full_range():
    recs = fx.encode(START + " w KQkq - 4294967295 4294967295")
    assert int(recs["halfmove"][0]) == 4294967295 and int(recs["fullmove"][0]) == 4294967295
    recs = fx.encode(START + " w KQkq - 0 0")
    assert int(recs["fullmove"][0]) == 1
    raw = recs.tobytes()
    assert raw[72:76] == (0).to_bytes(4, "little") and raw[76:80] == (1).to_bytes(4, "little")
    recs = fx.encode(START + " w KQkq - 258 65536")
    raw = recs.tobytes()
    assert raw[72:76] == (258).to_bytes(4, "little")
    assert raw[76:80] == (65536).to_bytes(4, "little")


@pytest.mark.parametrize("width", [8, 10])
def test_records_match_rule_model(width):
    """Every field of every record, against docs/records.md applied by the
    model, on game rows, crafted castling and en-passant rows."""
    rows = list(S.game_corpus()[:3000]) + list(
        S.castling_corpus(seed=21, n=1500, kings="any", any_order=True, prefix=True)
    )
    rows += list(S.ep_corpus(seed=22, n=1500, kings="any"))
    if width == 10:
        rows += list(S.model_corpus()[-3000:])
    recs = fx.encode(rows, width=width)
    assert recs.dtype == (fx.POSITION_DTYPE if width == 8 else fx.POSITION_DTYPE_10x8)
    assert len(recs) == len(rows)
    squares = 64 if width == 8 else 80
    for i, row in enumerate(rows):
        exp = model.record(row, squares)
        r = recs[i]
        assert r["board"].tolist() == exp["board"], row
        assert int(r["width"]) == exp["width"], row
        assert int(r["turn"]) == exp["turn"], row
        assert int(r["ep"]) == exp["ep"], row
        assert r["castling"].tolist() == exp["castling"], row
        assert int(r["halfmove"]) == exp["halfmove"], row
        assert int(r["fullmove"]) == exp["fullmove"], row
        if exp["has_rights"]:
            assert int(r["prefix"]) == exp["prefix"], row
        else:
            assert int(r["prefix"]) in (0, exp["prefix"]), row


# --------------------------------------------------------------- views


def test_views_share_memory():
    rows = [START_FEN, "4k3/8/8/8/8/8/8/4K3 b - - 3 40"] * 5
    recs = fx.encode(rows)
    for name in FIELDS:
        assert np.shares_memory(recs[name], recs), name
    assert recs["board"].shape == (10, 64) and recs["board"].dtype == np.uint8
    assert recs["castling"].shape == (10, 4)
    boards = recs["board"].reshape(-1, 8, 8)
    assert np.shares_memory(boards, recs)
    assert boards[:, 0, 4].tolist() == [6] * 10  # white king on e1
    assert boards[1, 7, 4] == 12
    # writing through a view changes the record decode reads
    boards[0, 3, 3] = 5  # a white queen on d4
    assert fx.decode(recs[:1])[0] == "rnbqkbnr/pppppppp/8/8/3Q4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    wide = fx.encode(rows, width=10)
    assert wide["board"].shape == (10, 80)
    assert np.shares_memory(wide["board"], wide)


def test_width_8_rejects_a_10_wide_row():
    rows = [START_FEN, CAPABLANCA + " w KQkq - 0 1"]
    with pytest.raises(fx.FenError) as info:
        fx.encode(rows)
    assert (info.value.index, info.value.field) == (1, "placement")
    # the placement as a whole does not fit: the column is its first character
    assert info.value.column == 0
    with pytest.raises(fx.FenError) as info:
        fx.encode([START_FEN, START_FEN, " \t" + CAPABLANCA + " b - - 0 1"])
    assert (info.value.index, info.value.column, info.value.field) == (2, 2, "placement")
    recs = fx.encode(rows, errors="coerce")
    assert recs.dtype == fx.POSITION_DTYPE
    assert recs[1].tobytes() == bytes(80)
    assert int(recs["width"][0]) == 8
    # nothing is cut: the 10x8 dtype takes it
    assert fx.decode(fx.encode(rows, width=10)) == fx.normalize(rows)


def test_encode_options():
    with pytest.raises(ValueError):
        fx.encode(START_FEN, width=9)
    with pytest.raises(ValueError):
        fx.encode(START_FEN, errors="ignore")
    with pytest.raises(ValueError):
        fx.decode(fx.encode(START_FEN), errors="ignore")
    empty = fx.encode([])
    assert empty.dtype == fx.POSITION_DTYPE and empty.shape == (0,)
    assert fx.decode(empty) == []
    assert fx.encode([], width=10).dtype == fx.POSITION_DTYPE_10x8


# --------------------------------------------------------------- decode


def _one(row=START_FEN, width=8):
    return fx.encode(row, width=width).copy()


CORRUPT = [
    # (description, width of dtype, mutation, field, column)
    ("piece-17", 8, lambda r: r["board"].__setitem__((0, 5), 17), "record.board", 5),
    ("piece-13-on-8", 8, lambda r: r["board"].__setitem__((0, 20), 13), "record.board", 20),
    ("piece-16-on-8", 8, lambda r: r["board"].__setitem__((0, 63), 16), "record.board", 63),
    ("piece-255", 8, lambda r: r["board"].__setitem__((0, 0), 255), "record.board", 0),
    ("piece-17-on-10", 10, lambda r: r["board"].__setitem__((0, 33), 17), "record.board", 33),
    ("past-board", 10, lambda r: r["board"].__setitem__((0, 70), 1), "record.board", 70),
    ("past-board-last", 10, lambda r: r["board"].__setitem__((0, 79), 12), "record.board", 79),
    ("width-7", 8, lambda r: r["width"].__setitem__(0, 7), "record.width", 0),
    ("width-0", 8, lambda r: r["width"].__setitem__(0, 0), "record.width", 0),
    ("width-10-in-8x8", 8, lambda r: r["width"].__setitem__(0, 10), "record.width", 0),
    ("width-9", 10, lambda r: r["width"].__setitem__(0, 9), "record.width", 0),
    ("turn-2", 8, lambda r: r["turn"].__setitem__(0, 2), "record.turn", 0),
    ("turn-255", 10, lambda r: r["turn"].__setitem__(0, 255), "record.turn", 0),
    ("prefix-3", 8, lambda r: r["prefix"].__setitem__(0, 3), "record.prefix", 0),
    ("ep-64", 8, lambda r: r["ep"].__setitem__(0, 64), "record.ep", 0),
    ("ep-64-in-10x8", 10, lambda r: r["ep"].__setitem__(0, 64), "record.ep", 0),
    ("ep-254", 8, lambda r: r["ep"].__setitem__(0, 254), "record.ep", 0),
    ("castling-9-slot-2", 8, lambda r: r["castling"].__setitem__((0, 2), 9), "record.castling", 2),
    ("castling-8-slot-0", 8, lambda r: r["castling"].__setitem__((0, 0), 8), "record.castling", 0),
    (
        "castling-8-slot-3-in-10x8",
        10,
        lambda r: r["castling"].__setitem__((0, 3), 8),
        "record.castling",
        3,
    ),
    ("fullmove-0", 8, lambda r: r["fullmove"].__setitem__(0, 0), "record.fullmove", 0),
]


@pytest.mark.parametrize("desc,width,mutate,field,column", CORRUPT, ids=[c[0] for c in CORRUPT])
def test_decode_refuses_corrupt_records(desc, width, mutate, field, column):
    good = fx.encode([START_FEN, START_FEN, START_FEN], width=width)
    bad = _one(width=width)
    mutate(bad)
    recs = np.concatenate([good[:2], bad, good[2:]])
    for castling, ep in model.MODES:
        with pytest.raises(fx.FenError) as info:
            fx.decode(recs, castling=castling, en_passant=ep)
        assert (info.value.index, info.value.column, info.value.field) == (2, column, field)
        out = fx.decode(recs, castling=castling, en_passant=ep, errors="coerce")
        assert out[2] is None
        assert out[:2] + out[3:] == [model.normalize(START_FEN, castling, ep)] * 3


def test_decode_accepts_edge_values():
    # width 10 in the 10x8 dtype with every square code 0..16 somewhere
    rec = _one(CAPABLANCA + " w KQkq - 0 1", width=10)
    rec["board"][0, 40:57] = np.arange(17)
    text = fx.decode(rec)[0]
    assert model.normalize(text) == text
    # rank 5 is squares 40..49, rank 6 squares 50..59
    assert text.split()[0].split("/")[3] == "1PNBRQKpnb"
    assert text.split()[0].split("/")[2] == "rqkACac3"
    # the largest counters, an ep square at the last board square (not a valid
    # target: dropped), castling file j on 10 files (no rook: dropped)
    rec = _one(CAPABLANCA + " w KQkq - 0 1", width=10)
    rec["halfmove"] = 4294967295
    rec["fullmove"] = 4294967295
    rec["ep"] = 79
    rec["castling"][0, 2] = 8  # black h-side right on i8: a knight
    assert fx.decode(rec)[0] == CAPABLANCA + " w KQq - 4294967295 4294967295"


def test_decode_repairs_like_normalize():
    rec = _one()
    rec["castling"][0] = [6, 1, 255, 255]  # g1 and b1 hold knights
    assert fx.decode(rec)[0] == START + " w - - 0 1"
    rec["prefix"] = 1
    assert fx.decode(rec)[0] == START + " w - - 0 1"  # no right: no prefix
    rec["castling"][0] = [7, 0, 7, 0]
    assert fx.decode(rec)[0] == START + " w sKQkq - 0 1"
    assert fx.decode(rec, castling="shredder")[0] == START + " w sHAha - 0 1"
    rec["prefix"] = 2
    rec["castling"][0] = [0, 7, 255, 255]  # slots swapped: a1 is on the a side
    assert fx.decode(rec)[0] == START + " w mKQ - 0 1"
    # en passant: an index that is no valid target is dropped in every mode
    rec = _one()
    rec["ep"] = 20  # e3 with white to move
    assert fx.decode(rec, en_passant="fen")[0] == START_FEN
    e4 = fx.encode("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").copy()
    e4["ep"] = 20
    assert (
        fx.decode(e4, en_passant="fen")[0]
        == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    )
    assert (
        fx.decode(e4, en_passant="xfen")[0]
        == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    )


def test_decode_strided_and_sliced():
    rows = list(S.game_corpus()[:400])
    recs = fx.encode(rows)
    assert fx.decode(recs[::3]) == fx.normalize(rows[::3])
    assert fx.decode(recs[::-1]) == fx.normalize(rows[::-1])
    assert fx.decode(recs[5:9]) == fx.normalize(rows[5:9])
    # a record array embedded in a larger structure
    outer = np.zeros(len(rows), dtype=[("id", "<i8"), ("rec", fx.POSITION_DTYPE)])
    outer["rec"] = recs
    assert fx.decode(outer["rec"]) == fx.normalize(rows)


def test_decode_rejects_foreign_arrays():
    for bad in (
        np.zeros(3, dtype=np.uint8),
        np.zeros((2, 80), dtype=np.uint8),
        np.zeros(2, dtype=[("board", "u1", (64,))]),
    ):
        with pytest.raises((TypeError, ValueError)):
            fx.decode(bad)


# --------------------------------------------------------------- bit flips


@pytest.mark.parametrize("width", [8, 10])
def test_random_byte_corruption_never_gives_garbage(width):
    """Overwrite random bytes of valid records: decode either refuses the row
    or writes canonical text, text the model accepts, that normalize leaves
    unchanged, and that holds the record's board, side and counters."""
    rng = random.Random(77 + width)
    rows = list(S.game_corpus()[:600]) + list(S.ep_corpus(seed=31, n=400))
    if width == 10:
        rows += list(S.model_corpus()[-600:])
    recs = fx.encode(rows, width=width)
    raw = bytearray(recs.tobytes())
    size = recs.dtype.itemsize
    for i in range(len(recs)):
        for _ in range(rng.choice([1, 1, 2, 3])):
            pos = i * size + rng.randrange(size)
            if rng.random() < 0.5:
                raw[pos] = rng.randrange(256)
            else:
                raw[pos] ^= 1 << rng.randrange(8)
    bad = np.frombuffer(bytes(raw), dtype=recs.dtype)
    refused = 0
    for castling, ep in model.MODES:
        out = fx.decode(bad, castling=castling, en_passant=ep, errors="coerce")
        assert len(out) == len(bad)
        texts = [t for t in out if t is not None]
        refused += len(out) - len(texts)
        assert fx.normalize(texts, castling=castling, en_passant=ep) == texts
        for t in texts:
            assert model.normalize(t, castling, ep) == t, t
        back = fx.encode([t if t is not None else START_FEN for t in out], width=width)
        for i, t in enumerate(out):
            if t is None:
                continue
            w = int(bad["width"][i])
            n = 8 * w
            assert back["board"][i, :n].tolist() == bad["board"][i, :n].tolist()
            for name in ("width", "turn", "halfmove", "fullmove"):
                assert back[name][i] == bad[name][i], (name, t)
    assert 0 < refused < 6 * len(bad)
