"""A plain-Python model of ``fastxfen._pgn.scan``, written from the rules of
docs/pgn.md: the text is split into lines, and each line is looked at whole
(regular expressions for the tag lines).  Slow and simple; the differential
tests and the fuzz harness compare the C scanner with it.

Nothing here imports fastxfen.
"""

import re

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


def standard_variant(line: bytes, names) -> bool:
    match = VARIANT_LINE.match(line.rstrip(b"\r"))
    return match is not None and match.group(1).strip().lower() in names


def scan(text: bytes, variants=None, inside=False, after_tag=False) -> dict:
    """What ``_pgn.scan(text, variants, inside, after_tag)`` finds, as a dict
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
