"""The entry point of the file engine: ``run(task, source, target,
settings)`` reads the input, runs the task over it a chunk at a time,
publishes the outputs and returns the statistics."""

from __future__ import annotations

from typing import Any, Optional

from fastxfen.files import table_formats
from fastxfen.files.decode_job import run_decode
from fastxfen.files.errors import RunError
from fastxfen.files.pgn_job import run_pgn
from fastxfen.files.progress import Progress
from fastxfen.files.report import PgnReport, Stats
from fastxfen.files.settings import Settings
from fastxfen.files.table_jobs import run_table
from fastxfen.files.tasks import Decode, Encode, Pgn, Task
from fastxfen.files.text_jobs import run_text
from fastxfen.files.training_job import by_entries, run_entries


class Run:
    """One run under way: what the jobs read from (``stats`` and, for
    encode, ``encoder`` are set once known)."""

    def __init__(self, task, source, target, settings: Settings, errors, progress) -> None:
        self.task = task
        self.source = source
        self.target = target
        self.settings = settings
        self.errors = errors
        self.progress = progress
        self.stats: Optional[Stats] = None
        self.encoder: Any = None


def run(
    task: Task, source: Optional[str] = "-", target: Optional[str] = "-", settings=None
) -> Stats | PgnReport:
    """Run ``task`` (a value of files.tasks) over the file ``source``,
    writing ``target`` ("-" or None: stdin and stdout; compressed by
    extension), as ``settings`` (a Settings) say.  Returns the run's Stats
    (a PgnReport for Pgn), whose ``status`` and ``closing`` say how it
    ended; a row rejected under errors "raise" stops the run there
    (``stopped``) and publishes nothing.  Raises RunError for what the run
    cannot get past (nothing is published), ValueError for a setting the
    task does not take."""
    settings = Settings() if settings is None else settings
    if not isinstance(task, Task):
        raise ValueError(f"task must be a task of fastxfen.files, not {task!r}")
    errors = task.errors(settings.errors)
    job = Run(task, source, target, settings, errors, Progress(settings.progress))
    if isinstance(task, Pgn):
        return run_pgn(job)
    job.stats = Stats(task.command, errors)
    if isinstance(task, Decode):
        decoder = task.format.decoder()
        job.stats.unit = "record"
        return run_decode(job, decoder)
    if isinstance(task, Encode):
        job.encoder = task.format.encoder()
        job.stats.coerced_as = job.encoder.coerced_as
    kind = table_formats.input_format(source, settings.input_format)
    if kind != "text":
        job.stats.unit = "row"
        return run_entries(job, kind) if by_entries(job, kind) else run_table(job, kind)
    _check_text(task, settings, target)
    return run_text(job)


#: The settings and options that apply to table inputs only.
_TABLE_ONLY = ("column", "column_types", "to_column", "reasons_column", "output_format")


def _check_text(task, settings: Settings, target) -> None:
    """A RunError for a table setting given with FEN text in and out."""
    for name in _TABLE_ONLY:
        if getattr(settings, name, None) not in (None, ()) or getattr(task, name, None) is not None:
            option = "--" + name.replace("_", "-")
            raise RunError(
                f"{option} applies to a table input (Parquet, Arrow, CSV, TSV, JSON Lines; "
                "see --input-format)"
            )
    named = table_formats.format_by_name(target)
    if named is not None and not isinstance(task, Encode):
        raise RunError(
            f"OUT {target} names a {named} table, but the input is FEN text; "
            "a table is written from a table input"
        )
