"""fields= of normalize and decode (issue 19): 6 writes both counters (the
default), 4 none (a position key, what python-chess's ``Board.epd()``
writes), "same" as many fields as each row came with (4, 5 or 6).  Every
input kind and path, threads 1 and 2, every errors= mode."""

import random

import chess
import numpy as np
import pytest

import fastxfen as fx
from fastxfen import _bulk

pa = pytest.importorskip("pyarrow")

MODES = [(c, e) for c in ("xfen", "shredder") for e in ("fen", "xfen", "legal")]
BAD = "8/8/8/8/8/8/8/K6k x - -"  # side "x": rejected at column 18


def _boards(n, seed):
    """Positions of random games from the standard and Chess960 starts; many
    stop right after a double push, so en-passant targets are common."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        if rng.random() < 0.3:
            board = chess.Board.from_chess960_pos(rng.randrange(960))
        else:
            board = chess.Board(chess960=True)
        for _ in range(rng.randrange(0, 70)):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        board.halfmove_clock = rng.choice([0, 3, 49, 100])
        out.append(board)
    return out


def _shaped(board, rng):
    """The board's FEN with 4, 5 or 6 fields, in varied spacing, castling
    style and counter spelling."""
    parts = board.fen(shredder=rng.random() < 0.5, en_passant="fen").split()
    count = rng.choice([4, 4, 5, 6, 6])
    parts = parts[:count]
    if count >= 5 and rng.random() < 0.2:
        parts[4] = "00" + parts[4]
    sep = rng.choice([" ", " ", " ", "  ", "\t"])
    return sep.join(parts)


def _reference(row, castling, en_passant, fields):
    """What fastxfen must write, from python-chess."""
    board = chess.Board(row, chess960=True)
    shredder = castling == "shredder"
    if fields == "same":
        fields = len(row.split())
    if fields == 6:
        return board.fen(shredder=shredder, en_passant=en_passant)
    key = board.epd(shredder=shredder, en_passant=en_passant)
    return key if fields == 4 else f"{key} {board.halfmove_clock}"


@pytest.fixture(scope="module")
def corpus():
    rng = random.Random(19)
    return [_shaped(board, rng) for board in _boards(1000, 19)]


@pytest.mark.parametrize("castling, en_passant", MODES)
@pytest.mark.parametrize("fields", [4, 6, "same"])
def test_matches_python_chess(corpus, castling, en_passant, fields):
    expected = [_reference(row, castling, en_passant, fields) for row in corpus]
    options = dict(castling=castling, en_passant=en_passant, fields=fields)
    assert fx.normalize(corpus, **options) == expected
    buffer = "\n".join(corpus).encode() + b"\n"
    assert fx.normalize(buffer, **options) == "\n".join(expected).encode() + b"\n"
    assert fx.normalize(pa.array(corpus), **options).to_pylist() == expected
    # the corpus has every shape
    assert {len(row.split()) for row in corpus} == {4, 5, 6}


def test_shapes_of_one_row():
    key = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3"
    assert fx.normalize(key) == key.replace("e3", "-") + " 0 1"
    assert fx.normalize(key, fields=4) == key.replace("e3", "-")
    assert fx.normalize(key, fields=4, en_passant="fen") == key
    assert fx.normalize(key + " 7", fields="same") == key.replace("e3", "- 7")
    assert fx.normalize(key + " 007", fields="same", en_passant="fen") == key + " 7"
    assert fx.normalize(key + "  0\t00012", fields="same", en_passant="fen") == key + " 0 12"
    assert fx.normalize(key + " 7 12", fields=4, en_passant="fen") == key
    assert fx.normalize(key + " 7", fields=6, en_passant="fen") == key + " 7 1"
    # rows the fast field reader leaves to the exact one: long blanks, long counters
    assert fx.normalize(key + " " * 40 + "7", fields="same", en_passant="fen") == key + " 7"
    assert fx.normalize(key + " 123456789", fields="same", en_passant="fen") == key + " 123456789"
    assert fx.normalize(key + "\t" * 30 + "1 2", fields="same", en_passant="fen") == key + " 1 2"
    assert fx.normalize(key + " " * 40, fields="same", en_passant="fen") == key
    # a list row's line terminator is not a field
    assert fx.normalize([key + "\r\n"], fields="same", en_passant="fen") == [key]


def test_10x8_rows():
    rows = [
        "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq -",
        "rnabqkbcnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNABQKBCNR b KQkq e3 0",
        "rnabqkbcnr/pppppppppp/10/10/4P5/10/PPPP1PPPPP/RNABQKBCNR b KQkq e3 3 9",
    ]
    six = fx.normalize(rows, en_passant="fen")
    assert fx.normalize(rows, en_passant="fen", fields=4) == [" ".join(s.split()[:4]) for s in six]
    assert fx.normalize(rows, en_passant="fen", fields="same") == [
        " ".join(s.split()[: len(r.split())]) for r, s in zip(rows, six)
    ]


# ---------------------------------------------------------------- kinds and paths


def _as_list(result, kind):
    """A result of any kind as a list of str and None."""
    if kind == "bytes":
        return result.decode().split("\n")[:-1]
    if kind in ("S",):
        return [x.decode() for x in result.tolist()]
    if kind in ("U", "O"):
        return result.tolist()
    if kind.startswith("arrow"):
        return result.to_pylist()
    return result


def _input(rows, kind):
    if kind == "bytes":
        return "\n".join(rows).encode() + b"\n"
    if kind == "S":
        return np.array([r.encode() for r in rows])
    if kind == "U":
        return np.array(rows)
    if kind == "O":
        return np.array(rows, dtype=object)
    if kind == "arrow":
        return pa.array(rows, pa.string())
    if kind == "arrow-large":
        return pa.array(rows, pa.large_string())
    if kind == "arrow-chunked":
        third = len(rows) // 3
        return pa.chunked_array([rows[:third], rows[third:]], pa.string())
    return list(rows)


KINDS = ["list", "bytes", "S", "U", "O", "arrow", "arrow-large", "arrow-chunked"]


@pytest.fixture(scope="module")
def mixed(corpus):
    """About 40,000 rows (more than two jobs of the bulk kernels), two of
    them rejected, with what each fields= gives for them."""
    rows = (corpus * (40000 // len(corpus) + 1))[:40000]
    rows[5] = BAD
    rows[30001] = BAD
    expected = {}
    for fields in (4, 6, "same"):
        one = {row: _reference(row, "xfen", "xfen", fields) for row in corpus}
        expected[fields] = [None if row == BAD else one[row] for row in rows]
    return rows, expected


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("fields", [4, 6, "same"])
def test_every_kind_thread_count_and_error_mode(mixed, kind, fields):
    rows, expected = mixed
    want = expected[fields]
    empty = None if kind in ("list", "O") or kind.startswith("arrow") else ""
    for threads in (1, 2):
        fens = _input(rows, kind)
        got = fx.normalize(fens, fields=fields, threads=threads, errors="coerce")
        assert _as_list(got, kind) == [empty if w is None else w for w in want]
        got = fx.normalize(fens, fields=fields, threads=threads, errors="ignore")
        assert _as_list(got, kind) == [r if w is None else w for r, w in zip(rows, want)]
        with pytest.raises(fx.FenError) as info:
            fx.normalize(fens, fields=fields, threads=threads)
        assert (info.value.index, info.value.column, info.value.field) == (5, 18, "side")
        clean = _input(rows[6:30000], kind)
        got = fx.normalize(clean, fields=fields, threads=threads)
        assert _as_list(got, kind) == want[6:30000]


@pytest.mark.parametrize("fields", [4, "same"])
def test_threaded_list_path_keeps_objects(corpus, fields):
    """A list of 2 * 65536 rows or more with threads=2 is copied into one
    buffer and normalized by the bulk kernels; a row whose text does not
    change still comes back as the same object."""
    keys = fx.normalize(corpus, fields=4)  # canonical 4-field rows
    rows = (corpus + keys) * (2 * 65536 // (2 * len(corpus)) + 1)
    assert len(rows) >= 2 * _bulk.MIN_ROWS_PER_THREAD
    rows[7] = BAD
    want = fx.normalize(rows, fields=fields, errors="coerce", threads=None)
    for errors in ("coerce", "ignore"):
        got = fx.normalize(rows, fields=fields, errors=errors, threads=2)
        assert got == [rows[7] if errors == "ignore" and i == 7 else w for i, w in enumerate(want)]
        same = [g is r for g, r in zip(got, rows) if g == r]
        assert len(same) > len(rows) // 3 and all(same)
    with pytest.raises(fx.FenError) as info:
        fx.normalize(rows, fields=fields, threads=2)
    assert info.value.index == 7


@pytest.mark.parametrize("fields", [4, "same"])
def test_unchanged_rows_are_the_same_objects(corpus, fields):
    keys = fx.normalize(corpus, fields=4)
    assert keys == [" ".join(k.split()) for k in keys]  # canonical already
    for row in keys[:50]:
        assert fx.normalize(row, fields=fields) is row
    got = fx.normalize(keys, fields=fields)
    assert all(g is k for g, k in zip(got, keys))
    got = fx.normalize(np.array(keys, dtype=object), fields=fields)
    assert all(g is k for g, k in zip(got.tolist(), keys))
    # a 6-field row under fields=4 changes, so it is a new object
    full = fx.normalize(corpus[0])
    assert fx.normalize(full, fields=4) is not full
    assert fx.normalize(full, fields="same") is full


# ---------------------------------------------------------------- decode


@pytest.mark.parametrize("fields", [4, 6])
def test_decode(corpus, fields):
    records = fx.encode(corpus)
    want = fx.normalize(corpus, fields=fields)
    assert fx.decode(records, fields=fields) == want
    for threads in (1, 2):
        text = fx.decode(records, fields=fields, output="bytes", threads=threads)
        assert text == "\n".join(want).encode() + b"\n"
        column = fx.decode(records, fields=fields, output="arrow", threads=threads)
        assert column.to_pylist() == want
    assert fx.decode(records[3], fields=fields) == want[3]  # one record, one str
    # the null record is a missing value: None / an empty line / null in
    # every mode; a corrupt record (width 0, another byte set) raises
    records[2] = np.zeros(1, records.dtype)[0]
    coerced = want[:2] + [None] + want[3:]
    assert fx.decode(records, fields=fields) == coerced
    records[2]["halfmove"] = 1
    with pytest.raises(fx.FenError) as info:
        fx.decode(records, fields=fields)
    assert info.value.index == 2
    assert fx.decode(records, fields=fields, errors="coerce") == coerced
    text = fx.decode(records, fields=fields, errors="coerce", output="bytes")
    assert text.decode().split("\n")[:-1] == ["" if w is None else w for w in coerced]
    column = fx.decode(records, fields=fields, errors="coerce", output="arrow")
    assert column.to_pylist() == coerced


@pytest.mark.parametrize("output", ["list", "bytes", "arrow"])
def test_decode_refuses_same(output):
    records = fx.encode(["8/8/8/8/8/8/8/K6k w - -"])
    with pytest.raises(ValueError, match="records have no such count"):
        fx.decode(records, fields="same", output=output)


@pytest.mark.parametrize("fields", [5, 0, "4", 4.0, True, None, "SAME"])
def test_other_values_are_refused(fields):
    records = fx.encode(["8/8/8/8/8/8/8/K6k w - -"])
    with pytest.raises(ValueError, match="fields must be 4, 6 or 'same'"):
        fx.normalize("8/8/8/8/8/8/8/K6k w - -", fields=fields)
    with pytest.raises(ValueError, match="fields must be 4, 6 or 'same'"):
        fx.normalize(b"8/8/8/8/8/8/8/K6k w - -\n", fields=fields)
    with pytest.raises(ValueError, match="fields must be"):
        fx.decode(records, fields=fields, output="bytes")


# ---------------------------------------------------------------- EPD


def test_epd_rows_never_get_counters():
    rows = [
        "4k3/8/8/8/8/8/4P3/4K3 w - - bm e4;",
        "4k3/8/8/8/8/8/4P3/4K3 w - - hmvc 7; fmvn 31;",
        "4k3/8/8/8/8/8/4P3/4K3 w - -",
        '4k3/8/8/8/8/8/4P3/4K3  w  -  -   id "x;y";  ',
    ]
    want = rows[:3] + ['4k3/8/8/8/8/8/4P3/4K3 w - - id "x;y";']
    for fields in (4, 6, "same"):
        assert fx.normalize(rows, epd=True, fields=fields) == want
        buffer = "\n".join(rows).encode() + b"\n"
        assert fx.normalize(buffer, epd=True, fields=fields) == "\n".join(want).encode() + b"\n"
        assert fx.normalize(pa.array(rows), epd=True, fields=fields).to_pylist() == want
    with pytest.raises(ValueError, match="fields must be"):
        fx.normalize(rows, epd=True, fields=5)


def test_epd_rows_unchanged_are_the_same_objects():
    rows = [
        "4k3/8/8/8/8/8/4P3/4K3 w - - bm e4;",
        'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c0 "\u00e9l\u00e8ve";',
        "4k3/8/8/8/8/8/4P3/4K3 w - -",
        "4k3/8/8/8/8/8/4P3/4K3 w - -  bm e4;",  # the blanks change: a new str
        "4k3/8/8/8/8/8/4P3/4K3 w - - bm e4;\n",  # the terminator goes: a new str
    ]
    got = fx.normalize(rows, epd=True)
    assert [g is r for g, r in zip(got, rows)] == [True, True, True, False, False]
    assert got[3] == got[4] == rows[0]
    for row in rows[:3]:
        assert fx.normalize(row, epd=True) is row
    got = fx.normalize(np.array(rows, dtype=object), epd=True)
    assert [g is r for g, r in zip(got.tolist(), rows)] == [True, True, True, False, False]


# ---------------------------------------------------------------- dask's library functions


def test_dask_partition_functions_forward_fields(corpus):
    pd = pytest.importorskip("pandas")
    from fastxfen import dask as fxd

    lines = [row + "\n" for row in corpus[:200]]
    for fields in (4, 6, "same"):
        want = [_reference(row, "xfen", "xfen", fields) + "\n" for row in corpus[:200]]
        assert fxd.normalize_lines(lines, fields=fields) == want
        series = pd.Series(corpus[:200], dtype="string[pyarrow]")
        got = fxd.normalize_series(series, fields=fields)
        assert got.tolist() == [w[:-1] for w in want]
