"""Binary and string columns made elsewhere: offsets and masks are checked
before any kernel reads them, on every path that takes them, and a bad one
is a ValueError naming its row (pyarrow's default validate() passes interior
offsets that point anywhere)."""

import numpy as np
import pytest

import fastxfen as fx
from fastxfen import export
from fastxfen._columns import arrow_offsets

pa = pytest.importorskip("pyarrow")

FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWI = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
ROWS = [FEN, KIWI, FEN, KIWI]
TEXT = "".join(ROWS).encode()
GOOD = np.cumsum([0] + [len(r) for r in ROWS])

#: (name, offsets of 4 rows into TEXT, first bad row)
BAD_OFFSETS = [
    ("past the end", [0, 56, 10_000, 180, 248], 1),
    ("decreasing", [0, 56, 40, 180, 248], 1),
    ("negative", [0, 56, -3, 180, 248], 1),
    ("first negative", [0, -56, 124, 180, 248], 0),
]

STRING_CALLS = {
    "normalize": lambda a: fx.normalize(a),
    "normalize-coerce": lambda a: fx.normalize(a, errors="coerce"),
    "encode": lambda a: fx.encode(a, errors="coerce"),
    "validate": lambda a: fx.validate(a),
    "to_planes": lambda a: export.to_planes(a),
    "to_bitboards": lambda a: export.to_bitboards(a),
    "pack": lambda a: export.pack(a),
}


def _strings(offsets, kind=None, validity=None, offset=0, n=4):
    kind = kind or pa.string()
    width = np.int64 if kind == pa.large_string() or kind == pa.large_binary() else np.int32
    buffers = [validity, pa.py_buffer(np.array(offsets, width)), pa.py_buffer(TEXT)]
    return pa.Array.from_buffers(kind, n, buffers, offset=offset)


def test_good_offsets_are_read():
    arr = _strings(GOOD)
    assert fx.normalize(arr).to_pylist() == [fx.normalize(r) for r in ROWS]


@pytest.mark.parametrize("kind", [pa.string(), pa.large_string()], ids=str)
@pytest.mark.parametrize("name,offsets,row", BAD_OFFSETS, ids=[b[0] for b in BAD_OFFSETS])
@pytest.mark.parametrize("call", list(STRING_CALLS), ids=str)
def test_string_offsets(kind, name, offsets, row, call):
    arr = _strings(offsets, kind)
    arr.validate()  # pyarrow's default check lets it through
    with pytest.raises(ValueError, match=f"^row {row}: offsets"):
        STRING_CALLS[call](arr)


@pytest.mark.parametrize("call", list(STRING_CALLS), ids=str)
def test_string_offsets_name_the_row_across_chunks(call):
    bad = _strings(BAD_OFFSETS[0][1])
    chunked = pa.chunked_array([pa.array(ROWS), pa.array(ROWS[:2]), bad])
    with pytest.raises(ValueError, match="^row 7: offsets"):
        STRING_CALLS[call](chunked)


@pytest.mark.parametrize("call", list(STRING_CALLS), ids=str)
def test_sliced_array_reads_its_own_rows(call):
    """A slice's offsets start at its offset: the rows before it are not read,
    and a bad offset is named by its row in the slice."""
    whole = _strings([0, 56, 10_000, 124, 180, 248], n=5)  # rows 1 and 2 are bad
    assert len(STRING_CALLS[call](whole.slice(3, 2))) == 2
    with pytest.raises(ValueError, match="^row 1: offsets"):
        STRING_CALLS[call](whole.slice(0, 3))
    with pytest.raises(ValueError, match="^row 0: offsets"):
        STRING_CALLS[call](whole.slice(2, 3))


def test_validity_bitmap_of_a_slice():
    validity = pa.py_buffer(np.packbits([1, 0, 1, 1, 0, 0, 0, 0], bitorder="little"))
    arr = _strings(GOOD, validity=validity).slice(1, 3)
    assert fx.normalize(arr).to_pylist() == [None, fx.normalize(FEN), fx.normalize(KIWI)]


class _Chunk:
    """Stands in for an Arrow chunk whose buffers are shorter than its length
    claims (pyarrow's constructors refuse to make one; the C data interface
    can)."""

    def __init__(self, validity, offsets, length, offset=0):
        self._buffers = [validity, offsets, pa.py_buffer(TEXT)]
        self.offset, self._length = offset, length

    def buffers(self):
        return self._buffers

    def __len__(self):
        return self._length


def test_pyarrow_refuses_short_buffers():
    """What pyarrow's own check catches: short buffers, a first or last
    offset outside the data (the cases below and the stand-in cover them)."""
    with pytest.raises(pa.ArrowInvalid):
        _strings(GOOD[:3])
    with pytest.raises(pa.ArrowInvalid):
        _strings(GOOD, validity=pa.py_buffer(b""), n=10)
    with pytest.raises(pa.ArrowInvalid):
        _strings([0, 56, 124, 180, 249])


def test_short_offsets_buffer_is_an_error():
    chunk = _Chunk(None, pa.py_buffer(GOOD[:3].astype(np.int32)), 4)
    with pytest.raises(ValueError, match="^row 12: the offsets buffer ends"):
        arrow_offsets(chunk, np.int32, 10)
    chunk = _Chunk(None, pa.py_buffer(GOOD.astype(np.int32)), 4, offset=1)
    with pytest.raises(ValueError, match="^row 3: the offsets buffer ends"):
        arrow_offsets(chunk, np.int32, 0)
    assert list(arrow_offsets(_Chunk(None, pa.py_buffer(GOOD), 4), np.int64, 0)) == list(GOOD)


def test_short_validity_bitmap_is_an_error():
    chunk = _Chunk(pa.py_buffer(b"\xff"), pa.py_buffer(np.arange(12, dtype=np.int32)), 11)
    with pytest.raises(ValueError, match="^row 8: the validity bitmap ends"):
        arrow_offsets(chunk, np.int32, 0)
    chunk = _Chunk(pa.py_buffer(b"\xff"), pa.py_buffer(np.arange(12, dtype=np.int32)), 8, 1)
    with pytest.raises(ValueError, match="^row 7: the validity bitmap ends"):
        arrow_offsets(chunk, np.int32, 0)


# ---------------------------------------------------------------- binary columns


def _packed():
    return export.pack(ROWS)


def _binary(offsets, kind=None, n=4, offset=0):
    col = _packed()
    kind = kind or pa.binary()
    width = np.int64 if kind == pa.large_binary() else np.int32
    buffers = [None, pa.py_buffer(np.array(offsets, width)), pa.py_buffer(col.data)]
    return pa.Array.from_buffers(kind, n, buffers, offset=offset)


def _bad_binary_offsets():
    good = [int(v) for v in _packed().offsets]
    return [
        ("past the end", [good[0], good[1], 10_000, good[3], good[4]], 1),
        ("decreasing", [good[0], good[2], good[1], good[3], good[4]], 1),
        ("negative", [good[0], good[1], -1, good[3], good[4]], 1),
        ("first negative", [good[0], -1, good[2], good[3], good[4]], 0),
    ]


def test_unpack_good_binary():
    col = _packed()
    records = export.unpack(col.to_arrow())
    assert fx.decode(records) == fx.decode(fx.encode(ROWS))


@pytest.mark.parametrize("kind", [pa.binary(), pa.large_binary()], ids=str)
@pytest.mark.parametrize("case", range(4))
def test_unpack_binary_offsets(kind, case):
    name, offsets, row = _bad_binary_offsets()[case]
    arr = _binary(offsets, kind)
    arr.validate()
    with pytest.raises(ValueError, match=f"^row {row}: offsets"):
        export.unpack(arr)
    good = _packed().to_arrow(large=kind == pa.large_binary())
    with pytest.raises(ValueError, match=f"^row {row + 3}: offsets"):
        export.unpack(pa.chunked_array([good[:3], arr]))


def test_unpack_sliced_binary():
    col = _packed()
    arr = col.to_arrow().slice(1, 2)
    assert fx.decode(export.unpack(arr)) == fx.decode(fx.encode(ROWS[1:3]))
    o = [int(v) for v in col.offsets]
    whole = _binary([o[0], o[1], 10_000, o[2], o[3], o[4]], n=5)  # rows 1 and 2 are bad
    assert fx.decode(export.unpack(whole.slice(3, 2))) == fx.decode(fx.encode(ROWS[2:]))
    with pytest.raises(ValueError, match="^row 1: offsets"):
        export.unpack(whole.slice(0, 3))
    with pytest.raises(ValueError, match="^row 0: offsets"):
        export.unpack(whole.slice(2, 3))


def test_stockfish_binary_offsets():
    rows = export.pack(ROWS, format="stockfish")
    data = pa.py_buffer(rows.tobytes())
    good = np.arange(5, dtype=np.int32) * 24
    arr = pa.Array.from_buffers(pa.binary(), 4, [None, pa.py_buffer(good), data])
    assert (export.unpack(arr, format="stockfish") == export.unpack(rows, format="stockfish")).all()
    bad = good.copy()
    bad[2] = 1000
    arr = pa.Array.from_buffers(pa.binary(), 4, [None, pa.py_buffer(bad), data])
    with pytest.raises(ValueError, match="^row 1: offsets"):
        export.unpack(arr, format="stockfish")


def test_binary_column_checked_when_made():
    col = _packed()
    with pytest.raises(ValueError, match="^row 1: offsets"):
        export.BinaryColumn(col.data, [0, 40, 30, 60, 70])
    with pytest.raises(ValueError, match="valid has shape"):
        export.BinaryColumn(col.data, col.offsets, [True, False])


def test_binary_column_attributes_reassigned():
    """Attributes set after the column was made are checked when it is read:
    a shorter mask no longer turns rows into null records."""
    col = _packed()
    col.valid = np.array([True, True])
    with pytest.raises(ValueError, match="valid has shape"):
        export.unpack(col)
    with pytest.raises(ValueError, match="valid has shape"):
        col.to_arrow()
    col = _packed()
    col.offsets = col.offsets.copy()
    col.offsets[2] = 10**9
    with pytest.raises(ValueError, match="^row 1: offsets"):
        export.unpack(col)
    with pytest.raises(ValueError, match="^row 1: offsets"):
        col.to_arrow()
    col = _packed()
    col.offsets[3] = -4  # written in place
    with pytest.raises(ValueError, match="^row 2: offsets"):
        export.unpack(col)
    col = _packed()
    col.data = col.data[:10]
    with pytest.raises(ValueError, match="^row 0: offsets"):
        export.unpack(col)
    col = _packed()
    col.offsets = np.zeros((2, 3), np.int64)
    with pytest.raises(ValueError, match="1-d"):
        export.unpack(col)


def test_binary_pair_checked():
    col = _packed()
    with pytest.raises(ValueError, match="^row 2: offsets"):
        export.unpack((col.data, np.array([0, 30, 60, 50, 70])))
