"""What Tjugoett adds to the given/when/then harness (game_tables.py): stacked decks with
known cards on top, its options, a table dealt from one, and `leaks` (tests/tjugoett_leaks.py),
the check that a view or pushed event shows a viewer nothing it may not see.

Why stacked decks: a rule test must know which card comes next; `stacked("AS", "KH")`
is the 52-card order with those cards on top, given to `start_round` as the director's
`order` (recorded like any other order).
"""

from __future__ import annotations

from typing import Any

from game_tables import AUDITOR, DIRECTOR, SPECTATOR, T0, S, only, player, types
from game_tables import Table as GameTable
from tjugoett_leaks import leaks, may_see_hand, sees_everything

from server.games import tjugoett
from server.games.base import Actor
from server.games.tjugoett.cards import DECK, hand_value
from server.games.tjugoett.state import TjugoettState

__all__ = [
    "AUDITOR",
    "SPECTATOR",
    "S",
    "leaks",
    "may_see_hand",
    "only",
    "player",
    "sees_everything",
    "types",
]

SEED = "test-seed-0001"
DEALER_SEAT = "dl"
DEALER = Actor("player", DEALER_SEAT)


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


class Table(GameTable):
    """A Tjugoett table (the shared harness, game_tables.py): the director sends a command
    that names no actor."""

    state: TjugoettState

    def __init__(self, raw_options: dict[str, Any], now: int = T0) -> None:
        super().__init__(tjugoett, raw_options, now)

    @classmethod
    def dealt(cls, *top: str, **kwargs: Any) -> Table:
        """Given: a table whose first round started from `stacked(*top)`."""
        table = cls(options(**kwargs))
        table.do("start_round", DIRECTOR, order=stacked(*top))
        return table


def value(*cards: str) -> int:
    return hand_value(cards)
