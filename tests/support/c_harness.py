"""Build a C harness of tests/c against the core's sources; the calling
test is skipped without a C compiler or a source tree."""

import os
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CORE = ROOT / "src" / "fastxfen" / "core"
# the placement readers, a file per instruction set (core/readers/)
READERS = tuple(f"readers/{path.stem}" for path in sorted(CORE.glob("readers/*.c")))
# the export formats, a file each (core/export/)
EXPORT = tuple(f"export/{path.stem}" for path in sorted(CORE.glob("export/*.c")))
# what parsing, the rules and writing one row need
KERNEL = ("tables", "parse", "tail", *READERS, "rules", "write", "record")


def build(harness, core, exe, flags=(), libs=()):
    """Compile tests/c/<harness>.c with core/<name>.c for each name in
    ``core`` into ``exe``; return ``exe``."""
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    if not shutil.which(cc[0]) or not CORE.is_dir():
        pytest.skip("needs a C compiler and the source tree")
    sources = [ROOT / "tests" / "c" / f"{harness}.c"] + [CORE / f"{name}.c" for name in core]
    command = [*cc, *flags, f"-I{CORE}", *map(str, sources), *libs, "-o", str(exe)]
    subprocess.run(command, check=True)
    return exe
