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


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(item) for item in value.values())) if value else set()
    if isinstance(value, list | tuple):
        return set().union(*(_strings(item) for item in value)) if value else set()
    return set()


def leaks(viewer: Actor, data: dict[str, Any], state: TjugoettState, kind: str = "") -> list[str]:
    """What `data` (a view, or a pushed event's data of type `kind`) shows `viewer` that it
    may not see in `state` (the state after the event): hidden card codes anywhere, the seed,
    the sum of a hidden hand. Empty when nothing leaks.

    Why `results` is skipped in a view: a card settled earlier in the round may have gone back
    into the draw pile by a reshuffle and into a hidden hand since; the result is history.
    """
    found: list[str] = []
    scanned = {k: v for k, v in data.items() if k != "results"} if kind == "" else data
    shown = _strings(scanned) & hidden_cards(state, viewer)
    found += [f"card {card}" for card in sorted(shown)]
    if sees_everything(viewer):
        return found
    if state.options.seed in _strings(data):
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
