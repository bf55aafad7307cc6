"""The Decider protocol's plain data (server/games/base.py) and `replay`, the fold every game
and the shell rely on."""

from __future__ import annotations

import inspect

import msgpack
import pytest

from server.games import base, challenge
from server.games.base import SERVER_ACTOR, Actor, Command, Event, RuleViolation, replay


def test_actor_and_violation_are_plain_data_on_the_wire():
    assert Actor("player", "s1").as_dict() == {"role": "player", "id": "s1"}
    assert SERVER_ACTOR.as_dict() == {"role": "server", "id": "server"}
    violation = RuleViolation("too_late", "the pattern came after 3 s", "R-PLAY-4")
    assert str(violation) == "the pattern came after 3 s"
    assert violation.as_dict() == {
        "code": "too_late",
        "rule": "R-PLAY-4",
        "message": "the pattern came after 3 s",
    }
    assert msgpack.unpackb(msgpack.packb(violation.as_dict())) == violation.as_dict()


def test_commands_default_to_the_server_with_no_arguments():
    command = Command("no_touch_deadline")
    assert command.actor == SERVER_ACTOR and dict(command.args) == {}


def test_every_game_function_the_shell_calls_exists_with_its_signature():
    members = inspect.getmembers(base.Game, inspect.isfunction)
    names = {name for name, _member in members if not name.startswith("_")}
    assert names == {
        "initial_state",
        "decide",
        "evolve",
        "deadlines",
        "view",
        "event_view",
        "is_over",
    }
    for name, member in members:
        if name.startswith("_"):
            continue
        ours = getattr(challenge, name)
        wanted = [p for p in inspect.signature(member).parameters if p != "self"]
        assert list(inspect.signature(ours).parameters) == wanted, name
    assert challenge.NAME == "challenge"


class _Counter:
    """A tiny game: the state is the sum of the `n` of every event."""

    NAME = "counter"

    @staticmethod
    def initial_state(options):
        return options["start"]

    @staticmethod
    def evolve(state, event):
        return state + event.data["n"]


def test_replay_folds_the_events_over_the_initial_state():
    events = [Event("Added", {"n": 2}), Event("Added", {"n": 5})]
    assert replay(_Counter, {"start": 10}, events) == 17
    assert replay(_Counter, {"start": 10}, []) == 10


def test_events_and_deadlines_are_frozen():
    event = Event("CardWon", {"seat": "s1"})
    with pytest.raises(AttributeError):
        event.type = "CardLost"  # type: ignore[misc]
    deadline = base.Deadline("pattern:1:0", 3, Command("pattern_deadline", {"key": "x"}))
    with pytest.raises(AttributeError):
        deadline.at = 4  # type: ignore[misc]


def test_the_registry_names_every_game_by_its_recorded_name():
    from server.games import deck40, games, pocket, tjugoett

    registry = games()
    assert registry == {
        "challenge": challenge,
        "pocket": pocket,
        "deck40": deck40,
        "tjugoett": tjugoett,
    }
