"""Test cases named by the rule of docs/semantics.md they check."""

import pytest


def rule_cases(rule, values):
    """``values`` of a parametrize as params with ids ``RULE-ID/<value>``
    for a short value without ``/``, else ``RULE-ID/<n>``."""
    out = []
    for n, value in enumerate(values):
        args = value if isinstance(value, tuple) else (value,)
        short = isinstance(value, str) and "/" not in value and len(value) <= 20
        out.append(pytest.param(*args, id=f"{rule}/{value if short else n}"))
    return out
