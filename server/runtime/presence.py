"""Who is at a table right now: the seats with a connection, the proctor, the watchers.

Why it is not an event: presence is a fact about connections, not about the game. Writing
it to the table's log would make a replay depend on the network (a dropped Wi-Fi is no
move), so the table actor computes it from its subscribers and pushes it, never records it
(docs/protocol.md, `presence`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from server.games.base import Actor

RUNNERS = ("proctor", "director")  # the roles that can run a table
WATCHERS = ("spectator", "auditor")


def presence_of(
    table: str, viewers: Iterable[Actor], lag: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The `presence` message for a table whose subscribers are these viewers.

    A seat is present when at least one connection of its player is joined (a student with
    two terminals is one seat); spectators are counted, never named. `lag`: each seat's
    connection lag (server/net/lag.py), shown to whoever asked for presence (the proctor).
    """
    seats: set[str] = set()
    proctor = False
    watchers = 0
    for viewer in viewers:
        if viewer.role == "player":
            seats.add(viewer.id)
        elif viewer.role in RUNNERS:
            proctor = True
        elif viewer.role in WATCHERS:
            watchers += 1
    message = {
        "type": "presence",
        "table": table,
        "seats": sorted(seats),
        "proctor": proctor,
        "watchers": watchers,
    }
    if lag:
        message["lag"] = {seat: lag[seat] for seat in sorted(lag) if seat in seats}
    return message
