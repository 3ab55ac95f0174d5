"""The file engine (fastxfen.files) called directly with values, no
command line: tasks and settings checked when made, ``run`` over text,
tables, binary files and PGN, its statistics, progress and notices, what a
stop publishes, and a table format registered from outside."""

import gzip
import json
import pickle

import numpy as np
import pytest

import fastxfen as fx
from fastxfen import files
from fastxfen.files import report, table_formats
from fastxfen.files.tables import TableFormat

GOOD = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 01"
ROWS = [GOOD, "8/8/8/8/8/8/8/8 w - - 0 1", "8/8/9/8/8/8/8/8 w - - 0 1", GOOD, "not a position"]
TEXT = ("\n".join(ROWS) + "\n").encode()


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "in.fen"
    path.write_bytes(TEXT)
    return path


# ------------------------------------------------------------------ values


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: files.Settings(threads=0), "threads must be"),
        (lambda: files.Settings(threads=True), "threads must be"),
        (lambda: files.Settings(chunk_size=0), "chunk size must be between 1 byte and 16M"),
        (lambda: files.Settings(chunk_size=(16 << 20) + 1), "between 1 byte and 16M"),
        (lambda: files.Settings(errors="skip"), "errors must be one of"),
        (lambda: files.Settings(level="3"), "level must be an int"),
        (lambda: files.Normalize(castling="kqkq"), "castling must be one of"),
        (lambda: files.Normalize(fields=5), "fields must be 4, 6 or 'same'"),
        (lambda: files.Normalize(counters=True), "--counters applies with --unique"),
        (lambda: files.Normalize(epd="yes"), "epd must be True or False"),
        (lambda: files.Decode(fields="same"), "records have no such count"),
        (lambda: files.Decode(format=files.Zobrist()), "a binary format decode reads"),
        (lambda: files.Encode(format="npy"), "must be a binary format"),
        (lambda: files.Records(width=9), "width must be 8 or 10"),
        (lambda: files.Planes(dtype="complex64"), "planes need a bool, integer or float"),
        (lambda: files.Encode(format=files.Planes(dtype=None)), "encode writes need a dtype"),
        (lambda: files.Planes(extra=("turn", "turn")), "named twice"),
        (lambda: files.Encode(format=files.Planes(extra="halfmove_scaled")), "needs a float"),
        (lambda: files.Decode(format=files.Planes(perspective="side_to_move")), "'turn' plane"),
        (lambda: files.Pgn(select="all"), "select must be None, .standard. or .setup."),
    ],
)
def test_values_are_checked_when_made(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_values_pickle_for_the_workers():
    task = files.Normalize(castling="shredder", fields="same")
    settings = files.Settings(errors="coerce", threads=2, chunk_size=1 << 16)
    assert pickle.loads(pickle.dumps(task)) == task
    assert pickle.loads(pickle.dumps(settings)) == settings
    planes = files.Encode(format=files.Planes(extra=("turn",), dtype="float32"))
    assert pickle.loads(pickle.dumps(planes)) == planes


def test_a_task_takes_its_errors_modes_only(source, tmp_path):
    with pytest.raises(ValueError, match="errors='ignore' passes text through"):
        files.run(files.Encode(), source, tmp_path / "o.npy", files.Settings(errors="ignore"))
    with pytest.raises(ValueError, match="validate takes no errors mode"):
        files.run(files.Validate(), source, tmp_path / "o", files.Settings(errors="raise"))
    with pytest.raises(ValueError, match="task must be"):
        files.run("normalize", source, tmp_path / "o")


# ------------------------------------------------------------------ text


def test_normalize_a_file_with_rejects(source, tmp_path):
    out, rejects = tmp_path / "out.fen.gz", tmp_path / "bad.tsv"
    settings = files.Settings(errors="coerce", rejects=str(rejects), chunk_size=64)
    stats = files.run(files.Normalize(castling="shredder"), str(source), str(out), settings)
    assert (stats.read, stats.written, stats.rejected) == (5, 5, 2)
    assert stats.status == report.REJECTED and stats.stopped is None
    assert gzip.decompress(out.read_bytes()) == fx.normalize(
        TEXT, castling="shredder", errors="coerce"
    )
    lines = rejects.read_bytes().decode().splitlines()
    assert [line.split("\t")[0] for line in lines] == ["3", "5"]
    assert lines[1].endswith("\tnot a position")
    assert stats.closing(quiet=True) == ""
    assert stats.closing().startswith("fastxfen normalize: 5 rows read, 5 written, 2 rejected")


def test_a_row_rejected_under_raise_stops_and_publishes_nothing(source, tmp_path):
    out = tmp_path / "out.fen"
    out.write_bytes(b"old")
    stats = files.run(files.Normalize(), source, out, files.Settings())
    assert stats.status == report.FAILED and stats.stopped.number == 3
    assert stats.read == 3 and stats.written == 2
    assert out.read_bytes() == b"old"
    assert stats.closing(quiet=True) == f"fastxfen: error: line 3: {fx.validate(ROWS[2])}\n"
    assert sorted(tmp_path.iterdir()) == sorted([source, out])  # no temporary file left


def test_what_the_run_cannot_get_past_is_a_run_error(source, tmp_path):
    with pytest.raises(files.RunError, match="cannot read .*missing"):
        files.run(files.Normalize(), tmp_path / "missing.fen", tmp_path / "o")
    with pytest.raises(files.RunError, match="are the same file"):
        files.run(files.Normalize(), str(source), str(source))
    with pytest.raises(files.RunError, match="--level for gzip is between 0 and 9"):
        files.run(files.Normalize(), str(source), str(tmp_path / "o.gz"), files.Settings(level=10))
    with pytest.raises(files.RunError, match="--column applies to a table input"):
        files.run(files.Normalize(), str(source), str(tmp_path / "o"), files.Settings(column="x"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.fen"]


def test_progress_and_notices(source, tmp_path):
    seen, notices = [], []
    settings = files.Settings(
        errors="coerce",
        chunk_size=64,
        progress=lambda at, total, unit: seen.append((at, total, unit)),
        notice=notices.append,
    )
    files.run(files.Validate(), str(source), str(tmp_path / "v.txt"), files.Settings())
    files.run(files.Dedupe(), str(source), str(tmp_path / "u.fen"), settings)
    assert seen[0] == (0, len(TEXT), "B") and seen[-1] == (len(TEXT), len(TEXT), "B")
    assert [at for at, _, _ in seen] == sorted({at for at, _, _ in seen})
    assert notices == []  # a file is no terminal


def test_validate_encode_decode_and_dedupe(source, tmp_path):
    messages = tmp_path / "v.txt"
    stats = files.run(files.Validate(), str(source), str(messages))
    assert stats.status == report.REJECTED and stats.rejected == 2
    expected = [f"{k + 1}: {m}" for k, m in enumerate(fx.validate(ROWS)) if m]
    assert messages.read_text().splitlines() == expected
    npy = tmp_path / "r.npy"
    settings = files.Settings(errors="coerce")
    stats = files.run(files.Encode(format=files.Records(width=10)), str(source), str(npy), settings)
    assert stats.coerced_as == "null records" and stats.rejected == 2
    assert np.array_equal(np.load(npy), fx.encode(ROWS, width=10, errors="coerce"))
    good = tmp_path / "good.npy"
    np.save(good, fx.encode([GOOD, ROWS[1]]))
    text = tmp_path / "d.fen"
    stats = files.run(files.Decode(fields=4, castling="shredder"), str(good), str(text))
    assert (stats.unit, stats.status) == ("record", report.OK)
    assert text.read_text().splitlines() == fx.decode(
        fx.encode([GOOD, ROWS[1]]), fields=4, castling="shredder"
    )
    unique = tmp_path / "u.fen"
    stats = files.run(files.Dedupe(), str(source), str(unique), settings)
    assert stats.duplicates == 1
    assert unique.read_text().splitlines() == [GOOD, ROWS[1]]


def test_pgn_gives_its_report(tmp_path):
    game = '[Event "x"]\n[FEN "4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1"]\n\n1. Rh2 *\n'
    src, out = tmp_path / "in.pgn", tmp_path / "out.pgn"
    src.write_text(game * 3)
    result = files.run(files.Pgn(), str(src), str(out))
    assert isinstance(result, files.PgnReport) and result.status == report.OK
    assert result.stats.fen_tags == 3
    assert out.read_bytes() == fx.pgn.normalize_pgn((game * 3).encode())
    assert result.closing().startswith("fastxfen pgn: 3 games read, 3 written")


# ------------------------------------------------------------------ tables


def test_a_table_with_a_new_column(tmp_path):
    pcsv = pytest.importorskip("pyarrow.csv")
    pq = pytest.importorskip("pyarrow.parquet")
    src, out = tmp_path / "in.jsonl", tmp_path / "out.parquet"
    src.write_text("".join(json.dumps({"FEN": row, "n": k}) + "\n" for k, row in enumerate(ROWS)))
    settings = files.Settings(errors="coerce", rejects=str(tmp_path / "bad.csv"))
    stats = files.run(files.Normalize(to_column="canon"), str(src), str(out), settings)
    assert (stats.unit, stats.read, stats.rejected) == ("row", 5, 2)
    table = pq.read_table(out)
    assert table.column_names == ["FEN", "canon", "n"]
    assert table.column("canon").to_pylist() == fx.normalize(ROWS, errors="coerce")
    assert pcsv.read_csv(tmp_path / "bad.csv").column("row").to_pylist() == [3, 5]


def _lines_reader(reader):
    """A made-up table format: one position per line, as a column 'fen'."""
    pa = pytest.importorskip("pyarrow")
    lines = reader.stream().read_exactly(1 << 20).decode().splitlines()
    schema = pa.schema([("fen", pa.string())])
    return schema, iter([pa.RecordBatch.from_arrays([pa.array(lines)], schema=schema)])


class _LinesWriter:
    def __init__(self, output, schema):
        self.output = output

    def write(self, batch):
        self.output.write("".join(f"{v}\n" for v in batch.column(0).to_pylist()).encode())

    def close(self):
        pass

    def abandon(self):
        pass


def test_a_registered_table_format_is_found_by_extension(tmp_path, monkeypatch):
    pytest.importorskip("pyarrow")
    monkeypatch.setattr(table_formats, "FORMATS", dict(table_formats.FORMATS))
    monkeypatch.setattr(table_formats, "_BY_EXTENSION", dict(table_formats._BY_EXTENSION))
    files.register(TableFormat("lines", (".lines",), _lines_reader, _LinesWriter))
    assert table_formats.format_by_name("a.lines.gz") == "lines"
    src, out = tmp_path / "in.lines.gz", tmp_path / "out.lines"
    src.write_bytes(gzip.compress(TEXT))
    stats = files.run(files.Normalize(), str(src), str(out), files.Settings(errors="coerce"))
    assert stats.rejected == 2
    assert out.read_text().splitlines() == [
        "None" if v is None else v for v in fx.normalize(ROWS, errors="coerce")
    ]
    from fastxfen import cli

    assert cli.main(["normalize", str(src), "-o", str(tmp_path / "o2.lines"), "-q"]) == 2
    assert cli.main(["validate", str(src), "--input-format", "lines", "-q", "-o", "-"]) == 1


def test_a_stopping_row_keeps_the_core_code(tmp_path):
    """The FenError a run stops at carries the C core's code, from text and
    from a table, also when its reason is reworded for files."""
    from fastxfen import _codec

    wide = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
    src = tmp_path / "in.fen"
    src.write_text(f"{GOOD}\n{wide}\n")
    stats = files.run(files.Encode(), str(src), str(tmp_path / "o.npy"))
    error = stats.stopped.error
    assert error.code == _codec.E_WIDE_ROW and error.reason == "a 10-wide position needs --width 10"
    table = tmp_path / "in.jsonl"
    table.write_text(json.dumps({"fen": GOOD}) + "\n" + json.dumps({"fen": ROWS[2]}) + "\n")
    pytest.importorskip("pyarrow")
    stats = files.run(files.Normalize(), str(table), str(tmp_path / "o.jsonl"))
    assert stats.stopped.number == 2 and stats.stopped.error.code is not None
    with pytest.raises(fx.FenError) as raised:
        fx.normalize(ROWS[2])
    assert stats.stopped.error.code == raised.value.code
