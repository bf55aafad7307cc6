"""The games: one Decider module per game, each following `server.games.base.Game`."""

from __future__ import annotations

from typing import Any


def games() -> dict[str, Any]:
    """Every game this server runs, by the name recorded in a stream's `TableCreated`.

    Why a function: importing the package must stay cheap and free of cycles (the game
    modules import `server.games.base`); callers ask for the registry when they need it.
    """
    from server.games import challenge, tjugoett

    return {game.NAME: game for game in (challenge, tjugoett)}
