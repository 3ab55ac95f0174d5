"""Engine training data on the command line: .binpack, .bin and .plain are
table formats of every command (by extension, compressed or not, or
--input-format / --output-format); from one to another the entries pass
as they are, giving the library's bytes; rejects, damaged and truncated
files, and the errors modes as for every table."""

import gzip
import io
import random

import chess
import numpy as np
import pytest
from models import training as model
from support.fresh_process import runs_importing
from test_training_errors import ROOKS, block, good_chain, head

import fastxfen as fx
import fastxfen.training as ft
from fastxfen import cli, files

pa = pytest.importorskip("pyarrow")
import pyarrow.csv as pcsv  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

FIELDS = ("fen", "move", "score", "ply", "result")


def run(*argv):
    return cli.main([str(a) for a in argv])


@pytest.fixture(scope="module")
def entries():
    return model.corpus(seed=7, games=40)


@pytest.fixture(scope="module")
def table(entries):
    return pa.table(model.columns(entries))


@pytest.fixture(scope="module")
def data(table):
    """The library's bytes of the entries in each format."""
    out = {}
    for fmt in ft.FORMATS:
        buf = io.BytesIO()
        assert ft.write(buf, table, format=fmt) == table.num_rows
        out[fmt] = buf.getvalue()
    return out


def write(path, data):
    if str(path).endswith(".gz"):
        data = gzip.compress(data)
    path.write_bytes(data)
    return path


def read_back(path):
    data = path.read_bytes()
    return gzip.decompress(data) if str(path).endswith(".gz") else data


@pytest.mark.parametrize("source", ft.FORMATS)
@pytest.mark.parametrize("target", ft.FORMATS)
def test_every_format_into_every_format(source, target, data, table, tmp_path, capsys):
    src = write(tmp_path / f"in.{source}", data[source])
    out = tmp_path / f"out.{target}"
    assert run("normalize", src, "-o", out, "--chunk-size", "16K") == 0
    assert out.read_bytes() == data[target]
    n = table.num_rows
    assert f"{n:,} rows read, {n:,} written, 0 rejected" in capsys.readouterr().err


def test_compressed_and_named_formats(data, tmp_path):
    src = write(tmp_path / "in.binpack.gz", data["binpack"])
    out = tmp_path / "out.plain.gz"
    assert run("normalize", src, "-o", out) == 0
    assert read_back(out) == data["plain"]
    odd = write(tmp_path / "in.dat", data["plain"])
    named = ("--input-format", "plain", "--output-format")
    out = tmp_path / "out.data"
    assert run("normalize", odd, *named, "bin", "-o", out) == 0
    assert out.read_bytes() == data["bin"]
    out = tmp_path / "out.zst"
    assert run("normalize", odd, *named, "binpack", "-o", out) == 0
    zstd = pytest.importorskip("zstandard")
    unpacked = zstd.ZstdDecompressor().stream_reader(io.BytesIO(out.read_bytes())).read()
    assert unpacked == data["binpack"]


def test_to_and_from_other_tables(data, tmp_path):
    src = write(tmp_path / "in.binpack", data["binpack"])
    out = tmp_path / "out.parquet"
    assert run("normalize", src, "-o", out, "--castling", "shredder", "--chunk-size", "16K") == 0
    got = pq.read_table(out)
    want = ft.read(src)
    assert got.column_names == list(ft.DEFAULT_COLUMNS)
    assert got.column("fen").to_pylist() == fx.normalize(
        want.column("fen").to_pylist(), castling="shredder"
    )
    assert got.drop(["fen"]).equals(want.drop(["fen"]))
    for fmt in ft.FORMATS:  # and back, from the column of positions and the others
        back = tmp_path / f"back.{fmt}"
        assert run("normalize", out, "-o", back) == 0
        assert back.read_bytes() == data[fmt]
    csv = tmp_path / "out.csv"
    assert run("normalize", src, "-o", csv) == 0
    assert pcsv.read_csv(csv).column("move").to_pylist() == want.column("move").to_pylist()


def position_key(fen):
    """The sameness of dedupe (placement, side, castling, the en-passant
    target a pawn can take), from python-chess."""
    return " ".join(chess.Board(fen, chess960=True).fen(en_passant="xfen").split()[:4])


def test_dedupe_keeps_first_occurrences(table, tmp_path):
    rng = random.Random(5)
    rows = table.to_pylist()
    repeated = rows + [rows[i] for i in rng.sample(range(len(rows)), 500)]
    fed = pa.Table.from_pylist(repeated)
    src = tmp_path / "in.binpack"
    ft.write(src, fed)
    seen, kept = set(), []
    for row in ft.read(src, columns=FIELDS).to_pylist():
        key = position_key(row["fen"])
        if key not in seen:
            seen.add(key)
            kept.append(row)
    for fmt in ("binpack", "plain", "parquet"):
        out = tmp_path / f"out.{fmt}"
        assert run("dedupe", src, "-o", out, "--chunk-size", "16K") == 0
        got = pq.read_table(out) if fmt == "parquet" else ft.read(out)
        assert got.select(FIELDS).to_pylist() == kept
    again = io.BytesIO()
    ft.write(again, pa.Table.from_pylist(kept), format="binpack")
    assert (tmp_path / "out.binpack").read_bytes() == again.getvalue()  # chains as Stockfish's


def test_encode_and_validate(data, table, tmp_path, capsys):
    src = write(tmp_path / "in.binpack", data["binpack"])
    out = tmp_path / "planes.npy"
    assert run("encode", src, "--format", "planes", "-o", out) == 0
    fens = ft.read(src, columns=("fen",)).column("fen").to_pylist()
    assert np.array_equal(np.load(out), fx.to_planes(fens))
    for fmt in ft.FORMATS:
        path = write(tmp_path / f"ok.{fmt}", data[fmt])
        assert run("validate", path, "--legal") == 0
        assert capsys.readouterr().out == ""


def damaged_binpack():
    """Three chains, the middle one with an illegal second ply."""
    chain, entries = good_chain()
    broken = head(ROOKS, "e8f8", count=2) + b"\x40\x00\x00"
    return block(chain + broken + chain), len(entries)


def test_an_entry_that_cannot_be_read(tmp_path, capsys):
    data, n = damaged_binpack()
    src = write(tmp_path / "bad.binpack", data)
    assert run("validate", src) == 1
    message = capsys.readouterr().out
    assert message.startswith(f"{src}, block 0, chain 1, ply 1, entry {n + 1}, byte ")
    assert message.endswith("(move): move e1d1 is not legal in its position\n")
    out, rejects = tmp_path / "out.plain", tmp_path / "rejects.csv"
    assert run("normalize", src, "-o", out, "--errors", "coerce", "--rejects", rejects) == 1
    assert ft.read(out).num_rows == 2 * n + 1
    assert "rejected (dropped)" in capsys.readouterr().err
    rejected = pcsv.read_csv(rejects).to_pylist()
    assert len(rejected) == 1 and rejected[0]["row"] is None and rejected[0]["field"] == "move"
    assert rejected[0]["reason"] == message.strip()
    assert rejected[0]["column"] == int(message.split("byte ")[1].split(" ")[0])
    out.unlink()
    for threads in ("1", "2"):
        assert run("normalize", src, "-o", out, "--threads", threads) == 2
        err = capsys.readouterr().err
        assert f"error: {src}, block 0, chain 1" in err and "stopped at row" in err
        assert not out.exists()
    assert run("normalize", src, "-o", out, "--errors", "ignore") == 2
    assert "use raise or coerce" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["binpack", "bin"])
@pytest.mark.parametrize("errors", ["raise", "coerce"])
@pytest.mark.parametrize("threads", ["1", "2"])  # 2: the next batch read in a thread
def test_a_cut_file_is_an_error(fmt, errors, threads, data, tmp_path, capsys):
    cut = data[fmt][: len(data[fmt]) // 2 + 3]
    src = write(tmp_path / f"cut.{fmt}", cut)
    for out in (tmp_path / "out.plain", tmp_path / "out.parquet"):
        options = ("--errors", errors, "--chunk-size", "16K", "--threads", threads)
        assert run("normalize", src, "-o", out, *options) == 2
        err = capsys.readouterr().err
        assert f"error: {src}, " in err and "byte " in err and "the file ends" in err
        assert not out.exists()
    assert run("validate", src) == 2


def empty_square_move(fen):
    """A move from an empty square (below rank 8) one rank up, in UCI."""
    board = model.board_of(fen)
    empty = next(sq for sq in range(56) if board.piece_at(sq) is None)
    return chess.Move(empty, empty + 8).uci()


def test_moves_of_plain_and_bin_are_checked(data, entries, tmp_path, capsys):
    lines = data["plain"].decode().split("\n")
    lines[6 * 3 + 1] = "move " + empty_square_move(entries[3].fen)
    lines[6 * 9 + 1] = "move " + empty_square_move(entries[9].fen)
    src = write(tmp_path / "bad.plain", "\n".join(lines).encode())
    assert run("validate", src) == 1
    got = capsys.readouterr().out.splitlines()
    assert len(got) == 2 and f"{src}, line 20, entry 3, byte " in got[0]
    records = bytearray(data["bin"])
    move = chess.Move.from_uci(empty_square_move(entries[5].fen))
    sfmove = move.to_square | move.from_square << 6
    records[40 * 5 + 34 : 40 * 5 + 36] = sfmove.to_bytes(2, "little")
    src = write(tmp_path / "bad.bin", bytes(records))
    assert run("validate", src) == 1
    assert f"{src}, entry 5, byte 200 (move): move " in capsys.readouterr().out


def test_rows_a_format_cannot_hold(table, data, tmp_path, capsys):
    rows = table.slice(0, 30).to_pydict()
    rows["move"][4] = illegal = empty_square_move(rows["fen"][4])
    rows["score"][9] = 40000
    rows["fen"][12] = "not a position"
    src = tmp_path / "in.parquet"
    pq.write_table(pa.table(rows), src)
    out, rejects = tmp_path / "out.binpack", tmp_path / "rejects.csv"
    assert run("normalize", src, "-o", out, "--errors", "coerce", "--rejects", rejects) == 1
    rejected = pcsv.read_csv(rejects).to_pylist()
    assert [(r["row"], r["field"]) for r in rejected] == [
        (5, "move"),
        (10, "score"),
        (13, "placement"),
    ]
    assert rejected[1]["reason"] == "score 40000 is outside -32768..32767"
    kept = pa.table(rows).take([i for i in range(30) if i not in (4, 9, 12)])
    want = io.BytesIO()
    ft.write(want, kept, format="binpack")
    assert out.read_bytes() == want.getvalue()
    assert "27 written, 3 rejected (dropped)" in capsys.readouterr().err
    out.unlink()
    assert run("normalize", src, "-o", out) == 2
    assert f"error: row 5: column 0 (move): move {illegal} is not legal" in capsys.readouterr().err
    assert not out.exists()


def test_threads_progress_and_blocks(data, table, tmp_path):
    src = write(tmp_path / "blocks.binpack", data["binpack"] * 5)  # five blocks
    seen = []
    for threads in (1, 2):
        out = tmp_path / f"out{threads}.plain"
        settings = files.Settings(threads=threads, progress=lambda *a: seen.append(a))
        stats = files.run(files.Normalize(), str(src), str(out), settings)
        n = 5 * table.num_rows
        assert (stats.read, stats.written, stats.status) == (n, n, 0)
        assert out.read_bytes() == data["plain"] * 5
    size = 5 * len(data["binpack"])
    assert seen[0] == (0, size, "B") and seen[-1][0] == size


def test_training_runs_do_not_import_pandas(data, tmp_path):
    """pyarrow's array(), to_numpy() and fill_null() import pandas where it
    is installed (0.4 s a run): the training formats' readers and writers
    build their Arrow and numpy arrays from buffers."""
    pytest.importorskip("pandas")
    src = write(tmp_path / "in.binpack", data["binpack"])
    runs = [
        ["normalize", src, "-o", tmp_path / "a.parquet"],
        ["normalize", tmp_path / "a.parquet", "-o", tmp_path / "b.binpack"],
        ["validate", src, "--legal"],
        ["dedupe", src, "-o", tmp_path / "c.plain"],
        ["encode", src, "--format", "planes", "-o", tmp_path / "d.npy"],
    ]
    statuses, imported = runs_importing("pandas", runs)
    assert statuses == [0, 0, 0, 0, 0] and imported is False
    assert (tmp_path / "b.binpack").read_bytes() == data["binpack"]
