"""The one plain-Python model of docs/pgn.md, written from the rules of that
page: the text is split into lines, and each line is looked at whole
(regular expressions for the tag lines).  Slow and simple.

* :func:`scan` is what ``fastxfen._pgn.scan`` finds in a text: games, header
  tags, FEN value spans, line numbers, comment state (tests/test_pgn_scan.py
  and the fuzz harness compare the C scanner with it);
* :func:`normalize` is what ``fastxfen.pgn`` makes of a whole file: the games
  as :func:`scan` finds them, each FEN value normalized by
  ``fastxfen.normalize`` (the FEN rules are modelled in models/semantics.py),
  SetUp tags added, games selected, rejected and counted (tests/test_pgn.py
  compares the streaming implementation with it).
"""

import re

import fastxfen as fx
from fastxfen import pgn

COLUMNS = ("at", "value", "value_end", "content_end", "crlf", "game", "line")
FEN_LINE = re.compile(rb'\[FEN[ \t]*"(.*)"\][ \t]*\Z', re.S)
VARIANT_LINE = re.compile(rb'\[Variant[ \t]*"(.*)"\][ \t]*\Z', re.S)


def names_tag(line: bytes, name: bytes) -> bool:
    """Whether the line starts with ``[name`` then a blank or a quote."""
    head = b"[" + name
    return line.startswith(head) and line[len(head) : len(head) + 1] in (b" ", b"\t", b'"')


def comment_open_after(line: bytes, inside: bool) -> bool:
    """Whether a ``{`` comment is open after a line that is not a header
    line (rule 6 of docs/pgn.md)."""
    if not inside and line[:1] in (b"[", b"%"):
        return False
    for byte in line:
        if inside:
            inside = byte != ord("}")
        elif byte == ord(";"):
            return False
        elif byte == ord("{"):
            inside = True
    return inside


STANDARD_NAMES = frozenset(name.encode("latin-1") for name in pgn.STANDARD_VARIANTS)


def standard_variant(line: bytes, names) -> bool:
    match = VARIANT_LINE.match(line.rstrip(b"\r"))
    return match is not None and match.group(1).strip().lower() in names


def scan(text: bytes, variants=None, inside=False, after_tag=False) -> dict:
    """What ``_pgn.scan(text, variants, inside=, after_tag=)`` finds, as a dict
    of plain lists and ints."""
    names = set(variants) if variants is not None else None
    result = dict(
        starts=[],
        start_lines=[],
        fen=[],
        setup_games=[],
        odd_variant_games=[],
        newlines=text.count(b"\n"),
        header_end=-1,
        header_end_line=-1,
    )
    pieces = text.split(b"\n")
    if pieces[-1] == b"":
        pieces.pop()  # the text ends with a newline (or is empty)
    in_header = has_event = False
    game = -1
    pos = 0
    for number, line in enumerate(pieces):
        has_newline = pos + len(line) < len(text)
        is_tag = line.startswith(b"[")
        event = names_tag(line, b"Event")
        if is_tag and in_header and not (event and has_event):
            header = True  # a tag line after the game's first line
        elif is_tag and (in_header or not (inside or after_tag)):
            header = True  # a game starts
            game += 1
            result["starts"].append(pos)
            result["start_lines"].append(number)
            in_header, has_event = True, False
        else:
            header = in_header = False
        if header:
            has_event = has_event or event
            if names_tag(line, b"FEN"):
                crlf = has_newline and line.endswith(b"\r")
                content = line[:-1] if crlf else line
                match = FEN_LINE.match(content)
                span = (pos + match.start(1), pos + match.end(1)) if match else (-1, -1)
                result["fen"].append((pos, *span, pos + len(content), int(crlf), game, number))
            elif names_tag(line, b"SetUp"):
                result["setup_games"].append(game)
            elif (
                names is not None
                and names_tag(line, b"Variant")
                and not standard_variant(line, names)
            ):
                result["odd_variant_games"].append(game)
        else:
            inside = comment_open_after(line, inside)
        if not is_tag and result["header_end"] < 0:
            result["header_end"], result["header_end_line"] = pos, number
        after_tag = is_tag
        pos += len(line) + 1
    result["inside"], result["after_tag"] = inside, after_tag
    return result


def as_dict(scan_result) -> dict:
    """A ``_pgn.Scan`` in the form ``scan`` returns."""
    out = {
        key: getattr(scan_result, key).tolist()
        for key in ("starts", "start_lines", "setup_games", "odd_variant_games")
    }
    out["fen"] = [tuple(row) for row in scan_result.fen.tolist()]
    for key in ("newlines", "header_end", "header_end_line"):
        out[key] = getattr(scan_result, key)
    out["inside"], out["after_tag"] = bool(scan_result.inside), bool(scan_result.after_tag)
    return out


def normalize(data: bytes, castling="xfen", en_passant="xfen", errors="raise", select=None):
    """(output, rejects, stop, stats) of normalizing the PGN text ``data``:
    rejects is a list of (PgnError, the game's text), stop the error that
    ends the run (``errors="raise"``) or None."""
    bom = data[:3] == b"\xef\xbb\xbf"
    body = data[3:] if bom else data
    lines = body.split(b"\n")
    lines = [line + b"\n" for line in lines[:-1]] + ([lines[-1]] if lines[-1] else [])
    found = scan(body, STANDARD_NAMES)
    bounds = found["start_lines"] + [len(lines)]
    out = ([data[:3]] if bom else []) + lines[: bounds[0]]
    rejects = []
    stop = None
    stats = dict(games=0, written=0, rejected=0, skipped=0, fen_tags=0, setups=0)
    for g, first in enumerate(found["start_lines"]):
        game = lines[first : bounds[g + 1]]
        fens = [row for row in found["fen"] if row[5] == g]
        stats["games"] += 1
        if select == "setup" and not fens:
            stats["skipped"] += 1
            continue
        if select == "standard" and (fens or g in found["odd_variant_games"]):
            stats["skipped"] += 1
            continue
        new_game = list(game)
        failure = None
        for at, value, value_end, content_end, _crlf, _game, number in fens:
            line = game[number - first]
            content = line[: content_end - at]
            if value < 0:
                head = re.match(rb"\[FEN[ \t]*", content).end()
                if content[head : head + 1] == b'"':
                    where = (len(content.rstrip(b" \t")), "tag", 'the FEN tag does not end with "]')
                else:
                    where = (head, "tag", "expected a quoted value after [FEN")
            else:
                start, end = value - at, value_end - at
                try:
                    text = fx.normalize(
                        content[start:end].decode("latin-1"),
                        castling=castling,
                        en_passant=en_passant,
                    )
                except fx.FenError as exc:
                    where = (start + exc.column, exc.field, exc.reason)
                else:
                    new_game[number - first] = (
                        content[:start] + text.encode() + content[end:] + line[len(content) :]
                    )
                    continue
            if failure is None:
                failure = pgn.PgnError(g + 1, number + 1, *where)
        original = b"".join(game)
        if failure is not None:
            stats["rejected"] += 1
            rejects.append((failure, original))
            if errors == "raise":
                stop = failure
                break
            if errors == "ignore":
                stats["written"] += 1
                out.append(original)
            continue
        stats["written"] += 1
        stats["fen_tags"] += len(fens)
        if fens and g not in found["setup_games"]:
            i = fens[0][6] - first
            ending = b"\r\n" if game[i].endswith(b"\r\n") else b"\n"
            new_game.insert(i, b'[SetUp "1"]' + ending)
            stats["setups"] += 1
        out.append(b"".join(new_game))
    return b"".join(out), rejects, stop, stats
