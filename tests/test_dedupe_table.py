"""The table behind Deduper (core/dedupe.c) against a Python set: random
boards of both widths, every piece code, sets large enough to grow the
index many times within one call and between calls, forced hash
collisions, and the command line's trusted records read in place."""

import numpy as np
import pytest
from numpy.lib.recfunctions import repack_fields

import fastxfen as fx
from fastxfen import _keys
from fastxfen._options import ErrorsMode, KeyOptions

WIDE = fx.POSITION_DTYPE_10x8


def random_records(seed, rows, distinct):
    """``rows`` 10x8-layout records drawn from ``distinct`` random
    positions, half 8-wide (any of the 13 codes) and half 10-wide (any of
    17), either side to move, their counters from a few values.  The
    positions are a few random boards with two squares changed each, so
    that many differ in one square alone; position k of one width has the
    same first 64 board bytes as position k of the other where the codes
    allow, so only the width tells them apart."""
    rng = np.random.default_rng(seed)
    bases = rng.integers(0, 17, (64, 80)) * (rng.random((64, 80)) < 0.4)
    codes = bases[np.arange(distinct) // 2 % len(bases)]
    for _ in range(2):
        codes[np.arange(distinct), rng.integers(0, 80, distinct)] = rng.integers(0, 17, distinct)
    narrow = np.arange(distinct) % 2 == 0
    codes[narrow] %= 13
    codes[narrow, 64:] = 0
    pool = np.zeros(distinct, WIDE)
    pool["board"] = codes
    pool["width"] = np.where(narrow, 8, 10)
    pool["turn"] = rng.integers(0, 2, distinct)
    pool["ep"] = 255
    pool["castling"] = 255
    recs = pool[rng.integers(0, distinct, rows)]
    recs["halfmove"] = rng.integers(0, 3, rows)
    recs["fullmove"] = rng.integers(1, 3, rows)
    return recs


def expected(recs, counters):
    """First occurrences by the record's bytes (counters dropped unless
    they count): valid, canonical records are equal positions exactly when
    these are equal."""
    fields = ["board", "width", "turn"] + (["halfmove", "fullmove"] if counters else [])
    raw = repack_fields(recs[fields]).view(np.uint8).reshape(len(recs), -1)
    seen, first = set(), np.zeros(len(recs), bool)
    for i, row in enumerate(raw):
        key = row.tobytes()
        if key not in seen:
            seen.add(key)
            first[i] = True
    return first


def added(table, recs, sizes, trusted=False):
    """The masks of ``recs`` added to ``table`` in chunks of the given sizes
    (taken in turn), joined."""
    masks, at, k = [], 0, 0
    while at < len(recs):
        part = recs[at : at + sizes[k % len(sizes)]]
        masks.append(table.add(part, trusted=trusted, errors=ErrorsMode.RAISE))
        at, k = at + len(part), k + 1
    return np.concatenate(masks)


@pytest.mark.parametrize("counters", [False, True])
def test_growing_sets_against_a_set(counters):
    recs = random_records(1, 240_000, 90_000)
    want = expected(recs, counters)
    keys = KeyOptions(counters, "xfen")
    for sizes in ([len(recs)], [1, 5_000, 70_000, 333]):
        table = _keys.Table(keys)
        assert (added(table, recs, sizes) == want).all()
        assert table.count == int(want.sum())
        # the records the command line hands over: read where they are
        trusted = _keys.Table(keys)
        assert (added(trusted, recs, sizes, trusted=True) == want).all()
    # 8x8 records hold the 8-wide positions alone
    narrow = recs[recs["width"] == 8]
    eight = np.zeros(len(narrow), fx.POSITION_DTYPE)
    for name in fx.POSITION_DTYPE.names:
        eight[name] = narrow[name][:, :64] if name == "board" else narrow[name]
    assert (fx.Deduper(counters=counters).add(eight) == expected(narrow, counters)).all()


@pytest.mark.parametrize(
    "mask",
    [
        0,  # one home group, one tag: every position a candidate of every other
        0xFF << 56,  # one home group, tags apart
        (1 << 56) - 1,  # groups apart, one tag
        0x0F00_0000_0000_000F,  # a few groups and tags
    ],
)
def test_forced_collisions_against_a_set(mask):
    recs = random_records(2, 6_000, 2_500)
    for counters in (False, True):
        table = _keys.Table(KeyOptions(counters, "xfen"), key_mask=mask)
        assert (added(table, recs, [1_000, 7]) == expected(recs, counters)).all()
