"""The keys of a Tjugoett table in `t24 play` and `t24 proctor`: one key, one command.

`d` draws (the player's `draw_card`, or the person dealer's `dealer_draw`), `s` stands
(`stand` / `dealer_stand`), `n` starts the next round, `e` ends the table (the proctor or
director), `q` leaves. A key sends only a command the view's `your_commands` offers now, so
the client needs no rule: the server says which moves are open. The handler is pure, like
every input handler of the client (`keyboard.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from clients.reference_cli.games.tjugoett.words import WORDS
from clients.reference_cli.keyboard import CTRL_D, Effect, Notice, Quit, Send
from clients.reference_cli.words import say

# key -> the commands it may send, in the order they are tried.
KEYS: dict[str, tuple[str, ...]] = {
    "d": ("draw_card", "dealer_draw"),
    "s": ("stand", "dealer_stand"),
    "n": ("start_round",),
    "e": ("end_table",),
}


def open_keys(view: Mapping[str, Any] | None) -> list[tuple[str, str]]:
    """(key, command) for every command the view offers now."""
    offered = view.get("your_commands", []) if view is not None else []
    return [(key, name) for key, names in KEYS.items() for name in names if name in offered]


@dataclass(frozen=True)
class TjugoettInput:
    """Nothing is typed ahead at this table: each key is a whole command."""

    def prompt(self) -> str:
        return ""

    def keys_help(self, view: Mapping[str, Any] | None) -> str:
        """`[d] draw a card  [s] stand  [q] quit` for what is open now."""
        offered = [f"[{key}] {say(WORDS, f'key.{name}')}" for key, name in open_keys(view)]
        if view is not None and view.get("phase") == "table_over":
            offered = [say(WORDS, "key.table_over")]
        elif not offered:
            offered = [say(WORDS, "key.waiting")]
        return "  ".join([*offered, f"[q] {say(WORDS, 'key.quit')}"])


def press(
    state: TjugoettInput, key: str, view: Mapping[str, Any] | None
) -> tuple[TjugoettInput, list[Effect]]:
    """One key: the command it stands for when the view offers it, else a hint."""
    if key in ("q", CTRL_D):
        return state, [Quit()]
    for offered_key, name in open_keys(view):
        if offered_key == key:
            return state, [Send(name, {}, name)]
    if key in KEYS:
        return state, [Notice(say(WORDS, "key.not_now", keys=state.keys_help(view)))]
    return state, []


def replied(
    state: TjugoettInput, tag: str, error: str | None, code: str | None = None
) -> tuple[TjugoettInput, list[Effect]]:
    """A refusal is shown; an accepted move shows itself in the feed."""
    if error is None:
        return state, []
    return state, [
        Notice(say(WORDS, "key.refused", what=say(WORDS, f"key.{tag}"), why=error), True)
    ]


def reconcile(
    state: TjugoettInput, view: Mapping[str, Any] | None, me: str | None
) -> TjugoettInput:
    """Nothing to bring in line: no key is half typed."""
    return state
