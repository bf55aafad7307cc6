"""The shell draws a casual table's shuffle seed when its creator leaves it out
(server/runtime/hub.py `with_drawn_seed`, the games' `SEED_OPTION`).

Why it matters: without it a protocol client that omits `seed` would deal the same pocket
stack, deck40 shuffle or Tjugoett deck at every table, and a player who had seen one table
would know the next one's cards. The drawn seed is recorded, so replay deals the same cards.
"""

from __future__ import annotations

from typing import Any

from challenge_tables import options as challenge_options
from shell_testcase import ShellTestCase, fired
from twisted.internet.task import Clock

from server.eventlog.backends import open_store
from server.games import challenge
from server.games.base import SEED_BITS, Actor
from server.runtime.hub import Hub

DIRECTOR = Actor("director", "d1")
SEATS = [{"seat": "A", "name": "Ada"}, {"seat": "B", "name": "Bo"}]
T0 = 1_700_000_000.0


class DrawnSeedTests(ShellTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.clock = Clock()
        self.clock.advance(T0)
        self.store = open_store("memory:", clock=self.clock.seconds)
        self.hub = Hub(self.store, self.clock)

    def created_options(self, table: str, game: str, options: dict[str, Any]) -> dict[str, Any]:
        fired(self.hub.create_table(table, game, options, DIRECTOR))
        first = fired(self.store.load(f"table/{table}"))[0]
        self.assertEqual(first.type, "TableCreated")
        recorded: dict[str, Any] = first.data["options"]
        return recorded

    def test_a_pocket_or_deck40_table_without_a_seed_records_a_fresh_secret_one(self) -> None:
        for game in ("pocket", "deck40"):
            seeds = {
                self.created_options(f"{game}{n}", game, {"seats": SEATS})["seed"] for n in range(3)
            }
            self.assertEqual(len(seeds), 3, f"{game}: three tables, three different seeds")
            for seed in seeds:
                self.assertIsInstance(seed, int)
                self.assertTrue(0 <= seed < 2**SEED_BITS)

    def test_a_tjugoett_table_may_leave_its_required_seed_to_the_server(self) -> None:
        recorded = self.created_options("tj", "tjugoett", {"seats": SEATS})
        seed = recorded["seed"]  # a whole number: the game reads it as its text (R-21-3)
        self.assertIsInstance(seed, int)
        self.assertTrue(0 <= seed < 2**SEED_BITS)

    def test_a_seed_the_creator_gives_is_recorded_as_given(self) -> None:
        self.assertEqual(
            self.created_options("p7", "pocket", {"seats": SEATS, "seed": 7})["seed"], 7
        )
        self.assertEqual(
            self.created_options("d7", "deck40", {"seats": SEATS, "seed": 0})["seed"], 0
        )

    def test_a_game_without_a_seed_option_gets_no_seed(self) -> None:
        self.assertIsNone(challenge.SEED_OPTION)
        recorded = self.created_options("c1", "challenge", challenge_options())
        self.assertEqual(recorded, challenge_options())

    def test_replay_deals_the_cards_the_drawn_seed_gave(self) -> None:
        fired(self.hub.create_table("p1", "pocket", {"seats": SEATS}, DIRECTOR))
        live = fired(self.hub.get("p1"))
        restarted = fired(Hub(self.store, self.clock).get("p1"))
        auditor = Actor("auditor", "a1")
        self.assertEqual(
            live.game.view(restarted.state, auditor), live.game.view(live.state, auditor)
        )

    def test_given_a_client_leaves_the_seed_out_when_two_tables_are_made_then_two_shuffles(
        self,
    ) -> None:
        """R-POCKET-1, R-DECK40-1: the shell, not each client, draws the shuffle's seed. The
        reference CLI's options carry no seed without `--seed`; two tables made from the
        same options deal two different stacks (not seed 0's every time), and each replays
        the recorded one."""
        from argparse import Namespace

        from clients.reference_cli.admin_commands import table_options
        from server.games.deck40.options import shuffled_deck
        from server.games.pocket.options import table_options as pocket_options
        from server.games.pocket.options import the_stack

        for game in ("pocket", "deck40"):
            flags = Namespace(
                game=game, seats="s1:Ada,s2:Bo", seed=None, edition=None, cards=None,
                options=None, option=None,
            )  # fmt: skip
            options = table_options(flags)
            self.assertNotIn("seed", options)
            seeds = [self.created_options(f"cli-{game}{n}", game, options)["seed"] for n in (1, 2)]
            if game == "pocket":
                stacks = [the_stack(pocket_options({**options, "seed": seed})) for seed in seeds]
            else:
                stacks = [shuffled_deck(seed) for seed in seeds]
            self.assertNotEqual(stacks[0], stacks[1])
            self.assertNotIn(0, seeds)  # (2**-63 to fail by chance)
