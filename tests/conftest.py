"""Pytest hooks for the whole suite.

`make mutate` (docs/testing.md) runs each mutant's tests thousands of times: with
`MUTATE_MAX_EXAMPLES=25 make mutate`, a property test runs at most that many examples (about
half the time of the three big property files); unset, every one runs as written.
"""

from __future__ import annotations

import os

import pytest

MUTATE_MAX_EXAMPLES = "T24_MUTATE_MAX_EXAMPLES"  # bench/mutate.py sets it for mutmut's runs


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Cap each property test's examples during a mutation run (`MUTATE_MAX_EXAMPLES`)."""
    cap = os.environ.get(MUTATE_MAX_EXAMPLES)
    if not cap:
        return
    from hypothesis import settings

    for item in items:
        test = getattr(item, "obj", None)
        current = getattr(test, "_hypothesis_internal_use_settings", None)
        if current is not None and current.max_examples > int(cap):
            test._hypothesis_internal_use_settings = settings(current, max_examples=int(cap))
