"""Given/when/then support for the Tjugoett tests: a `Table` that runs commands through the
real `decide` and `evolve` with explicit time, stacked decks with known cards on top, and
`leaks` (tests/tjugoett_leaks.py), the check that a view or pushed event shows a viewer
nothing it may not see.

Why stacked decks: a rule test must know which card comes next; `stacked("AS", "KH")`
is the 52-card order with those cards on top, given to `start_round` as the director's
`order` (recorded like any other order).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from tjugoett_leaks import leaks, may_see_hand, sees_everything

from server.games import tjugoett
from server.games.base import SERVER_ACTOR, Actor, Command, Event, RuleViolation, replay
from server.games.tjugoett.cards import DECK, hand_value
from server.games.tjugoett.state import TjugoettState

__all__ = ["leaks", "may_see_hand", "sees_everything"]

T0 = 1_700_000_000_000_000  # microseconds since the epoch
S = 1_000_000
SEED = "test-seed-0001"

DIRECTOR = Actor("director", "d1")
SPECTATOR = Actor("spectator", "v1")
AUDITOR = Actor("auditor", "a1")
DEALER_SEAT = "dl"
DEALER = Actor("player", DEALER_SEAT)


def player(seat: str) -> Actor:
    return Actor("player", seat)


def seats_data(count: int = 2) -> list[dict[str, str]]:
    names = ["Ada", "Bo", "Cy", "Di", "Ek", "Fa", "Gu"]
    return [{"seat": f"s{i + 1}", "name": names[i]} for i in range(count)]


def options(players: int = 2, person_dealer: bool = False, **more: Any) -> dict[str, Any]:
    """Plain table options as the shell records them (a person dealer sits at `dl`)."""
    raw: dict[str, Any] = {"seats": seats_data(players), "seed": SEED, **more}
    if person_dealer:
        raw["dealer"] = {"seat": DEALER_SEAT, "name": "Dora"}
    return raw


def stacked(*top: str) -> list[str]:
    """The 52 cards with `top` first, in that order, then the rest in deck order."""
    assert len(set(top)) == len(top) and set(top) <= set(DECK), top
    return list(top) + [card for card in DECK if card not in top]


@dataclass
class Table:
    """One table in memory: commands go through `decide` at `now`, events through `evolve`."""

    raw_options: dict[str, Any]
    now: int = T0
    events: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state: TjugoettState = tjugoett.initial_state(self.raw_options)

    @classmethod
    def dealt(cls, *top: str, **kwargs: Any) -> Table:
        """Given: a table whose first round started from `stacked(*top)`."""
        table = cls(options(**kwargs))
        table.do("start_round", DIRECTOR, order=stacked(*top))
        return table

    def do(self, name: str, actor: Actor = DIRECTOR, **args: Any) -> list[Event]:
        """When: `name` is decided at `now`; its events are recorded. Returns them."""
        new = tjugoett.decide(self.state, Command(name, args, actor), self.now)
        for event in new:
            self.state = tjugoett.evolve(self.state, event)
        self.events.extend(new)
        return new

    def refused(self, name: str, actor: Actor = DIRECTOR, **args: Any) -> RuleViolation:
        """When `name` is sent, then it is refused (nothing recorded). Returns the violation."""
        before = self.state
        with pytest.raises(RuleViolation) as caught:
            self.do(name, actor, **args)
        assert self.state == before
        return caught.value

    def fire(self, command_name: str) -> list[Event]:
        """The shell's timer for `command_name` fires at its time."""
        matching = [d for d in tjugoett.deadlines(self.state) if d.command.name == command_name]
        assert len(matching) == 1, f"{command_name} is not live: {tjugoett.deadlines(self.state)}"
        deadline = matching[0]
        self.now = max(self.now, deadline.at)
        return self.do(deadline.command.name, SERVER_ACTOR, **deadline.command.args)

    def replayed(self) -> TjugoettState:
        return replay(tjugoett, self.raw_options, self.events)


def types(events: list[Event]) -> list[str]:
    return [event.type for event in events]


def only(events: list[Event], type_: str) -> Event:
    (event,) = [event for event in events if event.type == type_]
    return event


def value(*cards: str) -> int:
    return hand_value(cards)
