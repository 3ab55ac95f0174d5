"""Fuzz normalize / validate on one str row (and the list, object-array and
U-array paths with it).

Input: the bytes of one row; invalid UTF-8 becomes lone surrogates.
Properties: validate names exactly the column and field tests/models/semantics.py
names (None exactly when the row is valid); normalize raises exactly when
validate gives a message, with the same message; every output, in every
castling / en-passant mode, re-normalizes to itself; coerce gives None and
ignore the input for a rejected row; one row in, one row out on every path.
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

GOOD = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def TestOneInput(data: bytes) -> None:
    s = common.text_of(data)
    valid = common.check_str_row(s, common.two_modes(data))
    common.check_epd_row(s, common.two_modes(data)[:1])
    out = fx.normalize(s, errors="coerce")
    # the row behind a good one: index 1, same message
    rows = [GOOD, s]
    message = fx.validate(s)
    assert fx.validate(rows) == [None, message], s
    assert fx.normalize(rows, errors="coerce") == [GOOD, out], s
    if not valid:
        try:
            fx.normalize(rows)
        except fx.FenError as e:
            common.check_error(e, 1, s)
        else:
            raise AssertionError(("accepted", s))
    # numpy object and U arrays (numpy drops trailing NULs of U items)
    objs = np.array([s, None], dtype=object)[:1]
    assert fx.normalize(objs, errors="coerce").tolist() == [out], s
    if not s.endswith("\x00"):
        arr = np.array([s, GOOD, s])
        got = fx.normalize(arr, errors="coerce")
        assert got.shape == (3,) and got.dtype.kind == "U", s
        assert got.tolist() == [out or "", GOOD, out or ""], (s, got)
        got = fx.validate(arr)
        assert got[1] is None and got[0] == got[2], (s, got)
        assert got[0] == message, (s, got, message)
        ignored = fx.normalize(arr, errors="ignore")
        assert ignored.tolist() == [out or s, GOOD, out or s], (s, ignored)


def main():
    atheris.Setup(sys.argv, TestOneInput, internal_libfuzzer=True)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
