"""What each viewer may see of one recorded event: the single gate every push goes through.

What it keeps: the rule that an event pushed to a viewer is redacted by the game, exactly as
the snapshot is filtered by the game's `view` (field notes: secrets leak through event pushes
and logs when only the snapshot is filtered). A game module defines (see
`server.games.base.Game`)

    event_view(event: Event, viewer: Actor) -> Event

which is stateless on purpose: a catch-up push of an old event is redacted exactly as the
live one was, whatever happened since. The stream's first event, `TableCreated {game,
options}`, is written by the shell, but its options may hold secrets (the 24 Challenge deck
order), so it goes through the same `event_view`.

A game without `event_view` fails closed: only the roles that see everything
(`FULL_VIEW_ROLES`) get the data; everyone else gets `{"at": ...}` only.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from server.games.base import Actor, Event, Game

FULL_VIEW_ROLES = ("director", "proctor", "auditor")

EventView = Callable[[Event, Actor], Event]


def fail_closed(event: Event, viewer: Actor) -> Event:
    """The redaction of a game that declares none: full data to full-view roles only."""
    if viewer.role in FULL_VIEW_ROLES:
        return event
    at = event.data.get("at")
    return Event(event.type, {"at": at} if isinstance(at, int) else {})


def redactor_for(game: Game) -> EventView:
    """The game's own `event_view`, or the fail-closed default."""
    event_view = getattr(game, "event_view", None)
    return event_view if callable(event_view) else fail_closed


def redacted_data(event_view: EventView, event: Event, viewer: Actor) -> dict[str, Any]:
    """The data of `event` to push to `viewer`, as a plain dict."""
    return dict(event_view(event, viewer).data)


def redaction_grouping(game: Game) -> Callable[[Actor], Hashable]:
    """The game's optional `redaction_group(viewer)`: viewers of one group are given the same
    data for every event (server.games.base; the contract suite checks the promise), so the
    older events' pushes are cached once per group (server/runtime/pushes.py, `PushChunks`).
    Without it each viewer is its own group (the safe default)."""
    group = getattr(game, "redaction_group", None)
    return group if callable(group) else _each_viewer


def _each_viewer(viewer: Actor) -> Hashable:
    return viewer  # an Actor is a frozen dataclass: hashable
