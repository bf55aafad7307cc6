"""What the casual games (pocket, deck40) add to the given/when/then harness (game_tables.py):
decks with known answers, their options, and a table started by the director.

Why decks of our own: the tests must know a right answer for every card without the solver.
"""

from __future__ import annotations

from typing import Any

from game_tables import AUDITOR, DIRECTOR, PROCTOR, SPECTATOR, T0, S, one, player, types
from game_tables import Table as GameTable

from server.games.deck40.options import CARD_NAMES

__all__ = ["AUDITOR", "PROCTOR", "SPECTATOR", "T0", "S", "one", "player", "types"]


def seats_data(count: int) -> list[dict[str, str]]:
    return [{"seat": f"s{i}", "name": f"Player {i}"} for i in range(1, count + 1)]


# -- pocket -----------------------------------------------------------------------------------

# card id -> (numbers, dots, a right free-form answer)
POCKET_ANSWERS: dict[str, tuple[tuple[int, ...], int, str]] = {
    "p1": ((1, 1, 1, 8), 1, "(1 + 1 + 1) × 8"),
    "p2": ((3, 3, 8, 8), 3, "8 ÷ (3 − 8 ÷ 3)"),
    "p3": ((2, 2, 2, 3), 2, "2 * 2 * 2 * 3"),
    "p4": ((2, 3, 4, 5), 1, "(5 + 3 - 2) × 4"),
    "p5": ((6, 6, 6, 6), 1, "6 + 6 + 6 + 6"),
    "p6": ((4, 4, 4, 4), 2, "4*4+4+4"),
}
POCKET_WRONG = "1 + 2 + 3 + 4"  # never right for any card above (wrong numbers or not 24)


def pocket_stack(ids: list[str] | None = None) -> list[dict[str, Any]]:
    """The `stack` option for the given ids (all of POCKET_ANSWERS by default), top first."""
    return [
        {
            "card_id": card_id,
            "numbers": list(POCKET_ANSWERS[card_id][0]),
            "dots": POCKET_ANSWERS[card_id][1],
        }
        for card_id in (ids or list(POCKET_ANSWERS))
    ]


def pocket_options(seats: int = 3, cards: list[str] | None = None, **more: Any) -> dict[str, Any]:
    return {"seats": seats_data(seats), "stack": pocket_stack(cards), **more}


# -- deck40 -----------------------------------------------------------------------------------

# Four cards each (in the order they lie on the table) and a right answer, or None.
SETS: dict[str, tuple[tuple[str, ...], str | None]] = {
    "3388": (("3S", "3H", "8S", "8H"), "8/(3-8/3)"),
    "4187": (("4C", "AC", "8C", "7C"), "(8 - 4) × (7 - 1)"),
    "2345": (("2D", "3D", "4D", "5D"), "(5 + 3 - 2) × 4"),
    "6666": (("6S", "6H", "6D", "6C"), "6 + 6 + 6 + 6"),
    "1111": (("AS", "AH", "AD", "AC"), None),  # no solution
    "10187": (("10S", "AD", "8H", "7H"), "(8 + 7) + (10 - 1)"),
}


def deck_for(players: int, sets: list[str]) -> list[str]:
    """A 40-card order that puts the named sets on the table first, in turn-up order.

    Dealing is one card at a time in seat order; with 2 players each turns up two (seat 1's
    two, then seat 2's), with 4 players one each, with the common pile four from the top.
    """
    wanted = [card for name in sets for card in SETS[name][0]]
    rest = [card for card in CARD_NAMES if card not in wanted]
    order: list[str | None] = [None] * 40
    per = {2: 2, 4: 1}.get(players, 0)
    for index, card in enumerate(wanted):
        if per == 0:
            position = index
        else:
            set_index, within = divmod(index, 4)
            seat, nth = divmod(within, per)
            pile_position = set_index * per + nth
            position = pile_position * players + seat
        order[position] = card
    filler = iter(rest)
    return [card if card is not None else next(filler) for card in order]


def deck40_options(players: int = 2, sets: list[str] | None = None, **more: Any) -> dict[str, Any]:
    return {"seats": seats_data(players), "deck": deck_for(players, sets or []), **more}


# -- the table --------------------------------------------------------------------------------


class Table(GameTable):
    """A casual table (the shared harness, game_tables.py): the game is given with its options."""

    @classmethod
    def started(cls, game: Any, raw_options: dict[str, Any]) -> Table:
        table = cls(game, raw_options)
        table.do("start_game", DIRECTOR)
        return table
