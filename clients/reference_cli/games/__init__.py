"""Per-game parts of the reference client, chosen by the snapshot's `game`.

What it keeps: the `GamePart` a game plugs into the generic client (connection, feed,
seq/resume, replay stepping, countdowns, bot runner): how its view is drawn, how its events
read, its keys and its bot's brain. The client draws a table from the snapshot and the
`view` pushes (protocol/views.py) and counts down from the pushed deadlines, so a part holds
no rules: only pictures and words for what the server says. A game without a part here is
still shown: the generic part prints its view as plain lines and its events by name.

Adding a game's part: a package `games/<name>/` whose `__init__` builds `PART`; the folder is
found, never listed (docs/cli.md, "Per-game parts").
"""

from __future__ import annotations

import importlib
import json
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from clients.reference_cli.styling import Style
from clients.reference_cli.words import seat_name, view_seat_names

View = Mapping[str, Any]


def _no_words(view: View) -> list[str]:
    return []


def _seat_name(view: View, seat_id: Any) -> str:
    """A seat as people call it, for a game without a part too (never its id)."""
    return seat_name(view, seat_id)


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
    seat_label: Callable[[View, Any], str] = _seat_name  # "Ada", "Ada (2)", "Player 3"
    seat_names: Callable[[View], dict[str, str]] = view_seat_names
    # The table's main picture: (view, style, the viewer's role) -> lines.
    board: Callable[[View, Style, str], list[str]] = _plain_lines
    # Beside it (e.g. the seats and scores): (view, my seat, style, presence push or None).
    side: Callable[[View, Any, Style, Any], list[str]] = lambda view, me, style, presence: []
    # A finished game's results (printed when a view leaves): (view, style) -> lines.
    results: Callable[[View, Style], list[str]] = lambda view, style: []
    compact: Callable[[View, Style], list[str]] = _compact_line  # `t24 replay` lines
    deadline_words: Mapping[str, str] = field(default_factory=dict)  # command -> words
    describe_event: Callable[[str, Mapping[str, Any], Mapping[str, str]], str] = _event_words
    # ALL the game's words, one table (clients/reference_cli/words.py says its keys): the
    # refusals are said from it (`refusal.<code>`), the part's functions take the rest.
    words: Mapping[str, Any] = field(default_factory=dict)
    event_kind: Callable[[str, Mapping[str, Any]], str] = lambda kind, data: "info"
    # The feed's time stamp: a small fold over every event push (history too), e.g. the
    # time since the card in play was revealed. (feed state, type, data) -> (state, µs|None)
    stamp: Callable[[Any, str, Mapping[str, Any]], tuple[Any, int | None]] = (
        lambda state, kind, data: (state, None)
    )
    # The feed state for a join without history, from the snapshot's view.
    stamp_start: Callable[[View], Any] = lambda view: None
    # The input handler for `play` / `proctor` (a keyboard.Controls), None: watch only.
    controls: Callable[[str], Any] = lambda kind: None
    # Whether the view shows a finished game (the bot leaves, `play` scripts end).
    finished: Callable[[View], bool] = lambda view: False
    # The bot's brain: (view, me, deadlines, server now µs, skill, rng, time scale) ->
    # (situation key, actions with `delay`, `name`, `args`, `why`); None: no bot for it.
    bot: Callable[..., tuple[Any, list[Any]]] | None = None
    # `t24 replay`: (every event as (seq, type, data)) -> seq -> a mark for its margin (e.g.
    # protests and the events they dispute); and the lines printed after the replay, given
    # each event's replay line by seq.
    event_marks: Callable[[Sequence[tuple[int, str, Mapping[str, Any]]]], dict[int, str]] = (
        lambda events: {}
    )
    replay_summary: Callable[
        [Sequence[tuple[int, str, Mapping[str, Any]]], Mapping[int, str]], list[str]
    ] = lambda events, lines: []
    # A query's answer (the `query` message) in words: (name, result, seat names) -> text.
    describe_answer: Callable[[str, Mapping[str, Any], Mapping[str, str]], str] = (
        lambda name, result, names: f"{name}: {json.dumps(dict(result), default=str)[:200]}"
    )
    # Why a bot cannot play this table (e.g. a proctored one), or None.
    bot_refusal: Callable[[View], str | None] = lambda view: None


GENERIC = GamePart("generic")


def _part_modules() -> dict[str, str]:
    """Game name -> its part's module: every package in this folder (its name the game's),
    read without importing any (the parts import this module)."""
    return {
        module.name: f"{__name__}.{module.name}"
        for module in sorted(pkgutil.iter_modules(__path__), key=lambda module: module.name)
        if module.ispkg
    }


# The games this client has a part for (the server's registry, `server.games.games()`, names
# the same: a test checks it; this client does not import the server).
PART_MODULES: dict[str, str] = _part_modules()


def part_for(game: str) -> GamePart:
    """The part that draws `game`; the generic part for a game this client does not know."""
    module = PART_MODULES.get(game)
    if module is None:
        return GENERIC
    part: GamePart = importlib.import_module(module).PART
    return part


# -- parts made of a typed line (games whose every command is one line: pocket, deck40) -----

LINE_BOT_REACTION = 0.3  # seconds before a line game's bot moves


@dataclass(frozen=True)
class Move:
    """A bot's planned command: send `name` with `args` after `delay` seconds."""

    delay: float
    name: str
    args: Mapping[str, Any]
    why: str = ""


@dataclass(frozen=True)
class LineInput:
    """The line being typed; Enter sends what the game's `parse_line` makes of it, for the
    view on screen when the line's first key was typed (`view`): an answer typed at one card
    is for that card (refused `stale_set` if someone won it meanwhile), never for the next."""

    line: str = ""
    help: str | Callable[[], str] = ""  # a callable: said in the language spoken now
    view: Any = None

    def prompt(self) -> str:
        return f"> {self.line}"

    def keys_help(self, view: View | None) -> str:
        return self.help() if callable(self.help) else self.help


def line_controls(
    parse_line: Callable[[str, View | None], Any],
    help_text: str | Callable[[], str],
    game: str = "",
) -> Any:
    """An input handler from a game's pure `parse_line(text, view) -> (command, args) |
    None`: `q` on an empty line or Ctrl-D leaves, Enter sends, a refusal is shown in words.
    `game`: the part it was made for (`Controls.game`)."""
    from clients.reference_cli.keyboard import (
        CTRL_D,
        ENTER,
        Controls,
        Notice,
        Quit,
        Send,
        edit_line,
    )

    def press(state: LineInput, key: str, view: View | None) -> tuple[LineInput, list[Any]]:
        if key == CTRL_D or (key == "q" and not state.line):
            return state, [Quit()]
        if key in ENTER:
            parsed = parse_line(state.line, state.view if state.view is not None else view)
            cleared = LineInput("", state.help)
            if parsed is None:
                return cleared, []
            name, args = parsed
            return cleared, [Send(name, dict(args), tag=name)]
        edited = edit_line(state.line, key)
        if edited is None:
            return state, []
        typed_at = (view if not state.line else state.view) if edited else None
        return LineInput(edited, state.help, typed_at), []

    def replied(state: LineInput, tag: str, error: str | None, code: str | None = None):
        return state, [] if error is None else [Notice(error, True)]

    return Controls(
        LineInput("", help_text), press, replied, lambda state, view, me: state, game=game
    )


def typed_controls(
    game: str, parse_line: Callable[[str, View | None], Any], help_text: str | Callable[[], str]
) -> Callable[[str], Any]:
    """A game part's `controls(kind)` for a game played by typed lines: `t24 play` and
    `t24 proctor` type one line per command (`line_controls`); watching has no keys."""

    def controls(kind: str) -> Any:
        if kind not in ("play", "proctor"):
            return None
        return line_controls(parse_line, help_text, game)

    return controls


def line_part(
    name: str,
    render_lines: Callable[[View], list[str]],
    parse_line: Callable[[str, View | None], Any],
    help_text: str | Callable[[], str],
    next_move: Callable[[View, str], Any] | None = None,
    finished: Callable[[View], bool] = lambda view: view.get("phase") == "ended",
    describe_event: Callable[[str, Mapping[str, Any], Mapping[str, str]], str] = _event_words,
    seat_names: Callable[[View], dict[str, str]] = view_seat_names,
) -> GamePart:
    """A part for a game that draws its view as lines and takes one typed line per command;
    its bot (optional) answers `next_move(view, me) -> (command, args) | None` after a short
    reaction, replanned on every push."""

    def bot(view: View, me: str, deadlines: Any, now_us: int, skill: str, rng: Any, scale: float):
        move = next_move(view, me) if next_move is not None else None
        if move is None:
            return (None, repr(view)), []
        command, args = move
        key = (command, repr(sorted(args.items())), repr(view.get("card")))
        return key, [Move(LINE_BOT_REACTION * scale, command, dict(args), "its next move")]

    return GamePart(
        name=name,
        board=lambda view, style, role: render_lines(view),
        compact=lambda view, style: ["    " + style.dim(line) for line in render_lines(view)],
        controls=typed_controls(name, parse_line, help_text),
        finished=finished,
        bot=bot if next_move is not None else None,
        describe_event=describe_event,
        seat_names=seat_names,
    )
