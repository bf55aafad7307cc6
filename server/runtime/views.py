"""What each viewer group needs to draw the table after an append, for any game.

What it keeps: the rule that a client draws any game from the snapshot and the pushes with no
game rules of its own (issue 12; boardgame.io's `playerView`). The last event push of each
append carries, for its viewer group (`TableActor` groups subscribers by viewer), the view
after the append: a patch of the view the group holds, or the whole view when that is
smaller (`protocol.views.view_change`), and the live deadlines as absolute server times, so
a countdown needs no rule knowledge (docs/protocol.md, `event`).

Why here and not in the game: the game only answers `view(state, viewer)` and
`deadlines(state)`; diffing, sharing and the wire shape are the shell's, the same for every
game. Deadlines go to every viewer: the game contract keeps secrets out of a deadline's key
and command (server.games.base.Deadline).

Viewer groups: by default each distinct viewer is a group. A game may declare
`view_group(viewer) -> Hashable` (server.games.base): viewers of one group get the same
pushed change, because their views differ only in keys that never change during a table
(the 24 Challenge's `you`). The shell then computes one view and one diff per group and
append, not per viewer; the snapshot is still each viewer's own `view`.

Cost (docs/performance.md, "View pushes"): one `view` call and one shallow diff per group and
append (values shared between the groups' views are compared once), and groups with the same
change share one body, so the players of a table share one encoded push.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any

from protocol.views import deadline_data, view_change
from server.games.base import Actor, Game


def live_deadlines(game: Game, state: Any) -> list[dict[str, Any]]:
    """The live deadlines as pushed to clients: key, command name, `at` (microseconds)."""
    if state is None:
        return []
    return [
        deadline_data(deadline.key, deadline.command.name, deadline.at)
        for deadline in game.deadlines(state)
    ]


def view_grouping(game: Game) -> Callable[[Actor], Hashable]:
    """The game's `view_group`, or each viewer its own group (the safe default)."""
    group = getattr(game, "view_group", None)
    return group if callable(group) else _each_viewer


def _each_viewer(viewer: Actor) -> Hashable:
    return viewer  # an Actor is a frozen dataclass: hashable


def view_bodies(
    game: Game,
    state: Any,
    held: dict[Hashable, tuple[Any, dict[str, Any]]],
    audience: Iterable[tuple[Any, list[Any]]],
    group_of: Callable[[Any], Hashable],
) -> list[dict[str, Any]]:
    """For each viewer of `audience`, in order, the fields its last event push of an append
    carries: `view` or `patch`, and `deadlines`. Equal bodies are the same object.

    `held` maps each view group to (the viewer whose view it is, the view the group's
    subscribers hold); the new view is that same viewer's, so a key that differs within the
    group (a player's `you`) never enters the change. It is updated to the new views.
    """
    deadlines = live_deadlines(game, state)
    compared: dict[tuple[int, int], bool] = {}
    keep_alive = []  # the replaced views stay alive during the loop: `compared` uses ids
    by_group: dict[Hashable, dict[str, Any]] = {}
    distinct: list[tuple[dict[str, Any], dict[str, Any]]] = []  # (change, its body)
    bodies: list[dict[str, Any]] = []
    for viewer, _subscribers in audience:
        key = group_of(viewer)
        shared = by_group.get(key)
        if shared is None:
            shown_to, old = held.get(key, (viewer, None))
            view = game.view(state, shown_to)
            keep_alive.append(old)
            change = view_change(old, view, compared)
            held[key] = (shown_to, view)
            shared = next((body for known, body in distinct if known == change), None)
            if shared is None:
                shared = {**change, "deadlines": deadlines}
                distinct.append((change, shared))
            by_group[key] = shared
        bodies.append(shared)
    return bodies


def same_view(push: Any, body: dict[str, Any]) -> bool:
    """Whether an event push already built carries exactly this view body."""
    message = push.message
    for key in ("patch", "view"):
        if (key in body) != (key in message) or body.get(key) != message.get(key):
            return False
    return True
