"""One given -> when -> then harness for every game: a `Table` that runs commands through a
game's real `decide` and `evolve` with explicit time.

- Given: `Table(game, options)` (the state `initial_state` reads from them), then the events
  already recorded (`given(...)`, evolved without a command) or the commands that led there.
- When: `do(name, actor, **args)` decides a command at `now` and records its events;
  `fire(command)` fires a live deadline at its time, as the shell does; `advance(seconds)`.
- Then: the events returned (`types`, `one`, `only`), the state, `refused(...)` (the command is
  refused and nothing changes), `live()` (the timers), `replayed()` (the log folded again).

Why one: the 24 Challenge, the casual games and Tjugoett each wrote this class again; each
game's module (challenge_tables.py, casual_tables.py, tjugoett_tables.py) keeps only what the
game adds: its decks with known answers, its options, its shortcuts (`win`, `dealt`).
"""

from __future__ import annotations

from typing import Any

import pytest

from server.games.base import SERVER_ACTOR, Actor, Command, Deadline, Event, RuleViolation, replay

T0 = 1_700_000_000_000_000  # microseconds since the epoch
S = 1_000_000  # one second in microseconds

PROCTOR = Actor("proctor", "p1")
DIRECTOR = Actor("director", "d1")
SPECTATOR = Actor("spectator", "v1")
AUDITOR = Actor("auditor", "a1")


def player(seat: str) -> Actor:
    return Actor("player", seat)


class Table:
    """One table in memory: commands go through `decide` at `now`, events through `evolve`.
    `default_actor` sends a command that names no actor (a game's harness sets its own)."""

    default_actor: Actor = DIRECTOR

    def __init__(self, game: Any, raw_options: dict[str, Any], now: int = T0) -> None:
        self.game = game
        self.raw_options = raw_options
        self.now = now
        self.events: list[Event] = []
        self.state = game.initial_state(raw_options)

    def given(self, *events: Event) -> Table:
        """Given: these events are recorded already (evolved without a command)."""
        for event in events:
            self.state = self.game.evolve(self.state, event)
        self.events.extend(events)
        return self

    def advance(self, seconds: float) -> Table:
        self.now += round(seconds * S)
        return self

    def do(self, name: str, actor: Actor | None = None, /, **args: Any) -> list[Event]:
        """When: `name` is decided at `now`; its events are recorded. Returns them. (`name`
        and `actor` are positional: a command may take arguments of those names.)"""
        command = Command(name, args, actor or self.default_actor)
        new = self.game.decide(self.state, command, self.now)
        for event in new:
            self.state = self.game.evolve(self.state, event)
        self.events.extend(new)
        return new

    def refused(self, name: str, actor: Actor | None = None, /, **args: Any) -> RuleViolation:
        """When `name` is sent, then it is refused and nothing changes. Returns the refusal."""
        before = self.state
        with pytest.raises(RuleViolation) as caught:
            self.do(name, actor, **args)
        assert self.state == before
        return caught.value

    def deadline(self, command_name: str) -> Deadline:
        """The one live deadline that fires `command_name`."""
        matching = [d for d in self.game.deadlines(self.state) if d.command.name == command_name]
        assert len(matching) == 1, f"{command_name} is not a live deadline: {self.live()}"
        return matching[0]

    def fire(self, command_name: str) -> list[Event]:
        """The shell's timer for `command_name` fires at its time."""
        deadline = self.deadline(command_name)
        self.now = max(self.now, deadline.at)
        return self.do(deadline.command.name, SERVER_ACTOR, **deadline.command.args)

    def live(self) -> dict[str, int]:
        """The live timers: command -> when it fires."""
        return {d.command.name: d.at for d in self.game.deadlines(self.state)}

    def replayed(self) -> Any:
        """The recorded events folded again from the options (what a restart reads)."""
        return replay(self.game, self.raw_options, self.events)


def types(events: list[Event]) -> list[str]:
    return [event.type for event in events]


def one(events: list[Event], type_: str) -> dict[str, Any]:
    """The data of the only event of this type."""
    found = [event.data for event in events if event.type == type_]
    assert len(found) == 1, f"{type_}: {types(events)}"
    return dict(found[0])


def only(events: list[Event], type_: str) -> Event:
    """The only event of this type."""
    (event,) = [event for event in events if event.type == type_]
    return event
