"""pytest set-up for the benchmarks in this folder.

Run them with ``pytest bench --benchmark-only``.  They live outside tests/,
so the plain ``pytest tests`` run never collects them.

fastxfen is imported as installed; if it is not installed, the in-place build
in src/ is used instead.
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

try:
    import fastxfen  # noqa: F401
except ImportError:
    sys.path.insert(0, str(HERE.parent / "src"))


def pytest_report_header(config):
    """Which build the benchmarks measure (origin, commit, reader)."""
    import builds

    import fastxfen as fx

    return builds.describe(fx)
