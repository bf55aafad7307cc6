"""The reference client's per-game parts (clients/reference_cli/games/), chosen by the
snapshot's `game`: every registered game has one, each draws its real views, and the
interactive shell takes the snapshot's game's keys. Views come from the real games, played
at random through their example plays (tests/example_plays.py)."""

from __future__ import annotations

import random

import pytest
from example_plays import example_of

from clients.reference_cli.games import GENERIC, part_for
from clients.reference_cli.keyboard import Send
from clients.reference_cli.styling import Style
from clients.reference_cli.table_app import PlainOutput, TableApp
from clients.reference_cli.table_commands import controls_for
from server.games import games
from server.games.base import Actor, RuleViolation

PLAIN = Style(color=False)


def played(name: str, seed: int, steps: int = 25):
    """A state of game `name` after some random valid play."""
    game = games()[name]
    example = example_of(game)
    assert example is not None, name
    rng = random.Random(seed)
    options = example.options(rng)
    state = game.initial_state(options)
    now = 1_700_000_000_000_000
    for _ in range(steps):
        commands = example.commands(state, rng)
        if not commands or game.is_over(state):
            break
        now += 500_000
        try:
            events = game.decide(state, rng.choice(commands), now)
        except RuleViolation:
            continue
        for event in events:
            state = game.evolve(state, event)
    return game, options, state


def test_every_game_has_a_part_of_its_own_found_by_its_folder():
    for name in games():
        assert part_for(name).name == name
    assert part_for("a-game-from-the-future") is GENERIC


@pytest.mark.parametrize("name", sorted(games()))
def test_every_registered_game_is_drawn_from_its_views(name):
    """Its own part, or the generic one (the view as lines) for a game without a part."""
    part = part_for(name)
    for seed in range(3):
        game, options, state = played(name, seed)
        seat = options["seats"][0].get("seat") or options["seats"][0].get("id")
        view = game.view(state, Actor("player", seat))
        lines = part.board(view, PLAIN, "player") + part.side(view, seat, PLAIN, None)
        assert lines and all(isinstance(line, str) for line in lines)
        assert part.compact(view, PLAIN)


@pytest.mark.parametrize("name", ["pocket", "deck40"])
def test_a_line_game_takes_the_snapshots_keys_and_sends_a_typed_line(name):
    game, options, state = played(name, 1, steps=0)
    seat = options["seats"][0]["seat"]
    lines: list[str] = []
    app = TableApp(
        reactor=None,
        controls=controls_for("play"),  # the default game's keys until the snapshot
        output=PlainOutput(lines.append),
        role="player",
        kind="play",
    )
    sent = []
    app.send = sent.append  # the link is not under test here
    snapshot = {
        "type": "snapshot",
        "table": "t",
        "game": name,
        "seq": 1,
        "view": game.view(state, Actor("player", seat)),
        "deadlines": [],
        "server_time": 0,
    }
    app.link_snapshot(snapshot, None)
    assert app.controls.game == name
    app.keys("start\r")
    assert sent == [Send("start_game", {}, tag="start_game")]


@pytest.mark.parametrize("name", ["pocket", "deck40", "tjugoett"])
def test_a_line_games_bot_plans_its_brains_move(name):
    part = part_for(name)
    planned = 0
    for seed in range(12):
        game, options, state = played(name, seed, steps=seed % 4)
        for seat in (seat["seat"] for seat in options["seats"]):
            view = game.view(state, Actor("player", seat))
            key, moves = part.bot(view, seat, [], 0, "perfect", random.Random(1), 1.0)
            for move in moves:
                assert move.delay > 0 and move.name in game.COMMANDS_BY_ROLE
            planned += len(moves)
    assert planned > 0, "the bot never moved"
