"""R-PUZ-4 ("every card has at least one solution") is judged when a table is created, never
when its recorded options are read back (the game's `check_new_table`, called by the hub's
`create_table`; docs/rules.md, decision 17).

Why it matters: a replay that re-ran the check would depend on the solver again, and a change
of the check would make an old log fail to load. The recorded `TableCreated` is the truth.
"""

from __future__ import annotations

from typing import Any

from challenge_tables import PROCTOR, Table, deck_data, seats_data
from shell_testcase import ShellTestCase, fired
from twisted.internet.task import Clock
from twisted.python.failure import Failure

from server.audit.replay import replay_table
from server.eventlog.backends import open_blocking_store, open_store
from server.eventlog.envelope import NewEvent
from server.games.base import Actor, Command
from server.net.errors import error_for
from server.runtime.hub import Hub, InvalidOptions

DUD = {"card_id": "dud", "numbers": [1, 1, 1, 1], "dots": 1}  # no solution (R-PUZ-2)
REFUSAL = (
    "option 'deck': card 'dud' (1 1 1 1) has no solution (R-PUZ-4); only a casual table may play it"
)
DIRECTOR = Actor("director", "d1")
T0 = 1_700_000_000.0


def hand_made(**more: Any) -> dict[str, Any]:
    """Options with a hand-made deck: a solvable card, then one without a solution."""
    return {"seats": seats_data(), "deck": [*deck_data(["c1"]), DUD], **more}


def recorded_log(options: dict[str, Any]) -> list[NewEvent]:
    """A table's first events as a server recorded them: `TableCreated`, then the events of
    `start_round` (what an older server, or a rule since changed, let through)."""
    started = Table(options)
    started.do("start_round", PROCTOR)
    by, proctor = DIRECTOR.as_dict(), PROCTOR.as_dict()
    created = NewEvent("TableCreated", {"game": "challenge", "options": options}, actor=by)
    return [created, *(NewEvent(e.type, dict(e.data), actor=proctor) for e in started.events)]


# -- the shell --------------------------------------------------------------------------------


class NewTableCheckTests(ShellTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.clock = Clock()
        self.clock.advance(T0)
        self.store = open_store("memory:", clock=self.clock.seconds)

    def test_create_table_refuses_a_card_without_a_solution_and_records_nothing(self) -> None:
        hub = Hub(self.store, self.clock)
        with self.assertRaises(InvalidOptions) as refused:
            fired(hub.create_table("hand", "challenge", hand_made(), DIRECTOR))
        self.assertEqual(str(refused.exception), REFUSAL)
        self.assertEqual(refused.exception.rule, "R-PUZ-4")
        self.assertEqual(
            error_for(Failure(refused.exception)), ("invalid_options", REFUSAL, "R-PUZ-4")
        )
        self.assertEqual(fired(self.store.last_seq("table/hand")), 0)
        self.assertNotIn("hand", hub.actors)
        fired(hub.create_table("hand", "challenge", hand_made(casual=True), DIRECTOR))
        self.assertIn("hand", hub.actors)

    def test_a_recorded_table_with_a_card_without_a_solution_still_loads(self) -> None:
        """A `TableCreated` holding an unsolvable card, written straight to the store (as an
        older server would have): the hub replays it at start-up and the table plays on."""
        fired(self.store.append("table/old", 0, recorded_log(hand_made())))
        hub = Hub(self.store, self.clock)
        self.assertEqual(fired(hub.load_all()), 1)
        actor = hub.actors["old"]
        self.assertEqual([card.card_id for card in actor.state.options.deck], ["c1", "dud"])
        now = round(self.clock.seconds() * 1_000_000)
        placed = fired(actor.submit(Command("place_card", {}, PROCTOR), now))
        self.assertEqual([event.type for event in placed], ["CardPlaced"])


def test_an_audit_replays_a_sqlite_log_with_a_card_without_a_solution(tmp_path):
    """The officials' replay (`server.audit.replay`) of a SQLite file folds it as recorded."""
    store = open_blocking_store(f"sqlite:///{tmp_path / 'old.sqlite'}")
    try:
        store.append("table/old", 0, recorded_log(hand_made()))
        replayed = replay_table(store, "table/old")
    finally:
        store.close()
    assert replayed.game == "challenge"
    assert [moment.type for moment in replayed.moments] == ["TableCreated", "RoundStarted"]
    deck = replayed.moments[-1].state.options.deck
    assert "dud" in [card.card_id for card in deck]
