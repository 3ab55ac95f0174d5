"""The ways a command stops early: a CliError (usage, input or output
trouble), a Rejected row under ``--errors raise``, and Terminated (SIGTERM)."""

from __future__ import annotations

from fastxfen._errors import FenError


class CliError(Exception):
    """Something the command cannot get past; ends it with exit status 2."""


class Rejected(Exception):
    """A row rejected under --errors raise: ``number`` is its 1-based
    ``unit`` (line; record for decode, game for pgn) in the whole input.
    It ends the run with exit status 2 and publishes no output file."""

    def __init__(self, number: int, error: FenError, unit: str = "line") -> None:
        super().__init__(f"{unit} {number}: {error.location}: {error.reason}")
        self.number = number
        self.error = error


class Terminated(BaseException):
    """SIGTERM, raised in the main thread like KeyboardInterrupt for SIGINT
    (see signals); ends the command with exit status 143."""
