"""Hostile input: what a careless or malicious producer can hand over.

Every case is one malformed input and the exact place where it must be
rejected (row, 0-based column, field), checked through ``validate``,
``normalize`` (FenError) and ``encode`` on every input kind it can come in.
Columns are characters for ``str`` and bytes for byte input (Arrow columns,
buffers, numpy ``S`` arrays).  The catalogue covers NUL and other control
bytes, non-ASCII letters and digits (Unicode digits never count as numbers),
lone surrogates, truncated and invalid UTF-8, huge lines, huge numbers, odd
line ends, blank lines, Arrow nulls and sliced offsets; then decode of random
and bit-flipped records, which must give a clear error per row or text that
reads back to itself, never garbage.
"""

import random

import numpy as np
import pytest

import fastxfen as fx

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
FEN = START + " w KQkq - 0 1"  # side 44, castling 46, ep 51, halfmove 53, fullmove 55
CAPA = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR"
CAPA_FEN = CAPA + " w KQkq - 0 1"
MB = 1 << 20
TAIL = " w KQkq - 0 1"


def case(id_, row, column, field):
    return pytest.param(row, column, field, id=id_)


def where(message):
    """(column, field) of a validate message."""
    head = message.split(":", 1)[0]
    _, column, field = head.split(" ")
    return int(column), field.strip("()")


# ------------------------------------------------------------------ str rows

STR_CASES = [
    # ---- NUL and other control characters, each at its own column
    case("nul-first", "\x00" + FEN, 0, "placement"),
    case("nul-in-rank", START[:5] + "\x00" + START[5:] + TAIL, 5, "placement"),
    case("nul-before-side", START + "\x00w KQkq - 0 1", 43, "placement"),
    case("nul-as-side", START + " \x00 KQkq - 0 1", 44, "side"),
    case("nul-after-side", START + " w\x00 KQkq - 0 1", 45, "side"),
    case("nul-in-castling", START + " w KQ\x00kq - 0 1", 48, "castling"),
    case("nul-as-ep", START + " w KQkq \x00 0 1", 51, "en_passant"),
    case("nul-in-ep-rank", START + " w KQkq e\x00 0 1", 52, "en_passant"),
    case("nul-in-halfmove", START + " w KQkq - 0\x00 1", 54, "halfmove"),
    case("nul-last", FEN + "\x00", 56, "fullmove"),
    case("nul-only", "\x00", 0, "placement"),
    case("bell-in-placement", START.replace("/", "\x07", 1) + TAIL, 8, "placement"),
    case("escape-in-castling", START + " w K\x1bQ - 0 1", 47, "castling"),
    case("vertical-tab-separator", START + "\x0bw KQkq - 0 1", 43, "placement"),
    case("form-feed-separator", START + " w\x0cKQkq - 0 1", 45, "side"),
    case("nbsp-separator", START + " w\u00a0KQkq - 0 1", 45, "side"),
    case("ideographic-space", START + "\u3000w KQkq - 0 1", 43, "placement"),
    case("del-in-counter", START + " w KQkq - 1\x7f 1", 54, "halfmove"),
    # ---- non-ASCII letters look-alikes
    case("fullwidth-K", "rnbq\uff4bbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR" + TAIL, 4, "placement"),
    case("cyrillic-p", "rnbqkbnr/ppp\u0440pppp/8/8/8/8/PPPPPPPP/RNBQKBNR" + TAIL, 12, "placement"),
    case("greek-side", START + " \u03c9 KQkq - 0 1", 44, "side"),
    case("kelvin-sign-castling", START + " w \u212aQkq - 0 1", 46, "castling"),
    case("dotless-i-ep", START + " w KQkq \u0131 0 1", 51, "en_passant"),
    case("combining-mark", START + " w KQ\u0301kq - 0 1", 48, "castling"),
    case("emoji-astral", "\U0001f600" + FEN, 0, "placement"),
    case("astral-in-counter", START + " w KQkq - 1\U0001d7ce 1", 54, "halfmove"),
    # ---- Unicode digits are not numbers, anywhere
    case(
        "arabic-indic-3-rank",
        "rnbqkbnr/pppppppp/8/8/\u06638/8/PPPPPPPP/RNBQKBNR" + TAIL,
        22,
        "placement",
    ),
    case(
        "fullwidth-8-rank",
        "rnbqkbnr/pppppppp/\uff18/8/8/8/PPPPPPPP/RNBQKBNR" + TAIL,
        18,
        "placement",
    ),
    case(
        "devanagari-digit-rank",
        "rnbqkbnr/pppppppp/8/8/8/\u096e/PPPPPPPP/RNBQKBNR" + TAIL,
        24,
        "placement",
    ),
    case("arabic-indic-halfmove", START + " w KQkq - \u0663 1", 53, "halfmove"),
    case("fullwidth-fullmove", START + " w KQkq - 0 \uff18", 55, "fullmove"),
    case("superscript-fullmove", START + " w KQkq - 0 1\u00b9", 56, "fullmove"),
    case("mathematical-digit", START + " w KQkq - 0 \U0001d7d9", 55, "fullmove"),
    case("fullwidth-ep-rank", START + " w KQkq e\uff13 0 1", 52, "en_passant"),
    case("roman-numeral", START + " w KQkq - \u2167 1", 53, "halfmove"),
    # ---- lone surrogates (a str Python allows, no encoding does)
    case("lone-high-surrogate", "\ud800", 0, "placement"),
    case("lone-low-surrogate-side", START + " \udc00 KQkq - 0 1", 44, "side"),
    case(
        "surrogate-in-rank",
        "rnbqkbnr/pppp\udfffppp/8/8/8/8/PPPPPPPP/RNBQKBNR" + TAIL,
        13,
        "placement",
    ),
    case("surrogate-counter", START + " w KQkq - 0 1\udc80", 56, "fullmove"),
    case("surrogate-pair-halves", START + " w KQkq - \ud83d\ude00 1", 53, "halfmove"),
    # ---- huge rows
    case("10MB-of-pieces", "P" * (10 * MB), 10, "placement"),
    case("10MB-of-spaces", " " * (10 * MB), 10 * MB, "fields"),
    case("10MB-rank-8", "1" * (10 * MB), 1, "placement"),
    case("fen-then-10MB-blanks-then-field", FEN + " \t" * (5 * MB) + "x", 56 + 10 * MB, "fields"),
    case("10MB-castling", START + " w " + "K" * (10 * MB) + " - 0 1", 47, "castling"),
    case(
        "10MB-counter-of-zeros-then-too-big",
        START + " w KQkq - " + "0" * (10 * MB) + "4294967296 1",
        53 + 10 * MB + 9,
        "halfmove",
    ),
    case("100k-slashes", "/" * 100_000 + TAIL, 0, "placement"),
    case("100k-empty-ranks", "8/" * 100_000 + TAIL, 15, "placement"),
    case("100k-slashes-after-valid", START + "/" * 100_000 + TAIL, 43, "placement"),
    case("100k-fields", FEN + " 1" * 100_000, 57, "fields"),
    # ---- numbers past 32 and 64 bits never wrap
    case("halfmove-2^32", START + " w KQkq - 4294967296 1", 62, "halfmove"),
    case("halfmove-2^64", START + " w KQkq - 18446744073709551616 1", 63, "halfmove"),
    case("halfmove-2^64-plus-2^32", START + " w KQkq - 18446744078004518912 1", 63, "halfmove"),
    case("fullmove-2^64-minus-1", START + " w KQkq - 0 18446744073709551615", 65, "fullmove"),
    case(
        "fullmove-2^128",
        START + " w KQkq - 0 340282366920938463463374607431768211456",
        65,
        "fullmove",
    ),
    case("fullmove-1000-digits", START + " w KQkq - 0 " + "9" * 1000, 64, "fullmove"),
    case("fullmove-wraps-to-1-mod-2^32", START + " w KQkq - 0 4294967297", 64, "fullmove"),
    case("negative-counter", START + " w KQkq - -1 1", 53, "halfmove"),
    case(
        "rank-number-huge",
        "rnbqkbnr/pppppppp/18446744073709551616/8/8/8/PPPPPPPP/RNBQKBNR" + TAIL,
        19,
        "placement",
    ),
    case("rank-number-9s", "9" * 40 + "/8/8/8/8/8/8/8" + TAIL, 1, "placement"),
    # ---- line ends: one \n or \r\n is the terminator, nothing else
    case("cr-only-end", FEN + "\r", 56, "fullmove"),
    case("cr-cr-lf", FEN + "\r\r\n", 56, "fullmove"),
    case("lf-cr", FEN + "\n\r", 56, "fullmove"),
    case("two-lf", FEN + "\n\n", 56, "fullmove"),
    case("lf-in-middle", START + "\n w KQkq - 0 1", 43, "placement"),
    case("cr-in-middle", START + " w\rKQkq - 0 1", 45, "side"),
    case("unicode-line-separator", FEN + "\u2028", 56, "fullmove"),
    case("next-line-char", FEN + "\u0085", 56, "fullmove"),
    # ---- empty and blank rows
    case("empty", "", 0, "fields"),
    case("newline-only", "\n", 0, "fields"),
    case("crlf-only", "\r\n", 0, "fields"),
    case("cr-only", "\r", 0, "placement"),
    case("spaces-tabs", " \t \t", 4, "fields"),
    case("blank-then-newline", "  \n", 2, "fields"),
]


@pytest.mark.parametrize("row,column,field", STR_CASES)
def test_str_row(row, column, field):
    message = fx.validate(row)
    assert message is not None and where(message) == (column, field), message
    assert message.split(": ", 1)[1]  # a reason
    with pytest.raises(fx.FenError) as info:
        fx.normalize(row)
    e = info.value
    assert (e.index, e.column, e.field) == (0, column, field)
    assert f"{e.location}: {e.reason}" == message
    # behind a good row, in a list, and with every error mode
    assert fx.validate([FEN, row]) == [None, message]
    with pytest.raises(fx.FenError) as info:
        fx.normalize([FEN, row], castling="shredder", en_passant="legal")
    assert (info.value.index, info.value.column, info.value.field) == (1, column, field)
    assert fx.normalize([row, FEN], errors="coerce") == [None, FEN]
    assert fx.normalize([row, FEN], errors="ignore")[0] is row
    for width in (8, 10):
        with pytest.raises(fx.FenError) as info:
            fx.encode([FEN, row], width=width)
        assert (info.value.index, info.value.column, info.value.field) == (1, column, field)
        recs = fx.encode([row], width=width, errors="coerce")
        assert recs.tobytes() == bytes(recs.itemsize)


def test_catalogue_is_large_and_distinct():
    rows = [p.values[0] for p in STR_CASES]
    assert len(set(rows)) == len(rows) >= 60


# The same rows where they are text in one byte per character: the bytes
# buffer and numpy S paths name the same column, in bytes.
ASCII_CASES = [
    p
    for p in STR_CASES
    if p.values[0]
    and p.values[0].isascii()
    and len(p.values[0]) < MB
    and "\n" not in p.values[0]
    and not p.values[0].endswith("\x00")
]


@pytest.mark.parametrize("row,column,field", ASCII_CASES)
def test_ascii_row_as_bytes(row, column, field):
    data = row.encode("ascii")
    for kind in (data, bytearray(data), memoryview(data), np.array([data, data])):
        messages = fx.validate(kind)
        assert len(messages) == (2 if isinstance(kind, np.ndarray) else 1)
        assert all(where(m) == (column, field) for m in messages), messages


# ------------------------------------------------------------------ bytes


def _rows_of(buffer_messages):
    return [None if m is None else where(m) for m in buffer_messages]


BUFFER_CASES = [
    # CR-only line ends: one row, rejected at the first CR
    pytest.param(
        FEN.encode() + b"\r" + FEN.encode() + b"\r", [(56, "fullmove")], id="cr-only-lines"
    ),
    pytest.param(b"\r".join([FEN.encode()] * 3), [(56, "fullmove")], id="cr-separated-no-end"),
    pytest.param(START.encode() + b"\rw KQkq - 0 1\n", [(43, "placement")], id="cr-inside-row"),
    # empty and whitespace-only lines are rows of their own
    pytest.param(b"\n\n", [(0, "fields"), (0, "fields")], id="two-empty-lines"),
    pytest.param(
        b"\n" + FEN.encode() + b"\n\n", [(0, "fields"), None, (0, "fields")], id="empty-around"
    ),
    pytest.param(
        b" \n\t\t\n \t \r\n" + FEN.encode(),
        [(1, "fields"), (2, "fields"), (3, "fields"), None],
        id="blank-lines",
    ),
    pytest.param(b"\r\n", [(0, "fields")], id="crlf-alone"),
    pytest.param(b"\r\r\n", [(0, "placement")], id="cr-crlf"),
    # truncated and invalid UTF-8: an error at the first byte that is not ASCII
    pytest.param(FEN.encode()[:-1] + b"\xe2\x82", [(55, "fullmove")], id="truncated-utf8-end"),
    pytest.param(
        b"rnbqkbnr/pppp\xc3/8/8/8/8/PPPPPPPP/RNBQKBNR" + TAIL.encode(),
        [(13, "placement")],
        id="truncated-utf8-in-rank",
    ),
    pytest.param(START.encode() + b" \xf0\x9f w KQkq - 0 1", [(44, "side")], id="truncated-4-byte"),
    pytest.param(
        START.encode() + b" w KQkq - \xd9\xa3 1\n", [(53, "halfmove")], id="utf8-arabic-digit"
    ),
    pytest.param(
        START.encode() + b" w KQkq - 0 \xef\xbc\x98", [(55, "fullmove")], id="utf8-fullwidth-8"
    ),
    pytest.param(b"\xef\xbb\xbf" + FEN.encode(), [(0, "placement")], id="utf8-bom"),
    pytest.param(b"\xff\xfe" + FEN.encode("utf-16-le"), [(0, "placement")], id="utf16-bom"),
    pytest.param(
        START.encode() + b" w K\xed\xa0\x80Q - 0 1", [(47, "castling")], id="utf8-encoded-surrogate"
    ),
    pytest.param(
        START.encode() + b" w KQkq \xc0\xb0 0 1", [(51, "en_passant")], id="overlong-utf8"
    ),
    pytest.param(b"\x00" * 100 + b"\n" + FEN.encode(), [(0, "placement"), None], id="nul-line"),
    pytest.param(
        FEN.encode() + b"\n" + b"\x80" * 10, [None, (0, "placement")], id="continuation-bytes"
    ),
]


@pytest.mark.parametrize("data,expected", BUFFER_CASES)
def test_buffer(data, expected):
    messages = fx.validate(data)
    assert _rows_of(messages) == expected
    assert all(m is None or m.split(": ", 1)[1] for m in messages)
    bad = [i for i, e in enumerate(expected) if e is not None]
    with pytest.raises(fx.FenError) as info:
        fx.normalize(data)
    assert (info.value.index, info.value.column, info.value.field) == (bad[0], *expected[bad[0]])
    with pytest.raises(fx.FenError) as info:
        fx.encode(data, width=10)
    assert info.value.index == bad[0]
    assert fx.validate(data, threads=2) == messages
    out = fx.normalize(data, errors="ignore")
    assert out == data  # every row here is either rejected or already canonical


def test_10mb_line_in_buffer_between_good_rows():
    data = FEN.encode() + b"\n" + b"x" * (10 * MB) + b"\n" + FEN.encode() + b"\n"
    assert _rows_of(fx.validate(data)) == [None, (0, "placement"), None]
    out = fx.normalize(data, errors="coerce")
    assert out == FEN.encode() + b"\n\n" + FEN.encode() + b"\n"
    assert fx.normalize(data, errors="ignore") == data


@pytest.mark.slow
def test_100k_empty_lines_are_100k_rows():
    data = b"\n" * 100_000
    messages = fx.validate(data)
    assert len(messages) == 100_000
    assert set(messages) == {"column 0 (fields): expected 4 to 6 fields, got 0"}
    assert fx.normalize(data, errors="coerce") == data


def test_non_ascii_reason_names_the_byte():
    message = fx.validate(b"\xe2" + FEN.encode())[0]
    assert where(message) == (0, "placement") and "0xE2" in message


def test_numpy_s_array_with_nul_padding_and_embedded_nul():
    arr = np.array([FEN.encode(), START.encode() + b" w\x00KQkq - 0 1", b""], dtype="S80")
    assert _rows_of(fx.validate(arr)) == [None, (45, "side"), (0, "fields")]
    out = fx.normalize(arr, errors="coerce")
    assert out.tolist() == [FEN.encode(), b"", b""]


def test_numpy_u_array_non_ascii_columns_count_characters():
    arr = np.array(["\u0663" * 5 + FEN, START + " w KQkq - 0 \uff18", "\ud800"])
    assert _rows_of(fx.validate(arr)) == [(0, "placement"), (55, "fullmove"), (0, "placement")]


def test_object_array_with_non_str_items():
    arr = np.array([FEN, b"bytes", None, 3, "\ud800"], dtype=object)
    messages = fx.validate(arr)
    assert messages[0] is None and messages[2] is None  # None: a missing value
    assert [where(m) for m in messages[1:2] + messages[3:]] == [
        (0, "input"),
        (0, "input"),
        (0, "placement"),
    ]
    out = fx.normalize(arr, errors="coerce")
    assert out.tolist() == [FEN, None, None, None, None]


# ------------------------------------------------------------------ Arrow


def _pa():
    return pytest.importorskip("pyarrow")


def _raw_string_array(pa, rows, kind=None):
    """A string column built from raw bytes (may hold invalid UTF-8)."""
    kind = kind or pa.string()
    lengths = [0 if r is None else len(r) for r in rows]
    width = np.int64 if kind == pa.large_string() else np.int32
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(width)
    nulls = np.array([r is None for r in rows], bool)
    validity = (
        pa.py_buffer(np.packbits(~nulls, bitorder="little").tobytes()) if nulls.any() else None
    )
    data = b"".join(r for r in rows if r is not None)
    return pa.Array.from_buffers(
        kind,
        len(rows),
        [validity, pa.py_buffer(offsets.tobytes()), pa.py_buffer(data)],
        null_count=int(nulls.sum()),
    )


@pytest.mark.parametrize("kind", ["string", "large_string", "string_view"])
def test_arrow_nulls_and_sliced_offsets(kind):
    pa = _pa()
    if kind == "string_view" and not hasattr(pa, "string_view"):
        pytest.skip("pyarrow without string_view")
    rows = [
        "x" * 7,
        FEN,
        None,
        START + " w KQkq - \u0663 1",
        "",
        None,
        CAPA_FEN,
        START + " w KQkq e9 0 1",
        FEN + "\r\n",
    ]
    whole = pa.array(rows, getattr(pa, kind)())
    for lo in range(len(rows)):
        for hi in range(lo, len(rows) + 1):
            arr = whole.slice(lo, hi - lo)
            want = [None if r is None else fx.validate(r) for r in rows[lo:hi]]
            got = fx.validate(arr)
            assert got.type == arr.type  # Arrow in, Arrow out
            got = got.to_pylist()
            # columns are bytes in Arrow: the Arabic digit is two bytes, but it
            # is the first thing wrong in its field, so the column is the same
            assert [None if m is None else where(m) for m in got] == [
                None if m is None else where(m) for m in want
            ], (lo, hi)
            out = fx.normalize(arr, errors="coerce")
            assert out.type == arr.type
            assert out.to_pylist() == [
                None if r is None else fx.normalize(r, errors="coerce") for r in rows[lo:hi]
            ]
            assert fx.encode(arr, errors="coerce", width=10).shape == (hi - lo,)


def test_arrow_all_null_and_empty():
    pa = _pa()
    assert fx.validate(pa.array([None, None], pa.string())).to_pylist() == [None, None]
    assert fx.normalize(pa.array([None, None], pa.string())).to_pylist() == [None, None]
    assert fx.normalize(pa.array([], pa.large_string())).to_pylist() == []
    assert _rows_of(fx.validate(pa.array(["", " "])).to_pylist()) == [(0, "fields"), (1, "fields")]
    recs = fx.encode(pa.array([None, FEN]), errors="coerce")
    assert recs[0].tobytes() == bytes(recs.itemsize) and recs[1]["width"] == 8


def test_arrow_invalid_utf8_is_rejected_at_the_byte():
    pa = _pa()
    arr = _raw_string_array(
        pa, [FEN.encode(), b"\xff" + FEN.encode(), START.encode() + b" w KQkq - 0 \xc3", None]
    )
    messages = fx.validate(arr).to_pylist()
    assert _rows_of(messages) == [None, (0, "placement"), (55, "fullmove"), None]
    out = fx.normalize(arr.slice(1), errors="coerce")
    assert out.null_count == 3


def test_arrow_sliced_chunked():
    pa = _pa()
    base = pa.array([FEN, "bad", None, CAPA_FEN, ""] * 3)
    chunked = pa.chunked_array([base.slice(1, 6), base.slice(9, 0), base.slice(10)])
    rows = base.slice(1, 6).to_pylist() + base.slice(10).to_pylist()
    got = fx.validate(chunked)
    assert got.num_chunks == 3 and got.type == chunked.type
    assert got.to_pylist() == [None if r is None else fx.validate(r) for r in rows]
    out = fx.normalize(chunked, errors="coerce")
    assert out.num_chunks == 3 and out.to_pylist() == [
        None if r is None else fx.normalize(r, errors="coerce") for r in rows
    ]


# ------------------------------------------------------------------ decode


def _check_decoded(recs, texts, **modes):
    """Per record: None (coerce) exactly where decode raises for that record,
    else text that normalizes to itself."""
    assert len(texts) == len(recs)
    for i, text in enumerate(texts):
        try:
            one = fx.decode(recs[i], **modes)
        except fx.FenError as e:
            assert text is None
            assert e.field.startswith("record.") and e.reason and e.index == 0
            continue
        assert one == text and text.isascii()
        assert fx.normalize(text, **modes) == text
    return sum(t is None for t in texts)


@pytest.mark.parametrize("dtype", [fx.POSITION_DTYPE, fx.POSITION_DTYPE_10x8])
def test_decode_random_records(dtype):
    rng = np.random.default_rng(20240611)
    raw = rng.integers(0, 256, size=2000 * dtype.itemsize, dtype=np.uint8).tobytes()
    recs = np.frombuffer(raw, dtype)
    texts = fx.decode(recs, errors="coerce")
    assert _check_decoded(recs[:300], texts[:300]) == 300  # random bytes are never valid
    assert all(t is None for t in texts)
    with pytest.raises(fx.FenError) as info:
        fx.decode(recs)
    assert info.value.index == 0 and info.value.field.startswith("record.")


@pytest.mark.parametrize("width", [8, 10])
def test_decode_bit_flipped_records(width):
    rows = [
        FEN,
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "4k3/8/8/2KPp1r1/8/8/8/8 w - e6 0 2",
    ]
    if width == 10:
        rows += [CAPA_FEN, "r1abqkbcnr/10/10/10/10/10/10/R3K4R w sKQ - 0 1"]
    recs = fx.encode(rows, width=width)
    itemsize = recs.itemsize
    flipped = []
    for r in range(len(recs)):
        for bit in range(itemsize * 8):
            raw = bytearray(recs[r].tobytes())
            raw[bit // 8] ^= 1 << (bit % 8)
            flipped.append(bytes(raw))
    many = np.frombuffer(b"".join(flipped), recs.dtype)
    for castling in ("xfen", "shredder"):
        for en_passant in ("fen", "xfen", "legal"):
            texts = fx.decode(many, castling=castling, en_passant=en_passant, errors="coerce")
            rejected = _check_decoded(many, texts, castling=castling, en_passant=en_passant)
            assert 0 < rejected < len(many)


def test_decode_each_field_out_of_range():
    rec = fx.encode(FEN)[0]
    cases = {
        "record.board": ("board", lambda r: r["board"].__setitem__(3, 13)),
        "record.width": ("width", lambda r: r.__setitem__("width", 10)),
        "record.turn": ("turn", lambda r: r.__setitem__("turn", 2)),
        "record.prefix": ("prefix", lambda r: r.__setitem__("prefix", 3)),
        "record.ep": ("ep", lambda r: r.__setitem__("ep", 64)),
        "record.castling": ("castling", lambda r: r["castling"].__setitem__(2, 8)),
        "record.fullmove": ("fullmove", lambda r: r.__setitem__("fullmove", 0)),
    }
    for field, (_, change) in cases.items():
        bad = np.array([rec, rec])
        change(bad[1])
        with pytest.raises(fx.FenError) as info:
            fx.decode(bad)
        assert (info.value.index, info.value.field) == (1, field)
        assert info.value.reason
        assert fx.decode(bad, errors="coerce") == [FEN, None]


def test_decode_board_column_is_the_square():
    rec = fx.encode(CAPA_FEN, width=10)
    rec["board"][0, 79] = 17
    with pytest.raises(fx.FenError) as info:
        fx.decode(rec)
    assert (info.value.column, info.value.field) == (79, "record.board")
    rec8 = np.zeros(1, fx.POSITION_DTYPE_10x8)
    rec8["width"], rec8["fullmove"] = 8, 1
    rec8["ep"] = 255
    rec8["castling"] = 255
    rec8["board"][0, 70] = 1  # past an 8-wide board
    with pytest.raises(fx.FenError) as info:
        fx.decode(rec8)
    assert (info.value.column, info.value.field) == (70, "record.board")


def test_decode_random_in_range_records_round_trip():
    """Records whose every field is in range: accepted, and the text is canonical."""
    rng = random.Random(7)
    for dtype, width in ((fx.POSITION_DTYPE, 8), (fx.POSITION_DTYPE_10x8, 10)):
        recs = np.zeros(500, dtype)
        for rec in recs:
            w = rng.choice([8, 10]) if width == 10 else 8
            limit = 16 if w == 10 else 12
            board = [rng.choice([0] * 6 + list(range(1, limit + 1))) for _ in range(8 * w)]
            rec["board"][: 8 * w] = board
            rec["width"], rec["turn"], rec["prefix"] = w, rng.randrange(2), rng.randrange(3)
            rec["ep"] = rng.choice([255, rng.randrange(8 * w)])
            rec["castling"] = [rng.choice([255, rng.randrange(w)]) for _ in range(4)]
            rec["halfmove"] = rng.choice([0, 1, 2**32 - 1])
            rec["fullmove"] = rng.choice([1, 2**32 - 1])
        for castling in ("xfen", "shredder"):
            for en_passant in ("fen", "xfen", "legal"):
                texts = fx.decode(recs, castling=castling, en_passant=en_passant)
                assert all(
                    fx.normalize(t, castling=castling, en_passant=en_passant) == t for t in texts
                )
                back = fx.decode(
                    fx.encode(texts, width=width), castling=castling, en_passant=en_passant
                )
                assert back == texts


def test_decode_rejects_foreign_dtypes():
    with pytest.raises(TypeError):
        fx.decode(np.zeros(3, np.uint8))
    swapped = np.dtype(
        [
            (n, fx.POSITION_DTYPE.fields[n][0].newbyteorder(">"))
            if n in ("halfmove", "fullmove")
            else (n, fx.POSITION_DTYPE.fields[n][0])
            for n in fx.POSITION_DTYPE.names
        ]
    )
    with pytest.raises(TypeError):
        fx.decode(np.zeros(1, swapped))
