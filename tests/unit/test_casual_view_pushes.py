"""View pushes for the casual games: a thin client holding the snapshot and applying the
view each append's last event push carries draws exactly what `pocket.view` /
`deck40.view` say its viewer sees, after every append, with no rules of its own (issue 12's
shell, issue 14's games). Through the real TableActor with the memory store and a Clock."""

from __future__ import annotations

from casual_tables import DIRECTOR, POCKET_ANSWERS, POCKET_WRONG, deck40_options, pocket_options
from shell_testcase import ShellTestCase
from test_view_pushes import assert_current, hub_for, join, submit
from twisted.internet.task import Clock

from server.games.base import Actor
from server.games.deck40.options import rank
from server.puzzles.solver import solve

T0 = 1_700_000_000.0


def make_clock():
    c = Clock()
    c.advance(T0)
    return c


class CasualViewPushesCase(ShellTestCase):
    """A task.Clock at T0."""

    def setUp(self):
        super().setUp()
        self.clock = make_clock()


class CasualViewPushesTests(CasualViewPushesCase):
    def test_a_pocket_client_draws_from_snapshot_and_pushes_alone(self):
        clock = self.clock
        options = pocket_options(2, ["p1", "p2", "p3"], answer_seconds=2)
        actor = hub_for(clock).create_table("pk", "pocket", options, DIRECTOR).result
        s1, s2 = Actor("player", "s1"), Actor("player", "s2")
        clients = [join(actor, viewer) for viewer in (s1, s2, Actor("spectator"), DIRECTOR)]
        submit(actor, clock, "start_game", s1)
        assert_current(actor, clients)
        assert "stack" not in clients[0].view and len(clients[3].view["stack"]) == 2
        submit(actor, clock, "claim", s2)
        assert [d["command"] for d in clients[0].deadlines] == ["answer_deadline"]
        clock.advance(2.5)  # the answer window runs out: the server's append is pushed too
        assert actor.events[-1].type == "PlayerExcluded"
        assert_current(actor, clients)
        submit(actor, clock, "answer", s1, expression=POCKET_ANSWERS["p1"][2])
        submit(actor, clock, "answer", s2, expression=POCKET_WRONG)
        submit(actor, clock, "declare_stumped", s1)
        submit(actor, clock, "answer", s2, expression=POCKET_ANSWERS["p3"][2])
        assert_current(actor, clients)
        assert clients[2].view["result"]["winners"] == ["s2"]

    def test_a_deck40_client_stays_current_through_a_whole_game(self):
        for players in [2, 3, 4]:
            clock = make_clock()
            actor = (
                hub_for(clock)
                .create_table("dk", "deck40", deck40_options(players, ["1111"]), DIRECTOR)
                .result
            )
            seats = [Actor("player", f"s{i}") for i in range(1, players + 1)]
            clients = [join(actor, viewer) for viewer in (*seats, Actor("spectator"))]
            submit(actor, clock, "start_game", seats[0])
            for turn in range(60):
                if actor.is_over():
                    break
                cards = [on.card for on in actor.state.table]
                solutions = solve([rank(card) for card in cards])
                if solutions and turn % 3:
                    submit(
                        actor,
                        clock,
                        "call_24",
                        seats[turn % players],
                        expression=solutions[0].ascii_expression,
                    )
                else:
                    for seat in seats:
                        submit(actor, clock, "call_no_solution", seat)
                assert_current(actor, clients)
                assert all("piles" not in client.view for client in clients)
            assert actor.is_over() and clients[0].view["phase"] == "ended"
