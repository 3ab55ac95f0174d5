"""Fuzz the C pass over PGN text (fastxfen._pgn.scan) and fastxfen.pgn.

Input: byte 0 picks the scan's start state (bit 0: a comment is open, bit 1:
the line before is a tag line) and whether Variant tags are read (bit 2);
the rest is the text.
Properties: the scan equals the line-by-line model of docs/pgn.md
(tests/models/pgn.py); the text at the start of a bigger buffer,
given as a slice, scans the same (nothing is read past the slice);
normalize_pgn under errors="ignore" returns a text without FEN tags as it is,
and its output unchanged when run on it again.
"""

import os
import sys

# libFuzzer (inside atheris) must be loaded, and visible, before an extension
# built with -fsanitize-coverage=... (run_all.py --help) is imported: it
# registers its coverage counters with libFuzzer when it is loaded.
sys.setdlopenflags(sys.getdlopenflags() | os.RTLD_GLOBAL)
import atheris  # noqa: E402
import atheris.core_with_libfuzzer  # noqa: E402,F401

with atheris.instrument_imports(include=["models"]):
    import common  # noqa: F401  (the path to tests/models)
    from models import pgn as ref

    from fastxfen import _pgn, pgn

NAMES = sorted(name.encode() for name in pgn.STANDARD_VARIANTS)


def TestOneInput(data: bytes) -> None:
    flags, text = (data[0], data[1:]) if data else (0, b"")
    inside, after_tag = bool(flags & 1), bool(flags & 2)
    names = NAMES if flags & 4 else None
    want = ref.scan(text, names, inside, after_tag)
    got = ref.as_dict(_pgn.scan(text, names, inside=inside, after_tag=after_tag))
    assert got == want, (text, got, want)
    padded = text + b'"]\n{[FEN "x"]\n'
    sliced = ref.as_dict(
        _pgn.scan(memoryview(padded)[: len(text)], names, inside=inside, after_tag=after_tag)
    )
    assert sliced == want, (text, sliced)
    # Every byte but the FEN values (and the SetUp tags added) is kept.
    out = pgn.normalize_pgn(text, errors="ignore")
    body = text[3:] if text.startswith(b"\xef\xbb\xbf") else text
    if not ref.scan(body)["fen"]:
        assert out == text, text
    assert pgn.normalize_pgn(out, errors="ignore") == out, (text, out)


def main():
    atheris.Setup(sys.argv, TestOneInput, internal_libfuzzer=True)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
