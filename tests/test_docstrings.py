"""What ``help()`` shows for the public API: numpy-style docstrings with
Parameters, Returns, Raises and Examples sections, examples that run
(doctest), and signatures that show the allowed values of each option."""

import doctest
import inspect
import pydoc
import re

import pytest

import fastxfen as fx
from fastxfen.pgn import normalize_pgn

#: Names of fastxfen.__all__ that are data, not callables: no docstring of
#: their own (their meaning is in the module docs and in record_dtype's).
DATA = {"PIECE_CODES", "PLANE_EXTRAS", "POSITION_DTYPE", "POSITION_DTYPE_10x8"}
PUBLIC = {name: getattr(fx, name) for name in fx.__all__ if name not in DATA}
PUBLIC["normalize_pgn"] = normalize_pgn
#: The sections every public callable has (a class describes its
#: constructor), and Raises but for the one that raises nothing.
SECTIONS = ("Parameters", "Returns", "Examples")
RAISES_NOTHING = {"FenError"}


def test_the_data_names_are_data():
    for name in DATA:
        assert not callable(getattr(fx, name)), name
    assert all(callable(obj) for obj in PUBLIC.values())


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_docstring_has_the_numpy_sections(name):
    doc = inspect.getdoc(PUBLIC[name])
    assert doc, f"{name} has no docstring"
    raises = () if name in RAISES_NOTHING else ("Raises",)
    for section in SECTIONS + raises:
        assert f"\n{section}\n{'-' * len(section)}\n" in doc, f"{name}: no {section} section"
    params = doc.split("\nParameters\n", 1)[1].split("\nReturns\n", 1)[0]
    signature = inspect.signature(PUBLIC[name])
    for parameter in signature.parameters:
        if parameter != "self":
            assert parameter in params, f"{name}: parameter {parameter} is not described"


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_docstring_examples_run(name):
    finder = doctest.DocTestFinder(recurse=False)
    tests = [t for t in finder.find(PUBLIC[name], name, module=False, globs={}) if t.examples]
    assert tests, f"{name} has no example"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("name", ["normalize", "decode", "encode", "to_planes", "pack"])
def test_help_shows_allowed_values_not_alias_names(name):
    text = pydoc.render_doc(PUBLIC[name], renderer=pydoc.plaintext)
    for alias in ("'Castling'", "'EnPassant'", "'Errors'", "'Perspective'", "'PackFormat'"):
        assert alias not in text
    for parameter in inspect.signature(PUBLIC[name]).parameters.values():
        assert not isinstance(parameter.annotation, str), (name, parameter)


def test_help_of_normalize_lists_the_option_values():
    text = pydoc.render_doc(fx.normalize, renderer=pydoc.plaintext)
    assert "castling: Literal['xfen', 'shredder'] = 'xfen'" in text
    assert "en_passant: Literal['fen', 'xfen', 'legal'] = 'xfen'" in text
    assert "fields: Literal[4, 6, 'same'] = 6" in text


def test_docstrings_point_to_docs_only_as_the_source_distribution():
    pointing = [name for name, obj in PUBLIC.items() if "docs/" in inspect.getdoc(obj)]
    assert len(pointing) >= 3
    for name, obj in PUBLIC.items():
        doc = " ".join(inspect.getdoc(obj).split())
        for match in re.finditer(r"docs/\w+\.md", doc):
            after = doc[match.end() : match.end() + 30]
            assert "source distribution" in after, (name, doc[match.start() : match.end() + 30])


def _raises_entry(doc, error):
    """The text under ``error`` in a docstring's Raises section, or ''."""
    if "\nRaises\n" not in doc:
        return ""
    section = re.split(r"\n\w+\n-+\n", doc.split("\nRaises\n------\n", 1)[1])[0]
    entries = re.split(r"^(\w+)\n", section, flags=re.M)
    return dict(zip(entries[1::2], entries[2::2])).get(error, "")


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_no_docstring_says_a_missing_value_raises(name):
    """None is a missing value (docs/failures.md of the source distribution):
    kept as missing, never a TypeError."""
    doc = inspect.getdoc(PUBLIC[name])
    assert "None" not in _raises_entry(doc, "TypeError"), name


@pytest.mark.parametrize("name", ["normalize", "validate", "encode", "zobrist", "unique"])
def test_none_is_kept_as_a_missing_value(name):
    result = getattr(fx, name)([None])
    assert len(result) == (0 if name == "unique" else 1)
