"""The games: one package per game, each following `server.games.base.Game`.

`games()` is the one registry: the shell (hub, audit, tools) and the contract test suite
(tests/contract/test_game_contract.py) ask it which games exist. Adding a game is one line
here (docs/architecture.md, "How to add a game").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from server.games.base import Game


def games() -> dict[str, Game]:
    """Every game this server runs, by the name recorded in a stream's `TableCreated`.

    Why a function: importing the package must stay cheap and free of cycles (the game
    modules import `server.games.base`); callers ask for the registry when they need it.
    """
    from server.games import challenge, deck40, pocket, practice, tjugoett

    registered: list[Game] = [challenge, pocket, deck40, tjugoett, practice]
    return {game.NAME: game for game in registered}
