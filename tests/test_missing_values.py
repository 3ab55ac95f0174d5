"""One rule for missing values (docs/failures.md, "Missing values"): an Arrow
null and a None in a list or object array are missing data, not bad rows.
Every public function passes them on as missing under every errors= mode."""

import numpy as np
import pytest

import fastxfen as fx
from fastxfen import export

pa = pytest.importorskip("pyarrow")

FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWI = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
CAPA = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
ROWS = [FEN, None, KIWI, None]
MISSING = [1, 3]


def _inputs():
    """Each kind of input that can hold a missing value, as (name, value)."""
    return [
        ("list", list(ROWS)),
        ("object", np.array(ROWS, dtype=object)),
        ("arrow", pa.array(ROWS)),
        ("large_string", pa.array(ROWS, pa.large_string())),
        ("chunked", pa.chunked_array([ROWS[:2], ROWS[2:]])),
        ("iterable", iter(ROWS)),
    ]


KINDS = [name for name, _ in _inputs()]


def _input(kind):
    return dict(_inputs())[kind]


def _as_list(result):
    if hasattr(result, "to_pylist"):
        return result.to_pylist()
    return list(result)


@pytest.mark.parametrize("errors", ["raise", "coerce", "ignore"])
@pytest.mark.parametrize("kind", KINDS)
def test_normalize_passes_missing_through(kind, errors):
    got = _as_list(fx.normalize(_input(kind), errors=errors))
    assert got == [fx.normalize(FEN), None, fx.normalize(KIWI), None]


@pytest.mark.parametrize("errors", ["raise", "coerce"])
@pytest.mark.parametrize("kind", KINDS)
def test_encode_writes_the_null_record(kind, errors):
    for width in (8, 10):
        records = fx.encode(_input(kind), width=width, errors=errors)
        assert records["width"].tolist() == [8, 0, 8, 0]
        for i in MISSING:
            assert records[i].tobytes() == bytes(records.dtype.itemsize)


@pytest.mark.parametrize("kind", KINDS)
def test_validate_reports_nothing_for_missing(kind):
    assert _as_list(fx.validate(_input(kind))) == [None] * 4
    bad = [None, "not a fen"]
    assert fx.validate(bad)[0] is None and fx.validate(bad)[1] is not None


def test_large_list_on_threads():
    """A list long enough for the bulk kernels (its None rows go row by row)."""
    rows = ROWS * 40_000
    assert fx.validate(rows, threads=2) == [None] * len(rows)
    got = fx.normalize(rows, threads=2)
    assert got[1] is None and got[-1] is None and got[0] == fx.normalize(FEN)
    records = fx.encode(rows, threads=2)
    assert (records["width"][1::2] == 0).all() and (records["width"][0::2] == 8).all()


@pytest.mark.parametrize("errors", ["raise", "coerce"])
def test_decode_gives_missing_for_the_null_record(errors):
    records = fx.encode(ROWS)
    assert fx.decode(records, errors=errors) == [fx.normalize(FEN), None, fx.normalize(KIWI), None]
    lines = fx.decode(records, errors=errors, output="bytes").split(b"\n")
    assert lines == [fx.normalize(FEN).encode(), b"", fx.normalize(KIWI).encode(), b"", b""]
    column = fx.decode(records, errors=errors, output="arrow")
    assert column.to_pylist() == [fx.normalize(FEN), None, fx.normalize(KIWI), None]
    assert column.null_count == 2
    assert fx.decode(records[1]) is None  # a single (0-d) null record


@pytest.mark.parametrize("errors", ["raise", "coerce"])
def test_decode_refuses_a_width_0_record_that_is_not_null(errors):
    """Only the all-zero record is missing; width 0 with anything else set
    is a corrupt record."""
    records = fx.encode(ROWS)
    records["fullmove"][1] = 7
    if errors == "raise":
        for output in ("list", "bytes", "arrow"):
            with pytest.raises(fx.FenError, match="row 1, column 0 .record.width."):
                fx.decode(records, output=output)
    else:
        assert fx.decode(records, errors="coerce")[1] is None


@pytest.mark.parametrize("errors", ["raise", "coerce"])
@pytest.mark.parametrize("kind", ["list", "arrow", "records"])
def test_export_of_missing_rows(kind, errors):
    x = fx.encode(ROWS) if kind == "records" else _input(kind)
    bitboards = export.to_bitboards(x, errors=errors)
    assert not bitboards[MISSING].any() and bitboards[0].any()
    planes = export.to_planes(x, errors=errors, extra=("turn", "castling"))
    assert not planes[MISSING].any() and planes[0].any()
    wide = export.to_planes(pa.array([CAPA, None]), errors=errors, width=10)
    assert wide[0].any() and not wide[1].any()
    packed = export.pack(x, errors=errors)
    assert packed.valid.tolist() == [True, False, True, False]
    assert packed.tolist()[1] is None
    stockfish = export.pack(x, format="stockfish", errors=errors)
    assert not stockfish[MISSING].any() and stockfish[0].any()


def test_pack_unpack_round_trip_of_missing():
    packed = export.pack(pa.array(ROWS))
    back = fx.decode(export.unpack(packed))
    assert back == [fx.normalize(FEN), None, fx.normalize(KIWI), None]
    back = fx.decode(export.unpack(packed.to_arrow()))
    assert back == [fx.normalize(FEN), None, fx.normalize(KIWI), None]


def test_fixed_size_outputs_read_back_as_the_empty_board():
    """Bitboards, planes and Stockfish positions have no null: the all-zero
    value of a missing row is also the empty board with white to move, and
    reads back as that (keep a mask of missing rows to tell them apart)."""
    empty = fx.normalize("8/8/8/8/8/8/8/8 w - - 0 1")
    bitboards = export.to_bitboards(ROWS)
    assert fx.decode(export.from_bitboards(bitboards))[1] == empty
    assert fx.decode(export.from_planes(export.to_planes(ROWS)))[1] == empty
    stockfish = export.pack(ROWS, format="stockfish")
    assert fx.decode(export.unpack(stockfish, format="stockfish"))[1] == empty


def test_other_non_str_items_are_still_bad_rows():
    rows = [FEN, 42]
    with pytest.raises(fx.FenError, match="row 1, column 0 .input.: expected str, got int"):
        fx.encode(rows)
    assert fx.validate(rows)[1] == "column 0 (input): expected str, got int"
