"""The per-connection lag estimator (server/net/lag.py, issue 19), on plain microseconds."""

from __future__ import annotations

from server.net.lag import (
    MAX_IN_FLIGHT,
    STALE_AFTER_US,
    LagEstimator,
    probe_number,
    probe_payload,
)


def measured(rtts_ms: list[int], start: int = 0) -> tuple[LagEstimator, int]:
    """An estimator that saw one probe a second answered after each RTT; returns it and the
    time of the last pong."""
    lag, now = LagEstimator(), start
    for rtt in rtts_ms:
        payload = lag.probe(now)
        lag.pong(payload, now + rtt * 1000)
        now += 1_000_000
    return lag, now - 1_000_000 + rtts_ms[-1] * 1000


def test_the_delay_is_half_the_minimum_rtt_plus_half_the_median_excess() -> None:
    lag, last = measured([100, 120, 100, 160, 104])
    estimate = lag.estimate(last)
    assert estimate.floor_us == 50_000  # half of the 100 ms minimum
    assert estimate.jitter_us == 2_000  # median 104: (104 - 100) / 2
    assert estimate.delay_us == 52_000
    assert estimate.as_data() == {"delay_ms": 52, "jitter_ms": 2, "samples": 5, "stale": False}


def test_a_queueing_spike_does_not_move_the_floor() -> None:
    lag, last = measured([40, 40, 900, 40, 40])
    assert lag.estimate(last).delay_us == 20_000


def test_client_clock_skew_is_irrelevant_only_server_times_are_compared() -> None:
    # The same RTTs measured with the server's clock anywhere give the same estimate; the
    # pong carries no client time at all, only the probe's number.
    near, last_near = measured([60, 62, 61])
    far, last_far = measured([60, 62, 61], start=1_700_000_000_000_000)
    assert near.estimate(last_near) == far.estimate(last_far)


def test_no_estimate_without_enough_samples_or_when_stale() -> None:
    lag = LagEstimator()
    assert lag.estimate(0).delay_us is None  # never measured
    lag.pong(lag.probe(0), 30_000)
    assert lag.estimate(30_000).delay_us is None  # one sample is not enough
    lag.pong(lag.probe(1_000_000), 1_030_000)
    assert lag.estimate(1_030_000).delay_us == 15_000
    assert lag.estimate(1_030_000 + STALE_AFTER_US).delay_us == 15_000  # at the edge: fresh
    stale = lag.estimate(1_030_001 + STALE_AFTER_US)
    assert stale.delay_us is None and stale.as_data()["stale"] is True


def test_an_unknown_or_forged_pong_is_ignored() -> None:
    lag = LagEstimator()
    lag.probe(0)
    assert lag.pong(b"hello", 10_000) is None  # not a probe payload (e.g. a keep-alive)
    assert lag.pong(probe_payload(99), 10_000) is None  # a probe never sent
    assert lag.pong(probe_payload(1), 10_000) == 10_000
    assert lag.pong(probe_payload(1), 20_000) is None  # answered twice: the second is ignored
    assert list(lag.rtts) == [10_000]


def test_an_inflated_pong_only_looks_slower() -> None:
    # A client that holds its pongs back earns a bigger estimate; the game caps the credit.
    lag, last = measured([20, 20, 20])
    honest = lag.estimate(last).delay_us
    cheat, cheat_last = measured([400, 400, 400])
    assert honest == 10_000 and cheat.estimate(cheat_last).delay_us == 200_000


def test_probes_in_flight_are_bounded() -> None:
    lag = LagEstimator()
    for second in range(MAX_IN_FLIGHT + 5):
        lag.probe(second * 1_000_000)
    assert len(lag.in_flight) == MAX_IN_FLIGHT
    assert lag.pong(probe_payload(1), 99_000_000) is None  # forgotten: answered too late


def test_probe_payloads_round_trip() -> None:
    assert probe_number(probe_payload(7)) == 7
    assert probe_number(b"t24-lag:" + b"\x00" * 7) is None
