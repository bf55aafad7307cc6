"""The game contract (`server.games.base.Game`), checked against every registered game.

Each game in `server.games.games()` (and the toy game of the shell tests) is played at random
through its own `decide`, with time moving and deadlines firing as the shell fires them, and
the suite checks what the shell relies on without knowing the game:

- replay equals live: folding the recorded events, after a msgpack round trip as the log
  stores them, gives the state the live play reached;
- `decide` only ever raises RuleViolation, and every event it emits is in EVENT_TYPES and is
  plain data (msgpack and JSON round trip unchanged);
- `view` and `event_view` are plain data and never leak what the game's HIDDEN declares
  (the game's example module says how to see a leak);
- `deadlines` are exactly the live timers: each is accepted when fired at its moment, keys
  are unique, a log ending in FINAL_EVENTS is over and nothing is live after;
- the recovery command leaves no timer live; the constants are consistent.

A game joins by its folder: its example play, `server/games/<name>/example.py`, is found the
way tests/example_plays.py says (docs/architecture.md, "How to add a game").
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from types import ModuleType, SimpleNamespace
from typing import Any

import example_plays
import msgpack
import pytest
import toygame
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.games import games
from server.games.base import (
    RECOVERY_CAUSE,
    ROLES,
    SEED_BITS,
    SERVER_ACTOR,
    Actor,
    Command,
    Event,
    RuleViolation,
    replay,
)

T0 = 1_700_000_000_000_000
S = 1_000_000
MAX_STEPS = 80
GAMES = {**games(), toygame.NAME: toygame}
FULL_ROLES = ("proctor", "director", "auditor")


def example_of(name: str) -> ModuleType:
    example = example_plays.example_of(GAMES[name])
    if example is None:
        pytest.fail(
            f"game {name!r} has no server/games/{name}/example.py: every game provides one "
            "(docs/architecture.md, 'How to add a game')"
        )
    return example


def viewers(options: Mapping[str, Any]) -> list[Actor]:
    """Every kind of viewer: each seat's player, the full-view roles, a spectator."""
    seats = [seat.get("seat") or seat.get("id") for seat in options.get("seats", [])]
    players = [Actor("player", str(seat)) for seat in seats]
    return [*players, *(Actor(role, role[0] + "1") for role in FULL_ROLES), Actor("spectator")]


def assert_plain(value: Any, where: str) -> None:
    """Plain data: what msgpack and JSON both carry unchanged (no tuples, sets, bytes)."""
    packed = msgpack.unpackb(msgpack.packb(value, use_bin_type=True), raw=False)
    assert packed == value and type(packed) is type(value), f"{where} is not plain: {value!r}"
    assert json.loads(json.dumps(value)) == value, f"{where} is not JSON-plain: {value!r}"


def recorded(event: Event) -> Event:
    """The event as the log gives it back (msgpack)."""
    data = msgpack.unpackb(msgpack.packb(dict(event.data), use_bin_type=True), raw=False)
    return Event(event.type, data)


class Play:
    """One game played through `decide`/`evolve` with the checks of the module doc."""

    def __init__(self, game: Any, example: ModuleType, options: dict[str, Any]) -> None:
        self.game, self.example, self.options = game, example, options
        self.view_leaks = example_plays.view_oracle(game, example)
        self.event_leaks = example_plays.event_oracle(game, example)
        self.state = game.initial_state(options)
        self.log: list[Event] = []
        self.now = T0
        self.viewers = viewers(options)
        self.first_views = {viewer: game.view(self.state, viewer) for viewer in self.viewers}
        created = Event("TableCreated", {"game": game.NAME, "options": options})
        by_group: dict[Any, Event] = {}
        for viewer in self.viewers:
            shown = game.event_view(created, viewer)
            assert not self.event_leaks(viewer, shown, self.state), (viewer, shown)
            self.check_redaction_group(by_group, viewer, shown)

    def send(self, command: Command) -> bool:
        try:
            events = self.game.decide(self.state, command, self.now)
        except RuleViolation as violation:
            assert isinstance(violation.code, str) and violation.code
            return False
        for event in events:
            assert event.type in self.game.EVENT_TYPES, f"{event.type} not in EVENT_TYPES"
            assert_plain(dict(event.data), f"{event.type} data")
            self.state = self.game.evolve(self.state, event)
            self.log.append(event)
            by_group: dict[Any, Event] = {}
            for viewer in self.viewers:
                shown = self.game.event_view(event, viewer)
                assert shown.type == event.type
                assert_plain(dict(shown.data), f"{event.type} for {viewer}")
                assert not self.event_leaks(viewer, shown, self.state), (viewer, shown)
                self.check_redaction_group(by_group, viewer, shown)
        self.check_state()
        return True

    def check_redaction_group(
        self, by_group: dict[Any, Event], viewer: Actor, shown: Event
    ) -> None:
        """The optional `redaction_group` promise: viewers of one group are given the same
        data for every event (their older pushes are cached once per group)."""
        group_of = getattr(self.game, "redaction_group", None)
        if group_of is None:
            return
        first = by_group.setdefault(group_of(viewer), shown)
        assert dict(first.data) == dict(shown.data), (viewer, shown, first)

    def check_state(self) -> None:
        game, state = self.game, self.state
        live = game.deadlines(state)
        assert len({deadline.key for deadline in live}) == len(live), "deadline keys repeat"
        for deadline in live:
            assert isinstance(deadline.at, int)
            assert deadline.command.actor == SERVER_ACTOR
            assert deadline.command.args.get("key") == deadline.key
            assert SERVER_ACTOR.role in game.COMMANDS_BY_ROLE[deadline.command.name]
        over = game.is_over(state)
        assert over == any(event.type in game.FINAL_EVENTS for event in self.log)
        if over:
            assert live == [], "a finished game has no live timer"
        views = {}
        for viewer in self.viewers:
            shown = views[viewer] = game.view(state, viewer)
            assert_plain(shown, f"view for {viewer}")
            assert not self.view_leaks(viewer, shown, state), (viewer, shown)
        self.check_view_groups(views)

    def check_view_groups(self, views: dict[Actor, dict[str, Any]]) -> None:
        """The optional `view_group` promise: viewers of one group see views that differ
        only in keys that never change for each of them (so one pushed change fits all)."""
        group_of = getattr(self.game, "view_group", None)
        if group_of is None:
            return
        for a in self.viewers:
            for b in self.viewers:
                if a == b or group_of(a) != group_of(b):
                    continue
                view_a, view_b = views[a], views[b]
                for key in set(view_a) | set(view_b):
                    if view_a.get(key) != view_b.get(key):
                        assert view_a.get(key) == self.first_views[a].get(key), (a, key)
                        assert view_b.get(key) == self.first_views[b].get(key), (b, key)

    def fire_next_deadline(self) -> bool:
        """The shell's timer: at its moment, each live deadline is accepted (not stale)."""
        live = self.game.deadlines(self.state)
        if not live:
            return False
        deadline = min(live, key=lambda d: d.at)
        self.now = max(self.now, deadline.at)
        assert self.send(deadline.command), f"live deadline {deadline.key} refused"
        return True


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_game_states_the_whole_contract(name):
    game = GAMES[name]
    assert game.NAME == name
    assert "HIDDEN" in (game.__doc__ or ""), "the package docstring says what it hides"
    assert game.FINAL_EVENTS <= game.EVENT_TYPES
    assert_plain(dict(game.DEFAULT_OPTIONS), "DEFAULT_OPTIONS")
    for command, roles in game.COMMANDS_BY_ROLE.items():
        assert isinstance(command, str) and roles and set(roles) <= set(ROLES), command
    if game.RECOVERY_COMMAND is not None:
        assert SERVER_ACTOR.role in game.COMMANDS_BY_ROLE[game.RECOVERY_COMMAND]
    example = example_of(name)
    assert getattr(example, "GAME", game) is game
    options = example.options(random.Random(1))
    game.initial_state({**game.DEFAULT_OPTIONS, **options})  # the defaults are valid options
    if game.SEED_OPTION is not None:  # any seed the shell may draw is a valid option
        for seed in (0, 2**SEED_BITS - 1):
            game.initial_state({**game.DEFAULT_OPTIONS, **options, game.SEED_OPTION: seed})


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_valid_play_keeps_the_contract(name, data):
    game, example = GAMES[name], example_of(name)
    rng = data.draw(st.randoms(use_true_random=False), label="rng")
    play = Play(game, example, example.options(rng))
    play.check_state()
    for _ in range(MAX_STEPS):
        if game.is_over(play.state):
            break
        play.now += data.draw(st.integers(0, 2 * S), label="wait")
        if data.draw(st.integers(0, 9), label="action") < 2 and play.fire_next_deadline():
            continue
        options = example.commands(play.state, rng)
        if options:
            play.send(data.draw(st.sampled_from(options), label="command"))
    replayed = replay(game, play.options, [recorded(event) for event in play.log])
    assert replayed == play.state, "replay of the recorded log differs from live play"
    assert game.deadlines(replayed) == game.deadlines(play.state)


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_any_command_from_anyone_is_an_event_list_or_a_rule_violation(name, data):
    """Bad input never crashes a game: unknown names, odd args, any actor."""
    game, example = GAMES[name], example_of(name)
    rng = data.draw(st.randoms(use_true_random=False), label="rng")
    play = Play(game, example, example.options(rng))
    junk = st.one_of(st.none(), st.integers(), st.text(max_size=5), st.lists(st.integers()))
    for _ in range(12):
        commands = example.commands(play.state, rng)
        if commands and data.draw(st.booleans(), label="valid"):
            play.send(data.draw(st.sampled_from(commands)))
            continue
        name_ = data.draw(st.sampled_from([*game.COMMANDS_BY_ROLE, "nope"]), label="name")
        args = data.draw(st.dictionaries(st.sampled_from(["seat", "key", "x"]), junk))
        actor = Actor(data.draw(st.sampled_from(ROLES)), data.draw(st.sampled_from(["s1", ""])))
        play.send(Command(name_, args, actor))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_recovery_command_leaves_no_timer_live(name):
    """What the shell does after a restart mid-play (server/runtime/table_actor.py)."""
    game, example = GAMES[name], example_of(name)
    if game.RECOVERY_COMMAND is None:
        pytest.skip(f"{name} has no recovery command: its timers simply run on")
    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        play = Play(game, example, example.options(rng))
        for _ in range(40):
            commands = example.commands(play.state, rng)
            if not commands or game.is_over(play.state):
                break
            play.send(rng.choice(commands))
            if game.deadlines(play.state):
                recovery = Command(game.RECOVERY_COMMAND, {"cause": RECOVERY_CAUSE}, SERVER_ACTOR)
                assert play.send(recovery), "the recovery command was refused with live timers"
                assert game.deadlines(play.state) == []
                checked += 1
                break
    assert checked >= 10, "the examples rarely reach live timers: make them play deeper"


def test_the_suite_catches_a_view_that_leaks(monkeypatch):
    """The leak check is real: a toy whose view shows players the secret fails it."""
    monkeypatch.setattr(toygame, "view", lambda state, viewer: {"secret": state.secret})
    example = example_of("toy")
    with pytest.raises(AssertionError):
        Play(toygame, example, example.options(random.Random(3))).check_state()


def test_the_suite_catches_a_replay_that_differs(monkeypatch):
    """Replay equals live is real: an evolve that drops a recorded field diverges on replay."""
    example = example_of("toy")
    play = Play(toygame, example, example.options(random.Random(3)))
    play.send(Command("start", {}, example.PROCTOR))
    live = play.state
    monkeypatch.setattr(toygame, "evolve", lambda state, event: state)
    assert replay(toygame, play.options, [recorded(e) for e in play.log]) != live


def test_the_suite_catches_a_view_group_whose_views_drift_apart(monkeypatch):
    """The `view_group` promise is checked: one group whose players see a key change that
    the other viewers of the group do not fails it."""
    monkeypatch.setattr(toygame, "view_group", lambda viewer: 0, raising=False)
    monkeypatch.setattr(
        toygame,
        "view",
        lambda state, viewer: {"started": state.started and viewer.role == "player"},
    )
    example = example_of("toy")
    play = Play(toygame, example, example.options(random.Random(3)))
    play.check_state()  # all agree before the start
    with pytest.raises(AssertionError):
        play.send(Command("start", {}, example.PROCTOR))


def test_the_suite_catches_a_redaction_group_that_lies():
    """The `redaction_group` check is real: a game that puts every viewer in one group while
    its `event_view` redacts for some (the deck order of `TableCreated`) fails it: their
    cached older pushes would leak (server/runtime/pushes.py)."""
    game = GAMES["challenge"]
    face = {name: value for name, value in vars(game).items() if not name.startswith("_")}
    lying = SimpleNamespace(**face)
    lying.redaction_group = lambda viewer: "everyone"
    example = example_of("challenge")
    Play(game, example, example.options(random.Random(3)))  # the real one keeps it
    with pytest.raises(AssertionError):
        Play(lying, example, example.options(random.Random(3)))
