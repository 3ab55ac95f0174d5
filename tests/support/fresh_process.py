"""Command-line runs in a fresh interpreter, for what a run imports."""

import ast
import subprocess
import sys


def runs_importing(module: str, runs: list) -> tuple:
    """(exit statuses, whether ``module`` was imported) of ``cli.main`` on
    each argument list of ``runs``, one after the other in a new process."""
    code = (
        "import sys\n"
        "from fastxfen import cli\n"
        f"statuses = [cli.main(argv) for argv in {[[str(a) for a in r] for r in runs]!r}]\n"
        f"print(repr((statuses, {module!r} in sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return ast.literal_eval(done.stdout.strip().splitlines()[-1])  # the tuple printed last
