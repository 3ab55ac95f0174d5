"""Shared test setup: the import path of the test helpers, the hypothesis
profile (support/profiles.py) and a few fixtures.

tests/ goes on ``sys.path`` here, and only here, so that test modules import
the reference models as ``models.*`` and the helpers as ``support.*``."""

import os
import sys

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from support import profiles  # noqa: E402

for name in ("fast", "full"):
    settings.register_profile(
        name,
        max_examples=100 if name == "full" else profiles.examples(100),
        deadline=None,
        derandomize=True,
        print_blob=True,
        suppress_health_check=[
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
            HealthCheck.filter_too_much,
        ],
    )
settings.load_profile(profiles.NAME)

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
START_FEN = START + " w KQkq - 0 1"
CAPABLANCA = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR"


@pytest.fixture(scope="session")
def fx():
    import fastxfen

    return fastxfen


@pytest.fixture(scope="session")
def start_fen():
    return START_FEN
