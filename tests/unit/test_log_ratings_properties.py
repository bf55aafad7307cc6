"""Properties of the ratings across the log (server/analysis/log_ratings.py, issue 31) over
random logs: a few random 24 Challenge rounds (the contract suite's example, signed at the
end) and random practices, their seats named from a small class so that students meet again
at other tables:

- the ratings of a replayed log equal those of the live one: the events as the live tables
  made them, as a real SQLite store gives them back, and as audit exports checked from the
  file alone (what a bundle holds) give the same students, histories and cards;
- they do not depend on the order the streams are handed over in (only the log's time);
- every student's history ends at their rating, in time order;
- it reads nothing but the log and the solver (no file, socket, process, database, clock or
  random generator: the analysis's own seal, tests/unit/test_analysis_properties.py).
"""

from __future__ import annotations

import random

import msgpack
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_analysis_properties import T0, S, random_round, sealed
from test_practice_rules import Practice

from server.analysis.log_ratings import rate_log
from server.audit.export import check_export, export_stream
from server.eventlog.backends import open_blocking_store
from server.eventlog.envelope import NewEvent
from server.games.base import Actor, Event, RuleViolation
from server.puzzles.card_facts import facts

CLASS = ["Ada", "Bo", "Cy", "Di", "Eve"]
HOUR = 3600 * S


def shifted(events: list[Event], by: int) -> list[Event]:
    """The events as if played `by` microseconds later (as the log gives them back)."""
    out = []
    for event in events:
        data = msgpack.unpackb(msgpack.packb(dict(event.data)), raw=False)
        if isinstance(data.get("at"), int):
            data["at"] += by
        out.append(Event(event.type, data))
    return out


def random_practice(rng: random.Random) -> tuple[dict, list[Event]]:
    seats = [{"seat": f"s{i}", "name": n} for i, n in enumerate(rng.sample(CLASS, 2), 1)]
    table = Practice(seats=seats, cards=rng.randint(1, 4), stream=rng.choice(["own", "class"]))
    for _ in range(30):
        seat = rng.choice(seats)["seat"]
        actor = Actor("player", seat)
        try:
            if table.state.seat(seat).current is None:
                table.do("next_card", actor)
            elif rng.random() < 0.5:
                table.do("give_up", actor)
            else:  # solved, with the solver's simplest solution
                solution = facts(table.card(seat).numbers).solutions[0]
                table.do("touch", actor)
                table.now += rng.randint(1, 5) * S
                table.do("answer", actor, pattern=solution["pattern"], steps=solution["steps"])
        except RuleViolation:
            continue
    return table.options, table.events


def random_log(seed: int) -> dict[str, tuple[str, dict, list[Event]]]:
    """stream -> (game, options, live events)."""
    rng = random.Random(seed)
    tables = {}
    for index in range(rng.randint(1, 3)):
        options, events = random_round(rng.randrange(2**32))
        names = rng.sample(CLASS, len(options["seats"]))
        options["seats"] = [{**s, "name": n} for s, n in zip(options["seats"], names, strict=True)]
        tables[f"table/r{index}"] = ("challenge", options, shifted(events, index * HOUR))
    for index in range(rng.randint(0, 2)):
        options, events = random_practice(rng)
        tables[f"table/p{index}"] = ("practice", options, shifted(events, rng.randrange(4) * HOUR))
    return tables


def stored(tmp_path, tables) -> tuple[dict, dict]:
    """(the store's streams, each stream's export checked from the file alone)."""
    store = open_blocking_store(f"sqlite:///{tmp_path / 'log.sqlite'}")
    try:
        for stream, (game, options, events) in tables.items():
            new = [NewEvent("TableCreated", {"game": game, "options": options})]
            new += [NewEvent(e.type, dict(e.data), Actor("proctor", "p1")) for e in events]
            store.append(stream, 0, new)
        loaded = {stream: store.load(stream) for stream in store.streams("table/")}
        exports = {stream: export_stream(store, stream, T0) for stream in tables}
    finally:
        store.close()
    checked = {}
    for stream, exported in exports.items():
        report = check_export(exported.lines)
        assert report.report.ok
        checked[stream] = list(report.events)
    return loaded, checked


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32))
def test_the_ratings_of_a_replayed_log_equal_the_live_ones(tmp_path_factory, seed):
    tables = random_log(seed)
    live_streams = {
        stream: [Event("TableCreated", {"game": game, "options": options}), *events]
        for stream, (game, options, events) in tables.items()
    }
    live = rate_log(live_streams)
    loaded, exported = stored(tmp_path_factory.mktemp("log"), tables)
    assert rate_log(loaded) == live
    assert rate_log(exported) == live
    backwards = dict(reversed(list(live_streams.items())))
    assert rate_log(backwards) == live
    for student in live.students.values():
        history = student.history
        assert [h["at"] for h in history] == sorted(h["at"] for h in history)
        assert (history[-1]["mu"], history[-1]["sigma"]) == (
            student.rating.mu,
            student.rating.sigma,
        )
    signed = sum(
        1 for _g, _o, events in tables.values() if events and events[-1].type == "ScoreCardSigned"
    )
    results = {
        h["table"] for s in live.students.values() for h in s.history if h["kind"] == "result"
    }
    assert len(results) == signed


@settings(
    max_examples=5, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**32))
def test_the_ratings_read_nothing_but_the_log_and_the_solver(monkeypatch, seed):
    streams = {
        stream: [Event("TableCreated", {"game": game, "options": options}), *events]
        for stream, (game, options, events) in random_log(seed).items()
    }
    expected = rate_log(streams)
    from server.puzzles import card_facts as cards

    cards._card_facts.cache_clear()  # the solver runs again, sealed
    with sealed(monkeypatch):
        again = rate_log(streams)
    assert again == expected
