"""What each viewer may see of a 24 Challenge table: the one place that decides it.

Rules this file keeps (R-PLAY-1 and the proctor guidelines: "keep deck out of sight"):
- Players and spectators never see the deck order, the cards removed under R-DECK-4, the
  unplayed cards, nor a placed card's id, numbers (a Variables side's wheels) or dots before
  the card is revealed.
- The proctor, the director, auditors and the server see everything.
- The same redaction applies to every event pushed to a viewer (`event_view`), not only to
  the snapshot (`view`): secrets leak through logs when only snapshots are redacted.

Card ids are opaque (they say nothing of the numbers without the deck), but a card placed and
returned before its reveal keeps its id hidden too, so players cannot recognise it later.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from server.games.base import NO_SECRETS, Actor, Event, Secrets, hidden_card_values
from server.games.challenge.evolvers import deadlines
from server.games.challenge.state import ChallengeState, Protest, SeatState
from server.games.kit import sees_everything


def secrets(state: ChallengeState, viewer: Actor) -> Secrets:
    """What players and spectators may not learn (server.games.base.Secrets): every card of
    the deck never revealed at this table (the deck to come and its order, the cards removed
    under R-DECK-4, a card placed face down, the unplayed cards), by id and by numbers.
    No key: a hidden list is pushed as its length under its own key (`deck`, `removed`)."""
    if sees_everything(viewer):
        return NO_SECRETS
    revealed = set(state.revealed_cards)
    hidden = [card for card in state.options.deck if card.card_id not in revealed]
    shown = [card.numbers for card in state.options.deck if card.card_id in revealed]
    return Secrets(
        values=frozenset(
            hidden_card_values(((card.card_id, card.numbers) for card in hidden), shown)
        )
    )


def view_group(viewer: Actor) -> str:
    """Viewers that see the table alike (server.games.base, optional `view_group`): the
    full-view roles, and everyone else, whose views differ only in a player's own `you`,
    which never changes."""
    return "full" if sees_everything(viewer) else "public"


def redaction_group(viewer: Actor) -> str:
    """Viewers given the same data for every event (server.games.base, optional
    `redaction_group`): `event_view` redacts for everyone but the full-view roles alike."""
    return "full" if sees_everything(viewer) else "public"


def _card_view(state: ChallengeState, full: bool) -> dict[str, Any] | None:
    card = state.card
    if card is None:
        return None
    shown = full or card.revealed_at is not None
    seen: dict[str, Any] = {
        "play": card.play,
        "card_id": card.card.card_id if shown else None,
        "numbers": list(card.card.numbers) if shown else None,
        "dots": card.card.dots if shown else None,
        "placed_at": card.placed_at,
        "revealed_at": card.revealed_at,
    }
    if card.card.wheels is not None:  # a Variables side (Q1): its two wheels, hidden alike
        seen["wheels"] = [list(wheel) for wheel in card.card.wheels] if shown else None
    return seen


def _protest_view(protest: Protest) -> dict[str, Any]:
    """A protest as everyone at the table sees it (R-ROUND-8: protests are heard openly)."""
    return {
        "protest": protest.protest,
        "by": protest.by,
        "seqs": list(protest.seqs),
        "reason": protest.reason,
        "at": protest.at,
        "status": protest.status,
        "ruling_text": protest.ruling_text,
        "ruled_at": protest.ruled_at,
    }


# The last state's view for each kind of viewer (full or not): after each append the shell
# asks for the view of every subscribed viewer, and players and spectators see the same table
# (only `you` differs). States are immutable, so this memo by identity keeps `view` pure; the
# views returned share their inner lists, which nobody mutates (a view is read-only data).
_last_views: dict[bool, tuple[ChallengeState, dict[str, Any]]] = {}


def view(state: ChallengeState, viewer: Actor) -> dict[str, Any]:
    """The table as `viewer` may see it, as plain msgpack-able data (read-only).

    Why one function for every role: the rules of who sees what live in one place, and a
    spectator is simply a viewer without a seat.
    """
    full = sees_everything(viewer)
    memo = _last_views.get(full)
    if memo is not None and memo[0] is state:
        common = memo[1]
    else:
        common = _common_view(state, full)
        _last_views[full] = (state, common)
    snapshot = dict(common)
    if viewer.role == "player":
        snapshot["you"] = viewer.id
    return snapshot


# The parts of a view built from one record of the state, by that record's identity (held
# here, so an id is never reused while its entry lives): most events change neither the
# seats nor the protests nor the attendance, and a part built once is then the same object
# in every later view, which the shell's view change skips without comparing it
# (protocol.views.view_change). Cleared whole when full: a bound, not a policy.
_parts: dict[tuple[str, int], tuple[object, Any]] = {}
MAX_PARTS = 4096


def _part(name: str, source: Any, build: Callable[[Any], Any]) -> Any:
    key = (name, id(source))
    memo = _parts.get(key)
    if memo is not None and memo[0] is source:
        return memo[1]
    if len(_parts) >= MAX_PARTS:
        _parts.clear()
    value = build(source)
    _parts[key] = (source, value)
    return value


def _attendance_view(attendance: Mapping[str, str]) -> dict[str, str]:
    return dict(attendance)


def _seats_view(seats: tuple[SeatState, ...]) -> list[dict[str, Any]]:
    return [
        {
            "seat": seat.seat,
            "name": seat.name,
            "score": seat.score,
            "flags": seat.flags,
            "disqualified": seat.disqualified,
            "disqualified_cause": seat.disqualified_cause,
            "reinstated_from": seat.reinstated_from,
            "cards_won": list(seat.cards_won),
        }
        for seat in seats
    ]


def _protests_view(protests: tuple[Protest, ...]) -> list[dict[str, Any]]:
    return [_protest_view(protest) for protest in protests]


def _common_view(state: ChallengeState, full: bool) -> dict[str, Any]:
    """The view every viewer of this kind (full or not) shares."""
    card = state.card
    options = state.options
    snapshot: dict[str, Any] = {
        "game": "challenge",
        # the table's language, named only when not English (docs/protocol.md, "Words")
        **({"lang": state.options.lang} if state.options.lang != "en" else {}),
        "round": options.round,
        "mode": options.mode,
        "phase": state.phase,
        "paused": state.paused,
        "pause_cause": state.pause_cause,
        "waiting": state.waiting,  # the students are awaited (challenge/arrival.py)
        "attendance": _part("attendance", state.attendance, _attendance_view),
        "end_reason": state.end_reason,
        "flag_limit": options.flag_limit,
        "seats": _part("seats", state.seats, _seats_view),
        "scores": _part("scores", state.seats, lambda _seats: state.scores()),
        "card": _card_view(state, full),
        "toucher": card.toucher if card else None,
        "touched_at": card.touched_at if card else None,
        "touches": list(card.touches) if card else [],
        "pattern": card.pattern if card else None,
        "steps": list(card.steps) if card else [],
        "stumped_declared": list(card.stumped) if card else [],
        "deadlines": [
            {"key": deadline.key, "command": deadline.command.name, "at": deadline.at}
            for deadline in deadlines(state)
        ],
        "cards_left": len(state.deck),
        "cards_total": state.round_cards,  # the round's cards (after R-DECK-4)
        "stumped": list(state.stumped),
        "clock": state.clock,
        "seq": state.seq,
        "protests": _part("protests", state.protests, _protests_view),
        "score_card": {
            "signed": state.signed,
            "initials": state.signed_by,
            "at": state.signed_at,
            "by": state.signer_role,  # "proctor", or "director" (R-ROUND-7)
        },
    }
    if full:
        snapshot["deck"] = list(state.deck)
        snapshot["removed"] = list(state.removed)
    return snapshot


def _redacted(event: Event) -> dict[str, Any]:
    data = dict(event.data)
    if event.type == "RoundStarted":
        data["deck"] = len(data["deck"])
        data["removed"] = len(data["removed"])
    elif event.type == "CardPlaced":
        for secret in ("card_id", "numbers", "wheels", "dots"):
            data.pop(secret, None)
    elif event.type in ("CardReturnedToDeck", "FlagIssued") and not data.get("revealed", True):
        data.pop("card_id", None)
    elif event.type == "RoundEnded":
        data["unplayed"] = len(data["unplayed"])
    elif event.type == "TableCreated":  # the shell's first event holds the deck in order
        options = dict(data.get("options", {}))
        if "deck" in options:
            options["deck"] = len(options["deck"])
        data["options"] = options
    return data


def event_view(event: Event, viewer: Actor) -> Event:
    """The event as `viewer` may see it: hidden cards and the deck order are redacted for
    players and spectators (lists of hidden card ids become their length)."""
    if sees_everything(viewer):
        return event
    return Event(event.type, _redacted(event))
