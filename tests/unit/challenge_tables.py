"""Given/when/then support for the 24 Challenge table tests: a test deck with known answers and
a `Table` that runs commands through the real `decide` and `evolve`, with explicit time.

Why a deck of our own: the tests must know a right answer for every card without the solver,
and the dots must cover R-DECK-4 (several 2-dot cards).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from server.games import challenge
from server.games.base import SERVER_ACTOR, Actor, Command, Event, RuleViolation, replay

T0 = 1_700_000_000_000_000  # microseconds since the epoch
S = 1_000_000  # one second in microseconds

PROCTOR = Actor("proctor", "p1")
DIRECTOR = Actor("director", "d1")
SPECTATOR = Actor("spectator", "v1")
AUDITOR = Actor("auditor", "a1")


def player(seat: str) -> Actor:
    return Actor("player", seat)


# card id -> (numbers, dots, pattern, three right steps)
ANSWERS: dict[str, tuple[tuple[int, ...], int, str, list[str]]] = {
    "c1": ((1, 1, 1, 8), 1, "3 × 8", ["1 + 1 = 2", "2 + 1 = 3", "3 × 8 = 24"]),
    "c2": ((3, 3, 8, 8), 3, "8 ÷ 1/3", ["8 ÷ 3 = 8/3", "3 − 8/3 = 1/3", "8 ÷ 1/3 = 24"]),
    "c3": ((2, 2, 2, 3), 2, "8 × 3", ["2 × 2 = 4", "4 × 2 = 8", "8 × 3 = 24"]),
    "c4": ((1, 2, 3, 4), 1, "6 × 4", ["1 × 2 = 2", "2 × 3 = 6", "6 × 4 = 24"]),
    "c5": ((4, 4, 4, 4), 2, "20 + 4", ["4 × 4 = 16", "16 + 4 = 20", "20 + 4 = 24"]),
    "c6": ((1, 5, 5, 5), 3, "24/5 × 5", ["1 ÷ 5 = 1/5", "5 − 1/5 = 24/5", "24/5 × 5 = 24"]),
    "c7": ((6, 6, 6, 6), 1, "18 + 6", ["6 + 6 = 12", "12 + 6 = 18", "18 + 6 = 24"]),
    "c8": ((7, 7, 1, 24), 2, "1 × 24", ["7 − 7 = 0", "0 + 1 = 1", "1 × 24 = 24"]),
    "c9": ((2, 2, 2, 3), 2, "8 × 3", ["2 × 2 = 4", "4 × 2 = 8", "8 × 3 = 24"]),
    "c10": ((1, 1, 1, 8), 1, "3 × 8", ["1 + 1 = 2", "2 + 1 = 3", "3 × 8 = 24"]),
}
WRONG_STEPS = ["1 + 1 = 2", "2 + 1 = 3", "3 + 8 = 11"]  # never right for any card above


def deck_data(ids: list[str] | None = None) -> list[dict[str, Any]]:
    """The `deck` option for the given card ids (all of ANSWERS by default), in that order."""
    return [
        {"card_id": card_id, "numbers": list(ANSWERS[card_id][0]), "dots": ANSWERS[card_id][1]}
        for card_id in (ids or list(ANSWERS))
    ]


def seats_data(count: int = 4) -> list[dict[str, str]]:
    names = ["Ada", "Bo", "Cy", "Di"]
    return [{"seat": f"s{i + 1}", "name": names[i]} for i in range(count)]


def options(seats: int = 4, cards: list[str] | None = None, **more: Any) -> dict[str, Any]:
    """Plain table options as the shell records them."""
    return {"seats": seats_data(seats), "deck": deck_data(cards), **more}


@dataclass
class Table:
    """One table in memory: commands go through `decide` at `now`, events through `evolve`."""

    raw_options: dict[str, Any]
    now: int = T0
    events: list[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state = challenge.initial_state(self.raw_options)

    @classmethod
    def started(cls, **kwargs: Any) -> Table:
        table = cls(options(**kwargs))
        table.do("start_round", PROCTOR)
        return table

    def advance(self, seconds: float) -> Table:
        self.now += round(seconds * S)
        return self

    def do(self, name: str, actor: Actor = PROCTOR, **args: Any) -> list[Event]:
        """When: `name` is decided at `now`; its events are recorded. Returns them."""
        new = challenge.decide(self.state, Command(name, args, actor), self.now)
        for event in new:
            self.state = challenge.evolve(self.state, event)
        self.events.extend(new)
        return new

    def refused(self, name: str, actor: Actor = PROCTOR, **args: Any) -> RuleViolation:
        """When `name` is sent, then it is refused (nothing recorded). Returns the violation."""
        before = self.state
        with pytest.raises(RuleViolation) as caught:
            self.do(name, actor, **args)
        assert self.state == before
        return caught.value

    def deadline(self, command_name: str):
        matching = [d for d in challenge.deadlines(self.state) if d.command.name == command_name]
        assert len(matching) == 1, f"{command_name} is not a live deadline: {self.live()}"
        return matching[0]

    def fire(self, command_name: str) -> list[Event]:
        """The shell's timer for `command_name` fires at its time."""
        deadline = self.deadline(command_name)
        self.now = max(self.now, deadline.at)
        return self.do(deadline.command.name, SERVER_ACTOR, **deadline.command.args)

    def live(self) -> dict[str, int]:
        return {d.command.name: d.at for d in challenge.deadlines(self.state)}

    def next_card(self) -> str:
        """Place and reveal the next card; returns its id."""
        self.do("place_card")
        self.do("reveal_card")
        assert self.state.card is not None
        return self.state.card.card.card_id

    def win(self, seat: str, actor: Actor | None = None) -> list[Event]:
        """The seat touches the revealed card and gives its right answer."""
        actor = actor or player(seat)
        args = {"seat": seat} if actor.role != "player" else {}
        card_id = self.state.card.card.card_id
        _numbers, _dots, pattern, steps = ANSWERS[card_id]
        self.do("touch_card", actor, **args)
        self.do("declare_pattern", actor, pattern=pattern, **args)
        return self.do("fix_solution", actor, steps=steps, **args)

    def seq_of(self, event_type: str, nth: int = -1) -> int:
        """The log seq of the nth recorded event of this type (`TableCreated` is seq 1)."""
        seqs = [index + 2 for index, event in enumerate(self.events) if event.type == event_type]
        assert seqs, f"no {event_type} recorded"
        return seqs[nth]

    def last_seq(self) -> int:
        return len(self.events) + 1

    def replayed(self):
        return replay(challenge, self.raw_options, self.events)


def types(events: list[Event]) -> list[str]:
    return [event.type for event in events]


def seat_of(state, seat_id: str):
    seat = state.seat(seat_id)
    assert seat is not None
    return seat
