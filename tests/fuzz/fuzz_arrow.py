"""Fuzz normalize / validate / encode on Arrow string columns.

Input: byte 0 picks the column type (string, large_string, string_view,
chunked string), the error mode and the castling / en-passant mode; byte 1 an
offset and byte 2 a length to slice the column with; the rest is split on
'\\n' into rows, a row that is one NUL byte being null.  The column is built
from raw buffers, so its "strings" may be invalid UTF-8, as a column handed
over from C can be.
Properties: as many rows out as in, nulls stay null; every message names the
model's column and field for its row (byte offsets); normalize gives, per
row, what the str path gives; coerce nulls exactly the rejected rows; ignore
passes them through; raise names the first rejected row with validate's
message; encode gives the records the list path gives.
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

# Python coverage of the harness and the rule model only: the C core and the
# Cython glue report their own (native) coverage, and atheris's comparison
# tracing in fastxfen's Python dispatch code grows the fuzzer's memory by
# about 1 KB per execution.
with atheris.instrument_imports(include=["models", "common"]):
    import common

    import fastxfen as fx

HAS_VIEW = hasattr(pa, "string_view")


def build(rows, kind):
    """A string (or large_string) array from raw bytes, no UTF-8 check."""
    lengths = [0 if r is None else len(r) for r in rows]
    width = np.int64 if kind == pa.large_string() else np.int32
    offsets = np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)]).astype(width)
    data = b"".join(r for r in rows if r is not None)
    nulls = np.array([r is None for r in rows], bool)
    validity = None
    if nulls.any():
        validity = pa.py_buffer(np.packbits(~nulls, bitorder="little").tobytes())
    return pa.Array.from_buffers(
        kind,
        len(rows),
        [validity, pa.py_buffer(offsets.tobytes()), pa.py_buffer(data)],
        null_count=int(nulls.sum()),
    )


def TestOneInput(data: bytes) -> None:
    if len(data) < 3:
        return
    flags, off, cut = data[0], data[1], data[2]
    rows = [None if r == b"\0" else r for r in data[3:].split(b"\n")]
    kind_no = flags & 3
    errors = ("raise", "coerce", "ignore", "coerce")[(flags >> 2) & 3]
    castling, en_passant = common.MODES[(flags >> 4) % len(common.MODES)]
    arr = build(rows, pa.large_string() if kind_no == 1 else pa.string())
    off = off % (len(rows) + 1)
    length = max(0, len(rows) - off - cut % 4)
    arr = arr.slice(off, length)
    rows = rows[off : off + length]
    if kind_no == 2 and HAS_VIEW:
        arr = arr.cast(pa.string_view())
    elif kind_no == 3:
        k = cut % (len(rows) + 1)
        arr = pa.chunked_array([arr.slice(0, k), arr.slice(k)], arr.type)
    messages = fx.validate(arr)
    assert messages.type == arr.type  # Arrow in, Arrow out
    messages = messages.to_pylist()
    assert len(messages) == len(rows), (rows, messages)
    for row, message in zip(rows, messages):
        if row is None:
            assert message is None, (rows, message)
        else:
            common.check_validate_bytes_row(row, message)
    bad = [i for i, m in enumerate(messages) if m is not None]
    try:
        out = fx.normalize(arr, castling=castling, en_passant=en_passant, errors=errors)
    except fx.FenError as e:
        assert errors == "raise" and bad, (rows, e)
        assert e.index == bad[0], (rows, e.index, bad)
        assert f"{e.location}: {e.reason}" == messages[bad[0]], (rows, e)
        common.check_error(e, e.index, rows)
        return
    assert not (errors == "raise" and bad), (rows, messages)
    assert out.type == arr.type and len(out) == len(rows), (rows, out)
    got = common.binary_values(out)
    for row, g, m in zip(rows, got, messages):
        if row is None:
            assert g is None, (rows, got)
            continue
        want = common.expected_row_bytes(row, castling, en_passant, errors)
        if m is not None and errors == "ignore":
            want = row  # passed through unchanged, terminator included
        assert g == want, (rows, g, want)
    if len(rows) <= 4:
        width = 10 if flags & 0x40 else 8
        recs = fx.encode(arr, width=width, errors="coerce")
        ref = fx.encode(
            [common.row_as_str(r) if r is not None else "" for r in rows],
            width=width,
            errors="coerce",
        )
        assert recs.shape == (len(rows),), rows
        assert common.same_records(recs, ref), rows


def main():
    atheris.Setup(sys.argv, TestOneInput, internal_libfuzzer=True)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
