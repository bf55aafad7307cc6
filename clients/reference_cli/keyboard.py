"""Keys in, effects out: what the interactive views share about typing.

What it keeps: how raw terminal input is cut into keys (`split_keys`: an escape sequence such
as an arrow key is one key, so it is never typed into an answer), the few keys with a
meaning (Enter, Backspace, Esc, Ctrl-D), a one-line editor (`edit_line`), and the effects an
input handler asks the shell to carry out (`Send` a command, `Quit`, show a `Notice`).

Input handlers are pure: `(state, key, view) -> (state, effects)`. The shell owns the
socket and the screen, so every handler is tested with plain strings. A handler and its
state travel as `Controls`, here and not in the shell (table_app.py) so that the games'
parts, which the shell imports, build theirs without importing the shell.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

ENTER = frozenset({"\r", "\n"})
BACKSPACE = frozenset({"\x7f", "\x08"})
ESC = "\x1b"
CTRL_D = "\x04"
CTRL_U = "\x15"
_SEQUENCE = re.compile(r"\x1b(?:\[[0-9;?]*[ -/]*[@-~]|O.|.)?", re.DOTALL)
MAX_LINE = 200  # the server refuses longer answers (R-PUZ texts are at most 200 characters)


def split_keys(text: str) -> list[str]:
    """Cut terminal input into keys: single characters, and whole escape sequences."""
    keys: list[str] = []
    index = 0
    while index < len(text):
        if text[index] == ESC:
            match = _SEQUENCE.match(text, index)
            assert match is not None  # the pattern always matches a lone ESC
            keys.append(match.group(0))
            index = match.end()
        else:
            keys.append(text[index])
            index += 1
    return keys


def printable(key: str) -> bool:
    """A key that types a character (not Enter, not a control key, not an escape sequence)."""
    return len(key) == 1 and key.isprintable()


def edit_line(buffer: str, key: str) -> str | None:
    """The buffer after an editing key, or None when `key` does not edit (Enter, Esc...)."""
    if key in BACKSPACE:
        return buffer[:-1]
    if key == CTRL_U:
        return ""
    if printable(key):
        return buffer + key if len(buffer) < MAX_LINE else buffer
    return None


@dataclass(frozen=True)
class Send:
    """Send game command `name` with `args`; `tag` names it when the reply comes back."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)
    tag: str = ""


@dataclass(frozen=True)
class Ask:
    """Ask the table query `name` with `args` (answered, never recorded: `preview_ruling`)."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)
    tag: str = ""


@dataclass(frozen=True)
class Quit:
    """Leave the view (exit code 0)."""


@dataclass(frozen=True)
class Notice:
    """Show a line to the user; `error` lines are shown in red."""

    text: str
    error: bool = False


Effect = Send | Ask | Quit | Notice


@dataclass
class Controls:
    """An input handler: its state and its three pure functions (see `play_input`). `game`:
    the game it was made for (its part's name), "" for the game-free watch handler."""

    state: Any
    press: Callable[..., tuple[Any, list]]
    replied: Callable[..., tuple[Any, list]]
    reconcile: Callable[[Any, Mapping[str, Any] | None, str | None], Any]
    quit_on_eof: bool = True
    lost_notice: Callable[[Any, Any, Mapping[str, Any]], str] | None = None
    game: str = ""
    # Picking an event of the feed (a protest names the events it disputes, R-ROUND-8):
    # whether the state picks now, the seq it has picked (None: none), and the state with
    # another seq picked. The shell moves the pick with ↑ and ↓ over the feed it holds.
    picking: Callable[[Any], bool] = lambda state: False
    picked: Callable[[Any], int | None] = lambda state: None
    pick: Callable[[Any, int | None], Any] = lambda state, seq: state
