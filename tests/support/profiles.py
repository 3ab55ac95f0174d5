"""The hypothesis profile the test suite runs under (registered in conftest.py).

``FASTXFEN_HYPOTHESIS=fast`` (the default) runs every property with a fifth
of its examples, for a quick run of ``python -m pytest tests -q``;
``FASTXFEN_HYPOTHESIS=full`` runs the numbers written in the tests (CI runs
the properties a second time that way, with the slow tests).  Both profiles
are derandomized (the same examples on every run and machine) and have no
deadline, because the oracles (python-chess) are slow and their speed varies.
"""

import os

NAME = os.environ.get("FASTXFEN_HYPOTHESIS", "fast")
if NAME not in ("fast", "full"):
    raise ValueError(f"FASTXFEN_HYPOTHESIS must be 'fast' or 'full', not {NAME!r}")
FULL = NAME == "full"


def examples(n):
    """``max_examples`` for a property written for ``n`` examples."""
    return n if FULL else max(10, n // 5)
