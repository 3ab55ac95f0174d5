"""FEN tags of PGN files, normalized in place.

A PGN file is streamed in large chunks cut at game boundaries.  In each chunk
the lines are found with numpy (one pass for the newlines, gathers of a few
bytes at each line start), the ``[FEN "..."]`` tags of the header sections are
normalized by ONE bulk call over their value spans, and the chunk is rebuilt
with a single ``b"".join`` of the unchanged stretches and the new values.
Nothing is decoded to ``str`` and no Python code runs per line or per game;
Python runs per FEN tag only to cut the output into pieces, and per game only
for the rare constructs below (rejected tags, malformed tags, an unclosed
``{`` before a game).

What the code calls a game (the rules of docs/pgn.md):

- A *tag line* is a line whose first byte is ``[``.
- A game begins at a tag line that is the first line of the input (after an
  optional UTF-8 byte-order mark) or follows a line that is not a tag line,
  unless that line lies inside a ``{...}`` comment of the movetext before it;
  and at an ``[Event`` tag line of a header section that already holds an
  ``[Event`` line (so that files of header sections without blank lines or
  movetext still split into games).  A game runs up to the next game's first
  line; bytes before the first game belong to no game and are copied through.
- A game's *header section* is its first line and the tag lines directly
  after it.  Only tags there count; a ``[FEN "`` anywhere else is text.
- In movetext a ``{`` opens a comment that the next ``}`` closes; a ``;``
  comments out the rest of its line and a line starting with ``%`` is an
  escape line (neither can open a ``{`` comment).
"""

from __future__ import annotations

import os
import re
import sys
import time
from typing import Any, Callable, Iterable, Iterator, List, Optional, Tuple

import numpy as np

from fastxfen import _bulk
from fastxfen._errors import FenError

__all__ = [
    "DEFAULT_CHUNK",
    "MAX_HEADER",
    "PgnError",
    "PgnFormatError",
    "PgnStats",
    "normalize_pgn",
    "stream_pgn",
]

DEFAULT_CHUNK = 8 << 20
#: A header section longer than this is not PGN: the run stops.
MAX_HEADER = 64 << 20
#: Variant tag values (lower case) that name standard chess, for --select standard.
STANDARD_VARIANTS = frozenset({"", "standard", "chess", "classical", "normal"})
SELECTIONS = ("standard", "setup")

_BOM = b"\xef\xbb\xbf"
_SETUP = b'[SetUp "1"]'
_FEN_LINE = re.compile(rb'\[FEN[ \t]*"(.*)"\][ \t]*\Z', re.S)
_FEN_HEAD = re.compile(rb"\[FEN[ \t]*")
_VARIANT_LINE = re.compile(rb'\[Variant[ \t]*"(.*)"\][ \t]*\Z', re.S)
_MOVETEXT_SPECIAL = re.compile(rb"[{;\n]")


def _word(text: bytes, size: int) -> int:
    return int.from_bytes(text.ljust(size, b"\0"), "little")


def _names(name: bytes) -> Tuple[int, List[int]]:
    """(mask, values) matching ``name`` then a space, tab or quote in the
    little-endian word of the 8 bytes after a line's ``[``."""
    size = len(name) + 1
    mask = (1 << (8 * size)) - 1
    return mask, [_word(name + end, 8) for end in (b" ", b"\t", b'"')]


_FEN_WORD = _names(b"FEN")
_SETUP_WORD = _names(b"SetUp")
_EVENT_WORD = _names(b"Event")
_VARIANT_WORD = _names(b"Variant")


class PgnError(FenError):
    """A rejected FEN tag: ``game`` and ``line`` are 1-based over the whole
    input, ``column`` a 0-based byte offset into the line; ``index`` is the
    0-based game index."""

    def __init__(self, game: int, line: int, column: int, field: str, reason: str) -> None:
        self.game = game
        self.line = line
        super().__init__(game - 1, column, field, reason)
        self.args = (f"game {game}, line {line}, {self.location}: {reason}",)

    def __reduce__(self):
        return (type(self), (self.game, self.line, self.column, self.field, self.reason))


class PgnFormatError(ValueError):
    """Input that cannot be cut into games (a header section over MAX_HEADER)."""


class PgnStats:
    """What a run did; ``bytes_read`` counts the PGN text (uncompressed)."""

    def __init__(self) -> None:
        self.games = 0  #: games read (not counting bytes before the first game)
        self.written = 0  #: games written to the output
        self.rejected = 0  #: games with a rejected FEN tag
        self.skipped = 0  #: games left out by select
        self.fen_tags = 0  #: FEN tag values written normalized
        self.setups = 0  #: [SetUp "1"] tags added
        self.bytes_read = 0
        self.bytes_written = 0
        self.started = time.perf_counter()

    def summary(self, errors: str, stopped: Optional["PgnError"] = None) -> str:
        """The closing line of ``fastxfen pgn``."""
        seconds = max(time.perf_counter() - self.started, 1e-9)
        parts = [f"{self.games:,} games read", f"{self.written:,} written"]
        rejected = f"{self.rejected:,} rejected"
        if self.rejected and stopped is None:
            rejected += {"coerce": " (dropped)", "ignore": " (passed through unchanged)"}.get(
                errors, ""
            )
        parts.append(rejected)
        if self.skipped:
            parts.append(f"{self.skipped:,} not selected")
        text = "fastxfen pgn: " + ", ".join(parts)
        text += f"; {self.fen_tags:,} FEN tags normalized, {self.setups:,} SetUp tags added"
        if stopped is not None:
            text += f"; stopped at game {stopped.game}"
        rate = self.bytes_read / seconds / 1e6
        return text + f" in {seconds:.2f} s ({rate:,.1f} MB/s)"

    def __repr__(self) -> str:
        return (
            "PgnStats("
            + ", ".join(f"{k}={v}" for k, v in vars(self).items() if k != "started")
            + ")"
        )


def _auto_threads(threads: Optional[int], rows: int) -> int:
    if threads:
        return threads
    return max(1, min(os.cpu_count() or 1, rows // 16384))


# ------------------------------------------------------------------ scanning


def _at_line_start(buf, pos: int) -> bool:
    return pos == 0 or buf[pos - 1] == 10


def _follows_tag(buf, pos: int, first: bool) -> bool:
    """Whether the line before the line starting at ``pos`` is a tag line;
    ``first`` answers for pos 0 (buffers start at line starts)."""
    if pos == 0:
        return first
    return buf[buf.rfind(b"\n", 0, pos - 1) + 1] == 91


def _walk(
    buf, pos: int, end: int, inside: bool, stop_at_tag: bool, first_follows_tag: bool = False
) -> Tuple[int, bool]:
    """Read PGN text from ``pos`` to ``end`` the slow, exact way; ``inside``
    tells whether a ``{`` comment is open at ``pos``, which is a line start
    when it is not.  Outside comments, a line starting with ``[`` is a tag
    line (skipped; with ``stop_at_tag``, if the line before it is not a tag
    line, a game starts there and its position is returned) and a line
    starting with ``%`` an escape line; ``;`` comments out the rest of a line.
    Returns (the game start or -1, whether a comment is open at the stop)."""
    while pos < end:
        if inside:
            close = buf.find(b"}", pos, end)
            if close < 0:
                return -1, True
            pos, inside = close + 1, False
            continue
        if _at_line_start(buf, pos) and buf[pos] in (91, 37):  # '[' '%'
            if buf[pos] == 91 and stop_at_tag and not _follows_tag(buf, pos, first_follows_tag):
                return pos, False
            newline = buf.find(b"\n", pos, end)
            if newline < 0:
                return -1, False
            pos = newline + 1
            continue
        match = _MOVETEXT_SPECIAL.search(buf, pos, end)
        if match is None:
            return -1, False
        at = match.start()
        byte = buf[at]
        if byte == 123:  # '{'
            pos, inside = at + 1, True
        elif byte == 59:  # ';' to the end of the line
            newline = buf.find(b"\n", at, end)
            if newline < 0:
                return -1, False
            pos = newline + 1
        else:
            pos = at + 1
    return -1, inside


def _match_words(words: np.ndarray, spec) -> np.ndarray:
    mask, values = spec
    masked = words & np.uint64(mask)
    hit = masked == np.uint64(values[0])
    for value in values[1:]:
        hit |= masked == np.uint64(value)
    return hit


def _bytes_at(a: np.ndarray, at: np.ndarray) -> np.ndarray:
    """a[at], with 0 past the end (``at`` ascending)."""
    if not len(at) or at[-1] < len(a):
        return a[at]
    return np.where(at < len(a), np.take(a, at, mode="clip"), 0).astype(np.uint8)


def _words(buf, at: np.ndarray, size: int) -> np.ndarray:
    """The ``size`` (4 or 8) bytes of ``buf`` at each offset of ``at`` as
    little-endian unsigned words, zero padded past the end: one gather from
    an overlapping, unaligned view of the buffer."""
    n = len(buf)
    kind = np.dtype(f"<u{size}")
    if n >= size:
        view = np.ndarray((n - size + 1,), kind, buffer=buf, strides=(1,))
        words = view[np.minimum(at, n - size)]
    else:
        words = np.zeros(len(at), kind)
    if len(at) and at[-1] > n - size:
        for k in np.flatnonzero(at > n - size).tolist():
            tail = bytes(buf[int(at[k]) : int(at[k]) + size]).ljust(size, b"\0")
            words[k] = int.from_bytes(tail, "little")
    return words


class _Scan:
    """The lines, games and interesting header tags of one buffer, which
    starts at a game start, at the start of the input, or after a skimmed
    stretch (always at a line start outside any comment)."""

    __slots__ = (
        "n",
        "a",
        "nl",
        "ls",
        "starts",
        "start_lines",
        "fen_lines",
        "setup_lines",
        "variant_lines",
        "header_end",
        "tag",
    )

    def __init__(self, buf, variants: bool) -> None:
        n = self.n = len(buf)
        a = self.a = np.frombuffer(buf, np.uint8)
        empty = np.empty(0, np.int64)
        braces = None
        if buf.find(b"{") < 0:
            self.nl = nl = np.flatnonzero(a == 10)
        else:  # newlines and braces in one pass ('{' and '}' are above 'z')
            special = a == 10
            special |= a > 122
            special = np.flatnonzero(special)
            kinds = a[special]
            self.nl = nl = special[kinds == 10]
            braces = special[(kinds == 123) | (kinds == 125)]
        ls = np.empty(len(nl) + 1, np.int64)
        ls[0] = 0
        ls[1:] = nl
        ls[1:] += 1
        if ls[-1] >= n:
            ls = ls[:-1]
        self.ls = ls
        self.fen_lines = self.setup_lines = self.variant_lines = empty
        self.starts = self.start_lines = empty
        self.header_end = -1
        self.tag = np.zeros(0, bool)
        if not len(ls):
            return
        # The first three bytes of every line: '[' and the start of a tag
        # name (zero past the end of the buffer).
        first = a[ls]
        if ls[-1] + 2 < n:
            one, two = a[1:][ls], a[2:][ls]
        else:
            one = _bytes_at(a, ls + 1)
            two = _bytes_at(a, ls + 2)
        tag = first == 91
        starts_run = tag.copy()  # tag lines after a line that is not one
        starts_run[1:] &= ~tag[:-1]
        candidates = np.flatnonzero(starts_run)
        self.tag = tag
        if not len(candidates):
            self.header_end = 0
            return
        confirmed = np.ones(len(candidates), bool)
        if braces is not None:
            self._confirm(buf, braces, candidates, confirmed)

        # Tag lines whose name starts FE, Se, Ev (or Va): their 8 bytes after
        # the '[' decide.
        some = (one == 70) & (two == 69)  # FE
        some |= (one == 83) & (two == 101)  # Se
        some |= (one == 69) & (two == 118)  # Ev
        if variants:
            some |= (one == 86) & (two == 97)  # Va
        some_lines = np.flatnonzero(some & tag)
        words = _words(buf, ls[some_lines] + 1, 8)
        if confirmed.all():
            header = np.ones(len(some_lines), bool)
            runs = None
        else:  # the candidate each line's run of tag lines began at
            runs = np.searchsorted(candidates, some_lines, "right") - 1
            header = confirmed[runs]

        def lines_of(spec):
            return some_lines[_match_words(words, spec) & header]

        event_lines = lines_of(_EVENT_WORD)
        start_lines = candidates[confirmed] if runs is not None else candidates
        if len(event_lines) > 1:
            event_runs = np.searchsorted(candidates, event_lines, "right")
            second = np.zeros(len(event_lines), bool)
            second[1:] = event_runs[1:] == event_runs[:-1]
            if second.any():
                start_lines = np.union1d(start_lines, event_lines[second])
        self.start_lines = start_lines
        self.starts = ls[start_lines]
        self.fen_lines = lines_of(_FEN_WORD)
        self.setup_lines = lines_of(_SETUP_WORD)
        if variants:
            self.variant_lines = lines_of(_VARIANT_WORD)
        if not len(start_lines) or start_lines[0] != 0:
            self.header_end = 0
        else:
            self.header_end = None  # worked out when asked for (long games only)

    def end_of_first_header(self) -> int:
        """Where the header section of a game starting at line 0 ends (the
        start of its first line that is not a tag line), 0 if no game starts
        at line 0, -1 if the header section runs to the end of the buffer."""
        if self.header_end is None:
            other = np.flatnonzero(~self.tag)
            self.header_end = int(self.ls[other[0]]) if len(other) else -1
        return self.header_end

    def _confirm(
        self, buf, braces: np.ndarray, candidates: np.ndarray, confirmed: np.ndarray
    ) -> None:
        """Clear ``confirmed`` for candidates inside a ``{`` comment.  Quick
        test: if the last brace before a candidate is not ``{``, no comment
        can be open there.  Otherwise read the text exactly, from the latest
        game start before it."""
        a, ls = self.a, self.ls
        at = ls[candidates]
        last = np.searchsorted(braces, at) - 1
        doubtful = last >= 0
        doubtful[doubtful] = a[braces[last[doubtful]]] == 123
        for j in np.flatnonzero(doubtful).tolist():
            origin = 0
            for i in range(j - 1, -1, -1):
                if confirmed[i]:
                    origin = int(at[i])
                    break
            _, inside = _walk(buf, origin, int(at[j]), False, False)
            confirmed[j] = not inside


# ------------------------------------------------------------------ editing


class _Outcome:
    """What became of one chunk."""

    __slots__ = ("pieces", "rejects", "stop", "last_fate")
    # last_fate is also "reject" for a game that stops an errors="raise" run:
    # the rest of it, if it is long, goes to the rejects too.

    def __init__(self) -> None:
        self.pieces: list = []  # bytes-likes to write, in order
        self.rejects: list = []  # (PgnError, bytes-like of the game)
        self.stop: Optional[PgnError] = None
        self.last_fate = "write"  # of the chunk's last game: write, drop, reject, both


class _Editor:
    """Normalizes the FEN tags of chunks of whole games."""

    def __init__(
        self,
        castling: str,
        en_passant: str,
        errors: str,
        select: Optional[str],
        threads: Optional[int],
    ) -> None:
        if errors not in ("raise", "coerce", "ignore"):
            raise ValueError(f"errors must be 'raise', 'coerce' or 'ignore', not {errors!r}")
        if select not in (None,) + SELECTIONS:
            raise ValueError(f"select must be None, 'standard' or 'setup', not {select!r}")
        if threads is not None and (
            isinstance(threads, bool) or not isinstance(threads, int) or threads < 1
        ):
            raise ValueError(f"threads must be a positive int or None, not {threads!r}")
        # Check the modes now rather than at the first FEN tag.
        _bulk.spans(b"", np.empty(0, np.int64), np.empty(0, np.int64)).normalize(
            castling, en_passant, "coerce", 1, False
        )
        self.castling = castling
        self.en_passant = en_passant
        self.errors = errors
        self.select = select
        self.threads = threads
        self.stats = PgnStats()
        self.lines = 0  # lines before the current buffer

    def scan(self, buf) -> _Scan:
        return _Scan(buf, self.select == "standard")

    def chunk(self, buf, scan: _Scan, cut: int) -> _Outcome:
        """Edit buf[:cut], whose games are whole (except the last one when a
        long game is being skimmed)."""
        result = _Outcome()
        stats = self.stats
        a, ls = scan.a, scan.ls
        starts = scan.starts[: np.searchsorted(scan.starts, cut)]
        games = len(starts)
        if not games:
            result.pieces.append(memoryview(buf)[:cut])
            self._advance(scan, cut)
            return result
        ends = np.empty(games, np.int64)
        ends[:-1] = starts[1:]
        ends[-1] = cut

        fen_lines = scan.fen_lines[ls[scan.fen_lines] < cut]
        fen_at = ls[fen_lines]
        fen_game = np.searchsorted(starts, fen_at, "right") - 1
        has_fen = np.zeros(games, bool)
        has_fen[fen_game] = True
        has_setup = np.zeros(games, bool)
        setup_at = ls[scan.setup_lines]
        setup_at = setup_at[setup_at < cut]
        has_setup[np.searchsorted(starts, setup_at, "right") - 1] = True

        if self.select is None:
            keep = np.ones(games, bool)
        elif self.select == "setup":
            keep = has_fen
        else:
            keep = ~has_fen & self._standard_variants(buf, scan, starts, cut)

        # Value spans of the FEN tags of kept games.
        kept = keep[fen_game]
        fen_lines, fen_at, fen_game = fen_lines[kept], fen_at[kept], fen_game[kept]
        nfen = len(fen_lines)
        nl = scan.nl
        line_end = np.where(
            fen_lines < len(nl), nl[np.minimum(fen_lines, len(nl) - 1)] if len(nl) else 0, scan.n
        )
        crlf = (line_end < scan.n) & (line_end > fen_at)
        crlf &= np.take(a, line_end - 1, mode="clip") == 13
        content_end = line_end - crlf
        value_start = fen_at + 6
        value_end = content_end - 2
        simple = np.take(a, fen_at + 4, mode="clip") == 32
        simple &= np.take(a, fen_at + 5, mode="clip") == 34
        simple &= np.take(a, content_end - 1, mode="clip") == 93
        simple &= np.take(a, content_end - 2, mode="clip") == 34
        simple &= value_end >= value_start
        failures: list = []  # (fen index, column in line, field, reason)
        if not simple.all():
            for k in np.flatnonzero(~simple).tolist():
                line = bytes(buf[fen_at[k] : content_end[k]])
                match = _FEN_LINE.match(line)
                if match:
                    value_start[k] = fen_at[k] + match.start(1)
                    value_end[k] = fen_at[k] + match.end(1)
                    simple[k] = True
                else:
                    failures.append((k,) + _malformed(line))
        rows = np.flatnonzero(simple)
        out = b""
        out_ends = np.empty(0, np.int64)
        if len(rows):
            batch = _bulk.spans(buf, value_start[rows], value_end[rows])
            out, out_ends, _ = batch.normalize(
                self.castling,
                self.en_passant,
                "coerce",
                _auto_threads(self.threads, len(rows)),
                False,
            )
            for row, error in batch.failures():
                k = int(rows[row])
                failures.append(
                    (k, int(value_start[k] - fen_at[k]) + error.column, error.field, error.reason)
                )

        failed = np.zeros(games, bool)
        first_failure = {}
        if failures:
            failures.sort()
            for k, column, field, reason in failures:
                g = int(fen_game[k])
                if g not in first_failure:
                    first_failure[g] = PgnError(
                        stats.games + g + 1,
                        self.lines + int(fen_lines[k]) + 1,
                        column,
                        field,
                        reason,
                    )
            failed[list(first_failure)] = True
        stop_game = games
        if failures and self.errors == "raise":
            stop_game = min(first_failure)
            result.stop = first_failure[stop_game]
        limit = cut if stop_game == games else int(starts[stop_game])
        in_range = np.arange(games) < stop_game
        edited = keep & ~failed & in_range
        drop = (~keep | (failed & (self.errors == "coerce"))) & in_range

        # The edits, in order of position: (start, end) in buf replaced by
        # (start, end) in the replacement text: FEN values, SetUp tags before
        # the first FEN tag of a game that has none, dropped games.
        ks = np.flatnonzero(edited[fen_game] & simple)
        out_starts = np.zeros(len(out_ends) + 1, np.int64)
        out_starts[1:] = out_ends
        slot = np.full(nfen, -1, np.int64)
        slot[rows] = np.arange(len(rows))
        # A value already in canonical form needs no edit.
        changed = ks[
            ~_same(
                buf,
                value_start[ks],
                value_end[ks],
                out,
                out_starts[slot[ks]],
                out_starts[slot[ks] + 1],
            )
        ]
        first_fen = np.ones(nfen, bool)
        first_fen[1:] = fen_game[1:] != fen_game[:-1]
        add = np.flatnonzero(first_fen & edited[fen_game] & ~has_setup[fen_game])
        setup_at = fen_at[add]
        setup_a = len(out) + crlf[add] * (len(_SETUP) + 1)
        setup_b = setup_a + len(_SETUP) + 1 + crlf[add]
        gone = np.flatnonzero(drop)
        none = np.zeros(len(gone), np.int64)
        edit_start = np.concatenate([value_start[changed], setup_at, starts[gone]])
        edit_end = np.concatenate([value_end[changed], setup_at, ends[gone]])
        rep_a = np.concatenate([out_starts[slot[changed]], setup_a, none])
        rep_b = np.concatenate([out_starts[slot[changed] + 1], setup_b, none])
        if len(edit_start):
            # Three sorted runs: a stable sort merges them in linear time.
            order = np.argsort(edit_start, kind="stable")
            # Views of the long stretches kept, copies of the short new
            # values: the cheapest objects for each; one join.
            source = memoryview(buf)
            replacement = b"".join((out, _SETUP, b"\n", _SETUP, b"\r\n"))
            gap_start = np.concatenate([[0], edit_end[order]]).tolist()
            gap_end = np.concatenate([edit_start[order], [limit]]).tolist()
            pieces: list = [None] * (2 * len(order) + 1)
            pieces[0::2] = [source[x:y] for x, y in zip(gap_start, gap_end)]
            pieces[1::2] = [
                replacement[x:y] for x, y in zip(rep_a[order].tolist(), rep_b[order].tolist())
            ]
            result.pieces.append(b"".join(pieces))
        elif limit:
            result.pieces.append(memoryview(buf)[:limit])

        for g, error in sorted(first_failure.items()):
            if g <= stop_game:
                result.rejects.append((error, memoryview(buf)[int(starts[g]) : int(ends[g])]))

        done = min(stop_game + 1, games)
        stats.games += done
        stats.skipped += int((~keep[:done]).sum())
        stats.rejected += int(failed[:done].sum())
        stats.written += int((keep & ~drop & in_range).sum())
        stats.fen_tags += len(ks)
        stats.setups += len(add)
        last = games - 1
        if result.stop is not None:
            result.last_fate = "reject" if stop_game == last else "drop"
        elif not keep[last]:
            result.last_fate = "drop"
        elif failed[last]:
            result.last_fate = "reject" if self.errors == "coerce" else "both"
        if result.stop is None:
            self._advance(scan, cut)
        return result

    def _advance(self, scan: _Scan, cut: int) -> None:
        self.lines += int(np.searchsorted(scan.nl, cut))

    def _standard_variants(self, buf, scan: _Scan, starts: np.ndarray, cut: int) -> np.ndarray:
        """Per game, whether every Variant tag names standard chess."""
        ok = np.ones(len(starts), bool)
        at = scan.ls[scan.variant_lines]
        at = at[at < cut]
        for pos in at.tolist():
            end = buf.find(b"\n", pos)
            line = bytes(buf[pos : end if end >= 0 else len(buf)]).rstrip(b"\r")
            match = _VARIANT_LINE.match(line)
            name = match.group(1).strip().lower() if match else b"?"
            if name.decode("latin1") not in STANDARD_VARIANTS:
                ok[np.searchsorted(starts, pos, "right") - 1] = False
        return ok


def _same(buf, starts, ends, out, out_starts, out_ends) -> np.ndarray:
    """Per row, whether buf[starts:ends] equals out[out_starts:out_ends]:
    compared 8 bytes at a time through unaligned views (the last word of a
    row overlaps the one before), so rows under 8 bytes count as different."""
    length = ends - starts
    same = (length == out_ends - out_starts) & (length >= 8)
    rows = np.flatnonzero(same)
    if not len(rows):
        return same
    source = np.ndarray((len(buf) - 7,), "<u8", buffer=buf, strides=(1,))
    target = np.ndarray((len(out) - 7,), "<u8", buffer=out, strides=(1,))
    at, to, last = starts[rows], out_starts[rows], length[rows] - 8
    equal = np.ones(len(rows), bool)
    for offset in range(0, int(last.max()) + 8, 8):
        step = np.minimum(offset, last)
        equal &= source[at + step] == target[to + step]
    same[rows] = equal
    return same


def _malformed(line: bytes) -> Tuple[int, str, str]:
    """(column, field, reason) for a FEN tag line that is not [FEN "..."]."""
    at = _FEN_HEAD.match(line).end()
    if at >= len(line) or line[at] != 34:
        return at, "tag", "expected a quoted value after [FEN"
    return len(line.rstrip(b" \t")), "tag", 'the FEN tag does not end with "]'


# ------------------------------------------------------------------ streaming


class _Sink:
    """Where the output and the rejected games go."""

    def __init__(self, write: Callable, reject: Optional[Callable]) -> None:
        self.write = write
        self.reject_write = reject
        self.written = 0
        self._reject_open = False  # the last rejected game did not end with a newline

    def out(self, data) -> None:
        if len(data):
            self.write(data)
            self.written += len(data)

    def reject(self, error: PgnError, game) -> None:
        if self.reject_write is None:
            return
        self.close_reject()
        reason = error.reason.replace("\t", " ").replace("\n", " ").replace("\r", " ")
        self.reject_write(
            f"%fastxfen\t{error.game}\t{error.line}\t{error.column}\t"
            f"{error.field}\t{reason}\n".encode("utf-8", "replace")
        )
        self.reject_more(game)

    def reject_more(self, data) -> None:
        if self.reject_write is not None and len(data):
            self.reject_write(data)
            self._reject_open = data[-1] != 10

    def close_reject(self) -> None:
        if self._reject_open:
            self.reject_write(b"\n")
            self._reject_open = False


def stream_pgn(
    blocks: Iterable[bytes],
    write: Callable[[Any], None],
    *,
    castling: str = "xfen",
    en_passant: str = "xfen",
    errors: str = "raise",
    select: Optional[str] = None,
    threads: Optional[int] = None,
    reject: Optional[Callable[[bytes], None]] = None,
    spill: int = 4 * DEFAULT_CHUNK,
    max_header: int = MAX_HEADER,
    progress: Optional[Callable[[], None]] = None,
    prefetch: Optional[Callable[[Iterator], Iterator]] = None,
) -> PgnStats:
    """Normalize the FEN tags of the PGN text that ``blocks`` (bytes-likes of
    any size) make up, calling ``write`` with the output in order.

    ``reject`` gets the rejected games (every one under ``errors="coerce"``
    and ``"ignore"``, the one that stops an ``errors="raise"`` run), each as a
    ``%fastxfen`` line then its original bytes.  Under ``errors="raise"`` a
    rejected FEN tag raises PgnError once the games before it are written.

    A game longer than ``spill`` bytes is not held in memory: its header
    section is edited, the rest is passed on (or dropped) as it is read.  A
    header section longer than ``max_header`` raises PgnFormatError.

    ``prefetch``, if given, wraps the iterator of cut chunks (e.g. to produce
    them in a thread of its own, as the command line does, so that reading
    and finding the lines of one chunk overlap the editing of the previous
    one).  The arguments given to ``write`` and ``reject`` must not be kept
    past the call (copy them): they may be views of a reused buffer.
    """
    editor = _Editor(castling, en_passant, errors, select, threads)
    sink = _Sink(write, reject)
    items = _split(iter(blocks), select == "standard", spill, max_header, editor.stats)
    if prefetch is not None:
        items = prefetch(items)
    try:
        fate = "write"
        stop = None
        for item in items:
            if item[0] == "rest":  # more of the last game of the last chunk
                editor.lines += item[1].count(b"\n")
                if fate in ("write", "both"):
                    sink.out(item[1])
                if fate in ("reject", "both"):
                    sink.reject_more(item[1])
            elif stop is not None:  # the stopping game is in the rejects whole
                break
            elif item[0] == "chunk":
                _, buf, scan, cut = item
                outcome = editor.chunk(buf, scan, cut)
                _deliver(outcome, sink)
                fate, stop = outcome.last_fate, outcome.stop
            else:  # "copy": a byte-order mark
                sink.out(item[1])
            item = buf = scan = None  # let the chunk go before the next one is made
            if progress is not None:
                progress()
        sink.close_reject()
        if stop is not None:
            raise stop
    except (PgnError, PgnFormatError) as exc:
        exc.stats = editor.stats  # what was done before the run stopped
        raise
    finally:
        editor.stats.bytes_written = sink.written
        close = getattr(items, "close", None)
        if close is not None:
            close()
    return editor.stats


def _split(source: Iterator, variants: bool, spill: int, max_header: int, stats: PgnStats):
    """Cut the text into chunks of whole games: yields ("chunk", buf, scan,
    cut) for buf[:cut], ("rest", bytes) for more of the last game of the last
    chunk (a game longer than ``spill``), and ("copy", bytes)."""
    carry = b""
    started = False
    eof = False
    while not eof:
        block = next(source, None)
        if block is None:
            eof = True
            buf = carry
        else:
            if not isinstance(block, bytes):
                block = bytes(block)
            stats.bytes_read += len(block)
            buf = carry + block if carry else block
        carry = b""
        if not started:
            if len(buf) < len(_BOM) and not eof:
                carry = buf
                continue
            started = True
            if buf[:3] == _BOM:
                yield ("copy", buf[:3])
                buf = buf[3:]
        if not buf:
            continue
        scan = _Scan(buf, variants)
        if eof:
            cut = len(buf)
        else:
            cut = int(scan.starts[-1]) if len(scan.starts) else 0
        if cut > 0:
            yield ("chunk", buf, scan, cut)
            carry = buf[cut:]
        elif len(buf) >= spill:
            carry = yield from _skim(source, buf, scan, variants, max_header, stats)
            if carry is None:
                return
        else:
            carry = buf


def _skim(
    source: Iterator, buf: bytes, scan: _Scan, variants: bool, max_header: int, stats: PgnStats
):
    """A game (or bytes before the first game) longer than the spill size:
    yield its header section as a chunk, then the rest as it is read until
    the next game starts.  Returns the text from that game start on, or None
    at the end of the input."""
    header_end = scan.end_of_first_header()
    while header_end < 0:  # the header section goes on: read on, within reason
        if len(buf) > max_header:
            raise PgnFormatError(
                f"a header section longer than {max_header} bytes "
                f"(after {stats.bytes_read:,} bytes); not PGN"
            )
        block = next(source, None)
        if block is None:
            yield ("chunk", buf, scan, len(buf))
            return None
        stats.bytes_read += len(block)
        buf = buf + bytes(block)
        scan = _Scan(buf, variants)
        if len(scan.starts) > 1:
            return buf  # a second [Event tag started a game: back to whole chunks
        header_end = scan.end_of_first_header()
    yield ("chunk", buf, scan, header_end)
    rest = buf[header_end:]
    inside = False
    after_tag = False  # whether the line before ``rest`` is a tag line
    while True:
        end = rest.rfind(b"\n") + 1
        found, inside = _walk(rest, 0, end, inside, True, after_tag) if end else (-1, inside)
        if (
            found < 0
            and not inside
            and rest[end : end + 1] == b"["
            and not _follows_tag(rest, end, after_tag)
        ):
            found = end  # the last, unfinished line is a tag line: a game starts
        upto = found if found >= 0 else end
        if found < 0 and end:
            after_tag = _follows_tag(rest, end, after_tag)
        if upto:
            yield ("rest", rest[:upto])
        if found >= 0:
            return rest[found:]
        rest = rest[upto:]
        block = next(source, None)
        if block is None:
            if rest:
                yield ("rest", rest)
            return None
        stats.bytes_read += len(block)
        rest = rest + bytes(block)


def _deliver(outcome: _Outcome, sink: _Sink) -> None:
    for piece in outcome.pieces:
        sink.out(piece)
    for error, game in outcome.rejects:
        sink.reject(error, game)


def normalize_pgn(
    data,
    *,
    castling: str = "xfen",
    en_passant: str = "xfen",
    errors: str = "raise",
    select: Optional[str] = None,
    threads: Optional[int] = None,
    rejects: Optional[list] = None,
) -> bytes:
    """The PGN text ``data`` (bytes-like) with every FEN tag normalized.

    Every byte other than the FEN tag values is kept, except that a game
    with a FEN tag but no SetUp tag gets ``[SetUp "1"]`` before its first FEN
    tag, and that ``select="standard"`` / ``"setup"`` keeps only the games
    without / with a FEN tag.  A rejected FEN tag raises PgnError
    (``errors="raise"``), drops its game (``"coerce"``; with a ``rejects``
    list, ``(PgnError, game bytes)`` is appended to it) or leaves its game
    unchanged (``"ignore"``).
    """
    parts: list = []
    editor = _Editor(castling, en_passant, errors, select, threads)
    buf = bytes(data)
    editor.stats.bytes_read = len(buf)
    scan = editor.scan(buf)
    if buf[:3] == _BOM:
        parts.append(_BOM)
        buf = buf[3:]
        scan = editor.scan(buf)
    outcome = editor.chunk(buf, scan, len(buf))
    parts.extend(bytes(p) for p in outcome.pieces)
    if rejects is not None:
        rejects.extend((error, bytes(game)) for error, game in outcome.rejects)
    if outcome.stop is not None:
        raise outcome.stop
    return b"".join(parts)


# ------------------------------------------------------------------ command line


def run_command(args) -> int:
    """``fastxfen pgn``: the command-line tool's subcommand (see cli.py): the
    file helpers, progress bar and exit statuses are the other commands'."""
    import contextlib

    from fastxfen import cli

    stats = None
    stopped = None
    with contextlib.ExitStack() as stack:
        source = cli.Input(args.input, stack)
        if source.path is None and sys.stdin.isatty() and not args.quiet:
            print("fastxfen: reading PGN from the terminal (end with Ctrl-D)", file=sys.stderr)
        output = cli._open_output(args, stack, binary=False)
        rejects = None
        if args.rejects:
            rejects = cli.Output(args.rejects)
            stack.callback(rejects.close)
        progress = cli.Progress(not args.quiet, source.size)
        stack.callback(progress.close)
        size = args.chunk_size
        try:
            stats = stream_pgn(
                iter(lambda: source.read(size), b""),
                output.write,
                castling=args.castling,
                en_passant=args.en_passant,
                errors=args.errors,
                select=args.select,
                threads=args.threads,
                reject=rejects.write if rejects is not None else None,
                spill=4 * size,
                progress=lambda: progress.to(source.position()),
                # (not for stdin: a reader thread blocked on it at exit can
                # abort the interpreter when a run stops early)
                prefetch=cli.prefetch if source.path is not None else None,
            )
        except PgnError as exc:
            stopped, stats = exc, exc.stats
        except PgnFormatError as exc:
            raise cli.CliError(f"{source.name}: {exc}") from None
    # Everything is written and closed before reporting.
    if not args.quiet:
        print(stats.summary(args.errors, stopped), file=sys.stderr)
    if stopped is not None:
        print(
            f"fastxfen: error: game {stopped.game}, line {stopped.line}: "
            f"{stopped.location}: {stopped.reason}",
            file=sys.stderr,
        )
        if not args.quiet:
            print(
                "fastxfen: --errors raise stops at the first rejected FEN tag; --errors "
                "coerce drops its game and goes on, and --rejects FILE keeps the dropped "
                "games",
                file=sys.stderr,
            )
        return cli.EXIT_FAILED
    return cli.EXIT_REJECTED if stats.rejected else cli.EXIT_OK
