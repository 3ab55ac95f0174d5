"""Fuzz normalize / validate on a newline-separated bytes buffer (and the
numpy S array of the same rows).

Input: the buffer itself.
Properties: one message per row; each message names the column and field the
rule model names for that row; normalize's output, row by row, is what the str
path gives for the row (each line keeping its own terminator), an empty line
for a coerced row and the row itself for an ignored one; raise stops at the
first rejected row with validate's message; threads=2 gives the same bytes.
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

# Python coverage of the harness and the rule model only: the C core and the
# Cython glue report their own (native) coverage, and atheris's comparison
# tracing in fastxfen's Python dispatch code grows the fuzzer's memory by
# about 1 KB per execution.
with atheris.instrument_imports(include=["models", "common"]):
    import common

    import fastxfen as fx


def expected(rows, castling, en_passant, errors):
    out = []
    for k, row in enumerate(rows):
        text = common.expected_row_bytes(row, castling, en_passant, errors)
        end = common.terminator(row)
        if text is None and not end and k == len(rows) - 1:
            end = b"\n"  # a coerced last line without a line end gets one
        out.append((text or b"") + end)
    return b"".join(out)


def TestOneInput(data: bytes) -> None:
    rows = common.split_lines(data)
    messages = fx.validate(data)
    assert len(messages) == len(rows), (data, messages)
    for row, message in zip(rows, messages):
        common.check_validate_bytes_row(row, message)
    # epd=True: one answer per row, the str path's answer for each
    epd_messages = fx.validate(data, epd=True)
    assert len(epd_messages) == len(rows), (data, epd_messages)
    for row, message in zip(rows, epd_messages):
        want = fx.validate(common.row_as_str(row), epd=True)  # one char per byte
        assert (message is None) == (want is None), (row, message, want)
        if message is not None:
            assert common.model.parse_message(message) == common.model.parse_message(want), (
                row,
                message,
                want,
            )
    castling, en_passant = common.MODES[len(data) % len(common.MODES)]
    threads = 2 if (data[:1] or b"\0")[0] & 7 == 0 else None
    for errors in ("coerce", "ignore"):
        out = fx.normalize(
            data, castling=castling, en_passant=en_passant, errors=errors, threads=threads
        )
        assert isinstance(out, bytes), type(out)
        assert out == expected(rows, castling, en_passant, errors), (data, errors, out)
        # as many rows out as in, whatever the last row is
        assert len(fx.validate(out)) == len(rows), (data, errors, out)
    bad = [i for i, m in enumerate(messages) if m is not None]
    try:
        out = fx.normalize(bytearray(data), castling=castling, en_passant=en_passant)
    except fx.FenError as e:
        assert bad and e.index == bad[0], (data, e)
        common.check_error(e, bad[0], data)
        assert f"{e.location}: {e.reason}" == messages[bad[0]], (data, e)
    else:
        assert not bad, (data, messages)
        assert out == expected(rows, castling, en_passant, "raise"), data
    if threads:
        assert fx.validate(memoryview(data), threads=3) == messages, data
    # the same rows as a numpy S array (numpy drops trailing NUL bytes)
    if rows and not any(r.endswith(b"\0") for r in rows):
        arr = np.array(rows, dtype=f"S{max(map(len, rows)) or 1}")
        assert fx.validate(arr) == messages, (data, rows)
        got = fx.normalize(arr, castling=castling, en_passant=en_passant, errors="coerce")
        want = [common.expected_row_bytes(r, castling, en_passant, "coerce") or b"" for r in rows]
        assert got.shape == arr.shape and got.tolist() == want, (data, got, want)
        got = fx.normalize(arr, castling=castling, en_passant=en_passant, errors="ignore")
        for row, g, m in zip(rows, got.tolist(), messages):
            if m is None:
                continue
            assert g == row.rstrip(b"\0"), (data, row, g)  # numpy drops trailing NULs


def main():
    atheris.Setup(sys.argv, TestOneInput, internal_libfuzzer=True)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
