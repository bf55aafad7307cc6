"""Who is at a table right now: the seats with a connection, the proctor, the watchers.

Why it is not an event: presence is a fact about connections, not about the game. Writing
it to the table's log would make a replay depend on the network (a dropped Wi-Fi is no
move), so the table actor computes it from its subscribers and pushes it, never records it
(docs/protocol.md, `presence`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from server.games.base import Actor, Command, Game

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


def connected_seats(viewers: Iterable[Actor]) -> frozenset[str]:
    """The seats with a connection among these viewers (`presence_command`'s question)."""
    return frozenset(viewer.id for viewer in viewers if viewer.role == "player")


def presence_command(game: Game, state: Any, seats: frozenset[str]) -> Command | None:
    """The command the game asks the server to send now that these seats are connected (its
    optional `presence_command(state, connected_seats)`), or None.

    Why the game decides: what connections mean for play is a rule (a 24 Challenge table
    that waits for its students begins when every seat is there, docs/rules.md decision
    30); the shell only knows who is joined, and the command it submits is judged by
    `decide` like any other, so the moment play began is recorded with the seats connected
    then, and nothing else about connections is.
    """
    ask = getattr(game, "presence_command", None)
    if ask is None or state is None:
        return None
    command: Command | None = ask(state, seats)
    return command
