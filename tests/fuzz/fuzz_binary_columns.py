"""Fuzz unpack of binary columns whose offsets and validity masks are part of
the input: BinaryColumn (made with them, or with them reassigned), a
``(data, offsets)`` pair, pyarrow binary / large_binary arrays built from raw
buffers (sliced, possibly chunked), and unpack(format="stockfish").

Input: byte 0 picks the container, the error mode and the mangling; byte 1
an array offset, byte 2 a cut of the length; byte 3 the number of rows n
(0-8); byte 4 the validity bits; byte 5 the validity bitmap's length
(shortened or dropped); n bytes of value lengths; a count of offset edits
and (row, delta) pairs; the rest is the data buffer.  So offsets may
decrease, go negative, point past the data or stop short, and masks may be
short, while most inputs near a seed still hold well-formed lichess values.
Properties: a column whose offsets or mask are bad is a ValueError naming
the first bad row of docs/failures.md (or, for a BinaryColumn mask of the
wrong length, saying so); otherwise one record per row, a null row is the
null record, a value gives the record it gives alone (FenError on field
``lichess`` / ``stockfish`` naming its row under raise, the null record
under coerce), accepted records decode to text that normalizes to itself,
and they pack back to values that unpack to the same records.
"""

import os
import sys

# libFuzzer (inside atheris) must be loaded, and visible, before an extension
# built with -fsanitize-coverage=... (run_all.py --help) is imported: it
# registers its coverage counters with libFuzzer when it is loaded.
sys.setdlopenflags(sys.getdlopenflags() | os.RTLD_GLOBAL)
import atheris  # noqa: E402
import atheris.core_with_libfuzzer  # noqa: E402,F401
import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402

with atheris.instrument_imports(include=["models", "common"]):
    import common

    import fastxfen as fx

STOCKFISH = 24
REFUSED = object()  # a value refused alone
PACKED_FIELDS = {"lichess", "stockfish"} | common.RECORD_FIELDS


def one_by_one(vals, fmt):
    """The record each value gives alone (None where it is refused)."""
    out = []
    for v in vals:
        if v is None:
            out.append(None)
            continue
        try:
            rec = fx.unpack([v], format=fmt)
        except fx.FenError as e:
            assert e.index == 0 and e.column >= 0 and e.reason.strip(), (v, e)
            assert e.field in PACKED_FIELDS, (v, e)
            out.append(REFUSED)
        else:
            assert rec.shape == (1,) and rec.dtype == fx.POSITION_DTYPE, rec
            out.append(rec[0])
    return out


def check_records(recs, singles, fmt, vals):
    assert recs.dtype == fx.POSITION_DTYPE and recs.shape == (len(singles),), (recs, vals)
    null = bytes(fx.POSITION_DTYPE.itemsize)
    for i, single in enumerate(singles):
        got = recs[i : i + 1].tobytes()
        if single is None or single is REFUSED:
            assert got == null, (i, vals[i], got)
        else:
            assert got == single.tobytes(), (i, vals[i])
    accepted = recs[[s is not None and s is not REFUSED for s in singles]]
    if len(accepted):
        texts = fx.decode(accepted)
        for text in texts:
            assert fx.normalize(text) == text, text
        if fmt == "lichess":
            again = fx.unpack(fx.pack(accepted))
        else:
            again = fx.unpack(
                fx.pack(accepted, format="stockfish"),
                format="stockfish",
                halfmove=accepted["halfmove"],
                fullmove=accepted["fullmove"],
            )
        assert again.tobytes() == accepted.tobytes(), (vals, texts)


def unpack_checked(make, vals, first_bad, errors, fmt, mask_error=False):
    """unpack(make()) against the model: the first bad row, or per row what
    each value gives alone."""
    try:
        recs = fx.unpack(make(), format=fmt, errors=errors)
    except fx.FenError as e:
        assert first_bad is None, (vals, e)
        singles = one_by_one(vals, fmt)
        refused = [i for i, s in enumerate(singles) if s is REFUSED]
        assert errors == "raise" and refused and e.index == refused[0], (vals, e, refused)
        assert e.field in PACKED_FIELDS, e
        return
    except ValueError as e:
        if mask_error and "one entry per value" in str(e):
            return
        assert first_bad is not None, (vals, e)
        assert common.row_of(e) == first_bad, (str(e), first_bad)
        return
    assert first_bad is None and not mask_error, (vals, first_bad)
    singles = one_by_one(vals, fmt)
    assert errors == "coerce" or all(s is not REFUSED for s in singles), vals
    check_records(recs, singles, fmt, vals)


def binary_column(lay: common.Layout, errors: str) -> None:
    lay.first, lay.length = 0, lay.n  # the whole column
    n = lay.n
    valid = np.array(lay.valid, bool) if lay.has_mask else None
    short = bool(valid is not None and lay.mask_form & 2 and n)
    if short:
        valid = valid[: (lay.mask_form >> 2) % n]
    bad = lay.first_bad()
    vals = lay.values()
    data = np.frombuffer(lay.body, np.uint8)
    offsets = np.array(lay.offsets, np.int64)
    if lay.flags & 0x20:  # made well-formed, then offsets and mask reassigned
        col = fx.BinaryColumn(np.zeros(0, np.uint8), np.zeros(n + 1, np.int64))
        col.data = data
        strided = np.zeros(2 * (n + 1), np.int64)
        strided[::2] = offsets  # a non-contiguous view
        col.offsets = strided[::2]
        col.valid = valid
        unpack_checked(lambda: col, vals, bad, errors, "lichess", short)
        return
    try:
        col = fx.BinaryColumn(data, offsets, valid)
    except ValueError as e:
        if short and "one entry per value" in str(e):
            return
        assert bad is not None, (vals, e)
        assert common.row_of(e) == bad, (str(e), bad)
        return
    assert bad is None and not short, (vals, bad)
    unpack_checked(lambda: col, vals, None, errors, "lichess")
    if valid is None:  # the (data, offsets) pair reads the same
        width = np.int32 if lay.flags & 0x40 else np.int64
        pair = (lay.body, offsets.astype(width))
        unpack_checked(lambda: pair, vals, None, errors, "lichess")


def arrow_column(lay: common.Layout, errors: str, large: bool, fmt: str) -> None:
    kind = pa.large_binary() if large else pa.binary()
    arr = lay.arrow(kind, np.int64 if large else np.int32)
    if arr is None:
        return
    bad = lay.first_bad()
    vals = lay.values()
    if fmt == "stockfish":
        stockfish_arrow(arr, vals, bad, errors)
        return
    if lay.flags & 0x40:  # after a well-formed chunk: rows numbered over the column
        head = fx.pack(["8/8/8/8/8/8/8/8 w - - 0 1", None], errors="coerce").to_arrow(large)
        arr = pa.chunked_array([head, arr], kind)
        vals = [head[0].as_py(), None] + vals
        bad = None if bad is None else bad + 2
    unpack_checked(lambda: arr, vals, bad, errors, fmt)


def stockfish_arrow(arr, vals, bad, errors):
    """unpack(format="stockfish") of a binary array: no nulls, then the
    offsets, then 24-byte values, then the rows."""
    try:
        recs = fx.unpack(arr, format="stockfish", errors=errors)
    except fx.FenError as e:
        assert errors == "raise" and bad is None and None not in vals, (vals, e)
        assert e.field in PACKED_FIELDS, e
        refused = [i for i, s in enumerate(one_by_one(vals, "stockfish")) if s is REFUSED]
        assert refused and e.index == refused[0], (vals, e, refused)
        return
    except ValueError as e:
        if None in vals:
            assert "no null value" in str(e), e
        elif bad is not None:
            assert common.row_of(e) == bad, (str(e), bad)
        else:
            assert "24 bytes each" in str(e), e
            assert any(len(v) != STOCKFISH for v in vals), vals
        return
    assert None not in vals and bad is None, vals
    assert all(len(v) == STOCKFISH for v in vals), vals
    check_records(recs, one_by_one(vals, "stockfish"), "stockfish", vals)


def stockfish_rows(lay: common.Layout, errors: str) -> None:
    body = lay.body[: len(lay.body) // STOCKFISH * STOCKFISH][: 6 * STOCKFISH]
    rows = np.frombuffer(body, np.uint8).reshape(-1, STOCKFISH)
    vals = [r.tobytes() for r in rows]
    unpack_checked(lambda: rows, vals, None, errors, "stockfish")
    recs = fx.unpack(rows, format="stockfish", errors="coerce")
    for same in (body, vals, rows.copy().view(f"S{STOCKFISH}").reshape(-1)):
        again = fx.unpack(same, format="stockfish", errors="coerce")
        assert again.tobytes() == recs.tobytes(), (vals, type(same))
    arr = pa.array(vals, pa.binary(STOCKFISH))
    assert fx.unpack(arr, format="stockfish", errors="coerce").tobytes() == recs.tobytes()


def TestOneInput(data: bytes) -> None:
    if len(data) < 6:
        return
    lay = common.Layout(data)
    errors = "coerce" if lay.flags & 4 else "raise"
    kind = lay.flags & 3
    if kind == 0:
        binary_column(lay, errors)
    elif kind in (1, 2):
        arrow_column(lay, errors, kind == 2, "stockfish" if lay.flags & 8 else "lichess")
    else:
        stockfish_rows(lay, errors)


def main():
    atheris.Setup(sys.argv, TestOneInput, internal_libfuzzer=True)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
