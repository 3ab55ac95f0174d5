"""Fuzz the Arrow string paths with offsets buffers and validity bitmaps that
are part of the input, not only well-formed arrays.

Input: the column layout of ``common.Layout`` (byte 0: bit 0 large_string,
bits 2-3 the error mode of normalize, bit 4 a short offsets buffer, bit 5
whether good offsets go to validate and normalize or to encode and zobrist,
bit 6 after a well-formed chunk; then the offset, cut, rows, validity bits, bitmap
form, value lengths, offset edits and the data buffer).
Properties: with a bad offset or mask, normalize, validate, encode and
zobrist each raise a ValueError naming the first bad row of
docs/failures.md, counted over the whole chunked column (pyarrow refuses to
make some such arrays; the offsets reader is then checked on a stand-in
chunk); otherwise each gives, row by row, what the list path gives for the
same values (nulls stay missing).
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

HEAD = ["8/8/8/8/8/8/8/8 w - - 0 1", None]


def calls(errors):
    return {
        "validate": fx.validate,
        "normalize": lambda a: fx.normalize(a, errors=errors),
        "encode": lambda a: fx.encode(a, width=10, errors="coerce"),
        "zobrist": lambda a: fx.zobrist(a, errors="coerce"),
    }


def check_text(arr, rows, errors) -> None:
    """validate and normalize of good offsets: the str path per row."""
    # validate: one answer per row, at the rule model's place
    messages = fx.validate(arr)
    assert messages.type == arr.type  # Arrow in, Arrow out
    messages = messages.to_pylist()
    assert len(messages) == len(rows), (rows, messages)
    for row, message in zip(rows, messages):
        if row is None:
            assert message is None, (rows, message)
        else:
            common.check_validate_bytes_row(row, message)
    # normalize: the str path per row, nulls stay null
    bad_rows = [i for i, m in enumerate(messages) if m is not None]
    try:
        out = fx.normalize(arr, errors=errors)
    except fx.FenError as e:
        assert errors == "raise" and bad_rows and e.index == bad_rows[0], (rows, e)
        common.check_error(e, e.index, rows)
    else:
        assert not (errors == "raise" and bad_rows), (rows, messages)
        assert len(out) == len(rows), (rows, out)
        for row, got, m in zip(rows, common.binary_values(out), messages):
            if row is None:
                assert got is None, (rows, got)
                continue
            want = common.expected_row_bytes(row, "xfen", "xfen", errors)
            if m is not None and errors == "ignore":
                want = row
            assert got == want, (rows, got, want)


def check_records(arr, rows) -> None:
    """encode and zobrist of good offsets: equal to the list path (None is
    missing there too)."""
    texts = [None if r is None else common.row_as_str(r) for r in rows]
    recs = fx.encode(arr, width=10, errors="coerce")
    ref = fx.encode(texts, width=10, errors="coerce")
    assert common.same_records(recs, ref), rows
    keys = fx.zobrist(arr, errors="coerce")
    assert keys.dtype == np.uint64 and list(keys) == list(fx.zobrist(texts, errors="coerce"))


def TestOneInput(data: bytes) -> None:
    if len(data) < 6:
        return
    lay = common.Layout(data)
    large = bool(lay.flags & 1)
    errors = ("raise", "coerce", "ignore", "coerce")[(lay.flags >> 2) & 3]
    kind = pa.large_string() if large else pa.string()
    arr = lay.arrow(kind, np.int64 if large else np.int32)
    if arr is None:
        return
    bad = lay.first_bad()
    rows = None if bad is not None else lay.values()
    if lay.flags & 0x40:  # after a well-formed chunk: rows numbered over the column
        arr = pa.chunked_array([pa.array(HEAD, kind), arr], kind)
        bad = None if bad is None else bad + len(HEAD)
        rows = None if rows is None else [None if r is None else r.encode() for r in HEAD] + rows
    if bad is not None:
        for name, call in calls(errors).items():
            try:
                call(arr)
            except fx.FenError as e:
                raise AssertionError((name, "row error before the offsets", str(e))) from e
            except ValueError as e:
                assert common.row_of(e) == bad, (name, str(e), bad)
            else:
                raise AssertionError((name, "bad offsets accepted", lay.offsets))
        return
    if lay.flags & 0x20:
        check_records(arr, rows)
    else:
        check_text(arr, rows, errors)


def main():
    atheris.Setup(sys.argv, TestOneInput, internal_libfuzzer=True)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
