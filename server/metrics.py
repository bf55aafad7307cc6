"""The server's metrics, kept and exposed with `prometheus_client` (the standard library of
the Prometheus project) in a registry of this server's own.

Why a registry per `Metrics` and not the library's global default: several servers (and
hubs) live in one Python process in the tests, and each must count only its own; the
default registry would also expose the library's process and platform collectors, which
say nothing about t24.

What it keeps: counters and latency histograms updated on the reactor thread by the runtime
and the network layer, and gauges (and a few counters kept elsewhere, e.g. the lease
manager's) read when `/metrics` is scraped. `exposition` writes them in the format the
scraper asks for (the Prometheus text format 0.0.4, or OpenMetrics).

The cost: the library keeps each value behind a lock and a histogram walks its buckets, about
11 us for the five updates of one command (timeit, a loaded 2-core machine) against about 1.5
us for plain counters. So the counters and histograms the runtime updates for every message,
command or append (`PlainCounter`, `PlainHistogram`) are plain numbers updated on the reactor
thread, read when scraped by a collector of this module (the library's way for values it
does not own), and exposed in the library's standard formats all the same (issue 32).

Exposed (all prefixed `t24_`; the list for operators is docs/operations.md, "Health and
metrics"): connections and sockets, live tables (gauges), events appended, messages
received, protocol errors, commands by outcome (counters), append latency and command
latency (histograms, seconds; command latency runs from a command's arrival to the
publication of its events), lag probe round trips and the estimated delay of players'
commands (issue 19), and on a node of several the leases held, redirects and failovers
(issue 16).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterator

from prometheus_client import (
    CollectorRegistry,
    Gauge,
    disable_created_metrics,
)
from prometheus_client.exposition import choose_encoder
from prometheus_client.metrics_core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.utils import floatToGoString

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
COMMAND_OUTCOMES = ("accepted", "refused", "failed")

# No `*_created` series: in the text format each would be one more gauge per counter and
# histogram (the process's start time, twice the lines for nothing an alert reads). The
# switch is the library's and process-wide; this process is a t24 server.
disable_created_metrics()


class _CountersReadAtScrape:
    """A collector of counters kept outside this module (plain ints elsewhere, e.g. the
    lease manager's), read when scraped. `prometheus_client.Counter` has no read callback,
    and a custom collector is the library's way for values it does not own."""

    def __init__(self) -> None:
        self.counters: dict[str, tuple[str, Callable[[], float]]] = {}

    def collect(self) -> Iterator[Metric]:
        for name, (help_text, read) in sorted(self.counters.items()):
            family = CounterMetricFamily(name, help_text)  # `_total` is added to the sample
            family.add_metric([], read())
            yield family


class PlainCounter:
    """A counter updated on the reactor thread only: a number, no lock (module doc)."""

    def __init__(self, name: str, help_text: str, labels: tuple[str, str] | None = None) -> None:
        self.name = name  # without `_total`: the family adds it to the sample
        self.help_text = help_text
        self.labels = labels  # (label, value) of this child, or None
        self.value = 0.0

    def inc(self, amount: float = 1) -> None:
        self.value += amount


class PlainHistogram:
    """A histogram updated on the reactor thread only: a count per bucket, no lock."""

    def __init__(self, name: str, help_text: str, buckets: tuple[float, ...]) -> None:
        self.name = name
        self.help_text = help_text
        self.bounds = buckets
        self.counts = [0] * (len(buckets) + 1)  # the last one: above every bound (+Inf)
        self.sum = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect_left(self.bounds, value)] += 1  # the first bound >= value (`le`)
        self.sum += value


class _PlainCollector:
    """Exposes the plain counters and histograms when scraped, in the order registered;
    the children of one labelled counter go into one family."""

    def __init__(self) -> None:
        self.metrics: list[PlainCounter | PlainHistogram] = []

    def collect(self) -> Iterator[Metric]:
        counters: dict[str, CounterMetricFamily] = {}
        for metric in self.metrics:
            if isinstance(metric, PlainHistogram):
                family = HistogramMetricFamily(metric.name, metric.help_text)
                cumulative, buckets = 0.0, []
                for bound, count in zip((*metric.bounds, float("inf")), metric.counts, strict=True):
                    cumulative += count
                    buckets.append((floatToGoString(bound), cumulative))
                family.add_metric([], buckets, metric.sum)
                yield family
                continue
            labels = metric.labels
            counter = counters.get(metric.name)
            if counter is None:
                counter = CounterMetricFamily(
                    metric.name, metric.help_text, labels=[labels[0]] if labels else None
                )
                counters[metric.name] = counter
            counter.add_metric([labels[1]] if labels else [], metric.value)
        yield from counters.values()


class Metrics:
    """Every metric of one server process, in its own `CollectorRegistry`."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        self._plain = _PlainCollector()
        self.events_appended = self._counter(
            "t24_events_appended", "Events made durable in the event store."
        )
        self.messages_received = self._counter(
            "t24_messages_received", "WebSocket messages received."
        )
        self.protocol_errors = self._counter(
            "t24_protocol_errors", "Requests refused by the protocol layer."
        )
        # every outcome exposed from the start, at 0
        self._command_counters = {
            outcome: self._counter(
                "t24_commands", "Game commands processed, by outcome.", ("outcome", outcome)
            )
            for outcome in COMMAND_OUTCOMES
        }
        self.append_latency = self._histogram(
            "t24_append_latency_seconds", "Time of one durable append to the event store."
        )
        self.command_latency = self._histogram(
            "t24_command_latency_seconds",
            "From a command's arrival to the publication of its events (or its refusal).",
        )
        # Issue 19: every lag probe's round trip (server/net/lag.py), and the estimated one-way
        # delay credited to each command of a player (0 when its estimate is stale).
        self.lag_rtt = self._histogram(
            "t24_lag_rtt_seconds", "Round trip of one lag probe (server ping to pong)."
        )
        self.lag_delay = self._histogram(
            "t24_lag_delay_seconds",
            "Estimated one-way delay of a player's connection when one of its commands arrives.",
        )
        self.lag_stale = self._counter(
            "t24_lag_stale_commands",
            "Player commands that arrived with no lag estimate (stale or unmeasured: no credit).",
        )
        registry.register(self._plain)
        self._gauges: dict[str, Gauge] = {}
        self._read_counters = _CountersReadAtScrape()
        registry.register(self._read_counters)

    def _counter(
        self, name: str, help_text: str, labels: tuple[str, str] | None = None
    ) -> PlainCounter:
        counter = PlainCounter(name, help_text, labels)
        self._plain.metrics.append(counter)
        return counter

    def _histogram(self, name: str, help_text: str) -> PlainHistogram:
        histogram = PlainHistogram(name, help_text, LATENCY_BUCKETS)
        self._plain.metrics.append(histogram)
        return histogram

    def gauge(self, name: str, help_text: str, read: Callable[[], float]) -> None:
        """A gauge whose value is read when `/metrics` is scraped; registering a name again
        replaces its reader (a second factory on the same hub in tests)."""
        if name not in self._gauges:
            self._gauges[name] = Gauge(name, help_text, registry=self.registry)
        self._gauges[name].set_function(read)

    def counter(self, name: str, help_text: str, read: Callable[[], float]) -> None:
        """A counter (`name` ends in `_total`) kept elsewhere, read when scraped."""
        self._read_counters.counters[name] = (help_text, read)

    def count_command(self, outcome: str) -> None:
        """Count one processed command by outcome (one of `COMMAND_OUTCOMES`)."""
        self._command_counters[outcome].inc()

    def value(self, sample: str, **labels: str) -> float | None:
        """The current value of one sample (`t24_events_appended_total`, a histogram's
        `..._count`), None when there is no such sample. For tests and benches."""
        return self.registry.get_sample_value(sample, labels)

    def exposition(self, accept: str = "") -> tuple[bytes, str]:
        """Every metric in the format the scraper's `Accept` header asks for (Prometheus
        text by default, OpenMetrics when asked): `(body, content type)`."""
        encoder, content_type = choose_encoder(accept)
        return encoder(self.registry), content_type

    def render(self) -> str:
        """The Prometheus text exposition of every metric."""
        return self.exposition()[0].decode("utf-8")
