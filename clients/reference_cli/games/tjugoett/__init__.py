"""The reference CLI's Tjugoett parts: a bot's policy (`bot.py`), the screen drawn from the
server's view and the feed's words (`screen.py`), and `t24 tjugoett` (`app.py`).

They know the game only through what the server sends: the view (`your_commands`, the
seats' visible cards and sums) and the pushed events (docs/games/tjugoett.md).

The part for the generic views (`t24 play`, `watch`, `bot`; games.part_for) is built here
from the same pieces: the screen, the feed's words, one key per open command (the view's
`your_commands`), the bot's policy.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clients.reference_cli.games import _event_words, line_part
from clients.reference_cli.games.tjugoett import screen
from clients.reference_cli.games.tjugoett.bot import TjugoettBot


def parse_key(text: str, view: Mapping[str, Any] | None) -> tuple[str, dict[str, Any]] | None:
    """The open command (the view's `your_commands`) whose key is `text`, or None."""
    for name in (view or {}).get("your_commands", []):
        if name in screen.KEYS and screen.KEYS[name][0] == text.strip():
            return name, {}
    return None


def next_move(view: Mapping[str, Any], me: str) -> tuple[str, dict[str, Any]] | None:
    move = TjugoettBot(me).on_view(view)
    return None if move is None else (move, {})


def describe(kind: str, data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    return screen.event_line(kind, data, names) or _event_words(kind, data, names)


PART = line_part(
    "tjugoett",
    render_lines=lambda view: screen.screen_lines(view, ""),
    parse_line=parse_key,
    help_text=" · ".join(f"{key} {words}" for key, words in screen.KEYS.values()),
    next_move=next_move,
    finished=lambda view: view.get("phase") == "table_over",
    describe_event=describe,
    seat_names=screen.names,
)
