"""Fuzz the entry points that read records, with fuzzed record bytes in
fuzzed shapes and strides.

Input: byte 0 picks the dtype (bit 0: POSITION_DTYPE_10x8) and the view the
records are handed over as (bits 1-3: contiguous, every other record of a
longer array, reversed, 2-d, 0-d array, one np.void, a field of a wider
structured array (unaligned and strided), a transposed 2-d array) and,
bits 4-5, which functions are checked besides decode (none; zobrist and
unique; to_bitboards and to_planes; pack), a quarter each; byte 1 is
``common.tame``'s mask of fields brought into range; byte 2 a mask of
records made the null record; the rest is ``np.frombuffer``'ed as records
(at most 6).
Properties, for decode (list, bytes and arrow outputs), to_planes,
to_bitboards, pack (lichess and stockfish), zobrist and unique: one answer
per record, in C order, equal to the answer for that record alone; a record
is refused by a FenError on a ``record.*`` field (``lichess`` /
``stockfish`` are not fields of records), naming the first refused record
under raise, and gives the missing value under coerce; the null record is
the missing value (docs/failures.md) under every mode; an accepted record's
bitboards, planes and key are those of its decoded text, and its packed
values unpack to a record that decodes to the same text.
"""

import functools
import os
import sys

# libFuzzer (inside atheris) must be loaded, and visible, before an extension
# built with -fsanitize-coverage=... (run_all.py --help) is imported: it
# registers its coverage counters with libFuzzer when it is loaded.
sys.setdlopenflags(sys.getdlopenflags() | os.RTLD_GLOBAL)
import atheris  # noqa: E402
import atheris.core_with_libfuzzer  # noqa: E402,F401
import numpy as np  # noqa: E402

with atheris.instrument_imports(include=["models", "common"]):
    import common

    import fastxfen as fx

REFUSED = object()  # a record refused alone
EXTRA = ("turn", "castling", "en_passant")


def view(recs: np.ndarray, kind: int):
    """recs handed over as the view kind picks; and the records it holds in
    C order."""
    n = len(recs)
    if kind == 1 and n:  # every other record of a longer array
        longer = np.zeros(2 * n, recs.dtype)
        longer[::2] = recs
        v = longer[::2]
    elif kind == 2:
        v = recs[::-1]
    elif kind == 3 and n % 2 == 0 and n:
        v = recs.reshape(2, n // 2)
    elif kind == 4 and n:
        v = recs[:1].reshape(())
    elif kind == 5 and n:
        v = recs[0]  # np.void
    elif kind == 6:  # a field one byte into a wider record: unaligned, strided
        wide = np.zeros(n, [("pad", "u1"), ("rec", recs.dtype), ("tail", "u1")])
        wide["rec"] = recs
        v = wide["rec"]
    elif kind == 7 and n % 2 == 0 and n:
        v = recs.reshape(n // 2, 2).T  # Fortran order
    else:
        v = recs
    flat = np.array(v, copy=True).reshape(-1)  # C order
    return v, flat


def alone(call, rec):
    """call(rec) for one record: its answer, or REFUSED (checking the
    FenError: record 0, a record.* field, a reason)."""
    try:
        return call(rec)
    except fx.FenError as e:
        assert e.index == 0 and e.field in common.RECORD_FIELDS, (rec, e)
        assert e.column >= 0 and e.reason.strip(), (rec, e)
        return REFUSED


def check_raise(call, v, refused, name):
    """Under raise, the first refused record is named; otherwise no error."""
    try:
        call(v)
    except fx.FenError as e:
        assert refused and e.index == refused[0], (name, e, refused)
        assert e.field in common.RECORD_FIELDS, (name, e)
    else:
        assert not refused, (name, refused)


def boards(v, flat, texts, name, call, width):
    """to_bitboards / to_planes: rows of width `width` only; an accepted
    record's tensor is its text's, a missing one's all zero."""
    out = call(v, errors="coerce")
    n = len(flat)
    assert out.shape[0] == n, (name, out.shape)
    bad = []
    for i in range(n):
        one = alone(call, flat[i : i + 1])
        if one is REFUSED:
            bad.append(i)
            assert texts[i] is REFUSED or flat[i]["width"] != width, (name, i, texts[i])
            one = np.zeros_like(out[i : i + 1])
        elif texts[i] is None:
            assert not one.any(), (name, i)  # a missing record: zeros
        else:
            assert isinstance(texts[i], str), (name, i, texts[i])
            assert (one == call(texts[i])).all(), (name, texts[i])
        assert (out[i] == one[0]).all(), (name, i)
    check_raise(call, v, bad, name)


def check_keys(v, flat, texts, full, refused, accepted) -> None:
    """zobrist: the key of the decoded text, 0 for a missing or refused
    record; unique: first occurrences among the accepted records."""
    n = len(flat)
    keys = fx.zobrist(v, errors="coerce")
    if isinstance(v, np.void) or v.ndim == 0:
        assert isinstance(keys, int), keys
        keys = np.array([keys], np.uint64)
    else:
        assert keys.shape == v.shape and keys.dtype == np.uint64, keys
    keys = keys.reshape(-1)
    for i in range(n):
        key = fx.zobrist(full[i]) if isinstance(full[i], str) else 0
        assert int(keys[i]) == key, (i, texts[i], int(keys[i]), key)
    check_raise(fx.zobrist, v, refused, "zobrist")

    # unique: first occurrences among the accepted records, as for the copy
    first = fx.unique(v, errors="coerce")
    assert list(first) == list(fx.unique(flat, errors="coerce")), first
    assert set(first.tolist()) <= set(accepted), (first, accepted)
    assert list(fx.unique(np.concatenate([flat, flat]), errors="coerce")) == list(first)
    check_raise(fx.unique, v, refused, "unique")


def check_boards(v, flat, full, width) -> None:
    """to_bitboards (8-wide rows only) and to_planes: those of the text."""
    boards(v, flat, full, "to_bitboards", fx.to_bitboards, 8)
    planes = functools.partial(fx.to_planes, width=width, extra=EXTRA)
    boards(v, flat, full, "to_planes", planes, width)


def check_pack(v, flat, texts) -> None:
    """pack: each record's own value; an accepted value reads back to its
    text."""
    n = len(flat)
    col = fx.pack(v, errors="coerce")
    sf = fx.pack(v, format="stockfish", errors="coerce")
    assert len(col) == n and sf.shape == (n, 24), (len(col), sf.shape)
    bad_packs = {"lichess": [], "stockfish": []}
    for i in range(n):
        one = flat[i : i + 1]
        lichess = alone(fx.pack, one)
        stockfish = alone(lambda r: fx.pack(r, format="stockfish"), one)
        for fmt, got in (("lichess", lichess), ("stockfish", stockfish)):
            if got is REFUSED:
                bad_packs[fmt].append(i)
                assert texts[i] is not None, i  # the missing record packs
        if lichess is REFUSED:
            assert col[i] is None, i
        else:
            assert col[i] == lichess[0], i
            back = fx.unpack(lichess)
            assert fx.decode(back, errors="coerce") == [texts[i]], (i, texts[i])
        if stockfish is REFUSED:
            assert not sf[i].any(), i
        else:
            assert sf[i].tobytes() == stockfish.tobytes(), i
            if texts[i] is not None:
                counters = {"halfmove": one["halfmove"], "fullmove": one["fullmove"]}
                back = fx.unpack(stockfish, format="stockfish", **counters)
                assert fx.decode(back) == [texts[i]], (i, texts[i])
    check_raise(fx.pack, v, bad_packs["lichess"], "pack")
    check_raise(lambda x: fx.pack(x, format="stockfish"), v, bad_packs["stockfish"], "stockfish")


def TestOneInput(data: bytes) -> None:
    if len(data) < 3:
        return
    flags, mask, nulls = data[0], data[1], data[2]
    dtype = fx.POSITION_DTYPE_10x8 if flags & 1 else fx.POSITION_DTYPE
    width = 10 if flags & 1 else 8
    body = data[3:]
    n = min(len(body) // dtype.itemsize, 6)
    recs = np.frombuffer(body[: n * dtype.itemsize], dtype).copy()
    common.tame(recs, mask)
    for i in range(n):
        if nulls >> i & 1:
            recs[i] = np.zeros((), dtype)
    v, flat = view(recs, (flags >> 1) & 7)
    n = len(flat)
    null = [not flat[i : i + 1].view(np.uint8).any() for i in range(n)]

    # decode: one answer per record, that record's own
    texts = [alone(fx.decode, flat[i : i + 1]) for i in range(n)]
    texts = [t if t is REFUSED else t[0] for t in texts]
    for i in range(n):
        assert not null[i] or texts[i] is None, (i, texts[i])  # missing, not refused
    want = [None if t is REFUSED else t for t in texts]
    got = fx.decode(v, errors="coerce")
    assert got == (want[0] if v.ndim == 0 else want), (got, want)
    lines = fx.decode(v, errors="coerce", output="bytes")
    assert lines == "".join((t or "") + "\n" for t in want).encode(), (lines, want)
    assert fx.decode(v, errors="coerce", output="arrow").to_pylist() == want
    refused = [i for i, t in enumerate(texts) if t is REFUSED]
    check_raise(fx.decode, v, refused, "decode")
    accepted = [i for i, t in enumerate(texts) if isinstance(t, str)]
    for i in accepted:
        assert fx.normalize(texts[i]) == texts[i], texts[i]
    # the text that keeps every en-passant target the record holds
    full = [fx.decode(flat[i], en_passant="fen") if i in accepted else texts[i] for i in range(n)]

    group = flags >> 4 & 3
    if group == 1:
        check_keys(v, flat, texts, full, refused, accepted)
    elif group == 2:
        check_boards(v, flat, full, width)
    elif group == 3:
        check_pack(v, flat, texts)


def main():
    atheris.Setup(sys.argv, TestOneInput, internal_libfuzzer=True)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
