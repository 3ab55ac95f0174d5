"""``fastxfen pgn`` and fastxfen.pgn: FEN tags of PGN files normalized in place.

The vectorized, chunked implementation is checked against the PGN model
(models/pgn.py), a slow line-by-line reading of the rules of docs/pgn.md, on
hand-made files and on random ones (hypothesis), over many chunk and spill
sizes; and against python-chess for what the FEN values become."""

import gzip
import io
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from models import pgn as pgn_model
from support.compressed import decompress
from support.profiles import examples

import fastxfen as fx
from fastxfen import cli, pgn
from fastxfen.files import pgn_job
from fastxfen.files.progress import Progress

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
C960 = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"
C960_XFEN = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"
# Values that change when normalized (default modes).
CHANGING = [
    E4,  # en passant dropped: no black pawn can take
    C960,  # Shredder castling -> KQkq
    "4k3/8/8/8/8/8/4P3/4K3   w   -   -   005   039",
    "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gkq - 4 11",
    "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
    "8/8/8/2k5/4K3/8/8/8 b KQ - 0 0",
]
BAD = [
    "8/8/8/8/8/8/8 w - - 0 1",
    "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "",
    'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\\"',
    "8/8/8/8/8/8/8/8 x - - 0 1",
    "caf\xe9",
]


def rejects_text(rejects) -> bytes:
    out = []
    for error, game in rejects:
        out.append(
            f"%fastxfen\t{error.game}\t{error.line}\t{error.column}\t{error.field}\t"
            f"{error.reason}\n".encode()
        )
        out.append(game if game.endswith(b"\n") else game + b"\n")
    return b"".join(out)


def run_stream(data: bytes, block: int, spill: int, **options):
    """stream_pgn over blocks of ``block`` bytes: (output, rejects, stop, stats)."""
    out, rej = [], []
    if isinstance(data, bytes):
        blocks = [data[i : i + block] for i in range(0, len(data), block)]
    else:
        blocks = data
    stop = None
    try:
        stats = pgn.stream_pgn(
            blocks,
            lambda d: out.append(bytes(d)),
            reject=lambda d: rej.append(bytes(d)),
            spill=spill,
            **options,
        )
    except pgn.PgnError as exc:
        stop, stats = exc, exc.stats
    return b"".join(out), b"".join(rej), stop, stats


def check(data: bytes, blocks=None, **options):
    """The streamed result, over several block and spill sizes (byte by byte
    for small inputs), is the model's."""
    if blocks is None:
        blocks = (1, 7, 64, 1000, 1 << 20) if len(data) < 4000 else (7, 333, 4096, 1 << 20)
    expected, rejects, stop, stats = pgn_model.normalize(data, **options)
    errors = options.get("errors", "raise")
    for block in blocks:
        for spill in sorted({max(block, 16), 4 * block, 1 << 30}):
            out, rej, got_stop, got = run_stream(data, block, spill, **options)
            where = f"block {block}, spill {spill}"
            assert out == expected, where
            assert rej == rejects_text(rejects if errors != "raise" else rejects[:1]), where
            assert repr(got_stop) == repr(stop), where
            for key, value in stats.items():
                assert getattr(got, key) == value, (where, key)
    if stop is None:
        kept = []
        assert pgn.normalize_pgn(data, rejects=kept, **options) == expected
        assert [(e.game, e.line, g) for e, g in kept] == [(e.game, e.line, g) for e, g in rejects]
    return expected, rejects, stop


# ----------------------------------------------------------------- files


def game(tags, movetext="1. e4 e5 *", nl="\n"):
    lines = [f'[{name} "{value}"]' for name, value in tags]
    return (nl.join(lines) + nl + nl + movetext + nl + nl).encode()


def sample_pgn(nl="\n"):
    return b"".join(
        [
            game([("Event", "one"), ("Site", "?"), ("Result", "*")], nl=nl),
            game([("Event", "two"), ("SetUp", "1"), ("FEN", E4)], "1... e5 *", nl=nl),
            game([("Event", "three"), ("Variant", "Chess960"), ("FEN", C960)], "1. g3 *", nl=nl),
            game([("Event", "four"), ("FEN", START)], "1. e4 { [%clk 0:01:00] } *", nl=nl),
            game([("Event", "five"), ("White", "x")], "1. d4 *", nl=nl),
        ]
    )


def test_sample_file():
    data = sample_pgn()
    out = pgn.normalize_pgn(data)
    assert out == data.replace(E4.encode(), E4.replace("e3", "-").encode()).replace(
        b'[Variant "Chess960"]\n[FEN "' + C960.encode(),
        b'[Variant "Chess960"]\n[SetUp "1"]\n[FEN "' + C960_XFEN.encode(),
    ).replace(b'[FEN "' + START.encode(), b'[SetUp "1"]\n[FEN "' + START.encode())
    check(data)


def test_everything_but_fen_values_and_setup_is_kept():
    rng = random.Random(5)
    parts = []
    for i in range(300):
        tags = [("Event", f"e{i}"), ("Site", 'x [FEN "y"] {z'), ("Result", "1-0")]
        if rng.random() < 0.6:
            if rng.random() < 0.5:
                tags.append(("SetUp", "1"))
            tags.append(("FEN", rng.choice(CHANGING + [START])))
        parts.append(game(tags, rng.choice(["1. e4 1-0", '{ a\n[FEN "q"]\n} 1-0', "1-0"])))
    data = b"".join(parts)
    out = pgn.normalize_pgn(data, castling="shredder")
    # Undo the two kinds of change: the rest is the input, byte for byte.
    values_in = re.findall(rb'^\[FEN "(.*)"\]$', data, re.M)

    def setup_gone(text):
        return re.sub(rb'^\[SetUp "1"\]\n(?=\[FEN )', b"", text, flags=re.M)

    back = setup_gone(out)
    pieces = re.split(rb'(?m)^(\[FEN ")(.*)("\])$', back)
    for k, value in enumerate(values_in):
        if value == b"q":  # in a comment: text, not a tag
            assert pieces[4 * k + 2] == value
            continue
        assert pieces[4 * k + 2] == fx.normalize(value.decode(), castling="shredder").encode()
        pieces[4 * k + 2] = value
    assert b"".join(pieces) == setup_gone(data)
    check(data, castling="shredder")


def test_crlf_file():
    data = sample_pgn("\r\n")
    out = pgn.normalize_pgn(data)
    assert b'[SetUp "1"]\r\n[FEN "' + C960_XFEN.encode() + b'"]\r\n' in out
    assert b"\n" not in out.replace(b"\r\n", b"")
    assert out == pgn.normalize_pgn(data.replace(b"\r\n", b"\n")).replace(b"\n", b"\r\n")
    check(data)
    # a mix of line endings, and no final newline
    mixed = sample_pgn() + game([("Event", "x"), ("FEN", E4)], nl="\r\n").rstrip(b"\r\n")
    check(mixed)


def test_no_fen_tags_is_copied_through():
    data = b"".join(game([("Event", f"g{i}"), ("Result", "*")]) for i in range(50))
    assert pgn.normalize_pgn(data) == data
    out, rej, stop, stats = run_stream(data, 100, 400)
    assert out == data and rej == b"" and stats.games == 50 and stats.fen_tags == 0


def test_escaped_quotes_and_empty_values():
    data = b"".join(
        [
            game([("Event", "a"), ("FEN", START[:10] + '\\"x' + START[10:])]),
            game([("Event", "b"), ("FEN", "")]),
            b'[Event "c"]\n[FEN ""]\n\n*\n\n',
            b'[Event "d"]\n[FEN "' + START.encode() + b'"] \t\n\n*\n\n',
            b'[Event "e"]\n[FEN "' + START.encode() + b'" ]\n\n*\n\n',
        ]
    )
    rejected = []
    out = pgn.normalize_pgn(data, errors="coerce", rejects=rejected)
    assert [(e.game, e.line, e.column, e.field) for e, _ in rejected] == [
        (1, 2, 16, "placement"),
        (2, 7, 6, "fields"),
        (3, 12, 6, "fields"),
        (5, 22, 6 + len(START) + 3, "tag"),
    ]  # '" ]' does not close the value
    assert out == b'[Event "d"]\n[SetUp "1"]\n[FEN "' + START.encode() + b'"] \t\n\n*\n\n'
    check(data, errors="coerce")
    check(data, errors="ignore")
    check(data)


def test_malformed_fen_tags():
    data = b"".join(
        [
            b'[Event "a"]\n[FEN ' + START.encode() + b"]\n\n*\n\n",
            b'[Event "b"]\n[FEN "' + START.encode() + b"\n\n*\n\n",
            b'[Event "c"]\n[FEN\t"' + START.encode() + b'"]\t \n\n*\n\n',
            b'[Event "d"]\n[FEN"' + START.encode() + b'"]\n\n*\n\n',
            b'[Event "e"]\n[FENCE "x"]\n[Fen "y"]\n\n*\n\n',
        ]
    )
    rejected = []
    out = pgn.normalize_pgn(data, errors="coerce", rejects=rejected)
    assert [(e.game, e.column, e.field, e.reason) for e, _ in rejected] == [
        (1, 5, "tag", "expected a quoted value after [FEN"),
        (2, 6 + len(START), "tag", 'the FEN tag does not end with "]'),
    ]
    assert out.count(b"[SetUp") == 2 and out.endswith(b'[FENCE "x"]\n[Fen "y"]\n\n*\n\n')
    check(data, errors="coerce")


def test_fen_text_in_movetext_is_not_a_tag():
    bad = b'[FEN "not a position"]'
    data = b"".join(
        [
            b'[Event "a"]\n\n1. e4 { see ' + bad + b" } e5 ; " + bad + b"\n",
            b"{ a comment over lines\n" + bad + b'\n[Event "x"]\n} 2. Nf3 *\n\n',
            b"% escape " + bad + b"\n",
            b'[Event "b"]\n[FEN "' + E4.encode() + b'"]\n\n1... e5 { [%clk 0:01:00] } *\n\n',
            b'[Event "c"]\n\n1. e4 ; a { in a line comment\n',
            b'[Event "d"]\n[FEN "' + E4.encode() + b'"]\n\n*\n',
        ]
    )
    out = pgn.normalize_pgn(data)  # errors="raise": the bad text is never read as a tag
    assert out.count(bad) == 4
    assert out.count(b"[SetUp") == 2
    expected, _, stop = check(data)
    assert stop is None
    out, _, _, stats = run_stream(data, 5, 20)
    assert stats.games == 4


def test_unclosed_comment_swallows_the_next_headers():
    data = b'[Event "a"]\n\n1. e4 { never closed\n\n[Event "b"]\n[FEN "bad"]\n\n*\n\n}\n\n' + game(
        [("Event", "c"), ("FEN", E4)]
    )
    out, _, stop, stats = run_stream(data, 10, 40)
    assert stop is None and stats.games == 2 and stats.fen_tags == 1
    check(data)


def test_files_without_blank_lines():
    data = b"".join(f'[Event "g{i}"]\n[FEN "{E4}"]\n1... e5 *\n'.encode() for i in range(20))
    assert b"\n\n" not in data
    out, _, _, stats = run_stream(data, 50, 200)
    assert stats.games == 20 and stats.setups == 20
    check(data)
    # header sections only, no blank lines, no movetext: games split at [Event
    headers = b"".join(f'[Event "g{i}"]\n[FEN "{E4}"]\n'.encode() for i in range(20))
    out, _, _, stats = run_stream(headers, 30, 100)
    assert stats.games == 20 and out.count(b"[SetUp") == 20
    check(headers)


def test_bytes_before_the_first_game_and_bom():
    data = b"\xef\xbb\xbf% made by hand\n\n" + sample_pgn()
    out = pgn.normalize_pgn(data)
    assert out.startswith(b"\xef\xbb\xbf% made by hand\n\n[Event")
    check(data)
    data = b"\xef\xbb\xbf" + sample_pgn()
    assert pgn.normalize_pgn(data).count(b"[SetUp") == 3  # one was there
    check(data)
    check(b"1. e4 e5 *\n\n" + sample_pgn())
    check(b"")
    check(b"\n\n")
    check(b"no games at all")


def test_long_games_are_skimmed():
    """A game longer than the spill size is not held in memory whole, with the
    same result."""
    long_moves = " ".join(f"{i}. e4 {{ [%clk 0:01:00] }} e5" for i in range(1, 400))
    data = b"".join(
        [
            game([("Event", "a"), ("FEN", E4)], long_moves + ' {\n[Event "no"]\n} *'),
            game([("Event", "b"), ("FEN", "bad")], long_moves),
            game([("Event", "c"), ("FEN", C960)], long_moves),
            game([("Event", "d")], long_moves),
        ]
    )
    for errors in ("coerce", "ignore"):
        check(data, blocks=(100, 4096), errors=errors)
        check(data, blocks=(100,), errors=errors, select="setup")
        check(data, blocks=(100,), errors=errors, select="standard")
    check(data, blocks=(100,))
    check(long_moves.encode() + b"\n\n" + data, blocks=(100,), errors="coerce")


def test_header_section_too_long():
    data = b'[Event "a"]\n' + b'[Site "x"]\n' * 100
    with pytest.raises(pgn.PgnFormatError, match="header section longer than 300"):
        pgn.stream_pgn(
            [data[i : i + 50] for i in range(0, len(data), 50)],
            lambda d: None,
            spill=100,
            max_header=300,
        )
    out = []
    pgn.stream_pgn([data], out.append, spill=100)
    assert b"".join(out) == data


@pytest.mark.parametrize("errors", ["raise", "coerce", "ignore"])
def test_errors_game_and_line_numbers(errors):
    parts = []
    for i in range(40):
        value = BAD[i % len(BAD)] if i % 7 == 3 else CHANGING[i % len(CHANGING)]
        parts.append(
            game([("Event", f"g{i}"), ("Round", str(i)), ("FEN", value)], "1. e4\n2. d4 *")
        )
    data = b"".join(parts)
    expected, rejects, stop = check(data, errors=errors)
    # each game is 7 lines: the FEN tag of game g (1-based) is on line 7 * (g - 1) + 3
    games = [e.game for e, _ in rejects]
    assert games == ([4] if errors == "raise" else [4, 11, 18, 25, 32, 39])
    assert [e.line for e, _ in rejects] == [7 * (g - 1) + 3 for g in games]
    if errors == "raise":
        assert stop.game == 4 and expected == pgn.normalize_pgn(b"".join(parts[:3]))
    elif errors == "coerce":
        assert expected.count(b"[Event") == 34
    else:
        assert expected.count(b"[Event") == 40
        for _, original in rejects:
            assert original in expected


@pytest.mark.parametrize("select", ["standard", "setup"])
def test_select(select):
    data = b"".join(
        [
            game([("Event", "a")]),
            game([("Event", "b"), ("FEN", E4)]),
            game([("Event", "c"), ("Variant", "Chess960")]),
            game([("Event", "d"), ("Variant", "Standard")]),
            game([("Event", "e"), ("Variant", "Chess960"), ("FEN", C960)]),
            game([("Event", "f"), ("FEN", "bad")]),
            game([("Event", "g"), ("Variant", "Atomic")]),
        ]
    )
    out = pgn.normalize_pgn(data, select=select, errors="coerce")
    events = re.findall(rb'\[Event "(.)"\]', out)
    assert events == ([b"a", b"d"] if select == "standard" else [b"b", b"e"])
    # standard: games with FEN tags are left out unread, so the bad one is no error
    if select == "standard":
        assert pgn.normalize_pgn(data, select=select) == out
    check(data, select=select, errors="coerce")
    check(data, select=select)


def test_python_chess_reads_the_output():
    chess_pgn = pytest.importorskip("chess.pgn")
    data = sample_pgn() + game([("Event", "x"), ("FEN", CHANGING[3])])
    out = pgn.normalize_pgn(data, en_passant="legal")
    read = io.StringIO(out.decode())
    fens = []
    while True:
        headers = chess_pgn.read_headers(read)
        if headers is None:
            break
        if "FEN" in headers:
            assert headers["SetUp"] == "1"
            board = headers.board()
            fens.append(headers["FEN"])
            assert (
                board.fen(en_passant="legal") == headers["FEN"]
                or board.chess960
                and board.fen(en_passant="legal", shredder=False) == headers["FEN"]
            )
    assert len(fens) == 4


def test_pgn_error():
    error = pgn.PgnError(3, 17, 6, "placement", "rank 7 covers 9 squares, expected 8")
    assert (
        str(error) == "game 3, line 17, column 6 (placement): rank 7 covers 9 squares, expected 8"
    )
    assert isinstance(error, fx.FenError) and error.index == 2
    import pickle

    assert repr(pickle.loads(pickle.dumps(error))) == repr(error)


def test_bad_options():
    with pytest.raises(ValueError, match="errors"):
        pgn.normalize_pgn(b"", errors="drop")
    with pytest.raises(ValueError, match="select"):
        pgn.normalize_pgn(b"", select="960")
    with pytest.raises(ValueError):
        pgn.normalize_pgn(b"", castling="fen")
    with pytest.raises(ValueError, match="threads"):
        pgn.normalize_pgn(b"", threads=0)


# ----------------------------------------------------------------- random files


LINE_PARTS = st.sampled_from(
    [
        '[Event "e"]',
        '[Site "s"]',
        '[SetUp "1"]',
        '[Variant "Chess960"]',
        '[Variant "Atomic"]',
        '[White "a {"]',
        '[Black "b }"]',
        '[FEN "%s"]',
        '[FEN "%s" ]',
        '[FEN\t"%s"]',
        '[FEN "%s"',
        "[FEN %s]",
        "1. e4 e5",
        "{ comment",
        "} closed",
        "{ [%clk 0:01:00] }",
        "; line {",
        "% escape {",
        "*",
        "",
        " ",
        '1. e4 { [FEN "x"] } *',
        '[FEN "x"',
        "[",
        "[Event",
        '[Event""]',
    ]
)
VALUES = st.sampled_from(CHANGING + BAD + [START, C960_XFEN])


@st.composite
def pgn_texts(draw):
    parts = draw(
        st.lists(st.tuples(LINE_PARTS, VALUES, st.sampled_from(["\n", "\r\n"])), max_size=40)
    )
    text = "".join(
        part.replace("%s", value) + nl if "%s" in part else part + nl for part, value, nl in parts
    )
    if draw(st.booleans()):
        text = text.rstrip("\r\n")
    return text.encode("utf-8")


@settings(max_examples=examples(200))
@given(
    pgn_texts(),
    st.sampled_from(["raise", "coerce", "ignore"]),
    st.sampled_from([None, "standard", "setup"]),
)
def test_random_files_match_the_reference(data, errors, select):
    check(data, blocks=(1, 13, 1 << 20), errors=errors, select=select)


# ----------------------------------------------------------------- command line


def run(argv):
    return cli.main([str(a) for a in argv])


def test_cli_matches_library_over_chunk_sizes(tmp_path, capsys):
    rng = random.Random(7)
    parts = []
    for i in range(200):
        tags = [("Event", f"g{i}"), ("Site", "?"), ("Round", str(i))]
        if rng.random() < 0.5:
            tags.append(("FEN", rng.choice(CHANGING + [START] + BAD[:2])))
        parts.append(
            game(
                tags,
                rng.choice(["1. e4 *", "1. e4 { [%clk 1] }\n2. d4 *"]),
                nl=rng.choice(["\n", "\r\n"]),
            )
        )
    data = b"".join(parts)
    src = tmp_path / "in.pgn"
    src.write_bytes(data)
    expected, rejects, _, _ = pgn_model.normalize(
        data, errors="coerce", castling="shredder", en_passant="legal"
    )
    for chunk in ("17", "100", "1K", "8M"):
        out, rej = tmp_path / f"out{chunk}.pgn", tmp_path / f"rej{chunk}.pgn"
        status = run(
            [
                "pgn",
                src,
                "-o",
                out,
                "--errors",
                "coerce",
                "--rejects",
                rej,
                "--chunk-size",
                chunk,
                "--castling",
                "shredder",
                "--en-passant",
                "legal",
            ]
        )
        assert status == 1
        assert out.read_bytes() == expected
        assert rej.read_bytes() == rejects_text(rejects)
        err = capsys.readouterr().err
        assert (
            f"200 games read, {200 - len(rejects)} written, {len(rejects)} rejected (dropped)"
            in err
            # the rate for runs of a second or more (test_cli_misc)
            and re.search(r" in \d+\.\d\d s( \([\d.,]+ MB/s\))?\n", err)
        )


def test_cli_raise_and_ignore(tmp_path, capsys):
    data = b"".join(
        game([("Event", f"g{i}"), ("FEN", BAD[1] if i == 5 else E4)]) for i in range(10)
    )
    src = tmp_path / "in.pgn"
    src.write_bytes(data)
    out, rej = tmp_path / "out.pgn", tmp_path / "rej.pgn"
    assert run(["pgn", src, "-o", out, "--rejects", rej, "--chunk-size", "50"]) == 2
    err = capsys.readouterr().err
    assert (
        "fastxfen: error: game 6, line 27: column 24 (placement): rank 6 covers 9 "
        "squares, expected 8" in err
    )
    assert "stopped at game 6" in err
    assert not out.exists() and not rej.exists()
    # stdout: the games before the bad one; the rejects file is not published
    assert run(["pgn", src, "--rejects", rej, "--chunk-size", "50", "-q"]) == 2
    assert capsys.readouterr().out.encode() == pgn.normalize_pgn(
        data[: data.index(b'[Event "g5"]')]
    )
    assert not rej.exists()
    assert run(["pgn", src, "-o", out, "--rejects", "-", "--chunk-size", "50", "-q"]) == 2
    assert (
        capsys.readouterr()
        .out.encode()
        .startswith(
            b'%fastxfen\t6\t27\t24\tplacement\trank 6 covers 9 squares, expected 8\n[Event "g5"]\n'
        )
    )
    assert not out.exists()
    assert run(["pgn", src, "-o", out, "--errors", "ignore", "-q"]) == 1
    assert capsys.readouterr().err == ""
    assert out.read_bytes() == pgn.normalize_pgn(data, errors="ignore")
    assert data[data.index(b'[Event "g5"]') :][:60] in out.read_bytes()
    assert run(["pgn", src, "-o", out, "--select", "standard"]) == 0
    assert out.read_bytes() == b""


@pytest.mark.parametrize("ext", ["gz", "bz2", "xz", "zst"])
def test_cli_compressed_files(tmp_path, ext):
    if ext == "zst":
        pytest.importorskip("zstandard")
    data = sample_pgn() * 30
    plain = tmp_path / "in.pgn"
    plain.write_bytes(data)
    packed = tmp_path / f"in.pgn.{ext}"
    assert run(["pgn", plain, "-o", packed, "-q", "--chunk-size", "300"]) == 0
    expected = pgn.normalize_pgn(data)
    assert decompress(ext, packed.read_bytes()) == expected
    again = tmp_path / f"again.pgn.{ext}"
    assert run(["pgn", packed, "-o", again, "-q", "--chunk-size", "1K"]) == 0
    assert decompress(ext, again.read_bytes()) == expected  # normalizing is idempotent


def test_cli_stdin_stdout(monkeypatch, capsysbinary):
    data = sample_pgn()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert run(["pgn", "-q"]) == 0
    assert capsysbinary.readouterr().out == pgn.normalize_pgn(data)


def test_cli_usage_errors(tmp_path, capsys):
    src = tmp_path / "in.pgn"
    src.write_bytes(sample_pgn())
    assert run(["pgn", src, "-o", src]) == 2
    assert "are the same file" in capsys.readouterr().err
    assert run(["pgn", tmp_path / "missing.pgn"]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert run(["pgn", src, "--select", "chess960"]) == 2
    assert run(["pgn", src, "--errors", "skip"]) == 2
    long_header = b'[Event "a"]\n' + b'[Site "x"]\n' * 10
    src.write_bytes(long_header)
    assert run(["pgn", src, "-o", tmp_path / "o.pgn", "--chunk-size", "10", "-q"]) == 0
    assert (tmp_path / "o.pgn").read_bytes() == long_header


def test_cli_progress_reads_the_file_position_without_waiting(tmp_path):
    """The progress bar's position comes from the file descriptor, which a
    read in the reader thread does not hold; no bar, no callback."""
    src = tmp_path / "in.pgn"
    src.write_bytes(sample_pgn() * 50)

    class Source:
        def position(self):
            raise AssertionError("the fd position is used")

    with open(src, "rb") as raw:
        source = Source()
        source.raw = raw
        seen = []
        update = pgn_job.progress_of(Progress(lambda at, total, unit: seen.append(at)), source)
        raw.read(100)
        update()
        assert seen == [raw.raw.tell()] and seen[0] >= 100
        assert pgn_job.progress_of(Progress(None), source) is None


def test_cli_reads_plain_and_compressed_files_alike(tmp_path):
    """A plain file and a compressed one, read in blocks of --chunk-size,
    give the output of the whole text."""
    data = sample_pgn() * 20
    src = tmp_path / "in.pgn"
    src.write_bytes(data)
    out = tmp_path / "out.pgn"
    assert run(["pgn", src, "-o", out, "-q", "--chunk-size", "100"]) == 0
    assert out.read_bytes() == pgn.normalize_pgn(data)
    packed = tmp_path / "in.pgn.gz"
    packed.write_bytes(gzip.compress(data))
    assert run(["pgn", packed, "-o", out, "-q", "--chunk-size", "100"]) == 0
    assert out.read_bytes() == pgn.normalize_pgn(data)
    empty = tmp_path / "empty.pgn"
    empty.write_bytes(b"")
    assert run(["pgn", empty, "-o", out, "-q"]) == 0
    assert out.read_bytes() == b""


def test_blocks_of_a_reused_buffer():
    # A buffer refilled for each block: stream_pgn copies what it keeps.
    data = b"".join(f'[FEN "{E4}"]\n\n1... e5 *\n\n'.encode() for _ in range(20))
    size = 13
    buffer = bytearray(size)

    def blocks():
        for at in range(0, len(data), size):
            piece = data[at : at + size]
            buffer[: len(piece)] = piece
            yield memoryview(buffer)[: len(piece)]

    out = []
    pgn.stream_pgn(blocks(), lambda d: out.append(bytes(d)), spill=40)
    assert b"".join(out) == pgn.normalize_pgn(data)
    assert out and b"".join(out) != data  # the tags were rewritten
