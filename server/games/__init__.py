"""The games: one package per game, each following `server.games.base.Game`.

`games()` is the one registry: the shell (hub, audit, tools) and the contract test suite
(tests/contract/test_game_contract.py) ask it which games exist. A game is found by its
folder, never listed: every package `server/games/<name>/` whose `__init__` sets `NAME` is a
game, and `NAME` must be the folder's name (docs/architecture.md, "How to add a game"). A
package without `NAME` is shared code of the games, not a game.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from server.games.base import Game


class MisnamedGame(Exception):
    """A game package whose `NAME` is not its folder's name, or that lacks part of the
    contract: a developer's mistake, refused when the registry is first asked for."""


def game_folders() -> list[str]:
    """The names of the packages under server/games/ (games and shared code alike), sorted;
    nothing is imported."""
    return sorted(module.name for module in pkgutil.iter_modules(__path__) if module.ispkg)


def _required() -> frozenset[str]:
    """Every name `Game` declares: its constants and its functions."""
    from server.games.base import Game

    declared = set(getattr(Game, "__annotations__", {}))
    declared |= {name for name, value in vars(Game).items() if callable(value)}
    return frozenset(name for name in declared if not name.startswith("_"))


def games() -> dict[str, Game]:
    """Every game this server runs, by the name recorded in a stream's `TableCreated` (a new
    dict each call: a caller may add to it, as tests add the toy game).

    Why a function: importing the package must stay cheap and free of cycles (the game
    modules import `server.games.base`); callers ask for the registry when they need it, and
    the folders are read once per process.
    """
    return dict(_found())


@cache
def _found() -> dict[str, Game]:
    found: dict[str, Game] = {}
    required = _required()
    for folder in game_folders():
        module = importlib.import_module(f"{__name__}.{folder}")
        name = getattr(module, "NAME", None)
        if name is None:
            continue  # shared code of the games, not a game
        if name != folder:
            raise MisnamedGame(f"server/games/{folder}/ names its game {name!r}")
        missing = sorted(required - set(dir(module)))
        if missing:
            raise MisnamedGame(f"server/games/{folder}/ lacks {', '.join(missing)}")
        found[name] = cast("Game", module)
    return found
