"""tests/conftest.py's trial checks catch what they promise (issue 18): a test that leaves a
DelayedCall on the reactor, or a failed Deferred nobody handled, fails; a clean one passes."""

from __future__ import annotations

from pathlib import Path

pytest_plugins = ["pytester"]

CONFTEST = (Path(__file__).resolve().parents[1] / "conftest.py").read_text()

LEAKY = """
from twisted.internet import defer, reactor


def test_clean():
    d = defer.Deferred()
    d.addErrback(lambda failure: None)
    d.errback(ValueError("handled"))


def test_leaves_a_timer():
    reactor.callLater(30, lambda: None)


def test_drops_a_failed_deferred():
    defer.fail(ValueError("nobody looked"))


def test_flushes_what_it_expects(logged_errors):
    defer.fail(KeyError("expected"))
    assert logged_errors.flush(KeyError)
"""


def test_a_leaked_timer_or_an_unhandled_deferred_error_fails_the_test(pytester):
    pytester.makeconftest(CONFTEST.replace('"test_runtime",', '"test_runtime", "test_leaky",'))
    pytester.makepyfile(test_leaky=LEAKY)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=4, errors=2)
    result.stdout.fnmatch_lines(["*pending DelayedCall left on the reactor*"])
    result.stdout.fnmatch_lines(["*logged error*ValueError: nobody looked*"])
