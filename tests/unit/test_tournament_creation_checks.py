"""What a new tournament must meet besides reading back (issue 33 items 3 and 7, issue 26):
a real date, and table options a new 24 Challenge table takes, checked by the same code
(`challenge.options.check_settings`). The hub refuses them at `create_table` (on the wire
`invalid_options`, the game's code `bad_options`), and a tournament recorded before the
checks still loads."""

from __future__ import annotations

import pytest
from shell_testcase import ShellTestCase
from test_tournament_actor import DIRECTOR, TID, result_of
from tournament_support import tournament_options
from twisted.internet.task import Clock

import server.tournament as tournament
from server.eventlog.backends import open_store
from server.eventlog.envelope import NewEvent
from server.games.base import RuleViolation
from server.runtime.hub import Hub, InvalidOptions
from server.runtime.table_actor import TABLE_CREATED

BAD = [
    ({"date": "2026-13-01"}, "option 'date': a real date YYYY-MM-DD, not '2026-13-01'"),
    ({"date": "2026-02-31"}, "option 'date': a real date YYYY-MM-DD, not '2026-02-31'"),
    ({"date": "2026-00-10"}, "option 'date': a real date"),
    (
        {"table_options": {"pattern_seconds": -1}},
        "option 'table_options': option 'pattern_seconds': seconds in (0, 3600], not -1",
    ),
    (
        {"table_options": {"auto_reveal_seconds": 1e-7}},
        "option 'table_options': option 'auto_reveal_seconds': at least 0.05 seconds",
    ),
    ({"table_options": {"mode": "loud"}}, "option 'table_options': option 'mode': one of"),
    ({"table_options": {"auto_proctor": True}}, "option 'table_options': option 'auto_proctor'"),
]


@pytest.mark.parametrize(("change", "message"), BAD)
def test_a_new_tournament_is_refused_naming_the_option(change, message):
    options = tournament_options(**change)
    tournament.initial_state(options)  # it reads: a recorded one would load
    with pytest.raises(RuleViolation) as refused:
        tournament.check_new_table(options)
    assert refused.value.code == "bad_options" and refused.value.message.startswith(message)


@pytest.mark.parametrize(
    "change",
    [
        {"date": "2028-02-29"},  # a leap day
        {"table_options": {"pattern_seconds": 0.05, "auto_proctor": None, "mode": "proctored"}},
        {"table_options": {}},
    ],
)
def test_a_good_tournament_passes(change):
    assert tournament.check_new_table(tournament_options(**change)) is None


class CreationTests(ShellTestCase):
    def setUp(self):
        super().setUp()
        self.clock = Clock()
        self.clock.advance(1_700_000_000.0)
        self.store = open_store("memory:", clock=self.clock.seconds)

    def test_the_hub_refuses_them_before_anything_is_recorded(self):
        hub = Hub(self.store, self.clock)
        for change, message in BAD:
            options = tournament_options(**change)
            with pytest.raises(InvalidOptions, match=message[:30].replace("(", r"\(")):
                result_of(hub.create_table(TID, "tournament", options, DIRECTOR))
        assert result_of(self.store.last_seq(TID)) == 0

    def test_a_tournament_recorded_before_the_checks_still_loads(self):
        options = tournament_options(date="2026-02-31", table_options={"pattern_seconds": -1})
        created = NewEvent(TABLE_CREATED, {"game": "tournament", "options": options})
        result_of(self.store.append(TID, 0, [created]))
        actor = result_of(Hub(self.store, self.clock).get(TID))
        assert actor.state.options.date == "2026-02-31"
