"""Properties shared by the fuzz harnesses.

Each ``check_*`` function raises AssertionError (which atheris reports as a
finding, with the input saved) when fastxfen breaks a rule of
docs/semantics.md or docs/records.md for the input it is given.
"""

from __future__ import annotations

import os
import re
import sys

# The harnesses run as scripts, without pytest and its conftest: this is their
# one path setup, so that they share the rule model of the test suite
# (tests/models/semantics.py).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from models import semantics as model  # noqa: E402
from models.semantics import MODES  # noqa: E402

import fastxfen as fx  # noqa: E402
from fastxfen._columns import arrow_offsets  # noqa: E402
from fastxfen._export import check_spans  # noqa: E402

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


def tame(recs, mask):
    """Bring the fields chosen by mask into their valid ranges, using the
    bytes as they are as the source of choice."""
    wide = recs.dtype == fx.POSITION_DTYPE_10x8
    if mask & 2:
        recs["width"] = np.where((recs["width"] & 1).astype(bool) & wide, 10, 8)
    w = recs["width"].astype(np.int64)
    if mask & 1:
        board = recs["board"]
        limit = np.where(w == 10, 17, 13)[:, None]
        codes = board % limit
        # squares past 8 * width are 0
        squares = np.arange(board.shape[1])[None, :]
        codes = np.where(squares < np.where(w == 10, 80, 64)[:, None], codes, 0)
        # mostly empty squares, as on real boards
        codes = np.where(board & 0x40, 0, codes)
        recs["board"] = codes
    if mask & 4:
        recs["turn"] &= 1
    if mask & 8:
        recs["prefix"] %= 3
    if mask & 16:
        ep = recs["ep"].astype(np.int64)
        recs["ep"] = np.where(ep & 0x80, 255, ep % np.maximum(8 * w, 1))
    if mask & 32:
        c = recs["castling"].astype(np.int64)
        recs["castling"] = np.where(c & 0x80, 255, c % np.maximum(w, 1)[:, None])
    if mask & 64:
        recs["fullmove"] = np.maximum(recs["fullmove"], 1)


# ------------------------------------------- columns with fuzzed offsets and masks

ROW = re.compile(r"^row (\d+): ")


def row_of(e: Exception) -> int:
    """The row a column-level ValueError names ("row R: ...")."""
    m = ROW.match(str(e))
    assert m, ("no row named", str(e))
    return int(m.group(1))


class Layout:
    """A column read from fuzzer bytes: byte 0 flags (the harness's), byte 1
    an array offset, byte 2 a cut of the length (and of the offsets buffer),
    byte 3 the number of rows (0-8), byte 4 the validity bits, byte 5 the
    validity bitmap's form (bit 0: present; bit 1: shortened to
    ``(byte >> 2) % 3`` bytes); then one length byte per row; a count of
    offset edits and (row, signed delta) pairs (delta -128 sets the offset
    to 2**31 - 1); the rest is the data buffer."""

    def __init__(self, data: bytes):
        self.flags, first, cut, n, bits, self.mask_form = data[:6]
        lengths = list(data[6 : 6 + n % 9])
        self.n = n = len(lengths)
        offsets = np.concatenate([[0], np.cumsum(lengths, dtype=np.int64)])
        at = 6 + n
        edits = data[at] % 4 if at < len(data) else 0
        at += 1
        for _ in range(edits):
            if at + 1 >= len(data):
                break
            row, delta = data[at] % (n + 1), data[at + 1] - 256 * (data[at + 1] > 127)
            offsets[row] = 2**31 - 1 if delta == -128 else offsets[row] + delta
            at += 2
        self.offsets = [int(o) for o in np.clip(offsets, -(2**31), 2**31 - 1)]
        self.body = data[at:]
        self.valid = [bool(bits >> i & 1) for i in range(n)]
        self.first = first % (n + 1)
        self.length = max(0, n - self.first - cut % 4)
        self.held = n + 1  # offsets in the offsets buffer
        if self.flags & 0x10:
            self.held = max(0, n - (cut >> 2) % 3)
        self.has_mask = bool(self.mask_form & 1)
        packed = np.packbits(np.array(self.valid, bool), bitorder="little").tobytes()
        if self.mask_form & 2:
            packed = packed[: (self.mask_form >> 2) % 3]
        self.bitmap = packed if self.has_mask else None

    def first_bad(self, nbits=None, held=None):
        """The first bad row of the slice (numbered in it) as
        docs/failures.md orders the checks: the bitmap's length, the offsets
        buffer's, then every row's span; None if there is none."""
        first, end = self.first, self.first + self.length
        if nbits is not None and self.length and nbits < end:
            return max(0, nbits - first)
        if held is not None and self.length and held < end + 1:
            return max(0, held - 1 - first)
        for i in range(first, end):
            if not 0 <= self.offsets[i] <= self.offsets[i + 1] <= len(self.body):
                return i - first
        return None

    def values(self) -> list:
        """The slice's values (None for a null), once its offsets are good."""
        return [
            self.body[self.offsets[i] : self.offsets[i + 1]]
            if self.bitmap is None or self.valid[i]
            else None
            for i in range(self.first, self.first + self.length)
        ]

    def arrow(self, kind, width):
        """The pyarrow array of this layout, or None where pyarrow refuses
        to make it (short buffers, end offsets outside the data); then the
        offsets reader is checked on a stand-in chunk, as a column from the
        C data interface could hand such buffers over."""
        import pyarrow as pa

        offsets = np.array(self.offsets[: self.held], width).tobytes()
        validity = None if self.bitmap is None else pa.py_buffer(self.bitmap)
        nbits = None if self.bitmap is None else 8 * len(self.bitmap)
        buffers = [validity, pa.py_buffer(offsets), pa.py_buffer(self.body)]
        first, end = self.first, self.first + self.length
        nulls = 0
        if self.bitmap is not None:
            nulls = sum(not v for v in self.valid[first:end]) if nbits >= end else -1
        try:
            return pa.Array.from_buffers(kind, self.length, buffers, null_count=nulls, offset=first)
        except (pa.ArrowInvalid, ValueError):
            pass
        bad = self.first_bad(nbits, self.held)
        chunk = StandIn(buffers, first, self.length)
        try:
            offs = arrow_offsets(chunk, width, 5)
        except ValueError as e:
            assert bad is not None and row_of(e) == 5 + bad, (self.offsets, str(e), bad)
            return None
        assert len(offs) == self.length + 1, (offs, self.length)
        if self.length:
            assert list(offs) == self.offsets[first : end + 1], (offs, self.offsets)
            offs = offs.astype(np.int64)
            try:
                check_spans(np.frombuffer(self.body, np.uint8), offs[:-1], offs[1:], None, 5)
            except ValueError as e:
                assert bad is not None and row_of(e) == 5 + bad, (str(e), bad)
            else:
                assert bad is None, (self.offsets, bad)
        return None


class StandIn:
    """An Arrow chunk whose buffers may be shorter than its length says."""

    def __init__(self, buffers, offset, length):
        self._buffers, self.offset, self._length = buffers, offset, length

    def buffers(self):
        return self._buffers

    def __len__(self):
        return self._length
