"""``out=`` for callers that loop: normalize writes a buffer's text into a
bytearray and a numpy S/U array's rows into an array like it, encode its
records into a record array.  The result is the one without ``out``;
anything that does not fit is a ValueError before or instead of a write."""

import chess
import numpy as np
import pytest

import fastxfen as fx

CHUNK = 16384
ROWS = [
    "4k3/8/8/8/8/8/8/4K2R w K -",  # gains its two counters
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",  # loses its target
    "r3k2r/8/8/8/8/8/8/R3K2R  w  KQkq  -  007  0010",  # loses its spaces
    "not a position",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
]


def _rows(n):
    return [ROWS[i % len(ROWS)] for i in range(n)]


def _python_chess(row):
    try:
        return chess.Board(row, chess960=True).fen(en_passant="legal")
    except ValueError:
        return None


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("n", [1, 5, 3 * CHUNK + 7])
@pytest.mark.parametrize("errors", ["coerce", "ignore"])
def test_buffer_out_is_the_result(threads, n, errors):
    data = "\n".join(_rows(n)).encode() + b"\n"
    out = bytearray(b"old text")
    got = fx.normalize(data, errors=errors, threads=threads, out=out)
    assert got is out
    assert bytes(out) == fx.normalize(data, errors=errors, threads=threads)
    # again, into the same bytearray: its memory is reused, its text replaced
    fx.normalize(data[: len(data) // 2], errors=errors, threads=threads, out=out)
    assert bytes(out) == fx.normalize(data[: len(data) // 2], errors=errors, threads=threads)


def test_buffer_out_agrees_with_python_chess():
    rows = _rows(50)
    out = fx.normalize(
        "\n".join(rows).encode() + b"\n", en_passant="legal", errors="coerce", out=bytearray()
    )
    expected = [_python_chess(r) or "" for r in rows]
    assert out.decode().split("\n") == expected + [""]


@pytest.mark.parametrize("threads", [1, 2])
def test_buffer_out_cannot_be_resized_during_the_call(threads):
    """Another thread that grows or shrinks the bytearray while the call
    writes into it gets BufferError (its memory cannot move under the
    writing threads); the call's text is whole.  Threads switch often
    here, so a resize also lands between the end of the writing and the
    cut of the bytearray to the text, where the call holds no view."""
    import sys

    data = "\n".join(_rows(200_000)).encode() + b"\n"
    want = fx.normalize(data, errors="coerce", threads=threads)
    out = bytearray()
    refused = []
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)
    try:
        _resize_during_calls(data, want, threads, out, refused)
    finally:
        sys.setswitchinterval(interval)
    assert refused  # the other thread met the call at least once


def _resize_during_calls(data, want, threads, out, refused):
    """Five calls into `out`, each while another thread grows and shrinks it."""
    import threading

    for _ in range(5):
        running = threading.Event()
        running.set()

        def resize(running=running):
            while running.is_set():
                try:
                    out.extend(bytes(1 << 20))
                    del out[-(1 << 20) :]
                except BufferError:
                    refused.append(1)

        other = threading.Thread(target=resize)
        other.start()
        try:
            got = fx.normalize(data, errors="coerce", threads=threads, out=out)
        finally:
            running.clear()
            other.join()
        assert got is out and bytes(out) == want


def test_buffer_out_raise_leaves_a_valid_bytearray():
    out = bytearray()
    with pytest.raises(fx.FenError, match="row 3"):
        fx.normalize("\n".join(_rows(5)).encode(), out=out)
    fx.normalize(b"8/8/8/8/8/8/8/8 w - -\n", out=out)
    assert out == b"8/8/8/8/8/8/8/8 w - - 0 1\n"


@pytest.mark.parametrize(
    "out",
    [bytes(100), memoryview(bytearray(100)), np.zeros(100, np.uint8), [0] * 100],
    ids=["bytes", "memoryview", "ndarray", "list"],
)
def test_buffer_out_must_be_a_bytearray(out):
    with pytest.raises(ValueError, match="must be a bytearray"):
        fx.normalize(b"8/8/8/8/8/8/8/8 w - -\n", out=out)


def test_buffer_out_exported_or_the_input_is_refused():
    out = bytearray(100)
    view = memoryview(out)
    with pytest.raises(ValueError, match="exported"):
        fx.normalize(b"8/8/8/8/8/8/8/8 w - -\n", out=out)
    view.release()
    data = bytearray(b"8/8/8/8/8/8/8/8 w - -\n")
    with pytest.raises(ValueError, match="share memory"):
        fx.normalize(data, out=data)
    assert data == b"8/8/8/8/8/8/8/8 w - -\n"


@pytest.mark.parametrize("kind", ["S", "U"])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("n", [1, 5, 3 * CHUNK + 7])
@pytest.mark.parametrize("errors", ["coerce", "ignore"])
def test_numpy_out_is_the_result(kind, threads, n, errors):
    fens = np.array(_rows(n), kind).reshape(n, 1) if n > 1 else np.array(_rows(n), kind)
    expected = fx.normalize(fens, errors=errors, threads=threads)
    out = np.full(fens.shape, "x" * 80, f"{kind}80")  # wider than needed, not zero
    got = fx.normalize(fens, errors=errors, threads=threads, out=out)
    assert got is out
    assert (out == expected).all()
    assert out.dtype == np.dtype(f"{kind}80")


def test_numpy_out_of_exact_width():
    fens = np.array(_rows(5), "S")
    expected = fx.normalize(fens, errors="coerce")
    out = np.empty(5, expected.dtype)
    fx.normalize(fens, errors="coerce", out=out)
    assert (out == expected).all()


def test_numpy_out_agrees_with_python_chess():
    rows = _rows(40)
    out = np.empty(40, "U90")
    fx.normalize(np.array(rows), en_passant="legal", errors="coerce", out=out)
    assert list(out) == [_python_chess(r) or "" for r in rows]


def test_numpy_out_keeps_an_ignored_non_ascii_row():
    fens = np.array(["8/8/8/8/8/8/8/8 wé - -", ROWS[0]])
    out = np.empty(2, "U40")
    fx.normalize(fens, errors="ignore", out=out)
    assert list(out) == ["8/8/8/8/8/8/8/8 wé - -", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]


@pytest.mark.parametrize(
    ("out", "match"),
    [
        (np.empty(4, "S90"), "shape"),
        (np.empty((5, 1), "S90"), "shape"),
        (np.empty(5, "U90"), "S array"),
        (np.empty(5, np.uint8), "S array"),
        (bytearray(1000), "S array"),
        (np.empty(5, "S20"), "row 0: its text of 30 characters does not fit"),
        (np.empty(10, "S90")[::2], "C-contiguous"),
    ],
    ids=["short", "2-d", "kind", "dtype", "bytearray", "narrow", "strided"],
)
def test_numpy_out_that_does_not_fit_is_refused(out, match):
    fens = np.array(_rows(5), "S")
    with pytest.raises(ValueError, match=match):
        fx.normalize(fens, errors="coerce", out=out)


def test_numpy_out_readonly_or_the_input_is_refused():
    fens = np.array(_rows(5), "S90")
    out = np.empty(5, "S90")
    out.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        fx.normalize(fens, errors="coerce", out=out)
    with pytest.raises(ValueError, match="share memory"):
        fx.normalize(fens, errors="coerce", out=fens)


@pytest.mark.parametrize("fens", [ROWS[0], ROWS[:2], "pyarrow"], ids=["str", "list", "arrow"])
def test_out_is_refused_for_other_inputs(fens):
    if fens == "pyarrow":
        pa = pytest.importorskip("pyarrow")
        fens = pa.array(ROWS[:2])
    with pytest.raises(ValueError, match="out is taken for"):
        fx.normalize(fens, out=bytearray())


def _arrow_chunks():
    pa = pytest.importorskip("pyarrow")
    return pa.chunked_array([_rows(7), _rows(3)])


@pytest.mark.parametrize("width", [8, 10])
@pytest.mark.parametrize("kind", ["buffer", "S", "U", "list", "big list", "str", "arrow chunks"])
def test_encode_out_is_the_result(width, kind):
    rows = [r for r in _rows(3 * CHUNK + 7 if kind == "big list" else 10)]
    fens = {
        "buffer": "\n".join(rows).encode(),
        "S": np.array(rows, "S"),
        "U": np.array(rows),
        "list": rows,
        "big list": rows,
        "str": rows[0],
    }.get(kind)
    if kind == "arrow chunks":
        fens = _arrow_chunks()
    threads = 2 if kind == "big list" else None
    expected = fx.encode(fens, width=width, errors="coerce", threads=threads)
    out = np.ones(len(expected), fx.record_dtype(width))  # not zero
    got = fx.encode(fens, width=width, errors="coerce", threads=threads, out=out)
    assert got is out
    assert out.tobytes() == expected.tobytes()


def test_encode_out_agrees_with_python_chess():
    rows = _rows(10)
    out = np.empty(10, fx.POSITION_DTYPE)
    fx.encode("\n".join(rows).encode(), errors="coerce", out=out)
    texts = fx.decode(out, en_passant="legal")
    assert texts == [_python_chess(r) for r in rows]


@pytest.mark.parametrize(
    ("out", "match"),
    [
        (np.empty(9, fx.POSITION_DTYPE), r"shape \(10,\)"),
        (np.empty(10, fx.POSITION_DTYPE_10x8), "POSITION_DTYPE"),
        (np.empty((10, 1), fx.POSITION_DTYPE), r"shape \(10,\)"),
        (np.empty(20, fx.POSITION_DTYPE)[::2], "C-contiguous"),
        (bytearray(800), "numpy array"),
    ],
    ids=["short", "dtype", "2-d", "strided", "bytearray"],
)
@pytest.mark.parametrize("kind", ["buffer", "list"])
def test_encode_out_that_does_not_fit_is_refused(out, match, kind):
    rows = _rows(10)
    fens = "\n".join(rows).encode() if kind == "buffer" else rows
    if kind == "list" and isinstance(out, bytearray):
        match = "C-contiguous"
    with pytest.raises(ValueError, match=match):
        fx.encode(fens, errors="coerce", out=out)


def test_encode_out_readonly_is_refused():
    out = np.empty(10, fx.POSITION_DTYPE)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        fx.encode("\n".join(_rows(10)).encode(), errors="coerce", out=out)


def test_out_sharing_memory_with_a_buffer_input_is_refused():
    """encode reads a bytearray in place while it writes out=: a record
    array over the same memory is refused (as for a numpy input), and so is
    an export's out= over the records it reads."""
    from fastxfen import export

    line = b"8/8/8/8/8/8/8/K6k w - - 0 1\n"
    recs = fx.encode([line.decode().strip()] * 4)
    data = bytearray(line * (recs.itemsize * 4 // len(line) + 1))
    over = np.frombuffer(data, dtype=recs.dtype, count=4)
    with pytest.raises(ValueError, match="share memory"):
        fx.encode(data, out=over)
    assert data == line * (recs.itemsize * 4 // len(line) + 1)
    with pytest.raises(ValueError, match="share memory"):
        fx.encode(memoryview(data), out=over)
    boards = export.to_bitboards(recs)
    memory = np.zeros(4 * 12, np.uint64)  # records first, then room for out
    inside = memory.view(np.uint8)[: recs.nbytes].view(recs.dtype)
    inside[:] = recs
    with pytest.raises(ValueError, match="share memory"):
        export.to_bitboards(inside, out=memory.reshape(4, 12))
    assert np.array_equal(export.to_bitboards(inside), boards)
