"""fastxfen.unique and Deduper: first occurrences against a Python reference
(a dict of normalized text), forced key collisions, chunk boundaries, and
bad and missing rows under each errors mode."""

import functools
import random

import chess
import numpy as np
import pyarrow as pa
import pytest

import fastxfen as fx
from fastxfen import _keys
from fastxfen._options import KeyOptions

START = chess.STARTING_FEN


def spellings(board, rng):
    """One position as text written several ways: en passant after every
    double push or only when capturable, X-FEN or Shredder castling, any
    counters."""
    fen = board.shredder_fen if rng.random() < 0.5 else board.fen
    text = fen(en_passant=rng.choice(["fen", "legal", "xfen"]))
    fields = text.split()
    fields[4], fields[5] = str(rng.randrange(3)), str(rng.randrange(1, 4))
    return " ".join(fields)


@functools.lru_cache(maxsize=None)
def corpus(n, seed):
    """Positions of short random games from a few starts: many repeats
    (transpositions, shared openings), each written several ways."""
    rng = random.Random(seed)
    starts = [chess.Board(chess960=True)]
    for k in (0, 518, 959):
        starts.append(chess.Board.from_chess960_pos(k))
        starts[-1].chess960 = True
    fens = []
    while len(fens) < n:
        board = rng.choice(starts).copy()
        for _ in range(rng.randrange(1, 8)):
            board.push(rng.choice(sorted(board.legal_moves, key=str)[:3]))
            fens.append(spellings(board, rng))
    return tuple(fens[:n])


def reference(fens, counters=False, en_passant="xfen"):
    """Indices of first occurrences by normalized text."""
    seen, first = set(), []
    for i, fen in enumerate(fens):
        if fen is None or fx.validate(fen) is not None:
            continue
        text = fx.normalize(fen, en_passant=en_passant)
        key = text if counters else " ".join(text.split()[:4])
        if key not in seen:
            seen.add(key)
            first.append(i)
    return first


@pytest.mark.parametrize("en_passant", ["xfen", "fen", "legal"])
@pytest.mark.parametrize("counters", [False, True])
def test_against_reference(counters, en_passant):
    fens = list(corpus(3_000, seed=5))
    got = fx.unique(fens, counters=counters, en_passant=en_passant)
    assert got.dtype == np.int64
    expected = reference(fens, counters, en_passant)
    assert got.tolist() == expected
    assert len(expected) < len(fens) * (0.9 if counters else 0.5)  # the corpus repeats


def test_en_passant_modes_differ_where_they_should():
    # black's d-pawn has no capturer; then one that is pinned to its king
    plain = "4k3/8/8/8/3P4/8/8/4K3 b - d3 0 1"
    pinned = "8/8/8/8/k2Pp2R/8/8/4K3 b - d3 0 1"
    rows = [plain, plain.replace("d3", "-"), pinned, pinned.replace("d3", "-")]
    assert fx.unique(rows, en_passant="fen").tolist() == [0, 1, 2, 3]
    assert fx.unique(rows).tolist() == [0, 2, 3]
    assert fx.unique(rows, en_passant="legal").tolist() == [0, 2]


def with_key_mask(mask, **options):
    """A Deduper whose keys are cut to the bits of mask, so that different
    positions share keys and only the byte comparison tells them apart."""
    dedupe = fx.Deduper(**options)
    dedupe._table = _keys.Table(KeyOptions(options.get("counters", False)), key_mask=mask)
    return dedupe


@pytest.mark.parametrize("mask", [0, 1, 0xFF])
def test_key_collisions_never_merge_positions(mask):
    fens = list(corpus(1_500, seed=6))
    for counters in (False, True):
        dedupe = with_key_mask(mask, counters=counters)
        got = np.flatnonzero(dedupe.add(fens)).tolist()
        assert got == reference(fens, counters)
        assert dedupe.distinct == len(got)


def test_collisions_across_widths():
    # with every key equal, an 8-wide and a 10-wide board whose packed
    # bytes start alike must still differ
    rows = ["8/8/8/8/8/8/8/K6k w - - 0 1", "10/10/10/10/10/10/10/K8k w - - 0 1"] * 2
    dedupe = with_key_mask(0)
    assert dedupe.add(rows).tolist() == [True, True, False, False]


def test_chunks_give_the_same_mask():
    fens = list(corpus(4_000, seed=7))
    whole = fx.Deduper().add(fens)
    rng = random.Random(8)
    dedupe, parts, at = fx.Deduper(), [], 0
    while at < len(fens):
        size = rng.choice([1, 7, 100, 999])
        parts.append(dedupe.add(fens[at : at + size]))
        at += size
    assert np.concatenate(parts).tolist() == whole.tolist()
    assert dedupe.rows == len(fens) and dedupe.distinct == int(whole.sum())
    assert dedupe.nbytes >= dedupe.distinct * 40


def test_input_kinds():
    fens = list(corpus(300, seed=9))
    expected = reference(fens)
    assert fx.unique(np.array(fens)).tolist() == expected
    assert fx.unique(pa.array(fens)).tolist() == expected
    assert fx.unique(("\n".join(fens) + "\n").encode()).tolist() == expected
    assert fx.unique(iter(fens)).tolist() == expected
    assert fx.unique(fx.encode(fens)).tolist() == expected
    assert fx.unique(fx.encode(fens, width=10)).tolist() == expected
    assert fx.unique(np.array(fens).reshape(20, 15)).tolist() == expected  # flat indices
    assert fx.unique([]).tolist() == []
    assert fx.Deduper().add(START).tolist() == [True]


def test_10x8_positions():
    capablanca = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
    rows = [capablanca, capablanca.replace("KQkq", "JAja"), START, capablanca[:-3] + "4 7"]
    rows += [capablanca.replace("KQkq", "sKQkq"), capablanca.replace(" w ", " b ")]
    assert fx.unique(rows).tolist() == [0, 2, 4, 5]
    assert fx.unique(rows, counters=True).tolist() == [0, 2, 3, 4, 5]


def test_bad_and_missing_rows():
    bad = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"
    rows = [START, None, bad, START, "8/8/8/8/8/8/8/K6k w - - 0 1"]
    with pytest.raises(fx.FenError) as info:
        fx.unique(rows)
    assert info.value.index == 2
    assert fx.unique(rows, errors="coerce").tolist() == [0, 4]
    assert fx.unique([None, START, None]).tolist() == [1]
    assert fx.unique(pa.array([None, START, START])).tolist() == [1]


def test_bad_rows_in_a_stream_are_numbered_from_the_first_row():
    dedupe = fx.Deduper()
    assert dedupe.add([START, START]).tolist() == [True, False]
    recs = fx.encode([START, "8/8/8/8/8/8/8/K6k w - - 0 1"])
    recs["fullmove"][1] = 0
    with pytest.raises(fx.FenError) as info:
        dedupe.add(recs)
    assert (info.value.index, info.value.field) == (3, "record.fullmove")
    assert dedupe.add(recs, errors="coerce").tolist() == [False, False]
    null = np.zeros(2, fx.POSITION_DTYPE)
    assert dedupe.add(null).tolist() == [False, False]


def test_options_are_checked():
    with pytest.raises(ValueError, match="en_passant"):
        fx.Deduper(en_passant="some")
    with pytest.raises(ValueError, match="errors"):
        fx.unique([START], errors="ignore")


def test_text_is_read_in_chunks(monkeypatch):
    from fastxfen import keys

    monkeypatch.setattr(keys, "CHUNK_ROWS", 7)
    fens = list(corpus(300, seed=9))
    expected = reference(fens)
    for rows in (fens, np.array(fens), pa.array(fens), pa.chunked_array([fens[:50], fens[50:]])):
        assert fx.unique(rows).tolist() == expected
    assert fx.zobrist(fens).tolist() == fx.zobrist(fx.encode(fens)).tolist()
    bad = fens[:20] + [None, "8/8/8 w - - 0 1"] + fens[20:]
    for errors in ("raise", "coerce"):
        dedupe = fx.Deduper()
        dedupe.add(fens[:5])
        if errors == "raise":
            with pytest.raises(fx.FenError) as info:
                dedupe.add(bad)
            assert info.value.index == 5 + 21
        else:
            assert np.flatnonzero(dedupe.add(bad, errors=errors)).tolist() == [
                i + (i > 19) * 2 for i in reference(fens) if i >= 5
            ]


def test_buffers_are_read_in_pieces(monkeypatch):
    from fastxfen import keys

    fens = list(corpus(400, seed=10))
    expected = reference(fens)
    text = "\n".join(fens).encode()  # the last line without a newline
    long_line = b"x" * 20_000
    monkeypatch.setattr(keys, "CHUNK_BYTES", 100)
    for data in (text, text + b"\n", text.replace(b"\n", b"\r\n"), bytearray(text)):
        assert fx.unique(data).tolist() == expected
        assert fx.unique(memoryview(data)).tolist() == expected
        assert fx.zobrist(data).tolist() == fx.zobrist(fens).tolist()
    assert fx.unique(b"").tolist() == []
    with pytest.raises(fx.FenError):
        fx.unique(b"\n")  # one empty row, as when read whole
    for size in (100, 5_000, 1 << 20):
        monkeypatch.setattr(keys, "CHUNK_BYTES", size)
        bad = b"\n".join([*map(str.encode, fens[:300]), long_line, *map(str.encode, fens[300:])])
        with pytest.raises(fx.FenError) as info:
            fx.unique(bad)
        assert info.value.index == 300
        got = fx.unique(bad, errors="coerce").tolist()
        assert got == [i + (i >= 300) for i in expected]
    # a memoryview the kernels cannot cut (not contiguous) is read whole
    strided = np.repeat(np.frombuffer(text, np.uint8), 2)[::2]
    assert fx.unique(memoryview(strided)).tolist() == expected


def test_one_position_at_many_move_numbers():
    # the Zobrist key ignores the counters: with counters=True the table
    # mixes them into its key, or these rows would share one run of slots
    recs = np.resize(fx.encode([START]), 50_000)
    recs["fullmove"] = np.arange(1, 50_001) // 2 + 1
    first = fx.unique(recs, counters=True)
    assert first.tolist() == [0] + list(range(1, 50_000, 2))
    assert fx.unique(recs).tolist() == [0]
