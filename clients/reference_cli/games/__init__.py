"""Per-game parts of the reference client, chosen by the snapshot's `game`.

What it keeps: the `GamePart` a game plugs into the generic client (connection, feed,
seq/resume, replay stepping, countdowns, bot runner): how its view is drawn, how its events
read, its keys and its bot's brain. The client draws a table from the snapshot and the
`view` pushes (protocol/views.py) and counts down from the pushed deadlines, so a part holds
no rules: only pictures and words for what the server says. A game without a part here is
still shown: the generic part prints its view as plain lines and its events by name.

Adding a game's part: a package `games/<name>/` whose `__init__` builds `PART`, and one line
in `part_for` (docs/cli.md, "Per-game parts").
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from clients.reference_cli.styling import Style

View = Mapping[str, Any]


def _no_words(view: View) -> list[str]:
    return []


def _seat_id(view: View, seat_id: Any) -> str:
    return str(seat_id)


def _plain_lines(view: View, style: Style, role: str = "") -> list[str]:
    """The view as `key: value` lines (values as compact JSON), for a game with no part."""
    return [f"{key}: {json.dumps(value, default=str)}" for key, value in view.items()]


def _compact_line(view: View, style: Style) -> list[str]:
    return ["    " + style.dim(json.dumps(dict(view), default=str)[:200])]


def _event_words(kind: str, data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    fields = ", ".join(f"{key}={value}" for key, value in data.items() if key != "at")
    return f"{kind} {fields}".rstrip()


@dataclass(frozen=True)
class GamePart:
    """What one game adds to the generic client (every field has a generic default)."""

    name: str
    header_words: Callable[[View], list[str]] = _no_words  # e.g. ["round 1", "networked"]
    seat_label: Callable[[View, Any], str] = _seat_id  # "Ada (s1)"
    seat_names: Callable[[View], dict[str, str]] = lambda view: {}
    # The table's main picture: (view, style, the viewer's role) -> lines.
    board: Callable[[View, Style, str], list[str]] = _plain_lines
    # Beside it (e.g. the seats and scores): (view, my seat, style, presence push or None).
    side: Callable[[View, Any, Style, Any], list[str]] = lambda view, me, style, presence: []
    # A finished game's results (printed when a view leaves): (view, style) -> lines.
    results: Callable[[View, Style], list[str]] = lambda view, style: []
    compact: Callable[[View, Style], list[str]] = _compact_line  # `t24 replay` lines
    deadline_words: Mapping[str, str] = field(default_factory=dict)  # command -> words
    describe_event: Callable[[str, Mapping[str, Any], Mapping[str, str]], str] = _event_words
    event_kind: Callable[[str, Mapping[str, Any]], str] = lambda kind, data: "info"
    # The feed's time stamp: a small fold over every event push (history too), e.g. the
    # time since the card in play was revealed. (feed state, type, data) -> (state, µs|None)
    stamp: Callable[[Any, str, Mapping[str, Any]], tuple[Any, int | None]] = (
        lambda state, kind, data: (state, None)
    )
    # The feed state for a join without history, from the snapshot's view.
    stamp_start: Callable[[View], Any] = lambda view: None
    # The input handler for `play` / `proctor` (a table_app.Controls), None: watch only.
    controls: Callable[[str], Any] = lambda kind: None
    # Whether the view shows a finished game (the bot leaves, `play` scripts end).
    finished: Callable[[View], bool] = lambda view: False
    # The bot's brain: (view, me, deadlines, server now µs, skill, rng, time scale) ->
    # (situation key, actions with `delay`, `name`, `args`, `why`); None: no bot for it.
    bot: Callable[..., tuple[Any, list[Any]]] | None = None
    # Why a bot cannot play this table (e.g. a proctored one), or None.
    bot_refusal: Callable[[View], str | None] = lambda view: None


GENERIC = GamePart("generic")


def part_for(game: str) -> GamePart:
    """The part that draws `game`; the generic part for a game this client does not know."""
    if game == "challenge":
        from clients.reference_cli.games.challenge import PART

        return PART
    if game == "tjugoett":
        from clients.reference_cli.games.tjugoett import PART as TJUGOETT

        return TJUGOETT
    return GENERIC
