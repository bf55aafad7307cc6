"""View pushes: after each append, what each viewer group needs to draw the table.

What it keeps: the rule that a client draws any game from the snapshot and the pushes with no
game rules of its own (issue 12; boardgame.io's `playerView`). After the event pushes of one
append, every group of subscribers that see the table the same way (`TableActor` groups them
by viewer) gets one `view` message: a patch of the view the group holds, or the whole view
when that is smaller (`protocol.views.view_change`), and the live deadlines as absolute
server times, so a countdown needs no rule knowledge.

Why here and not in the game: the game only answers `view(state, viewer)` and
`deadlines(state)`; diffing, deduplicating and the wire shape are the shell's, the same for
every game. Deadlines go to every viewer: the game contract keeps secrets out of a
deadline's key and command (server.games.base.Deadline).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from typing import Any

from protocol.views import deadline_data, view_change


def live_deadlines(game: Any, state: Any) -> list[dict[str, Any]]:
    """The live deadlines as pushed to clients: key, command name, `at` (microseconds)."""
    if state is None:
        return []
    return [
        deadline_data(deadline.key, deadline.command.name, deadline.at)
        for deadline in game.deadlines(state)
    ]


def view_messages(
    table: str,
    seq: int,
    server_time: int,
    game: Any,
    state: Any,
    held: dict[Any, dict[str, Any]],
    audience: Iterable[tuple[Hashable, list[Any]]],
) -> list[tuple[dict[str, Any], list[Any]]]:
    """The distinct `view` messages of one append, each with the subscribers it goes to.

    `held` maps each viewer to the view its subscribers hold; it is updated to the views
    sent. Equal messages (the players of a table usually get the same patch) are built once,
    so the caller encodes each once.
    """
    deadlines = live_deadlines(game, state)
    distinct: list[tuple[Mapping[str, Any], dict[str, Any], list[Any]]] = []
    for viewer, subscribers in audience:
        view = game.view(state, viewer)
        body = view_change(held.get(viewer), view)
        held[viewer] = view
        for known, _message, receivers in distinct:
            if known == body:
                receivers.extend(subscribers)
                break
        else:
            message = {
                "type": "view",
                "table": table,
                "seq": seq,
                **body,
                "deadlines": deadlines,
                "server_time": server_time,
            }
            distinct.append((body, message, list(subscribers)))
    return [(message, receivers) for _body, message, receivers in distinct]
