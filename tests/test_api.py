"""The public API: input kinds, return types, option checking, FenError."""

import pickle

import numpy as np
import pytest
from conftest import START, START_FEN
from models import semantics as model
from support import strategies as S

import fastxfen as fx

E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
E4_XFEN = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
ROWS = [START_FEN, E4, "  " + START_FEN + "\n"]


def test_public_names():
    for name in (
        "normalize",
        "encode",
        "decode",
        "validate",
        "FenError",
        "POSITION_DTYPE",
        "POSITION_DTYPE_10x8",
    ):
        assert hasattr(fx, name), name
        assert name in fx.__all__


# --------------------------------------------------------------- input kinds


def test_normalize_str_gives_str():
    out = fx.normalize(E4)
    assert type(out) is str and out == E4_XFEN
    assert fx.normalize(E4, en_passant="fen") == E4


@pytest.mark.parametrize("kind", ["list", "tuple", "generator", "map", "dict-keys"])
def test_normalize_iterables_give_lists(kind):
    make = {
        "list": list,
        "tuple": tuple,
        "generator": lambda r: (x for x in r),
        "map": lambda r: map(str, r),
        "dict-keys": lambda r: dict.fromkeys(r).keys(),
    }[kind]
    out = fx.normalize(make(ROWS))
    assert type(out) is list
    assert out == [START_FEN, E4_XFEN, START_FEN]
    assert fx.validate(make(ROWS)) == [None, None, None]
    recs = fx.encode(make(ROWS))
    assert isinstance(recs, np.ndarray) and recs.dtype == fx.POSITION_DTYPE and recs.shape == (3,)


def test_empty_inputs():
    assert fx.normalize([]) == []
    assert fx.normalize(()) == []
    assert fx.normalize(iter([])) == []
    assert fx.validate([]) == []
    assert fx.encode([]).shape == (0,)
    assert fx.decode(fx.encode([])) == []


def test_str_subclass_is_text():
    class Fen(str):
        pass

    assert fx.normalize(Fen(E4)) == E4_XFEN
    assert fx.normalize([Fen(E4)]) == [E4_XFEN]


def test_validate_kinds():
    assert fx.validate(START_FEN) is None
    msg = fx.validate(START + " x KQkq - 0 1")
    assert type(msg) is str and msg.startswith("column 44 (side): ")
    out = fx.validate((START_FEN, "junk"))
    assert type(out) is list and out[0] is None and out[1].startswith("column ")


def test_encode_single_str_gives_one_record():
    recs = fx.encode(START_FEN)
    assert isinstance(recs, np.ndarray)
    assert recs.shape == (1,) and recs.dtype == fx.POSITION_DTYPE
    wide = fx.encode(START_FEN, width=10)
    assert wide.shape == (1,) and wide.dtype == fx.POSITION_DTYPE_10x8
    assert recs.flags["C_CONTIGUOUS"] and recs.flags["WRITEABLE"]


def test_decode_returns_list_of_str():
    out = fx.decode(fx.encode(ROWS))
    assert type(out) is list and all(type(x) is str for x in out)
    assert out == fx.normalize(ROWS)
    # one record taken out of an array (0-d) or a slice of length one
    recs = fx.encode(ROWS)
    assert fx.decode(recs[1:2]) == [E4_XFEN]


@pytest.mark.slow
def test_large_batch_keeps_order():
    rows = list(S.game_corpus()[:5000]) + ["junk"] + list(S.ep_corpus()[:3000])
    one_by_one = [fx.normalize(r, errors="coerce") for r in rows]
    assert fx.normalize(rows, errors="coerce") == one_by_one
    assert fx.normalize(rows[::-1], errors="coerce") == one_by_one[::-1]
    assert one_by_one[5000] is None
    assert fx.validate(rows)[4999:5002:2] == [None, None]


def test_input_not_modified():
    rows = list(ROWS)
    copy = list(rows)
    fx.normalize(rows)
    fx.encode(rows)
    assert rows == copy


def test_non_iterable_input():
    for bad in (42, None, 3.5):
        with pytest.raises((TypeError, fx.FenError)):
            fx.normalize(bad)


def test_bytes_items_in_a_list_are_not_text():
    rows = [START_FEN, START_FEN.encode(), bytearray(b"x")]
    with pytest.raises(fx.FenError) as info:
        fx.normalize(rows)
    assert (info.value.index, info.value.column, info.value.field) == (1, 0, "input")
    assert fx.normalize(rows, errors="coerce") == [START_FEN, None, None]
    v = fx.validate(rows)
    assert (
        v[0] is None
        and v[1].startswith("column 0 (input): ")
        and v[2].startswith("column 0 (input): ")
    )


# --------------------------------------------------------------- options


@pytest.mark.parametrize(
    "kwargs",
    [
        {"castling": "x-fen"},
        {"castling": "XFEN"},
        {"castling": "fen"},
        {"castling": None},
        {"en_passant": "pgn"},
        {"en_passant": "LEGAL"},
        {"en_passant": ""},
        {"en_passant": None},
        {"errors": "skip"},
        {"errors": "strict"},
        {"errors": None},
    ],
)
def test_bad_options_raise_value_error(kwargs):
    with pytest.raises(ValueError) as info:
        fx.normalize(START_FEN, **kwargs)
    assert not isinstance(info.value, fx.FenError)
    if "errors" not in kwargs:
        with pytest.raises(ValueError):
            fx.decode(fx.encode(START_FEN), **kwargs)
    else:
        with pytest.raises(ValueError):
            fx.encode(START_FEN, **kwargs)
        with pytest.raises(ValueError):
            fx.decode(fx.encode(START_FEN), **kwargs)


def test_bad_options_checked_even_for_empty_input():
    with pytest.raises(ValueError):
        fx.normalize([], castling="bogus")
    with pytest.raises(ValueError):
        fx.encode([], width=9)


@pytest.mark.parametrize("width", [0, 7, 9, 11, 64, -8])
def test_bad_width(width):
    with pytest.raises(ValueError):
        fx.encode(START_FEN, width=width)


def test_ignore_is_normalize_only():
    with pytest.raises(ValueError):
        fx.encode(START_FEN, errors="ignore")
    with pytest.raises(ValueError):
        fx.decode(fx.encode(START_FEN), errors="ignore")


def test_options_are_keyword_only():
    with pytest.raises(TypeError):
        fx.normalize(START_FEN, "shredder")
    with pytest.raises(TypeError):
        fx.encode(START_FEN, 10)
    with pytest.raises(TypeError):
        fx.decode(fx.encode(START_FEN), "shredder")


def test_all_valid_option_values():
    for castling, ep in model.MODES:
        for errors in ("raise", "coerce", "ignore"):
            assert fx.normalize(
                E4, castling=castling, en_passant=ep, errors=errors
            ) == model.normalize(E4, castling, ep)
        for errors in ("raise", "coerce"):
            assert fx.decode(fx.encode(E4), castling=castling, en_passant=ep, errors=errors) == [
                model.normalize(E4, castling, ep)
            ]


# --------------------------------------------------------------- FenError


def test_fen_error_is_value_error():
    assert issubclass(fx.FenError, ValueError)
    with pytest.raises(ValueError):
        fx.normalize(START + " w KQkq - 0 1 7")


def test_fen_error_fields_and_message():
    rows = [START_FEN, START_FEN, START_FEN, START + " w KQkq - 0 1 7"]
    with pytest.raises(fx.FenError) as info:
        fx.normalize(rows)
    e = info.value
    assert (e.index, e.column, e.field) == (3, 57, "fields")
    assert type(e.index) is int and type(e.column) is int
    assert type(e.field) is str and type(e.reason) is str and e.reason
    assert str(e) == f"row 3, column 57 (fields): {e.reason}"
    assert fx.validate(rows)[3] == f"column 57 (fields): {e.reason}"
    assert e.args and e.args[0] == str(e)


def test_documented_example_message():
    """semantics.md, section Errors, gives this message word for word: row
    41 whose rank 3 covers 9 squares, the overflow found at column 17."""
    rows = ["8/8/8/8/8/8/8/8 w - - 0 1"] * 41 + ["8/8/8/8/8/ppppppp2/8/8 w - - 0 1"]
    with pytest.raises(fx.FenError) as info:
        fx.normalize(rows)
    assert str(info.value) == "row 41, column 17 (placement): rank 3 covers 9 squares, expected 8"
    assert fx.validate(rows)[41] == "column 17 (placement): rank 3 covers 9 squares, expected 8"


def test_fen_error_single_row_index_zero():
    with pytest.raises(fx.FenError) as info:
        fx.normalize(START + " w KQkq - 0 -1")
    assert (info.value.index, info.value.column, info.value.field) == (0, 55, "fullmove")


def test_fen_error_from_a_generator_counts_rows():
    def rows():
        yield START_FEN
        yield E4
        yield START + " w KQkq - x 1"

    with pytest.raises(fx.FenError) as info:
        fx.normalize(rows())
    assert (info.value.index, info.value.column, info.value.field) == (2, 53, "halfmove")


def test_fen_error_pickles():
    with pytest.raises(fx.FenError) as info:
        fx.normalize([START_FEN, START + " w KQkq e9 0 1"])
    e = info.value
    e2 = pickle.loads(pickle.dumps(e))
    assert type(e2) is fx.FenError
    assert (e2.index, e2.column, e2.field, e2.reason) == (e.index, e.column, e.field, e.reason)
    assert str(e2) == str(e)


def test_coerce_and_ignore_do_not_raise():
    rows = [START_FEN, "garbage", None, "", START + " w KQkq"]
    assert fx.normalize(rows, errors="coerce") == [START_FEN, None, None, None, None]
    out = fx.normalize(rows, errors="ignore")
    assert out[0] == START_FEN and out[1:] == rows[1:]
    v = fx.validate(rows)
    assert v[0] is None and v[2] is None  # None is a missing value, not a bad row
    assert all(m is not None for m in v[1:2] + v[3:])
    recs = fx.encode(rows, errors="coerce")
    assert recs["width"].tolist() == [8, 0, 0, 0, 0]
    assert fx.decode(recs, errors="coerce") == [START_FEN, None, None, None, None]


@pytest.mark.parametrize("value", [None, 5, 2.5])
def test_an_input_that_is_no_positions_is_a_type_error(value):
    """zobrist(None), Deduper().add(None) and the others name what they take
    instead of "'NoneType' object is not iterable"."""
    from fastxfen import export

    calls = [fx.normalize, fx.encode, fx.validate, fx.zobrist, fx.unique, fx.Deduper().add]
    for call in [*calls, export.to_planes]:
        with pytest.raises(TypeError, match=f"expected positions: .*; got {type(value).__name__}"):
            call(value)
