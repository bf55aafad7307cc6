"""The log's repeat limit (issue 18): a warning that repeats is written a bounded number of
times per window, and the next one written says how many were dropped."""

from __future__ import annotations

from shell_testcase import ShellTestCase
from twisted.logger import LogLevel, PredicateResult

from server.__main__ import RepeatLimit


def warning(text: str = "store down: {why}") -> dict:
    return {"log_level": LogLevel.warn, "log_namespace": "t24.x", "log_format": text, "why": 1}


class LogRepeatTests(ShellTestCase):
    def test_repeats_past_the_burst_are_dropped_and_counted_then_reported(self):
        now = [0.0]
        limit = RepeatLimit(burst=3, window=10.0, clock=lambda: now[0])
        results = [limit(warning()) for _ in range(10)]
        assert results.count(PredicateResult.maybe) == 3 and results[3:] == [PredicateResult.no] * 7
        assert limit(warning("another kind")) is PredicateResult.maybe  # kinds count apart
        assert limit({"log_level": LogLevel.info, "log_format": "x"}) is PredicateResult.maybe
        now[0] = 10.0  # a new window: the first one through tells how many were dropped
        reported = warning()
        assert limit(reported) is PredicateResult.maybe and reported["suppressed"] == 7
        again = warning()
        assert limit(again) is PredicateResult.maybe and "suppressed" not in again  # told once
