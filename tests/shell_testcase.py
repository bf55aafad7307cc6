"""The base class of the shell's in-process tests: trial's `TestCase`, run by pytest (issue 18).

Why trial: a `twisted.trial.unittest.TestCase` fails a test that leaves a `DelayedCall` pending
on the global reactor, or a port or connection open on it (trial's dirty-reactor check), or
that logged an error, such as an unhandled error in a Deferred, which the test did not take
back with `flushLoggedErrors(ExceptionType)`. Leaked timers and unobserved failures are the
class of bug that froze a table for good; plain pytest notices neither.

What this class adds to trial's:
- garbage is collected before the logged errors are read (as the last cleanup, and in
  `flushLoggedErrors`): a failed Deferred nobody handled logs "Unhandled error" only when it
  is collected, and one caught in a reference cycle would otherwise be blamed on a later test.
  What existed before the test is frozen (`gc.freeze`) meanwhile, so these collections look at
  the test's own objects only: a full collection of this process costs ~0.1 s a test, and
  garbage another test left is not blamed on this one;
- pytest's fixtures by name, since pytest cannot pass them to a unittest-style method:
  `self.fixture("capsys")`, and `tmp_path`, `monkeypatch` and `capsys` as attributes.

A test that waits on the real reactor returns a Deferred (trial spins the reactor until it
fires); a test driven by a `task.Clock` returns nothing and never spins it. See docs/testing.md.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest
from twisted.internet import defer
from twisted.python.failure import Failure
from twisted.trial import unittest


class ShellTestCase(unittest.TestCase):
    """trial's TestCase, garbage collected before its logged-error check; pytest's fixtures
    by name."""

    _frozen = False

    @pytest.fixture(autouse=True)
    def _pytest_request(self, request: pytest.FixtureRequest) -> None:
        self._request = request

    def setUp(self) -> None:
        super().setUp()
        gc.freeze()  # what existed before the test: not this test's garbage, and not rescanned
        self._frozen = True
        self.addCleanup(self._collect_then_unfreeze)  # registered first: runs after the others

    def flushLoggedErrors(self, *errorTypes: type[BaseException]) -> list[Failure]:
        """trial's, after a garbage collection of the test's objects (see the module doc)."""
        if self._frozen:  # trial calls this too, after the test, once collected
            gc.collect()
        return super().flushLoggedErrors(*errorTypes)

    def _collect_then_unfreeze(self) -> None:
        gc.collect()  # only what the test made: the rest was frozen at setUp
        gc.unfreeze()
        self._frozen = False

    def fixture(self, name: str) -> Any:
        """The pytest fixture `name` for this test (set up on first use)."""
        return self._request.getfixturevalue(name)

    @property
    def tmp_path(self) -> Path:
        return self.fixture("tmp_path")

    @property
    def monkeypatch(self) -> pytest.MonkeyPatch:
        return self.fixture("monkeypatch")

    @property
    def capsys(self) -> pytest.CaptureFixture[str]:
        return self.fixture("capsys")


def fired(d: defer.Deferred) -> Any:
    """The result of a Deferred that has already fired (raises its failure)."""
    results: list[Any] = []
    d.addBoth(results.append)
    assert results, "the Deferred has not fired"
    if hasattr(results[0], "raiseException"):
        results[0].raiseException()
    return results[0]
