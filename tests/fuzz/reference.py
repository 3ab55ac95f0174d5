"""A slow, plain-Python reading of docs/semantics.md: which rows are rejected,
and at which column and field.  The fuzz harnesses compare fastxfen's
``validate`` with it on every input, so a row the C reader accepts but the
contract rejects (or the other way round), or an error reported at another
place, is a finding.

It is written from the page, not from the C code: ranks are read one at a
time with an explicit width, and every rule is checked where the page says the
error is reported.  Only the decision and the location are modelled; the
reason text is not.
"""

from __future__ import annotations

from typing import Optional, Tuple

MAX_COUNTER = 4294967295
BLANK = " \t"
PIECES = set("PNBRQKpnbrqk")
WIDE_PIECES = set("ACac")

Location = Optional[Tuple[int, str]]  # None for a valid row, else (column, field)


def strip_terminator(row: str) -> str:
    """A row may end with one '\\n' or '\\r\\n', which is not part of it."""
    if row.endswith("\n"):
        row = row[:-1]
        if row.endswith("\r"):
            row = row[:-1]
    return row


def ascii_only(row: str) -> str:
    """Any non-ASCII character is an error at its column; '?' (never valid
    anywhere) stands in for it, one character for one character."""
    return "".join(c if c < "\x80" else "?" for c in row)


class _Reject(Exception):
    def __init__(self, column: int, field: str) -> None:
        self.location = (column, field)


def _placement(s: str, i: int, end: int) -> Tuple[int, int]:
    """Read the placement from s[i]; return (index past it, width)."""
    ranks_done = 0
    width = 0  # unknown until rank 8 is closed
    count = 0  # squares of the current rank
    prev_number = False  # the previous character was (the end of) a number
    prev_one = False  # ... and it was a lone '1' (so a '0' makes it ten)
    first_wide = -1  # column of the first A/C of rank 8

    def limit() -> int:
        return width if width else 10

    def close(col: int) -> None:
        nonlocal width
        if ranks_done == 0:
            if count not in (8, 10):
                raise _Reject(col, "placement")
            width = count
            if width == 8 and first_wide >= 0:
                raise _Reject(first_wide, "placement")
        elif count != width:
            raise _Reject(col, "placement")

    while i < end and s[i] not in BLANK:
        c = s[i]
        if c in PIECES or c in WIDE_PIECES:
            if count + 1 > limit():
                raise _Reject(i, "placement")
            if c in WIDE_PIECES:
                if width == 8:
                    raise _Reject(i, "placement")
                if first_wide < 0:
                    first_wide = i
            count += 1
            prev_number = prev_one = False
        elif "0" <= c <= "9":
            n = ord(c) - ord("0")
            if prev_number:
                # only "1" then "0" (ten) may put two digits side by side
                if not (prev_one and n == 0):
                    raise _Reject(i, "placement")
                n = 9  # the one is counted already
                prev_one = False
            elif n == 0:
                raise _Reject(i, "placement")
            else:
                prev_one = n == 1
            count += n
            if count > limit():
                raise _Reject(i, "placement")
            prev_number = True
        elif c == "/":
            close(i)
            ranks_done += 1
            if ranks_done == 8:  # a ninth rank starts: the 8th '/'
                raise _Reject(i, "placement")
            count = 0
            prev_number = prev_one = False
        else:
            raise _Reject(i, "placement")
        i += 1
    close(i)
    if ranks_done != 7:
        raise _Reject(i, "placement")
    return i, width


def _fields(s: str, i: int, end: int):
    """(start, stop) of each field after position i."""
    out = []
    while True:
        while i < end and s[i] in BLANK:
            i += 1
        if i >= end:
            return out
        start = i
        while i < end and s[i] not in BLANK:
            i += 1
        out.append((start, i))


def _castling(s: str, j: int, e: int, width: int) -> None:
    if s[j] == "-":
        if e - j != 1:
            raise _Reject(j + 1, "castling")
        return
    if s[j] in "sm":
        j += 1
        if j == e:
            raise _Reject(j, "castling")
    count = {0: 0, 1: 0}
    seen = {0: set(), 1: set()}
    files = "abcdefghij"[:width]
    for k in range(j, e):
        c = s[k]
        if c == "-":
            raise _Reject(k, "castling")
        if not ("A" <= c <= "Z" or "a" <= c <= "z"):
            raise _Reject(k, "castling")
        low = c.lower()
        if low not in "kq":
            if low > "j":
                raise _Reject(k, "castling")  # a letter that is no flag
            if low not in files:
                raise _Reject(k, "castling")  # a file beyond the board
        color = 1 if c.islower() else 0
        if count[color] == 2:
            raise _Reject(k, "castling")
        if low in seen[color]:
            raise _Reject(k, "castling")
        seen[color].add(low)
        count[color] += 1


def _en_passant(s: str, j: int, e: int, width: int) -> None:
    f = s[j]
    if f == "-":
        if e - j != 1:
            raise _Reject(j + 1, "en_passant")
        return
    if not ("a" <= f <= "j"):
        raise _Reject(j, "en_passant")
    if ord(f) - ord("a") >= width:
        raise _Reject(j, "en_passant")
    if e - j < 2 or not ("1" <= s[j + 1] <= "8"):
        raise _Reject(j + 1, "en_passant")
    if e - j > 2:
        raise _Reject(j + 2, "en_passant")


def _counter(s: str, j: int, e: int, field: str) -> None:
    value = 0
    for k in range(j, e):
        if not ("0" <= s[k] <= "9"):
            raise _Reject(k, field)
        value = value * 10 + ord(s[k]) - ord("0")
        if value > MAX_COUNTER:
            raise _Reject(k, field)


def locate(row: str) -> Location:
    """None if ``row`` is a valid position, else (column, field) of the error."""
    s = ascii_only(strip_terminator(row))
    i, end = 0, len(s)
    while i < end and s[i] in BLANK:
        i += 1
    while end > i and s[end - 1] in BLANK:
        end -= 1
    try:
        if i == end:
            raise _Reject(end, "fields")
        i, width = _placement(s, i, end)
        fields = _fields(s, i, end)
        if len(fields) < 1:
            raise _Reject(end, "fields")
        a, b = fields[0]
        if s[a] not in "wb":
            raise _Reject(a, "side")
        if b - a != 1:
            raise _Reject(a + 1, "side")
        if len(fields) < 2:
            raise _Reject(end, "fields")
        _castling(s, *fields[1], width)
        if len(fields) < 3:
            raise _Reject(end, "fields")
        _en_passant(s, *fields[2], width)
        if len(fields) > 3:
            _counter(s, *fields[3], "halfmove")
        if len(fields) > 4:
            _counter(s, *fields[4], "fullmove")
        if len(fields) > 5:
            raise _Reject(fields[5][0], "fields")
    except _Reject as r:
        return r.location
    return None


def width_of(row: str) -> int:
    """Board width of a valid row (8 or 10)."""
    s = strip_terminator(row).strip(BLANK)
    first = s.split("/", 1)[0]
    n, prev_one = 0, False
    for c in first:
        if c.isdigit():
            n += 9 if (c == "0" and prev_one) else int(c)
            prev_one = c == "1"
        else:
            n += 1
            prev_one = False
    return n


def parse_message(message: str) -> Tuple[int, str]:
    """(column, field) of a validate message 'column C (field): reason'."""
    head, _, reason = message.partition(": ")
    assert reason, message
    words = head.split(" ")
    assert words[0] == "column" and len(words) == 3, message
    return int(words[1]), words[2].strip("()")
