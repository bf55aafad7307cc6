"""What the 24 Challenge adds to the given/when/then harness (game_tables.py): a test deck
with known answers, its options, and its shortcuts (`next_card`, `win`, `seq_of`).

Why a deck of our own: the tests must know a right answer for every card without the solver,
and the dots must cover R-DECK-4 (several 2-dot cards).
"""

from __future__ import annotations

from typing import Any

from game_tables import AUDITOR, DIRECTOR, PROCTOR, SPECTATOR, T0, S, player, types
from game_tables import Table as GameTable

from server.games import challenge
from server.games.base import Actor, Event

__all__ = ["AUDITOR", "DIRECTOR", "SPECTATOR", "S", "types"]


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


class Table(GameTable):
    """A 24 Challenge table (the shared harness, game_tables.py): the proctor sends a command
    that names no actor."""

    default_actor = PROCTOR

    def __init__(self, raw_options: dict[str, Any], now: int = T0) -> None:
        super().__init__(challenge, raw_options, now)

    @classmethod
    def started(cls, **kwargs: Any) -> Table:
        table = cls(options(**kwargs))
        table.do("start_round", PROCTOR)
        return table

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


def seat_of(state, seat_id: str):
    seat = state.seat(seat_id)
    assert seat is not None
    return seat
