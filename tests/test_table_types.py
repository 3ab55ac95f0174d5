"""Every Arrow type through every table output format: a column passed
through is written back as it was (read back with its type, the same
values), or the run is refused with exit status 2 before any file is made,
naming the column and its type.  Then what JSON Lines writes for each value
(the bytes of Python's json.dumps), and how CSV and TSV columns get their
types and quotes."""

import datetime as dt
import decimal
import json
import math
import os

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow")
import pyarrow.csv as pcsv  # noqa: E402
import pyarrow.ipc as ipc  # noqa: E402
import pyarrow.json as pjson  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

import fastxfen as fx  # noqa: E402
from fastxfen import cli  # noqa: E402

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"


def run(*argv):
    return cli.main([str(a) for a in argv])


def _columns():
    """A column of every Arrow type family, four rows each (nulls, edges)."""
    d = dt
    struct = pa.struct([("a", pa.int64()), ("b", pa.string())])
    pv = pa.struct([("cp", pa.int32()), ("line", pa.string()), ("mate", pa.int8())])
    cols = {
        "i8": pa.array([1, -128, None, 127], pa.int8()),
        "i16": pa.array([1, -32768, None, 3], pa.int16()),
        "i32": pa.array([1, -(2**31), None, 3], pa.int32()),
        "i64": pa.array([1, -(2**63), None, 2**63 - 1], pa.int64()),
        "u8": pa.array([1, 255, None, 0], pa.uint8()),
        "u16": pa.array([1, 65535, None, 0], pa.uint16()),
        "u32": pa.array([1, 2**32 - 1, None, 0], pa.uint32()),
        "u64": pa.array([1, 2**64 - 1, None, 0], pa.uint64()),
        "f16": pa.array(
            np.array([1.5, -0.0, 0, 65504.0], np.float16), mask=np.array([0, 0, 1, 0], bool)
        ),
        "f32": pa.array([0.1, -0.0, None, 3.4e38], pa.float32()),
        "f64": pa.array([0.1, 1e16, None, 5e-324], pa.float64()),
        "dec128": pa.array(
            [decimal.Decimal("1.50"), decimal.Decimal("-0.01"), None, decimal.Decimal("999.99")],
            pa.decimal128(5, 2),
        ),
        "dec256": pa.array(
            [decimal.Decimal("1.5"), None, decimal.Decimal("-1234567890123456789012345678901.5")]
            + [decimal.Decimal("0")],
            pa.decimal256(40, 1),
        ),
        "date32": pa.array([d.date(2024, 1, 2), None, d.date(1, 1, 1), d.date(9999, 12, 31)]),
        "date64": pa.array(
            [d.date(2024, 1, 2), None, d.date(1970, 1, 1), d.date(2000, 2, 29)], pa.date64()
        ),
        "time32s": pa.array([d.time(3, 4, 5), None, d.time(0), d.time(23, 59, 59)], pa.time32("s")),
        "time32ms": pa.array(
            [d.time(3, 4, 5, 120000), None, d.time(0), d.time(23, 59, 59)], pa.time32("ms")
        ),
        "time64us": pa.array(
            [d.time(3, 4, 5, 123456), None, d.time(0), d.time(23, 59, 59)], pa.time64("us")
        ),
        "time64ns": pa.array([3723000000001, None, 0, 1], pa.time64("ns")),
        "ts_s": pa.array(
            [d.datetime(2024, 1, 2, 3, 4, 5), None, d.datetime(1970, 1, 1), d.datetime(1, 1, 1)],
            pa.timestamp("s"),
        ),
        "ts_ms_utc": pa.array([1704164645123, None, 0, -1], pa.timestamp("ms", tz="UTC")),
        "ts_us_paris": pa.array(
            [1719889445123456, None, 0, 946684800000000], pa.timestamp("us", tz="Europe/Paris")
        ),
        "ts_ns_offset": pa.array([1704164645123456789, None, 0, -1], pa.timestamp("ns", "+05:30")),
        "dur_s": pa.array([3, None, -1, 0], pa.duration("s")),
        "dur_ns": pa.array([3, None, -1, 2**62], pa.duration("ns")),
        "bin": pa.array([b"\xff\xfe\x00", None, b"", b"abc"], pa.binary()),
        "large_bin": pa.array([b"\xff\xfe\x00", None, b"", b"abc"], pa.large_binary()),
        "fixed_bin": pa.array([b"\xff\x00", None, b"ab", b"\x00\x00"], pa.binary(2)),
        "str": pa.array(['a"b\\c', None, "", "\x00\x1f\x7f\u2028 é,\n\t\r😀"]),
        "large_str": pa.array(["x", None, "", "y,z"], pa.large_string()),
        "bool": pa.array([True, None, False, True]),
        "list": pa.array([[1, None], None, [], [3]], pa.list_(pa.int32())),
        "large_list": pa.array([["a"], None, [], [None]], pa.large_list(pa.string())),
        "fixed_list": pa.array(
            [[1.5, 2.0], None, [None, 0.0], [3.0, -1.0]], pa.list_(pa.float64(), 2)
        ),
        "struct": pa.array(
            [{"a": 1, "b": "x"}, None, {"a": None, "b": None}, {"a": 2, "b": "é"}], struct
        ),
        "evals": pa.array(
            [[{"cp": 31, "line": "e2e4 e7e5"}, {"mate": -2, "line": "d2d4"}], None, [], [None]],
            pa.list_(pv),
        ),
        "map": pa.array(
            [[("a", 1), ("b", None)], None, [], [("c", 3)]], pa.map_(pa.string(), pa.int32())
        ),
        "dict": pa.array(["x", None, "y", "x"]).dictionary_encode(),
        "null": pa.nulls(4),
        "interval": pa.array(
            [(1, 2, 3), None, (0, 0, 0), (-1, -1, -1)], pa.month_day_nano_interval()
        ),
        "union": pa.UnionArray.from_sparse(
            pa.array([0, 1, 0, 1], pa.int8()),
            [pa.array([1, 2, 3, 4]), pa.array(["a", "b", "c", "d"])],
        ),
    }
    if hasattr(pa, "string_view"):
        cols["view_str"] = pa.array(["x", None, "", 'q"'], pa.string_view())
    if hasattr(pa, "list_view"):
        cols["list_view"] = pa.array([[1], None, [], [2, 3]], pa.list_view(pa.int64()))
    return cols


COLUMNS = _columns()
BINARY = {"bin", "large_bin", "fixed_bin"}
NESTED = {"list", "large_list", "fixed_list", "struct", "evals", "list_view"}
#: The columns each format refuses (the rest it writes back as they were).
REFUSED = {
    "parquet": {"interval", "union"},
    "arrow": set(),
    "csv": BINARY | NESTED | {"map", "interval", "union"},
    "tsv": BINARY | NESTED | {"map", "interval", "union"},
    "jsonl": BINARY | {"map", "interval", "union"},
}


def _unwritable() -> dict:
    """{format: columns} this pyarrow cannot write although the format holds
    their type (older pyarrow: no text for a timestamp at a fixed offset,
    Parquet data with nulls in some list kinds): such a run stops with exit
    2, naming the output, before anything is published.  A type this
    pyarrow's Parquet writer refuses outright (list views before some
    version) joins REFUSED, as the run asks the same writer."""
    found: dict = {fmt: set() for fmt in REFUSED}
    try:
        COLUMNS["ts_ns_offset"].cast(pa.string())
    except pa.ArrowException:
        for fmt in ("csv", "tsv", "jsonl"):
            found[fmt].add("ts_ns_offset")
    for name, column in COLUMNS.items():
        if name in REFUSED["parquet"]:
            continue
        table = pa.table({name: column})
        try:
            pq.ParquetWriter(pa.BufferOutputStream(), table.schema).close()
        except (pa.ArrowException, TypeError):
            REFUSED["parquet"].add(name)
            continue
        try:
            pq.write_table(table, pa.BufferOutputStream())
        except pa.ArrowException:
            found["parquet"].add(name)
    return found


UNWRITABLE = _unwritable()

#: Types Parquet stores as another of the same values (docs/cli.md).
PARQUET_TYPES = {"date64": pa.date32(), "time32s": pa.time32("ms"), "ts_s": pa.timestamp("ms")}
SUFFIX = {"parquet": ".parquet", "arrow": ".arrow", "csv": ".csv", "tsv": ".tsv", "jsonl": ".jsonl"}


def table_of(name):
    return pa.table({"fen": [START, None, E4, START], name: COLUMNS[name]})


def same(got, expected):
    """Equal values (NaN equal to NaN, -0.0 apart from 0.0)."""
    if isinstance(expected, float):
        return isinstance(got, float) and (
            (math.isnan(got) and math.isnan(expected)) or repr(got) == repr(expected)
        )
    if isinstance(expected, (list, tuple)):
        return len(got) == len(expected) and all(map(same, got, expected))
    if isinstance(expected, dict):
        return got.keys() == expected.keys() and all(same(got[k], expected[k]) for k in expected)
    return got == expected


def _cast(column, kind):
    if column.type == kind or "list_view" in str(kind):  # pyarrow casts no list to a view
        return column
    if pa.types.is_time(kind) and pa.types.is_string(column.type):
        # pyarrow casts no string to a time: through a timestamp that day
        day = pa.compute.binary_join_element_wise("1970-01-01 ", column, "")
        column = day.cast(pa.timestamp("ns")).cast(pa.time64("ns"))
    return column.cast(kind)


def _json_type(kind):
    """The type pyarrow's JSON reader reads a column written for ``kind``
    as (cast to ``kind`` afterwards)."""
    t = pa.types
    if t.is_struct(kind):
        return pa.struct([f.with_type(_json_type(f.type)) for f in kind])
    if (
        t.is_list(kind)
        or t.is_large_list(kind)
        or t.is_fixed_size_list(kind)
        or "list_view" in str(kind)
    ):
        return pa.list_(_json_type(kind.value_type))
    if t.is_dictionary(kind):
        return _json_type(kind.value_type)
    if t.is_float16(kind):
        return pa.float64()
    if t.is_duration(kind):
        return pa.int64()
    if t.is_date(kind) or t.is_time(kind) or "view" in str(kind):
        return pa.string()
    return kind


def _csv_column(path, fmt, name, kind):
    """Column ``name`` of a CSV, read as ``kind`` where pyarrow's reader
    reads that type, else as text cast to it."""
    for read_as in (kind, pa.string()):
        options = pcsv.ConvertOptions(
            column_types={name: read_as},
            null_values=[""],
            strings_can_be_null=True,
            quoted_strings_can_be_null=False,
        )
        delimiter = "\t" if fmt == "tsv" else ","
        try:
            column = pcsv.read_csv(
                path, parse_options=pcsv.ParseOptions(delimiter=delimiter), convert_options=options
            ).column(name)
        except pa.ArrowNotImplementedError:
            continue
        return _cast(column, kind)
    raise AssertionError(f"{kind} read neither way")


def read_back(path, fmt, schema):
    """The table at ``path`` read with the written columns' types."""
    if fmt == "parquet":
        return pq.read_table(path)
    if fmt == "arrow":
        return ipc.open_file(str(path)).read_all()
    columns = []
    if fmt == "jsonl":
        explicit = pa.schema([f.with_type(_json_type(f.type)) for f in schema])
        table = pjson.read_json(path, parse_options=pjson.ParseOptions(explicit_schema=explicit))
    for field in schema:
        kind = field.type.value_type if pa.types.is_dictionary(field.type) else field.type
        if fmt == "jsonl":
            columns.append(_cast(table.column(field.name), kind))
        else:
            columns.append(_csv_column(path, fmt, field.name, kind))
    return pa.table(columns, names=schema.names)


def write_arrow(path, table):
    with ipc.new_file(str(path), table.schema) as writer:
        writer.write_table(table)


@pytest.mark.parametrize("fmt", list(SUFFIX))
def test_every_type_written_back_or_refused(tmp_path, fmt, capsys):
    """Each format writes a table of every type it holds back as it was
    (read with the columns' types: the same values), and refuses each of
    the others with exit status 2 before any file is made, naming the
    column and its type."""
    out = tmp_path / ("out" + SUFFIX[fmt])
    for name in sorted(REFUSED[fmt]):
        src = tmp_path / f"{name}.arrow"
        write_arrow(src, table_of(name))
        assert run("normalize", src, "-o", out) == 2, name
        kind = str(COLUMNS[name].type)
        assert f"column {name!r} holds {kind}" in capsys.readouterr().err, name
        if fmt != "parquet":  # (Parquet is written to files only)
            assert run("normalize", src, "--output-format", fmt) == 2
            assert capsys.readouterr().out == ""  # nothing written to stdout either
        os.unlink(src)
        assert os.listdir(tmp_path) == []  # no file made
    for name in sorted(UNWRITABLE[fmt]):
        src = tmp_path / f"{name}.arrow"
        write_arrow(src, table_of(name))
        assert run("normalize", src, "-o", out) == 2, name
        assert f"cannot write {out}" in capsys.readouterr().err, name
        os.unlink(src)
        assert os.listdir(tmp_path) == []  # nothing published
    names = [name for name in COLUMNS if name not in REFUSED[fmt] | UNWRITABLE[fmt]]
    table = pa.table({"fen": [START, None, E4, START], **{n: COLUMNS[n] for n in names}})
    src = tmp_path / "in.arrow"
    write_arrow(src, table)
    assert run("normalize", src, "-o", out, "-q") == 0
    got = read_back(out, fmt, table.schema)
    assert got.column("fen").to_pylist() == [START, None, fx.normalize(E4), START]
    for name in names:
        expected = table.column(name)
        if fmt == "parquet":
            assert got.schema.field(name).type == PARQUET_TYPES.get(name, expected.type)
        if fmt == "arrow":
            assert got.column(name).equals(expected), name
        assert same(got.column(name).to_pylist(), expected.to_pylist()), (name, got.column(name))
    if fmt in ("csv", "tsv", "jsonl"):  # fastxfen reads its own output again
        assert run("normalize", out, "-o", tmp_path / "again.arrow", "-q") == 0


def test_nan_and_infinities_have_no_json_form(tmp_path, capsys):
    """A NaN or an infinity, at any depth, stops a JSON Lines output with
    the row and column named, nothing published; CSV, Parquet and Arrow
    write them."""
    values = [0.5, float("nan"), float("inf"), -float("inf")]
    for column, bad_row in (
        (pa.array([0.5, 1.0, float("nan"), None]), 3),
        (pa.array([[0.5], [], [1.0, -float("inf")], None], pa.list_(pa.float32())), 3),
        (pa.array([{"x": 1.0}, {"x": float("inf")}, None, {"x": 2.0}]), 2),
    ):
        table = pa.table({"fen": [START] * 4, "v": column})
        src = tmp_path / "in.parquet"
        pq.write_table(table, src)
        out = tmp_path / "out.jsonl"
        assert run("normalize", src, "-o", out, "--chunk-size", "1K") == 2
        err = capsys.readouterr().err
        assert f"row {bad_row} of the output, column 'v'" in err and "no JSON form" in err, err
        assert not out.exists()
    table = pa.table({"fen": [START] * 4, "v": pa.array(values)})
    pq.write_table(table, src)
    for suffix in (".csv", ".parquet", ".arrow"):
        assert run("normalize", src, "-o", tmp_path / ("ok" + suffix), "-q") == 0
    # nan and inf, as pyarrow writes them; its reader reads nan as NaN once
    # "nan" is no null value (fastxfen's reader counts only the empty field)
    got = _csv_column(tmp_path / "ok.csv", "csv", "v", pa.float64()).to_pylist()
    assert same(got, values)


# ------------------------------------------------------------------ JSON Lines


def dumps(row):
    return json.dumps(row, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def test_json_lines_are_the_bytes_json_dumps_writes(tmp_path):
    """JSON-native values (no nulls inside objects) come out as json.dumps
    writes each row: compact, UTF-8, Python's float repr, its escapes."""
    rng = np.random.default_rng(7)
    n = 3000
    floats = rng.integers(0, 2**64, n, dtype=np.uint64).view(np.float64)
    floats[~np.isfinite(floats)] = 0.25
    floats[:12] = [0.0, -0.0, 1.0, 1e15, 1e16, 1e-4, 1e-5, 0.1, 5e-324, 1e300, 123.456, 2.5]
    specials = ["", "a", 'q"q', "back\\slash", "\x00\x01\x1f\x7f", "tab\tnl\ncr\r", "é😀\u2028"]
    strings = [specials[i % len(specials)] + str(i) for i in range(n)]
    ints = rng.integers(-(2**63), 2**63 - 1, n, dtype=np.int64)
    rows = [
        {
            "fen": START,
            "f": float(floats[i]),
            "s": strings[i],
            "i": int(ints[i]),
            "b": bool(i % 2),
            "n": None,
            "l": [int(ints[i]) % 100, float(floats[i])] if i % 3 else [],
            "o": {"cp": i, "line": strings[i]},
            "f32": float(np.float32(floats[i] % 1e30)),
        }
        for i in range(n)
    ]
    table = pa.Table.from_pylist(rows)
    table = table.set_column(8, "f32", table.column("f32").cast(pa.float32()))
    src = tmp_path / "in.parquet"
    pq.write_table(table, src)
    out = tmp_path / "out.jsonl"
    assert run("normalize", src, "-o", out, "--chunk-size", "64K", "-q") == 0
    expected = "".join(dumps(row) + "\n" for row in table.to_pylist())
    assert out.read_text(encoding="utf-8") == expected


def test_a_null_member_of_an_object_is_left_out(tmp_path):
    table = pa.table(
        {
            "fen": [START, None],
            "pv": pa.array(
                [{"cp": None, "mate": 2}, None],
                pa.struct([("cp", pa.int64()), ("mate", pa.int64())]),
            ),
        }
    )
    src = tmp_path / "in.parquet"
    pq.write_table(table, src)
    out = tmp_path / "out.jsonl"
    assert run("normalize", src, "-o", out, "-q") == 0
    assert out.read_text() == f'{{"fen":"{START}","pv":{{"mate":2}}}}\n{{"fen":null,"pv":null}}\n'


def test_lichess_evaluations_come_back_as_json_dumps_writes_them(tmp_path):
    """The evaluation file's other fields are re-encoded as json.dumps
    writes the values pyarrow reads: its compact lines come back byte for
    byte but for the position (a pv's keys in the order of the first that
    had them), a date-like string stays the string it was, and spaced
    input is written compact."""
    fens = fx.normalize([E4, START], fields=4)
    lines = [
        {
            "fen": fens[0],
            "evals": [
                {
                    "pvs": [{"cp": 31, "line": "e7e5 g1f3"}, {"cp": 2, "line": "c7c5"}],
                    "knodes": 1234,
                    "depth": 36,
                }
            ],
            "date": "2024-01-31",
            "at": {"utc": "2024-01-31 10:00:00", "day": ["2024-01-31"]},
        },
        {
            "fen": fens[1],
            "evals": [
                {"pvs": [{"cp": 18, "line": "e2e4"}], "knodes": 5, "depth": 20},
                {"pvs": [{"mate": -3, "line": "d2d4 é"}], "knodes": 7, "depth": 99},
            ],
            "date": "2024-02-01",
            "at": {"utc": "2024-02-01T10:00:00Z", "day": []},
        },
    ]
    src = tmp_path / "evals.jsonl"
    src.write_text("".join(json.dumps(line) + "\n" for line in lines))  # spaced
    out = tmp_path / "out.jsonl"
    assert run("normalize", src, "-o", out, "--fields", "4", "-q") == 0
    got = out.read_text(encoding="utf-8").splitlines()
    assert got[0] == dumps(lines[0])
    # the mate pv: keys in the struct's order, the missing cp left out
    assert got[1] == dumps(lines[1]).replace(
        '{"mate":-3,"line":"d2d4 é"}', '{"line":"d2d4 é","mate":-3}'
    )
    assert [json.loads(line) for line in got] == lines
