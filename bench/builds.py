"""Which build a benchmark measures, builds of other commits to measure
against, and child processes that fail loudly.

Every benchmark in this folder prints ``describe()`` first: where the
fastxfen it imported lives (an installed copy, or a source tree and its
commit) and the placement reader and writer it runs.  ``build_commit``
builds another commit of this repository in a temporary tree outside it
(``git archive``, then the extensions built in place with this Python),
so that a benchmark can import that build by ``PYTHONPATH=<tree>/src``.
``run`` runs a child and stops the benchmark, with the child's output,
when it fails: no rate is ever printed for a run that did not happen.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(cmd, *, what: str = "", **kwargs) -> subprocess.CompletedProcess:
    """Run cmd (text output captured); on a non-zero exit or a signal, stop
    the benchmark with the command, its exit status and its output."""
    kwargs.setdefault("capture_output", True)
    kwargs.setdefault("text", True)
    done = subprocess.run(cmd, **kwargs)
    if done.returncode != 0:
        tail = "\n".join(((done.stdout or "") + (done.stderr or "")).splitlines()[-20:])
        status = f"signal {-done.returncode}" if done.returncode < 0 else f"exit {done.returncode}"
        name = what or " ".join(map(str, cmd[:4]))
        raise SystemExit(f"benchmark failed: {name}: {status}\n{tail}")
    return done


def check_cli(done: subprocess.CompletedProcess, what: str) -> subprocess.CompletedProcess:
    """A fastxfen command's run (stderr captured): exit status 0, or 1 when
    some rows were rejected.  Python exits 1 too when the command cannot
    even be imported or fails, with a traceback: that, or any other status,
    stops the benchmark with the command's output."""
    err = done.stderr or ""
    rejected = done.returncode == 1 and "Traceback" not in err
    if done.returncode != 0 and not rejected:
        tail = "\n".join(err.splitlines()[-20:])
        raise SystemExit(f"benchmark failed: {what}: exit {done.returncode}\n{tail}")
    return done


def describe_child(env: dict | None = None) -> str:
    """describe() of the fastxfen a child Python started with env imports
    (what a benchmark's `python -m fastxfen` children run)."""
    code = "import sys; sys.path.insert(0, sys.argv[1]); import builds; print(builds.describe())"
    return run(
        [sys.executable, "-c", code, str(Path(__file__).resolve().parent)],
        env=env,
        what="import fastxfen in a child",
    ).stdout.strip()


def commit_of(tree: Path) -> str:
    """The short commit of a git tree, with "+changes" when its tracked
    files differ from it; "no git commit" outside one."""
    try:
        head = subprocess.run(
            ["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "no git commit"
    dirty = subprocess.run(
        ["git", "-C", str(tree), "diff", "--quiet", "HEAD", "--", "src"], capture_output=True
    ).returncode
    return head + ("+changes" if dirty else "")


def origin(module_file: str) -> str:
    """Where a fastxfen package lives: this source tree (and its commit),
    another source tree (a build of another commit), or an installed copy."""
    package = Path(module_file).resolve().parent
    src = package.parent
    stamp = src.parent / ".built-commit"
    if stamp.exists():
        return f"a build of commit {stamp.read_text()[:7]} in {src.parent}"
    if src.name == "src" and (src.parent / "setup.py").exists():
        where = "this source tree" if src.parent == ROOT else f"the source tree {src.parent}"
        return f"{where}, commit {commit_of(src.parent)}"
    return f"installed copy in {package.parent}"


def describe(fx=None) -> str:
    """One line: version, origin, reader and writer of the fastxfen this
    process imports."""
    if fx is None:
        import fastxfen as fx
    about = fx.info() if hasattr(fx, "info") else {}
    reader = (
        f"reader {about['reader']}, writer {about['writer']}"
        if about
        else "reader unknown (this build has no fastxfen.info)"
    )
    return f"fastxfen {getattr(fx, '__version__', '?')} from {origin(fx.__file__)}; {reader}"


def installed_env(**extra) -> dict:
    """os.environ (plus ``extra``) for a child that starts as an installed
    package does: its modules run from bytecode compiled once (pip compiles
    on install), not compiled again on every start, as they would be under
    PYTHONDONTWRITEBYTECODE (which a CI image may set)."""
    env = {**os.environ, **extra}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def reader_env(name: str) -> dict:
    """Environment that makes a build of any age run reader `name`:
    FASTXFEN_READER, and for builds before it, FASTXFEN_NO_AVX512 and
    FASTXFEN_NO_AVX2 for the readers below AVX-512 and AVX2 (a build
    without an AVX2 reader then runs its SSE2 one)."""
    env = {"FASTXFEN_READER": name}
    if name != "avx512":
        env["FASTXFEN_NO_AVX512"] = "1"
    if name not in ("avx512", "avx2"):
        env["FASTXFEN_NO_AVX2"] = "1"
    return env


def resolve(commit: str) -> str:
    """The full hash of a commit of this repository."""
    return run(
        ["git", "-C", str(ROOT), "rev-parse", "--verify", commit + "^{commit}"]
    ).stdout.strip()


def build_commit(commit: str, where: Path | None = None) -> Path:
    """Build `commit` of this repository outside it and return the tree's
    src folder (for PYTHONPATH).  The tree goes to `where` (reused when it
    already holds a build of that commit) or to a fresh temporary folder;
    the caller removes it."""
    full = resolve(commit)
    tree = Path(where) if where else Path(tempfile.mkdtemp(prefix=f"fastxfen-{full[:7]}-"))
    stamp = tree / ".built-commit"
    if stamp.exists() and stamp.read_text() == full:
        return tree / "src"
    if tree.exists():
        shutil.rmtree(tree)
    tree.mkdir(parents=True)
    archive = subprocess.Popen(
        ["git", "-C", str(ROOT), "archive", "--format=tar", full], stdout=subprocess.PIPE
    )
    run(["tar", "-x", "-C", str(tree)], stdin=archive.stdout, what=f"unpack {full[:7]}")
    archive.wait()
    env = {**os.environ, "FASTXFEN_SANITIZE": ""}
    print(f"building {full[:7]} in {tree} ...", file=sys.stderr, flush=True)
    run(
        [sys.executable, "setup.py", "build_ext", "--inplace"],
        cwd=tree,
        env=env,
        what=f"build of {full[:7]}",
    )
    stamp.write_text(full)
    return tree / "src"
