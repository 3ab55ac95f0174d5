"""Fuzz decode on arbitrary record bytes.

Input: byte 0 picks the dtype (POSITION_DTYPE or POSITION_DTYPE_10x8) and the
castling / en-passant mode; byte 1 is a mask of the fields to bring into
range first (board codes, width, turn, prefix, en passant, castling files,
fullmove), so that both accepted records and each kind of rejection are
reached; the rest is np.frombuffer'ed as records (whole records only).
Properties: one answer per record; the null record (every byte 0) is None
under every errors mode; a rejected record is a FenError on a ``record.*``
field with a reason, and None under coerce; an accepted one is
text that normalizes to itself in the same mode (never garbage), encodes back
to a record that decodes to the same text, and an 8x8 record decodes as its
10x8 copy does; the bytes output holds the same lines (an empty one for a
rejected record).
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
    if len(data) < 2:
        return
    flags, mask = data[0], data[1]
    dtype = fx.POSITION_DTYPE_10x8 if flags & 1 else fx.POSITION_DTYPE
    castling, en_passant = common.MODES[(flags >> 1) % len(common.MODES)]
    body = data[2:]
    n = min(len(body) // dtype.itemsize, 6)
    recs = np.frombuffer(body[: n * dtype.itemsize], dtype).copy()
    common.tame(recs, mask)
    out = fx.decode(recs, castling=castling, en_passant=en_passant, errors="coerce")
    assert isinstance(out, list) and len(out) == n, (recs, out)
    lines = fx.decode(
        recs, castling=castling, en_passant=en_passant, errors="coerce", output="bytes"
    )
    assert lines == "".join((t or "") + "\n" for t in out).encode(), (recs, lines, out)
    null = [not recs[i].tobytes().strip(b"\0") for i in range(n)]
    for i, text in enumerate(out):
        single = recs[i]  # 0-d record: one answer
        if null[i]:  # the missing value: None under every errors mode
            assert text is None and fx.decode(single) is None, (recs[i], text)
            continue
        try:
            one = fx.decode(single, castling=castling, en_passant=en_passant)
        except fx.FenError as e:
            assert text is None, (recs[i], text)
            common.check_error(e, 0, recs[i])
            assert e.field in common.RECORD_FIELDS, e
            continue
        assert isinstance(one, str) and one == text, (recs[i], one, text)
        assert text.isascii(), text
        again = fx.normalize(text, castling=castling, en_passant=en_passant)
        assert again == text, (recs[i].tobytes(), text, again)
        width = int(recs[i]["width"])
        back = fx.encode(text, width=10 if dtype == fx.POSITION_DTYPE_10x8 else 8)
        assert fx.decode(back, castling=castling, en_passant=en_passant) == [text], text
        if dtype == fx.POSITION_DTYPE:
            wide = np.zeros(1, fx.POSITION_DTYPE_10x8)
            for name in dtype.names:
                if name == "board":
                    wide[0]["board"][:64] = recs[i]["board"]
                else:
                    wide[0][name] = recs[i][name]
            assert fx.decode(wide, castling=castling, en_passant=en_passant) == [text], text
        assert width in (8, 10)
    # raise: the first rejected record, by index
    bad = [i for i, t in enumerate(out) if t is None and not null[i]]
    try:
        fx.decode(recs, castling=castling, en_passant=en_passant)
    except fx.FenError as e:
        assert bad and e.index == bad[0], (bad, e)
    else:
        assert not bad, bad


def main():
    atheris.Setup(sys.argv, TestOneInput, internal_libfuzzer=True)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
