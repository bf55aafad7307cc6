"""The game kit (server/games/kit.py) on a toy game of its own: the checks run in the order a
game declares, a timer's key skips the checks after it, the holds and the phases refuse with
the game's codes, the clock never runs back, and the readers refuse `bad_args`.

Why a toy here: each game's own tests show its order of checks through its rules; these show
the kit keeps any declared order, so a game's order is its table's, not the kit's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import pytest

from server.games.base import SERVER_ACTOR, Actor, Command, Deadline, Decision, Event
from server.games.base import RuleViolation as Refused
from server.games.kit import (
    TIMER,
    Hold,
    Kit,
    Refusals,
    Rule,
    kit_refusals,
    replace_record,
    sees_everything,
)

PLAYER, SPECTATOR = Actor("player", "s1"), Actor("spectator", "v1")
DIRECTOR = Actor("director", "d1")
T0 = 1_000_000


@dataclass(frozen=True)
class Toy:
    clock: int = 0
    phase: str = "setup"
    paused: bool = False
    seats: tuple[str, ...] = ("s1",)
    moves: int = 0

    def seat(self, seat_id: str) -> str | None:
        return seat_id if seat_id in self.seats else None


REFUSE = Refusals(
    {
        **kit_refusals("a toy table", seated=True, deadlines=True),
        "not_started": ("R-TOY-1", "the game has not started"),
        "started": ("R-TOY-1", "the game has started"),
        "toy_paused": ("", "the toy is paused"),
        "stale_set": ("R-TOY-2", "the move is for another card"),
    }
)
PAUSED = Hold("paused", lambda state: state.paused, "toy_paused", "the toy is paused")


def _move(decision: Decision[Toy], command: Command, seat: str | None) -> None:
    decision.emit("Moved", seat=seat)


def _start(decision: Decision[Toy], command: Command, seat: str | None) -> None:
    decision.emit("Started")


def _tick(decision: Decision[Toy], command: Command, seat: str | None) -> None:
    decision.emit("Ticked")


EVOLVERS = {
    "Started": lambda state, data: replace(state, phase="playing"),
    "Moved": lambda state, data: replace(state, moves=state.moves + 1),
    "Ticked": lambda state, data: replace(state, paused=False),
}
COMMANDS: dict[str, Rule[Decision[Toy]]] = {
    "start": Rule(frozenset({"director"}), ("setup",), _start),
    "move": Rule(frozenset({"player"}), ("playing",), _move, seated=True),
    "pause_proof": Rule(frozenset({"player"}), ("playing",), _move, passes=("paused",)),
    "tick": Rule(TIMER, ("playing",), _tick),
}


def _deadlines(state: Toy) -> list[Deadline]:
    return [Deadline("tick:1", T0 + 10, Command("tick", {"key": "tick:1"}, SERVER_ACTOR))]


def kit(steps: tuple[str, ...]) -> Kit[Toy, Decision[Toy]]:
    return Kit(
        COMMANDS,
        REFUSE,
        EVOLVERS,
        Decision,
        steps,
        holds=(PAUSED,),
        phase_refusal=REFUSE.by_phase({"setup": "not_started", "playing": "started"}),
        deadlines=_deadlines,
        deadline_commands={"tick": "tick"},
    )


def refused(game: Kit[Toy, Decision[Toy]], state: Toy, command: Command) -> str:
    with pytest.raises(Refused) as caught:
        game.decide(state, command, T0)
    return caught.value.code


def test_the_checks_run_in_the_order_the_game_declares():
    """A spectator's move with arguments that are no map, at a table in set-up: the first
    check of the declared order answers."""
    wrong_everything = Command("move", ["no", "map"], SPECTATOR)  # type: ignore[arg-type]
    assert refused(kit(("args", "sender", "phase")), Toy(), wrong_everything) == "bad_args"
    assert refused(kit(("sender", "args", "phase")), Toy(), wrong_everything) == "not_allowed"
    in_setup = Command("move", {}, PLAYER)
    assert refused(kit(("phase", "sender")), Toy(), in_setup) == "not_started"
    assert refused(kit(("sender", "seat", "phase")), Toy(), Command("nope", {}, PLAYER)) == (
        "unknown_command"
    )


def test_the_seat_reader_a_player_acts_only_for_its_own_existing_seat():
    game, playing = kit(("args", "sender", "seat", "phase")), Toy(phase="playing")
    other = Command("move", {"seat": "s2"}, PLAYER)
    assert refused(game, playing, other) == "not_your_seat"
    stranger = Command("move", {}, Actor("player", "s9"))
    assert refused(game, playing, stranger) == "unknown_seat"
    assert game.decide(playing, Command("move", {}, PLAYER), T0) == [
        Event("Moved", {"at": T0, "seat": "s1"})
    ]
    # a command that does not act for a seat still needs the sender's seat to exist
    assert refused(game, playing, Command("pause_proof", {}, Actor("player", "s9"))) == (
        "unknown_seat"
    )


def test_a_hold_refuses_all_but_the_commands_that_pass_it():
    game = kit(("args", "sender", "seat", "phase", "paused"))
    paused = Toy(phase="playing", paused=True)
    with pytest.raises(Refused) as caught:
        game.decide(paused, Command("move", {}, PLAYER), T0)
    assert caught.value.as_dict() == {
        "code": "toy_paused",
        "rule": "",
        "message": "move: the toy is paused",
    }
    assert game.decide(paused, Command("pause_proof", {}, PLAYER), T0)


def test_a_deadline_is_judged_by_its_key_and_skips_the_checks_after_it():
    """The timer fires in a paused state (its hold would refuse anything else): a live key
    implies the rest. A stale key and an early one are refused; a hair early happens at the
    deadline's own time."""
    game = kit(("args", "deadline", "sender", "phase", "paused"))
    paused = Toy(phase="playing", paused=True)
    fired = Command("tick", {"key": "tick:1"}, SERVER_ACTOR)
    assert game.decide(paused, fired, T0 + 10) == [Event("Ticked", {"at": T0 + 10})]
    assert game.decide(paused, fired, T0 + 9) == [Event("Ticked", {"at": T0 + 10})]
    assert refused(game, paused, Command("tick", {"key": "tick:0"}, SERVER_ACTOR)) == (
        "stale_deadline"
    )
    with pytest.raises(Refused) as early:
        game.decide(paused, fired, T0 - 5_000)
    assert early.value.code == "deadline_not_due"
    # sent by anyone but the server it is an ordinary command, judged by every check
    assert refused(game, paused, Command("tick", {"key": "tick:1"}, PLAYER)) == "not_allowed"


def test_the_clock_never_runs_back():
    game = kit(("args",))
    later = game.evolve(Toy(clock=50), Event("Moved", {"at": 80}))
    assert (later.clock, later.moves) == (80, 1)
    assert game.evolve(later, Event("Moved", {"at": 60})).clock == 80
    assert game.evolve(later, Event("SomebodyElses", {"at": 90})) == replace(later, clock=90)
    # a command decided before the clock happens at the clock's time
    assert game.decide(Toy(phase="setup", clock=T0), Command("start", {}, DIRECTOR), 5) == [
        Event("Started", {"at": T0})
    ]


@dataclass(frozen=True)
class Checked:
    """A record whose `__post_init__` must run on every copy (the kit's copy may not skip it)."""

    moves: int

    def __post_init__(self) -> None:
        if self.moves < 0:
            raise ValueError("moves may not be negative")


def test_replace_record_copies_plain_records_and_builds_the_others():
    toy = Toy(clock=5, moves=2)
    copy = replace_record(toy, moves=3)
    assert copy == replace(toy, moves=3) and type(copy) is Toy and toy.moves == 2
    with pytest.raises(TypeError, match="no field"):
        replace_record(toy, score=1)
    assert replace_record(Checked(1), moves=2) == Checked(2)
    with pytest.raises(ValueError, match="negative"):  # through dataclasses.replace
        replace_record(Checked(1), moves=-1)


def test_commands_by_role_names_the_server_for_the_commands_a_deadline_fires():
    assert kit(("args",)).commands_by_role == {
        "start": frozenset({"director"}),
        "move": frozenset({"player"}),
        "pause_proof": frozenset({"player"}),
        "tick": frozenset({"server"}),
    }
    assert kit(("args", "sender")).order()[:3] == [
        "the command is known (`unknown_command`)",
        "its arguments are a map (`bad_args`)",
        "the sender may send it (`not_allowed`, or the game's sender kind)",
    ]


def test_a_step_the_kit_does_not_know_is_refused_when_the_game_is_declared():
    with pytest.raises(AssertionError):
        kit(("args", "pased"))


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        ({"text": "  a  "}, None, None),
        ({"text": "   "}, "bad_args", "say: 'text' is a text of 1..5 characters"),
        ({"text": "toolong"}, "bad_args", "say: 'text' is a text of 1..5 characters"),
        ({"text": ["a"]}, "bad_args", "say: 'text' is a text of 1..5 characters"),
    ],
)
def test_the_text_reader(args: Mapping[str, Any], code: str | None, message: str | None):
    command = Command("say", args, PLAYER)
    if code is None:
        assert REFUSE.text_arg(command, "text", 5) == "a"
        return
    with pytest.raises(Refused) as caught:
        REFUSE.text_arg(command, "text", 5)
    assert (caught.value.code, caught.value.message) == (code, message)


def test_the_other_readers():
    assert REFUSE.int_arg(Command("n", {}, PLAYER), "n", 1, 3, 2) == 2
    for wrong in (True, 0, 4, "2", 2.0):
        with pytest.raises(Refused, match="'n' is a whole number 1..3"):
            REFUSE.int_arg(Command("n", {"n": wrong}, PLAYER), "n", 1, 3, 2)
    assert REFUSE.steps_arg(Command("s", {"steps": [" a ", "b"]}, PLAYER), 3) == ("a", "b")
    assert REFUSE.steps_arg(Command("s", {}, PLAYER), 3, required=False) == ()
    for wrong in (None, [], ["a"] * 4, ["a", " "], "abc", [1]):
        with pytest.raises(Refused, match="'steps' is a list of 1..3 texts"):
            REFUSE.steps_arg(Command("s", {"steps": wrong}, PLAYER), 3)
    assert REFUSE.cause_arg(Command("p", {}, PLAYER), "director") == "director"
    with pytest.raises(Refused, match="'cause' is a text of 1..64 characters"):
        REFUSE.cause_arg(Command("p", {"cause": "x" * 65}, PLAYER), "director")
    REFUSE.set_arg(Command("m", {}, PLAYER), 2, "card")  # no `set`: the one in play
    REFUSE.set_arg(Command("m", {"set": 2}, PLAYER), 2, "card")
    with pytest.raises(Refused) as stale:
        REFUSE.set_arg(Command("m", {"set": 1}, PLAYER), 2, "card")
    assert stale.value.as_dict() == {
        "code": "stale_set",
        "rule": "R-TOY-2",
        "message": "m is for card 1, but card 2 is up (R-TOY-2)",
    }
    for wrong in (True, "1", 1.0):
        with pytest.raises(Refused, match="'set' is the number of a card"):
            REFUSE.set_arg(Command("m", {"set": wrong}, PLAYER), 2, "card")


def test_the_kit_codes_and_who_sees_everything():
    assert set(kit_refusals("a table")) == {"unknown_command", "bad_args", "not_allowed"}
    assert set(kit_refusals("a table", seats=True)) == {
        "unknown_command",
        "bad_args",
        "not_allowed",
        "unknown_seat",
    }
    assert kit_refusals("a toy table")["unknown_command"][1] == "no such command at a toy table"
    assert [sees_everything(Actor(role)) for role in ("proctor", "auditor", "player")] == [
        True,
        True,
        False,
    ]
