"""``fastxfen encode --format`` and ``decode --format``: stockfish, planes and
lichess files, compared with the library functions they stream, and read
back with plain numpy and the documented lichess framing."""

import gzip
import io
import sys

import numpy as np
import pytest

import fastxfen as fx
from fastxfen import cli
from fastxfen import export as ex
from fastxfen.files import text_chunks

GOOD = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w HAha f6 0 3",
    "4k3/8/8/8/8/8/4P3/4K3 w - - 5 39",
    "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 17 80",
    "8/8/8/8/8/8/8/8 w - - 0 1",
]
# Chess960 rights of an inner rook (f1, f8): lichess holds them, stockfish not.
INNER = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
WIDE = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
LOSSLESS = "turn,castling_rooks,en_passant,halfmove"


def run(argv):
    return cli.main([str(a) for a in argv])


def write_rows(path, rows, end="\n"):
    path.write_bytes((end.join(rows) + end).encode())
    return path


def read_rejects(path):
    text = path.read_bytes().decode("latin1")
    return [tuple(line.split("\t", 4)) for line in text.split("\n")[:-1]]


def read_lichess(data: bytes):
    """The reader of docs/cli.md: a length byte, then the value; 255 alone
    is a null."""
    values, at = [], 0
    while at < len(data):
        size = data[at]
        at += 1
        if size == 255:
            values.append(None)
            continue
        values.append(data[at : at + size])
        at += size
    return values


def text_of(records, **modes):
    return "".join((t or "") + "\n" for t in fx.decode(records, errors="coerce", **modes))


# ----------------------------------------------------------------- round trips


@pytest.mark.parametrize("chunk", ["100", "1K", "8M"])
def test_stockfish_round_trip(tmp_path, chunk):
    rows = GOOD * 40
    src = write_rows(tmp_path / "in.fen", rows, "\r\n")
    out = tmp_path / "sf.npy"
    assert run(["encode", src, "--format", "stockfish", "-o", out, "--chunk-size", chunk]) == 0
    arr = np.load(out, mmap_mode="r")
    assert arr.dtype == np.uint8 and arr.shape == (len(rows), 24)
    assert np.array_equal(arr, ex.pack(rows, format="stockfish"))
    back = tmp_path / "back.fen"
    argv = ["decode", out, "--format", "stockfish", "-o", back, "--chunk-size", chunk, "-q"]
    assert run(argv + ["--castling", "shredder"]) == 0
    # the format holds no counters: decode gives 0 and 1
    expected = ex.unpack(ex.pack(rows, format="stockfish"), format="stockfish")
    assert back.read_text() == text_of(expected, castling="shredder")
    assert {line.split()[-2:] == ["0", "1"] for line in back.read_text().splitlines()} == {True}


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"extra": LOSSLESS, "perspective": "side_to_move"},
        {"extra": "castling,turn", "dtype": "float32", "en_passant": "legal"},
    ],
)
def test_planes_round_trip(tmp_path, options):
    rows = GOOD * 20
    src = write_rows(tmp_path / "in.fen", rows)
    out = tmp_path / "planes.npy"
    flags = [x for k, v in options.items() for x in ("--" + k.replace("_", "-"), v)]
    assert run(["encode", src, "--format", "planes", "-o", out, "--chunk-size", "300", *flags]) == 0
    kwargs = dict(options)
    extra = tuple(kwargs.pop("extra").split(",")) if "extra" in kwargs else ()
    expected = ex.to_planes(rows, extra=extra, **kwargs)
    arr = np.load(out, mmap_mode="r")
    assert arr.dtype == expected.dtype and np.array_equal(arr, expected)
    back = tmp_path / "back.fen"
    decode_flags = [f for f in flags if f not in ("--dtype", "float32", "--en-passant", "legal")]
    argv = ["decode", out, "--format", "planes", "-o", back, "--chunk-size", "2K", "-q"]
    assert run(argv + decode_flags) == 0
    records = ex.from_planes(expected, extra=extra, perspective=options.get("perspective", "white"))
    assert back.read_text() == text_of(records)
    if options.get("extra") == LOSSLESS:  # lossless but for the fullmove number
        normalized = fx.normalize(rows)
        assert [t.rsplit(" ", 1)[0] for t in back.read_text().splitlines()] == [
            t.rsplit(" ", 1)[0] for t in normalized
        ]


def test_planes_10_wide(tmp_path):
    rows = [WIDE, "10/10/10/4k5/10/10/10/4K5 w - - 0 1"] * 5
    src = write_rows(tmp_path / "in.fen", rows)
    out = tmp_path / "p.npy"
    assert run(["encode", src, "--format", "planes", "--width", "10", "-o", out, "-q"]) == 0
    arr = np.load(out)
    assert arr.shape == (10, 16, 8, 10)
    assert np.array_equal(arr, ex.to_planes(rows, width=10))
    back = tmp_path / "b.fen"
    assert run(["decode", out, "--format", "planes", "-o", back, "-q"]) == 0
    assert back.read_text() == text_of(ex.from_planes(arr))


@pytest.mark.parametrize("chunk", ["7", "64", "1K"])
def test_lichess_round_trip(tmp_path, chunk):
    rows = (GOOD + [INNER]) * 30
    src = write_rows(tmp_path / "in.fen", rows)
    out = tmp_path / "l.bin"
    assert run(["encode", src, "--format", "lichess", "-o", out, "--chunk-size", "200"]) == 0
    column = ex.pack(rows)
    assert read_lichess(out.read_bytes()) == column.tolist()
    back = tmp_path / "back.fen"
    argv = ["decode", out, "--format", "lichess", "-o", back, "--chunk-size", chunk, "-q"]
    assert run(argv) == 0
    # lichess is lossless: decode gives the normalized text back
    assert back.read_text() == text_of(fx.encode(rows))


def test_stdin_stdout(monkeypatch, capsysbinary):
    rows = GOOD * 5
    data = ("\n".join(rows) + "\n").encode()
    for fmt in ("lichess", "stockfish", "planes"):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        assert run(["encode", "--format", fmt, "-q", "--chunk-size", "100"]) == 0
        binary = capsysbinary.readouterr().out
        if fmt == "lichess":
            assert read_lichess(binary) == ex.pack(rows).tolist()
        else:  # a .npy spooled behind its final header
            assert np.load(io.BytesIO(binary)).shape[0] == len(rows)
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(binary)))
        assert run(["decode", "--format", fmt, "-q", "--chunk-size", "100"]) == 0
        lines = capsysbinary.readouterr().out.decode().splitlines()
        assert len(lines) == len(rows)
        if fmt == "lichess":
            assert lines == fx.normalize(rows)


@pytest.mark.parametrize("ext", ["gz", "zst"])
def test_compressed_output(tmp_path, ext):
    if ext == "zst":
        zstandard = pytest.importorskip("zstandard")

        def unpack(data):
            return zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data)).read()
    else:
        unpack = gzip.decompress
    rows = GOOD * 30
    src = write_rows(tmp_path / "in.fen", rows)
    for fmt in ("lichess", "stockfish", "planes"):
        out = tmp_path / f"{fmt}.{ext}"
        assert run(["encode", src, "--format", fmt, "-o", out, "--chunk-size", "500", "-q"]) == 0
        raw = unpack(out.read_bytes())
        if fmt == "lichess":
            assert read_lichess(raw) == ex.pack(rows).tolist()
        elif fmt == "stockfish":
            assert np.array_equal(np.load(io.BytesIO(raw)), ex.pack(rows, format="stockfish"))
        else:
            assert np.array_equal(np.load(io.BytesIO(raw)), ex.to_planes(rows))
        back = tmp_path / f"{fmt}.fen"
        argv = ["decode", out, "--format", fmt, "-o", back, "--chunk-size", "300", "-q"]
        assert run(argv) == 0
        assert len(back.read_text().splitlines()) == len(rows)


# ----------------------------------------------------------------- rejected rows


def test_stockfish_rejects_inner_rook_rights_and_10x8(tmp_path, capsysbinary):
    rows = GOOD[:3] + [INNER] + GOOD[3:] + [WIDE, "nonsense"]
    src = write_rows(tmp_path / "in.fen", rows)
    out, rej = tmp_path / "sf.npy", tmp_path / "rej.tsv"
    argv = ["encode", src, "--format", "stockfish", "-o", out, "--rejects", rej]
    assert run(argv + ["--errors", "coerce", "--chunk-size", "150"]) == 1
    assert b"3 rejected (written as rows of zeros)" in capsysbinary.readouterr().err
    reason_inner = (
        "castling right of the rook on file f: the stockfish format stores only rights "
        "of corner rooks (a1, h1, a8, h8)"
    )
    assert read_rejects(rej) == [
        ("4", "1", "record.castling", reason_inner, INNER),
        (
            "8",
            "0",
            "record.width",
            "a 10-wide position, expected 8-wide (the format holds 8x8 positions)",
            WIDE,
        ),
        ("9", "1", "placement", "unexpected character 'o'", "nonsense"),
    ]
    arr = np.load(out)
    assert arr.shape == (9, 24)
    assert not arr[[3, 7, 8]].any()
    good = [i for i in range(9) if i not in (3, 7, 8)]
    assert np.array_equal(arr[good], ex.pack([rows[i] for i in good], format="stockfish"))
    # raise: stops at line 4; the file stays as it was, stdout gets a loadable
    # file of the three rows before it
    before = out.read_bytes()
    assert run(["encode", src, "--format", "stockfish", "-o", out, "--chunk-size", "150"]) == 2
    err = capsysbinary.readouterr().err.decode()
    assert f"fastxfen: error: line 4: column 1 (record.castling): {reason_inner}" in err
    assert out.read_bytes() == before
    assert run(["encode", src, "--format", "stockfish", "--chunk-size", "150", "-q"]) == 2
    stdout = capsysbinary.readouterr().out
    assert np.array_equal(np.load(io.BytesIO(stdout)), ex.pack(rows[:3], format="stockfish"))


@pytest.mark.parametrize("fmt", ["lichess", "planes"])
def test_10x8_rows_rejected_by_8x8_formats(tmp_path, fmt):
    rows = [GOOD[0], WIDE, GOOD[1]]
    src = write_rows(tmp_path / "in.fen", rows)
    out, rej = tmp_path / "o", tmp_path / "r.tsv"
    argv = ["encode", src, "--format", fmt, "-o", out, "--rejects", rej, "--errors", "coerce"]
    assert run(argv + ["-q"]) == 1
    hint = {
        "planes": "(--width 10 takes 10-wide positions)",
        "lichess": "(the format holds 8x8 positions)",
    }[fmt]
    assert read_rejects(rej) == [
        ("2", "0", "record.width", f"a 10-wide position, expected 8-wide {hint}", WIDE)
    ]
    if fmt == "lichess":
        assert read_lichess(out.read_bytes()) == [*ex.pack([GOOD[0]]), None, *ex.pack([GOOD[1]])]
        # the null value is a rejected row for decode too
        back, rej2 = tmp_path / "b.fen", tmp_path / "r2.tsv"
        argv = ["decode", out, "--format", fmt, "-o", back, "--rejects", rej2, "--errors", "coerce"]
        assert run(argv + ["-q"]) == 1
        assert back.read_text().splitlines() == [fx.normalize(GOOD[0]), "", fx.normalize(GOOD[1])]
        assert read_rejects(rej2) == [
            ("2", "0", "record.width", "null record (width 0, written for a coerced row)", "ff")
        ]


def test_planes_8_wide_row_with_width_10(tmp_path):
    src = write_rows(tmp_path / "in.fen", [WIDE, GOOD[0]])
    rej = tmp_path / "r.tsv"
    argv = ["encode", src, "--format", "planes", "--width", "10", "-o", tmp_path / "p.npy"]
    assert run(argv + ["--rejects", rej, "--errors", "coerce", "-q"]) == 1
    reason = "a 8-wide position, expected 10-wide (--width 8 takes 8-wide positions)"
    assert read_rejects(rej) == [("2", "0", "record.width", reason, GOOD[0])]


def test_long_line_is_a_null_row(tmp_path, monkeypatch):
    monkeypatch.setattr(text_chunks, "MAX_LINE", 200)
    rows = [GOOD[0], "x" * 500, GOOD[1]]
    src = write_rows(tmp_path / "in.fen", rows)
    out = tmp_path / "l.bin"
    argv = ["encode", src, "--format", "lichess", "-o", out, "--errors", "coerce"]
    assert run(argv + ["--chunk-size", "64", "-q"]) == 1
    assert read_lichess(out.read_bytes()) == [*ex.pack([GOOD[0]]), None, *ex.pack([GOOD[1]])]
    out = tmp_path / "s.npy"
    argv = ["encode", src, "--format", "stockfish", "-o", out, "--errors", "coerce"]
    assert run(argv + ["--chunk-size", "64", "-q"]) == 1
    assert np.load(out).shape == (3, 24) and not np.load(out)[1].any()


def test_decode_rejects_bad_values(tmp_path, capsys):
    good = ex.pack(GOOD[:2]).tolist()
    bad_variant = good[0] + b"\x00\x00\x01"  # halfmove 0, ply 0, variant 1 (crazyhouse)
    bad_ep = bytearray(good[0])
    bad_ep[8] = 0xCC  # en-passant pawns (nibble 12) on a1 and b1
    values = [good[0], bad_variant, good[1], bytes(bad_ep)]
    framed = b"".join(bytes([len(v)]) + v for v in values)
    src = tmp_path / "in.lichess"
    src.write_bytes(framed)
    out, rej = tmp_path / "o.fen", tmp_path / "r.tsv"
    argv = ["decode", src, "--format", "lichess", "-o", out, "--rejects", rej]
    assert run(argv + ["--errors", "coerce", "--chunk-size", "30", "-q"]) == 1
    assert out.read_text().splitlines() == [fx.normalize(GOOD[0]), "", fx.normalize(GOOD[1]), ""]
    got = read_rejects(rej)
    assert got[0] == (
        "2",
        str(len(good[0]) + 2),
        "lichess",
        "variant byte 1 is not standard chess (0, 2 or 3)",
        (bytes([len(bad_variant)]) + bad_variant).hex(),
    )
    assert got[1][:3] == ("4", "8", "lichess") and got[1][3].startswith("nibble 12 on a1")
    # raise: the output stays as it was; stdout gets the rows before the first bad one
    before = out.read_bytes()
    assert run(["decode", src, "--format", "lichess", "-o", out]) == 2
    assert "error: record 2: column " in capsys.readouterr().err
    assert out.read_bytes() == before
    assert run(["decode", src, "--format", "lichess", "-q"]) == 2
    assert capsys.readouterr().out.splitlines() == [fx.normalize(GOOD[0])]


def test_decode_rejects_bad_planes_and_stockfish_rows(tmp_path):
    planes = ex.to_planes(GOOD[:3])
    planes[1, 0, 0, 0] = 1  # a white pawn on a1, where the white rook stands
    np.save(tmp_path / "p.npy", planes)
    rej = tmp_path / "r.tsv"
    argv = ["decode", tmp_path / "p.npy", "--format", "planes", "-o", tmp_path / "o"]
    assert run(argv + ["--rejects", rej, "--errors", "coerce", "-q"]) == 1
    (got,) = read_rejects(rej)
    # column: the flat index of the element in the row's tensor (plane 3, a1)
    assert got[:4] == ("2", "192", "planes", "planes 0 and 3 both set [rank 0, file 0]")
    assert got[4] == planes[1].tobytes().hex()

    rows = ex.pack(GOOD[:2], format="stockfish")
    rows[0, 8] = (rows[0, 8] & 0xF0) | 12  # en-passant pawn nibble on a1
    np.save(tmp_path / "s.npy", rows)
    argv = ["decode", tmp_path / "s.npy", "--format", "stockfish", "-o", tmp_path / "o"]
    assert run(argv + ["--rejects", rej, "--errors", "coerce", "-q"]) == 1
    (got,) = read_rejects(rej)
    assert got[:3] == ("1", "8", "stockfish") and got[3].startswith("nibble 12 on a1")
    assert got[4] == rows[0].tobytes().hex()


def test_broken_lichess_streams(tmp_path, capsys):
    value = ex.pack([GOOD[0]])[0]
    src = tmp_path / "l.bin"
    src.write_bytes(bytes([len(value)]) + value + b"\x80" + b"x" * 200)
    assert run(["decode", src, "--format", "lichess", "-o", tmp_path / "o"]) == 2
    err = capsys.readouterr().err
    assert f"not a framed lichess stream: byte {len(value) + 1} is 128" in err
    src.write_bytes(bytes([len(value)]) + value + bytes([len(value)]) + value[:5])
    assert run(["decode", src, "--format", "lichess", "-o", tmp_path / "o", "-q"]) == 2
    message = (
        f"truncated: the value at byte {len(value) + 1} announces {len(value)} bytes, 5 follow"
    )
    assert message in capsys.readouterr().err
    assert not (tmp_path / "o").exists()  # a failed run publishes nothing


# ----------------------------------------------------------------- usage


def test_usage_errors(tmp_path, capsys):
    src = write_rows(tmp_path / "in.fen", GOOD)
    out = tmp_path / "o"
    cases = [
        (["encode", src, "--format", "stockfish", "--extra", "turn"], "--extra applies to"),
        (["encode", src, "--format", "lichess", "--width", "10"], "--width applies to"),
        (["encode", src, "--format", "npy", "--en-passant", "legal"], "--en-passant applies"),
        (["encode", src, "--format", "planes", "--extra", "turn,bogus"], "extra planes are named"),
        (["encode", src, "--format", "planes", "--extra", "halfmove_scaled"], "float dtype"),
        (["encode", src, "--format", "planes", "--dtype", "complex64"], "planes need"),
        (["encode", src, "--format", "planes", "--dtype", "nonsense"], "no numpy dtype"),
        (["encode", src, "--format", "xml"], "invalid choice"),
    ]
    for argv, message in cases:
        assert run([*argv, "-o", out]) == 2, argv
        assert message in capsys.readouterr().err
    np.save(tmp_path / "p.npy", ex.to_planes(GOOD, extra=("turn",)))
    decode = ["decode", tmp_path / "p.npy", "--format", "planes", "-o", out]
    assert run(decode) == 2
    assert "holds 13 planes per position, but 8-wide planes with --extra (none) are 12" in (
        capsys.readouterr().err
    )
    assert run(decode + ["--perspective", "side_to_move"]) == 2
    assert "needs a 'turn' plane" in capsys.readouterr().err
    assert run(decode + ["--extra", "turn"]) == 0
    np.save(tmp_path / "r.npy", fx.encode(GOOD))
    assert run(["decode", tmp_path / "r.npy", "--format", "stockfish", "-o", out]) == 2
    assert "not Stockfish positions (uint8 of shape (N, 24))" in capsys.readouterr().err


def test_help_names_the_formats(capsys):
    for command in ("encode", "decode"):
        assert run([command, "--help"]) == 0
        out = capsys.readouterr().out
        for name in ("--format", "stockfish", "planes", "lichess", "length byte", "exit status:"):
            assert name in out
