"""Nothing lost: a large batch with 1% garbage through every bulk path.

For every kind of input (list, bytes buffer, numpy U / S / object arrays,
Arrow string / large_string / chunked, and the command line with
``--errors coerce --rejects FILE``): as many rows come out as went in; the
rejected rows are exactly the garbage rows, each with the message
``validate`` gives for it; every other row is identical to normalizing it on
its own.

The batch has ROWS rows (1,000,000 by default; FASTXFEN_NOTHING_LOST_ROWS
sets another count), drawn from a few thousand distinct generated positions
(8x8 and 10x8, every castling and en-passant form) and ASCII garbage made by
breaking such rows in one place.
"""

import os
import random
import subprocess
import sys

import numpy as np
import pytest

import fastxfen as fx

# A million rows through every entry point: part of the slow set.
pytestmark = pytest.mark.slow

ROWS = int(os.environ.get("FASTXFEN_NOTHING_LOST_ROWS", "1000000"))
GARBAGE_RATE = 0.01
PIECES8 = "PNBRQKpnbrqk"
PIECES10 = PIECES8 + "ACac"


def _rank(rng, width, pieces, density):
    out, run = [], 0
    for _ in range(width):
        if rng.random() < density:
            if run:
                out.append(str(run))
            run = 0
            out.append(rng.choice(pieces))
        else:
            run += 1
    if run:
        out.append(str(run))
    return "".join(out)


def _position(rng):
    width = 10 if rng.random() < 0.15 else 8
    pieces = PIECES10 if width == 10 else PIECES8
    ranks = [_rank(rng, width, pieces, rng.choice([0.1, 0.3, 0.6])) for _ in range(8)]
    files = "ABCDEFGHIJ"[:width]
    if rng.random() < 0.3:  # a real back rank, so castling and en passant survive
        ranks[0] = "r3k2r" if width == 8 else "r4k3r"
        ranks[7] = ranks[0].upper()
        ranks[3] = "4pP2" if width == 8 else "4pP4"
        ranks[1] = "8" if width == 8 else "10"
        ranks[4] = "8" if width == 8 else "10"
    flags = rng.choice(
        [
            "-",
            "KQkq",
            "KQ",
            "k",
            "Qq",
            "".join(rng.sample(files, 2)),
            files[0] + files[-1].lower(),
            "s" + "KQkq",
            "m" + "Kq",
        ]
    )
    ep = rng.choice(["-", "-", "e6", "f6", "e3", files[rng.randrange(width)].lower() + "6"])
    side = rng.choice("wb")
    tail = rng.choice(
        [
            "",
            f" {rng.randrange(100)}",
            f" {rng.randrange(100)} {rng.randrange(1, 300)}",
            " 0 1",
            " 4294967295 4294967295",
            " 007 0",
        ]
    )
    return "/".join(reversed(ranks)) + f" {side} {flags} {ep}{tail}"


def _garbage(rng, row):
    kind = rng.randrange(6)
    if kind == 0:
        i = rng.randrange(len(row))
        return row[:i] + rng.choice("x#9~0/?%ZjJ!") + row[i + 1 :]
    if kind == 1:
        return row[: rng.randrange(len(row) - 12)]
    if kind == 2:
        return row + " extra field" if row.count(" ") >= 5 else row + " 1 1 x"
    if kind == 3:
        return row.replace("/", "//", 1)
    if kind == 4:
        return row.split(" ")[0] + " w KQkq - 99999999999 1"
    return rng.choice(["", " ", "\t", "not a fen", "8/8/8/8/8/8/8/8", "8/8/8/8/8/8/8/9 w - -"])


@pytest.fixture(scope="module")
def batch():
    rng = random.Random(1234)
    pool = []
    while len(pool) < 4000:
        row = _position(rng)
        if fx.validate(row) is None:
            pool.append(row)
    bad_pool = []
    while len(bad_pool) < 400:
        g = _garbage(rng, rng.choice(pool))
        if fx.validate(g) is not None:
            bad_pool.append(g)
    nprng = np.random.default_rng(99)
    is_bad = nprng.random(ROWS) < GARBAGE_RATE
    good_idx = nprng.integers(0, len(pool), ROWS)
    bad_idx = nprng.integers(0, len(bad_pool), ROWS)
    rows = [
        bad_pool[b] if x else pool[g]
        for x, g, b in zip(is_bad.tolist(), good_idx.tolist(), bad_idx.tolist())
    ]
    # the reference: each distinct row normalized and validated on its own
    norm = {r: fx.normalize(r) for r in pool}
    norm.update({g: None for g in bad_pool})
    msg = {r: None for r in pool}
    msg.update({g: fx.validate(g) for g in bad_pool})
    expected = [norm[r] for r in rows]
    messages = [msg[r] for r in rows]
    bad = np.flatnonzero(is_bad)
    assert len(bad) > ROWS * GARBAGE_RATE / 2
    return rows, expected, messages, bad


def _check(out, rows, expected, messages, bad, empty=None):
    """out: the normalized rows as a list, a rejected row being `empty`."""
    assert len(out) == len(rows)
    rejected = [i for i, o in enumerate(out) if o == empty]
    assert np.array_equal(np.asarray(rejected, dtype=np.int64), bad)
    assert all(messages[i] is not None for i in rejected)
    assert out == [empty if e is None else e for e in expected]


def test_list(batch):
    rows, expected, messages, bad = batch
    assert fx.validate(rows) == messages
    _check(fx.normalize(rows, errors="coerce"), rows, expected, messages, bad)
    ignored = fx.normalize(rows, errors="ignore")
    assert [ignored[i] for i in bad] == [rows[i] for i in bad]


def test_bytes_buffer(batch):
    rows, expected, messages, bad = batch
    ends = [b"\r\n" if i % 97 == 0 else b"\n" for i in range(len(rows))]
    data = b"".join(r.encode("ascii") + e for r, e in zip(rows, ends))
    assert fx.validate(data, threads=2) == messages
    out = fx.normalize(data, errors="coerce", threads=2)
    lines = out.split(b"\n")
    assert lines[-1] == b""
    lines = lines[:-1]
    assert len(lines) == len(rows)
    # each line keeps its own terminator
    assert all(line.endswith(b"\r") == (e == b"\r\n") for line, e in zip(lines, ends))
    text = [line.rstrip(b"\r").decode("ascii") for line in lines]
    _check(text, rows, expected, messages, bad, empty="")
    ignored = fx.normalize(data, errors="ignore")
    assert ignored == b"".join(
        (r if x is None else x).encode("ascii") + e for r, x, e in zip(rows, expected, ends)
    )


def test_numpy_u(batch):
    rows, expected, messages, bad = batch
    arr = np.array(rows)
    assert fx.validate(arr) == messages
    out = fx.normalize(arr, errors="coerce")
    assert out.dtype.kind == "U" and out.shape == arr.shape
    _check(out.tolist(), rows, expected, messages, bad, empty="")


def test_numpy_s(batch):
    rows, expected, messages, bad = batch
    arr = np.array([r.encode("ascii") for r in rows])
    assert fx.validate(arr, threads=2) == messages
    out = fx.normalize(arr, errors="coerce", threads=2)
    assert out.dtype.kind == "S" and out.shape == arr.shape
    _check([o.decode("ascii") for o in out.tolist()], rows, expected, messages, bad, empty="")


def test_numpy_object(batch):
    rows, expected, messages, bad = batch
    arr = np.array(rows, dtype=object)
    assert fx.validate(arr) == messages
    out = fx.normalize(arr, errors="coerce")
    assert out.dtype == object and out.shape == arr.shape
    _check(out.tolist(), rows, expected, messages, bad)


@pytest.mark.parametrize("kind", ["string", "large_string", "chunked"])
def test_arrow(batch, kind):
    pa = pytest.importorskip("pyarrow")
    rows, expected, messages, bad = batch
    if kind == "chunked":
        cuts = [0, 1, 65536, len(rows) // 2, len(rows) // 2, len(rows)]
        column = pa.chunked_array(
            [pa.array(rows[a:b], pa.string()) for a, b in zip(cuts, cuts[1:])]
        )
    else:
        column = pa.array(rows, getattr(pa, kind)())
    verdicts = fx.validate(column, threads=2)
    assert isinstance(verdicts, (pa.Array, pa.ChunkedArray))
    assert verdicts.to_pylist() == messages
    out = fx.normalize(column, errors="coerce", threads=2)
    assert out.type == column.type and len(out) == len(rows)
    _check(out.to_pylist(), rows, expected, messages, bad)


def test_cli(batch, tmp_path):
    try:
        import fastxfen.cli  # noqa: F401
    except ImportError:
        pytest.skip("no command line (fastxfen.cli) in this build")
    rows, expected, messages, bad = batch
    src = tmp_path / "in.fen"
    out = tmp_path / "out.fen"
    rejects = tmp_path / "rejects.tsv"
    src.write_bytes("".join(r + "\n" for r in rows).encode("ascii"))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "fastxfen",
            "normalize",
            str(src),
            "-o",
            str(out),
            "--errors",
            "coerce",
            "--rejects",
            str(rejects),
            "--chunk-size",
            "1M",
            "-q",
        ],
        capture_output=True,
        text=True,
        env=dict(os.environ),
    )
    assert proc.returncode == 1, proc.stderr
    lines = out.read_bytes().decode("ascii").split("\n")
    assert lines[-1] == ""
    _check(lines[:-1], rows, expected, messages, bad, empty="")
    records = rejects.read_text("ascii").splitlines()
    assert len(records) == len(bad)
    for line, i in zip(records, bad.tolist()):
        number, column, field, reason, original = line.split("\t", 4)
        assert int(number) == i + 1
        assert messages[i] == f"column {column} ({field}): {reason}"
        assert original == rows[i]
