"""The shell's in-process tests are trial TestCases (tests/shell_testcase.py): show that, run by
pytest, they fail a test that leaves a DelayedCall pending, a port or a connection open, or
an error in a Deferred unhandled (issue 18), and pass one that cleans up, takes back the
errors it expects, or waits on the real reactor.

The leaky tests run in a pytest child process (pytester), so the reactor they leave dirty and
the errors they log are not this process's."""

from __future__ import annotations

from pathlib import Path

from shell_testcase import ShellTestCase

pytest_plugins = ["pytester"]

TESTS = Path(__file__).resolve().parents[1]  # where shell_testcase.py lives

LEAKY = """
import gc

from shell_testcase import ShellTestCase
from twisted.internet import defer, protocol, reactor, task
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol


class LeakyTests(ShellTestCase):
    def test_clean(self):
        d = defer.Deferred()
        d.addErrback(lambda failure: None)
        d.errback(ValueError("handled"))

    def test_leaves_a_timer(self):
        reactor.callLater(30, lambda: None)

    def test_leaves_a_port_open(self):
        reactor.listenTCP(0, protocol.Factory.forProtocol(protocol.Protocol), interface="127.0.0.1")

    def test_leaves_a_connection_open(self):
        port = reactor.listenTCP(
            0, protocol.Factory.forProtocol(protocol.Protocol), interface="127.0.0.1"
        )
        self.addCleanup(port.stopListening)  # the port is closed; the connection is not
        endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", port.getHost().port)
        return connectProtocol(endpoint, protocol.Protocol())

    def test_drops_a_failed_deferred(self):
        defer.fail(ValueError("nobody looked"))

    def test_drops_a_failed_deferred_in_a_reference_cycle(self):
        holder = {}
        holder["self"] = holder  # only the garbage collector frees this Deferred
        holder["d"] = defer.fail(OSError("lost in a cycle"))

    def test_flushes_what_it_expects(self):
        defer.fail(KeyError("expected"))
        assert self.flushLoggedErrors(KeyError)

    def test_waits_on_the_real_reactor(self):
        return task.deferLater(reactor, 0.01, lambda: None)
"""


class TrialChecksTests(ShellTestCase):
    def test_a_leaked_timer_port_connection_or_unhandled_deferred_error_fails_the_test(self):
        pytester = self.fixture("pytester")
        pytester.makeini(f"[pytest]\npythonpath = {TESTS}\n")
        pytester.makepyfile(test_leaky=LEAKY)
        result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-v")
        outcomes = result.parseoutcomes()
        assert (outcomes.get("passed"), outcomes.get("failed")) == (3, 5), result.stdout.str()
        dirty = "twisted.trial.util.DirtyReactorAggregateError: Reactor was unclean."
        for name, marks in [
            ("test_leaves_a_timer", [dirty, "DelayedCalls:"]),
            ("test_leaves_a_port_open", [dirty, "Selectables:", "twisted.internet.tcp.Port"]),
            (
                "test_leaves_a_connection_open",
                [dirty, "Selectables:", "twisted.internet.tcp.Client"],
            ),
            ("test_drops_a_failed_deferred", ["ValueError: nobody looked"]),
            ("test_drops_a_failed_deferred_in_a_reference_cycle", ["OSError: lost in a cycle"]),
        ]:
            report = self.report_of(result, name)
            for mark in marks:
                assert mark in report, (name, mark, report)
        for name in (
            "test_clean",
            "test_flushes_what_it_expects",
            "test_waits_on_the_real_reactor",
        ):
            result.stdout.fnmatch_lines([f"*test_leaky.py::LeakyTests::{name} PASSED*"])

    @staticmethod
    def report_of(result, name: str) -> str:
        """The failure report pytest printed for the test `name` (its section of stdout)."""
        text = result.stdout.str()
        start = text.index(f"LeakyTests.{name} _")
        end = text.find("\n___", start + 1)
        return text[start : end if end != -1 else len(text)]
