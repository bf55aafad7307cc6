"""What each viewer may see of a Kortspillet 24 table: the one place that decides it.

Rules this file keeps ("the players may not look at their cards"):
- Players and spectators never see a pile's cards or order (own piles and the common pile),
  nor the shuffle or the seed in the options: only how many cards each pile holds. The four
  cards on the table and the won cards are face up.
- The proctor, the director, auditors and the server see everything.
- The same redaction applies to every pushed event (`event_view`), not only to the snapshot.
"""

from __future__ import annotations

from typing import Any

from server.games.base import NO_SECRETS, Actor, Event, Secrets
from server.games.deck40.options import card_data, the_deck
from server.games.deck40.state import Deck40State
from server.games.kit import sees_everything

SECRET_KEYS = frozenset({"seed"})  # dropped from `TableCreated.options` for them


def secrets(state: Deck40State, viewer: Actor) -> Secrets:
    """What players and spectators may not learn (server.games.base.Secrets): the seed, and
    every face-down card (the whole shuffle before `start_game`), by name."""
    if sees_everything(viewer):
        return NO_SECRETS
    if state.started:
        face_down = [card for seat in state.seats for card in seat.pile] + list(state.common)
    else:
        face_down = list(the_deck(state.options))
    return Secrets(SECRET_KEYS, frozenset({*face_down, state.options.seed}))


def view(state: Deck40State, viewer: Actor) -> dict[str, Any]:
    """The table as `viewer` may see it, as plain msgpack-able data."""
    full = sees_everything(viewer)
    snapshot: dict[str, Any] = {
        "game": "deck40",
        # the table's language, named only when not English (docs/protocol.md, "Words")
        **({"lang": state.options.lang} if state.options.lang != "en" else {}),
        "phase": state.phase,
        "options": state.options.public_data(),
        "set": state.set_number,
        "table": [{**card_data(on.card), "seat": on.seat} for on in state.table],
        "excluded": list(state.excluded),
        "no_solution": sorted(state.no_solution),
        "after_no_solution": state.after_no_solution,
        "seats": [
            {
                "seat": seat.seat,
                "name": seat.name,
                "score": seat.score,
                "won": list(seat.won),
                "pile": len(seat.pile),
            }
            for seat in state.seats
        ],
        "common_pile": len(state.common),
        "scores": state.scores(),
        "cards_left": state.cards_left(),
        "deadlines": [],
        "result": state.result,
        "clock": state.clock,
    }
    if viewer.role == "player":
        snapshot["you"] = viewer.id
    if full:
        snapshot["piles"] = {seat.seat: list(seat.pile) for seat in state.seats}
        snapshot["common"] = list(state.common)
    return snapshot


def _redacted(event: Event) -> dict[str, Any]:
    data = dict(event.data)
    if event.type == "GameStarted":
        data["deck"] = len(data["deck"])
        data["piles"] = {seat: len(pile) for seat, pile in data["piles"].items()}
        data["common"] = len(data["common"])
    elif event.type == "TableCreated":  # the shell's first event holds the options as given
        options = dict(data.get("options", {}))
        if "deck" in options:  # fail closed: a count for a sequence, nothing otherwise
            given = options.pop("deck")
            if isinstance(given, list | tuple):
                options["deck"] = len(given)
        options.pop("seed", None)
        data["options"] = options
    return data


def event_view(event: Event, viewer: Actor) -> Event:
    """The event as `viewer` may see it: the shuffle, the seed and the piles become counts
    for players and spectators (stateless, so a catch-up equals the live pushes)."""
    if sees_everything(viewer):
        return event
    return Event(event.type, _redacted(event))
