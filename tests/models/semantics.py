"""The one plain-Python model of docs/semantics.md, written from the text of
that page, not from the C code.

Two halves:

* :func:`locate` decides whether a row is valid and, if not, names the column
  and field where reading fails.  Ranks are read one at a time with an
  explicit width, and every rule is checked where the page says its error is
  reported; the reason text is not modelled.
* :func:`parse` reads a valid row into a position (the accept / reject
  decision is :func:`locate`'s), :func:`repair` and :func:`ep_valid` apply the
  castling and en-passant rules, :func:`write` writes the position in a
  castling / en-passant mode (with its own attack code for ``legal``), and
  :func:`record` gives the fields of docs/records.md.

The model is checked against python-chess wherever python-chess applies
(tests/test_differential.py, tests/test_10x8.py), and then covers what
python-chess cannot: several or no kings, castling flags in any order, the
``s``/``m`` prefixes, 10-wide boards and rejected rows.  The test suite and
the fuzz harnesses (tests/fuzz/) compare fastxfen with it.

Nothing here imports fastxfen.
"""

from __future__ import annotations

import re
from typing import Optional, Tuple

FILES = "abcdefghij"
MAX_COUNTER = 4294967295
MODES = [(c, e) for c in ("xfen", "shredder") for e in ("fen", "xfen", "legal")]
MODE_IDS = [f"{c}-{e}" for c, e in MODES]
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


def square_name(f, r):
    return f"{FILES[f]}{r + 1}"


def width_of(row: str) -> int:
    """Board width of a valid row (8 or 10)."""
    return parse(row)["width"]


def parse_message(message: str) -> Tuple[int, str]:
    """(column, field) of a validate message 'column C (field): reason'."""
    head, _, reason = message.partition(": ")
    assert reason, message
    words = head.split(" ")
    assert words[0] == "column" and len(words) == 3, message
    return int(words[1]), words[2].strip("()")


# --- the rule model -----------------------------------------------------------


class Rejected(Exception):
    """The model rejects the row at ``.column`` in ``.field``."""

    def __init__(self, column, field):
        super().__init__(column, field)
        self.column = column
        self.field = field


def parse(row):
    """Read a row by the rules of docs/semantics.md into a position dict, or
    raise :class:`Rejected` where :func:`locate` finds the row invalid."""
    if not isinstance(row, str):
        raise Rejected(0, "input")
    where = locate(row)
    if where is not None:
        raise Rejected(*where)
    placement, side, castling, ep, *counters = re.split(
        r"[ \t]+", strip_terminator(row).strip(BLANK)
    )
    board = {}
    for i, text in enumerate(placement.split("/")):
        f = 0
        for run in re.findall(r"[0-9]+|[^0-9]", text):
            if run.isdigit():
                f += int(run)
            else:
                board[(f, 7 - i)] = run
                f += 1
    width = f

    prefix, flags = "", ""
    if castling != "-":
        if castling[0] in "sm":
            prefix, flags = castling[0], castling[1:]
        else:
            flags = castling
    ep_sq = None if ep == "-" else (FILES.index(ep[0]), int(ep[1]) - 1)
    halfmove = int(counters[0]) if len(counters) > 0 else 0
    fullmove = max(int(counters[1]), 1) if len(counters) > 1 else 1

    if ep_sq is not None and not ep_valid(board, width, side, ep_sq):
        ep_sq = None
    return {
        "placement": placement,
        "width": width,
        "board": board,
        "turn": side,
        "prefix": prefix,
        "ep": ep_sq,
        "halfmove": halfmove,
        "fullmove": fullmove,
        "rights": repair(board, width, flags),
    }


def repair(board, width, flags):
    """{(is_white, 'h'|'a'): rook file} after the repair rules."""
    rights = {}
    for white in (True, False):
        back = 0 if white else 7
        king, rook = ("K", "R") if white else ("k", "r")
        kings = [sq for sq, p in board.items() if p == king]
        if len(kings) != 1 or kings[0][1] != back:
            continue
        kf = kings[0][0]
        rooks = [f for f in range(width) if board.get((f, back)) == rook]
        for ch in flags:
            if ch.isupper() != white:
                continue
            c = ch.lower()
            if c == "k":
                cand = [f for f in rooks if f > kf]
                f = max(cand) if cand else width - 1
            elif c == "q":
                cand = [f for f in rooks if f < kf]
                f = min(cand) if cand else 0
            else:
                f = FILES.index(c)
            if f not in rooks:
                continue
            side = "h" if f > kf else "a"
            old = rights.get((white, side))
            if old is None:
                rights[(white, side)] = f
            else:
                rights[(white, side)] = max(old, f) if side == "h" else min(old, f)
    return rights


def ep_valid(board, width, turn, sq):
    f, r = sq
    if turn == "w":
        want, pawn_r, origin_r, pawn = 5, 4, 6, "p"
    else:
        want, pawn_r, origin_r, pawn = 2, 3, 1, "P"
    return (
        r == want
        and (f, r) not in board
        and (f, origin_r) not in board
        and board.get((f, pawn_r)) == pawn
    )


_KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
_ORTHO = [(1, 0), (-1, 0), (0, 1), (0, -1)]
_DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def attacked(board, width, sq, by_white):
    """Is ``sq`` attacked by a piece of the given color?"""
    f, r = sq

    def piece(x, y):
        return board.get((x, y))

    def mine(p, letters):
        return p is not None and p.isupper() == by_white and p.upper() in letters

    pawn_from = r - 1 if by_white else r + 1
    for dx in (-1, 1):
        if mine(piece(f + dx, pawn_from), "P"):
            return True
    for dx, dy in _KNIGHT:
        if mine(piece(f + dx, r + dy), "NAC"):
            return True
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if (dx or dy) and mine(piece(f + dx, r + dy), "K"):
                return True
    for dirs, letters in ((_ORTHO, "RQC"), (_DIAG, "BQA")):
        for dx, dy in dirs:
            x, y = f + dx, r + dy
            while 0 <= x < width and 0 <= y < 8:
                p = piece(x, y)
                if p is not None:
                    if mine(p, letters):
                        return True
                    break
                x, y = x + dx, y + dy
    return False


def ep_keep(board, width, turn, sq, mode):
    """Should a valid target be written in ``mode``?"""
    if mode == "fen":
        return True
    f, r = sq
    white = turn == "w"
    pawn_r = r - 1 if white else r + 1
    me = "P" if white else "p"
    caps = [(f + dx, pawn_r) for dx in (-1, 1) if board.get((f + dx, pawn_r)) == me]
    if mode == "xfen":
        return bool(caps)
    king = "K" if white else "k"
    for c in caps:
        after = dict(board)
        del after[c]
        del after[(f, pawn_r)]
        after[sq] = me
        kings = [s for s, p in after.items() if p == king]
        if not any(attacked(after, width, k, not white) for k in kings):
            return True
    return False


def castling_text(pos, castling):
    rights = pos["rights"]
    board, width = pos["board"], pos["width"]
    out = []
    for white in (True, False):
        back = 0 if white else 7
        rook = "R" if white else "r"
        rooks = [f for f in range(width) if board.get((f, back)) == rook]
        for side in ("h", "a"):
            f = rights.get((white, side))
            if f is None:
                continue
            if castling == "shredder":
                ch = FILES[f]
            elif side == "h":
                ch = FILES[f] if any(x > f for x in rooks) else "k"
            else:
                ch = FILES[f] if any(x < f for x in rooks) else "q"
            out.append(ch.upper() if white else ch)
    if not out:
        return "-"
    return pos["prefix"] + "".join(out)


def write(pos, castling="xfen", en_passant="xfen"):
    ep = "-"
    if pos["ep"] is not None and ep_keep(
        pos["board"], pos["width"], pos["turn"], pos["ep"], en_passant
    ):
        ep = square_name(*pos["ep"])
    return " ".join(
        [
            pos["placement"],
            pos["turn"],
            castling_text(pos, castling),
            ep,
            str(pos["halfmove"]),
            str(pos["fullmove"]),
        ]
    )


def normalize(row, castling="xfen", en_passant="xfen"):
    """The model's output for a row, or None if it rejects the row."""
    try:
        pos = parse(row)
    except Rejected:
        return None
    return write(pos, castling, en_passant)


def normalize_all(row):
    """{(castling, en_passant): model output} for every mode (None values if
    the model rejects the row)."""
    try:
        pos = parse(row)
    except Rejected:
        return {m: None for m in MODES}
    return {m: write(pos, *m) for m in MODES}


PIECE_CODES = {p: i + 1 for i, p in enumerate("PNBRQKpnbrqk")}
PIECE_CODES.update({"A": 13, "C": 14, "a": 15, "c": 16})


def record(row, board_len=64):
    """The record fields docs/records.md describes, from the model."""
    pos = parse(row)
    width = pos["width"]
    board = [0] * board_len
    for (f, r), p in pos["board"].items():
        board[r * width + f] = PIECE_CODES[p]
    castling = [
        pos["rights"].get(k, 255) for k in ((True, "h"), (True, "a"), (False, "h"), (False, "a"))
    ]
    ep = 255 if pos["ep"] is None else pos["ep"][1] * width + pos["ep"][0]
    return {
        "board": board,
        "width": width,
        "turn": 0 if pos["turn"] == "w" else 1,
        "prefix": {"": 0, "s": 1, "m": 2}[pos["prefix"]],
        "ep": ep,
        "castling": castling,
        "halfmove": pos["halfmove"],
        "fullmove": pos["fullmove"],
        "has_rights": bool(pos["rights"]),
    }
