"""Properties of the analysis (server/analysis, issue 31) over random rounds:

- the analysis of a replayed log equals the analysis of the live one: the events as the live
  table made them, as a real SQLite store gives them back, and as an audit export checked
  from the file alone (what a bundle holds) give the same analysis;
- it never reads outside the log and the solver: while it runs, no file is opened, no socket,
  process or database is touched (a `sys.addaudithook` hook), and the clock and the random
  generators are not consulted (they raise if called).
"""

from __future__ import annotations

import importlib.util
import random
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.analysis.table import analyse_table
from server.audit.export import check_export, export_stream
from server.eventlog.backends import open_blocking_store
from server.eventlog.envelope import NewEvent
from server.games import challenge
from server.games.base import Actor, Event, RuleViolation

FIXTURE_SCOPE = HealthCheck.function_scoped_fixture  # the fixtures are per test, on purpose
T0 = 1_700_000_000_000_000
S = 1_000_000
# The contract suite's example of the 24 Challenge (what it plays at random), by path: the
# contract folder is not a package on the tests' path.
_spec = importlib.util.spec_from_file_location(
    "challenge_example", Path(__file__).parents[1] / "contract/game_examples/challenge.py"
)
assert _spec is not None and _spec.loader is not None
example = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(example)


def random_round(seed: int) -> tuple[dict, list[Event]]:
    """A round of the contract suite's example (tests/contract/game_examples/challenge.py),
    with time passing and deadlines firing at random: (options, the live events)."""
    rng = random.Random(seed)
    options = example.options(rng)
    state = challenge.initial_state(options)
    now, events = T0, []
    for _ in range(250):
        if challenge.is_over(state):
            break
        live = challenge.deadlines(state)
        commands = example.commands(state, rng)
        if live and (not commands or rng.random() < 0.1):
            deadline = min(live, key=lambda d: d.at)
            now, command = max(now, deadline.at), deadline.command
        elif commands:
            now += rng.randint(0, S)
            command = rng.choice(commands)
        else:
            break
        try:
            new = challenge.decide(state, command, now)
        except RuleViolation:
            continue
        for event in new:
            state = challenge.evolve(state, event)
            # as the log gives it back: msgpack, lists for tuples
            data = msgpack.unpackb(msgpack.packb(dict(event.data)), raw=False)
            events.append(Event(event.type, data))
    return options, events


def stored(tmp_path, options: dict, events: list[Event]) -> tuple[list, list]:
    """(the store's events, the events of its export checked from the file alone)."""
    store = open_blocking_store(f"sqlite:///{tmp_path / 'log.sqlite'}")
    try:
        new = [NewEvent("TableCreated", {"game": "challenge", "options": options})]
        new += [NewEvent(e.type, dict(e.data), Actor("proctor", "p1")) for e in events]
        store.append("table/t", 0, new)
        loaded = store.load("table/t")
        exported = export_stream(store, "table/t", T0)
    finally:
        store.close()
    checked = check_export(exported.lines)
    assert checked.report.ok
    return loaded, list(checked.events)


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32))
def test_the_analysis_of_the_replayed_log_equals_the_live_one(tmp_path_factory, seed):
    options, events = random_round(seed)
    live_log = [Event("TableCreated", {"game": "challenge", "options": options}), *events]
    live = analyse_table(live_log)
    loaded, exported = stored(tmp_path_factory.mktemp("log"), options, events)
    assert analyse_table(loaded) == live
    assert analyse_table(exported) == live
    assert analyse_table(exported).as_data() == live.as_data()
    # and the figures are the log's: every play revealed is in the timeline once
    revealed = [e.data["play"] for e in events if e.type == "CardRevealed"]
    assert [p.play for p in live.timeline] == revealed


class ReadOutside(AssertionError):
    """The analysis reached for something besides its events and the solver."""


_watching = False
_seen: list[str] = []
FORBIDDEN = (
    "open",
    "socket.",
    "subprocess.",
    "os.system",
    "os.exec",
    "os.spawn",
    "sqlite3.",
    "urllib.",
    "http.",
    "shutil.",
    "os.listdir",
    "os.scandir",
    "glob.",
)


def _hook(event: str, args: tuple) -> None:
    if _watching and event.startswith(FORBIDDEN):
        _seen.append(event)


sys.addaudithook(_hook)  # audit hooks cannot be removed: it only records while watching


@contextmanager
def sealed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No file, socket, process or database (recorded by the hook), no clock, no randomness."""
    global _watching

    def refuse(*args: object, **kwargs: object) -> None:
        raise ReadOutside("the analysis consulted the clock or a random generator")

    for name in ("time", "time_ns", "monotonic", "perf_counter", "localtime", "gmtime"):
        monkeypatch.setattr(time, name, refuse)
    for name in ("random", "randint", "choice", "shuffle", "getrandbits"):
        monkeypatch.setattr(random, name, refuse)
    _seen.clear()
    _watching = True
    try:
        yield
    finally:
        _watching = False
        monkeypatch.undo()
    assert not _seen, f"the analysis reached outside the log: {_seen}"


@settings(
    max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32))
def test_the_analysis_reads_nothing_but_the_log_and_the_solver(monkeypatch, seed):
    options, events = random_round(seed)
    log = [Event("TableCreated", {"game": "challenge", "options": options}), *events]
    expected = analyse_table(log).as_data()  # imports done, caches warm or not: either way
    from server.puzzles import card_facts as cards

    cards._card_facts.cache_clear()  # the solver runs again, sealed
    cards._variables_facts.cache_clear()
    with sealed(monkeypatch):
        again = analyse_table(log).as_data()
    assert again == expected


def test_the_seal_sees_a_file_opened_and_the_clock_read(monkeypatch, tmp_path):
    """The check above can fail: a file read and a clock read are caught."""
    with pytest.raises(AssertionError, match="outside the log"):
        with sealed(monkeypatch):
            (tmp_path / "x").write_text("x")
    with pytest.raises(ReadOutside):
        with sealed(monkeypatch):
            time.time()
