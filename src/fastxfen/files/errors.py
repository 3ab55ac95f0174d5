"""The ways a run over files stops early: a RunError (a setting that does
not fit, an input that cannot be read, an output that cannot be written) and
a Rejected row under errors "raise".  (SIGTERM's Terminated is in signals.)"""

from __future__ import annotations

from fastxfen._errors import FenError


class RunError(Exception):
    """Something a run cannot get past; nothing is published.  The command
    line ends with exit status 2 and the message."""


class Rejected(Exception):
    """A row rejected under errors "raise": ``number`` is its 1-based
    ``unit`` (line; record for decode, row for a table, game for pgn) in the
    whole input.  The run stops and publishes no output file."""

    def __init__(self, number: int, error: FenError, unit: str = "line") -> None:
        super().__init__(f"{unit} {number}: {error.location}: {error.reason}")
        self.number = number
        self.error = error
