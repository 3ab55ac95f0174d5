"""Dask as the engine: fastxfen over Dask Bags, DataFrame columns and sharded
files, partition by partition.

Each partition goes to the same GIL-free bulk kernels as a single-process
call, so a distributed result equals the single-process result row for row.
Arrow-backed string columns (``string[pyarrow]``, ``pd.ArrowDtype``) are read
through Arrow without making Python strings.

Sharded files go one task per file to the file engine (fastxfen.files) on
the workers, with the values the call was given (``normalize_files``,
``run_files``).

Dask is imported only when one of these functions runs; without it they
raise ImportError naming ``pip install fastxfen[dask]``.  See docs/dask.md.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Iterable, List, Optional

import numpy as np

from fastxfen import _bulk, _legality, _options, _paths, files
from fastxfen._api import Fields
from fastxfen._inputs import ARROW, ROWS
from fastxfen._optional import require_dask as _require
from fastxfen._options import ErrorsMode, Threads
from fastxfen._records import record_dtype
from fastxfen.files.report import FAILED
from fastxfen.files.text_chunks import DEFAULT_CHUNK

__all__ = [
    "encode_bag",
    "encode_column",
    "encode_lines",
    "encode_series",
    "normalize_bag",
    "normalize_column",
    "normalize_file",
    "normalize_files",
    "normalize_lines",
    "normalize_series",
    "run_files",
    "validate_bag",
    "validate_column",
    "validate_lines",
    "validate_series",
]


#: The threads of one partition by default: Dask already runs one task per
#: worker thread.
ONE_THREAD = Threads(1)


def _threads(threads: Any) -> Threads:
    """The threads of one partition: ``threads`` checked (capped to the CPUs
    where the partition runs), or one."""
    value = _options.threads_of(threads)
    return ONE_THREAD if value.asked is None else value


def _text(castling: Any, en_passant: Any, errors: Any, threads: Any, epd: Any, fields: Any):
    """The values of a normalize call: (TextOptions, ErrorsMode, Threads)."""
    text = _options.text_options(castling, en_passant, fields, epd)
    return text, _options.errors(errors), _threads(threads)


def _records(width: Any, errors: Any, threads: Any, epd: Any):
    """The values of an encode call: (RecordOptions, ErrorsMode, Threads)."""
    records = _options.record_options(width, epd)
    return records, _options.record_errors(errors), _threads(threads)


# ------------------------------------------------------------------ partitions: lines


def _lines_batch(lines: Iterable[Any]):
    """(batch, kind, the lines as a list) for a partition of lines: str (UTF-8 encoded for the
    kernels) or bytes items, each with or without its line terminator."""
    items = lines if isinstance(lines, list) else list(lines)
    kind = bytes if items and isinstance(items[0], (bytes, bytearray)) else str
    if kind is str:
        try:
            raw = [line.encode("utf-8", "surrogateescape") for line in items]
        except AttributeError:
            raise TypeError("a partition of lines holds str or bytes items only") from None
    else:
        raw = items
    lengths = np.fromiter(map(len, raw), np.int64, len(raw))
    ends = np.cumsum(lengths)
    return _bulk.spans(b"".join(raw), ends - lengths, ends), kind, items


def normalize_lines(
    lines: Iterable[Any],
    *,
    castling: str = "xfen",
    en_passant: str = "xfen",
    errors: str = "raise",
    threads: Optional[int] = None,
    epd: bool = False,
    fields: Fields = 6,
) -> list:
    """The lines of one partition, normalized; each keeps its own line
    terminator (``\\n`` or ``\\r\\n``, if it had one), as the command line
    writes them.  A coerced line is empty (its terminator kept); an ignored
    one unchanged.  Columns in errors are byte offsets into the UTF-8 line,
    and ``FenError.index`` is the row within the partition."""
    return _normalized_lines(lines, *_text(castling, en_passant, errors, threads, epd, fields))


def _normalized_lines(lines: Iterable[Any], text, errors: ErrorsMode, threads: Threads) -> list:
    batch, kind, lines = _lines_batch(lines)
    data, ends, failed = batch.normalize(text, errors, threads=threads.kernel, terminators=True)
    starts = np.empty_like(ends)
    if len(ends):
        starts[0] = 0
        starts[1:] = ends[:-1]
    pieces = [data[a:b] for a, b in zip(starts.tolist(), ends.tolist())]
    if errors is ErrorsMode.COERCE:  # a coerced line is its terminator alone, if any
        for row in failed:
            line = lines[row]
            pieces[row] = pieces[row][:0] + (
                b"\r\n"
                if line[-2:] in ("\r\n", b"\r\n")
                else b"\n"
                if line[-1:] in ("\n", b"\n")
                else b""
            )
    if kind is bytes:
        return pieces
    return [piece.decode("utf-8", "surrogateescape") for piece in pieces]


def encode_lines(
    lines: Iterable[Any],
    *,
    width: int = 8,
    errors: str = "raise",
    threads: Optional[int] = None,
    epd: bool = False,
) -> np.ndarray:
    """Records (``record_dtype(width)``) of the lines of one partition."""
    return _encoded_lines(lines, *_records(width, errors, threads, epd))


def _encoded_lines(lines: Iterable[Any], records, errors: ErrorsMode, threads: Threads):
    batch, _, _ = _lines_batch(lines)
    return batch.encode(records, errors, threads=threads.kernel)


def validate_lines(
    lines: Iterable[Any],
    *,
    threads: Optional[int] = None,
    epd: bool = False,
    legal: bool = False,
) -> list:
    """``None`` or ``"column C (field): reason"`` per line of one partition
    (``legal``: as ``fastxfen.validate(legal=True)``)."""
    return _validated_lines(lines, bool(epd), _threads(threads), _options.legal(legal))


def _validated_lines(lines: Iterable[Any], epd: bool, threads: Threads, legal: bool) -> list:
    batch, kind, items = _lines_batch(lines)
    messages = batch.validate(threads=threads.kernel, epd=epd)
    if not legal:
        return messages
    if kind is bytes:
        items = [bytes(line).decode("utf-8", "surrogateescape") for line in items]
    texts = [line.rstrip("\r\n") for line in items]  # the terminators kept
    return _legality.with_illegal(texts, ROWS, messages, epd)


# ------------------------------------------------------------------ partitions: pandas


def _arrow_of(series):
    """The column as a pyarrow string array: zero-copy for Arrow-backed
    dtypes, converted (nulls for None/NaN) for object and python strings."""
    pa = _require("pyarrow")
    values = pa.array(series.array if hasattr(series, "array") else series)
    if isinstance(values, pa.ChunkedArray) and values.num_chunks == 1:
        values = values.chunk(0)
    kind = values.type
    if not (
        pa.types.is_string(kind)
        or pa.types.is_large_string(kind)
        or (hasattr(pa.types, "is_string_view") and pa.types.is_string_view(kind))
    ):
        if pa.types.is_null(kind):  # an empty or all-missing object column
            return pa.nulls(len(values), pa.large_string())
        raise TypeError(f"expected a column of strings, got {series.dtype} ({kind})")
    return values


def _series_like(series, values):
    """A pandas Series of ``values`` (Arrow strings) with the dtype, index and
    name of ``series``."""
    import pandas as pd

    dtype = series.dtype
    if isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow":
        try:
            array = pd.arrays.ArrowStringArray(values, dtype=dtype)
        except TypeError:  # pandas 2: no dtype argument
            array = pd.arrays.ArrowStringArray(values)
            if array.dtype != dtype:
                array = array.astype(dtype)
    elif isinstance(dtype, pd.ArrowDtype):
        array = pd.arrays.ArrowExtensionArray(values)
    elif isinstance(dtype, pd.StringDtype):
        array = pd.array(values.to_pylist(), dtype=dtype)
    else:  # object: Python strings and None
        array = np.empty(len(values), object)
        array[:] = values.to_pylist()
        return pd.Series(array, index=series.index, name=series.name, dtype=object)
    return pd.Series(array, index=series.index, name=series.name, copy=False)


def normalize_series(
    series,
    *,
    castling: str = "xfen",
    en_passant: str = "xfen",
    errors: str = "raise",
    threads: Optional[int] = None,
    epd: bool = False,
    fields: Fields = 6,
):
    """One pandas partition normalized: a Series of the same dtype, index and
    name; missing values stay missing, a coerced row becomes missing."""
    return _normalized_series(series, *_text(castling, en_passant, errors, threads, epd, fields))


def _normalized_series(series, text, errors: ErrorsMode, threads: Threads):
    result = _paths.normalize(_arrow_of(series), ARROW, text, errors, threads, None)
    return _series_like(series, result)


def encode_series(
    series,
    *,
    width: int = 8,
    errors: str = "raise",
    threads: Optional[int] = None,
    epd: bool = False,
) -> np.ndarray:
    """Records of one pandas partition (a missing value is the null record)."""
    return _encoded_series(series, *_records(width, errors, threads, epd))


def _encoded_series(series, records, errors: ErrorsMode, threads: Threads) -> np.ndarray:
    return _paths.encode(_arrow_of(series), ARROW, records, errors, threads)


def validate_series(
    series, *, threads: Optional[int] = None, epd: bool = False, legal: bool = False
):
    """A Series of ``None`` or ``"column C (field): reason"`` (object dtype)."""
    return _validated_series(series, bool(epd), _threads(threads), _options.legal(legal))


def _validated_series(series, epd: bool, threads: Threads, legal: bool):
    import pandas as pd

    messages = _paths.validate(_arrow_of(series), ARROW, epd, threads, legal)
    array = np.empty(len(messages), object)
    array[:] = messages
    return pd.Series(array, index=series.index, name=series.name, dtype=object)


def _frame_partition(frame, column, out, function, values):
    result = function(frame[column], *values)
    frame = frame.copy(deep=False)
    frame[out or column] = result
    return frame


# ------------------------------------------------------------------ collections


def _collection_kind(collection, column):
    """ "bag", "series" or "frame" (the column of a DataFrame)."""
    dask = _require("dask")
    if dask.is_dask_collection(collection) and type(collection).__name__ == "Bag":
        if column is not None:
            raise ValueError("a Bag has no columns: leave column out")
        return "bag"
    name = type(collection).__name__
    if name == "DataFrame":
        if column is None:
            raise ValueError("a DataFrame needs the column of positions: column='fen'")
        return "frame"
    if name == "Series":
        if column is not None:
            raise ValueError("a Series is one column: leave column out")
        return "series"
    raise TypeError(f"expected a Dask Bag, DataFrame or Series, not {type(collection)!r}")


def normalize_bag(
    bag,
    *,
    castling: str = "xfen",
    en_passant: str = "xfen",
    errors: str = "raise",
    threads: Optional[int] = None,
    epd: bool = False,
    fields: Fields = 6,
):
    """A Bag of lines (``dask.bag.read_text``, ``from_sequence``) normalized
    partition by partition: a Bag of the same lines in canonical form, each
    keeping its terminator, ready for ``Bag.to_textfiles``.  The options are
    checked once, here, and go to the partitions as values."""
    values = _text(castling, en_passant, errors, threads, epd, fields)
    _collection_kind(bag, None)
    return bag.map_partitions(_normalized_lines, *values)


def validate_bag(bag, *, threads: Optional[int] = None, epd: bool = False, legal: bool = False):
    """A Bag of ``None`` or ``"column C (field): reason"``, one per line."""
    values = (bool(epd), _threads(threads), _options.legal(legal))
    _collection_kind(bag, None)
    return bag.map_partitions(_validated_lines, *values)


def normalize_column(
    collection,
    column: Optional[str] = None,
    *,
    out: Optional[str] = None,
    castling: str = "xfen",
    en_passant: str = "xfen",
    errors: str = "raise",
    threads: Optional[int] = None,
    epd: bool = False,
    fields: Fields = 6,
):
    """A Dask DataFrame with ``column`` normalized (into column ``out`` if
    given, else in place), or a Dask Series normalized: same dtype, same
    partitions.  ``string[pyarrow]`` columns are read without Python strings."""
    values = _text(castling, en_passant, errors, threads, epd, fields)
    kind = _collection_kind(collection, column)
    if kind == "series":
        return collection.map_partitions(_normalized_series, *values, meta=collection._meta)
    meta = collection._meta.copy()
    if out is not None:
        meta[out] = meta[column]
    return collection.map_partitions(
        _frame_partition, column, out, _normalized_series, values, meta=meta
    )


def validate_column(
    collection,
    column: Optional[str] = None,
    *,
    threads: Optional[int] = None,
    epd: bool = False,
    legal: bool = False,
):
    """A Dask Series (object dtype) of ``None`` or the message, per row."""
    values = (bool(epd), _threads(threads), _options.legal(legal))
    kind = _collection_kind(collection, column)
    series = collection if kind == "series" else collection[column]
    import pandas as pd

    meta = pd.Series([], dtype=object, name=series.name)
    return series.map_partitions(_validated_series, *values, meta=meta)


def _records_array(parts, width: int):
    """A Dask array of records, one chunk (of unknown length) per part."""
    da = _require("dask.array")
    arrays = [da.from_delayed(part, shape=(np.nan,), dtype=record_dtype(width)) for part in parts]
    if not arrays:
        return da.from_array(np.empty(0, record_dtype(width)))
    return da.concatenate(arrays) if len(arrays) > 1 else arrays[0]


def encode_bag(
    bag, *, width: int = 8, errors: str = "raise", threads: Optional[int] = None, epd: bool = False
):
    """A Dask array of position records (``record_dtype(width)``), one chunk
    per partition of the Bag of lines; chunk lengths are known once
    computed (``.compute_chunk_sizes()``)."""
    values = _records(width, errors, threads, epd)
    dask = _require("dask")
    _collection_kind(bag, None)
    encode = dask.delayed(_encoded_lines, pure=True)
    return _records_array([encode(part, *values) for part in bag.to_delayed()], values[0].width)


def encode_column(
    collection,
    column: Optional[str] = None,
    *,
    width: int = 8,
    errors: str = "raise",
    threads: Optional[int] = None,
    epd: bool = False,
):
    """A Dask array of position records, one chunk per partition of the
    column (or Series)."""
    values = _records(width, errors, threads, epd)
    dask = _require("dask")
    kind = _collection_kind(collection, column)
    series = collection if kind == "series" else collection[column]
    encode = dask.delayed(_encoded_series, pure=True)
    parts = [encode(part, *values) for part in series.to_delayed()]
    return _records_array(parts, values[0].width)


# ------------------------------------------------------------------ sharded files


def normalize_file(
    source: str, target: str, task: files.Normalize, settings: files.Settings
) -> dict:
    """One file normalized by the file engine in this process, as a task on
    a worker does: ``files.run(task, source, target, settings)``.  Returns
    {"input", "output", "status", "messages"}: the exit status the command
    line would give and the lines it would print on stderr."""
    try:
        result = files.run(task, source, target, settings)
    except files.RunError as exc:
        status, messages = FAILED, f"fastxfen: error: {exc}\n"
    else:
        status, messages = result.status, result.closing()
    return {"input": source, "output": target, "status": status, "messages": messages}


def _shards(inputs: Iterable[str]) -> List[str]:
    """Input files; a directory stands for the regular files in it, sorted."""
    found = []
    for path in inputs:
        if os.path.isdir(path):
            found += sorted(
                os.path.join(path, name)
                for name in os.listdir(path)
                if os.path.isfile(os.path.join(path, name)) and not name.startswith(".")
            )
        else:
            found.append(path)
    return found


def normalize_files(
    inputs: Iterable[str],
    outdir: str,
    *,
    client: Any = None,
    scheduler: Optional[str] = None,
    rejects_dir: Optional[str] = None,
    castling: str = "xfen",
    en_passant: str = "xfen",
    errors: str = "raise",
    epd: bool = False,
    fields: Fields = 6,
    threads: Optional[int] = None,
    chunk_size: Optional[int] = None,
    level: Optional[int] = None,
    on_result: Optional[Callable[[dict], None]] = None,
) -> List[dict]:
    """Normalize each input file (a directory: each file in it) as one Dask
    task, writing ``outdir/<name>`` (compressed by its extension, like the
    command line) and, with ``rejects_dir``, ``rejects_dir/<name>``.

    ``client`` is a ``distributed.Client``, else one is made for
    ``scheduler`` (an address), else the task runs on Dask's default
    scheduler.  The paths must be the same for the workers (a shared file
    system).  Returns, in input order, one dict per file: input, output,
    status (the command's exit status) and messages (its stderr).  The
    options are checked once, here, and sent to the workers as values
    (``run_files``); ``fields`` is 6, 4 or "same"."""
    task = files.Normalize(castling=castling, en_passant=en_passant, fields=fields, epd=epd)
    settings = files.Settings(
        errors=errors,
        threads=threads,
        chunk_size=DEFAULT_CHUNK if chunk_size is None else chunk_size,
        level=level,
    )
    return run_files(
        inputs,
        outdir,
        task,
        settings,
        rejects_dir=rejects_dir,
        client=client,
        scheduler=scheduler,
        on_result=on_result,
    )


def run_files(
    inputs: Iterable[str],
    outdir: str,
    task: files.Normalize,
    settings: files.Settings,
    *,
    rejects_dir: Optional[str] = None,
    client: Any = None,
    scheduler: Optional[str] = None,
    on_result: Optional[Callable[[dict], None]] = None,
) -> List[dict]:
    """``normalize_files`` with its options as values: ``task`` and
    ``settings`` go to each worker as they are (the rejects file of each
    input set to ``rejects_dir/<name>``)."""
    sources = [os.path.abspath(path) for path in _shards(inputs)]
    outdir = os.path.abspath(outdir)
    names = [os.path.basename(path) for path in sources]
    if len(set(names)) != len(names):
        name = next(name for k, name in enumerate(names) if name in names[:k])
        raise ValueError(f"two inputs are named {name}: their outputs would clash")
    if rejects_dir is not None:
        rejects_dir = os.path.abspath(rejects_dir)
        if rejects_dir == outdir:
            raise ValueError("the rejects directory is also the output directory")
    if client is None:  # the package first: a failed call makes no directory
        _require("dask" if scheduler is None else "distributed")
    for directory in (outdir, rejects_dir):
        if directory is not None:
            os.makedirs(directory, exist_ok=True)
    jobs = []
    for source, name in zip(sources, names):
        target = os.path.join(outdir, name)
        if os.path.exists(target) and os.path.samefile(source, target):
            raise ValueError(f"the output {target} is also the input")
        rejects = None if rejects_dir is None else os.path.join(rejects_dir, name)
        jobs.append((source, target, task, settings.with_rejects(rejects)))
    if not jobs:
        return []
    if client is None and scheduler is not None:
        distributed = _require("distributed")
        with distributed.Client(scheduler) as own:
            return _run_tasks(own, jobs, on_result)
    return _run_tasks(client, jobs, on_result)


def _run_tasks(client, jobs: list, on_result) -> List[dict]:
    results: List[Optional[dict]] = [None] * len(jobs)
    if client is None:
        dask = _require("dask")
        task = dask.delayed(normalize_file, pure=False)
        computed = dask.compute(*[task(*job) for job in jobs])
        for k, result in enumerate(computed):
            results[k] = result
            if on_result is not None:
                on_result(result)
        return results
    distributed = _require("distributed")
    futures = [client.submit(normalize_file, *job, pure=False) for job in jobs]
    index = {future.key: k for k, future in enumerate(futures)}
    for future in distributed.as_completed(futures):
        k = index[future.key]
        try:
            result = future.result()
        except Exception as exc:  # the task failed on its worker
            result = {
                "input": jobs[k][0],
                "output": jobs[k][1],
                "status": FAILED,
                "messages": f"fastxfen: error: {type(exc).__name__}: {exc}\n",
            }
        results[k] = result
        if on_result is not None:
            on_result(result)
    return results
