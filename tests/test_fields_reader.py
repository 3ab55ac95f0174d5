"""The fields after the placement are read two ways: when they take 32 bytes
or fewer, from a bit mask of their blanks (and the counters eight digits at
a time); otherwise byte by byte.  Blanks added before the side field push a
row onto the second way without changing its meaning, so the two must give
the same text, or the same error 30 columns further on."""

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.profiles import examples

import fastxfen as fx

PLACEMENT = "r3k2r/pppppppp/8/8/4Pp2/8/PPPP1PPP/R3K2R"
SPREAD = " " * 30  # 32 bytes or more after the placement take the byte walk


def outcome(row, **modes):
    try:
        return fx.normalize(row, **modes), None
    except fx.FenError as e:
        return None, (e.column, e.field, e.reason)


def same_both_ways(tail, **modes):
    """The row read by the mask, and spread out so it is read byte by byte."""
    short = outcome(PLACEMENT + tail, **modes)
    spread = outcome(PLACEMENT + SPREAD + tail, **modes)
    if short[1] is None:
        assert spread == short
    else:
        column, field, reason = short[1]
        moved = column >= len(PLACEMENT) and tail.strip(" \t")  # else it names the row's end
        assert spread[1] == (column + 30 if moved else column, field, reason)
    return short


COUNTERS = [
    "0",
    "1",
    "00",
    "07",
    "99999999",
    "100000000",
    "4294967295",
    "4294967296",
    "1a",
    "a1",
    "-1",
    "+1",
    "٣",
    "1.5",
    "12345678x",
    "x2345678",
]
FIELD = st.one_of(
    st.sampled_from(
        ["w", "b", "-", "KQkq", "HAha", "sKQ", "mk", "e3", "e6", "f3", "e9"] + COUNTERS
    ),
    st.text(string.ascii_letters + string.digits + "-/", min_size=1, max_size=9),
)


@settings(max_examples=examples(3000), deadline=None)
@given(
    st.lists(FIELD, min_size=0, max_size=7),
    st.sampled_from([" ", "\t", "  ", " \t"]),
    st.sampled_from([{}, {"castling": "shredder"}, {"en_passant": "legal"}]),
)
def test_mask_and_byte_walk_agree(fields, blank, modes):
    same_both_ways(blank + blank.join(fields), **modes)


@pytest.mark.parametrize(
    "tail, expected",
    [
        (" b KQkq e3 0 1", " b KQkq e3 0 1"),
        (" w - - 12345678 87654321", " w - - 12345678 87654321"),
        (" w - - 00 007", " w - - 0 7"),
        (" w - - 0 0", " w - - 0 1"),
        (" w - - 7", " w - - 7 1"),
        (" w KQkq -", " w KQkq - 0 1"),
        (" w\tKQ\t-\t3\t4", " w KQ - 3 4"),
        # 16, 17, 32 and 33 bytes after the placement
        (" w KQkq - 10 100", " w KQkq - 10 100"),
        (" w KQkq - 10 1000", " w KQkq - 10 1000"),
        ("  b KQkq e3 1234567890 123456789", " b KQkq e3 1234567890 123456789"),
        ("  b KQkq e3 1234567890 1234567890", " b KQkq e3 1234567890 1234567890"),
    ],
)
def test_fields(tail, expected):
    assert same_both_ways(tail) == (PLACEMENT + expected, None)


@pytest.mark.parametrize(
    "tail, field",
    [
        (" w - - 1 2 3", "fields"),
        (" w - ", "fields"),
        (" x - - 0 1", "side"),
        (" ww - - 0 1", "side"),
        (" w - - 0 12345678x", "fullmove"),
        (" w - - 4294967296 1", "halfmove"),
        (" w KQkq e0 0 1", "en_passant"),
        (" w KQkqK - 0 1", "castling"),
    ],
)
def test_errors(tail, field):
    _, error = same_both_ways(tail)
    assert error is not None and error[1] == field
