"""The types of a CSV or TSV table's columns: the column of positions read
as text, every other column typed from its first rows where the type
writes each value back as the same text (the lichess puzzles' numbers as
numbers), or as --column-types says; a later value its type cannot hold is
an error naming its row and column."""

import decimal
import gzip
import io
import subprocess
import sys

import pytest

pa = pytest.importorskip("pyarrow")
import pyarrow.ipc as ipc  # noqa: E402
import pyarrow.json as pjson  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

import fastxfen as fx  # noqa: E402
from fastxfen import cli  # noqa: E402

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"


def run(*argv):
    return cli.main([str(a) for a in argv])


def puzzle_csv(
    rows, header="PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,OpeningTags"
):
    return header + "\n" + "".join(row + "\n" for row in rows)


PUZZLES = [
    f'00008,{START},e2e4 e7e5,1913,75,94,7096,crushing long,"Sicilian_Defense, x"',
    f"0000D,{fx.normalize(E4)},d3d6,1440,076,-95,24484,advantage,",
    f'0009B,{START},b6c5,1042,75,91,492,"say ""hi""",""',
]


def test_puzzle_csv_to_parquet_keeps_numbers_as_numbers(tmp_path):
    src = tmp_path / "puzzles.csv"
    src.write_text(puzzle_csv(PUZZLES))
    out = tmp_path / "puzzles.parquet"
    assert run("normalize", src, "-o", out, "-q") == 0
    table = pq.read_table(out)
    types = {f.name: str(f.type) for f in table.schema}
    assert types == {
        "PuzzleId": "string",  # 00008: written back as text only
        "FEN": "string",
        "Moves": "string",
        "Rating": "int64",
        "RatingDeviation": "string",  # 076 would come back as 76
        "Popularity": "int64",
        "NbPlays": "int64",
        "Themes": "string",
        "OpeningTags": "string",
    }
    assert table.column("Rating").to_pylist() == [1913, 1440, 1042]
    assert table.column("OpeningTags").to_pylist() == ["Sicilian_Defense, x", None, ""]
    assert table.column("Themes").to_pylist()[2] == 'say "hi"'


def test_csv_to_csv_keeps_every_field_with_minimal_quotes(tmp_path):
    """Numbers are no longer quoted ("1487"); a field is quoted only where
    RFC 4180 needs it, and the empty string apart from a missing value."""
    src = tmp_path / "puzzles.csv"
    src.write_text(puzzle_csv(PUZZLES))
    out = tmp_path / "out.tsv.gz"
    assert run("normalize", src, "-o", tmp_path / "out.csv", "-q") == 0
    assert (tmp_path / "out.csv").read_text() == src.read_text()
    assert run("normalize", src, "-o", out, "-q") == 0
    tsv = gzip.decompress(out.read_bytes()).decode().splitlines()
    assert tsv[1].split("\t")[3:] == [
        "1913",
        "75",
        "94",
        "7096",
        "crushing long",
        "Sicilian_Defense, x",
    ]
    assert tsv[3].endswith('\t"say ""hi"""\t""')


def test_csv_types_come_from_the_first_block_and_hold_for_the_table(tmp_path, capsys):
    fen_rows = [f"{i},{START},{1500 + i},{i / 4:g}" for i in range(4000)]
    src = tmp_path / "late.csv"
    late = list(fen_rows)
    late[3500] = f"3500,{START},n/a,0.5"
    src.write_text("id,fen,rating,score\n" + "\n".join(late) + "\n")
    out = tmp_path / "out.parquet"
    assert run("normalize", src, "-o", out, "--chunk-size", "16K") == 2
    err = capsys.readouterr().err
    assert "row 3501, column 'rating': 'n/a' is no int64" in err, err
    assert "--column-types 'rating=string'" in err
    assert not out.exists()
    # a value the inferred type would write back otherwise is no silent change
    late[3500] = f"3500,{START},01501,0.5"
    src.write_text("id,fen,rating,score\n" + "\n".join(late) + "\n")
    assert run("normalize", src, "-o", out, "--chunk-size", "16K") == 2
    assert "'01501' would be written back as '1501' by int64" in capsys.readouterr().err
    # the type given: the whole column read so
    argv = ["normalize", src, "-o", out, "--chunk-size", "16K", "-q"]
    assert run(*argv, "--column-types", "rating=string,id=int32") == 0
    table = pq.read_table(out)
    assert str(table.schema.field("rating").type) == "string"
    assert str(table.schema.field("id").type) == "int32"
    assert table.column("rating").to_pylist()[3500] == "01501"
    assert str(table.schema.field("score").type) == "double"
    assert run(*argv, "--column-types", "*=string") == 0
    assert set(map(str, pq.read_table(out).schema.types)) == {"string"}
    # a given type that a value cannot hold
    assert run(*argv, "--column-types", "score=int64") == 2
    assert (
        "row 2, column 'score': '0.25' cannot be read as int64 (--column-types)"
        in capsys.readouterr().err
    )


def test_column_types_mistakes(tmp_path, capsys):
    src = tmp_path / "t.csv"
    src.write_text(f"fen,n\n{START},1\n")
    out = tmp_path / "o.parquet"
    for given, message in (
        ("n=int33", "'int33' is no column type"),
        ("n", "is not NAME=TYPE"),
        ("nope=int8", "--column-types names no column 'nope'; its columns: fen, n"),
        ("fen=int8", "'fen' is the column of positions, always read as text"),
    ):
        assert run("normalize", src, "-o", out, "--column-types", given) == 2
        assert message in capsys.readouterr().err
    assert run("normalize", src, "-o", out, "--column-types", "n=decimal128(10,2)", "-q") == 0
    assert pq.read_table(out).column("n").to_pylist() == [decimal.Decimal("1.00")]
    pq.write_table(pa.table({"fen": [START]}), tmp_path / "t.parquet")
    assert run("normalize", tmp_path / "t.parquet", "-o", out, "--column-types", "x=int8") == 2
    assert "--column-types applies to CSV and TSV inputs" in capsys.readouterr().err
    (tmp_path / "t.fen").write_text(START + "\n")
    assert run("normalize", tmp_path / "t.fen", "--column-types", "x=int8") == 2
    assert "--column-types applies to a table input" in capsys.readouterr().err


def test_files_settings_take_column_types(tmp_path):
    from fastxfen import files

    src = tmp_path / "t.csv"
    src.write_text(f"fen,n,d\n{START},7,2024-01-31\n")
    settings = files.Settings(column_types={"n": "int8"})
    assert settings == files.Settings(column_types="n=int8")
    assert settings.column_types == (("n", "int8"),)
    with pytest.raises(ValueError, match="no column type"):
        files.Settings(column_types={"n": "int99"})
    out = tmp_path / "o.arrow"
    assert files.run(files.Normalize(), str(src), str(out), settings).status == 0
    schema = ipc.open_file(str(out)).schema
    assert str(schema.field("n").type) == "int8" and str(schema.field("d").type) == "date32[day]"


def test_csv_on_stdin_is_typed_too():
    data = f"fen,n\n{START},7\n".encode()
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "fastxfen",
            "normalize",
            "--input-format",
            "csv",
            "--output-format",
            "jsonl",
            "-q",
        ],
        input=data,
        capture_output=True,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f'{{"fen":"{START}","n":7}}\n'.encode()
    assert pjson.read_json(io.BytesIO(done.stdout)).column("n").type == pa.int64()


def test_an_empty_position_field_is_a_missing_value(tmp_path, capsys):
    """An unquoted empty field is a missing value in every column, the
    column of positions included (as a null in Parquet); a quoted one is
    the empty string, a bad row."""
    src = tmp_path / "t.csv"
    src.write_text(f'fen,n\n{START},1\n,2\n"",3\n')
    out = tmp_path / "o.parquet"
    assert run("normalize", src, "-o", out, "--errors", "coerce", "-q") == 1
    assert pq.read_table(out).column("fen").to_pylist() == [START, None, None]
    assert run("validate", src, "-o", tmp_path / "v.txt") == 1
    assert (tmp_path / "v.txt").read_text().splitlines()[0].startswith("3: ")
    assert run("encode", src, "-o", tmp_path / "e.npy", "--errors", "coerce", "-q") == 1
    assert run("encode", src, "-o", tmp_path / "e.npy", "--rejects", tmp_path / "r.csv") == 2
    assert "row 2: column 0 (input): missing value" in capsys.readouterr().err
