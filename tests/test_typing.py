"""The public API's types under `mypy --strict` (stubs and py.typed ship).

One mypy run checks three files of tests/typing/: api_usage.py (ordinary
use, no error allowed), api_reveal.py (each ``reveal_type`` must show the
type in its ``# T:`` comment) and api_wrong.py (each line marked
``# E: code`` must get that error, and nothing else any error)."""

import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("mypy")

HERE = os.path.join(os.path.dirname(__file__), "typing")
FILES = ("api_usage.py", "api_reveal.py", "api_wrong.py")
#: ``path:line: severity: message  [code]`` as mypy prints it.
LINE = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+): (?P<kind>error|note): (?P<text>.*)$")


@pytest.fixture(scope="module")
def reports():
    """{file name: [(line, kind, text)]} of one `mypy --strict` run."""
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", os.devnull]
        + [os.path.join(HERE, name) for name in FILES],
        capture_output=True,
        text=True,
    )
    found = {name: [] for name in FILES}
    for row in result.stdout.splitlines():
        match = LINE.match(row)
        if match:
            name = os.path.basename(match["file"])
            assert name in found, row
            found[name].append((int(match["line"]), match["kind"], match["text"]))
    assert any(found.values()), result.stdout + result.stderr  # mypy ran at all
    return found


def _marked(name, marker):
    """{line: text after the marker} of the lines of a file with ``# marker``."""
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        lines = f.read().splitlines()
    tag = f"# {marker}: "
    return {i: line.split(tag, 1)[1].strip() for i, line in enumerate(lines, 1) if tag in line}


def _errors(report):
    return [(line, text) for line, kind, text in report if kind == "error"]


@pytest.mark.slow
def test_api_usage_passes_mypy_strict(reports):
    assert reports["api_usage.py"] == []


@pytest.mark.slow
def test_every_overload_reveals_its_type(reports):
    expected = _marked("api_reveal.py", "T")
    assert len(expected) >= 30
    assert _errors(reports["api_reveal.py"]) == []
    revealed = {}
    for line, _, text in reports["api_reveal.py"]:
        match = re.fullmatch(r'Revealed type is "(.*)"', text)
        if match:
            revealed[line] = match[1].replace("builtins.", "")
    assert sorted(revealed) == sorted(expected)
    wrong = {
        line: (revealed[line], want)
        for line, want in expected.items()
        if not re.fullmatch(re.escape(want).replace(r"\*", ".*"), revealed[line])
    }
    assert wrong == {}


@pytest.mark.slow
def test_wrong_values_are_refused(reports):
    expected = _marked("api_wrong.py", "E")
    assert len(expected) >= 30
    got = {}
    for line, text in _errors(reports["api_wrong.py"]):
        match = re.search(r"\[([\w-]+)\]$", text)
        got.setdefault(line, set()).add(match[1] if match else text)
    assert sorted(got) == sorted(expected), "lines with errors differ from the marked ones"
    assert {line: codes for line, codes in got.items() if expected[line] not in codes} == {}
