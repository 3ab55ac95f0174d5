"""``fastxfen normalize --dask``: one normalize task per input file on a
Dask cluster (fastxfen.dask.run_files), with the values of this command's
arguments."""

from __future__ import annotations

import os
import sys

from fastxfen._optional import require_dask
from fastxfen.cli import values
from fastxfen.cli.commands import normalize
from fastxfen.cli.exits import EXIT_FAILED, EXIT_OK
from fastxfen.files.codecs import is_stdio
from fastxfen.files.errors import RunError

#: normalize's options that a run on Dask does not take (FEN text files only).
_NOT_WITH_DASK = ("unique", "input_format", "column", "to_column", "output_format")


def _check(args) -> list:
    """The input files of ``args``; a RunError for what --dask cannot do."""
    if not args.dask:
        raise RunError("several INPUT files need --dask SCHEDULER_ADDRESS (and -o OUTDIR)")
    for option in _NOT_WITH_DASK:
        if getattr(args, option, None):
            name = "--" + option.replace("_", "-")
            raise RunError(f"{name} does not apply with --dask (FEN text files only)")
    inputs = [args.input] + list(args.more_inputs or [])
    if any(is_stdio(path) for path in inputs):
        raise RunError("--dask reads files: give INPUT files (or directories), not stdin")
    if is_stdio(args.output):
        raise RunError("--dask writes one file per input: -o OUTDIR names a directory")
    if os.path.exists(args.output) and not os.path.isdir(args.output):
        raise RunError(f"--dask: -o {args.output} is not a directory")
    missing = [path for path in inputs if not os.path.exists(path)]
    if missing:
        raise RunError(f"cannot read {missing[0]}: No such file or directory")
    return inputs


def run(args) -> int:
    """Run ``fastxfen normalize --dask ADDRESS INPUT... -o OUTDIR``: one task
    per input file on a running Dask cluster; return the worst exit status."""
    inputs = _check(args)
    task = normalize.task(args)
    settings = values.settings(args, notices=False)
    distributed = require_dask("distributed")
    from fastxfen import dask as fxd  # (not imported by the other commands)

    def report(result):
        if args.quiet and result["status"] != EXIT_FAILED:
            return
        name = os.path.basename(result["input"])
        for line in result["messages"].splitlines():
            if args.quiet and not line.startswith("fastxfen: error"):
                continue
            print(f"{name}: {line}", file=sys.stderr)

    try:
        client = distributed.Client(args.dask, timeout="30s")
    except (OSError, TimeoutError) as exc:
        raise RunError(f"cannot reach the Dask scheduler at {args.dask}: {exc}") from None
    try:
        results = values.build(
            fxd.run_files,
            inputs,
            args.output,
            task,
            settings,
            rejects_dir=args.rejects,
            client=client,
            on_result=report,
        )
    finally:
        client.close()
    statuses = [result["status"] for result in results]
    if not args.quiet:
        bad = sum(status == EXIT_FAILED for status in statuses)
        print(f"fastxfen normalize --dask: {len(results)} files, {bad} failed", file=sys.stderr)
    return max(statuses, default=EXIT_OK)
