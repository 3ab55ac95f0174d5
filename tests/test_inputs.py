"""Every input is classified once (fastxfen._inputs.kind_of) into the kind
the public functions switch on."""

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa

import fastxfen as fx
from fastxfen._inputs import Kind, as_text, kind_of, read_as_text, rows_of

FEN = "4k3/8/8/8/8/8/8/4K3 w - - 0 1"
RECORDS = fx.encode([FEN])


def test_each_input_has_its_kind():
    cases = [
        (FEN, Kind.STR),
        (FEN.encode(), Kind.BUFFER),
        (bytearray(FEN.encode()), Kind.BUFFER),
        (memoryview(FEN.encode()), Kind.BUFFER),
        (np.array([FEN]), Kind.FIXED),
        (np.array([FEN], dtype="S"), Kind.FIXED),
        (np.array([FEN], dtype=object), Kind.ARRAY),
        (RECORDS, Kind.RECORDS),
        (RECORDS[0], Kind.RECORDS),
        (fx.encode([FEN], width=10), Kind.RECORDS),
        (pa.array([FEN]), Kind.ARROW),
        (pa.chunked_array([[FEN]]), Kind.ARROW),
        (pd.Series([FEN]), Kind.SERIES),
        (pl.Series([FEN]), Kind.SERIES),
        ([FEN], Kind.ROWS),
        ((FEN,), Kind.ROWS),
        (iter([FEN]), Kind.ROWS),
    ]
    for x, kind in cases:
        assert kind_of(x) is kind, (x, kind)


def test_text_reads_records_and_epd_u_arrays_row_by_row():
    assert read_as_text(RECORDS) is Kind.ARRAY
    assert read_as_text(RECORDS[0]) is Kind.ROWS
    u = np.array([FEN])
    assert read_as_text(u) is Kind.FIXED and read_as_text(u, epd=True) is Kind.ARRAY
    s = np.array([FEN], dtype="S")
    assert as_text(kind_of(s), s, epd=True) is Kind.FIXED
    assert rows_of(np.array([[FEN, FEN]], dtype=object)) == [FEN, FEN]
    rows = [FEN]
    assert rows_of(rows) is rows and rows_of(iter(rows)) == rows
