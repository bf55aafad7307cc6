"""A table with nobody at it does not run away, and no new table's timer is shorter than
`base.MIN_SECONDS` (issue 33, item 4; docs/protocol.md, "Durations").

Given a Tjugoett table whose every timer is the shortest allowed (the server dealer, each
player's turn, the next round: 0.05 s), on the real hub and memory store driven by a
task.Clock: with a seat connected it plays round after round; with nobody seated the round
in play ends and the next one waits (`UNATTENDED_HOLD`), until a seat connects again. And
what the issue measured (every timer at 1e-7 s, 2,036 events a second) cannot be created.
"""

from __future__ import annotations

import pytest
from shell_testcase import ShellTestCase
from test_runtime import Recorder, result_of
from twisted.internet.task import Clock

from server.eventlog.backends import open_store
from server.eventlog.envelope import NewEvent
from server.games.base import MIN_SECONDS, Actor, Command
from server.runtime.hub import Hub, InvalidOptions
from server.runtime.table_actor import TABLE_CREATED

T0 = 1_700_000_000.0
DIRECTOR = Actor("director", "d")
SEATS = [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}]
FASTEST = {
    "seats": SEATS,
    "seed": "unattended-seed",
    "dealer_seconds": MIN_SECONDS,
    "turn_seconds": MIN_SECONDS,
    "next_round_seconds": MIN_SECONDS,
}


def rounds_started(actor) -> int:
    return sum(1 for e in actor.events if e.type == "RoundStarted")


class UnattendedTableTests(ShellTestCase):
    def setUp(self):
        super().setUp()
        self.clock = Clock()
        self.clock.advance(T0)
        self.hub = Hub(open_store("memory:", clock=self.clock.seconds), self.clock)

    def started_table(self, options=FASTEST):
        actor = result_of(self.hub.create_table("fast", "tjugoett", options, DIRECTOR))
        start = Command("start_round", {}, DIRECTOR)
        result_of(actor.submit(start, int(self.clock.seconds() * 1_000_000)))
        return actor

    def run_for(self, seconds: float, step: float = 0.01) -> None:
        for _ in range(round(seconds / step)):
            self.clock.advance(step)

    def test_with_a_seat_connected_the_table_plays_round_after_round(self):
        actor = self.started_table()
        actor.subscribe(Recorder(Actor("player", "s1")))
        self.run_for(5)
        assert rounds_started(actor) >= 5  # each round: a few deadlines of 0.05 s

    def test_with_nobody_seated_the_round_ends_and_the_next_waits_for_a_seat(self):
        actor = self.started_table()
        watcher = Recorder(Actor("spectator", "v"))
        actor.subscribe(watcher)  # a spectator is nobody seated
        self.run_for(5)
        assert rounds_started(actor) == 1
        assert actor.state.phase == "between_rounds" and actor.timers() == {}
        seq = actor.seq
        self.run_for(60)
        assert actor.seq == seq  # a minute with nobody seated: not one event more
        seat = Recorder(Actor("player", "s2"))
        actor.subscribe(seat)
        self.clock.advance(0)  # the overdue next round fires at once
        assert rounds_started(actor) == 2
        actor.unsubscribe(seat)
        self.run_for(5)
        assert rounds_started(actor) == 2 and actor.timers() == {}

    def test_the_timers_that_were_created_before_the_minimum_still_load(self):
        """A table recorded with a shorter timer (before issue 33) replays as recorded: the
        minimum is a rule of new tables (`check_new_table`), never of a replay."""
        store = self.hub.store
        old = {**FASTEST, "dealer_seconds": 1e-7, "next_round_seconds": None}
        created = NewEvent(TABLE_CREATED, {"game": "tjugoett", "options": old})
        result_of(store.append("table/old", 0, [created]))
        actor = result_of(self.hub.get("old"))
        assert actor.state.options.dealer_us == 0


@pytest.mark.parametrize(
    ("game", "options", "named"),
    [
        ("tjugoett", {**FASTEST, "dealer_seconds": 1e-7}, "dealer_seconds"),
        ("tjugoett", {**FASTEST, "turn_seconds": 0.049}, "turn_seconds"),
        ("tjugoett", {**FASTEST, "next_round_seconds": 0.001}, "next_round_seconds"),
        ("pocket", {"seats": SEATS, "answer_seconds": 0.01}, "answer_seconds"),
        ("pocket", {"seats": SEATS, "stumped_seconds": 1e-7}, "stumped_seconds"),
    ],
)
def test_a_new_table_refuses_a_timer_under_the_minimum(game, options, named):
    clock = Clock()
    clock.advance(T0)
    hub = Hub(open_store("memory:", clock=clock.seconds), clock)
    with pytest.raises(InvalidOptions, match=f"{named}.*at least {MIN_SECONDS} seconds"):
        result_of(hub.create_table("t", game, options, DIRECTOR))
    assert hub.actors == {}
