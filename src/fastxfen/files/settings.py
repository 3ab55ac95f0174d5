"""How a run over files goes, apart from what it does to each row: one
frozen value, checked when it is made."""

from __future__ import annotations

import copy
from typing import Any, Callable, Optional

from fastxfen import _options
from fastxfen._options import ErrorsMode, Threads
from fastxfen.files import csv_types
from fastxfen.files.progress import Report
from fastxfen.files.text_chunks import DEFAULT_CHUNK, MAX_LINE
from fastxfen.files.values import Value, column_name


def check_chunk_size(value) -> int:
    """Bytes read at a time: an int from 1 to MAX_LINE (16 MiB)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"the chunk size must be an int of bytes, not {value!r}")
    if not 1 <= value <= MAX_LINE:
        raise ValueError(
            f"the chunk size must be between 1 byte and {MAX_LINE >> 20}M, not {value:,} bytes"
        )
    return value


class Settings(Value):
    """The settings of one run.

    - ``errors``: what a rejected row does, "raise", "coerce" or "ignore"
      (None: the task's default, "raise"; validate takes none), held as an
      ErrorsMode;
    - ``rejects``: a file for the rejected rows (None: none; "-": stdout);
    - ``threads``: None (automatic: one per 16,384 rows of a chunk) or an
      int of at least 1, capped to the CPUs where the run goes; also the
      threads compressing a .gz or .zst output (None: every CPU); held as a
      Threads;
    - ``chunk_size``: bytes read at a time, 1 to 16 MiB (default 8 MiB);
    - ``level``: the compression level of a compressed output (None: the
      codec's usual one);
    - ``keep_cache``: leave a large output in the page cache as written;
    - ``input_format`` / ``output_format``: "text" or a table format name
      (None: by the file's extension); ``column``: a table's column of
      positions (None: the one named fen or epd); ``column_types``: the
      types of a CSV or TSV input's other columns, a mapping, (name, type)
      pairs or "NAME=TYPE,..." (type names as pyarrow's: int32, float64,
      string, date32, timestamp[ms], decimal128(10,2); "*" names every
      column not named; None: inferred, csv_types), held as pairs;
    - ``progress``: called with (position, total, unit) as the run goes
      (progress.Report); ``notice``: called with a message for the user
      (the input is a terminal)."""

    _fields = (
        "errors",
        "rejects",
        "threads",
        "chunk_size",
        "level",
        "keep_cache",
        "input_format",
        "output_format",
        "column",
        "column_types",
    )
    errors: Optional[ErrorsMode]
    rejects: Optional[str]
    threads: Threads
    chunk_size: int
    level: Optional[int]
    keep_cache: bool
    input_format: Optional[str]
    output_format: Optional[str]
    column: Optional[str]
    column_types: tuple
    progress: Optional[Report]
    notice: Optional[Callable[[str], None]]

    def __init__(
        self,
        errors: Any = None,
        rejects: Optional[str] = None,
        threads: Any = None,
        chunk_size: int = DEFAULT_CHUNK,
        level: Optional[int] = None,
        keep_cache: bool = False,
        input_format: Optional[str] = None,
        output_format: Optional[str] = None,
        column: Optional[str] = None,
        column_types: Any = None,
        progress: Optional[Report] = None,
        notice: Optional[Callable[[str], None]] = None,
    ) -> None:
        if level is not None and (isinstance(level, bool) or not isinstance(level, int)):
            raise ValueError(f"level must be an int or None, not {level!r}")
        self._set(
            errors=None if errors is None else _options.errors(errors),
            rejects=rejects,
            threads=threads if isinstance(threads, Threads) else _options.threads_of(threads),
            chunk_size=check_chunk_size(chunk_size),
            level=level,
            keep_cache=bool(keep_cache),
            input_format=input_format,
            output_format=output_format,
            column=column_name("column", column),
            column_types=() if not column_types else csv_types.column_types(column_types),
            progress=progress,
            notice=notice,
        )

    def with_rejects(self, rejects: Optional[str]) -> Settings:
        """The same settings with another rejects file (nothing checked
        again)."""
        other = copy.copy(self)
        object.__setattr__(other, "rejects", rejects)
        return other

    def chunk_threads(self, rows: int, busy: int = 0) -> int:
        """The threads for a chunk of ``rows`` rows: ``threads``, else one per
        CHUNK_ROWS_PER_THREAD rows (the library's own automatic choice splits
        only much larger batches than a chunk holds), leaving out ``busy``
        CPUs (those a decompressing reader keeps busy)."""
        return self.threads.resolve(rows, _options.CHUNK_ROWS_PER_THREAD, busy)

    def compress_threads(self) -> int:
        """The threads compressing a .gz or .zst output: ``threads``, else
        every CPU."""
        return self.threads.count or _options.cpu_count()
