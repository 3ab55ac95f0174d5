"""The three training formats against the python-chess model of
tests/models/training.py: bytes written, entries read, chains, and round
trips between the formats, on generated games that play every kind of
move (both castlings, Chess960 castling with corner rooks, en passant,
every promotion, captures of a castling rook), long and one-entry chains,
and chains broken by a left-out ply."""

import io
import re

import chess
import numpy as np
import pyarrow as pa
import pytest
from models import training as model

import fastxfen as fx
import fastxfen.training as ft

FIELDS = ("fen", "move", "score", "ply", "result")


@pytest.fixture(scope="module")
def entries():
    return model.corpus(seed=25, games=45)


@pytest.fixture(scope="module")
def table(entries):
    return pa.table(model.columns(entries))


@pytest.fixture(scope="module")
def model_read(binpack):
    return model.read_binpack(binpack)


@pytest.fixture(scope="module")
def binpack(table):
    out = io.BytesIO()
    assert ft.write(out, table, format="binpack") == table.num_rows
    return out.getvalue()


def read(data, fmt, columns=FIELDS, **kw):
    return ft.read(io.BytesIO(data), format=fmt, columns=columns, **kw)


def uci_standard(entry):
    board = model.board_of(entry.fen)
    return board.uci(chess.Move.from_uci(entry.move), chess960=False)


def test_the_games_play_every_kind_of_move(entries, model_read):
    kinds = set()
    for e in entries:
        board, move = model.board_of(e.fen), chess.Move.from_uci(e.move)
        if board.is_castling(move):
            side = "h" if move.to_square > move.from_square else "a"
            kinds.add(f"castle {side}{' 960' if chess.square_file(move.from_square) != 4 else ''}")
        if board.is_en_passant(move):
            kinds.add("en passant")
        if move.promotion:
            kinds.add(f"promote {chess.piece_symbol(move.promotion)}")
        if board.piece_type_at(move.to_square) == chess.ROOK and move.to_square in (0, 7, 56, 63):
            kinds.add("takes a corner rook")
    assert kinds >= {
        "castle h",
        "castle a",
        "castle h 960",
        "castle a 960",
        "en passant",
        "promote n",
        "promote b",
        "promote r",
        "promote q",
        "takes a corner rook",
    }
    lengths = np.bincount(model_read[1])
    assert lengths.min() == 1 and lengths.max() > 100


def test_binpack_bytes_are_the_models(entries, binpack):
    assert binpack == model.write_binpack(entries)


def test_binpack_reads_as_the_model_reads(entries, binpack, model_read):
    want, chains = model_read
    assert want == entries
    got = read(binpack, "binpack", FIELDS + ("chain",))
    assert got.column("fen").to_pylist() == [e.fen for e in entries]
    assert got.column("move").to_pylist() == [uci_standard(e) for e in entries]
    assert got.column("chain").to_pylist() == chains
    for name in ("score", "ply", "result"):
        assert got.column(name).to_pylist() == [getattr(e, name) for e in entries]


def test_the_other_columns(entries, binpack):
    got = read(binpack, "binpack", ("record", "packed", "sfmove", "rule50"), output="numpy")
    boards = [model.board_of(e.fen) for e in entries]
    assert got["packed"].tobytes() == b"".join(model.pack_position(b) for b in boards)
    moves = [model.sf_move(chess.Move.from_uci(e.move), b) for e, b in zip(entries, boards)]
    assert got["sfmove"].tolist() == moves
    assert got["rule50"].tolist() == [b.halfmove_clock for b in boards]
    assert got["record"].dtype == fx.POSITION_DTYPE
    assert fx.decode(got["record"], en_passant="legal") == [e.fen for e in entries]


def test_bin_bytes_and_reading(entries, table):
    keep = [b.halfmove_clock < 128 for b in map(model.board_of, (e.fen for e in entries))]
    kept = [e for e, k in zip(entries, keep) if k]
    out = io.BytesIO()
    ft.write(out, table.filter(pa.array(keep)), format="bin")
    assert out.getvalue() == model.write_bin(kept)
    got = read(out.getvalue(), "bin")
    assert got.column("fen").to_pylist() == [e.fen for e in kept]
    assert got.column("move").to_pylist() == [uci_standard(e) for e in kept]


def test_plain_text_is_the_models(entries, table):
    out = io.BytesIO()
    ft.write(out, table, format="plain")
    assert out.getvalue().decode() == model.write_plain(entries)


def _reordered(entry):
    """An entry's lines in another order (result first, fen last)."""
    lines = entry.split("\n")
    return "\n".join(lines[4:5] + lines[1:4] + lines[0:1])


#: Layouts of .plain that Stockfish does not write but the reader takes.
LAYOUTS = {
    "crlf": lambda e: e.replace("\n", "\r\n"),
    "two spaces": lambda e: re.sub(r"(?m)^(\w+) ", r"\1  ", e),
    "tab": lambda e: re.sub(r"(?m)^(\w+) ", "\\1\t", e),
    "trailing blanks": lambda e: e.replace("\n", " \t\n"),
    "leading blanks": lambda e: re.sub(r"(?m)^", "  ", e),
    "blank lines": lambda e: "\n\n" + e.replace("\n", "\n\n"),
    "other order": _reordered,
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_plain_layouts_read_alike(table, layout):
    """Every other entry in another layout: the same table as Stockfish's
    layout gives (which the reader takes by a faster path)."""
    out = io.BytesIO()
    ft.write(out, table.slice(0, 400), format="plain")
    text = out.getvalue().decode()
    parts = text.split("\ne\n")[:-1]
    changed = [LAYOUTS[layout](p) if i % 2 else p for i, p in enumerate(parts)]
    end = "\r\ne\r\n" if layout == "crlf" else "\ne\n"
    mixed = "".join(p + (end if i % 2 else "\ne\n") for i, p in enumerate(changed))
    assert mixed != text
    columns = FIELDS + ("chain", "rule50")
    assert read(mixed.encode(), "plain", columns).equals(read(out.getvalue(), "plain", columns))


def test_round_trips(binpack, entries, table):
    plain = io.BytesIO()
    ft.write(plain, read(binpack, "binpack"), format="plain")
    again = io.BytesIO()
    ft.write(again, read(plain.getvalue(), "plain"), format="binpack")
    assert again.getvalue() == binpack  # binpack -> plain -> binpack
    records = io.BytesIO()
    ft.write(
        records,
        read(binpack, "binpack", ("record", "sfmove", "score", "ply", "result")),
        format="binpack",
    )
    assert records.getvalue() == binpack  # records and 16-bit moves hold everything
    short = table.slice(0, 600)
    binary = io.BytesIO()
    ft.write(binary, short, format="bin")
    plain2 = io.BytesIO()
    ft.write(plain2, read(binary.getvalue(), "bin"), format="plain")
    binary2 = io.BytesIO()
    ft.write(binary2, read(plain2.getvalue(), "plain"), format="bin")
    assert binary2.getvalue() == binary.getvalue()  # bin -> plain -> bin
    assert read(plain2.getvalue(), "plain").equals(read(binary.getvalue(), "bin"))


def test_blocks_are_cut_where_stockfish_cuts_them(table):
    big = pa.concat_tables([table] * 350)
    out = io.BytesIO()
    ft.write(out, big, format="binpack")
    data, blocks, at = out.getvalue(), [], 0
    while at < len(data):
        assert data[at : at + 4] == b"BINP"
        size = int.from_bytes(data[at + 4 : at + 8], "little")
        blocks.append(data[at : at + 8 + size])
        at += 8 + size
    assert len(blocks) > 2
    for block in blocks[:-1]:
        got = read(block, "binpack", FIELDS + ("chain",))
        last = got.filter(pa.compute.equal(got.column("chain"), got.column("chain")[-1]))
        alone = io.BytesIO()
        ft.write(alone, last.drop_columns(["chain"]), format="binpack")
        before_last = len(block) - len(alone.getvalue())
        assert before_last < model.BLOCK_CUT <= len(block) - 8  # cut at the first head past it
    got = ft.read(io.BytesIO(data), format="binpack", columns=FIELDS, threads=2)
    assert got.equals(ft.read(io.BytesIO(data), format="binpack", columns=FIELDS))
    assert got.num_rows == big.num_rows


def _plain_column(data, fmt, batch_size):
    """The "plain" column (the entries as .plain text, which conversions
    to .plain write as it is) of every batch, joined."""
    batches = ft.batches(
        io.BytesIO(data), format=fmt, columns=("plain",), output="numpy", batch_size=batch_size
    )
    return b"".join(bytes(b["plain"][0]) for b in batches)


@pytest.mark.parametrize("batch_size", [1, 97, 1 << 14])
def test_the_readers_write_plain_text_as_the_writer_does(entries, table, binpack, batch_size):
    assert _plain_column(binpack, "binpack", batch_size).decode() == model.write_plain(entries)
    for fmt in ("bin", "plain"):
        data = io.BytesIO()
        ft.write(data, table.slice(0, 700), format=fmt)
        written = io.BytesIO()
        ft.write(written, read(data.getvalue(), fmt), format="plain")
        assert _plain_column(data.getvalue(), fmt, batch_size) == written.getvalue()
        converted = io.BytesIO()
        ft.convert(io.BytesIO(data.getvalue()), converted, format=fmt, to="plain")
        assert converted.getvalue() == written.getvalue()


def test_plain_numbers_at_their_limits():
    """Every number of a .plain entry written digit for digit, each length
    and sign, up to the limits of its type."""
    values = [0, 1, -1, 9, 10, -10, 99, 100, 999, 1000, -9999, 10000, 32767, -32768, 65535]
    fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
    rows = {
        "fen": [fen] * len(values),
        "move": ["e1e2"] * len(values),
        "score": [v if -32768 <= v <= 32767 else 0 for v in values],
        "ply": [abs(v) for v in values],
        "result": [max(-128, min(127, v)) for v in values],
    }
    out = io.BytesIO()
    ft.write(out, rows, format="plain")
    expected = "".join(
        f"fen {fen}\nmove e1e2\nscore {s}\nply {p}\nresult {r}\ne\n"
        for s, p, r in zip(rows["score"], rows["ply"], rows["result"])
    )
    assert out.getvalue().decode() == expected
    assert _plain_column(out.getvalue(), "plain", 4).decode() == expected
