"""fastxfen._pgn: the C pass over PGN text and the output assembly.

The scanner is compared with the PGN model (models/pgn.py), a line-by-line
reading of the rules of docs/pgn.md, on hand-made and hypothesis-generated
PGN-like texts; the assembler with a splice in Python.  Also: scanning from
any game start gives the rest of a whole scan (what the chunking relies on),
and neither function reads a byte past the buffer it is given."""

import ctypes
import mmap
import sys
import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import pgn as ref
from support.profiles import examples

from fastxfen import _pgn, pgn

NAMES = sorted(name.encode() for name in pgn.STANDARD_VARIANTS)
START = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def c_scan(text, variants=None, inside=False, after_tag=False) -> dict:
    return ref.as_dict(_pgn.scan(text, variants, inside, after_tag))


def check(text, variants=NAMES, inside=False, after_tag=False) -> dict:
    want = ref.scan(text, variants, inside, after_tag)
    assert c_scan(text, variants, inside, after_tag) == want
    return want


def test_columns_match_the_reference():
    assert _pgn.FEN_COLUMNS == ref.COLUMNS
    assert (pgn.AT, pgn.VALUE, pgn.VALUE_END, pgn.CONTENT_END) == (0, 1, 2, 3)
    assert (pgn.CRLF, pgn.GAME, pgn.LINE) == (4, 5, 6)


def test_a_small_file():
    text = (
        b'% preamble {\n\n[Event "a"]\r\n[Variant "Chess960"]\r\n[FEN "'
        + START
        + b'"]\r\n\r\n1. e4 { a\n[Event "no"]\n} *\n\n'
        b'[Event "b"]\n[SetUp "1"]\n[FEN  "x" ]\n[Event "c"]\n[FEN "y"] \t'
    )
    got = check(text)
    assert got["starts"] == [14, text.index(b'[Event "b"]'), text.index(b'[Event "c"]')]
    assert got["start_lines"] == [2, 10, 13]
    assert got["setup_games"] == [1] and got["odd_variant_games"] == [0]
    (at, v0, v1, end, crlf, game, line), bad, last = got["fen"]
    assert text[v0:v1] == START and text[at:end].endswith(b'"]') and crlf == 1
    assert (game, line) == (0, 4)
    assert bad[1:3] == (-1, -1) and bad[5:] == (1, 12)
    assert text[last[1] : last[2]] == b"y" and last[4] == 0
    assert got["header_end"] == 0 and got["newlines"] == text.count(b"\n")
    assert not got["inside"] and got["after_tag"]


@pytest.mark.parametrize(
    "text",
    [
        b"",
        b"\n",
        b"[",
        b"[FEN",
        b'[FEN "',
        b'[FEN "]',
        b'[FEN ""]',
        b'[FEN "x"]\r',
        b'[FEN "x"]\r\r\n',
        b'[FEN\t \t"x"]  \t\n',
        b'[FEN "a"] "b"]\n',
        b'[FENCE "x"]\n[Fen "y"]\n[FEN"z"]\n',
        b'[Event "a"]\n[Event "b"]\n[Site "c"]\n[Event "d"]\n',
        b'[Event"a"]\n[Event\t"b"]\n[EventX "c"]\n[Event "d"]\n',
        b'[Variant " CHESS\t"]\n[Variant "Standard"]\r\r\n[Variant "Atomic"]\n',
        b'[Variant ""]\n[Variant "x"\n[Variant\n[Variant "normal" ]\n',
        b'[Event "a"]\n\n1. e4 ; {\n[Event "b"]\n',
        b'[Event "a"]\n\n{ open\n[Event "b"]\n} [Event "c"]\n[Event "d"]\n',
        b'[Event "a"]\n\n{\n[x}\n[Event "b"]\n\n[Event "c"]\n',
        b"% {\n[Event]\n",
        b"{\n% }\n[Event]\n",
        b'[Event "a"]\n1. e4 {\n',
        b"\xef\xbb\xbf[Event]\n",
        b"a\rb\r[Event]\r\n",
    ],
)
def test_edge_cases(text):
    for inside in (False, True):
        for after_tag in (False, True):
            check(text, NAMES, inside, after_tag)
            check(text, None, inside, after_tag)


def test_variants_names_are_given():
    text = b'[Event "a"]\n[Variant "Atomic"]\n\n[Event "b"]\n[Variant "Chess"]\n'
    assert c_scan(text, [b"atomic"])["odd_variant_games"] == [1]
    assert c_scan(text, [])["odd_variant_games"] == [0, 1]
    assert c_scan(text, None)["odd_variant_games"] == []
    with pytest.raises(ValueError):
        _pgn.scan(text, [b"x"] * 65)


# ----------------------------------------------------------------- random texts

TAG_NAMES = [b"Event", b"FEN", b"SetUp", b"Variant", b"Site", b"FENCE", b"Fen", b"Even", b""]
VALUES = [START, b"x", b"", b"Chess960", b" standard ", b"NORMAL\r", b'a"]b', b"{", b"}", b";"]


@st.composite
def tag_lines(draw):
    return (
        b"["
        + draw(st.sampled_from(TAG_NAMES))
        + draw(st.sampled_from([b" ", b"", b"\t", b" \t ", b"x"]))
        + draw(st.sampled_from([b'"', b""]))
        + draw(st.sampled_from(VALUES))
        + draw(st.sampled_from([b'"]', b'"', b'" ]', b'"] \t', b"]", b'"]\r', b""]))
    )


MOVETEXT = st.lists(
    st.sampled_from(
        [b"1. e4", b" ", b"{", b"}", b"{ c }", b";", b"%", b"[", b"[%clk 0:01]", b"\r", b"*", b"e5"]
    ),
    max_size=6,
).map(b"".join)
TOKENS = [b"[", b"]", b"{", b"}", b";", b"%", b'"', b"\r", b"\n", b" ", b"\t"]
TOKENS += [b"FEN", b"SetUp", b"Event", b"Variant", b"chess", b"x"]


@st.composite
def pgn_like(draw):
    """PGN-like text: tag lines, movetext with comments over lines, escape
    lines; LF, CRLF or CR CR LF; a BOM; no final newline; or plain noise."""
    if draw(st.integers(0, 9)) == 0:
        return b"".join(draw(st.lists(st.sampled_from(TOKENS), max_size=60)))
    lines = draw(st.lists(st.one_of(tag_lines(), MOVETEXT), max_size=30))
    ends = draw(st.lists(st.sampled_from([b"\n", b"\r\n", b"\r\r\n"]), min_size=len(lines)))
    text = b"".join(line + end for line, end in zip(lines, ends))
    if draw(st.booleans()):
        text = text.rstrip(b"\r\n")
    if draw(st.integers(0, 7)) == 0:
        text = b"\xef\xbb\xbf" + text
    return text


@settings(max_examples=examples(400))
@given(pgn_like(), st.booleans(), st.booleans(), st.booleans())
def test_random_texts_match_the_reference(text, variants, inside, after_tag):
    check(text, NAMES if variants else None, inside, after_tag)


def tail(text: bytes, whole: dict, at: int) -> dict:
    """The part of a whole scan of ``text`` from the line start ``at`` on, as
    a scan of the text from there would give it."""
    games = sum(s < at for s in whole["starts"])
    lines = text.count(b"\n", 0, at)

    def moved(x):
        return x - at if x >= 0 else x

    return dict(
        starts=[s - at for s in whole["starts"] if s >= at],
        start_lines=[n - lines for n in whole["start_lines"][games:]],
        fen=[
            (moved(a), moved(v), moved(e), moved(end), cr, g - games, n - lines)
            for a, v, e, end, cr, g, n in whole["fen"]
            if g >= games
        ],
        setup_games=[g - games for g in whole["setup_games"] if g >= games],
        odd_variant_games=[g - games for g in whole["odd_variant_games"] if g >= games],
        newlines=whole["newlines"] - lines,
        inside=whole["inside"],
        after_tag=whole["after_tag"],
    )


def without(result: dict, *keys) -> dict:
    return {k: v for k, v in result.items() if k not in keys}


@settings(max_examples=examples(200))
@given(pgn_like(), st.data())
def test_scanning_from_a_game_start_gives_the_rest_of_the_scan(text, data):
    """What _split relies on: a buffer cut at any game start and scanned
    afresh from there gives the same games, tags and lines."""
    whole = check(text)
    if not whole["starts"]:
        return
    cut = data.draw(st.sampled_from(whole["starts"]))
    part = c_scan(text[cut:], NAMES)
    assert without(part, "header_end", "header_end_line") == tail(text, whole, cut)


@settings(max_examples=examples(200))
@given(pgn_like(), st.data())
def test_a_scan_carries_its_state_to_the_next(text, data):
    """What _skim relies on: the state after a scan of the text before a line
    start, handed to a scan of the rest, reads the rest as a whole scan
    does, unless a header section may be open there (a tag line after a game
    start): a scan never continues one."""
    whole = check(text)
    cuts = [0] + [i + 1 for i, byte in enumerate(text) if byte == 10]
    at = data.draw(st.sampled_from(cuts))
    if text[at : at + 1] == b"[" and any(s < at for s in whole["starts"]):
        return
    first = c_scan(text[:at], NAMES)
    second = c_scan(text[at:], NAMES, first["inside"], first["after_tag"])
    assert without(second, "header_end", "header_end_line") == tail(text, whole, at)


# ----------------------------------------------------------------- bounds


def _guarded(text: bytes):
    """``text`` as a memoryview ending right at an unreadable page, or None
    where that cannot be arranged."""
    if sys.platform != "linux":
        return None
    page = mmap.PAGESIZE
    size = -(-max(len(text), 1) // page) * page
    area = mmap.mmap(-1, size + page)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
    base = ctypes.addressof(ctypes.c_char.from_buffer(area))
    if libc.mprotect(base + size, page, 0) != 0:  # PROT_NONE
        return None
    area[size - len(text) : size] = text
    return area, memoryview(area)[size - len(text) : size]


@pytest.mark.parametrize(
    "text",
    [
        b"[",
        b"[F",
        b"[FEN",
        b'[FEN "',
        b'[FEN "x"',
        b"[Event",
        b"[Variant",
        b'[Variant "chess',
        b"[SetUp",
        b"{",
        b"1. e4 { x",
        b"%",
        b";",
        b'[Event "a"]\n[Variant "Chess"]\n[FEN "x"]\n\n1. e4 {',
    ],
)
def test_nothing_is_read_past_the_buffer(text):
    guarded = _guarded(text)
    if guarded is None:
        pytest.skip("needs mprotect (Linux)")
    area, view = guarded
    for inside in (False, True):
        got = ref.as_dict(_pgn.scan(view, NAMES, inside))
        assert got == ref.scan(text, NAMES, inside)
    edits = np.array([0], np.int64), np.array([len(text)], np.int64)
    assert _pgn.assemble(view, len(text), *edits, view, *edits) == text
    view.release()
    area.close()


def test_a_slice_is_read_to_its_end_only():
    text = b'[Event "a"]\n[FEN "x"]\n\n{ c }\n[Event "b"]\n'
    for end in range(len(text) + 1):
        assert c_scan(memoryview(text)[:end], NAMES) == ref.scan(text[:end], NAMES)


# ----------------------------------------------------------------- assemble


def splice(text, limit, edits, rep):
    out, at = [], 0
    for start, end, a, b in edits:
        out += [text[at:start], rep[a:b]]
        at = end
    return b"".join(out) + text[at:limit]


@settings(max_examples=examples(200))
@given(st.binary(max_size=60), st.binary(max_size=20), st.data())
def test_assemble_is_a_splice(text, rep, data):
    limit = data.draw(st.integers(0, len(text)))
    points = sorted(data.draw(st.lists(st.integers(0, limit), max_size=10)))
    edits = []
    for start, end in zip(points[0::2], points[1::2]):
        a = data.draw(st.integers(0, len(rep)))
        edits.append((start, end, a, data.draw(st.integers(a, len(rep)))))
    columns = [np.array([e[i] for e in edits], np.int64) for i in range(4)]
    got = _pgn.assemble(text, limit, columns[0], columns[1], rep, columns[2], columns[3])
    assert got == splice(text, limit, edits, rep)


def test_assemble_checks_its_edits():
    text, rep = b"0123456789", b"abc"

    def run(limit, start, end, a, b):
        arrays = [np.array(v, np.int64) for v in (start, end, a, b)]
        return _pgn.assemble(text, limit, arrays[0], arrays[1], rep, arrays[2], arrays[3])

    assert run(10, [2, 5], [4, 5], [0, 1], [1, 3]) == b"01a4bc56789"
    for bad in (
        (11, [], [], [], []),
        (-1, [], [], [], []),
        (10, [4, 2], [5, 3], [0, 0], [0, 0]),  # out of order
        (10, [2, 3], [4, 5], [0, 0], [0, 0]),  # overlapping
        (10, [2], [1], [0], [0]),
        (5, [2], [6], [0], [0]),
        (10, [2], [3], [0], [4]),
        (10, [2], [3], [2], [1]),
        (10, [2], [3, 4], [0], [0]),
    ):
        with pytest.raises(ValueError):
            run(*bad)


def test_scan_releases_the_gil():
    """While one thread scans a big buffer, another runs Python code."""
    text = (b'[Event "a"]\n[FEN "' + START + b'"]\n\n1. e4 { c } *\n\n') * 600000
    window = []

    def work():
        started = time.perf_counter()
        _pgn.scan(text, NAMES)
        window.extend([started, time.perf_counter()])

    thread = threading.Thread(target=work)
    ticks = []
    thread.start()
    while thread.is_alive():
        ticks.append(time.perf_counter())
    thread.join()
    started, ended = window
    quarter = (ended - started) / 4
    assert any(started + quarter < t < ended - quarter for t in ticks)
