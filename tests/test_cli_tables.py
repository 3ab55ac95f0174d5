"""Tables on the command line: normalize, validate and encode of a column of
Parquet, Arrow IPC, CSV/TSV and JSON Lines files shaped like the real ones
(the lichess puzzle CSV, the lichess evaluation JSON Lines, a training set
in Parquet), every other column passed through."""

import gzip
import io
import json
import os
import random
import subprocess
import sys

import chess
import numpy as np
import pytest
from support.fresh_process import runs_importing

pa = pytest.importorskip("pyarrow")
import pyarrow.csv as pcsv  # noqa: E402
import pyarrow.ipc as ipc  # noqa: E402
import pyarrow.json as pjson  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

import fastxfen as fx  # noqa: E402
from fastxfen import cli  # noqa: E402

zstd = pytest.importorskip("zstandard")

PUZZLE_COLUMNS = [
    "PuzzleId",
    "FEN",
    "Moves",
    "Rating",
    "RatingDeviation",
    "Popularity",
    "NbPlays",
    "Themes",
    "GameUrl",
    "OpeningTags",
]


def game_fens(n, seed=0):
    """n positions of random games (Chess960 starts among them), as FENs."""
    rng = random.Random(seed)
    out = []
    board = chess.Board()
    while len(out) < n:
        moves = list(board.legal_moves)
        if not moves or board.fullmove_number > 60:
            board = (
                chess.Board.from_chess960_pos(rng.randrange(960))
                if rng.random() < 0.3
                else (chess.Board())
            )
            board.chess960 = True
            continue
        board.push(rng.choice(moves))
        out.append(board.fen())
    return out


def norm(values, **options):
    """fx.normalize of each value, None kept."""
    return [None if v is None else fx.normalize(v, **options) for v in values]


def run(*argv):
    return cli.main([str(a) for a in argv])


def read_csv_text(path):
    """Every column as text, as the command reads CSV."""
    with open(path, "rb") as f:
        data = f.read()
    if str(path).endswith(".gz"):
        data = gzip.decompress(data)
    names = data.split(b"\n", 1)[0].decode().split(",")
    names = [n.strip('"') for n in names]
    return pcsv.read_csv(
        io.BytesIO(data),
        convert_options=pcsv.ConvertOptions(
            column_types={n: pa.string() for n in names}, strings_can_be_null=False
        ),
    )


@pytest.fixture
def puzzles(tmp_path):
    """A puzzle CSV, gzip-compressed, with a bad row and text a reader might
    change (leading zeros, a quoted comma)."""
    fens = game_fens(300, seed=1)
    fens[17] = "8/8/8/8/8/8/8 w - - 0 1"
    rows = []
    for i, fen in enumerate(fens):
        rows.append(
            [
                f"{i:05d}",
                fen,
                "e2e4 e7e5",
                str(1500 + i),
                "075",
                "95",
                str(i * 3),
                "mate mateIn2",
                f"https://lichess.org/abc{i}#32",
                "Sicilian_Defense, x" if i % 5 == 0 else "",
            ]
        )
    text = ",".join(PUZZLE_COLUMNS) + "\n"
    for row in rows:
        text += ",".join(f'"{v}"' if "," in v else v for v in row) + "\n"
    path = tmp_path / "puzzles.csv.gz"
    path.write_bytes(gzip.compress(text.encode()))
    return path, fens, rows


def test_puzzle_csv_normalized_in_place_other_columns_kept(puzzles, tmp_path):
    path, fens, rows = puzzles
    out = tmp_path / "out.csv.gz"
    rejects = tmp_path / "bad.csv"
    assert run("normalize", path, "-o", out, "--errors", "coerce", "--rejects", rejects) == 1
    table = read_csv_text(out)
    assert table.column_names == PUZZLE_COLUMNS
    expected = fx.normalize(fens, errors="coerce")
    assert table.column("FEN").to_pylist() == [e if e is not None else "" for e in expected]
    for k, name in enumerate(PUZZLE_COLUMNS):
        if name != "FEN":
            assert table.column(name).to_pylist() == [row[k] for row in rows], name
    bad = read_csv_text(rejects)
    assert bad.column("row").to_pylist() == ["18"]
    assert bad.column("value").to_pylist() == [fens[17]]
    assert bad.column("field").to_pylist() == ["placement"]


@pytest.fixture
def evals(tmp_path):
    """An evaluation JSON Lines file with 4-field FENs, zstd-compressed."""
    fens = [" ".join(f.split()[:4]) for f in game_fens(250, seed=2)]
    lines = []
    for i, fen in enumerate(fens):
        record = {
            "fen": fen,
            "evals": [
                {"pvs": [{"cp": 31 - i, "line": "e2e4 e7e5"}], "knodes": 100 + i, "depth": 20}
            ],
        }
        lines.append(json.dumps(record))
    path = tmp_path / "evals.jsonl.zst"
    data = ("\n".join(lines) + "\n").encode()
    path.write_bytes(zstd.ZstdCompressor().compress(data))
    return path, fens, lines


def read_jsonl(path):
    data = path.read_bytes()
    if str(path).endswith(".zst"):
        data = zstd.ZstdDecompressor().stream_reader(io.BytesIO(data)).read()
    return [json.loads(line) for line in data.decode().splitlines()]


@pytest.mark.parametrize("fields", ["same", "4", "6"])
def test_eval_jsonl_keeps_the_fields_asked_for(evals, tmp_path, fields):
    path, fens, lines = evals
    out = tmp_path / "out.jsonl.zst"
    assert run("normalize", path, "-o", out, "--fields", fields, "--chunk-size", "64K") == 0
    got = read_jsonl(out)
    option = fields if fields == "same" else int(fields)
    assert [r["fen"] for r in got] == fx.normalize(fens, fields=option)
    assert [r["evals"] for r in got] == [json.loads(line)["evals"] for line in lines]


def parquet_table(n=400, seed=3, bad=()):
    fens = game_fens(n, seed=seed)
    for i in bad:
        fens[i] = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 junk"
    fens[5] = None  # a missing value stays missing
    return pa.table(
        {
            "id": pa.array(range(n), pa.int64()),
            "fen": pa.array(fens, pa.string()),
            "score": pa.array([i / 7 for i in range(n)], pa.float32()),
            "moves": pa.array([["e2e4"] * (i % 4) for i in range(n)], pa.list_(pa.string())),
        }
    )


def test_parquet_to_column_after_the_source(tmp_path):
    table = parquet_table()
    path = tmp_path / "train.parquet"
    pq.write_table(table, path, compression="zstd", row_group_size=150)
    out = tmp_path / "out.parquet"
    assert run("normalize", path, "-o", out, "--to-column", "norm", "--chunk-size", "4K") == 0
    got = pq.read_table(out)
    assert got.column_names == ["id", "fen", "norm", "score", "moves"]
    assert got.schema.field("norm").type == pa.string()
    assert got.column("norm").to_pylist() == norm(table.column("fen").to_pylist())
    for name in ("id", "fen", "score", "moves"):
        assert got.column(name).equals(table.column(name)), name
        assert got.schema.field(name).type == table.schema.field(name).type


@pytest.mark.parametrize("suffix", [".arrow", ".feather", ".parquet", ".tsv", ".jsonl.gz"])
def test_parquet_to_each_output_format(tmp_path, suffix):
    table = parquet_table(120, seed=4).drop_columns(["moves"])
    path = tmp_path / "in.parquet"
    pq.write_table(table, path)
    out = tmp_path / ("out" + suffix)
    assert run("normalize", path, "-o", out) == 0
    if suffix in (".arrow", ".feather"):
        got = ipc.open_file(str(out)).read_all()
    elif suffix == ".parquet":
        got = pq.read_table(out)
    elif suffix == ".tsv":
        got = pcsv.read_csv(out, parse_options=pcsv.ParseOptions(delimiter="\t"))
    else:
        got = pjson.read_json(io.BytesIO(gzip.decompress(out.read_bytes())))
    expected = norm(table.column("fen").to_pylist())
    if suffix == ".tsv":  # a missing value is written as an empty field
        expected = [e or "" for e in expected]
    assert got.column("fen").to_pylist() == expected
    assert got.column("id").to_pylist() == table.column("id").to_pylist()


def test_arrow_ipc_file_and_stream_in(tmp_path):
    table = parquet_table(200, seed=5)
    for name, opener in (("f.arrow", ipc.new_file), ("s.arrow", ipc.new_stream)):
        path = tmp_path / name
        with opener(str(path), table.schema) as writer:
            for batch in table.to_batches(max_chunksize=64):
                writer.write_batch(batch)
        out = tmp_path / ("out-" + name)
        assert run("normalize", path, "-o", out, "--fields", "4") == 0
        got = ipc.open_file(str(out)).read_all()
        expected = norm(table.column("fen").to_pylist(), fields=4)
        assert got.column("fen").to_pylist() == expected
        assert got.column("moves").equals(table.column("moves"))


def test_rejects_table_and_rows_accounted(tmp_path, capsys):
    table = parquet_table(300, seed=6, bad=(3, 150, 299))
    path = tmp_path / "in.parquet"
    pq.write_table(table, path)
    out, rejects = tmp_path / "out.parquet", tmp_path / "bad.parquet"
    assert run("normalize", path, "-o", out, "--errors", "coerce", "--rejects", rejects) == 1
    got = pq.read_table(out)
    assert got.num_rows == table.num_rows
    bad = pq.read_table(rejects)
    assert bad.column_names == ["row", "column", "field", "reason", "value"]
    assert bad.column("row").to_pylist() == [4, 151, 300]
    assert bad.column("value").to_pylist() == [
        table.column("fen")[i].as_py() for i in (3, 150, 299)
    ]
    norm = got.column("fen")
    assert [norm[i].as_py() for i in (3, 5, 150, 299)] == [None] * 4
    assert "300 rows read, 300 written, 3 rejected" in capsys.readouterr().err

    out2 = tmp_path / "out2.parquet"
    assert run("normalize", path, "-o", out2, "--errors", "ignore") == 1
    assert pq.read_table(out2).column("fen")[150].as_py() == table.column("fen")[150].as_py()

    out3, rejects3 = tmp_path / "out3.parquet", tmp_path / "bad3.csv"
    assert run("normalize", path, "-o", out3, "--rejects", rejects3, "--chunk-size", "1K") == 2
    err = capsys.readouterr().err
    assert "row 4: column" in err
    assert not out3.exists() and not rejects3.exists()
    # stdout: the rows before the bad one
    assert run("normalize", path, "--output-format", "jsonl", "--chunk-size", "1K", "-q") == 2
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["fen"] for line in lines] == fx.normalize(
        table.column("fen").to_pylist()[:3]
    )


def test_validate_reasons_column_and_messages(tmp_path, capsys):
    table = parquet_table(100, seed=7, bad=(10, 60))
    path = tmp_path / "in.parquet"
    pq.write_table(table, path)
    out = tmp_path / "checked.parquet"
    assert run("validate", path, "--reasons-column", "why", "-o", out) == 1
    got = pq.read_table(out)
    assert got.column_names == ["id", "fen", "why", "score", "moves"]
    expected = fx.validate(table.column("fen").to_pylist())
    expected[5] = None  # a missing value is not a bad row
    assert got.column("why").to_pylist() == expected
    messages = tmp_path / "messages.txt"
    assert run("validate", path, "-o", messages) == 1
    assert messages.read_text().splitlines() == [f"11: {expected[10]}", f"61: {expected[60]}"]


@pytest.mark.parametrize("fmt", ["npy", "zobrist"])
def test_encode_a_column(tmp_path, fmt):
    table = parquet_table(150, seed=8)
    path = tmp_path / "in.parquet"
    pq.write_table(table, path)
    out = tmp_path / "out.npy"
    # row 6 is missing: a rejected row
    status = run(
        "encode", path, "-o", out, "--format", fmt, "--errors", "coerce", "--chunk-size", "2K"
    )
    assert status == 1
    fens = table.column("fen").to_pylist()
    got = np.load(out)
    if fmt == "npy":
        expected = fx.encode([f or "" for f in fens], errors="coerce")
    else:
        expected = fx.zobrist([f or "" for f in fens], errors="coerce")
    assert np.array_equal(got, expected)


def test_column_chosen_or_listed(tmp_path, capsys):
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"a": ["x"], "position": [chess.STARTING_FEN]}), path)
    assert run("normalize", path, "-o", tmp_path / "o.parquet") == 2
    err = capsys.readouterr().err
    assert "no column named fen or epd" in err and "a, position" in err
    assert run("normalize", path, "-o", tmp_path / "o.parquet", "--column", "position") == 0
    got = pq.read_table(tmp_path / "o.parquet").column("position").to_pylist()
    assert got == [chess.STARTING_FEN]
    assert run("normalize", path, "--column", "nope", "-o", tmp_path / "p.parquet") == 2
    assert "--column nope" in capsys.readouterr().err


def test_table_options_refused_on_text(tmp_path, capsys):
    path = tmp_path / "t.fen"
    path.write_text(chess.STARTING_FEN + "\n")
    assert run("normalize", path, "--column", "fen") == 2
    assert "--column applies to a table input" in capsys.readouterr().err
    assert run("normalize", path, "-o", tmp_path / "o.parquet") == 2
    assert "names a parquet table" in capsys.readouterr().err


def test_csv_with_a_list_column_is_a_clear_error(tmp_path, capsys):
    path = tmp_path / "in.parquet"
    pq.write_table(parquet_table(20), path)
    assert run("normalize", path, "-o", tmp_path / "o.csv") == 2
    assert "cannot write" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads VmHWM (Linux)")
def test_parquet_streamed_in_bounded_memory(tmp_path):
    """A child normalizing a Parquet file of about 50 MB, whose columns
    decode to over 800 MB, stays far below the decoded size: memory is
    bounded by a batch, not by the file."""
    base = pa.array(game_fens(5000, seed=9))
    n = 3_000_000
    reps = pa.chunked_array([base] * (n // len(base)))
    rng = np.random.default_rng(0)
    table = pa.table(
        {
            "fen": reps,
            "noise": pa.array(rng.random(n)),
            "ply": pa.array(rng.integers(0, 1 << 40, n)),
            # few distinct values: small in the file, large decoded
            "themes": pa.array(
                ["mate mateIn2 middlegame long " * 8 + str(i % 50) for i in range(n)]
            ),
        }
    )
    decoded = table.nbytes
    path = tmp_path / "big.parquet"
    pq.write_table(table, path, compression="zstd", row_group_size=1 << 20)
    del table, reps
    assert os.path.getsize(path) > 30 << 20
    out = tmp_path / "out.parquet"
    code = (
        "import sys\n"
        "from fastxfen import cli\n"
        f"status = cli.main(['normalize', {str(path)!r}, '-o', {str(out)!r}, '-q'])\n"
        # VmHWM, not ru_maxrss: Linux keeps the latter across exec (the parent's)
        "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0]\n"
        "print(int(hwm.split()[1]) * 1024)\n"
        "sys.exit(status)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    peak = int(done.stdout.split()[-1])
    assert decoded > 800 << 20
    assert peak < decoded / 2, (peak, decoded)
    assert pq.ParquetFile(out).metadata.num_rows == n


def test_tsv_epd_column(tmp_path):
    rows = [
        'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 bm e5; id "a";',
        "4k3/8/8/8/8/8/4P3/4K3 w - - hmvc 3; fmvn 40;",
    ]
    path = tmp_path / "suite.tsv"
    path.write_text("name\tEPD\n" + "".join(f"s{i}\t{row}\n" for i, row in enumerate(rows)))
    out = tmp_path / "out.tsv"
    assert run("normalize", path, "-o", out, "--epd") == 0
    got = pcsv.read_csv(out, parse_options=pcsv.ParseOptions(delimiter="\t"))
    assert got.column("EPD").to_pylist() == fx.normalize(rows, epd=True)
    assert got.column("name").to_pylist() == ["s0", "s1"]


def test_ipc_stream_through_stdin_and_stdout(tmp_path):
    table = parquet_table(50, seed=10)
    sink = pa.BufferOutputStream()
    with ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    done = subprocess.run(
        [sys.executable, "-m", "fastxfen", "normalize", "--input-format", "arrow", "-q"],
        input=sink.getvalue().to_pybytes(),
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    got = ipc.open_stream(done.stdout).read_all()
    assert got.column("fen").to_pylist() == norm(table.column("fen").to_pylist())


@pytest.mark.parametrize("option", ["--to-column", "--reasons-column", "--column"])
def test_an_empty_column_name_is_a_usage_error(tmp_path, capsys, option):
    """An empty name would write a second column fastxfen then refuses to
    read (--to-column ""): a usage error before anything is read."""
    path = tmp_path / "in.csv"
    path.write_text("fen\n" + chess.STARTING_FEN + "\n")
    command = "validate" if option == "--reasons-column" else "normalize"
    assert run(command, path, "-o", tmp_path / "o.csv", option, "") == 2
    assert "cannot be empty" in capsys.readouterr().err
    assert not (tmp_path / "o.csv").exists()
    with pytest.raises(ValueError, match="to_column cannot be empty"):
        fx.files.Normalize(to_column="")


def test_table_runs_do_not_import_pandas(tmp_path):
    """pyarrow.array() and Array.to_numpy() import pandas where it is
    installed (0.4 s a run): no table run goes through them, rejects,
    --unique, ignore and a reasons column included."""
    path = tmp_path / "in.parquet"
    pq.write_table(parquet_table(40, seed=11, bad=(3, 7)).drop_columns(["moves"]), path)
    coerce = ["--errors", "coerce", "--rejects"]
    runs = [
        ["normalize", path, "-o", tmp_path / "a.csv", *coerce, tmp_path / "r.csv"],
        ["normalize", path, "-o", tmp_path / "b.parquet", "--errors", "ignore", "--unique"],
        ["validate", path, "-o", tmp_path / "c.jsonl", "--reasons-column", "why"],
        ["dedupe", path, "-o", tmp_path / "d.arrow", *coerce, tmp_path / "r.parquet"],
    ]
    statuses, imported = runs_importing("pandas", runs)
    assert imported is False, statuses


def test_an_unknown_output_extension_is_an_error(tmp_path, capsys):
    """-o games.xlsx named no table format and got Parquet: now an error
    naming the formats, before any file is made; a name without an
    extension still gets the input's format, and --output-format any name."""
    path = tmp_path / "in.parquet"
    pq.write_table(parquet_table(30, seed=12), path)
    for name in ("games.xlsx", "games.xlsx.gz", "games.fen"):
        assert run("normalize", path, "-o", tmp_path / name) == 2
        err = capsys.readouterr().err
        assert "is no table format" in err and ".parquet" in err and ".jsonl" in err, err
        assert "--output-format" in err
    assert run("validate", path, "--reasons-column", "why", "-o", tmp_path / "v.xlsx") == 2
    assert "is no table format" in capsys.readouterr().err
    assert sorted(os.listdir(tmp_path)) == ["in.parquet"]
    assert run("normalize", path, "-o", tmp_path / "plain") == 0
    assert pq.read_table(tmp_path / "plain").num_rows == 30
    assert run("normalize", path, "-o", tmp_path / "x.xlsx", "--output-format", "arrow") == 0
    assert ipc.open_file(str(tmp_path / "x.xlsx")).read_all().num_rows == 30
    # messages of validate and binary files of encode keep any name
    assert run("validate", path, "-o", tmp_path / "messages.txt") == 0
    records = tmp_path / "records.bin"
    assert run("encode", path, "-o", records, "--errors", "coerce") == 1  # row 6 is missing


def test_csv_on_stdin_read_as_text_says_which_option(tmp_path):
    """A CSV piped in without --input-format is read as FEN text: its
    header fails as line 1, and the error says it looks like a CSV header
    and which option reads it."""
    fen = "r6k/pp2r2p/4Rp1Q/3p4/8/1N1P2R1/PqP2bPP/7K b - - 0 24"
    csv_text = f"PuzzleId,FEN,Moves\n00008,{fen},f2g3\n".encode()
    tsv_text = f"name\tEPD\ns0\t{fen}\n".encode()
    for data, kind in ((csv_text, "csv"), (tsv_text, "tsv")):
        for extra in ([], ["-q"], ["--errors", "coerce"]):
            done = subprocess.run(
                [sys.executable, "-m", "fastxfen", "normalize", *extra],
                input=data,
                capture_output=True,
            )
            err = done.stderr.decode()
            assert done.returncode == (1 if extra[:1] == ["--errors"] else 2), err
            assert f"looks like the header of a {kind.upper()} table" in err, err
            assert f"--input-format {kind}" in err
        done = subprocess.run(
            [sys.executable, "-m", "fastxfen", "normalize", "--input-format", kind, "-q"],
            input=data,
            capture_output=True,
        )
        assert done.returncode == 0, done.stderr
    # a bad first position is no header
    done = subprocess.run(
        [sys.executable, "-m", "fastxfen", "normalize"],
        input=b"8/8/8 w - - 0 1\n",
        capture_output=True,
    )
    assert done.returncode == 2 and b"looks like" not in done.stderr
