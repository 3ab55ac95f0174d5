"""FEN tags of PGN files, normalized in place.

A PGN file is streamed in large chunks cut at game boundaries.  Each chunk is
read by ONE pass of C code (fastxfen._pgn.scan: game starts, the FEN, SetUp
and Variant tags of the header sections and the value span of each FEN tag,
with line numbers), the values of its FEN tags are normalized by ONE bulk
call, and the output is assembled by ONE C call that copies the chunk with
the new values, the added SetUp tags and the dropped games spliced in.
Nothing is decoded to ``str`` and no Python code runs per line, per game or
per FEN tag, except for the rare constructs below (rejected tags, malformed
tags) and for games longer than the spill size.

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

import re
import time
from typing import Any, Callable, Iterable, Iterator, Literal, Optional, Tuple, Union, overload

import numpy as np

from fastxfen import _bulk, _options, _pgn
from fastxfen._errors import FenError
from fastxfen._options import (
    CHUNK_ROWS_PER_THREAD,
    ErrorsMode,
    PgnSelect,
    TextOptions,
    Threads,
)

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

_BOM = b"\xef\xbb\xbf"
_FEN_HEAD = re.compile(rb"\[FEN[ \t]*")


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
        return (
            type(self),
            (self.game, self.line, self.column, self.field, self.reason),
            vars(self),
        )


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
        text += f" in {seconds:.2f} s"
        if seconds >= 1.0:  # the rate of a shorter run measures the start
            text += f" ({self.bytes_read / seconds / 1e6:,.1f} MB/s)"
        return text

    def __repr__(self) -> str:
        return (
            "PgnStats("
            + ", ".join(f"{k}={v}" for k, v in vars(self).items() if k != "started")
            + ")"
        )


# ------------------------------------------------------------------ scanning

#: Columns of ``_pgn.Scan.fen`` (one row per FEN tag of a header section).
AT, VALUE, VALUE_END, CONTENT_END, CRLF, GAME, LINE = range(len(_pgn.FEN_COLUMNS))
_STANDARD_NAMES = sorted(name.encode("latin-1") for name in STANDARD_VARIANTS)


def _scan(buf, *, variants: bool) -> _pgn.Scan:
    """One C pass over ``buf`` (see fastxfen._pgn.scan); with ``variants``,
    the games with a Variant tag not naming standard chess are listed."""
    return _pgn.scan(buf, _STANDARD_NAMES if variants else None)


def _lines_before(scan: _pgn.Scan, buf, cut: int) -> int:
    """The newlines in buf[:cut], for a cut at the end, at a game start or
    at the end of the first header section."""
    if cut >= scan.n:
        return scan.newlines
    k = int(np.searchsorted(scan.starts, cut))
    if k < len(scan.starts) and scan.starts[k] == cut:
        return int(scan.start_lines[k])
    if cut == scan.header_end:
        return scan.header_end_line
    return bytes(buf[:cut]).count(b"\n")


def _before(values: np.ndarray, limit: int) -> np.ndarray:
    """The values below ``limit`` of a sorted array."""
    return values[: np.searchsorted(values, limit)]


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
    """Normalizes the FEN tags of chunks of whole games: their text as
    ``text`` says, a rejected tag as ``errors`` says, the games ``select``
    keeps, the values over ``threads``."""

    def __init__(
        self, text: TextOptions, errors: ErrorsMode, select: PgnSelect, threads: Threads
    ) -> None:
        self.text = text
        self.errors = errors
        self.select = select
        self.threads = threads
        self.stats = PgnStats()
        self.lines = 0  # lines before the current buffer

    @classmethod
    def of(
        cls, castling: Any, en_passant: Any, errors: Any, select: Any, threads: Any
    ) -> "_Editor":
        """An editor of the options of stream_pgn and normalize_pgn, each checked."""
        text = TextOptions(castling, en_passant)
        mode = _options.errors(errors)
        return cls(text, mode, _options.pgn_select(select), Threads(threads))

    def scan(self, buf) -> _pgn.Scan:
        return _scan(buf, variants=self.select is PgnSelect.STANDARD)

    def chunk(self, buf, scan: _pgn.Scan, cut: int) -> _Outcome:
        """Edit buf[:cut], whose games are whole (except the last one when a
        long game is being skimmed)."""
        result = _Outcome()
        stats = self.stats
        starts = _before(scan.starts, cut)
        games = len(starts)
        if not games:
            result.pieces.append(memoryview(buf)[:cut])
            self.lines += _lines_before(scan, buf, cut)
            return result

        fen = scan.fen[: np.searchsorted(scan.fen[:, GAME], games)]
        # Every FEN tag is normalized but under select="standard", which
        # keeps no game with one; a malformed tag line is a null row.
        failures: list = []  # (fen index, column in line, field, reason, code)
        rep = rep_ends = None
        if len(fen) and self.select is not PgnSelect.STANDARD:
            value_start, value_end = fen[:, VALUE], fen[:, VALUE_END]
            malformed = value_start < 0
            nulls = None
            if malformed.any():
                for k in np.flatnonzero(malformed).tolist():
                    line = bytes(buf[fen[k, AT] : fen[k, CONTENT_END]])
                    failures.append((k, *_malformed(line), None))
                nulls = malformed
                value_start = np.where(malformed, 0, value_start)
                value_end = np.where(malformed, 0, value_end)
            batch = _bulk.spans(buf, value_start, value_end, nulls)
            rep, rep_ends, _ = batch.normalize(
                self.text,
                ErrorsMode.COERCE,
                threads=self.threads.resolve(len(fen), CHUNK_ROWS_PER_THREAD),
                terminators=False,
            )
            for k, error in batch.rejections():
                column = int(value_start[k] - fen[k, AT]) + error.column
                failures.append((k, column, error.field, error.reason, error.code))

        first_failure = {}
        if failures:
            failures.sort(key=lambda failure: failure[0])
            for k, column, field, reason, code in failures:
                g = int(fen[k, GAME])
                if g not in first_failure:
                    first_failure[g] = error = PgnError(
                        stats.games + g + 1,
                        self.lines + int(fen[k, LINE]) + 1,
                        column,
                        field,
                        reason,
                    )
                    error.code = code
        stop_game = games
        if failures and self.errors is ErrorsMode.RAISE:
            stop_game = min(first_failure)
            result.stop = first_failure[stop_game]
        limit = cut if stop_game == games else int(starts[stop_game])
        out, flags, written, fen_tags, setups = _pgn.edit(
            buf,
            cut=cut,
            starts=starts,
            fen=fen,
            setup_games=scan.setup_games,
            odd_variant_games=scan.odd_variant_games,
            failed_games=np.array(sorted(first_failure), np.int64),
            rep=rep,
            rep_ends=rep_ends,
            select=self.select,
            errors=self.errors,
            stop=stop_game,
        )
        if out is not None:
            result.pieces.append(out)
        elif limit:
            result.pieces.append(memoryview(buf)[:limit])

        for g, error in sorted(first_failure.items()):
            if g <= stop_game:
                end = int(starts[g + 1]) if g + 1 < games else cut
                result.rejects.append((error, memoryview(buf)[int(starts[g]) : end]))

        done = min(stop_game + 1, games)
        stats.games += done
        stats.skipped += done - int(np.count_nonzero(flags[:done] & _pgn.KEEP))
        stats.rejected += sum(g < done for g in first_failure)
        stats.written += written
        stats.fen_tags += fen_tags
        stats.setups += setups
        last = games - 1
        if result.stop is not None:
            result.last_fate = "reject" if stop_game == last else "drop"
        elif not flags[last] & _pgn.KEEP:
            result.last_fate = "drop"
        elif last in first_failure:
            result.last_fate = "reject" if self.errors is ErrorsMode.COERCE else "both"
        if result.stop is None:
            self.lines += _lines_before(scan, buf, cut)
        return result


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
    editor = _Editor.of(castling, en_passant, errors, select, threads)
    sink = _Sink(write, reject)
    items = _split(
        iter(blocks), editor.select is PgnSelect.STANDARD, spill, max_header, editor.stats
    )
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


def _immutable(block) -> bytes:
    """The bytes of a block that cannot change under the chunks made of it."""
    return block if isinstance(block, bytes) else bytes(block)


def _join(carry, block) -> bytes:
    """carry + block."""
    block = _immutable(block)
    return b"".join((carry, block)) if len(carry) else block


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
            stats.bytes_read += len(block)
            buf = _join(carry, block)
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
        scan = _scan(buf, variants=variants)
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
    source: Iterator,
    buf: bytes,
    scan: _pgn.Scan,
    variants: bool,
    max_header: int,
    stats: PgnStats,
):
    """A game (or bytes before the first game) longer than the spill size:
    yield its header section as a chunk, then the rest as it is read until
    the next game starts.  Returns the text from that game start on, or None
    at the end of the input."""
    header_end = scan.header_end
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
        buf = b"".join((buf, _immutable(block)))
        scan = _scan(buf, variants=variants)
        if len(scan.starts) > 1:
            return buf  # a second [Event tag started a game: back to whole chunks
        header_end = scan.header_end
    yield ("chunk", buf, scan, header_end)
    rest = bytes(buf[header_end:])
    # The state at the start of ``rest`` (a line that does not start with
    # '['): no comment open, no tag line before it that matters.
    inside = after_tag = False
    while True:
        end = rest.rfind(b"\n") + 1  # the whole lines
        found = -1
        if end:
            lines = _pgn.scan(memoryview(rest)[:end], inside=inside, after_tag=after_tag)
            if len(lines.starts):
                found = int(lines.starts[0])
            inside, after_tag = lines.inside, lines.after_tag
        if found < 0 and not (inside or after_tag) and rest[end : end + 1] == b"[":
            found = end  # the last, unfinished line is a tag line: a game starts
        upto = found if found >= 0 else end
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
        rest = b"".join((rest, _immutable(block)))


def _deliver(outcome: _Outcome, sink: _Sink) -> None:
    for piece in outcome.pieces:
        sink.out(piece)
    for error, game in outcome.rejects:
        sink.reject(error, game)


@overload
def normalize_pgn(
    data: str,
    *,
    castling: Literal["xfen", "shredder"] = ...,
    en_passant: Literal["fen", "xfen", "legal"] = ...,
    errors: Literal["raise", "coerce", "ignore"] = ...,
    select: Optional[Literal["standard", "setup"]] = ...,
    threads: Optional[int] = ...,
    rejects: Optional[list[tuple[PgnError, str]]] = ...,
) -> str: ...
@overload
def normalize_pgn(
    data: Union[bytes, bytearray, memoryview],
    *,
    castling: Literal["xfen", "shredder"] = ...,
    en_passant: Literal["fen", "xfen", "legal"] = ...,
    errors: Literal["raise", "coerce", "ignore"] = ...,
    select: Optional[Literal["standard", "setup"]] = ...,
    threads: Optional[int] = ...,
    rejects: Optional[list[tuple[PgnError, bytes]]] = ...,
) -> bytes: ...
def normalize_pgn(
    data: Union[str, bytes, bytearray, memoryview],
    *,
    castling: Literal["xfen", "shredder"] = "xfen",
    en_passant: Literal["fen", "xfen", "legal"] = "xfen",
    errors: Literal["raise", "coerce", "ignore"] = "raise",
    select: Optional[Literal["standard", "setup"]] = None,
    threads: Optional[int] = None,
    rejects: Optional[list[Any]] = None,
) -> Any:
    """The PGN text ``data`` with every FEN tag normalized.

    Every byte other than the FEN tag values is kept, except that a game
    with a FEN tag but no SetUp tag gets ``[SetUp "1"]`` before its first FEN
    tag, and that ``select`` keeps only some games.  The whole text is held
    in memory; ``stream_pgn`` (and ``fastxfen pgn``) stream files of any size.

    Parameters
    ----------
    data : str or bytes-like
        PGN text.  A ``str`` is read as UTF-8 and gives a ``str``; ``bytes``,
        ``bytearray`` or ``memoryview`` give ``bytes``.
    castling : {"xfen", "shredder"}, default "xfen"
        How FEN tags write castling rights, as for ``fastxfen.normalize``.
    en_passant : {"xfen", "fen", "legal"}, default "xfen"
        Which en-passant targets FEN tags keep, as for ``fastxfen.normalize``.
    errors : {"raise", "coerce", "ignore"}, default "raise"
        A rejected FEN tag raises ``PgnError`` ("raise"), drops its game
        ("coerce") or leaves its game unchanged ("ignore").
    select : {None, "standard", "setup"}, default None
        Keep every game (None), only games without a FEN tag ("standard") or
        only games with one ("setup").
    threads : int or None, default None
        Threads for the FEN values, as for ``fastxfen.normalize``.
    rejects : list or None, default None
        With ``errors="coerce"``, ``(PgnError, game)`` is appended to it for
        every dropped game (``game`` of the same type as ``data``).

    Returns
    -------
    str or bytes
        The edited text, of the same type as ``data`` (``bytes`` for any
        bytes-like input).

    Raises
    ------
    PgnError
        A FEN tag was rejected under ``errors="raise"``; a ``FenError`` whose
        ``game`` and ``line`` locate the tag.
    ValueError
        An option is not one of its allowed values.

    Examples
    --------
    >>> from fastxfen.pgn import normalize_pgn
    >>> game = '[Event "x"]\\n[FEN "4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1"]\\n\\n*\\n'
    >>> print(normalize_pgn(game), end="")
    [Event "x"]
    [SetUp "1"]
    [FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]
    <BLANKLINE>
    *
    """
    text = isinstance(data, str)
    parts: list[bytes] = []
    editor = _Editor.of(castling, en_passant, errors, select, threads)
    buf = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    editor.stats.bytes_read = len(buf)
    if buf[:3] == _BOM:
        parts.append(_BOM)
        buf = buf[3:]
    outcome = editor.chunk(buf, editor.scan(buf), len(buf))
    parts.extend(bytes(p) for p in outcome.pieces)
    if rejects is not None:
        for error, game in outcome.rejects:
            game = bytes(game)
            rejects.append((error, game.decode("utf-8") if text else game))
    if outcome.stop is not None:
        raise outcome.stop
    out = b"".join(parts)
    return out.decode("utf-8") if text else out
