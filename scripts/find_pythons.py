"""The Pythons this machine has that the project claims, one line each:
``VERSION PATH``, oldest first, the newest patch release of each minor.

Claimed: from requires-python's lower bound to the newest version
classifier of pyproject.toml.  Looked for as python3.N on PATH and under
pyenv ($PYENV_ROOT, else ~/.pyenv); free-threaded builds are left out.
A summary goes to stderr.  Used by .ci/run and scripts/verify_wheel.sh.

    python scripts/find_pythons.py [pyproject.toml]
"""

import glob
import os
import re
import shutil
import subprocess
import sys

PROBE = (
    "import sys, sysconfig; "
    "print(*sys.version_info[:3], sysconfig.get_config_var('Py_GIL_DISABLED') or 0); "
    "print(sys.executable)"
)


def claimed(pyproject: str) -> range:
    text = open(pyproject, encoding="utf-8").read()
    low = int(re.search(r'requires-python = ">=3\.(\d+)"', text)[1])
    high = max(int(n) for n in re.findall(r'"Programming Language :: Python :: 3\.(\d+)"', text))
    return range(low, high + 1)


def candidates(minors: range) -> list:
    pyenv = os.environ.get("PYENV_ROOT") or os.path.expanduser("~/.pyenv")
    paths = [shutil.which(f"python3.{n}") for n in minors]
    paths += sorted(glob.glob(os.path.join(pyenv, "versions", "*", "bin", "python3.*")))
    names = (p for p in paths if p and re.fullmatch(r"python3\.\d+", os.path.basename(p)))
    return list(dict.fromkeys(names))


def version(path: str):
    """(minor, patch, executable) of a working CPython with the GIL (a pyenv
    shim gives the interpreter it runs), else None."""
    try:
        out = subprocess.run([path, "-c", PROBE], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    lines = out.stdout.splitlines()
    fields = lines[0].split() if lines else []
    if out.returncode or len(lines) != 2 or fields[0] != "3" or fields[3:] != ["0"]:
        return None
    return int(fields[1]), int(fields[2]), lines[1]


def main() -> None:
    minors = claimed(sys.argv[1] if len(sys.argv) > 1 else "pyproject.toml")
    found = {}  # minor -> (patch, executable)
    for path in candidates(minors):
        got = version(path)
        if got and got[0] in minors and got[1] > found.get(got[0], (-1, ""))[0]:
            found[got[0]] = got[1:]
    names = ", ".join(f"3.{m}.{found[m][0]}" for m in sorted(found)) or "none"
    print(f"claimed: 3.{minors[0]} to 3.{minors[-1]}; found: {names}", file=sys.stderr)
    for minor in sorted(found):
        patch, path = found[minor]
        print(f"3.{minor}.{patch} {path}")


if __name__ == "__main__":
    main()
