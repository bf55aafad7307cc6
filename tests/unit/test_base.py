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
        "secrets",
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
    """Every package of server/games/ with a `NAME` is a game, named after its folder."""
    import importlib
    from pathlib import Path

    from server.games import games

    folders = Path(challenge.__file__).resolve().parents[1]
    packages = sorted(path.name for path in folders.iterdir() if (path / "__init__.py").exists())
    registry = games()
    assert {"challenge", "pocket", "deck40", "tjugoett", "practice"} <= set(registry)
    for folder in packages:
        module = importlib.import_module(f"server.games.{folder}")
        if hasattr(module, "NAME"):
            assert registry[folder] is module and module.NAME == folder
        else:
            assert folder not in registry  # shared code of the games


def test_the_registry_refuses_a_game_named_otherwise_than_its_folder(monkeypatch):
    import server.games as registry
    from server.games import MisnamedGame, pocket

    registry._found.cache_clear()
    monkeypatch.setattr(pocket, "NAME", "pocket24")
    try:
        with pytest.raises(MisnamedGame, match="server/games/pocket/ names its game 'pocket24'"):
            registry.games()
        monkeypatch.setattr(pocket, "NAME", "pocket")
        monkeypatch.delattr(pocket, "view")
        registry._found.cache_clear()
        with pytest.raises(MisnamedGame, match="server/games/pocket/ lacks view"):
            registry.games()
    finally:
        monkeypatch.undo()
        registry._found.cache_clear()
    assert registry.games()["pocket"] is pocket


# -- due_deadline: the one check every game's timers go through --------------------------------


def _refuse(code: str, message: str) -> RuleViolation:
    return RuleViolation(code, message, "R-TEST")


_LIVE = [
    base.Deadline("turn:1", 5_000_000, Command("turn_deadline", {"key": "turn:1"})),
    base.Deadline("round:2", 9_000_000, Command("start_round", {"key": "round:2"})),
]


def test_a_timer_is_due_from_one_millisecond_before_its_time():
    assert base.DEADLINE_EARLY_US == 1_000
    command = Command("start_round", {"key": "round:2"})
    for now in (9_000_000 - 1_000, 9_000_000, 9_500_000):
        assert base.due_deadline(_LIVE, command, now, _refuse) is _LIVE[1]


def test_a_timer_more_than_a_millisecond_early_is_refused_exactly():
    command = Command("start_round", {"key": "round:2"})
    with pytest.raises(RuleViolation) as caught:
        base.due_deadline(_LIVE, command, 9_000_000 - 1_001, _refuse)
    assert caught.value.as_dict() == {
        "code": "deadline_not_due",
        "rule": "R-TEST",
        "message": "round:2 is due at 9000000, now is 8998999",
    }


@pytest.mark.parametrize(
    "command",
    [
        Command("start_round", {"key": "round:3"}),  # no such key
        Command("turn_deadline", {"key": "round:2"}),  # the key of another command
        Command("start_round", {}),  # no key
    ],
)
def test_a_timer_whose_key_is_not_live_for_its_command_is_stale(command):
    with pytest.raises(RuleViolation) as caught:
        base.due_deadline(_LIVE, command, 10_000_000, _refuse)
    key = command.args.get("key")
    assert caught.value.as_dict() == {
        "code": "stale_deadline",
        "rule": "R-TEST",
        "message": f"{command.name}: {key!r} is not a live deadline",
    }


def test_the_constants_the_shell_relies_on():
    assert base.SEED_BITS == 63
    assert base.RECOVERY_CAUSE == "server_restart"
    assert base.ROLES == ("director", "proctor", "player", "spectator", "auditor", "server")
    assert Command("x").delay_us is None
    assert RuleViolation("code", "message").rule == ""
