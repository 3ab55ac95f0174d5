"""fastxfen.dask: the partition functions (pandas and pyarrow only), then, on
a ``LocalCluster(n_workers=2, processes=True, threads_per_worker=1)``, Bags,
DataFrame columns and ``fastxfen normalize --dask`` against the
single-process results, row for row."""

import gzip
import os
import sys

import numpy as np
import pytest

import fastxfen as fx
from fastxfen import cli, files
from fastxfen import dask as fxd

pa = pytest.importorskip("pyarrow")


def positions(n=3000, bad_every=97):
    """Varied rows: Chess960 starts in Shredder-FEN, a pushed pawn with an
    en-passant target, counters with leading zeros, a bad row now and then."""
    rows = []
    for i in range(n):
        if bad_every and i % bad_every == 5:
            rows.append(
                ["8/8/8/8/8/8/8 w - - 0 1", "not a position", "", "8/8/9/8/8/8/8/8 w - - 0 1"][
                    i % 4
                ]
            )
            continue
        fen = fx.chess960_fen(i % 960)
        placement, side, castling, ep, half, full = fen.split()
        if i % 3 == 0:
            castling = fx.normalize(fen, castling="shredder").split()[2]
        if i % 5 == 0:
            placement = placement.replace("pppppppp/8/8", "ppp1pppp/8/3p4", 1)
            side, ep = "w", "d6"
        rows.append(" ".join([placement, side, castling, ep, f"{i % 7:02d}", str(i % 50)]))
    return rows


# ----------------------------------------------------------------- without a cluster


def test_missing_dask_names_the_extra(monkeypatch, tmp_path):
    for name in ("dask", "dask.bag", "dask.array", "distributed"):
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ImportError, match=r"pip install \"fastxfen\[dask\]\""):
        fxd.normalize_bag(object())
    outdir = tmp_path / "out"
    for scheduler in ("tcp://127.0.0.1:1", None):
        with pytest.raises(ImportError, match=r"fastxfen\[dask\]"):
            fxd.normalize_files(["x.fen"], str(outdir), scheduler=scheduler)
        assert not outdir.exists()  # nothing made before the package is found
    # the partition functions need neither
    assert fxd.normalize_lines(["8/8/8/8/8/8/8/8 w - - 00 1\n"]) == ["8/8/8/8/8/8/8/8 w - - 0 1\n"]


@pytest.mark.parametrize(
    "bad",
    [dict(fields=5), dict(castling="x"), dict(errors="skip"), dict(threads=0), dict(chunk_size=0)],
)
def test_normalize_files_checks_every_option_before_any_task(tmp_path, bad):
    src = tmp_path / "a.fen"
    src.write_bytes(b"8/8/8/8/8/8/8/8 w - - 0 1\n")
    with pytest.raises(ValueError):
        fxd.normalize_files([str(src)], str(tmp_path / "out"), **bad)
    assert not (tmp_path / "out").exists()


def test_normalize_file_runs_the_file_engine_with_values(tmp_path, monkeypatch):
    src, out = tmp_path / "a.fen", tmp_path / "a.out.fen"
    data = ("\n".join(positions(300)) + "\n").encode()
    src.write_bytes(data)

    class Untouched:
        def write(self, text):
            raise AssertionError(f"wrote to stderr: {text!r}")

    stderr = Untouched()
    monkeypatch.setattr(sys, "stderr", stderr)  # the task leaves stderr alone
    task, settings = files.Normalize(castling="shredder"), files.Settings(errors="coerce")
    result = fxd.normalize_file(str(src), str(out), task, settings)
    assert sys.stderr is stderr
    assert result["status"] == 1 and result["input"] == str(src)
    assert result["messages"].startswith("fastxfen normalize: 300 rows read, 300 written")
    assert out.read_bytes() == fx.normalize(data, castling="shredder", errors="coerce")
    missing = fxd.normalize_file(str(tmp_path / "no.fen"), str(out), task, settings)
    assert missing["status"] == 2
    assert missing["messages"].startswith("fastxfen: error: cannot read")


@pytest.mark.parametrize("errors", ["coerce", "ignore"])
def test_lines_keep_terminators_like_buffers(errors):
    rows = positions(500)
    lines = [row + ("\r\n" if i % 4 == 0 else "\n") for i, row in enumerate(rows)]
    lines[-1] = lines[-1].rstrip("\r\n")
    data = "".join(lines).encode()
    expected = fx.normalize(data, errors=errors).decode()
    got = fxd.normalize_lines(lines, errors=errors)
    assert "".join(got) == expected and len(got) == len(lines)
    assert fxd.normalize_lines([line.encode() for line in lines], errors=errors) == [
        line.encode() for line in got
    ]
    records = fxd.encode_lines(lines, errors="coerce")
    assert np.array_equal(records, fx.encode(data, errors="coerce"))
    assert fxd.validate_lines(lines) == fx.validate(data)
    assert fxd.normalize_lines([]) == []


def test_coerced_line_keeps_only_its_terminator():
    good = "8/8/8/8/8/8/8/8 w - - 00 1"
    lines = iter(["bad", "bad\r\n", "bad\n", good, good + "\r\n"])
    assert fxd.normalize_lines(lines, errors="coerce") == [
        "",
        "\r\n",
        "\n",
        good.replace("00", "0"),
        good.replace("00", "0") + "\r\n",
    ]
    assert fxd.normalize_lines([b"bad", b"bad\n"], errors="ignore") == [b"bad", b"bad\n"]


def test_lines_raise_names_the_row():
    with pytest.raises(fx.FenError) as caught:
        fxd.normalize_lines(positions(10, bad_every=0) + ["bad\n"])
    assert caught.value.index == 10


def test_series_partitions_keep_dtype_index_and_nulls():
    pd = pytest.importorskip("pandas")
    rows = positions(400)
    rows[3] = None
    dtypes = [
        "string[pyarrow]",
        object,
        pd.ArrowDtype(pa.large_string()),
        pd.ArrowDtype(pa.string()),
    ]
    if hasattr(pd, "StringDtype"):
        dtypes.append(
            pd.StringDtype("pyarrow", na_value=np.nan)
            if "na_value" in pd.StringDtype.__init__.__code__.co_varnames
            else "string[pyarrow]"
        )
    expected = fx.normalize(pa.array(rows, pa.large_string()), errors="coerce").to_pylist()
    for dtype in dtypes:
        series = pd.Series(rows, dtype=dtype, index=np.arange(400) * 3, name="fen")
        out = fxd.normalize_series(series, errors="coerce")
        assert out.dtype == series.dtype, dtype
        assert out.name == "fen" and (out.index == series.index).all()
        got = [None if pd.isna(v) else v for v in out.tolist()]
        assert got == expected, dtype
    series = pd.Series(rows, dtype="string[pyarrow]")
    assert np.array_equal(
        fxd.encode_series(series, errors="coerce"), fx.encode(pa.array(rows), errors="coerce")
    )
    assert fxd.validate_series(series).tolist() == fx.validate(pa.array(rows)).to_pylist()


# ----------------------------------------------------------------- on a cluster


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip(
        "distributed", reason="dask.distributed is not installed (pip install fastxfen[dask])"
    )
    cluster = distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None, silence_logs=40
    )
    client = distributed.Client(cluster)
    try:
        yield client
    finally:
        client.close()
        cluster.close()


@pytest.mark.slow
def test_dataframe_column_on_the_cluster_equals_one_process(client):
    pd = pytest.importorskip("pandas", reason="Dask DataFrames need pandas")
    dd = pytest.importorskip("dask.dataframe", reason="needs dask[dataframe]")

    rows = positions(6000)
    frame = pd.DataFrame(
        {"id": np.arange(len(rows)), "fen": pd.Series(rows, dtype="string[pyarrow]")}
    )
    ddf = dd.from_pandas(frame, npartitions=7)
    options = dict(castling="shredder", en_passant="legal", errors="coerce")
    result = fxd.normalize_column(ddf, "fen", out="canonical", **options).compute()
    expected = fx.normalize(pa.array(rows), **options).to_pylist()
    assert result["canonical"].dtype == frame["fen"].dtype
    assert [None if pd.isna(v) else v for v in result["canonical"]] == expected
    assert result["id"].tolist() == list(range(len(rows)))
    assert result["fen"].tolist() == rows
    in_place = fxd.normalize_column(ddf, "fen", **options).compute()
    assert [None if pd.isna(v) else v for v in in_place["fen"]] == expected
    records = fxd.encode_column(ddf, "fen", width=10, errors="coerce").compute()
    assert np.array_equal(records, fx.encode(pa.array(rows), width=10, errors="coerce"))
    messages = fxd.validate_column(ddf["fen"]).compute()
    assert messages.tolist() == fx.validate(pa.array(rows)).to_pylist()
    with pytest.raises(fx.FenError):
        fxd.normalize_column(ddf, "fen").compute()


@pytest.mark.slow
def test_bag_of_files_on_the_cluster_equals_one_process(client, tmp_path):
    import dask.bag as db

    rows = positions(4000)
    data = ("\n".join(rows) + "\n").encode()
    for k in range(3):
        (tmp_path / f"part{k}.fen").write_bytes(data[k * 10 :] if k else data)
    bag = db.read_text(str(tmp_path / "part*.fen"), blocksize=20000)
    normalized = fxd.normalize_bag(bag, errors="coerce").compute()
    expected = b"".join(
        fx.normalize(data[k * 10 :] if k else data, errors="coerce") for k in range(3)
    )
    assert "".join(normalized).encode() == expected
    records = fxd.encode_bag(bag, errors="coerce").compute()
    lines = b"".join(data[k * 10 :] if k else data for k in range(3))
    assert np.array_equal(records, fx.encode(lines, errors="coerce"))
    assert fxd.validate_bag(bag).compute() == fx.validate(lines)


@pytest.mark.slow
def test_cli_dask_equals_the_plain_command(client, tmp_path, capsys):
    rows = positions(3000)
    shards = tmp_path / "shards"
    shards.mkdir()
    texts = {}
    for k in range(3):
        text = ("\n".join(rows[k * 700 : (k + 2) * 700]) + "\n").encode()
        name = f"shard{k}.fen" + (".gz" if k == 1 else "")
        (shards / name).write_bytes(gzip.compress(text) if k == 1 else text)
        texts[name] = text
    extra = tmp_path / "extra.fen"
    extra.write_bytes(texts["shard0.fen"][:5000])
    texts["extra.fen"] = texts["shard0.fen"][:5000]
    outdir, rejects = tmp_path / "out", tmp_path / "rejects"
    status = cli.main(
        [
            "normalize",
            "--dask",
            client.scheduler.address,
            "-o",
            str(outdir),
            "--errors",
            "coerce",
            "--rejects",
            str(rejects),
            "--castling",
            "shredder",
            "--chunk-size",
            "4K",
            str(shards),
            str(extra),
        ]
    )
    assert status == 1
    err = capsys.readouterr().err
    assert "4 files, 0 failed" in err and "shard1.fen.gz: fastxfen normalize:" in err
    assert sorted(os.listdir(outdir)) == sorted(texts)
    for name, text in texts.items():
        plain_out, plain_rej = tmp_path / "plain.fen", tmp_path / "plain.tsv"
        plain_in = tmp_path / "plain_in.fen"
        plain_in.write_bytes(text)
        assert (
            cli.main(
                [
                    "normalize",
                    str(plain_in),
                    "-o",
                    str(plain_out),
                    "--errors",
                    "coerce",
                    "--rejects",
                    str(plain_rej),
                    "--castling",
                    "shredder",
                    "-q",
                ]
            )
            == 1
        )
        written = (outdir / name).read_bytes()
        if name.endswith(".gz"):
            written = gzip.decompress(written)
        assert written == plain_out.read_bytes(), name
        rejected = (rejects / name).read_bytes()
        if name.endswith(".gz"):  # named like the input, so compressed like it
            rejected = gzip.decompress(rejected)
        assert rejected == plain_rej.read_bytes(), name
    # --errors raise: the bad shard fails with its line, the others are written
    status = cli.main(
        [
            "normalize",
            "--dask",
            client.scheduler.address,
            "-o",
            str(tmp_path / "out2"),
            "-q",
            str(shards / "shard0.fen"),
            str(extra),
        ]
    )
    assert status == 2
    err = capsys.readouterr().err
    assert "shard0.fen: fastxfen: error: line 6: column" in err


def test_cli_dask_usage_errors(tmp_path, capsys):
    src = tmp_path / "a.fen"
    src.write_bytes(b"8/8/8/8/8/8/8/8 w - - 0 1\n")
    assert cli.main(["normalize", str(src), str(src)]) == 2
    assert "need --dask" in capsys.readouterr().err
    assert cli.main(["normalize", "--dask", "tcp://127.0.0.1:9", str(src)]) == 2
    assert "-o OUTDIR" in capsys.readouterr().err
    assert (
        cli.main(
            [
                "normalize",
                "--dask",
                "tcp://127.0.0.1:9",
                "-o",
                str(tmp_path / "o"),
                str(tmp_path / "missing.fen"),
            ]
        )
        == 2
    )
    assert "cannot read" in capsys.readouterr().err
