"""What the shell reads itself, with wrong-shaped values: `create_table` options and query
arguments, through a session, for every game and the tournament (issue 18).

tests/contract/test_argument_shapes.py sweeps the commands on each Decider; these requests
go through more than a game's `decide`: the hub's option checks (`with_drawn_seed`,
`check_new_table`, `initial_state`), the shell's own `view_at` and `analysis` queries and
a game's `query`.
Every answer must be a success or an `error` whose code is documented (the protocol's
`ERROR_CODES`, the game's `REFUSALS`, or the shell's `unknown_query`), never `internal`,
never a close 1011, never a logged failure (ShellTestCase fails a test that logged one).
The option names come from the game's `DEFAULT_OPTIONS`, its example options
(tests/example_plays.py) and the keys of the maps inside them (a seat, a card); the
argument names from `argument_names` (tests/argument_shapes.py); the query names from the
game's `QUERIES` and `view_at`.
"""

from __future__ import annotations

import random
from typing import Any

from argument_shapes import SHAPES, UNKNOWN_ARG, argument_names
from example_plays import example_of
from shell_testcase import ShellTestCase
from test_net import make_clock, make_hub, make_session, say, token
from tournament_support import tournament_options

from protocol.messages import CLOSE_CODES, ERROR_CODES, TOURNAMENT_PREFIX
from server.games import games
from server.runtime.analysis_query import ANALYSIS
from server.runtime.view_at import VIEW_AT

UNKNOWN_QUERY = "no_such_query"
# The shell's answer for a game without queries (`TableActor.query`; docs/protocol.md, "query",
# and docs/architecture.md): a documented code of every game, in no game's REFUSALS.
SHELL_REFUSALS = {"unknown_query"}


def valid_options(name: str) -> dict[str, Any]:
    """Options a table of game `name` is created with (the example's; the tournament's own)."""
    if name == "tournament":
        return tournament_options()
    example = example_of(games()[name])
    assert example is not None, name
    return example.options(random.Random(1))


def option_variants(game: Any, options: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(where, options): every option, and every key of the first map inside a list option
    (a seat, a card), set to every shape; an unknown option too."""
    variants = []
    keys = {*options, *game.DEFAULT_OPTIONS, UNKNOWN_ARG}
    for key in sorted(keys):
        for label, shape in SHAPES.items():
            variants.append((f"{key}={label}", {**options, key: shape}))
        value = options.get(key)
        if isinstance(value, list) and value and isinstance(value[0], dict):
            for inner in sorted({*value[0], UNKNOWN_ARG}):
                for label, shape in SHAPES.items():
                    first = {**value[0], inner: shape}
                    variants.append((f"{key}[0].{inner}={label}", {**options, key: [first]}))
                    variants.append(
                        (f"{key}[0..].{inner}={label}", {**options, key: [*value, first]})
                    )
    return variants


class SessionArgumentShapesTests(ShellTestCase):
    def setUp(self):
        super().setUp()
        self.clock = make_clock()
        self.hub = make_hub(self.clock)
        self.session, self.wire = make_session(
            self.hub, self.clock, rate_per_second=1e9, rate_burst=10**9
        )
        say(self.session, "hello", id=1, token=token("director"))
        assert self.wire.messages()[0]["type"] == "welcome"
        self.ids = iter(range(2, 10**9))
        self.tables = iter(range(10**9))

    def ask(self, kind: str, refusals: set[str], **fields: Any) -> dict[str, Any]:
        """Send one request; its one reply, checked: a success or a documented refusal."""
        request_id = next(self.ids)
        say(self.session, kind, id=request_id, **fields)
        self.clock.advance(0)
        replies = [m for m in self.wire.messages() if m.get("id") == request_id]
        assert len(replies) == 1, (kind, fields, replies)
        [reply] = replies
        if reply["type"] == "error":
            assert reply["code"] != "internal", (kind, fields, reply)
            assert reply["code"] in ERROR_CODES or reply["code"] in refusals, (fields, reply)
        assert all(code in CLOSE_CODES and code != 1011 for code, _ in self.wire.closed)
        assert not self.session.closed and not self.session.closing, (kind, fields)
        return reply

    def new_table_id(self, name: str) -> str:
        prefix = TOURNAMENT_PREFIX if name == "tournament" else ""
        return f"{prefix}t{next(self.tables)}"

    def test_create_table_options_of_every_game_refuse_wrong_shapes(self):
        created = refused = 0
        for name, game in sorted(self.hub.games.items()):
            refusals = set(game.REFUSALS) | SHELL_REFUSALS
            options = valid_options(name)
            for _where, variant in option_variants(game, options):
                reply = self.ask(
                    "create_table",
                    refusals,
                    game=name,
                    table=self.new_table_id(name),
                    options=variant,
                )
                if reply["type"] == "table_created":
                    created += 1
                else:
                    refused += 1
            for shape in SHAPES.values():  # the options themselves not a map
                self.ask("create_table", refusals, game=name, options=shape)
        assert refused > created > 0  # most shapes are refused; an unknown option is not

    def test_query_arguments_of_every_game_refuse_wrong_shapes(self):
        for name, game in sorted(self.hub.games.items()):
            refusals = set(game.REFUSALS) | SHELL_REFUSALS
            table = self.new_table_id(name)
            reply = self.ask(
                "create_table", refusals, game=name, table=table, options=valid_options(name)
            )
            assert reply["type"] == "table_created", reply
            queries = [VIEW_AT, ANALYSIS, *getattr(game, "QUERIES", {}), UNKNOWN_QUERY]
            names = argument_names(name, game) | {"seq"}
            for query in queries:
                for arg in sorted(names):
                    for shape in SHAPES.values():
                        self.ask("query", refusals, table=table, name=query, args={arg: shape})
                        self.ask(
                            "query",
                            refusals,
                            table=table,
                            name=query,
                            args={"seq": 1, "protest": 1, "upheld": True, arg: shape},
                        )
                for shape in SHAPES.values():  # the arguments themselves not a map
                    self.ask("query", refusals, table=table, name=query, args=shape)
