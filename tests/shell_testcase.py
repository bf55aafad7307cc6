"""The base class of the shell's in-process tests: trial's `TestCase`, run by pytest (issue 18).

Why trial: a `twisted.trial.unittest.TestCase` fails a test that leaves a `DelayedCall` pending
on the global reactor, or a port or connection open on it (trial's dirty-reactor check), or
that logged an error, such as an unhandled error in a Deferred, which the test did not take
back with `flushLoggedErrors(ExceptionType)`. Leaked timers and unobserved failures are the
class of bug that froze a table for good; plain pytest notices neither.

What this class adds to trial's:
- garbage is collected before the logged errors are read (as the last cleanup, and in
  `flushLoggedErrors`): a failed Deferred nobody handled logs "Unhandled error" only when it
  is collected, and one caught in a reference cycle would otherwise be blamed on a later test;
- `tmp_path`: a fresh directory, removed afterwards (trial's `mktemp` makes its directories
  under the current directory, which under pytest is the repository);
- `monkeypatch`: pytest's `MonkeyPatch`, undone afterwards (pytest cannot hand fixtures to a
  unittest-style method; trial's `patch` has no `setitem` nor `setenv`).

A test that waits on the real reactor returns a Deferred (trial spins the reactor until it
fires); a test driven by a `task.Clock` returns nothing and never spins it. See docs/testing.md.
"""

from __future__ import annotations

import gc
import shutil
import tempfile
from pathlib import Path

import pytest
from twisted.python.failure import Failure
from twisted.trial import unittest


class ShellTestCase(unittest.TestCase):
    """trial's TestCase, garbage collected before its logged-error check; `tmp_path` and
    `monkeypatch` as the pytest fixtures of those names."""

    _tmp_path: Path | None = None
    _monkeypatch: pytest.MonkeyPatch | None = None

    def setUp(self) -> None:
        super().setUp()
        self.addCleanup(gc.collect)  # registered first, so it runs after every other cleanup

    def flushLoggedErrors(self, *errorTypes: type[BaseException]) -> list[Failure]:
        """trial's, after a garbage collection (see the module doc)."""
        gc.collect()
        return super().flushLoggedErrors(*errorTypes)

    @property
    def tmp_path(self) -> Path:
        """A fresh directory for this test (made on first use, removed afterwards)."""
        if self._tmp_path is None:
            self._tmp_path = Path(tempfile.mkdtemp(prefix="t24-test-"))
            self.addCleanup(shutil.rmtree, self._tmp_path, ignore_errors=True)
        return self._tmp_path

    @property
    def monkeypatch(self) -> pytest.MonkeyPatch:
        """pytest's `MonkeyPatch` for this test (undone afterwards)."""
        if self._monkeypatch is None:
            self._monkeypatch = pytest.MonkeyPatch()
            self.addCleanup(self._monkeypatch.undo)
        return self._monkeypatch
