"""Fuzz encode (width 8 and 10) and decode of what it encodes.

Input: the bytes of one row; invalid UTF-8 becomes lone surrogates.
Properties: encode accepts exactly the rows validate accepts (width 8: and
only 8-wide ones, a 10-wide row being rejected at the placement); a rejected
row is the null record under coerce; decode(encode(x)) == normalize(x) in
every mode; normalized text encodes to the same record; the list, bytes
buffer and numpy S paths give the same records.
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


def TestOneInput(data: bytes) -> None:
    s = common.text_of(data)
    valid = fx.validate(s) is None
    assert valid == (common.model.locate(s) is None), s
    common.check_records(s, valid, common.two_modes(data))
    if b"\n" in data[:-1] or data.endswith(b"\0") or not data:
        return
    # bytes buffer and numpy S array of the same row: one byte per column
    for width in (8, 10):
        by_list = fx.encode([common.row_as_str(data)], width=width, errors="coerce")
        by_buffer = fx.encode(data, width=width, errors="coerce")
        by_array = fx.encode(np.array([data, data]), width=width, errors="coerce")
        assert common.same_records(by_list, by_buffer), data
        assert common.same_records(np.concatenate([by_list, by_list]), by_array), data


def main():
    atheris.Setup(sys.argv, TestOneInput, internal_libfuzzer=True)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
