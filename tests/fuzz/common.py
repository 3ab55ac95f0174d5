"""Properties shared by the fuzz harnesses.

Each ``check_*`` function raises AssertionError (which atheris reports as a
finding, with the input saved) when fastxfen breaks a rule of
docs/semantics.md or docs/records.md for the input it is given.
"""

from __future__ import annotations

import os
import sys

# The harnesses run as scripts, without pytest and its conftest: this is their
# one path setup, so that they share the rule model of the test suite
# (tests/models/semantics.py).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from models import semantics as model  # noqa: E402
from models.semantics import MODES  # noqa: E402

import fastxfen as fx  # noqa: E402

FIELDS = {
    "placement",
    "side",
    "castling",
    "en_passant",
    "halfmove",
    "fullmove",
    "fields",
    "input",
    "operations",
}
RECORD_FIELDS = {
    "record." + f
    for f in ("board", "width", "turn", "prefix", "ep", "castling", "halfmove", "fullmove")
}


def text_of(data: bytes) -> str:
    """Fuzzer bytes as one str: UTF-8 where it is valid, lone surrogates
    (U+DC80..U+DCFF) for the bytes that are not."""
    return data.decode("utf-8", "surrogateescape")


def row_as_str(row: bytes) -> str:
    """A row of bytes as a str with one character per byte (columns agree)."""
    return row.decode("latin-1")


def check_message(message, where=""):
    assert isinstance(message, str) and message, (where, message)
    column, field = model.parse_message(message)
    assert field in FIELDS, (where, message)
    assert column >= 0, (where, message)
    return column, field


def check_error(e, index, where=""):
    assert isinstance(e, fx.FenError), (where, type(e))
    assert e.index == index, (where, e.index, index)
    assert isinstance(e.reason, str) and e.reason.strip(), (where, e.reason)
    assert e.field in FIELDS | RECORD_FIELDS, (where, e.field)
    assert isinstance(e.column, int) and e.column >= 0, (where, e.column)


def two_modes(data: bytes) -> list:
    """Two of the six castling / en-passant modes, chosen by the input, so
    every mode is exercised across inputs at a third of the cost."""
    k = sum(data[:8]) + len(data)
    return [MODES[k % 6], MODES[(k + 3) % 6]]


def check_str_row(s: str, modes=MODES) -> bool:
    """Every property of one str row.  Returns whether it is valid."""
    expected = model.locate(s)
    message = fx.validate(s)
    if expected is None:
        assert message is None, (s, message)
    else:
        assert message is not None, (s, expected)
        loc = check_message(message, s)
        assert loc == expected, (s, message, expected)
        assert loc[0] <= len(s), (s, message)
    # normalize agrees with validate, in every mode and error mode
    for castling, en_passant in modes:
        try:
            out = fx.normalize(s, castling=castling, en_passant=en_passant)
        except fx.FenError as e:
            check_error(e, 0, s)
            assert message == f"{e.location}: {e.reason}", (s, message, str(e))
            out = None
        else:
            assert message is None, (s, message)
            assert isinstance(out, str) and out.isascii(), (s, out)
            # the output is canonical: it reads back to itself
            again = fx.normalize(out, castling=castling, en_passant=en_passant)
            assert again == out, (s, out, again)
            assert fx.validate(out) is None, (s, out)
        assert fx.normalize(s, castling=castling, en_passant=en_passant, errors="coerce") == out, s
        ignored = fx.normalize(s, castling=castling, en_passant=en_passant, errors="ignore")
        assert ignored == (s if out is None else out), (s, ignored)
    return message is None


def check_records(s: str, valid: bool, modes=MODES) -> None:
    """encode/decode of one str row agree with normalize."""
    wide = valid and model.width_of(s) == 10
    for width in (8, 10):
        recs = fx.encode([s, s], width=width, errors="coerce")
        assert recs.shape == (2,) and recs.dtype == fx.record_dtype(width), s
        assert recs.tobytes()[: recs.itemsize] == recs.tobytes()[recs.itemsize :], s
        ok = valid and not (width == 8 and wide)
        if not ok:
            assert recs.tobytes() == bytes(2 * recs.itemsize), (s, width)
            try:
                fx.encode(s, width=width)
            except fx.FenError as e:
                check_error(e, 0, s)
                if valid:  # a 10-wide row for 8x8 records: the placement start
                    column = len(s) - len(s.lstrip(" \t"))
                    assert (e.column, e.field) == (column, "placement"), (s, str(e))
            else:
                raise AssertionError(("encode accepted", s, width))
            continue
        assert recs[0]["width"] == (10 if wide else 8), s
        for castling, en_passant in modes:
            text = fx.decode(recs[:1], castling=castling, en_passant=en_passant)[0]
            assert text == fx.normalize(s, castling=castling, en_passant=en_passant), (
                s,
                castling,
                en_passant,
                text,
            )
        # equal normalized text gives equal records
        again = fx.encode(fx.normalize(s, en_passant="fen"), width=width)
        assert again.tobytes() == recs[:1].tobytes(), s


def split_lines(buf: bytes) -> list:
    """The rows of a newline-separated buffer, terminators kept: a final
    newline ends the last row, it does not start another."""
    if not buf:
        return []
    rows = buf.split(b"\n")
    out = [r + b"\n" for r in rows[:-1]]
    if rows[-1]:
        out.append(rows[-1])
    return out


def terminator(row: bytes) -> bytes:
    if row.endswith(b"\r\n"):
        return b"\r\n"
    if row.endswith(b"\n"):
        return b"\n"
    return b""


def expected_row_bytes(row: bytes, castling, en_passant, errors):
    """What normalize should make of one row of bytes (terminator excluded),
    from the str path: None for a rejected row under coerce."""
    s = row_as_str(row)
    try:
        return fx.normalize(s, castling=castling, en_passant=en_passant).encode("ascii")
    except fx.FenError:
        if errors == "coerce":
            return None
        return row[: len(row) - len(terminator(row))]


def check_validate_bytes_row(row: bytes, message) -> None:
    """validate of a row of bytes names the column and field the model
    (and the str path) names for it."""
    s = row_as_str(row)
    expected = model.locate(s)
    if expected is None:
        assert message is None, (row, message)
    else:
        assert message is not None, (row, expected)
        assert check_message(message, row) == expected, (row, message, expected)
        assert fx.validate(s) is not None


def same_records(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def binary_values(arr) -> list:
    """The values of an Arrow string column as bytes (None for null), without
    the UTF-8 check to_pylist() makes."""
    import pyarrow as pa

    chunks = arr.chunks if isinstance(arr, pa.ChunkedArray) else [arr]
    out = []
    for chunk in chunks:
        if pa.types.is_large_string(chunk.type):
            view = chunk.view(pa.large_binary())
        elif pa.types.is_string(chunk.type):
            view = chunk.view(pa.binary())
        else:
            view = chunk.view(pa.binary_view())
        out.extend(view.to_pylist())
    return out


def check_epd_row(s: str, modes) -> bool:
    """epd=True: validate agrees with normalize and encode; the output reads
    back to itself; coerce and ignore as for FEN rows."""
    message = fx.validate(s, epd=True)
    if message is not None:
        check_message(message, s)
    for castling, en_passant in modes:
        try:
            out = fx.normalize(s, castling=castling, en_passant=en_passant, epd=True)
        except fx.FenError as e:
            check_error(e, 0, s)
            assert message == f"{e.location}: {e.reason}", (s, message, str(e))
            out = None
        else:
            assert message is None, (s, message)
            assert isinstance(out, str), (s, out)
            again = fx.normalize(out, castling=castling, en_passant=en_passant, epd=True)
            assert again == out, (s, out, again)
            assert fx.validate(out, epd=True) is None, (s, out)
        assert fx.normalize(
            [s], castling=castling, en_passant=en_passant, epd=True, errors="coerce"
        ) == [out], s
        ignored = fx.normalize(
            s, castling=castling, en_passant=en_passant, epd=True, errors="ignore"
        )
        assert ignored == (s if out is None else out), (s, ignored)
    recs = fx.encode([s], width=10, epd=True, errors="coerce")
    assert (recs[0]["width"] == 0) == (message is not None), (s, message)
    return message is None
