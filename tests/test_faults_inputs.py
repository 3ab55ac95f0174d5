"""Inputs that are not what they were: buffers another thread writes to while
a bulk call reads them, and numpy ``U`` text holding code points no character
has.  A kernel must never read or write outside what it allocated; a call
gives a result of the right length or the documented error."""

import random
import threading
import time

import numpy as np
import pytest

import fastxfen as fx
from fastxfen import export
from fastxfen._options import ErrorsMode, RecordOptions

pa = pytest.importorskip("pyarrow")

CHANGED = "the input changed during the call"
FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "rnbqkb1r/pp1p1ppp/5n2/2pPp3/8/8/PPP1PPPP/RNBQKBNR w KQkq c6 0 4",
    "4k3/8/8/8/8/8/8/4K2R w K - 12 40",
]
#: What the other thread writes: newlines (new rows, or rows split), and
#: bytes that end, pad or spoil a row.
BYTES = np.frombuffer(b"\n\n\nx/ 0\r\x00", np.uint8)


def _lines(rows: int) -> bytearray:
    rng = random.Random(rows)
    return bytearray("".join(rng.choice(FENS) + "\n" for _ in range(rows)), "ascii")


class Flipper:
    """A thread that writes bytes into `target` (a writeable uint8 view) until
    stopped: each time up to `burst` random positions, put back the next
    time, so the input keeps changing and never drifts far."""

    def __init__(self, target: np.ndarray, burst: int = 8, seed: int = 0):
        self.target, self.burst = target, burst
        self.rng = np.random.default_rng(seed)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        n = len(self.target)
        while not self.stop.is_set():
            where = self.rng.integers(0, n, self.burst)
            kept = self.target[where].copy()
            self.target[where] = self.rng.choice(BYTES, self.burst)
            time.sleep(0)
            self.target[where] = kept

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


def _calls():
    """(name, call) pairs for every bulk entry point; each
    call runs with coerce (a spoiled row is not an error) and two threads."""
    kw = {"threads": 2}
    return [
        ("normalize", lambda x: fx.normalize(x, errors="coerce", **kw)),
        ("normalize-ignore", lambda x: fx.normalize(x, errors="ignore", **kw)),
        ("encode", lambda x: fx.encode(x, errors="coerce", **kw)),
        ("validate", lambda x: fx.validate(x, **kw)),
        ("to_planes", lambda x: export.to_planes(x, errors="coerce", **kw)),
        ("to_bitboards", lambda x: export.to_bitboards(x, errors="coerce", **kw)),
        ("pack", lambda x: export.pack(x, errors="coerce", **kw)),
    ]


def _length(name, result):
    if name.startswith("normalize") and isinstance(result, bytes):
        return result.count(b"\n")
    return len(result)


def _hammer(make, target, rows, seconds, exact):
    """Run each bulk call on the input `make()` gives while a Flipper writes to
    `target`; every call ends with a result of `rows` rows (give or take the
    rows the flipper's newlines add or take away, unless `exact`) or with the
    documented ValueError."""
    calls = _calls()
    deadline = time.monotonic() + seconds
    outcomes = {name: [0, 0] for name, _ in calls}
    with Flipper(target) as flipper:
        while time.monotonic() < deadline:
            for name, call in calls:
                try:
                    result = call(make())
                except ValueError as e:
                    assert CHANGED in str(e), e
                    outcomes[name][1] += 1
                    continue
                outcomes[name][0] += 1
                got = _length(name, result)
                slack = 0 if exact else 2 * flipper.burst + 1
                assert abs(got - rows) <= slack, (name, got, rows)
    assert all(ok + changed for ok, changed in outcomes.values()), outcomes
    return outcomes


def _buffer_case(seconds):
    rows = 40_000
    buf = _lines(rows)
    target = np.frombuffer(buf, np.uint8)
    _hammer(lambda: buf, target, rows, seconds, exact=False)


def _numpy_case(seconds):
    rows = 40_000
    arr = np.array(_lines(rows).decode().splitlines(), "S")
    _hammer(lambda: arr, arr.view(np.uint8), rows, seconds, exact=True)


def _arrow_case(seconds):
    rows = 40_000
    text = _lines(rows)
    ends = np.array([i + 1 for i, b in enumerate(text) if b == 10], np.int64)
    offsets = np.concatenate([[0], ends]).astype(np.int32)
    data = bytearray(text)
    offs = bytearray(offsets.tobytes())
    arr = pa.Array.from_buffers(pa.string(), rows, [None, pa.py_buffer(offs), pa.py_buffer(data)])
    # both the text and its offsets change: an offset may point anywhere
    deadline = time.monotonic() + seconds
    with Flipper(np.frombuffer(data, np.uint8)), Flipper(np.frombuffer(offs, np.uint8), 2, 1):
        while time.monotonic() < deadline:
            for name, call in _calls():
                try:
                    result = call(arr)
                except ValueError as e:
                    assert "offsets outside the data buffer" in str(e) or CHANGED in str(e), e
                    continue
                assert len(result) == rows, name


def _records_case(seconds):
    """Records, bitboards, planes and packed values written to during the
    export kernels and decode: each row is read once, so every call gives
    one row per row (bad rows coerced)."""
    rows = 20_000
    records = fx.encode(_lines(rows))
    bitboards = export.to_bitboards(records)
    planes = export.to_planes(records)
    packed = export.pack(records)
    stockfish = export.pack(records, format="stockfish")
    calls = [
        (records, lambda: fx.decode(records, errors="coerce", output="bytes", threads=2)),
        (records, lambda: fx.decode(records, errors="coerce", output="arrow", threads=2)),
        (records, lambda: export.to_planes(records, errors="coerce")),
        (records, lambda: export.to_bitboards(records, errors="coerce")),
        (records, lambda: export.pack(records, errors="coerce")),
        (records, lambda: export.pack(records, format="stockfish", errors="coerce")),
        (bitboards, lambda: export.from_bitboards(bitboards, errors="coerce")),
        (planes, lambda: export.from_planes(planes, errors="coerce")),
        (packed.data, lambda: export.unpack(packed, errors="coerce")),
        (stockfish, lambda: export.unpack(stockfish, format="stockfish", errors="coerce")),
    ]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for target, call in calls:
            with Flipper(target.reshape(-1).view(np.uint8), burst=16):
                result = call()
            got = result.count(b"\n") if isinstance(result, bytes) else len(result)
            assert got == rows


def test_buffer_changing_during_calls():
    _buffer_case(1.5)


def test_numpy_changing_during_calls():
    _numpy_case(1.0)


def test_arrow_changing_during_calls():
    _arrow_case(1.0)


def test_records_changing_during_calls():
    _records_case(1.0)


@pytest.mark.slow
def test_inputs_changing_during_calls_long():
    _buffer_case(10)
    _numpy_case(5)
    _arrow_case(5)
    _records_case(5)


def test_counted_lines_bound_the_rows():
    """The lines counted up front are the rows a job may write: more newlines
    found later (here written between the count and the run) give the error,
    not rows past the end."""
    from fastxfen import _bulk

    buf = _lines(3000)
    batch = _bulk.lines(buf, threads=1)
    assert batch.n == 3000
    kept = buf[10]
    buf[10] = 10  # one more line than counted
    with pytest.raises(ValueError, match=CHANGED):
        batch.validate(threads=1)
    with pytest.raises(ValueError, match=CHANGED):
        batch.encode(RecordOptions(), ErrorsMode.COERCE, threads=1)
    buf[10] = kept  # back to the count
    assert len(batch.validate(threads=1)) == 3000
    last = len(buf) // 2 + bytes(buf[len(buf) // 2 :]).index(b"\n")
    buf[last] = ord(" ")  # one newline fewer: two lines joined
    with pytest.raises(ValueError, match=CHANGED):
        batch.validate(threads=1)


def test_buffer_stays_exported_while_read():
    """A batch holds the buffer export of its bytearray from the
    count to the end of the run: resizing it meanwhile fails in the caller."""
    from fastxfen import _bulk

    buf = _lines(10)
    batch = _bulk.lines(buf, threads=1)
    with pytest.raises(BufferError):
        buf.extend(b"x")
    del batch
    buf.extend(b"x")


# ---------------------------------------------------------------- numpy U code points


def _beyond_unicode(column=3, code=0x110000):
    """A numpy U array whose row 1 holds `code` (no character has it) at
    `column`; numpy builds one from raw code points."""
    rows = np.array(FENS[:3], "<U80")
    codes = rows.view("<u4").reshape(3, 80).copy()
    codes[1, column] = code
    return codes.reshape(-1).view("<U80"), rows


@pytest.mark.parametrize("code", [0x110000, 0xFFFFFFFF])
def test_code_point_beyond_unicode_raises_fen_error(code):
    arr, _ = _beyond_unicode(3, code)
    reason = f"code point 0x{code:X} (not a character)"
    for call in (
        fx.normalize,
        fx.encode,
        export.to_planes,
        export.to_bitboards,
        export.pack,
        lambda a: fx.encode(a, width=10),
    ):
        with pytest.raises(fx.FenError) as info:
            call(arr)
        assert (info.value.index, info.value.column, info.value.field) == (1, 3, "placement")
        assert info.value.reason == f"unexpected {reason}"
    assert fx.validate(arr) == [None, f"column 3 (placement): unexpected {reason}", None]


def test_code_point_beyond_unicode_coerced_or_ignored():
    arr, rows = _beyond_unicode(60)  # in a field after the placement
    assert list(fx.normalize(arr, errors="coerce")) == [
        fx.normalize(str(rows[0])),
        "",
        fx.normalize(str(rows[2])),
    ]
    ignored = fx.normalize(arr, errors="ignore")
    assert ignored.dtype == arr.dtype
    assert ignored.view("<u4").tobytes() == arr.view("<u4").tobytes()[: ignored.nbytes]
    records = fx.encode(arr, errors="coerce")
    assert records["width"].tolist() == [8, 0, 8]
    assert export.to_bitboards(arr, errors="coerce")[1].tolist() == [0] * 12
    assert export.pack(arr, errors="coerce").valid.tolist() == [True, False, True]
    with pytest.raises(fx.FenError, match="row 1, column 60"):
        fx.normalize(arr)


def test_code_point_beyond_unicode_byte_swapped():
    arr, _ = _beyond_unicode()
    swapped = arr.astype(arr.dtype.newbyteorder(">"))
    with pytest.raises(fx.FenError, match="row 1, column 3 .*0x110000"):
        fx.encode(swapped)
