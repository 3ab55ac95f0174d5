"""validate(legal=True): the rows validate read without a mistake checked
as positions, as python-chess's ``Board(fen, chess960=True).status()``
does (the status kernel of fastxfen.training, loaded on first use), each
illegal one with a message naming the status flags.  Each kind of input
hands the kernel the spans of those rows where they are."""

from __future__ import annotations

from typing import Any

import numpy as np

from fastxfen._inputs import ARRAY, ARROW, BUFFER, FIXED, ROWS, STR, Kind


def line_spans(buffer: Any) -> tuple:
    """(bytes, starts, ends) of the lines of a newline-separated buffer as
    validate numbers them (a final newline ends the last line), each
    without its terminator (``\\n`` or ``\\r\\n``)."""
    data = np.frombuffer(buffer, np.uint8)
    ends = np.flatnonzero(data == 10).astype(np.int64)
    if len(data) and data[-1] != 10:
        ends = np.append(ends, len(data))
    starts = np.zeros_like(ends)
    starts[1:] = ends[:-1] + 1
    carriage = np.zeros(len(ends), bool)
    filled = ends > starts
    carriage[filled] = data[ends[filled] - 1] == 13
    return data, starts, ends - carriage


def illegal_of_spans(data, starts, ends, rows, epd: bool) -> list:
    """(row, FenError) of the illegal positions among the spans of
    ``rows`` (the rows their spans are, in order)."""
    from fastxfen._errors import renumbered
    from fastxfen._training_status import illegal_spans

    found = illegal_spans(data, starts, ends, epd)
    return [(int(rows[i]), renumbered(error, int(rows[i]))) for i, error in sorted(found.items())]


def _texts(values: list, rows) -> tuple:
    """(data, starts, ends) of the str values of ``rows``."""
    encoded = [values[i].encode() for i in rows]
    lengths = np.fromiter(map(len, encoded), np.int64, len(encoded))
    ends = np.cumsum(lengths)
    return b"".join(encoded), ends - lengths, ends


def illegal(fens: Any, kind: Kind, rows: np.ndarray, epd: bool) -> list:
    """(row, FenError) of the rows where the bool array ``rows`` is True
    (rows read without a mistake) that hold an illegal position, for an
    input of ``kind`` (a list of rows for ROWS and ARRAY)."""
    rows = rows.copy()
    if kind is FIXED and fens.dtype.kind == "U":
        kind, fens = ROWS, fens.reshape(-1).tolist()
    if kind in (ROWS, ARRAY, STR):
        values = [fens] if kind is STR else fens
        rows = [i for i in np.flatnonzero(rows).tolist() if isinstance(values[i], str)]
        return illegal_of_spans(*_texts(values, rows), rows, epd)
    if kind is BUFFER:
        data, starts, ends = line_spans(fens)
    elif kind is FIXED:
        flat = np.ascontiguousarray(fens.reshape(-1))
        data = flat.view(np.uint8).reshape(-1)
        starts = np.arange(len(flat), dtype=np.int64) * flat.dtype.itemsize
        ends = starts + np.char.str_len(flat).astype(np.int64)
    elif kind is ARROW:
        from fastxfen._training_io import text_column

        data, offsets, missing = text_column(fens, len(rows))
        rows &= ~missing
        starts, ends = offsets[:-1], offsets[1:]
    else:
        raise TypeError(f"legality of {kind.value} is not checked here")
    rows = np.flatnonzero(rows)
    return illegal_of_spans(data, starts[rows], ends[rows], rows, epd)


def unrejected(n: int, rejected: list) -> np.ndarray:
    """Of ``n`` rows, those not among the (row, FenError) ``rejected``."""
    rows = np.ones(n, bool)
    rows[[row for row, _ in rejected]] = False
    return rows


def with_illegal(fens: Any, kind: Kind, messages: list, epd: bool) -> list:
    """``messages`` with the message of each illegal position filled in."""
    read = np.fromiter((m is None for m in messages), bool, len(messages))
    for row, error in illegal(fens, kind, read, epd):
        messages[row] = f"{error.location}: {error.reason}"
    return messages
