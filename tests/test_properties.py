"""Properties that hold for every row and every mode pair:

* normalize is idempotent;
* decode(encode(x), **modes) == normalize(x, **modes), for both dtypes;
* X-FEN and Shredder output carry the same rights: re-reading one and
  writing the other gives the other's output of the original;
* validate(x) is None exactly when normalize(x) does not raise;
* the other input kinds (numpy string arrays, a newline-separated buffer)
  give the same rows as a list.
"""

import numpy as np
import pytest
from conftest import START_FEN
from hypothesis import given, settings
from hypothesis import strategies as st
from models import semantics as model
from support import strategies as S
from support.profiles import examples

import fastxfen as fx

MODE_PARAMS = pytest.mark.parametrize("castling,en_passant", model.MODES, ids=model.MODE_IDS)


@pytest.fixture(scope="module")
def rows():
    out = list(S.game_corpus()[::2]) + list(S.castling_corpus()[::2]) + list(S.ep_corpus()[::2])
    out += list(S.model_corpus()[::2])
    return out


@pytest.fixture(scope="module")
def wide_rows(rows):
    return [r for r in rows if model.parse(r)["width"] == 10]


def any_rows():
    return st.one_of(S.oracle_rows(), S.model_rows())


# --------------------------------------------------------------- idempotence


@MODE_PARAMS
def test_idempotent_bulk(rows, castling, en_passant):
    once = fx.normalize(rows, castling=castling, en_passant=en_passant)
    twice = fx.normalize(once, castling=castling, en_passant=en_passant)
    bad = S.first_mismatches(once, once, twice)
    assert not bad, "\n".join(bad)
    # canonical output: single spaces, six fields, no terminator
    for text in once[:2000]:
        assert text == " ".join(text.split()) and len(text.split(" ")) == 6


@MODE_PARAMS
@settings(max_examples=examples(60), deadline=None, derandomize=True)
@given(row=any_rows())
def test_idempotent_hypothesis(row, castling, en_passant):
    once = fx.normalize(row, castling=castling, en_passant=en_passant)
    assert fx.normalize(once, castling=castling, en_passant=en_passant) == once
    # the output re-read in a mode at least as strict about en passant (fen <
    # xfen < legal), with either castling form, is what that mode makes of
    # the original row
    strict = {"fen": 0, "xfen": 1, "legal": 2}
    for c2, e2 in model.MODES:
        if strict[e2] >= strict[en_passant]:
            assert fx.normalize(once, castling=c2, en_passant=e2) == fx.normalize(
                row, castling=c2, en_passant=e2
            )


def test_ep_modes_nest(rows):
    """fen keeps every valid target, xfen a subset, legal a subset of that;
    everything else in the row is the same."""
    out = {e: fx.normalize(rows, en_passant=e) for e in ("fen", "xfen", "legal")}
    for f, x, g in zip(out["fen"], out["xfen"], out["legal"]):
        ff, xx, ll = f.split(), x.split(), g.split()
        assert ff[:3] == xx[:3] == ll[:3] and ff[4:] == xx[4:] == ll[4:]
        if ll[3] != "-":
            assert xx[3] == ll[3]
        if xx[3] != "-":
            assert ff[3] == xx[3]


# --------------------------------------------------------------- records


@MODE_PARAMS
@pytest.mark.parametrize("width", [8, 10])
def test_decode_encode_is_normalize(rows, wide_rows, castling, en_passant, width):
    data = [r for r in rows if model.parse(r)["width"] == 8] if width == 8 else rows
    recs = fx.encode(data, width=width)
    got = fx.decode(recs, castling=castling, en_passant=en_passant)
    expected = fx.normalize(data, castling=castling, en_passant=en_passant)
    bad = S.first_mismatches(data, expected, got)
    assert not bad, "\n".join(bad)


@MODE_PARAMS
@settings(max_examples=examples(40), deadline=None, derandomize=True)
@given(row=any_rows())
def test_decode_encode_hypothesis(row, castling, en_passant):
    expected = fx.normalize(row, castling=castling, en_passant=en_passant)
    assert fx.decode(fx.encode(row, width=10), castling=castling, en_passant=en_passant) == [
        expected
    ]
    if model.parse(row)["width"] == 8:
        assert fx.decode(fx.encode(row), castling=castling, en_passant=en_passant) == [expected]


def test_encode_of_output_is_encode_of_input(rows):
    """The text written keeps everything the record holds."""
    recs = fx.encode(rows, width=10)
    for c, e in model.MODES:
        again = fx.encode(fx.normalize(rows, castling=c, en_passant=e), width=10)
        for name in ("board", "width", "turn", "castling", "halfmove", "fullmove"):
            assert np.array_equal(again[name], recs[name]), (c, e, name)
        if e == "fen":
            assert np.array_equal(again["ep"], recs["ep"])


# --------------------------------------------------------------- xfen <-> shredder


@pytest.mark.parametrize("en_passant", ["fen", "xfen", "legal"])
def test_xfen_and_shredder_carry_the_same_rights(rows, en_passant):
    x = fx.normalize(rows, castling="xfen", en_passant=en_passant)
    s = fx.normalize(rows, castling="shredder", en_passant=en_passant)
    x_to_s = fx.normalize(x, castling="shredder", en_passant=en_passant)
    s_to_x = fx.normalize(s, castling="xfen", en_passant=en_passant)
    bad = S.first_mismatches(rows, s, x_to_s)
    assert not bad, "xfen -> shredder:\n" + "\n".join(bad)
    bad = S.first_mismatches(rows, x, s_to_x)
    assert not bad, "shredder -> xfen:\n" + "\n".join(bad)
    # the two differ only in the castling field
    for a, b in zip(x, s):
        fa, fb = a.split(), b.split()
        assert fa[:2] == fb[:2] and fa[3:] == fb[3:]
        assert len(fa[2]) == len(fb[2])


@settings(max_examples=examples(150), deadline=None, derandomize=True)
@given(row=any_rows())
def test_xfen_shredder_hypothesis(row):
    x = fx.normalize(row, castling="xfen")
    s = fx.normalize(row, castling="shredder")
    assert fx.normalize(x, castling="shredder") == s
    assert fx.normalize(s, castling="xfen") == x


# --------------------------------------------------------------- validate


def test_validate_iff_normalize(rows):
    data = list(S.mutation_corpus()) + rows[:3000]
    messages = fx.validate(data)
    coerced = fx.normalize(data, errors="coerce")
    ignored = fx.normalize(data, errors="ignore")
    for row, m, c, i in zip(data, messages, coerced, ignored):
        if m is None:
            assert c is not None and c == i
            assert fx.normalize(row) == c
        else:
            assert c is None and i is row
            with pytest.raises(fx.FenError) as info:
                fx.normalize(row)
            assert m == f"column {info.value.column} ({info.value.field}): {info.value.reason}"
            assert fx.validate(row) == m


@settings(max_examples=examples(300), deadline=None, derandomize=True)
@given(row=any_rows(), data=st.data())
def test_validate_iff_normalize_hypothesis(row, data):
    # one random edit, chosen by hypothesis
    i = data.draw(st.integers(0, len(row)))
    ch = data.draw(st.sampled_from(list("pnbrqkacPNBRQKAC019/- \twbsmxij\r\n~\x00\u0663")))
    kind = data.draw(st.sampled_from(["insert", "replace", "delete"]))
    if kind == "insert":
        row = row[:i] + ch + row[i:]
    elif kind == "replace":
        row = row[:i] + ch + row[i + 1 :]
    else:
        row = row[:i] + row[i + 1 :]
    message = fx.validate(row)
    try:
        out = fx.normalize(row)
    except fx.FenError as e:
        assert message == f"column {e.column} ({e.field}): {e.reason}"
        assert 0 <= e.column <= len(row)
        assert model.normalize(row) is None
    else:
        assert message is None
        assert out == model.normalize(row)


# --------------------------------------------------------------- input kinds


def test_numpy_string_arrays_match_lists(rows):
    data = [r for r in rows if r.isascii()][:4000]
    expected = fx.normalize(data)
    for arr in (np.array(data), np.array(data, dtype=object)):
        got = fx.normalize(arr)
        assert list(got) == expected
        assert fx.validate(arr) == [None] * len(data)
        assert np.array_equal(fx.encode(arr), fx.encode(data))
    sb = np.array([r.encode() for r in data])
    got = fx.normalize(sb)
    assert [g.decode() if isinstance(g, bytes) else g for g in got] == expected


def test_buffer_of_lines_matches_lists(rows):
    data = [" ".join(r.split()) for r in rows[:3000]]  # no terminators inside
    expected = fx.normalize(data)
    buf = ("\n".join(data) + "\n").encode()
    out = fx.normalize(buf)
    assert out.decode().splitlines() == expected
    assert fx.validate(buf) == [None] * len(data)
    assert np.array_equal(fx.encode(buf), fx.encode(data))
    crlf = ("\r\n".join(data)).encode()
    assert fx.normalize(crlf).decode().splitlines() == expected
    bad = data[:5] + [START_FEN.replace(" w ", " x ")] + data[5:10]
    with pytest.raises(fx.FenError) as info:
        fx.normalize("\n".join(bad).encode())
    assert (info.value.index, info.value.column, info.value.field) == (5, 44, "side")
