"""One minimized input per finding of the hardening work (fuzzing, sanitizers,
the hostile catalogue), kept as a regression test now that each is fixed.

F1  errors="ignore" dropped the line terminator of a rejected row in numpy S
    arrays and Arrow columns (lists, U arrays and buffers kept the input).
F2  normalize(buffer, errors="coerce") (and the command line's --errors
    coerce): a rejected last row without a terminator left nothing behind,
    so the output had one row fewer than the input.
F3  FenError.index for a chunked Arrow array counted from the chunk's start.
F4  For numpy U arrays the reason named the '?' that stands in for a
    non-ASCII character instead of the character.
F5  memcpy from a NULL pointer (length 0) in the bulk glue: undefined
    behaviour, reported by UBSan only (run this file under the sanitizer
    build to check it; in a normal build it passes either way).
F6  Big-endian numpy U arrays ('>U') were read with the wrong byte order:
    every row was rejected, and errors="coerce" turned all of them into ''.
F7  A str of ASCII characters stored in a wider kind (PyUnicode_New(n, 255)
    filled with ASCII by C code: ill-formed by CPython's own consistency
    rules, but constructible) was read through the non-ASCII stand-in, parsed
    as valid, and normalize then read the row text through a NULL pointer:
    the interpreter died (SIGSEGV).  validate and encode handled it.
F8  The mask reader of the fields after the placement took the lowest set
    bit of an empty mask (ctz of zero, undefined; UBSan, fuzz run E) for a
    row of four fields, and sent rows of four or five fields to the byte walk
    (same results, only slower).
F9  An Arrow binary or string array of length 0 at an offset past its
    validity bitmap (pyarrow makes one) was refused: "row 0: the validity
    bitmap ends before the array does", for an array that has no row 0.
F10 zobrist, unique and Deduper took any record of width 0 for the null
    record (key 0, no position), where decode, to_planes, to_bitboards and
    pack refuse one with any other byte set (field record.width).
F11 Records at an address not a multiple of 4 (one record that is a field
    of a packed structured array, a buffer read at an odd offset) were read
    through fx_rec8 members: misaligned access, undefined behaviour (UBSan,
    fuzz_records; run this file under the sanitizer build to check it).
F12 The side, castling and en passant fields with NUL bytes before them
    (`8C1 \\0\\0\\0\\0b - - 0 1`) were accepted as the fields after the NULs:
    the table of common heads keys a head right-aligned among zero bytes
    (fuzz_normalize_str, fuzz_encode).
"""

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import fastxfen as fx

FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


# ---------------------------------------------------------------- F1


def test_f1_ignore_keeps_terminator_numpy_s():
    out = fx.normalize(np.array([b"bad\n", FEN.encode() + b"\n"]), errors="ignore")
    assert out.tolist() == [b"bad\n", FEN.encode()]


def test_f1_ignore_keeps_terminator_arrow():
    pa = pytest.importorskip("pyarrow")
    out = fx.normalize(pa.array(["bad\r\n", FEN + "\n"]), errors="ignore")
    assert out.to_pylist() == ["bad\r\n", FEN]


def test_f1_ignore_keeps_terminator_lists_u_buffers():
    assert fx.normalize(["bad\n"], errors="ignore") == ["bad\n"]
    assert fx.normalize(np.array(["bad\n"]), errors="ignore").tolist() == ["bad\n"]
    assert fx.normalize(b"bad\r\n", errors="ignore") == b"bad\r\n"


# ---------------------------------------------------------------- F2


def _rows(buffer):
    """Rows of a buffer as the library reads them (a final newline ends the
    last row, it does not start another)."""
    return len(fx.validate(buffer))


def test_f2_coerce_keeps_row_count_of_buffers():
    for data in (b"bad", FEN.encode() + b"\nbad", b"\n\nbad", FEN.encode() + b"\r\n "):
        out = fx.normalize(data, errors="coerce")
        assert _rows(out) == _rows(data), (data, out)
    assert fx.normalize(b"bad", errors="coerce") == b"\n"
    assert fx.normalize(FEN.encode() + b"\nbad", errors="coerce") == FEN.encode() + b"\n\n"
    assert fx.normalize(b"", errors="coerce") == b""


def test_f2_cli_coerce_keeps_row_count():
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, "in.fen"), os.path.join(tmp, "out.fen")
        with open(src, "wb") as f:
            f.write(FEN.encode() + b"\nbad")
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "fastxfen",
                "normalize",
                src,
                "-o",
                out,
                "--errors",
                "coerce",
                "-q",
            ],
            capture_output=True,
            timeout=120,
        )
        assert proc.returncode == 1, proc.stderr
        with open(out, "rb") as f:
            assert _rows(f.read()) == 2


def test_f2_coerce_keeps_rows_that_have_terminators():
    data = b"bad\n" + FEN.encode() + b"\nbad\r\n"
    out = fx.normalize(data, errors="coerce")
    assert out == b"\n" + FEN.encode() + b"\n\r\n"
    assert _rows(out) == _rows(data) == 3


# ---------------------------------------------------------------- F3


def test_f3_chunked_arrow_error_index_counts_the_whole_array():
    pa = pytest.importorskip("pyarrow")
    column = pa.chunked_array([[FEN, FEN, FEN], [FEN, "bad"]])
    for call in (lambda: fx.normalize(column), lambda: fx.encode(column)):
        with pytest.raises(fx.FenError) as info:
            call()
        assert info.value.index == 4, str(info.value)


def test_f3_validate_of_chunked_arrow_is_in_row_order():
    pa = pytest.importorskip("pyarrow")
    column = pa.chunked_array([[FEN, "bad"], [], [None, "bad"]])
    assert [m is None for m in fx.validate(column).to_pylist()] == [True, False, True, False]


# ---------------------------------------------------------------- F4


def test_f4_u_array_reason_names_the_character():
    row = "rnbqkbnr/pppppppp/\u0668/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert fx.validate(np.array([row])) == [fx.validate(row)]
    with pytest.raises(fx.FenError) as info:
        fx.normalize(np.array([row]))
    assert "\u0668" in info.value.reason


def test_f4_u_array_column_is_right():
    row = "rnbqkbnr/pppppppp/\u0668/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert fx.validate(np.array([row]))[0].startswith("column 18 (placement): ")


# ---------------------------------------------------------------- F5


def test_f5_empty_outputs():
    """Under the ASan/UBSan build these used to stop with 'null pointer passed
    as argument 2' (memcpy(dst, NULL, 0) in Batch.normalize and Job._run)."""
    assert fx.normalize(b"") == b""
    assert fx.normalize(np.array([], "S5")).shape == (0,)
    pa = pytest.importorskip("pyarrow")
    assert fx.normalize(pa.array([None], pa.string())).to_pylist() == [None]
    assert fx.normalize(pa.array([""], pa.string()), errors="ignore").to_pylist() == [""]


# ---------------------------------------------------------------- F6


def test_f6_big_endian_u_array():
    arr = np.array([FEN, "bad"], dtype=">U60")
    assert fx.validate(arr)[0] is None
    assert fx.normalize(arr, errors="coerce").tolist() == [FEN, ""]
    assert fx.encode(arr, errors="coerce")["width"].tolist() == [8, 0]


# ---------------------------------------------------------------- F7

_F7 = textwrap.dedent("""
    import ctypes, sys
    import fastxfen as fx
    FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    api = ctypes.pythonapi
    api.PyUnicode_New.restype = ctypes.py_object
    api.PyUnicode_New.argtypes = [ctypes.c_ssize_t, ctypes.c_uint32]

    def wide(text, maxchar):
        # PyUnicode_New(n, maxchar) with ASCII characters written in place
        s = api.PyUnicode_New(len(text), maxchar)
        size = {255: 1, 65535: 2, 1114111: 4}[maxchar]
        offset = sys.getsizeof(s) - (len(text) + 1) * size
        ctypes.memmove(id(s) + offset, text.encode("utf-32-le" if size == 4 else
                       "utf-16-le" if size == 2 else "latin-1"), len(text) * size)
        return s

    for maxchar in (255, 65535, 1114111):
        s = wide(FEN, maxchar)
        assert not s.isascii()  # (== with FEN is False past kind 1: CPython compares kinds)
        assert fx.validate(s) is None
        assert fx.normalize(s) == FEN
        assert fx.normalize([s, s], castling="shredder") == [FEN.replace("KQkq", "HAha")] * 2
        assert fx.decode(fx.encode(s)) == [FEN]
    print("ok")
""")


@pytest.mark.skipif(sys.implementation.name != "cpython", reason="CPython string layout")
def test_f7_ascii_text_in_a_wide_str():
    proc = subprocess.run([sys.executable, "-c", _F7], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", (
        proc.returncode,
        proc.stderr[-2000:],
    )


# ---------------------------------------------------------------- F8


@pytest.mark.parametrize(
    "row, counters",
    [
        ("8/8/8/8/8/8/8/8 w - -", "0 1"),
        ("8/8/8/8/8/8/8/8 w - - 3", "3 1"),
        ("8/8/8/8/8/8/8/8 w - - 3 4", "3 4"),
    ],
)
def test_f8_four_to_six_fields(row, counters):
    """Under the ASan/UBSan build four fields stopped with 'passing zero to
    ctz()'."""
    assert fx.normalize(row) == "8/8/8/8/8/8/8/8 w - - " + counters
    with pytest.raises(fx.FenError, match="more than 6 fields"):
        fx.normalize("8/8/8/8/8/8/8/8 w - - 3 4 5")


# ---------------------------------------------------------------- F9


def test_f9_empty_slice_past_the_bitmap():
    pa = pytest.importorskip("pyarrow")
    packed = fx.pack([FEN]).to_arrow()
    data, offsets = packed.buffers()[2], packed.buffers()[1]
    empty = pa.Array.from_buffers(
        pa.binary(), 0, [pa.py_buffer(b""), offsets, data], null_count=-1, offset=1
    )
    assert len(fx.unpack(empty)) == 0
    text = pa.Array.from_buffers(
        pa.string(),
        0,
        [pa.py_buffer(b""), pa.py_buffer(np.zeros(2, np.int32)), pa.py_buffer(b"")],
        null_count=-1,
        offset=1,
    )
    assert fx.validate(text).to_pylist() == [] and len(fx.normalize(text)) == 0


# ---------------------------------------------------------------- F10


@pytest.mark.parametrize("dtype", [fx.POSITION_DTYPE, fx.POSITION_DTYPE_10x8], ids=["8x8", "10x8"])
def test_f10_width_zero_record_with_data_is_refused(dtype):
    recs = np.zeros(3, dtype)
    recs[1]["fullmove"] = 7  # width 0, but not the null record
    for call in (fx.zobrist, fx.unique, fx.decode, fx.to_bitboards):
        with pytest.raises(fx.FenError) as info:
            call(recs)
        assert (info.value.index, info.value.field) == (1, "record.width"), call
    assert list(fx.zobrist(recs, errors="coerce")) == [0, 0, 0]
    assert list(fx.unique(recs, errors="coerce")) == []
    assert list(fx.zobrist(np.zeros(2, dtype))) == [0, 0]  # the null record: missing


# ---------------------------------------------------------------- F11


@pytest.mark.parametrize("dtype", [fx.POSITION_DTYPE, fx.POSITION_DTYPE_10x8], ids=["8x8", "10x8"])
def test_f11_records_at_an_odd_address(dtype):
    recs = fx.encode([FEN, "8/8/8/8/8/8/8/8 b - - 3 9"], width=10 if dtype.itemsize == 96 else 8)
    raw = bytearray(1 + recs.nbytes)
    raw[1:] = recs.tobytes()
    odd = np.frombuffer(raw, dtype, offset=1)  # contiguous, not aligned
    assert odd.ctypes.data % 4 == 1
    packed = np.zeros(1, [("pad", "u1"), ("rec", dtype)])
    packed["rec"] = recs[:1]
    for view, want in ((odd, recs), (packed["rec"], recs[:1])):
        assert fx.decode(view) == fx.decode(want)
        assert fx.decode(view, output="bytes") == fx.decode(want, output="bytes")
        assert list(fx.zobrist(view)) == list(fx.zobrist(want))
        assert list(fx.unique(view)) == list(fx.unique(want))
        assert (fx.to_planes(view) == fx.to_planes(want)).all()
        assert fx.pack(view).tolist() == fx.pack(want).tolist()


# ---------------------------------------------------------------- F12


@pytest.mark.parametrize(
    "row, column",
    [
        ("r1abqkbcnr/10/10/10/10/10/10/R3K4R\t\0\0\0\0\0\0\0 0 1", 35),
        ("1a8/10/10/10/10/10/10/8C1 \0\0\0\0b - - 0 1", 26),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR \0\0w KQkq - 0 1", 44),
        ("8/8/8/8/8/8/8/8 \0w - - 0 1", 16),
    ],
)
def test_f12_nul_bytes_before_the_side(row, column):
    message = fx.validate(row)
    assert message is not None and f"column {column}" in message and "side" in message
    with pytest.raises(fx.FenError):
        fx.normalize(row)
    assert fx.encode([row], errors="coerce")[0]["width"] == 0
