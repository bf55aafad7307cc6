"""Floods at the socket against a real server process (issue 18): many connections sending
flat out while another table is played. Slowloris and the connection caps are in
test_server_connection_limits.py (no latency bound: they run beside the other files).

Bounded: fixed counts, a few seconds each, loopback only.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rawws import RawClient
from server_process import ServerProcess

# `alone`: `make test` runs this file after the workers, on its own: its bounds compare a
# flooded server's pings with an idle twin's, and beside make test's other workers (three on
# two cores) and a busy core the flooded server's share of the CPU decided them (p95 120 ms
# over the twin's 8, 2026-12-03), not the server (docs/testing.md, "Suite time").
pytestmark = [pytest.mark.e2e, pytest.mark.alone]

HERE = Path(__file__).resolve().parent
FLOODERS = 40
FLOOD_SECONDS = 4.5  # shorter than the abuse cool-down (5 s): one wave of 40 flooders
PROBE_INTERVAL = 0.02  # within each prober's own rate limit (50 requests/s)
# Seconds of ping round trip another connection may see while 40 connections of one address
# flood the server. The control is a twin server process, idle, probed by the same test in
# turns with the flooded one, so both see the same load of this shared machine at the same
# moments (load 7-13 is common here, and then a ping to an idle server takes up to 100-300
# ms now and then: no fixed figure alone survives that). Bounds:
# - ADDED_P50: over the twin's median, which scheduling noise moves far less;
# - ADDED_TAIL: the flooded server's p95 over the twin's p95 (what the flood costs another
#   table). Not p99: of the ~120-160 pings of a run, p99 is the slowest one or two, and one
#   scheduling stall of a loaded machine that lands on the flooded server's ping and not
#   the twin's (they are probed in turns) decided it alone;
# - ABSOLUTE_P99: p99 under 250 ms, unless the twin's own slowest ping shows the machine
#   stalled the idle process as long (then under that stall + ADDED_TAIL).
# A deviation, on purpose: issue 18's example bound was "p99 under 100 ms on this 2-core
# machine". A fixed 100 ms fails on an idle server at the loads CI shares this machine with
# (an idle twin measured 343 ms p99 at load 12), so the bound is relative to the twin, with
# 250 ms as the absolute one; docs/performance.md, "Floods" ("A deviation from the issue's
# example bound") has the figures (flooded p99 9-13 ms against the twin's 3-8 ms today).
# Measured (docs/performance.md, "Floods"): the flooded server's p99 within 5-40 ms of the
# twin's. Before fair turns between addresses: p99 ~470 ms and a p50 of 88 ms (a ping waited
# behind 40 connections' slices in every reactor turn), at a lower load: every bound here
# fails on that.
ADDED_P50 = 0.005
ADDED_TAIL = 0.05
ABSOLUTE_P99 = 0.25


def quantile(samples: list[float], q: int) -> float:
    return statistics.quantiles(samples, n=100)[q - 1]


def flood_and_probe(process: ServerProcess, twin: ServerProcess) -> tuple[list, list, int]:
    """While 40 connections of another address flood `process`, ping it and its idle `twin`
    in turns: the round trips of each, and the number of flood frames sent."""
    prober, control = RawClient(process.port), RawClient(twin.port)
    flooded: list[float] = []
    idle: list[float] = []
    try:
        flooders = subprocess.Popen(
            [
                sys.executable,
                str(HERE / "flooder.py"),
                str(process.port),
                str(FLOODERS),
                str(FLOOD_SECONDS),
            ],
            stdout=subprocess.PIPE,
            cwd=HERE,
            env={**os.environ, "PYTHONPATH": f"{HERE}:{HERE.parents[1]}"},
        )
        cpu_before = process.cpu_seconds()
        try:
            time.sleep(0.5)  # the flood is under way (the probers measure during it)
            started = time.monotonic()
            while time.monotonic() - started < FLOOD_SECONDS - 1.0:
                flooded.append(prober.round_trip())
                idle.append(control.round_trip())
                time.sleep(PROBE_INTERVAL)
            cpu = process.cpu_seconds() - cpu_before
        finally:
            out, _ = flooders.communicate(timeout=30)
    finally:
        prober.close()
        control.close()
    sent = int(out.split()[-1])
    print(
        f"server CPU during the flood {cpu:.2f} s; flood frames sent {sent}; pings "
        f"{len(flooded)}; flooded p50 {quantile(flooded, 50) * 1000:.1f} ms, p99 "
        f"{quantile(flooded, 99) * 1000:.1f} ms, p95 {quantile(flooded, 95) * 1000:.1f} ms, "
        f"slowest {max(flooded) * 1000:.0f} ms; idle twin p50 {quantile(idle, 50) * 1000:.1f} "
        f"ms, p95 {quantile(idle, 95) * 1000:.1f} ms, p99 {quantile(idle, 99) * 1000:.1f} ms, "
        f"slowest {max(idle) * 1000:.0f} ms"
    )
    return flooded, idle, sent


def assert_bounded(flooded: list[float], idle: list[float]) -> None:
    """Another connection's latency during the flood is within the bounds (module top)."""
    p50, p95, p99 = (quantile(flooded, q) for q in (50, 95, 99))
    assert p50 < quantile(idle, 50) + ADDED_P50, f"p50 {p50 * 1000:.1f} ms during the flood"
    assert p95 < quantile(idle, 95) + ADDED_TAIL, f"p95 {p95 * 1000:.1f} ms during the flood"
    cap = max(ABSOLUTE_P99, max(idle) + ADDED_TAIL)
    assert p99 < cap, f"p99 {p99 * 1000:.1f} ms during the flood (cap {cap * 1000:.0f} ms)"


@pytest.fixture(scope="module")
def twin(tmp_path_factory):
    """An idle server process: the control every flood measurement is compared with (one
    for the module: it is only pinged)."""
    process = ServerProcess(tmp_path_factory.mktemp("twin"), "--log-level", "info").start()
    yield process
    process.kill()


def test_forty_connections_flooding_without_pause_do_not_stall_another_table(tmp_path, twin):
    """The fairness itself: abuse closes are off (`--abuse-strikes` out of reach), so the 40
    connections send flat out for the whole flood and each of their frames costs the server
    a decode and a `rate_limited` reply; another address's pings still wait one slice."""
    process = ServerProcess(tmp_path, "--log-level", "info", "--abuse-strikes", "100000000")
    process.start()
    try:
        flooded, idle, sent = flood_and_probe(process, twin)
        assert sent > 100_000  # the flood really ran
        assert "sustained rate-limit abuse" not in process.log_text()  # and never stopped
        assert_bounded(flooded, idle)
    finally:
        process.kill()


def test_a_flood_is_closed_for_abuse_and_its_address_cooled_down(tmp_path, twin):
    process = ServerProcess(tmp_path, "--log-level", "info").start()
    try:
        flooded, idle, sent = flood_and_probe(process, twin)
        closes = process.log_text().count("sustained rate-limit abuse")
        print(f"abuse closes {closes}")
        assert sent > 100_000
        assert closes and "address 127.0.0.2 refused for 5.0 s" in process.log_text()
        assert_bounded(flooded, idle)
    finally:
        process.kill()
