"""Trial's cleanliness checks for the shell's in-process tests, under pytest (issue 18).

What a `twisted.trial.unittest.TestCase` fails a test for, and plain pytest does not:
- an error logged while the test ran (an unhandled error in a Deferred is logged when the
  Deferred is garbage-collected, so the check collects garbage first), unless the test
  takes it back with `logged_errors.flush(ExceptionType)` (trial's `flushLoggedErrors`);
- a `DelayedCall` left pending on the global reactor, or a port or connection left open
  (trial's dirty-reactor check).
Leaked timers and unobserved failures are the class of bug that froze a table for good.

Why a fixture and not trial's `TestCase` classes: trial's `TestCase` spins the global
reactor to run each test, and in this pytest process the end-to-end clients already run
that reactor in a thread (tests/e2e/wsclients.py); the checks themselves are what matters,
and here they apply to the modules in `CHECKED_MODULES` without rewriting their tests. The
reactor checks run only when the global reactor is not running in another thread.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from typing import Any

import pytest
from twisted.logger import globalLogPublisher
from twisted.python.failure import Failure

# The shell's in-process tests: runtime, net, the event log, the session property test.
CHECKED_MODULES = {
    "test_runtime",
    "test_net",
    "test_net_app",
    "test_net_tokens",
    "test_session_fuzz",
    "test_log_repeat",
    "test_socket_gate",
    "test_store_contract",
    "test_store_failures",
    "test_store_urls",
}


class LoggedErrors:
    """The errors logged during one test (a log observer), as trial keeps them."""

    def __init__(self) -> None:
        self.failures: list[Failure] = []

    def __call__(self, event: dict[str, Any]) -> None:
        failure = event.get("log_failure")
        if isinstance(failure, Failure):
            self.failures.append(failure)

    def flush(self, *kinds: type[BaseException]) -> list[Failure]:
        """Take back (and return) the logged errors of these kinds: the test expected them."""
        gc.collect()
        taken = [f for f in self.failures if not kinds or f.check(*kinds)]
        self.failures = [f for f in self.failures if f not in taken]
        return taken


def _reactor_state() -> tuple[Any, set[Any], set[Any]]:
    from twisted.internet import reactor

    selectables = set(reactor.getReaders()) | set(reactor.getWriters())
    return reactor, set(reactor.getDelayedCalls()), selectables


@pytest.fixture(autouse=True)
def logged_errors(request: pytest.FixtureRequest) -> Iterator[LoggedErrors]:
    """Trial's checks around every test of `CHECKED_MODULES` (see module doc)."""
    collector = LoggedErrors()
    module = request.module.__name__.rsplit(".", 1)[-1]
    if module not in CHECKED_MODULES:
        yield collector
        return
    reactor, calls_before, selectables_before = _reactor_state()
    globalLogPublisher.addObserver(collector)
    try:
        yield collector
        gc.collect()  # an unreferenced failed Deferred logs "Unhandled error" now
    finally:
        globalLogPublisher.removeObserver(collector)
    problems = [
        f"logged error (flush it if the test expects it): {failure.type.__name__}: "
        f"{failure.getErrorMessage()}\n{failure.getTraceback()}"
        for failure in collector.failures
    ]
    if not reactor.running:  # else the e2e clients' reactor thread owns what is there
        _reactor, calls, selectables = _reactor_state()
        for call in calls - calls_before:
            if call.active():
                call.cancel()
                problems.append(f"pending DelayedCall left on the reactor: {call}")
        for selectable in selectables - selectables_before:
            reactor.removeReader(selectable)
            reactor.removeWriter(selectable)
            problems.append(f"open port or connection left on the reactor: {selectable}")
    if problems:
        pytest.fail("trial's checks failed:\n" + "\n".join(problems), pytrace=False)


# `make mutate` (docs/testing.md) runs each mutant's tests thousands of times: with this set
# (`MUTATE_MAX_EXAMPLES=25 make mutate`), a property test runs at most this many examples
# (about half the time of the three big property files); unset, every one runs as written.
MUTATE_MAX_EXAMPLES = "T24_MUTATE_MAX_EXAMPLES"


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
