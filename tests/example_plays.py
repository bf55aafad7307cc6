"""Where a game's example play is found: the module the contract suites (tests/contract/) and
the sweeps over every game (the CLI's parts, the session fuzz) play a game with.

A game found by its folder brings its example in the same folder: `<game package>.example`
(`server/games/<name>/example.py`; the toy game's `tests/toygame/example.py` is the shortest).
The games written before discovery keep theirs in `tests/contract/game_examples/<name>.py`,
with leak oracles restated apart from the game's code. An example module has:

    options(rng) -> dict                   # example table options; every choice from `rng`
    commands(state, rng) -> list[Command]  # commands worth trying now, most of them valid
    view_leaks(viewer, view, state) -> bool     # optional: the view shows what HIDDEN forbids
    event_leaks(viewer, event, state) -> bool   # optional: the same for one event

Without its own oracles a game is checked against its `secrets(state, viewer)` declaration
(`secret_watch.leaks`), the one tests/contract/test_no_secret_leaks.py holds every message to.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

from server.games.base import Actor, Event

CONTRACT = str(Path(__file__).resolve().parent / "contract")  # game_examples, secret_watch
if CONTRACT not in sys.path:
    sys.path.insert(0, CONTRACT)

from secret_watch import leaks  # noqa: E402


def _module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name is not None and name.startswith(missing.name):
            return None  # the module itself is absent, not something it imports
        raise


def example_of(game: Any) -> ModuleType | None:
    """The example play of `game` (a game module), or None if it has none."""
    return _module(f"{game.__name__}.example") or _module(f"game_examples.{game.NAME}")


def view_oracle(game: Any, example: ModuleType) -> Callable[[Actor, Mapping[str, Any], Any], bool]:
    """The example's `view_leaks`, else the game's `secrets` declaration."""
    own = getattr(example, "view_leaks", None)
    if own is not None:
        return own  # type: ignore[no-any-return]
    return lambda viewer, view, state: any(leaks(dict(view), game.secrets(state, viewer)))


def event_oracle(game: Any, example: ModuleType) -> Callable[[Actor, Event, Any], bool]:
    """The example's `event_leaks`, else the game's `secrets` declaration (of the state
    after the event)."""
    own = getattr(example, "event_leaks", None)
    if own is not None:
        return own  # type: ignore[no-any-return]
    return lambda viewer, event, state: any(leaks(dict(event.data), game.secrets(state, viewer)))
