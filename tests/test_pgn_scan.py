"""fastxfen._pgn: the C pass over PGN text and the output assembly.

The scanner is compared with the PGN model (models/pgn.py), a line-by-line
reading of the rules of docs/pgn.md, on hand-made and hypothesis-generated
PGN-like texts; the output of a chunk (edit) with a game-by-game splice in
Python.  Also: scanning from
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
from fastxfen._options import ErrorsMode, PgnSelect, pgn_select
from fastxfen._options import errors as errors_mode

NAMES = sorted(name.encode() for name in pgn.STANDARD_VARIANTS)
START = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def c_scan(text, variants=None, inside=False, after_tag=False) -> dict:
    return ref.as_dict(_pgn.scan(text, variants, inside=inside, after_tag=after_tag))


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


def test_arrays_outlive_their_scan():
    """A scan's arrays view memory that later scans reuse only once every
    array of it is gone; they cannot be written to."""
    text = b'[Event "a"]\n[FEN "x"]\n\n*\n' * 100
    fen = _pgn.scan(text).fen
    want = fen.copy()
    for _ in range(10):
        other = _pgn.scan(b'[Event "b"]\n[SetUp "1"]\n[FEN "yy"]\n' * 300, NAMES)
        assert len(other.fen) == 300
    assert (fen == want).all()
    with pytest.raises(ValueError):
        fen[0, 0] = 1
    assert c_scan(text) == ref.scan(text)


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
        got = ref.as_dict(_pgn.scan(view, NAMES, inside=inside))
        assert got == ref.scan(text, NAMES, inside)
    scan = _pgn.scan(view, NAMES)
    if len(scan.starts):
        bad = np.unique(scan.fen[scan.fen[:, pgn.VALUE] < 0, pgn.GAME])
        ends = np.arange(len(scan.fen), dtype=np.int64)
        got = _pgn.edit(
            view,
            cut=len(text),
            starts=scan.starts,
            fen=scan.fen,
            setup_games=scan.setup_games,
            odd_variant_games=scan.odd_variant_games,
            failed_games=bad,
            rep=b"x" * len(ends),
            rep_ends=ends + 1,
            select=PgnSelect.ALL,
            errors=ErrorsMode.IGNORE,
            stop=len(scan.starts),
        )
        assert (got[0] or text).count(b"x") >= got[3]
    view.release()
    area.close()


def test_a_slice_is_read_to_its_end_only():
    text = b'[Event "a"]\n[FEN "x"]\n\n{ c }\n[Event "b"]\n'
    for end in range(len(text) + 1):
        assert c_scan(memoryview(text)[:end], NAMES) == ref.scan(text[:end], NAMES)


# ----------------------------------------------------------------- edit

SETUP_TAG = b'[SetUp "1"]'
HEADER_LINES = [
    b'[Event "e"]',
    b'[Site "s"]',
    b'[SetUp "1"]',
    b'[FEN "v"]',
    b'[FEN  "w w" ] ',
    b'[FEN "bad',
    b'[Variant "Atomic"]',
    b'[Variant "Chess"]',
]


@st.composite
def games_like(draw):
    """Games of header lines (FEN tags, most of them well formed) and
    movetext, LF or CRLF, maybe after a preamble."""
    text = draw(st.sampled_from([b"", b"% x\n", b"\n"]))
    for _ in range(draw(st.integers(1, 6))):
        end = draw(st.sampled_from([b"\n", b"\r\n"]))
        lines = draw(st.lists(st.sampled_from(HEADER_LINES), min_size=1, max_size=4))
        text += end.join(lines) + end + draw(st.sampled_from([b"", end + b"1. e4 *" + end]))
    return text


def splice(text, cut, scan, failed, values, select, errors, stop):
    """The output of edit, game by game: (text, kept games, written,
    fen_tags, setups_added)."""
    starts = scan["starts"]
    ends = starts[1:] + [cut]
    has_fen = {row[5] for row in scan["fen"]}
    out = [text[: starts[0]]]
    kept, written, tags, setups = [], 0, 0, 0
    for g, start in enumerate(starts):
        keep = (
            select is None
            or (select == "setup" and g in has_fen)
            or (select == "standard" and g not in has_fen and g not in scan["odd_variant_games"])
        )
        kept.append(keep)
        if g >= stop or not keep or (g in failed and errors == "coerce"):
            continue
        written += 1
        if g in failed:
            out.append(text[start : ends[g]])
            continue
        at = start
        rows = [(k, row) for k, row in enumerate(scan["fen"]) if row[5] == g]
        for i, (k, (tag, value, value_end, _, crlf, _, _)) in enumerate(rows):
            if i == 0 and g not in scan["setup_games"]:
                out += [text[at:tag], SETUP_TAG + (b"\r\n" if crlf else b"\n")]
                at = tag
                setups += 1
            out += [text[at:value], values[k]]
            at = value_end
            tags += 1
        out.append(text[at : ends[g]])
    return b"".join(out), kept, written, tags, setups


@settings(max_examples=examples(1000))
@given(
    st.one_of(games_like(), pgn_like()),
    st.sampled_from([None, "setup", "standard"]),
    st.sampled_from(["raise", "coerce", "ignore"]),
    st.data(),
)
def test_edit_is_a_splice_of_games(text, select, errors, data):
    found = _pgn.scan(text, NAMES)
    scan = ref.as_dict(found)
    games = len(scan["starts"])
    if not games:
        return
    cut = data.draw(st.sampled_from(scan["starts"][1:] + [len(text)]))
    games = sum(s < cut for s in scan["starts"])
    rows = [row for row in scan["fen"] if row[5] < games]
    scan = dict(scan, starts=scan["starts"][:games], fen=rows)
    failed = {row[5] for row in rows if row[1] < 0}
    failed |= set(data.draw(st.lists(st.integers(0, games - 1), max_size=1)))
    stop = data.draw(st.one_of(st.just(games), st.integers(0, games)))
    values = [data.draw(st.binary(max_size=4)) for _ in rows]
    rep_ends = np.cumsum([len(v) for v in values], dtype=np.int64)
    got = _pgn.edit(
        text,
        cut=cut,
        starts=found.starts[:games],
        fen=found.fen[: len(rows)],
        setup_games=found.setup_games,
        odd_variant_games=found.odd_variant_games,
        failed_games=np.array(sorted(failed), np.int64),
        rep=b"".join(values),
        rep_ends=rep_ends,
        select=pgn_select(select),
        errors=errors_mode(errors),
        stop=stop,
    )
    want, kept, written, tags, setups = splice(
        text, cut, scan, failed, values, select, errors, stop
    )
    limit = scan["starts"][stop] if stop < games else cut
    assert (got[0] if got[0] is not None else text[:limit]) == want
    assert [bool(f & _pgn.KEEP) for f in got[1]] == kept
    assert got[2:] == (written, tags, setups)


def test_edit_checks_its_input():
    text = b'[Event "a"]\n[FEN "x"]\n\n*\n[FEN "y"]\n'
    found = _pgn.scan(text)
    args = dict(
        text=text,
        cut=len(text),
        starts=found.starts,
        fen=found.fen,
        setup_games=found.setup_games,
        odd_variant_games=found.odd_variant_games,
        failed_games=np.empty(0, np.int64),
        rep=b"XY",
        rep_ends=np.array([1, 2], np.int64),
        select=PgnSelect.ALL,
        errors=ErrorsMode.COERCE,
        stop=2,
    )

    def run(**change):
        return _pgn.edit(**dict(args, **change))

    assert run()[0] == b'[Event "a"]\n[SetUp "1"]\n[FEN "X"]\n\n*\n[SetUp "1"]\n[FEN "Y"]\n'
    assert run(select=PgnSelect.STANDARD, rep=None, rep_ends=None)[0] == b""
    swapped = np.ascontiguousarray(found.fen[::-1])
    for change in (
        dict(cut=len(text) + 1),
        dict(cut=5),
        dict(stop=3),
        dict(starts=found.starts[::-1].copy()),
        dict(fen=swapped),
        dict(rep_ends=np.array([1, 3], np.int64)),
        dict(rep_ends=np.array([2, 1], np.int64)),
        dict(rep_ends=np.array([1], np.int64)),
        dict(rep_ends=None),
        dict(setup_games=np.array([-1], np.int64)),
        dict(failed_games=np.array([-1], np.int64)),
        dict(fen=np.zeros((1, 3), np.int64)),
    ):
        with pytest.raises(ValueError):
            run(**change)


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
