"""What each viewer may see of a pocket table: the one place that decides it.

Rules this file keeps (R-POCKET-1: the stack is face down):
- Players and spectators never see the stack's cards or order, nor the options that give it
  (`stack`, `seed`): only how many cards are left. The top card, the bonus pile and the won
  cards are face up.
- The proctor, the director, auditors and the server see everything.
- The same redaction applies to every pushed event (`event_view`), not only to the snapshot.
"""

from __future__ import annotations

from typing import Any

from server.games.base import NO_SECRETS, Actor, Event, Secrets, hidden_card_values
from server.games.kit import sees_everything
from server.games.pocket.options import the_stack
from server.games.pocket.state import PocketState, deadlines

SECRET_KEYS = frozenset({"seed"})  # dropped from `TableCreated.options` for them


def secrets(state: PocketState, viewer: Actor) -> Secrets:
    """What players and spectators may not learn (server.games.base.Secrets): the seed, and
    every card of the stack (the whole stack before `start_game`), by id and by numbers."""
    if sees_everything(viewer):
        return NO_SECRETS
    every = the_stack(state.options)
    hidden = state.stack if state.started else every
    hidden_ids = {card.card_id for card in hidden}
    shown = [card.numbers for card in every if card.card_id not in hidden_ids]
    values = hidden_card_values(((card.card_id, card.numbers) for card in hidden), shown)
    return Secrets(SECRET_KEYS, frozenset({*values, state.options.seed}))


def view(state: PocketState, viewer: Actor) -> dict[str, Any]:
    """The table as `viewer` may see it, as plain msgpack-able data."""
    card = state.card
    snapshot: dict[str, Any] = {
        "game": "pocket",
        # the table's language, named only when not English (docs/protocol.md, "Words")
        **({"lang": state.options.lang} if state.options.lang != "en" else {}),
        "phase": state.phase,
        "paused": state.paused,
        "pause_cause": state.pause_cause,
        "options": state.options.public_data(),
        "seats": [
            {
                "seat": seat.seat,
                "name": seat.name,
                "score": seat.score,
                "cards_won": list(seat.cards_won),
            }
            for seat in state.seats
        ],
        "scores": state.scores(),
        "card": None
        if card is None
        else {
            **card.card.as_data(),
            "number": card.number,
            "claimer": card.claimer,
            "claim_at": card.claim_at if card.claimer else None,
            "excluded": list(card.excluded),
            "stumped": list(card.stumped),
        },
        "bonus": [bonus.as_data() for bonus in state.bonus],
        "stack_left": len(state.stack),
        "turned": state.turned,
        "deadlines": [
            {"key": deadline.key, "command": deadline.command.name, "at": deadline.at}
            for deadline in deadlines(state)
        ],
        "result": None if state.result is None else _redacted("GameEnded", state.result),
        "clock": state.clock,
    }
    if viewer.role == "player":
        snapshot["you"] = viewer.id
    if sees_everything(viewer):
        snapshot["stack"] = [entry.as_data() for entry in state.stack]
        if state.result is not None:
            snapshot["result"] = dict(state.result)
    return snapshot


def _redacted(type_: str, data_in: Any) -> dict[str, Any]:
    data = dict(data_in)
    if type_ == "GameStarted":
        data["stack"] = len(data["stack"])
    elif type_ == "GameEnded":
        data["unplayed"] = len(data["unplayed"])
    elif type_ == "TableCreated":  # the shell's first event holds the options as given
        options = dict(data.get("options", {}))
        if "stack" in options:  # fail closed: a count for a sequence, nothing otherwise
            given = options.pop("stack")
            if isinstance(given, list | tuple):
                options["stack"] = len(given)
        options.pop("seed", None)
        data["options"] = options
    return data


def event_view(event: Event, viewer: Actor) -> Event:
    """The event as `viewer` may see it: the stack and its seed become a count for players and
    spectators (stateless, so a catch-up equals the live pushes)."""
    if sees_everything(viewer):
        return event
    return Event(event.type, _redacted(event.type, event.data))
