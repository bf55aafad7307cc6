"""The leak oracle of Tjugoett (R-21-19, `public_hands`, the hidden orders and seed), shared
by the unit tests (tests/unit/tjugoett_tables.py) and the game contract suite's example
(tests/contract/game_examples/tjugoett.py).

Why a restatement and not an import of `server.games.tjugoett.view`: an oracle that imports
the code it checks agrees with that code's bugs.
"""

from __future__ import annotations

from typing import Any

from server.games.base import Actor
from server.games.tjugoett.state import TjugoettState

OFFICIAL_VIEWERS = ("director", "proctor", "auditor", "server")


def sees_everything(viewer: Actor) -> bool:
    """The rule restated for the oracle (not imported from the view it checks)."""
    return viewer.role in OFFICIAL_VIEWERS


def may_see_hand(owner: str, public_hands: str, dealer_seat: str | None, viewer: Actor) -> bool:
    """R-21-19 and `public_hands`, restated for the oracle: officials and the owner see a
    live hand; the dealer never; others when hands are `live`."""
    if sees_everything(viewer) or (viewer.role == "player" and viewer.id == owner):
        return True
    if viewer.role == "player" and viewer.id == dealer_seat:
        return False
    return public_hands == "live"


def hidden_cards(state: TjugoettState, viewer: Actor) -> set[str]:
    """The cards `viewer` may not know of in `state`: those of every hand whose turn is not
    over that it may not see, and (unless it sees everything) the draw pile's."""
    if sees_everything(viewer):
        return set()
    options = state.options
    hidden = set(state.draw_pile)
    for hand in state.hands:
        if not hand.settled and not may_see_hand(
            hand.seat, options.public_hands, options.dealer_seat, viewer
        ):
            hidden |= set(hand.cards)
    return hidden


def _strings(value: Any, found: set[str]) -> set[str]:
    """Every string in `value` (a map's values, a list's or tuple's items, at any depth),
    added to `found`. One set for the walk: the contract suite runs this on every view and
    pushed event for every viewer (a set per node was half of its Tjugoett play's time)."""
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, found)
    elif isinstance(value, list | tuple):
        for item in value:
            _strings(item, found)
    return found


def leaks(viewer: Actor, data: dict[str, Any], state: TjugoettState, kind: str = "") -> list[str]:
    """What `data` (a view, or a pushed event's data of type `kind`) shows `viewer` that it
    may not see in `state` (the state after the event): hidden card codes anywhere, the seed,
    the sum of a hidden hand. Empty when nothing leaks.

    Why `results` is skipped in a view: a card settled earlier in the round may have gone back
    into the draw pile by a reshuffle and into a hidden hand since; the result is history.
    """
    found: list[str] = []
    if sees_everything(viewer):  # no hidden card, and the seed is theirs to see
        return found
    scanned = {k: v for k, v in data.items() if k != "results"} if kind == "" else data
    strings = _strings(scanned, set())
    found += [f"card {card}" for card in sorted(strings & hidden_cards(state, viewer))]
    if scanned is not data:  # the seed is looked for in the results too
        strings = _strings(data.get("results"), strings)
    if state.options.seed in strings:
        found.append("the seed")
    if kind in ("CardDealt", "PlayerStood"):
        owner = data["seat"]
        hand = state.hand(owner)
        hidden = not may_see_hand(
            owner, state.options.public_hands, state.options.dealer_seat, viewer
        )
        if hidden and (data.get("sum") is not None or data.get("card") is not None):
            found.append(f"{kind} of {owner}")
        assert hand is not None
    if kind == "":
        for seat in data.get("seats", []):
            hand = state.hand(seat["seat"])
            if hand is None or hand.settled:
                continue
            if not may_see_hand(
                hand.seat, state.options.public_hands, state.options.dealer_seat, viewer
            ) and (seat["sum"] is not None or seat["cards"] is not None):
                found.append(f"hand of {hand.seat}")
    return found
