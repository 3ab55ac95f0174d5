"""``fastxfen normalize --dask``: one ``fastxfen normalize`` task per input
file on a Dask cluster.  ``normalize_files`` and ``normalize_file`` (the
task) are the Python side of it, also reached as ``fastxfen.dask.normalize_files``
and ``fastxfen.dask.normalize_file``."""

from __future__ import annotations

import contextlib
import io
import os
import sys
import threading
from typing import Any, Iterable, List, Optional

from fastxfen import _options
from fastxfen._optional import require_dask as _require
from fastxfen.cli.args import run_argv
from fastxfen.cli.commands import normalize
from fastxfen.cli.errors import CliError
from fastxfen.cli.io import is_stdio
from fastxfen.cli.report import EXIT_FAILED, EXIT_OK


class _ThreadStderr(io.TextIOBase):
    """sys.stderr for a process whose threads run several commands at once:
    a thread that set a buffer writes there, every other thread to the real
    stream."""

    def __init__(self, real) -> None:
        self.real = real
        self.local = threading.local()

    def write(self, text):
        target = getattr(self.local, "buffer", None)
        return (target if target is not None else self.real).write(text)

    def flush(self):
        target = getattr(self.local, "buffer", None)
        (target if target is not None else self.real).flush()

    def isatty(self):
        return False if getattr(self.local, "buffer", None) is not None else self.real.isatty()

    def __getattr__(self, name):
        return getattr(self.real, name)


_STDERR_LOCK = threading.Lock()
_STDERR_USERS = [0]


@contextlib.contextmanager
def _captured_stderr():
    """What this thread writes to sys.stderr, in a StringIO; other threads
    are not affected.  The proxy is in place only while someone captures."""
    with _STDERR_LOCK:
        if _STDERR_USERS[0] == 0 or not isinstance(sys.stderr, _ThreadStderr):
            sys.stderr = _ThreadStderr(sys.stderr)
        proxy = sys.stderr
        _STDERR_USERS[0] += 1
    buffer = io.StringIO()
    proxy.local.buffer = buffer
    try:
        yield buffer
    finally:
        proxy.local.buffer = None
        with _STDERR_LOCK:
            _STDERR_USERS[0] -= 1
            if _STDERR_USERS[0] == 0 and sys.stderr is proxy:
                sys.stderr = proxy.real


def normalize_file(argv: List[str]) -> dict:
    """Run ``fastxfen normalize`` (``argv`` after the command name) in this
    process, as a task on a worker does: the same streaming code as the
    command line.  Returns {"input", "output", "status", "messages"}."""
    with _captured_stderr() as messages:
        status = run_argv(["normalize", *argv], {"normalize": normalize.run})
    output = argv[argv.index("-o") + 1] if "-o" in argv else None
    return {"input": argv[0], "output": output, "status": status, "messages": messages.getvalue()}


def _shards(inputs: Iterable[str]) -> List[str]:
    """Input files; a directory stands for the regular files in it, sorted."""
    files = []
    for path in inputs:
        if os.path.isdir(path):
            files += sorted(
                os.path.join(path, name)
                for name in os.listdir(path)
                if os.path.isfile(os.path.join(path, name)) and not name.startswith(".")
            )
        else:
            files.append(path)
    return files


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
    fields: Any = 6,
    threads: Optional[int] = None,
    chunk_size: Optional[int] = None,
    level: Optional[int] = None,
    on_result=None,
) -> List[dict]:
    """Normalize each input file (a directory: each file in it) as one Dask
    task, writing ``outdir/<name>`` (compressed by its extension, like the
    command line) and, with ``rejects_dir``, ``rejects_dir/<name>``.

    ``client`` is a ``distributed.Client``, else one is made for
    ``scheduler`` (an address), else the task runs on Dask's default
    scheduler.  The paths must be the same for the workers (a shared file
    system).  Returns, in input order, one dict per file: input, output,
    status (the command's exit status) and messages (its stderr).  ``fields``
    is normalize's --fields: 6, 4 or "same"."""
    _options.castling(castling)
    _options.en_passant(en_passant)
    _options.errors(errors)
    _options.threads(threads)
    files = [os.path.abspath(path) for path in _shards(inputs)]
    outdir = os.path.abspath(outdir)
    names = [os.path.basename(path) for path in files]
    seen = set()
    for name in names:
        if name in seen:
            raise ValueError(f"two inputs are named {name}: their outputs would clash")
        seen.add(name)
    if rejects_dir is not None:
        rejects_dir = os.path.abspath(rejects_dir)
        if rejects_dir == outdir:
            raise ValueError("the rejects directory is also the output directory")
    for directory in (outdir, rejects_dir):
        if directory is not None:
            os.makedirs(directory, exist_ok=True)
    argvs = []
    for path, name in zip(files, names):
        target = os.path.join(outdir, name)
        if os.path.exists(target) and os.path.samefile(path, target):
            raise ValueError(f"the output {target} is also the input")
        argv = [
            path,
            "-o",
            target,
            "--castling",
            castling,
            "--en-passant",
            en_passant,
            "--errors",
            errors,
        ]
        if rejects_dir is not None:
            argv += ["--rejects", os.path.join(rejects_dir, name)]
        if epd:
            argv.append("--epd")
        if str(fields) != "6":
            argv += ["--fields", str(fields)]
        if threads is not None:
            argv += ["--threads", str(threads)]
        if chunk_size is not None:
            argv += ["--chunk-size", str(chunk_size)]
        if level is not None:
            argv += ["--level", str(level)]
        argvs.append(argv)
    if not argvs:
        return []
    if client is None and scheduler is not None:
        distributed = _require("distributed")
        with distributed.Client(scheduler) as own:
            return _run_tasks(own, argvs, on_result)
    return _run_tasks(client, argvs, on_result)


def _run_tasks(client, argvs, on_result) -> List[dict]:
    results: List[Optional[dict]] = [None] * len(argvs)
    if client is None:
        dask = _require("dask")
        task = dask.delayed(normalize_file, pure=False)
        computed = dask.compute(*[task(argv) for argv in argvs])
        for k, result in enumerate(computed):
            results[k] = result
            if on_result is not None:
                on_result(result)
        return results
    distributed = _require("distributed")
    futures = [client.submit(normalize_file, argv, pure=False) for argv in argvs]
    index = {future.key: k for k, future in enumerate(futures)}
    for future in distributed.as_completed(futures):
        k = index[future.key]
        try:
            result = future.result()
        except Exception as exc:  # the task failed on its worker
            result = {
                "input": argvs[k][0],
                "output": argvs[k][2],
                "status": 2,
                "messages": f"fastxfen: error: {type(exc).__name__}: {exc}\n",
            }
        results[k] = result
        if on_result is not None:
            on_result(result)
    return results


def run(args) -> int:
    """Run ``fastxfen normalize --dask ADDRESS INPUT... -o OUTDIR``: one task
    per input file on a running Dask cluster; return the worst exit status."""
    if not args.dask:
        raise CliError("several INPUT files need --dask SCHEDULER_ADDRESS (and -o OUTDIR)")
    for option in ("unique", "input_format", "column", "to_column", "output_format"):
        if getattr(args, option, None):
            name = "--" + option.replace("_", "-")
            raise CliError(f"{name} does not apply with --dask (FEN text files only)")
    inputs = [args.input] + list(getattr(args, "more_inputs", None) or [])
    if any(is_stdio(path) for path in inputs):
        raise CliError("--dask reads files: give INPUT files (or directories), not stdin")
    if is_stdio(args.output):
        raise CliError("--dask writes one file per input: -o OUTDIR names a directory")
    if os.path.exists(args.output) and not os.path.isdir(args.output):
        raise CliError(f"--dask: -o {args.output} is not a directory")
    missing = [path for path in inputs if not os.path.exists(path)]
    if missing:
        raise CliError(f"cannot read {missing[0]}: No such file or directory")
    distributed = _require("distributed")

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
        raise CliError(f"cannot reach the Dask scheduler at {args.dask}: {exc}") from None
    try:
        results = normalize_files(
            inputs,
            args.output,
            client=client,
            rejects_dir=args.rejects,
            castling=args.castling,
            en_passant=args.en_passant,
            errors=args.errors,
            epd=args.epd,
            fields=args.fields,
            threads=args.threads,
            chunk_size=args.chunk_size,
            level=args.level,
            on_result=report,
        )
    except ValueError as exc:
        raise CliError(str(exc)) from None
    finally:
        client.close()
    statuses = [result["status"] for result in results]
    if not args.quiet:
        bad = sum(status == EXIT_FAILED for status in statuses)
        print(f"fastxfen normalize --dask: {len(results)} files, {bad} failed", file=sys.stderr)
    return max(statuses, default=EXIT_OK)
