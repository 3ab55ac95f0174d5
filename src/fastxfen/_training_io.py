"""What fastxfen.training needs around the C core: files and formats,
messages of failures, columns of tables to write, and result batches."""

from __future__ import annotations

import os

import numpy as np

from fastxfen import _training
from fastxfen._columns import _nulls
from fastxfen._records import POSITION_DTYPE
from fastxfen._training_errors import TrainingDataError

FORMATS = ("binpack", "bin", "plain")
FIELDS = (
    "block",
    "chain",
    "position",
    "move",
    "score",
    "ply",
    "result",
    "rule50",
    "fullmove",
    "line",
)
# Core codes (FX_T_E_*, in order) and FX_T_S_* reasons a format cannot
# hold a position.
CODES = (
    "ok",
    "magic",
    "block_size",
    "truncated",
    "chain_head",
    "runs_off",
    "pieces",
    "nibble",
    "kings",
    "packed_bits",
    "move_bits",
    "null_move",
    "illegal",
    "piece_index",
    "move_index",
    "score_code",
    "result_bits",
    "range",
    "uci",
    "fen",
    "record",
    "store",
    "line",
    "key",
    "repeat",
    "missing",
    "number",
)
STORE = {
    1: "a 10-wide board",
    2: "a castling right of a rook the format cannot name",
    3: "more pieces than the format holds",
    4: "not one king of each color",
}
# Ranges the messages of out-of-range values name, by format and field.
RANGES = {
    "score": (-32768, 32767),
    "ply": (0, 65535),
    "result": (-128, 127),
    "rule50": (0, 65535),
    "fullmove": (1, 65535),
}
FORMAT_RANGES = {"binpack": {"ply": (0, 16383), "result": (-1, 1)}, "bin": {"rule50": (0, 127)}}


def uci_of(move: int) -> str:
    """The UCI text of a core move (from | to << 6 | kind << 12)."""
    frm, to, kind = move & 63, (move >> 6) & 63, move >> 12
    if kind == 5 and frm % 8 == 4 and to % 8 in (0, 7):
        to = (to & 56) | (6 if to > frm else 2)
    square = lambda s: "abcdefgh"[s % 8] + str(s // 8 + 1)  # noqa: E731
    return square(frm) + square(to) + ("nbrq"[kind - 1] if 1 <= kind <= 4 else "")


def reason(f, fmt: str) -> str:
    """A failure's reason in words."""
    code, a, b = CODES[f.code], f.a, f.b
    field = FIELDS[f.field]
    if code in ("fen", "record"):
        return f"{f.position_error.location}: {f.position_error.reason}"
    if code == "range":
        lo, hi = FORMAT_RANGES.get(fmt, {}).get(field, RANGES.get(field, (None, None)))
        return f"{field} {f.value} is outside {lo}..{hi}"
    square = lambda s: "abcdefgh"[s % 8] + str(s // 8 + 1)  # noqa: E731
    texts = {
        "magic": "the block does not start with 'BINP'",
        "block_size": f"block size {a} is above {b}",
        "truncated": f"the file ends {a} bytes into a {b}-byte unit",
        "chain_head": f"a chain's 34-byte head runs off its block ({a} bytes left)",
        "runs_off": "the chain's move text runs off the end of its block",
        "pieces": f"{a} pieces, the format holds at most {b}",
        "nibble": f"piece code {a} cannot stand on {square(b)}",
        "kings": (
            "the two kings on one square"  # the only way .bin gets this wrong
            if (a, b) == (1, 1)
            else f"{a} white and {b} black kings, one of each needed"
        ),
        "packed_bits": f"the packed position takes {a} bits, more than {b}",
        "move_bits": f"move bits 0x{a:04x} are no move",
        "null_move": "a null move",
        "illegal": f"move {uci_of(a)} is not legal in its position",
        "piece_index": f"piece index {a}, the side to move has {b} pieces",
        "move_index": f"destination index {a}, the piece has {b}",
        "score_code": "a score code longer than 16 bits",
        "result_bits": f"result bits {a} are no result",
        "uci": "not a UCI move",
        "store": f"the format cannot hold {STORE.get(a, 'this position')}",
        "line": "a line that is not 'key value'",
        "key": "a key other than fen, move, score, ply, result",
        "repeat": f"{field} given twice",
        "missing": f"no {field}" if field != "line" else "an entry without its 'e' line",
        "number": "not a decimal integer",
    }
    return texts.get(code, f"internal error code {f.code}")


def failure_error(
    f, fmt, *, file=None, entry=None, offset=None, block=None, chain=None, ply=None, line=None
):
    """The TrainingDataError of a core failure, at the place given."""
    error = TrainingDataError(
        reason(f, fmt),
        field=FIELDS[f.field],
        code=CODES[f.code],
        file=file,
        format=fmt,
        entry=entry,
        offset=offset,
        block=block,
        chain=chain,
        ply=ply,
        line=line,
    )
    error.position_error = f.position_error
    return error


# ---------------------------------------------------------------- files


def format_of(path, given, head: bytes = b"") -> str:
    """The format asked for, else the one of the file's name, else the one
    its first bytes show ('BINP' or a 'fen ' line)."""
    if given is not None:
        if given not in FORMATS:
            raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {given!r}")
        return given
    if path is not None:
        suffix = os.path.splitext(os.fspath(path))[1].lower().lstrip(".")
        if suffix in FORMATS:
            return suffix
    if head.startswith(b"BINP"):
        return "binpack"
    if head.lstrip().startswith(b"fen "):
        return "plain"
    raise ValueError(
        "cannot tell the format: name the file .binpack, .bin or .plain, or pass format="
    )


# ---------------------------------------------------------------- result batches


def arrow_batch(cols: dict, n: int, names):
    """A pyarrow RecordBatch of the core's columns."""
    import pyarrow as pa

    arrays = []
    for name in names:
        value = cols[name]
        if name in ("fen", "move", "plain"):
            data, offsets = value
            arrays.append(
                pa.Array.from_buffers(
                    pa.string(), n, [None, pa.py_buffer(offsets), pa.py_buffer(data)]
                )
            )
        elif name in ("record", "packed", "entries"):
            width = {"record": 80, "packed": 24, "entries": _training.ENTRY_SIZE}[name]
            raw = np.ascontiguousarray(value).view(np.uint8).reshape(-1)
            arrays.append(pa.Array.from_buffers(pa.binary(width), n, [None, pa.py_buffer(raw)]))
        else:  # a number column (pa.array() would import pandas where installed)
            data = np.ascontiguousarray(value)
            kind = pa.from_numpy_dtype(data.dtype)
            arrays.append(pa.Array.from_buffers(kind, n, [None, pa.py_buffer(data)]))
    return pa.RecordBatch.from_arrays(arrays, names=list(names))


#: The Arrow type of each column.
ARROW_TYPES = {
    "fen": "string",
    "move": "string",
    "record": ("binary", 80),
    "packed": ("binary", 24),
    "sfmove": "uint16",
    "score": "int16",
    "ply": "uint16",
    "result": "int8",
    "rule50": "uint32",
    "chain": "int64",
}


def arrow_schema(columns):
    """The pyarrow schema of batches of these columns."""
    import pyarrow as pa

    def kind(name):
        spec = ARROW_TYPES[name]
        return pa.binary(spec[1]) if isinstance(spec, tuple) else getattr(pa, spec)()

    return pa.schema([(name, kind(name)) for name in columns])


def numpy_batch(cols: dict, names) -> dict:
    """numpy arrays of the core's columns: text as S arrays as wide as
    their longest value ("plain", for a writer: the text and its int32
    offsets)."""
    out = {}
    for name in names:
        value = cols[name]
        if name in ("fen", "move"):
            data, offsets = value
            width = int(np.diff(offsets).max()) if len(offsets) > 1 else 1
            out[name] = _training.spread(data, offsets, width)
        else:
            out[name] = value
    return out


# ---------------------------------------------------------------- tables to write


def _arrow_column(col):
    """A pyarrow array (chunks combined) for any column, or None without
    pyarrow for plain Python and numpy columns."""
    try:
        import pyarrow as pa
    except ImportError:
        return None
    if hasattr(col, "to_arrow") and not isinstance(col, pa.ChunkedArray):  # polars
        col = col.to_arrow()
    if isinstance(col, pa.ChunkedArray):
        col = col.combine_chunks()
    if not isinstance(col, pa.Array):
        col = pa.array(
            col.tolist() if isinstance(col, np.ndarray) and col.dtype.kind == "S" else col,
            from_pandas=True,
        )
    return col


def text_column(col, n: int):
    """(data, int64 offsets, missing mask) of a column of str."""
    arr = _arrow_column(col)
    if arr is None:
        values = [
            None if v is None else (v if isinstance(v, bytes) else str(v).encode()) for v in col
        ]
        missing = np.array([v is None for v in values], bool)
        lengths = np.array([0 if v is None else len(v) for v in values], np.int64)
        offsets = np.zeros(len(values) + 1, np.int64)
        np.cumsum(lengths, out=offsets[1:])
        data = np.frombuffer(b"".join(v for v in values if v is not None) or b"\0", np.uint8)
        return data, offsets, missing
    import pyarrow as pa

    if pa.types.is_binary(arr.type) or pa.types.is_large_binary(arr.type):
        arr = arr.cast(pa.large_binary())
    else:
        arr = arr.cast(pa.large_string())
    missing = _missing(arr)
    offsets = np.frombuffer(arr.buffers()[1], np.int64)[arr.offset : arr.offset + len(arr) + 1]
    data = arr.buffers()[2]
    if data is None or not data.size:
        data = np.zeros(1, np.uint8)
    else:
        data = np.frombuffer(data, np.uint8)
    offsets = np.ascontiguousarray(offsets)
    _training.check_offsets(offsets, len(data))
    return data, offsets, missing


def _missing(arr) -> np.ndarray:
    """The nulls of an Arrow array as numpy bools, from its validity bits
    (pyarrow's to_numpy imports pandas where it is installed, 0.4 s)."""
    flags = _nulls(arr)
    return np.zeros(len(arr), bool) if flags is None else flags.view(bool)


def _numbers(arr) -> np.ndarray:
    """An Arrow array's values as numpy, a null's slot as it is: integers
    and booleans from their buffers (see _missing), anything else through
    to_numpy."""
    import pyarrow as pa

    kind, data, start = arr.type, arr.buffers()[1], arr.offset
    if data is None or not len(arr):
        return np.zeros(0, np.int64)
    if pa.types.is_boolean(kind):
        bits = np.unpackbits(np.frombuffer(data, np.uint8), bitorder="little")
        return bits[start : start + len(arr)].view(bool)
    if pa.types.is_integer(kind):
        signed = "i" if pa.types.is_signed_integer(kind) else "u"
        return np.frombuffer(data, f"<{signed}{kind.bit_width // 8}")[start : start + len(arr)]
    return np.asarray(arr.to_numpy(zero_copy_only=False))


def int_column(col, n: int):
    """(int64 values, missing mask) of a column of integers."""
    arr = _arrow_column(col)
    if arr is None:
        values = np.asarray(col)
        missing = np.zeros(n, bool)
    else:
        missing = _missing(arr)
        values = _numbers(arr)
        if missing.any():  # (a null's slot holds anything)
            values = np.where(missing, 0, values).astype(values.dtype)
    if values.dtype.kind not in "iub" or values.shape != (n,):
        raise ValueError(f"expected a column of {n} integers, got {values.dtype} {values.shape}")
    if values.dtype == np.uint64 and n and values.max() > np.iinfo(np.int64).max:
        values = np.minimum(values, np.iinfo(np.int64).max)
    return np.ascontiguousarray(values, np.int64), missing


def columns_of(data) -> dict:
    """The named columns of a table: pyarrow Table or RecordBatch, pandas or
    polars DataFrame, numpy structured array, or a mapping of name to
    column."""
    if hasattr(data, "column_names") and hasattr(data, "column"):  # pyarrow
        return {name: data.column(name) for name in data.column_names}
    if isinstance(data, np.ndarray) and data.dtype.names:
        return {name: data[name] for name in data.dtype.names}
    if hasattr(data, "columns") and hasattr(data, "__getitem__") and not isinstance(data, dict):
        return {str(name): data[name] for name in data.columns}
    if isinstance(data, dict) or hasattr(data, "keys"):
        return dict(data)
    raise TypeError(f"cannot read a table from {type(data).__name__}")


def table_of(data) -> _training.Table:
    """The core's Table of a table's rows (columns fen or record, move or
    sfmove, score, ply, result; or the entries a reader gave)."""
    cols = columns_of(data)
    if "entries" in cols:
        raw = cols["entries"]
        size = _training.ENTRY_SIZE
        raw = np.frombuffer(
            raw if isinstance(raw, np.ndarray) else _fixed_bytes(raw, size), np.uint8
        )
        if raw.size % size:
            raise ValueError(f"entries must be a whole number of {size}-byte entries")
        return _training.Table(raw.size // size, entries=np.ascontiguousarray(raw))
    for need in (("fen", "record"), ("move", "sfmove"), ("score",), ("ply",), ("result",)):
        if not any(name in cols for name in need):
            raise ValueError(
                f"the table needs a column {' or '.join(map(repr, need))}; "
                f"it has {', '.join(map(repr, cols)) or 'none'}"
            )
    first = next(iter(cols.values()))
    n = len(first)
    missing = np.zeros(n, np.uint8)
    kw = {}
    if "fen" in cols:
        data, offsets, gone = text_column(cols["fen"], n)
        kw["fen"] = (data, offsets)
        missing[gone & (missing == 0)] = 1 + FIELDS.index("position")
    else:
        records = cols["record"]
        records = np.ascontiguousarray(
            records
            if isinstance(records, np.ndarray)
            else np.frombuffer(_fixed_bytes(records, 80), np.uint8)
        )
        kw["records"] = records.view(POSITION_DTYPE).reshape(-1)
    if "move" in cols:
        data, offsets, gone = text_column(cols["move"], n)
        kw["uci"] = (data, offsets)
        missing[gone & (missing == 0)] = 1 + FIELDS.index("move")
    else:
        values, gone = int_column(cols["sfmove"], n)
        if n and (values.min() < 0 or values.max() > 0xFFFF):
            raise ValueError("sfmove values must be 16-bit")
        kw["sfmove"] = values.astype(np.uint16)
        missing[gone & (missing == 0)] = 1 + FIELDS.index("move")
    for name in ("score", "ply", "result"):
        kw[name], gone = int_column(cols[name], n)
        missing[gone & (missing == 0)] = 1 + FIELDS.index(name)
    for name, value in kw.items():
        arr = value[1] if isinstance(value, tuple) else value
        if len(arr) != n + (name in ("fen", "uci")):
            raise ValueError(f"column {name!r} has {len(arr)} rows, the table {n}")
    return _training.Table(n, missing=missing if missing.any() else None, **kw)


def _fixed_bytes(col, width: int) -> bytes:
    """The bytes of a fixed-size binary column (pyarrow) or list of bytes."""
    arr = _arrow_column(col)
    if arr is not None and arr.type.equals(__import__("pyarrow").binary(width)):
        return arr.buffers()[1].to_pybytes()[arr.offset * width : (arr.offset + len(arr)) * width]
    return b"".join(bytes(v) for v in col)
