"""Write the seed corpus of the fuzz harnesses into corpus/<harness>/.

    python tests/fuzz/make_corpus.py

The seeds are small and few (valid rows of every kind, 10x8 rows, the edge
cases of docs/semantics.md, records of those rows); the fuzzers' own corpora
grow in a scratch directory (see run_all.py), not here.
"""

import hashlib
import os
import shutil

import fastxfen as fx

HERE = os.path.dirname(os.path.abspath(__file__))

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
CAPA = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR"

VALID = [
    START + " w KQkq - 0 1",
    START + " b - - 99 4294967295",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "rnbqkbnr/1ppppppp/8/8/pP6/8/P1PPPPPP/RNBQKBNR b KQkq b3 0 2",
    "rn2k1r1/ppp1pp1p/3p2p1/5bn1/P7/2N2B2/1PPPPP2/2BNK1RR w Gkq - 4 11",
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "1r2k1r1/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w AHah - 0 1",
    "4k3/8/8/2KPp1r1/8/8/8/8 w - e6 0 2",
    "8/8/8/8/8/8/8/8 w - -",
    "8/8/8/8/8/8/8/8 b - - 7",
    "k7/8/8/8/8/8/8/7K w - - 0 0",
    "  \t" + START + "\tw\t KQkq  -  00012 0001 \t",
    START + " w sKQkq - 0 1",
    START + " w mHAha - 0 1",
    START + " w kqKQ - 0 1\n",
    START + " w KQkq - 0 1\r\n",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
    CAPA + " w KQkq - 0 1",
    CAPA + " w JAja - 0 1",
    "rnabqkbcnr/pppp1ppppp/10/10/4pP4/10/PPPP1PPPPP/RNABQKBCNR b KQkq f3 0 3",
    "r1abqkbcnr/10/10/10/10/10/10/R3K4R w sKQ - 0 1",
    "rcnbakbnqr/pppppppppp/10/10/10/10/PPPPPPPPPP/RCNBAKBNQR w mJAja - 0 1",
    "10/10/10/10/10/10/10/10 w - - 0 1",
    "1a8/10/10/10/10/10/10/8C1 b - - 0 1",
]

BAD = [
    "",
    " \t ",
    START + " w KQkq - 0 1 x",
    START + " w KQkq - 4294967296 1",
    START + " w KQkq - 0 99999999999999999999999",
    START + " w KQkq - \u0663 1",
    START + " w KQkq - 0 \uff18",
    START + " w KQkq - 0 1\r",
    START + " w KQkq - 0 1\x00",
    "rnbqkbnr/pppp\x00ppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/\u0668/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN\ud800 w KQkq - 0 1",
    "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/R10 w KQkq - 0 1",
    "rnbqkbna/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    CAPA.replace("/10/", "/101/", 1) + " w KQkq - 0 1",
    START + "/8 w KQkq - 0 1",
    "/" * 40 + " w - - 0 1",
    START + " wb KQkq - 0 1",
    START + " w -K - 0 1",
    START + " w s - 0 1",
    START + " w KQA - 0 1",
    START + " w KK - 0 1",
    START + " w I - 0 1",
    START + " w KQkq e9 0 1",
    START + " w KQkq e33 0 1",
    START + " w KQkq",
]


EPD = [
    START + ' w KQkq - bm e4; id "start";',
    START + ' b KQkq - hmvc 12; fmvn 40; c0 "a;b";',
    CAPA + ' w KQkq - id "caf\u00e9"; ce +12;',
    START + " w KQkq - bm e4",
    START + " w KQkq -  ;  ; ",
]


def write(name, seeds):
    folder = os.path.join(HERE, "corpus", name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for seed in seeds:
        digest = hashlib.sha1(seed).hexdigest()[:16]
        with open(os.path.join(folder, digest), "wb") as f:
            f.write(seed)


def utf8(s):
    return s.encode("utf-8", "surrogateescape" if "\ud800" not in s else "surrogatepass")


def column_seed(flags, first, cut, values, bits, mask, edits, tail=b""):
    """An input of common.Layout: the header, value lengths, offset edits
    (a count, then (row, delta) pairs) and the data."""
    lengths = bytes(len(v) for v in values)
    head = bytes([flags, first, cut, len(values), bits, mask]) + lengths
    return head + (edits or b"\x00") + b"".join(values) + tail


def main():
    rows = [utf8(s) for s in VALID + BAD]
    write("normalize_str", rows + [utf8(s) for s in EPD])
    write("encode", rows)
    buffers = [
        b"\n".join(utf8(s).rstrip(b"\r\n") for s in VALID[:6]) + b"\n",
        b"\r\n".join(utf8(s).rstrip(b"\r\n") for s in VALID[6:12]),
        b"\n\n \n\t\n" + utf8(VALID[0]),
        utf8(VALID[0]).rstrip(b"\n") + b"\r" + utf8(VALID[1]) + b"\r",
        utf8(VALID[2]) + b"\n" + utf8(BAD[3]) + b"\n" + utf8(VALID[19]),
        utf8(VALID[0]).replace(b"Q", b"\xc3")[:-3] + b"\n\xe2\x82",
        b"\n",
        b"",
        b"\n".join(utf8(s) for s in EPD),
    ] + [utf8(s) for s in BAD[:8]]
    write("normalize_bytes", buffers)
    arrow = [
        bytes([0, 0, 0]) + b"\n".join(utf8(s).rstrip(b"\r\n") for s in VALID[:5]),
        bytes([1 | 4, 1, 1]) + b"\n".join([utf8(VALID[0]), b"\0", utf8(BAD[4]), b""]),
        bytes([2 | 8, 2, 0]) + b"\n".join(utf8(s) for s in VALID[18:22]),
        bytes([3 | 16, 1, 2]) + b"\n".join([utf8(VALID[3]), utf8(BAD[12]), b"\0", utf8(VALID[4])]),
        bytes([0 | 4 | 0x40, 0, 3]) + b"\n".join([utf8(VALID[19]), b"\xff\xfe", utf8(VALID[0])]),
        bytes([8 | 32, 0, 0]) + b"\0\n\0",
    ]
    write("arrow", arrow)
    records = []
    for wide, dtype in ((False, fx.POSITION_DTYPE), (True, fx.POSITION_DTYPE_10x8)):
        ok = [s for s in VALID if wide or fx.encode(s, width=10)[0]["width"] == 8]
        recs = fx.encode(ok, width=10 if wide else 8)
        for k in range(0, len(recs), 3):
            records.append(bytes([int(wide) | (k % 6) << 1, 0]) + recs[k : k + 3].tobytes())
        flipped = recs[:2].copy()
        raw = bytearray(flipped.tobytes())
        raw[5] ^= 0x40  # a piece code past the limit
        raw[
            dtype.itemsize + dtype.fields["fullmove"][1] : dtype.itemsize
            + dtype.fields["fullmove"][1]
            + 4
        ] = bytes(4)  # fullmove 0
        records.append(bytes([int(wide), 0]) + bytes(raw))
        records.append(bytes([int(wide), 0x7F]) + bytes(dtype.itemsize))
        records.append(bytes([int(wide), 0xFF]) + bytes(range(256))[: dtype.itemsize] * 2)
    write("decode", records)
    write(
        "records",
        [
            bytes([r[0] | (k + mask) % 4 << 4, r[1], mask]) + r[2:]
            for k, r in enumerate(records)
            for mask in (0, 0x12)
        ],
    )
    packed = fx.pack(VALID[:8] + VALID[9:13], errors="coerce")
    values = [v for v in packed.tolist() if v is not None]
    stockfish = fx.pack(VALID[:8], format="stockfish", errors="coerce")
    columns = []
    for flags in (0x00, 0x04, 0x20, 0x41, 0x02, 0x45, 0x12, 0x09, 0x0A, 0x03, 0x07):
        if flags & 3 == 3:  # stockfish rows
            columns.append(column_seed(flags, 0, 0, [], 0, 0, b"", stockfish.tobytes()))
            continue
        vals = [stockfish[k].tobytes() for k in range(4)] if flags & 8 else values[:5]
        columns.append(column_seed(flags, 1, 1, vals, 0b10111, 0b01, b""))
        columns.append(column_seed(flags, 0, 0, vals, 0xFF, 0b10, b"\x02\x02\x05\x01\x80"))
        columns.append(column_seed(flags, 0, 0, vals[:3], 0b101, 0b11 | 1 << 2, b"\x01\x01\xff"))
    write("binary_columns", columns)
    text = [utf8(s) for s in VALID[:4] + BAD[:2] + VALID[19:21]]
    write(
        "arrow_offsets",
        [
            column_seed(0x00, 0, 0, text[:5], 0xFF, 0, b""),
            column_seed(0x05, 1, 1, text, 0b11011111, 0b01, b""),
            column_seed(0x68, 2, 0, text[2:], 0b1011, 0b01, b"\x01\x03\xfe"),
            column_seed(0x29, 0, 0, text[:4], 0xFF, 0b11 | 1 << 2, b""),
            column_seed(0x10, 0, 5, text[:4], 0xFF, 0, b"\x02\x04\x80\x01\x01"),
            column_seed(0x21, 0, 0, [b"", text[0]], 0b10, 0b01, b"\x01\x00\xf0"),
        ],
    )
    pgn = [
        b'[Event "a"]\n[Site "?"]\n[SetUp "1"]\n[FEN "' + utf8(VALID[2]) + b'"]\n\n1... e5 *\n\n',
        b'[Event "b"]\r\n[Variant " Chess960 "]\r\n[FEN\t"' + utf8(VALID[6]) + b'"] \r\n\r\n*',
        b'[Event "c"]\n[FEN "' + utf8(BAD[2]) + b'" ]\n[Event "d"]\n[FEN x]\n[FEN "\n',
        b'[Event "e"]\n\n1. e4 { a\n[Event "no"]\n} e5 ; {\n% {\n[Event "f"]\n[Variant "x"]\n',
        b"\xef\xbb\xbf% escape\n\n[Event]\n[FENCE]\n[Fen]\n[FEN",
    ]
    write("pgn_scan", [bytes([flags]) + text for flags in (0, 4, 5, 6) for text in pgn])


if __name__ == "__main__":
    main()
