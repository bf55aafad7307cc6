"""Each connection's network lag, measured from server times only (issue 19, R-PLAY-2).

What it keeps: for one connection, the probes in flight (number -> when the server sent
it) and a sliding window of recent round-trip times, each measured as (pong arrival - probe
sent), both read on the server's clock. No Twisted here: the session feeds it plain
microseconds, so the unit tests drive it with numbers.

Theory of operation (why this estimator, docs/architecture.md "Lag and fair first touch"):
- The server sends a WebSocket ping whose payload names the probe (`probe_payload`); every
  WebSocket stack answers with a pong carrying the same payload (RFC 6455). Only the server's
  two times are compared, so the client's clock (and its skew) never enters.
- A pong whose payload is not a probe still in flight is ignored: a client cannot answer a
  probe before it was sent, nor invent one. It can only answer *late*, which makes it look
  slower: that is why the credit a game gives is capped (option `max_credit_ms`).
- `floor` = half the minimum RTT of the window: the propagation delay one way, unbiased by
  queueing spikes (a spike only ever adds). `jitter` = half of (median RTT - minimum RTT):
  the typical extra one way. The estimated one-way delay of a message is `floor + jitter`,
  the delay of a typical packet, so a compensated time errs early and late alike.
- Stale: with no pong for `stale_after_us`, or fewer than `min_samples` RTTs, there is no
  estimate (None), and a game gives no credit.

Who is probed, and how often (issue 32, docs/architecture.md "Lag and fair first touch"):
the probes once a second are for the seats of tables that judge by lag (a 24 Challenge with
`touch_compensation`); every other player connection gets `INITIAL_PROBES` after its hello
(a first figure for the proctor's lag column) and is then measured by the WebSocket
keep-alive pings the transport sends anyway (`keepalive_rtt`, every `auto_ping_interval`),
at no cost of its own. Its estimate is then judged stale after `KEEPALIVE_STALE_INTERVALS`
keep-alive intervals instead of `STALE_AFTER_US`.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

PROBE_PREFIX = b"t24-lag:"  # distinct from Autobahn's own 12-byte keep-alive payloads
PROBE_INTERVAL_S = 1.0  # one probe a second per player connection: a low, steady rate
WINDOW = 16  # RTT samples kept (16 s at the probe interval)
MIN_SAMPLES = 2
STALE_AFTER_US = 5_000_000  # no pong for 5 s: no credit
MAX_IN_FLIGHT = 8  # probes waiting for a pong; older ones are forgotten (answered too late)
INITIAL_PROBES = 3  # probes after a player's hello (a first estimate), whatever its tables
KEEPALIVE_STALE_INTERVALS = 3  # keep-alive intervals without a pong before a stale estimate


@dataclass(frozen=True)
class LagEstimate:
    """One connection's lag at a moment, in microseconds; `delay_us` None when stale."""

    delay_us: int | None  # the estimated one-way delay (floor + jitter), or None: no credit
    floor_us: int  # half the minimum RTT in the window
    jitter_us: int  # half of (median RTT - minimum RTT)
    samples: int
    age_us: int | None  # since the last pong, None if there was none

    def as_data(self) -> dict[str, int | bool | None]:
        """Plain data for presence pushes (milliseconds, rounded)."""
        return {
            "delay_ms": None if self.delay_us is None else round(self.delay_us / 1000),
            "jitter_ms": round(self.jitter_us / 1000),
            "samples": self.samples,
            "stale": self.delay_us is None,
        }


def probe_payload(number: int) -> bytes:
    """The ping payload of probe `number`."""
    return PROBE_PREFIX + number.to_bytes(8, "big")


def probe_number(payload: bytes) -> int | None:
    """The probe a pong answers, or None when the payload is not one of ours."""
    if len(payload) != len(PROBE_PREFIX) + 8 or not payload.startswith(PROBE_PREFIX):
        return None
    return int.from_bytes(payload[len(PROBE_PREFIX) :], "big")


class LagEstimator:
    """The probes and RTT window of one connection (see the module doc)."""

    def __init__(
        self,
        window: int = WINDOW,
        stale_after_us: int = STALE_AFTER_US,
        min_samples: int = MIN_SAMPLES,
    ) -> None:
        self.rtts: deque[int] = deque(maxlen=window)
        self.stale_after_us = stale_after_us
        self.min_samples = min_samples
        self.in_flight: dict[int, int] = {}
        self.next_number = 1
        self.last_pong_us: int | None = None

    def probe(self, now_us: int) -> bytes:
        """Start a probe at `now_us`; returns the payload to send as a WebSocket ping."""
        number = self.next_number
        self.next_number += 1
        self.in_flight[number] = now_us
        while len(self.in_flight) > MAX_IN_FLIGHT:
            del self.in_flight[min(self.in_flight)]
        return probe_payload(number)

    def pong(self, payload: bytes, now_us: int) -> int | None:
        """A pong arrived at `now_us`; returns the RTT it measured, or None if ignored."""
        number = probe_number(payload)
        sent = None if number is None else self.in_flight.pop(number, None)
        if sent is None or now_us < sent:
            return None
        rtt = now_us - sent
        self.rtts.append(rtt)
        self.last_pong_us = now_us
        return rtt

    def keepalive_rtt(self, rtt_us: int, now_us: int) -> None:
        """An RTT measured by a transport keep-alive ping (its own payload, its own send
        time; the transport matched the pong): one more sample, as a probe's."""
        if rtt_us >= 0:
            self.rtts.append(rtt_us)
            self.last_pong_us = now_us

    def estimate(self, now_us: int) -> LagEstimate:
        """The lag at `now_us` (see the module doc for why floor + jitter)."""
        if not self.rtts:
            return LagEstimate(None, 0, 0, 0, None)
        ordered = sorted(self.rtts)
        floor = ordered[0] // 2
        jitter = (ordered[(len(ordered) - 1) // 2] - ordered[0]) // 2
        age = None if self.last_pong_us is None else now_us - self.last_pong_us
        fresh = age is not None and age <= self.stale_after_us
        enough = len(ordered) >= self.min_samples
        delay = floor + jitter if fresh and enough else None
        return LagEstimate(delay, floor, jitter, len(ordered), age)
