"""What each viewer may see of a practice table: everything but the seed.

Rules this file keeps (the package's HIDDEN): players and spectators never see the seed (with
the pool it would tell which cards come next), neither in `TableCreated.options` nor
anywhere else; the cards dealt, the ratings, the misses and their solutions are face up. The
proctor, the director, auditors and the server see everything.

The view carries, per student, the card in play, the last card played (with its solutions
when it was missed: the analysis of a miss, shown at once) and the whole history (the rating
after each card, for the history plot), so a client draws a practice with no rules.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from server.games.base import NO_SECRETS, Actor, Event, Secrets
from server.games.kit import sees_everything
from server.games.practice.state import SOLVED, Attempt, PracticeState
from server.ratings import Rating

SECRET_KEYS = frozenset({"seed"})


def secrets(state: PracticeState, viewer: Actor) -> Secrets:
    """Players and spectators may not learn the seed (its key, and its value when it is not a
    small number a card or a count could show anyway)."""
    if sees_everything(viewer):
        return NO_SECRETS
    seed = state.options.seed
    values: frozenset[Hashable] = frozenset({seed}) if seed > 10_000 else frozenset()
    return Secrets(SECRET_KEYS, values)


def _rating(rating: Rating | None) -> dict[str, Any] | None:
    if rating is None:
        return None
    return {"mu": rating.mu, "sigma": rating.sigma, "provisional": rating.provisional}


def _attempt(attempt: Attempt) -> dict[str, Any]:
    return {
        "number": attempt.number,
        "card_id": attempt.card_id,
        "numbers": list(attempt.numbers),
        "score": attempt.score,
        "card_rating": _rating(attempt.card_rating),
        "rating": _rating(attempt.rating),
        "dealt_at": attempt.dealt_at,
        "touched_at": attempt.touched_at,
        "result": attempt.result,
        "solved": attempt.result == SOLVED,
        "after_us": None if attempt.ended_at is None else attempt.ended_at - attempt.dealt_at,
        "message": attempt.message,
        "solutions": [dict(solution) for solution in attempt.solutions],
        "rating_after": _rating(attempt.rating_after),
        "card_rating_after": _rating(attempt.card_rating_after),
    }


def view(state: PracticeState, viewer: Actor) -> dict[str, Any]:
    """The table as `viewer` may see it, as plain msgpack-able data."""
    seats = []
    for seat in state.seats:
        finished = [a for a in seat.attempts if a.result is not None]
        seats.append(
            {
                "seat": seat.seat,
                "name": seat.name,
                "rating": _rating(seat.rating),
                "played": len(finished),
                "solved": sum(1 for a in finished if a.result == SOLVED),
                "done": state.done(seat),
                "card": None if seat.current is None else _attempt(seat.current),
                "last": _attempt(finished[-1]) if finished else None,
                "history": [_attempt(a) for a in finished],
            }
        )
    shown: dict[str, Any] = {
        "game": "practice",
        # the table's language, named only when not English (docs/protocol.md, "Words")
        **({"lang": state.options.lang} if state.options.lang != "en" else {}),
        "phase": state.phase,
        "paused": state.paused,
        "pause_cause": state.pause_cause,
        "end_reason": state.end_reason,
        "options": state.options.public_data(),
        "seats": seats,
    }
    if sees_everything(viewer):
        shown["seed"] = state.options.seed
    if viewer.role == "player":
        shown["you"] = viewer.id
    return shown


def view_group(viewer: Actor) -> Hashable:
    """Players see the same view but for `you`, which never changes for each of them."""
    return "full" if sees_everything(viewer) else "player-or-spectator"


def redaction_group(viewer: Actor) -> Hashable:
    """Everybody but the officials gets the same events (the seed dropped)."""
    return "full" if sees_everything(viewer) else "redacted"


def event_view(event: Event, viewer: Actor) -> Event:
    """The event as `viewer` may see it: `TableCreated` loses its seed for players and
    spectators (stateless, so a catch-up equals the live pushes)."""
    if sees_everything(viewer) or event.type != "TableCreated":
        return event
    options = dict(event.data.get("options", {}))
    options.pop("seed", None)
    return Event(event.type, {**event.data, "options": options})
