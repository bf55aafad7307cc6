"""R-PUZ-4 at a pocket table (issue 28, item 8): the pocket edition's card text says "every
card has at least one solution", so a given `stack` with a card that has none is refused when
the table is created (`pocket.check_new_table`, called by the hub's `create_table`), and never
when recorded options are read back: a log recorded before the check still loads and plays.
"""

from __future__ import annotations

from typing import Any

import pytest
from casual_tables import Table, one, player, pocket_stack, seats_data
from shell_testcase import ShellTestCase, fired
from twisted.internet.task import Clock
from twisted.python.failure import Failure

from server.eventlog.backends import open_store
from server.eventlog.envelope import NewEvent
from server.games import pocket
from server.games.base import Actor, Command, RuleViolation
from server.net.errors import error_for
from server.runtime.hub import Hub, InvalidOptions

DUD = {"card_id": "dud", "numbers": [1, 1, 1, 1], "dots": 1}  # no solution (R-PUZ-4)
REFUSAL = (
    "option 'stack': card 'dud' (1 1 1 1) has no solution (R-PUZ-4); "
    "every card of the pocket edition has one"
)
DIRECTOR = Actor("director", "d1")
T0 = 1_700_000_000.0


def given_stack(**more: Any) -> dict[str, Any]:
    """Options with a stack given by hand: the card 1 1 1 1 first, then one with a solution."""
    return {"seats": seats_data(2), "stack": [DUD, *pocket_stack(["p4"])], **more}


def test_a_given_card_without_a_solution_is_refused_naming_it_R_PUZ_4():
    pocket.initial_state(given_stack())  # the options read: replay never judges solvability
    with pytest.raises(RuleViolation) as refused:
        pocket.check_new_table(given_stack())
    assert refused.value.as_dict() == {
        "code": "invalid_options",
        "rule": "R-PUZ-4",
        "message": REFUSAL,
    }


def test_a_stack_whose_cards_all_have_a_solution_or_an_edition_s_stack_is_accepted_R_PUZ_4():
    pocket.check_new_table({"seats": seats_data(2), "stack": pocket_stack()})
    pocket.check_new_table({"seats": seats_data(2), "seed": 7, "size": 96})


def test_options_that_do_not_read_are_refused_as_by_initial_state():
    with pytest.raises(RuleViolation) as refused:
        pocket.check_new_table({"seats": seats_data(2), "size": 0})
    assert refused.value.code == "invalid_options"


class PocketNewTableCheckTests(ShellTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.clock = Clock()
        self.clock.advance(T0)
        self.store = open_store("memory:", clock=self.clock.seconds)

    def test_create_table_refuses_the_stack_and_records_nothing(self) -> None:
        hub = Hub(self.store, self.clock)
        with self.assertRaises(InvalidOptions) as refused:
            fired(hub.create_table("hand", "pocket", given_stack(), DIRECTOR))
        self.assertEqual(
            error_for(Failure(refused.exception)), ("invalid_options", REFUSAL, "R-PUZ-4")
        )
        self.assertEqual(fired(self.store.last_seq("table/hand")), 0)
        self.assertNotIn("hand", hub.actors)

    def test_a_recorded_table_with_that_card_still_loads_and_plays(self) -> None:
        """A `TableCreated` holding 1 1 1 1, written straight to the store (as a server before
        the check did): the hub replays it at start-up, and the card turns up as recorded."""
        options = given_stack()
        created = NewEvent(
            "TableCreated", {"game": "pocket", "options": options}, actor=DIRECTOR.as_dict()
        )
        fired(self.store.append("table/old", 0, [created]))
        hub = Hub(self.store, self.clock)
        self.assertEqual(fired(hub.load_all()), 1)
        actor = hub.actors["old"]
        now = round(self.clock.seconds() * 1_000_000)
        started = fired(actor.submit(Command("start_game", {}, player("s1")), now))
        turned = one(started, "CardTurnedUp")
        self.assertEqual((turned["card_id"], turned["numbers"]), ("dud", [1, 1, 1, 1]))


def test_the_recorded_card_is_set_aside_when_everybody_is_stumped_R_POCKET_4():
    """Replayed, the card without a solution plays as any card nobody solves."""
    table = Table.started(pocket, given_stack())
    table.do("declare_stumped", player("s1"))
    events = table.do("declare_stumped", player("s2"))
    assert one(events, "CardSetAside")["card_id"] == "dud"
