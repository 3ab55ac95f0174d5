"""The command-line tool: in-process runs of ``cli.main(argv)`` on temporary
files, plus a few ``python -m fastxfen`` subprocesses.

Small ``--chunk-size`` values force rows across chunk boundaries, so line
numbers, carried partial lines and the .npy header rewrite are exercised on
inputs of a few kilobytes."""

import contextlib
import gzip
import io
import os
import re
import subprocess
import sys
import time
import zlib

import numpy as np
import pytest
from support.compressed import decompress

import fastxfen as fx
from fastxfen import cli
from fastxfen.files import gzip_members, text_chunks
from fastxfen.files.inputs import Input
from fastxfen.files.prefetch import prefetch

GOOD = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w HAha f6 0 3",
    "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    "4k3/8/8/8/8/8/4P3/4K3   w   -   -   005   039",
    "8/8/8/2k5/4K3/8/8/8 b KQ - 0 0",
    "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gkq - 4 11",
]
WIDE = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
BAD = [
    "not a position",
    "",
    "8/8/8/8/8/8/8 w - - 0 1",
    "8/8/8/8/8/8/8/8 x - - 0 1",
    "8/8/8/8/8/8/8/8\tw - -\t0 1 extra",
]


def lines_with_bad(n=120, every=7):
    """n rows, a bad one at every ``every``-th position (1-based lines 7, 14...)."""
    rows = []
    for i in range(1, n + 1):
        rows.append(BAD[(i // every) % len(BAD)] if i % every == 0 else GOOD[i % len(GOOD)])
    return rows


def run(argv, capsys=None):
    status = cli.main([str(a) for a in argv])
    return status


def write(path, data: bytes):
    path.write_bytes(data)
    return path


def expected_rejects(data: bytes):
    """(line, column, field, reason, original) of each bad row of ``data``,
    from the library run on the whole buffer at once."""
    rows = data.split(b"\n")
    if data.endswith(b"\n"):
        rows.pop()
    out = []
    for i, message in enumerate(fx.validate(data)):
        if message is None:
            continue
        location, reason = message.split(": ", 1)
        column, field = location[len("column ") :].rstrip(")").split(" (")
        original = rows[i][:-1] if rows[i].endswith(b"\r") else rows[i]
        out.append((str(i + 1), column, field, reason, original.decode("latin1")))
    return out


def read_rejects(path):
    text = path.read_bytes().decode("latin1")
    return [tuple(line.split("\t", 4)) for line in text.split("\n")[:-1]]


# ----------------------------------------------------------------- normalize


@pytest.mark.parametrize("chunk", ["40", "100", "1K", "8M"])
@pytest.mark.parametrize("errors", ["coerce", "ignore"])
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
@pytest.mark.parametrize("final_newline", [True, False])
def test_normalize_matches_library(tmp_path, capsys, chunk, errors, newline, final_newline):
    rows = lines_with_bad()
    data = (newline.join(rows) + (newline if final_newline else "")).encode()
    src = write(tmp_path / "in.fen", data)
    out, rej = tmp_path / "out.fen", tmp_path / "rejects.tsv"
    status = run(
        [
            "normalize",
            src,
            "-o",
            out,
            "--errors",
            errors,
            "--chunk-size",
            chunk,
            "--rejects",
            rej,
            "--castling",
            "shredder",
            "--en-passant",
            "fen",
        ]
    )
    assert status == 1
    assert out.read_bytes() == fx.normalize(
        data, castling="shredder", en_passant="fen", errors=errors
    )
    assert read_rejects(rej) == expected_rejects(data)
    assert "120 rows read, 120 written, 17 rejected" in capsys.readouterr().err


def test_normalize_all_good_exit_0(tmp_path, capsys):
    data = ("\n".join(GOOD + [WIDE]) + "\n").encode()
    src = write(tmp_path / "in.fen", data)
    assert run(["normalize", src, "-o", tmp_path / "out.fen", "--rejects", tmp_path / "r.tsv"]) == 0
    assert (tmp_path / "out.fen").read_bytes() == fx.normalize(data)
    assert (tmp_path / "r.tsv").read_bytes() == b""
    err = capsys.readouterr().err
    # the rate is given for runs of a second or more (test_cli_misc)
    assert re.search(r"8 rows read, 8 written, 0 rejected in \d+\.\d\d s", err)


def test_readme_quick_start(capsysbinary):
    example = os.path.join(os.path.dirname(__file__), os.pardir, "examples", "positions.fen")
    if not os.path.exists(example):
        pytest.skip("examples/ not shipped")
    assert run(["normalize", example]) == 0
    with open(example, "rb") as f:
        assert capsysbinary.readouterr().out == fx.normalize(f.read())


def test_raise_stops_with_line_number_and_publishes_nothing(tmp_path, capsysbinary):
    rows = GOOD * 20
    rows[99] = "8/8/8/8/8/8/8/8 w - - 0 1x"
    data = ("\n".join(rows) + "\n").encode()
    src = write(tmp_path / "in.fen", data)
    out, rej = tmp_path / "out.fen", tmp_path / "r.tsv"
    status = run(["normalize", src, "-o", out, "--chunk-size", "300", "--rejects", rej])
    assert status == 2
    err = capsysbinary.readouterr().err.decode()
    assert "error: line 100: column 25 (fullmove): expected decimal digits" in err
    assert "writes no output file" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.fen"]
    # files already there stay as they were
    write(out, b"old output\n")
    write(rej, b"old rejects\n")
    assert run(["normalize", src, "-o", out, "--chunk-size", "300", "--rejects", rej]) == 2
    assert (out.read_bytes(), rej.read_bytes()) == (b"old output\n", b"old rejects\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.fen", "out.fen", "r.tsv"]
    # stdout cannot be taken back: it has the rows before the bad one
    capsysbinary.readouterr()
    rej.unlink()
    assert run(["normalize", src, "--chunk-size", "300", "--rejects", rej, "-q"]) == 2
    assert capsysbinary.readouterr().out == fx.normalize(("\n".join(rows[:99]) + "\n").encode())
    assert not rej.exists()


@pytest.mark.parametrize("chunk", ["300", "1000000"])
def test_raise_cuts_crlf_output_before_the_bad_row(tmp_path, capsysbinary, chunk):
    rows = GOOD * 20
    rows[57] = "bad"
    data = ("\r\n".join(rows) + "\r\n").encode()
    src = write(tmp_path / "in.fen", data)
    assert run(["normalize", src, "--chunk-size", chunk, "-q"]) == 2
    captured = capsysbinary.readouterr()
    assert b"line 58:" in captured.err
    assert captured.out == fx.normalize(("\r\n".join(rows[:57]) + "\r\n").encode())


def test_raise_on_first_row_and_last_row(tmp_path, capsysbinary):
    src = write(tmp_path / "a.fen", b"bad\n" + GOOD[0].encode() + b"\n")
    assert run(["normalize", src, "-o", tmp_path / "o1"]) == 2
    assert not (tmp_path / "o1").exists()
    assert b"line 1: column" in capsysbinary.readouterr().err
    assert run(["normalize", src]) == 2
    assert capsysbinary.readouterr().out == b""
    src = write(tmp_path / "b.fen", GOOD[0].encode() + b"\nbad")
    assert run(["normalize", src, "-o", tmp_path / "o2", "-q"]) == 2
    assert not (tmp_path / "o2").exists()
    err = capsysbinary.readouterr().err
    assert b"line 2: column" in err and b"rows read" not in err
    assert run(["normalize", src, "-q"]) == 2
    assert capsysbinary.readouterr().out == fx.normalize(GOOD[0].encode() + b"\n")


def test_empty_input(tmp_path):
    src = write(tmp_path / "empty.fen", b"")
    assert run(["normalize", src, "-o", tmp_path / "out", "-q"]) == 0
    assert (tmp_path / "out").read_bytes() == b""
    assert run(["encode", src, "-o", tmp_path / "e.npy", "-q"]) == 0
    assert np.load(tmp_path / "e.npy", mmap_mode="r").shape == (0,)
    assert run(["decode", tmp_path / "e.npy", "-o", tmp_path / "d", "-q"]) == 0
    assert (tmp_path / "d").read_bytes() == b""


@pytest.mark.parametrize("chunk", ["64", "100", "250"])
@pytest.mark.parametrize("errors", ["coerce", "ignore"])
def test_plain_and_compressed_files_read_alike(tmp_path, monkeypatch, chunk, errors):
    """A plain file and a compressed one of the same text give the same
    output and rejects, with one output row per input row."""
    monkeypatch.setattr(text_chunks, "MAX_LINE", 300)
    rows = GOOD + ["8/8/8/8/8/8/8/8 w - - 0 " + "1" * 200] + GOOD[:2] + ["y" * 299]
    rows += ["x" * 400 + "\r", "", "bad\r"] + GOOD + ["z" * 301, GOOD[0], "w" * 350]
    data = "\n".join(rows).encode()  # a long last line without a newline
    plain = write(tmp_path / "in.fen", data)
    packed = tmp_path / "in.fen.gz"
    packed.write_bytes(gzip.compress(data))
    results = []
    for src in (plain, packed):
        out, rej = tmp_path / f"{src.name}.out", tmp_path / f"{src.name}.tsv"
        argv = ["normalize", src, "-o", out, "--chunk-size", chunk, "--errors", errors]
        assert run([*argv, "--rejects", rej, "-q"]) == 1
        results.append((out.read_bytes(), rej.read_bytes()))
    assert results[0] == results[1]
    assert results[0][1].count(b"\n") == 7  # the long, blank and bad rows
    text = results[0][0]
    assert text.count(b"\n") + (not text.endswith(b"\n")) == len(rows)


def test_long_line_is_one_rejected_row(tmp_path, monkeypatch):
    monkeypatch.setattr(text_chunks, "MAX_LINE", 300)
    long_row = "8/8/8/8/8/8/8/8 w - - 0 " + "1" * 1000
    rows = GOOD + [long_row] + GOOD + ["x" * 400] + GOOD
    data = ("\r\n".join(rows)).encode()
    src = write(tmp_path / "in.fen", data)
    for errors, placeholder in (("coerce", ""), ("ignore", None)):
        out, rej = tmp_path / f"{errors}.fen", tmp_path / f"{errors}.tsv"
        status = run(
            [
                "normalize",
                src,
                "-o",
                out,
                "--chunk-size",
                "64",
                "--errors",
                errors,
                "--rejects",
                rej,
                "-q",
            ]
        )
        assert status == 1
        expected = [
            fx.normalize(r) if r in GOOD else (r if placeholder is None else "") for r in rows
        ]
        assert out.read_bytes() == "\r\n".join(expected).encode()
        reason = "line longer than 300 bytes; not a position"
        assert read_rejects(rej) == [
            ("8", "300", "input", reason, long_row),
            ("16", "300", "input", reason, "x" * 400),
        ]
    status = run(["validate", src, "--chunk-size", "100", "-o", tmp_path / "v", "-q"])
    assert status == 1
    assert (tmp_path / "v").read_text().splitlines() == [
        "8: column 300 (input): line longer than 300 bytes; not a position",
        "16: column 300 (input): line longer than 300 bytes; not a position",
    ]
    status = run(
        ["encode", src, "--chunk-size", "100", "-o", tmp_path / "e.npy", "--errors", "coerce", "-q"]
    )
    assert status == 1
    assert list(np.load(tmp_path / "e.npy")["width"] == 0) == [r not in GOOD for r in rows]


def test_line_ending_in_cr_before_chunk_boundary(tmp_path):
    # the \r of a \r\n falls at the end of a read, the \n at the start of the next
    row = GOOD[0] + "\r\n"
    data = (row * 10).encode()
    src = write(tmp_path / "in.fen", data)
    for chunk in range(len(row) - 2, len(row) + 2):
        assert run(["normalize", src, "-o", tmp_path / "o", "--chunk-size", chunk, "-q"]) == 0
        assert (tmp_path / "o").read_bytes() == fx.normalize(data)


# ----------------------------------------------------------------- validate


def test_validate(tmp_path, capsys):
    rows = lines_with_bad(60)
    data = ("\n".join(rows)).encode()
    src = write(tmp_path / "in.fen", data)
    assert run(["validate", src, "--chunk-size", "50", "--rejects", tmp_path / "r"]) == 1
    captured = capsys.readouterr()
    expected = [f"{i + 1}: {m}" for i, m in enumerate(fx.validate(data)) if m]
    assert captured.out.splitlines() == expected
    assert expected[0] == "7: column 0 (fields): expected 4 to 6 fields, got 0"
    assert "60 rows read, 8 rejected" in captured.err
    assert read_rejects(tmp_path / "r") == expected_rejects(data)


def test_rejects_to_stdout(tmp_path, capsysbinary):
    src = write(tmp_path / "in.fen", b"bad\n" + GOOD[0].encode() + b"\n")
    assert (
        run(["normalize", src, "-o", tmp_path / "o", "--errors", "coerce", "--rejects", "-", "-q"])
        == 1
    )
    assert capsysbinary.readouterr().out == (b"1\t2\tplacement\tunexpected character 'd'\tbad\n")


def test_validate_good_prints_nothing(tmp_path, capsys):
    src = write(tmp_path / "in.fen", ("\n".join(GOOD) + "\n").encode())
    assert run(["validate", src, "-q"]) == 0
    assert capsys.readouterr() == ("", "")


# ----------------------------------------------------------------- encode/decode


@pytest.mark.parametrize("width", [8, 10])
def test_encode_decode_round_trip(tmp_path, width):
    rows = (GOOD + [WIDE]) * 30 if width == 10 else GOOD * 30
    data = ("\r\n".join(rows)).encode()
    src = write(tmp_path / "in.fen", data)
    npy = tmp_path / "out.npy"
    assert run(["encode", src, "-o", npy, "--width", width, "--chunk-size", "500", "-q"]) == 0
    records = np.load(npy, mmap_mode="r")
    assert records.dtype == fx.record_dtype(width)
    assert np.array_equal(records, fx.encode(data, width=width))
    for castling, ep in (("xfen", "xfen"), ("shredder", "legal")):
        text = tmp_path / f"{castling}.fen"
        assert (
            run(
                [
                    "decode",
                    npy,
                    "-o",
                    text,
                    "--castling",
                    castling,
                    "--en-passant",
                    ep,
                    "--chunk-size",
                    "1K",
                    "-q",
                ]
            )
            == 0
        )
        expected = fx.normalize(
            data.replace(b"\r\n", b"\n") + b"\n", castling=castling, en_passant=ep
        )
        assert text.read_bytes() == expected


def test_encode_rejects_and_null_records(tmp_path, capsys):
    rows = lines_with_bad(50) + [WIDE]
    data = ("\n".join(rows) + "\n").encode()
    src = write(tmp_path / "in.fen", data)
    npy, rej = tmp_path / "o.npy", tmp_path / "r.tsv"
    status = run(
        ["encode", src, "-o", npy, "--errors", "coerce", "--rejects", rej, "--chunk-size", "128"]
    )
    assert status == 1
    assert "(written as null records)" in capsys.readouterr().err
    records = np.load(npy, mmap_mode="r")
    assert np.array_equal(records, fx.encode(data, errors="coerce"))
    got = read_rejects(rej)
    assert got[:-1] == expected_rejects(data)
    assert got[-1] == ("51", "0", "placement", "a 10-wide position needs --width 10", WIDE)
    # decode: null records are rejected records
    out, rej2 = tmp_path / "d.fen", tmp_path / "r2.tsv"
    assert (
        run(
            [
                "decode",
                npy,
                "-o",
                out,
                "--errors",
                "coerce",
                "--rejects",
                rej2,
                "--chunk-size",
                "200",
                "-q",
            ]
        )
        == 1
    )
    decoded = fx.decode(records, errors="coerce")
    assert out.read_text() == "".join((t or "") + "\n" for t in decoded)
    bad = read_rejects(rej2)
    assert [int(b[0]) for b in bad] == [i + 1 for i, t in enumerate(decoded) if t is None]
    assert bad[0][1:4] == ("0", "record.width", "null record (width 0, written for a coerced row)")
    assert bad[0][4] == "00" * 80
    # decode --errors raise stops at the first one: the existing output stays,
    # and stdout has the rows before it
    before = out.read_bytes()
    assert run(["decode", npy, "-o", out, "--chunk-size", "200"]) == 2
    assert "error: record 7: column 0 (record.width)" in capsys.readouterr().err
    assert out.read_bytes() == before
    assert run(["decode", npy, "--chunk-size", "200", "-q"]) == 2
    assert capsys.readouterr().out == "".join(t + "\n" for t in decoded[:6])


def test_encode_raise_writes_no_file_and_a_loadable_stdout(tmp_path, capsysbinary):
    rows = GOOD * 10 + ["bad"] + GOOD
    src = write(tmp_path / "in.fen", ("\n".join(rows)).encode())
    for npy in (tmp_path / "o.npy", tmp_path / "o.npy.gz"):  # seekable, spooled
        assert run(["encode", src, "-o", npy, "--chunk-size", "200"]) == 2
        assert b"error: line 71: column " in capsysbinary.readouterr().err
        assert not npy.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.fen"]
    # stdout: a whole .npy of the rows before the bad one
    assert run(["encode", src, "--chunk-size", "200", "-q"]) == 2
    out = capsysbinary.readouterr().out
    assert np.array_equal(np.load(io.BytesIO(out)), fx.encode(rows[:70]))


def test_decode_refuses_other_arrays(tmp_path, capsys):
    np.save(tmp_path / "ints.npy", np.arange(10))
    assert run(["decode", tmp_path / "ints.npy"]) == 2
    assert "not fastxfen position records" in capsys.readouterr().err
    write(tmp_path / "text.npy", b"hello\n")
    assert run(["decode", tmp_path / "text.npy"]) == 2
    assert "not a .npy file" in capsys.readouterr().err
    np.save(tmp_path / "ok.npy", fx.encode(GOOD))
    data = (tmp_path / "ok.npy").read_bytes()
    write(tmp_path / "short.npy", data[:-10])
    assert run(["decode", tmp_path / "short.npy"]) == 2
    assert "truncated" in capsys.readouterr().err


def test_decode_accepts_numpy_save(tmp_path, capsysbinary):
    records = fx.encode(GOOD + [WIDE], width=10)
    np.save(tmp_path / "r.npy", records)
    assert run(["decode", tmp_path / "r.npy", "-q"]) == 0
    assert capsysbinary.readouterr().out.decode().splitlines() == fx.decode(records)


# ----------------------------------------------------------------- compression


def _zstd_available():
    try:
        import zstandard  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.mark.parametrize("ext", ["gz", "bz2", "xz", "zst"])
def test_compressed_files(tmp_path, ext):
    if ext == "zst" and not _zstd_available():
        pytest.skip("zstandard not installed")
    rows = lines_with_bad(80)
    data = ("\n".join(rows) + "\n").encode()
    plain = write(tmp_path / "in.fen", data)
    packed = tmp_path / f"in.fen.{ext}"
    assert run(["normalize", plain, "-o", packed, "--errors", "ignore", "-q"]) == 1
    ignored = fx.normalize(data, errors="ignore")
    assert decompress(ext, packed.read_bytes()) == ignored
    out = tmp_path / f"out.fen.{ext}"
    assert (
        run(["normalize", packed, "-o", out, "--errors", "coerce", "-q", "--chunk-size", "100"])
        == 1
    )
    assert decompress(ext, out.read_bytes()) == fx.normalize(ignored, errors="coerce")
    # encode to a compressed .npy (spooled, since it cannot seek) and back
    npy = tmp_path / f"r.npy.{ext}"
    assert run(["encode", packed, "-o", npy, "--errors", "coerce", "-q"]) == 1
    loaded = np.load(io.BytesIO(decompress(ext, npy.read_bytes())))
    assert np.array_equal(loaded, fx.encode(ignored, errors="coerce"))
    back = tmp_path / "back.fen"
    assert run(["decode", npy, "-o", back, "--errors", "coerce", "-q", "--chunk-size", "300"]) == 1
    assert back.read_bytes() == fx.normalize(data, errors="coerce")


def _gzip_members(data: bytes) -> list:
    """The texts of the members of a gzip stream."""
    texts = []
    while data:
        member = zlib.decompressobj(16 + zlib.MAX_WBITS)
        texts.append(member.decompress(data))
        assert member.eof
        data = member.unused_data
    return texts


@pytest.mark.parametrize("threads", ["1", "2"])
def test_gz_output_in_members(tmp_path, monkeypatch, threads):
    monkeypatch.setattr(gzip_members, "MEMBER", 1000)
    data = ("\n".join(GOOD * 200) + "\n").encode()
    src = write(tmp_path / "in.fen", data)
    out = tmp_path / "o.fen.gz"
    argv = ["normalize", src, "-o", out, "--threads", threads, "--chunk-size", "3000", "-q"]
    assert run(argv) == 0
    members = _gzip_members(out.read_bytes())
    assert b"".join(members) == fx.normalize(data)
    assert len(members) == -(-len(b"".join(members)) // 1000)
    assert all(len(text) == 1000 for text in members[:-1])
    assert gzip.decompress(out.read_bytes()) == fx.normalize(data)


def test_gz_members_of_any_writes(monkeypatch):
    monkeypatch.setattr(gzip_members, "MEMBER", 1024)
    text = bytes(range(256)) * 40
    for sizes in ([len(text)], [1] * 50 + [len(text) - 50], [1000, 24, 9216], [3000] * 4):
        raw = io.BytesIO()
        stream = gzip_members.GzipMembers(raw, 6, 2)
        at = 0
        for size in sizes:
            assert stream.write(memoryview(text)[at : at + size]) == len(text[at : at + size])
            at += size
        stream.close()
        members = _gzip_members(raw.getvalue())
        assert b"".join(members) == text[:at]
        assert [len(m) for m in members[:-1]] == [1024] * (len(members) - 1)
    empty = io.BytesIO()
    gzip_members.GzipMembers(empty, 6, 2).close()
    assert gzip.decompress(empty.getvalue()) == b""


def test_zst_output_by_threads_is_one_frame(tmp_path):
    zstandard = pytest.importorskip("zstandard")
    data = ("\n".join(GOOD * 3000) + "\n").encode()
    src = write(tmp_path / "in.fen", data)
    for threads in ("1", "2"):
        out = tmp_path / f"o{threads}.fen.zst"
        assert run(["normalize", src, "-o", out, "--threads", threads, "-q"]) == 0
        packed = out.read_bytes()
        # a reader that stops after the first frame gets everything
        reader = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(packed))
        assert reader.read() == fx.normalize(data)


@pytest.mark.parametrize("asked", [None, "2"])
def test_compressed_input_leaves_the_reader_a_cpu(tmp_path, monkeypatch, asked):
    """With automatic threads, a compressed input is converted on one CPU
    fewer (the reader decompresses on the other); a plain one on all; an
    asked --threads is kept either way."""
    from fastxfen import _options
    from fastxfen.files import text_jobs

    monkeypatch.setattr(_options, "cpu_count", lambda: 2)
    used = []
    threads = text_jobs.TextJob.threads
    monkeypatch.setattr(
        text_jobs.TextJob, "threads", lambda job, rows: used.append(threads(job, rows)) or used[-1]
    )
    data = ("\n".join(GOOD * 20000) + "\n").encode()
    write(tmp_path / "in.fen", data)
    write(tmp_path / "in.fen.gz", gzip.compress(data))
    got = {}
    for name in ("in.fen", "in.fen.gz"):
        used.clear()
        out = tmp_path / f"{name}.out"
        argv = ["normalize", tmp_path / name, "-o", out, "-q"] + (
            ["--threads", asked] if asked else []
        )
        assert run(argv) == 0
        assert out.read_bytes() == fx.normalize(data)
        got[name] = set(used)
    assert got == (
        {"in.fen": {2}, "in.fen.gz": {1}} if asked is None else {"in.fen": {2}, "in.fen.gz": {2}}
    )


def test_zst_without_zstandard(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "zstandard", None)  # import fails
    src = write(tmp_path / "in.fen", GOOD[0].encode())
    assert run(["normalize", src, "-o", tmp_path / "out.fen.zst"]) == 2
    assert "pip install zstandard" in capsys.readouterr().err
    write(tmp_path / "in.fen.zst", b"\x28\xb5\x2f\xfd")
    assert run(["normalize", tmp_path / "in.fen.zst"]) == 2
    assert "pip install zstandard" in capsys.readouterr().err


def test_corrupt_compressed_input(tmp_path, capsys):
    write(tmp_path / "bad.fen.gz", gzip.compress(b"x" * 1000)[:-20])
    assert run(["normalize", tmp_path / "bad.fen.gz", "-o", tmp_path / "o"]) == 2
    assert "bad.fen.gz: truncated gzip stream after 9 bytes" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


# ----------------------------------------------------------------- stdin/stdout


def test_stdin_to_stdout(monkeypatch, capsysbinary):
    data = ("\n".join(lines_with_bad(30)) + "\n").encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert run(["normalize", "--errors", "coerce", "--chunk-size", "64"]) == 1
    captured = capsysbinary.readouterr()
    assert captured.out == fx.normalize(data, errors="coerce")
    assert b"30 rows read" in captured.err


def test_encode_to_stdout_is_spooled(tmp_path, monkeypatch, capsysbinary):
    data = ("\n".join(GOOD * 5)).encode()
    src = write(tmp_path / "in.fen", data)
    assert run(["encode", src, "--chunk-size", "100", "-q"]) == 0
    out = capsysbinary.readouterr().out
    assert np.array_equal(np.load(io.BytesIO(out)), fx.encode(data))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(out)))
    assert run(["decode", "-", "--chunk-size", "100", "-q"]) == 0
    assert capsysbinary.readouterr().out == fx.normalize(data + b"\n")


# ----------------------------------------------------------------- usage errors


def test_usage_errors(tmp_path, capsys):
    src = write(tmp_path / "in.fen", GOOD[0].encode())
    assert run(["normalize", tmp_path / "missing.fen"]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert run(["normalize", src, "-o", src]) == 2
    assert "are the same file" in capsys.readouterr().err
    assert run(["encode", src, "--errors", "ignore"]) == 2
    assert run(["normalize", src, "--castling", "fen"]) == 2
    assert run(["normalize", src, "--chunk-size", "0"]) == 2
    assert run(["normalize", src, "--chunk-size", "1G"]) == 2
    assert run(["normalize", src, "--threads", "0"]) == 2
    assert run(["normalize", src, "--rejects", "-"]) == 2
    assert "both go to stdout" in capsys.readouterr().err
    assert run([]) == 2
    capsys.readouterr()
    assert run(["--help"]) == 0
    assert "exit status" in capsys.readouterr().out


def test_help_documents_exit_status(capsys):
    for command in ("normalize", "validate", "encode", "decode"):
        assert run([command, "--help"]) == 0
        out = capsys.readouterr().out
        assert "exit status:" in out and "--rejects" in out


# ----------------------------------------------------------------- subprocess


def _python_m(args, data=None):
    import fastxfen

    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.abspath(fastxfen.__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(
        [sys.executable, "-m", "fastxfen", *map(str, args)],
        input=data,
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_python_m_pipes():
    data = ("\r\n".join(lines_with_bad(40))).encode()
    proc = _python_m(["normalize", "--errors", "coerce"], data)
    assert proc.returncode == 1
    assert proc.stdout == fx.normalize(data, errors="coerce")
    assert b"40 rows read, 40 written, 5 rejected" in proc.stderr
    proc = _python_m(["validate", "-q"], data)
    assert proc.returncode == 1 and proc.stderr == b""
    assert proc.stdout.decode().splitlines()[0] == "7: " + fx.validate(data)[6]


def test_python_m_encode_decode(tmp_path):
    data = ("\n".join(GOOD * 3) + "\n").encode()
    proc = _python_m(["encode", "-q"], data)
    assert proc.returncode == 0
    write(tmp_path / "r.npy", proc.stdout)
    assert np.array_equal(np.load(tmp_path / "r.npy", mmap_mode="r"), fx.encode(data))
    proc = _python_m(["decode", tmp_path / "r.npy", "--castling", "shredder"])
    assert proc.returncode == 0
    assert proc.stdout == fx.normalize(data, castling="shredder")
    proc = _python_m(["normalize", "-q"], b"bad\n")
    assert proc.returncode == 2
    assert proc.stderr.startswith(b"fastxfen: error: line 1: column ")


# ----------------------------------------------------------------- chunking


class _Source:
    """A byte source whose reads return at most ``most`` bytes."""

    def __init__(self, data: bytes, most: int) -> None:
        self.stream = io.BytesIO(data)
        self.most = most

    def read(self, n):
        return self.stream.read(min(n, self.most))

    def readinto(self, buffer):
        return self.stream.readinto(memoryview(buffer)[: self.most])


@pytest.mark.parametrize("most", [1, 3, 1000])
def test_text_chunks_rebuild_the_input(monkeypatch, most):
    monkeypatch.setattr(text_chunks, "MAX_LINE", 16)
    import random

    rng = random.Random(most)
    for _ in range(300):
        lines = [
            b"x" * rng.choice([0, 1, 5, 13, 14, 15, 16, 17, 30, 70]) + rng.choice([b"\n", b"\r\n"])
            for _ in range(rng.randrange(12))
        ]
        if lines and rng.random() < 0.5:
            lines[-1] = lines[-1].rstrip(b"\r\n")
        data = b"".join(lines)
        chunk = rng.randrange(1, 17)
        got = []
        for item in text_chunks.text_chunks(_Source(data, most), chunk):
            if isinstance(item, text_chunks.LongLine):
                parts = []
                item.copy_to(parts.append)
                got.append(("long", b"".join(parts), item.terminator))
            else:
                got.extend(("rows", line) for line in bytes(item).splitlines(keepends=True))
        expected = [
            ("long", line, line[len(line.rstrip(b"\r\n")) :]) if len(line) > 16 else ("rows", line)
            for line in lines
            if line
        ]
        assert got == expected, (data, chunk)


def test_prefetched_chunks_stay_intact_while_used(tmp_path):
    # the chunk buffers are reused: the one read ahead must never be the one
    # the consumer still holds (the sleep gives the reader time to write),
    # also after lines longer than a read, whose reads hand nothing out
    data = b"".join(b"%d\n" % k if k % 997 else b"y" * 10000 + b"\n" for k in range(100000))
    path = tmp_path / "in.fen"
    path.write_bytes(data)
    got = []
    with contextlib.ExitStack() as stack:
        for item in prefetch(text_chunks.text_chunks(Input(str(path), stack), 4096)):
            time.sleep(0.001)
            got.append(bytes(item))
            item = None
    assert b"".join(got) == data


def test_raise_on_long_line(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(text_chunks, "MAX_LINE", 100)
    src = write(tmp_path / "in.fen", (GOOD[0] + "\n" + "y" * 500 + "\n").encode())
    assert run(["normalize", src, "-o", tmp_path / "o", "--chunk-size", "32"]) == 2
    err = capsys.readouterr().err
    assert "stopped at line 2" in err
    assert "error: line 2: column 100 (input): line longer than 100 bytes" in err
    assert not (tmp_path / "o").exists()
    assert run(["normalize", src, "--chunk-size", "32", "-q"]) == 2
    assert capsys.readouterr().out == fx.normalize(GOOD[0]) + "\n"


def test_compression_level(tmp_path, capsys):
    src = write(tmp_path / "in.fen", ("\n".join(GOOD * 50) + "\n").encode())
    assert run(["normalize", src, "-o", tmp_path / "o.gz", "--level", "1", "-q"]) == 0
    assert gzip.decompress((tmp_path / "o.gz").read_bytes()) == fx.normalize(src.read_bytes())
    assert run(["normalize", src, "-o", tmp_path / "o.bz2", "--level", "0"]) == 2
    assert "between 1 and 9" in capsys.readouterr().err
    assert run(["normalize", src, "-o", tmp_path / "o.fen", "--level", "3"]) == 2
    assert "compressed OUT" in capsys.readouterr().err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipe semantics")
def test_python_m_broken_pipe_ends_quietly(tmp_path):
    import fastxfen

    env = dict(os.environ)
    root = os.path.dirname(os.path.dirname(os.path.abspath(fastxfen.__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    src = write(tmp_path / "in.fen", ("\n".join(GOOD * 3000) + "\n").encode())
    proc = subprocess.Popen(
        [sys.executable, "-m", "fastxfen", "normalize", str(src), "--chunk-size", "4K"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    try:
        assert proc.stdout.read(100)
        proc.stdout.close()  # the reader goes away, as with `| head`
        assert proc.wait(timeout=60) == 2
        assert b"Traceback" not in proc.stderr.read()
    finally:
        proc.kill()
        proc.stderr.close()


# ----------------------------------------------------------------- EPD


@pytest.mark.parametrize("chunk", ["50", "8M"])
def test_epd_rows_keep_operations(tmp_path, chunk):
    rows = [
        'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b HAha e3 bm Nf6; id "a;b";',
        "4k3/8/8/8/8/8/4P3/4K3 w - - hmvc 3; fmvn 9;",
        "not an epd row",
        "4k3/8/8/8/8/8/4P3/4K3 w - -",
    ]
    data = ("\n".join(rows) + "\n").encode()
    src = write(tmp_path / "in.epd", data)
    out, rej = tmp_path / "out.epd", tmp_path / "rejects.tsv"
    status = run(
        [
            "normalize",
            src,
            "--epd",
            "-o",
            out,
            "--errors",
            "coerce",
            "-q",
            "--chunk-size",
            chunk,
            "--rejects",
            rej,
        ]
    )
    assert status == 1
    assert out.read_bytes() == fx.normalize(data, epd=True, errors="coerce")
    assert out.read_bytes().split(b"\n")[0].endswith(b' bm Nf6; id "a;b";')
    assert [line[0] for line in read_rejects(rej)] == ["3"]
    npy = tmp_path / "out.npy"
    assert run(["encode", src, "--epd", "-o", npy, "--errors", "coerce", "-q"]) == 1
    records = np.load(npy, mmap_mode="r")
    assert records["halfmove"].tolist() == [0, 3, 0, 0]
    assert records["fullmove"].tolist() == [1, 9, 0, 1]


@pytest.mark.slow
def test_stop_on_bad_stdin_row_exits_cleanly():
    """A raise-mode stop used to leave the reader thread inside a read of
    stdin, and CPython aborted at exit about every second run."""
    for _ in range(8):
        proc = subprocess.run(
            [sys.executable, "-m", "fastxfen", "normalize", "-q"],
            input=b"bad\n",
            capture_output=True,
            timeout=60,
        )
        assert proc.returncode == 2, proc.stderr
