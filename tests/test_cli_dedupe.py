"""``fastxfen dedupe`` and ``normalize --unique``: the first occurrence of
each position, on text and tables, checked against python-chess's own
position key (``Board.epd``), across chunk boundaries."""

import random

import chess
import numpy as np
import pytest

import fastxfen as fx
from fastxfen import cli


def run(*argv):
    return cli.main([str(a) for a in argv])


def rows_with_repeats(n=600, seed=0):
    """Positions of short random games, many repeated: the same position
    with other counters, and rows with spacing a normalizer changes."""
    rng = random.Random(seed)
    pool = []
    board = chess.Board()
    while len(pool) < 120:
        moves = list(board.legal_moves)
        if not moves or board.fullmove_number > 6:
            board = chess.Board()
            continue
        board.push(rng.choice(moves))
        pool.append(board.fen())
    rows = []
    for _ in range(n):
        fen = rng.choice(pool)
        parts = fen.split()
        r = rng.random()
        if r < 0.3:
            parts[4], parts[5] = str(rng.randrange(50)), str(rng.randrange(1, 90))
        rows.append(("  " if r > 0.9 else " ").join(parts))
    return rows


def key(fen, counters=False):
    board = chess.Board(fen, chess960=True)
    text = board.epd(en_passant="legal")
    return (text, board.halfmove_clock, board.fullmove_number) if counters else text


def first_occurrences(rows, counters=False):
    seen, out = set(), []
    for row in rows:
        k = key(row, counters)
        if k not in seen:
            seen.add(k)
            out.append(row)
    return out


@pytest.mark.parametrize("counters", [False, True])
def test_dedupe_text_matches_python_chess(tmp_path, capsys, counters):
    rows = rows_with_repeats()
    path = tmp_path / "in.fen"
    path.write_text("\n".join(rows) + "\n")
    out = tmp_path / "out.fen.gz"
    argv = ["dedupe", path, "-o", out, "--chunk-size", "2K", "--en-passant", "legal"]
    assert run(*argv, *(["--counters"] if counters else [])) == 0
    import gzip

    got = gzip.decompress(out.read_bytes()).decode().splitlines()
    expected = first_occurrences(rows, counters)
    assert got == expected
    assert len(got) < len(rows)
    err = capsys.readouterr().err
    assert f"{len(rows):,} rows read, {len(got):,} written" in err
    assert f"{len(rows) - len(got):,} duplicates dropped" in err


def test_normalize_unique_writes_normalized_first_occurrences(tmp_path):
    rows = rows_with_repeats(seed=1)
    path = tmp_path / "in.fen"
    path.write_text("\n".join(rows) + "\n")
    out = tmp_path / "out.fen"
    argv = ["normalize", path, "-o", out, "--unique", "--en-passant", "legal", "--chunk-size", "1K"]
    assert run(*argv) == 0
    expected = fx.normalize(first_occurrences(rows), en_passant="legal")
    assert out.read_text().splitlines() == expected


@pytest.mark.parametrize("errors", ["coerce", "ignore", "raise"])
def test_bad_rows(tmp_path, capsys, errors):
    rows = rows_with_repeats(100, seed=2)
    rows[10] = "not a position"
    rows[40] = "not a position"
    path = tmp_path / "in.fen"
    path.write_text("\n".join(rows) + "\n")
    out, rejects = tmp_path / "out.fen", tmp_path / "bad.tsv"
    status = run(
        "dedupe", path, "-o", out, "--errors", errors, "--rejects", rejects, "--en-passant", "legal"
    )
    good = [r for r in rows if r != "not a position"]
    if errors == "raise":
        assert status == 2
        assert not out.exists() and not rejects.exists()
        assert "line 11: column" in capsys.readouterr().err
        # stdout: the first occurrences among the rows before the bad one
        assert run("dedupe", path, "--en-passant", "legal", "-q") == 2
        assert capsys.readouterr().out.splitlines() == first_occurrences(rows[:10])
        return
    got = out.read_text().splitlines()
    assert status == 1
    assert [line.split("\t")[0] for line in rejects.read_text().splitlines()] == ["11", "41"]
    if errors == "coerce":
        assert got == first_occurrences(good)
        assert "2 rejected (dropped)" in capsys.readouterr().err
    else:  # each rejected row written where it stood
        assert got.count("not a position") == 2
        assert [r for r in got if r != "not a position"] == first_occurrences(good)


def test_dedupe_table(tmp_path, capsys):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    rows = rows_with_repeats(500, seed=3)
    table = pa.table({"n": list(range(len(rows))), "FEN": rows})
    path = tmp_path / "in.parquet"
    pq.write_table(table, path)
    out = tmp_path / "out.parquet"
    assert run("dedupe", path, "-o", out, "--chunk-size", "4K", "--en-passant", "legal") == 0
    got = pq.read_table(out)
    expected = first_occurrences(rows)
    assert got.column("FEN").to_pylist() == expected
    firsts = {}
    for i, row in enumerate(rows):
        firsts.setdefault(key(row), i)
    assert got.column("n").to_pylist() == sorted(firsts.values())
    assert "duplicates dropped" in capsys.readouterr().err


def test_normalize_unique_table_keeps_missing_values(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    rows = rows_with_repeats(200, seed=4)
    values = rows[:50] + [None, None] + rows[50:]
    path = tmp_path / "in.parquet"
    pq.write_table(pa.table({"fen": values}), path)
    out = tmp_path / "out.parquet"
    argv = ["normalize", path, "-o", out, "--unique", "--en-passant", "legal"]
    assert run(*argv) == 0
    expected = fx.normalize(first_occurrences(rows), en_passant="legal")
    got = pq.read_table(out).column("fen").to_pylist()
    assert got.count(None) == 2
    assert [g for g in got if g is not None] == expected


def test_counters_needs_unique(tmp_path, capsys):
    path = tmp_path / "in.fen"
    path.write_text(chess.STARTING_FEN + "\n")
    assert run("normalize", path, "--counters") == 2
    assert "--counters applies with --unique" in capsys.readouterr().err


def test_kept_lines_against_a_split():
    from fastxfen._keys import kept_lines

    rng = random.Random(3)
    for _ in range(200):
        lines = [b"x" * rng.randrange(0, 5) + rng.choice([b"\n", b"\r\n"]) for _ in range(9)]
        if rng.random() < 0.5:
            lines[-1] = lines[-1].rstrip(b"\r\n") or b"y"  # a last line without one
        mask = [rng.random() < 0.5 for _ in range(rng.randrange(0, 10))]
        want = b"".join(line for line, keep in zip(lines, mask) if keep)
        data = b"".join(lines)
        for form in (data, bytearray(data), memoryview(data)):
            assert kept_lines(form, np.array(mask, bool)) == want
    assert kept_lines(b"", np.zeros(0, bool)) == b""
