"""Tjugoett's part of the reference client (docs/games/tjugoett.md): its pictures, words,
keys and bot, plugged into the generic client (`t24 play`, `proctor`, `watch`, `bot`,
`replay`).

Modules: `screen` (the hands as the viewer may see them, the tally, each event in words),
`keys` (one key per command, offered from the view's `your_commands`), `bot` (the bot's
policy, the server dealer's: draw until a threshold). They know the game only through what
the server sends: a hidden card arrives as null and is drawn as `??`.
"""

from __future__ import annotations

from typing import Any

from clients.reference_cli.games import GamePart
from clients.reference_cli.games.tjugoett import bot, screen
from clients.reference_cli.games.tjugoett.words import WORDS


def controls(kind: str) -> Any:
    """The keys of `t24 play` (a player's or the dealer's seat) and `t24 proctor`."""
    from clients.reference_cli.games.tjugoett import keys
    from clients.reference_cli.keyboard import Controls

    if kind not in ("play", "proctor"):
        return None
    return Controls(keys.TjugoettInput(), keys.press, keys.replied, keys.reconcile, game="tjugoett")


PART = GamePart(
    name="tjugoett",
    header_words=screen.header_words,
    seat_label=screen.seat_label,
    seat_names=screen.seat_names,
    board=screen.board_lines,
    side=screen.side_lines,
    results=screen.results_lines,
    compact=screen.compact,
    deadline_words=screen.DEADLINE_WORDS,
    describe_event=screen.describe_event,
    words=WORDS,
    event_kind=screen.event_kind,
    controls=controls,
    finished=lambda view: view.get("phase") == "table_over",
    bot=bot.bot_moves,
)
