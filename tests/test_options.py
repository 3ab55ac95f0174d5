"""The options of every public function are checked by fastxfen._options
before any work, with one message per option; errors are told apart by
their code, not their text."""

import pickle

import numpy as np
import pytest

import fastxfen as fx
from fastxfen import _codec, _options, pgn
from fastxfen import dask as fxd

FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
BAD = "not a position"  # would raise a FenError if any work came first
RECORDS = fx.encode([FEN])
GAME = f'[FEN "{BAD}"]\n\n*\n'.encode()

CASTLING = {
    "normalize str": lambda v: fx.normalize(BAD, castling=v),
    "normalize list": lambda v: fx.normalize([BAD], castling=v),
    "normalize bytes": lambda v: fx.normalize(BAD.encode(), castling=v),
    "decode": lambda v: fx.decode(RECORDS, castling=v),
    "normalize_pgn": lambda v: pgn.normalize_pgn(GAME, castling=v),
    "dask normalize_lines": lambda v: fxd.normalize_lines([BAD], castling=v),
}
EN_PASSANT = {
    "normalize numpy": lambda v: fx.normalize(np.array([BAD]), en_passant=v),
    "decode bytes": lambda v: fx.decode(RECORDS, output="bytes", en_passant=v),
    "to_planes": lambda v: fx.to_planes([BAD], en_passant=v),
    "pack": lambda v: fx.pack([BAD], en_passant=v),
    "stream_pgn": lambda v: pgn.stream_pgn([GAME], lambda d: None, en_passant=v),
    "Deduper": lambda v: fx.Deduper(en_passant=v),
    "unique": lambda v: fx.unique([BAD], en_passant=v),
}
ERRORS = {
    "normalize": lambda v: fx.normalize([BAD], errors=v),
    "normalize_pgn": lambda v: pgn.normalize_pgn(GAME, errors=v),
    "dask normalize_lines": lambda v: fxd.normalize_lines([BAD], errors=v),
}
RECORD_ERRORS = {
    "encode": lambda v: fx.encode([BAD], errors=v),
    "decode": lambda v: fx.decode(RECORDS, errors=v),
    "to_bitboards": lambda v: fx.to_bitboards([BAD], errors=v),
    "to_planes": lambda v: fx.to_planes([BAD], errors=v),
    "pack": lambda v: fx.pack([BAD], errors=v),
    "unpack": lambda v: fx.unpack([b"x"], errors=v),
    "from_bitboards": lambda v: fx.from_bitboards(np.zeros((1, 12), np.uint64), errors=v),
    "dask encode_lines": lambda v: fxd.encode_lines([BAD], errors=v),
    "zobrist": lambda v: fx.zobrist([BAD], errors=v),
    "zobrist str": lambda v: fx.zobrist(BAD, errors=v),
    "Deduper.add": lambda v: fx.Deduper().add([BAD], errors=v),
    "unique": lambda v: fx.unique([BAD], errors=v),
}
WIDTH = {
    "encode": lambda v: fx.encode([BAD], width=v),
    "to_planes": lambda v: fx.to_planes([BAD], width=v),
    "dask encode_lines": lambda v: fxd.encode_lines([BAD], width=v),
}


def messages(calls, value):
    out = {}
    for name, call in calls.items():
        with pytest.raises(ValueError) as info:
            call(value)
        assert not isinstance(info.value, fx.FenError), name
        out[name] = str(info.value)
    return out


@pytest.mark.parametrize(
    "calls, value, expected",
    [
        (CASTLING, "kqkq", "castling must be one of 'xfen', 'shredder', not 'kqkq'"),
        (CASTLING, None, "castling must be one of 'xfen', 'shredder', not None"),
        (EN_PASSANT, "all", "en_passant must be one of 'fen', 'xfen', 'legal', not 'all'"),
        (ERRORS, "skip", "errors must be one of 'raise', 'coerce', 'ignore', not 'skip'"),
        (RECORD_ERRORS, "skip", "errors must be one of 'raise', 'coerce', not 'skip'"),
        (
            RECORD_ERRORS,
            "ignore",
            "errors='ignore' passes text through; records have none (use 'raise' or 'coerce')",
        ),
        (WIDTH, 9, "width must be 8 or 10, not 9"),
        (WIDTH, True, "width must be 8 or 10, not True"),
    ],
)
def test_one_message_per_option(calls, value, expected):
    assert set(messages(calls, value).values()) == {expected}


def test_output_perspective_and_format():
    with pytest.raises(ValueError, match="^output must be one of 'list', 'bytes', 'arrow', not"):
        fx.decode(RECORDS, output="str")
    for call in (
        lambda: fx.to_planes([BAD], perspective="black"),
        lambda: fx.from_planes(np.zeros((1, 12, 8, 8), np.uint8), perspective="black"),
    ):
        with pytest.raises(ValueError, match="^perspective must be one of 'white', 'side_to_move'"):
            call()
    for call in (lambda: fx.pack([BAD], format="fen"), lambda: fx.unpack([b"x"], format="fen")):
        with pytest.raises(ValueError, match="^format must be one of 'lichess', 'stockfish'"):
            call()


def test_errors_carry_the_core_code():
    wide = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
    with pytest.raises(fx.FenError) as info:
        fx.encode([wide])
    assert info.value.code == _codec.E_WIDE_ROW
    with pytest.raises(fx.FenError) as info:
        fx.encode(np.array([wide]))  # the bulk kernels give the same code
    assert info.value.code == _codec.E_WIDE_ROW
    with pytest.raises(fx.FenError) as info:
        fx.normalize(BAD)
    assert info.value.code not in (None, _codec.E_WIDE_ROW)
    again = pickle.loads(pickle.dumps(info.value))
    assert (again.code, str(again)) == (info.value.code, str(info.value))
    assert fx.FenError(0, 0, "input", "made here").code is None


def test_every_path_keeps_the_core_code():
    """A FenError the core refused carries its code on every path: rows
    renumbered (a later chunk, a Deduper's earlier rows, a long list over
    threads), keys, export formats and PGN tags, and through pickle."""
    from fastxfen._bulk import MIN_ROWS_PER_THREAD

    wide = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
    bad_records = RECORDS.copy()
    bad_records["turn"] = 7
    long_list = [FEN] * (2 * MIN_ROWS_PER_THREAD) + [BAD]
    deduper = fx.Deduper()
    deduper.add([FEN])
    calls = [
        lambda: fx.normalize(long_list, threads=2),
        lambda: fx.encode(long_list, threads=2),
        lambda: fx.zobrist(bad_records),
        lambda: fx.zobrist([FEN, BAD]),
        lambda: deduper.add([FEN, BAD]),
        lambda: fx.to_bitboards([wide]),
        lambda: fx.pack([wide], format="stockfish"),
        lambda: pgn.normalize_pgn(GAME),
    ]
    for call in calls:
        with pytest.raises(fx.FenError) as info:
            call()
        assert info.value.code is not None, call
        again = pickle.loads(pickle.dumps(info.value))
        assert (again.code, str(again), type(again)) == (
            info.value.code,
            str(info.value),
            type(info.value),
        )
    with pytest.raises(fx.FenError) as info:
        deduper.add([FEN, BAD])  # numbered from the first row ever added
    assert info.value.index == 2 and info.value.code is not None


def test_rerun_helpers():
    """The one helper for errors="raise" over a run made under coerce: the
    first refused row, run alone, gives its error, numbered as its row."""
    from fastxfen._errors import fen_error, raise_by_rerun, renumbered, rerun_error

    one = lambda row: fx.normalize(row)  # noqa: E731
    assert rerun_error(one, FEN, 5) is None
    error = rerun_error(one, BAD, 5)
    assert error.index == 5 and error.code is not None
    assert str(error).startswith("row 5, ")
    rows = [FEN, BAD, "8/8/9/8/8/8/8/8 w - - 0 1"]
    with pytest.raises(fx.FenError, match="^row 1, ") as info:
        raise_by_rerun(one, rows, [0, 1, 2])
    assert info.value.code is not None
    raise_by_rerun(one, rows, [0])  # none refused: nothing raised
    made = fen_error(3, 4, "side", "expected 'w' or 'b'", 9)
    moved = renumbered(made, 7)
    assert (moved.index, moved.column, moved.field, moved.reason, moved.code) == (
        7,
        4,
        "side",
        "expected 'w' or 'b'",
        9,
    )


def test_option_values_are_frozen_hashable_and_picklable():
    """The values the edge builds (and Dask ships to its workers): equal when
    built from the same options, whatever their spelling, immutable, and a
    repr that builds them again."""
    from fastxfen._options import (
        KeyOptions,
        PlaneOptions,
        RecordOptions,
        TextOptions,
        Threads,
        text_options,
    )

    values = [
        TextOptions(castling="shredder", en_passant="legal", fields="same", epd=True),
        TextOptions.of_records(fields=4),
        RecordOptions(width=10, epd=True),
        KeyOptions(counters=True, en_passant="fen"),
        PlaneOptions(dtype="float32", perspective="side_to_move", extra="turn", width=10),
        Threads(2),
        Threads(),
    ]
    namespace = dict(
        TextOptions=TextOptions,
        RecordOptions=RecordOptions,
        KeyOptions=KeyOptions,
        PlaneOptions=PlaneOptions,
        Threads=Threads,
        dtype=np.dtype,
    )
    for value in values:
        again = pickle.loads(pickle.dumps(value))
        assert again == value and hash(again) == hash(value)
        assert eval(repr(value), namespace) == value
        with pytest.raises(AttributeError):
            value.epd = False
    assert repr(values[0]) == (
        "TextOptions(castling='shredder', en_passant='legal', fields='same', epd=True)"
    )
    assert TextOptions() == TextOptions("xfen", "xfen", 6, False) != TextOptions(fields=4)
    assert TextOptions() != RecordOptions() and len({TextOptions(), TextOptions()}) == 1
    assert text_options("xfen", "xfen", 6) is text_options("xfen", "xfen", 6)  # built once
    assert (TextOptions().fields_mode, TextOptions(fields="same").fields_mode) == (6, 0)
    assert Threads(10**9).count == Threads(10**9).kernel == _options.cpu_count()
    assert (Threads().count, Threads().kernel) == (None, 0)


def test_option_values_give_the_functions_messages():
    """A value refuses a wrong option with the message of the function that
    takes it (one message per mistake), and takes an equal option of another
    type only where the function does."""
    from fastxfen import _options as o

    cases = [
        (lambda: o.TextOptions(castling="kqkq"), lambda: fx.normalize(FEN, castling="kqkq")),
        (lambda: o.TextOptions(en_passant="all"), lambda: fx.normalize(FEN, en_passant="all")),
        (lambda: o.TextOptions(fields=6.0), lambda: fx.normalize(FEN, fields=6.0)),
        (
            lambda: o.TextOptions.of_records(fields="same"),
            lambda: fx.decode(RECORDS, fields="same"),
        ),
        (lambda: o.RecordOptions(width=9), lambda: fx.encode(FEN, width=9)),
        (lambda: o.record_errors("ignore"), lambda: fx.encode(FEN, errors="ignore")),
        (lambda: o.errors("skip"), lambda: fx.normalize(FEN, errors="skip")),
        (lambda: o.KeyOptions(en_passant="all"), lambda: fx.unique([FEN], en_passant="all")),
        (lambda: o.Threads(0), lambda: fx.normalize(FEN, threads=0)),
        (lambda: o.Threads(True), lambda: fx.normalize(FEN, threads=True)),
        (lambda: o.pgn_select("all"), lambda: pgn.normalize_pgn(GAME, select="all")),
        (
            lambda: o.PlaneOptions(perspective="black"),
            lambda: fx.to_planes([FEN], perspective="black"),
        ),
    ]
    for build, call in cases:
        with pytest.raises(ValueError) as value:
            build()
        with pytest.raises(ValueError) as function:
            call()
        assert str(value.value) == str(function.value)
    assert o.text_options("xfen", "xfen", 6, [1]).epd  # an unhashable option, built afresh
    with pytest.raises(ValueError, match="fields must be 4, 6 or 'same', not 6.0"):
        o.text_options("xfen", "xfen", 6.0)  # 6.0 == 6, but not a key of 6's value
