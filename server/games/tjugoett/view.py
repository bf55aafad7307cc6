"""What each viewer may see of a Tjugoett table: the one place that decides it.

Rules this file keeps (R-21-19 and the `public_hands` option; the package docstring's
HIDDEN says the same in one paragraph):
- The director, the proctor, auditors and the server see everything, the draw pile's order
  and the table's seed too.
- A player sees its own cards and sum, always.
- The dealer never sees the card or the sum of a player whose turn is live or still to
  come: the dealer's view shows how many cards a hand holds, nothing more. A turn's
  outcome (`TurnSettled`, and `results` in the view) is public, with the hand.
- Other players and spectators see a hand when its turn is over (`turn_over`, default) or
  each card as it is dealt (`live`).
- Nobody else sees the draw pile's order (`RoundStarted.order`, `DiscardsReshuffled.order`
  become their length) or the seed (`TableCreated.options` holds no `seed`).
- The same redaction applies to every pushed event (`event_view`) as to the snapshot
  (`view`): secrets leak through logs when only snapshots are redacted. `event_view` is
  stateless (a catch-up push is redacted as the live one was), so the events that carry a
  player's card or sum also carry what it needs: the owner `seat`, the table's
  `public_hands` and the `dealer_seat`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from server.games.base import NO_SECRETS, Actor, Event, Secrets
from server.games.kit import FULL_VIEW_ROLES, sees_everything
from server.games.tjugoett.cards import hand_value
from server.games.tjugoett.senders import may_send
from server.games.tjugoett.state import Hand, TjugoettState, deadlines

HIDDEN_HAND_EVENTS = frozenset({"CardDealt", "PlayerStood"})
HIDDEN_FIELDS = ("card", "sum")
ORDER_EVENTS = frozenset({"RoundStarted", "DiscardsReshuffled"})


def may_see_hand(owner: str, public_hands: str, dealer_seat: str | None, viewer: Actor) -> bool:
    """Whether `viewer` may see the cards of `owner`'s hand while its turn is not over."""
    if sees_everything(viewer):
        return True
    if viewer.role == "player" and viewer.id == owner:
        return True
    if viewer.role == "player" and dealer_seat is not None and viewer.id == dealer_seat:
        return False  # R-21-19, whatever `public_hands` says
    return public_hands == "live"


SECRET_KEYS = frozenset({"seed", "draw_order"})  # the seed is dropped from `TableCreated`


def secrets(state: TjugoettState, viewer: Actor) -> Secrets:
    """What `viewer` may not learn (server.games.base.Secrets), stated apart from
    `may_see_hand` on purpose: for everyone but the officials the seed (as recorded, and as
    a number when it is one) and the draw pile (its cards and its order); and the cards of
    every hand whose turn is not over that the viewer may not see: every one but its own for
    the dealer (R-21-19), every one but its own for the others unless hands are `live`."""
    if viewer.role in FULL_VIEW_ROLES:
        return NO_SECRETS
    options = state.options
    own = viewer.id if viewer.role == "player" else None
    dealer = own is not None and own == options.dealer_seat
    live_shown = options.public_hands == "live" and not dealer
    hidden = [
        card
        for hand in state.hands
        if not hand.settled and hand.seat != own and not live_shown
        for card in hand.cards
    ]
    seed = options.seed
    values: set[Hashable] = {*hidden, *state.draw_pile, seed}
    if state.draw_pile:
        values.add(tuple(state.draw_pile))
    if seed.isdigit():
        values.add(int(seed))
    return Secrets(SECRET_KEYS, frozenset(values))


def _role_at_table(state: TjugoettState, viewer: Actor) -> str:
    if viewer.role == "player" and viewer.id == state.options.dealer_seat:
        return "dealer"
    if viewer.role == "player" and viewer.id not in state.options.seat_ids():
        return "spectator"
    return viewer.role


def _hand_view(state: TjugoettState, hand: Hand, viewer: Actor) -> dict[str, Any]:
    options = state.options
    shown = hand.settled or may_see_hand(
        hand.seat, options.public_hands, options.dealer_seat, viewer
    )
    name = next(seat.name for seat in options.seats if seat.seat == hand.seat)
    return {
        "seat": hand.seat,
        "name": name,
        "count": len(hand.cards),
        "cards": list(hand.cards) if shown else None,
        "sum": hand_value(hand.cards) if shown and hand.cards else None,
        "settled": hand.settled,
        "facing_dealer": hand.seat == state.turn,
    }


def view(state: TjugoettState, viewer: Actor) -> dict[str, Any]:
    """The table as `viewer` may see it, as plain msgpack-able data.

    Why one function for every role: who sees what lives in one place; a spectator is a
    viewer without a seat, the dealer a player seat the options name.
    """
    options = state.options
    hands = state.hands or tuple(Hand(seat) for seat in options.seat_ids())
    dealer = options.dealer
    snapshot: dict[str, Any] = {
        "game": "tjugoett",
        # the table's language, named only when not English (docs/protocol.md, "Words")
        **({"lang": state.options.lang} if state.options.lang != "en" else {}),
        "phase": state.phase,
        "round": state.round,
        "in_round": state.in_round,
        "turn": state.turn,
        "stood": state.stood,
        "end_reason": state.end_reason,
        "you": viewer.id if viewer.role == "player" else None,
        "your_role": _role_at_table(state, viewer),
        "your_commands": may_send(state, viewer),
        "options": options.as_data(),
        "seats": [_hand_view(state, hand, viewer) for hand in hands],
        "dealer": {
            "seat": dealer.seat if dealer else None,
            "name": dealer.name if dealer else "server",
            "cards": list(state.dealer_cards),
            "sum": hand_value(state.dealer_cards) if state.dealer_cards else None,
            "stands_at": options.dealer_stands_at if dealer is None else None,
        },
        "draw_pile": len(state.draw_pile),
        "discard_pile": list(state.discard_pile),
        "reshuffles": state.reshuffles,
        "results": [result.as_data() for result in state.results],
        "tally": state.tally_data(),
        "deadlines": [
            {"key": deadline.key, "command": deadline.command.name, "at": deadline.at}
            for deadline in deadlines(state)
        ],
        "clock": state.clock,
    }
    if sees_everything(viewer):
        snapshot["draw_order"] = list(state.draw_pile)
    return snapshot


def _hidden_hand(data: Mapping[str, Any], viewer: Actor) -> bool:
    return not may_see_hand(
        data.get("seat", ""), data.get("public_hands", ""), data.get("dealer_seat"), viewer
    )


def event_view(event: Event, viewer: Actor) -> Event:
    """The event as `viewer` may see it (see the module docstring): a hidden card or sum
    becomes null, a hidden order its length, the seed is dropped."""
    if sees_everything(viewer):
        return event
    if event.type in HIDDEN_HAND_EVENTS and _hidden_hand(event.data, viewer):
        data = dict(event.data)
        for name in HIDDEN_FIELDS:
            if name in data:
                data[name] = None
        return Event(event.type, data)
    if event.type in ORDER_EVENTS:
        data = dict(event.data)
        data["order"] = len(data.get("order", ()))
        return Event(event.type, data)
    if event.type == "TableCreated":  # the shell's first event holds the seed
        data = dict(event.data)
        options = dict(data.get("options") or {})
        options.pop("seed", None)  # not even its key (`secrets`)
        data["options"] = options
        return Event(event.type, data)
    return event
