"""Every rule of docs/semantics.md has tests: a rule's ID (the bold
``**RULE-ID**`` before it on the page) must be the id, or the part of the id
before ``/``, of at least one parametrized test case in tests/.  A rule that
loses its last test, or a test id naming a rule the page does not have, fails
here."""

import glob
import importlib
import os
import re

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SEMANTICS = os.path.join(HERE, os.pardir, "docs", "semantics.md")
RULE = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+")


def doc_rules():
    with open(SEMANTICS, encoding="utf-8") as f:
        return re.findall(r"\*\*(" + RULE.pattern + r")\*\*", f.read())


def parametrize_ids(function):
    """The explicit ids of a test function's parametrize marks: ``id=`` of
    its params, ``ids=`` lists, and str values of a single argument (pytest
    uses those as the id)."""
    out = []
    for mark in getattr(function, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        names, values = mark.args[0], mark.args[1]
        ids = mark.kwargs.get("ids")
        if isinstance(ids, (list, tuple)):
            out += [i for i in ids if isinstance(i, str)]
        single = isinstance(names, str) and "," not in names
        for value in values:
            if isinstance(value, type(pytest.param(None))):
                if value.id is not None:
                    out.append(value.id)
            elif single and isinstance(value, str):
                out.append(value)
    return out


def collected_ids():
    """(module, test, id) for every explicit test id in tests/test_*.py."""
    found = []
    for path in sorted(glob.glob(os.path.join(HERE, "test_*.py"))):
        name = os.path.splitext(os.path.basename(path))[0]
        try:
            module = importlib.import_module(name)
        except pytest.skip.Exception:
            continue  # an optional dependency is missing; its tests name no rule
        for attr, value in vars(module).items():
            if attr.startswith("test") and callable(value):
                found += [(name, attr, i) for i in parametrize_ids(value)]
    return found


def rule_of(test_id):
    head = test_id.split("/", 1)[0]
    return head if RULE.fullmatch(head) else None


def test_rule_ids_are_unique():
    rules = doc_rules()
    assert len(rules) > 30
    assert len(set(rules)) == len(rules), sorted(r for r in rules if rules.count(r) > 1)


def test_every_rule_has_a_test():
    used = {rule_of(i) for _, _, i in collected_ids()}
    missing = [r for r in doc_rules() if r not in used]
    assert not missing, f"rules of docs/semantics.md without a test: {missing}"


def test_every_rule_id_in_the_tests_is_a_rule():
    rules = set(doc_rules())
    unknown = sorted(
        (module, test, i) for module, test, i in collected_ids() if rule_of(i) not in rules | {None}
    )
    assert not unknown, f"test ids naming no rule of docs/semantics.md: {unknown}"
