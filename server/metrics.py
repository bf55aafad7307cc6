"""The server's metrics and their Prometheus text exposition (format 0.0.4), no dependency.

What it keeps: a few counters, gauges read at scrape time, and latency histograms, in one
`Metrics` object that the runtime and the network layer update on the reactor thread (so no
locks). `render()` writes them in the text format Prometheus scrapes from `/metrics`.

Exposed (all prefixed `t24_`): connections (gauge), live tables (gauge), events appended
(counter), commands (counter, by outcome), append latency and command latency (histograms,
seconds; command latency runs from a command's arrival to the publication of its events),
lag probe round trips and the estimated delay of players' commands (issue 19).
"""

from __future__ import annotations

import bisect
from collections.abc import Callable

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Histogram:
    """Cumulative-bucket histogram (Prometheus semantics: `le` upper bounds, +Inf last)."""

    def __init__(self, name: str, help_text: str, buckets: tuple[float, ...] = LATENCY_BUCKETS):
        self.name = name
        self.help = help_text
        self.buckets = buckets
        self.counts = [0] * (len(buckets) + 1)
        self.sum = 0.0
        self.count = 0

    def observe(self, value: float) -> None:
        """Record one observation (seconds)."""
        self.counts[bisect.bisect_left(self.buckets, value)] += 1
        self.sum += value
        self.count += 1

    def render(self) -> list[str]:
        lines = [f"# HELP {self.name} {self.help}", f"# TYPE {self.name} histogram"]
        cumulative = 0
        for bound, count in zip(self.buckets, self.counts, strict=False):
            cumulative += count
            lines.append(f'{self.name}_bucket{{le="{bound}"}} {cumulative}')
        lines.append(f'{self.name}_bucket{{le="+Inf"}} {self.count}')
        lines.append(f"{self.name}_sum {self.sum:.6f}")
        lines.append(f"{self.name}_count {self.count}")
        return lines


class Metrics:
    """Every metric of one server process; gauges are callables read at scrape time."""

    def __init__(self) -> None:
        self.events_appended = 0
        self.commands: dict[str, int] = {}
        self.messages_received = 0
        self.protocol_errors = 0
        self.gauges: dict[str, tuple[str, Callable[[], float]]] = {}
        self.counters: dict[str, tuple[str, Callable[[], float]]] = {}
        self.append_latency = Histogram(
            "t24_append_latency_seconds", "Time of one durable append to the event store."
        )
        self.command_latency = Histogram(
            "t24_command_latency_seconds",
            "From a command's arrival to the publication of its events (or its refusal).",
        )
        # Issue 19: every lag probe's round trip (server/net/lag.py), and the estimated one-way
        # delay credited to each command of a player (0 when its estimate is stale).
        self.lag_rtt = Histogram(
            "t24_lag_rtt_seconds", "Round trip of one lag probe (server ping to pong)."
        )
        self.lag_delay = Histogram(
            "t24_lag_delay_seconds",
            "Estimated one-way delay of a player's connection when one of its commands arrives.",
        )
        self.lag_stale = 0

    def gauge(self, name: str, help_text: str, read: Callable[[], float]) -> None:
        """Register a gauge whose value is read when `/metrics` is scraped."""
        self.gauges[name] = (help_text, read)

    def counter(self, name: str, help_text: str, read: Callable[[], float]) -> None:
        """Register a counter (`name` ends in `_total`) kept elsewhere, read when scraped."""
        self.counters[name] = (help_text, read)

    def count_command(self, outcome: str) -> None:
        """Count one processed command by outcome (`accepted`, `refused`, `failed`)."""
        self.commands[outcome] = self.commands.get(outcome, 0) + 1

    def render(self) -> str:
        """The Prometheus text exposition of every metric."""
        lines: list[str] = []
        for name, (help_text, read) in sorted(self.gauges.items()):
            lines += [f"# HELP {name} {help_text}", f"# TYPE {name} gauge", f"{name} {read()}"]
        for name, (help_text, read) in sorted(self.counters.items()):
            lines += [f"# HELP {name} {help_text}", f"# TYPE {name} counter", f"{name} {read()}"]
        lines += [
            "# HELP t24_events_appended_total Events made durable in the event store.",
            "# TYPE t24_events_appended_total counter",
            f"t24_events_appended_total {self.events_appended}",
            "# HELP t24_messages_received_total WebSocket messages received.",
            "# TYPE t24_messages_received_total counter",
            f"t24_messages_received_total {self.messages_received}",
            "# HELP t24_protocol_errors_total Requests refused by the protocol layer.",
            "# TYPE t24_protocol_errors_total counter",
            f"t24_protocol_errors_total {self.protocol_errors}",
            "# HELP t24_commands_total Game commands processed, by outcome.",
            "# TYPE t24_commands_total counter",
        ]
        for outcome in sorted(self.commands):
            lines.append(f't24_commands_total{{outcome="{outcome}"}} {self.commands[outcome]}')
        lines += self.append_latency.render()
        lines += self.command_latency.render()
        lines += self.lag_rtt.render()
        lines += self.lag_delay.render()
        lines += [
            "# HELP t24_lag_stale_commands_total Player commands that arrived with no lag "
            "estimate (stale or unmeasured: no credit).",
            "# TYPE t24_lag_stale_commands_total counter",
            f"t24_lag_stale_commands_total {self.lag_stale}",
        ]
        return "\n".join(lines) + "\n"
