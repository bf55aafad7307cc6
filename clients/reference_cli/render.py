"""The table on screen, as a pure function: a `Frame` (what the client knows) -> lines of text.

What it keeps: the layout of every full-screen view (`t24 play`, `proctor`, `watch`) and the
compact form `t24 replay` prints after each event, for any game. Nothing here touches a
terminal, a socket or a clock: time comes in as `now_us` (server time, microseconds), so a
test renders any moment of a countdown and compares lines.

Layout, top to bottom: a header (table, the game's own header words, who you are, connection
status); the game's board (its part's `board`, e.g. the 24 Challenge card in large digits,
or the results once the round is over: games/challenge/render.py); the live countdowns, from
the deadlines the server pushes (the part names them: "pattern due in"); the game's side
panel (e.g. the seats, scores and who is connected); the latest events (scrolled back by
`feed_back` lines); a notice (each of its lines a line of the screen); the key help and the
input prompt. The game is the model's (the snapshot's `game`); a game this client has no
part for is drawn by the generic part (its view as plain lines).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from clients.reference_cli.games import part_for
from clients.reference_cli.styling import Style
from clients.reference_cli.table_model import SECOND, FeedLine, TableModel
from clients.reference_cli.words import COMMON, say, status_words

MIN_FEED = 3
PLAIN = Style(color=False)


@dataclass(frozen=True)
class Frame:
    """Everything one redraw shows; built by the interactive shell from its state."""

    model: TableModel | None
    role: str = "spectator"
    me: str | None = None  # the player's own seat
    status: str = "connecting"
    feed: Sequence[FeedLine] = ()
    notice: str = ""
    notice_is_error: bool = False
    keys: str = ""  # the key help line
    prompt: str = ""  # the input line, cursor at its end
    extra: Sequence[str] = field(default_factory=tuple)  # e.g. the proctor's help text
    presence: Mapping[str, Any] | None = None  # the server's last `presence` push
    feed_back: int = 0  # how many feed lines the view is scrolled back (PgUp)
    picked: int | None = None  # the seq of the feed's event picked for a protest (↑, ↓)


def seconds_left(at_us: int, now_us: int) -> str:
    """`2.4 s`, never negative (the server fires the deadline, not the client)."""
    return f"{max(0, at_us - now_us) / SECOND:.1f} s"


def header(frame: Frame, width: int, style: Style) -> list[str]:
    """Table, the game's header words (round, mode), who you are; the connection status on
    the right (or on a line of its own when both do not fit)."""
    model = frame.model
    parts = ["t24"]
    part = part_for(model.game if model is not None else "")
    if model is not None:
        parts += [COMMON.say("screen.table", table=model.table), *part.header_words(model.view)]
    if frame.me:
        who = part.seat_label(model.view, frame.me) if model else frame.me
        parts.append(say(COMMON, "screen.you", who=who))
    else:
        role = f"role.{frame.role}"
        parts.append(say(COMMON, role) if role in COMMON else frame.role)
    left = " · ".join(parts)
    status = status_words(frame.status)
    colored = style.green(status) if frame.status == "connected" else style.yellow(status)
    gap = width - len(left) - len(status)
    if gap < 1:
        return [style.bold(left), " " * max(0, width - len(status)) + colored]
    return [style.bold(left) + " " * gap + colored]


def countdown_lines(model: TableModel, now_us: int, style: Style) -> list[str]:
    """The live deadlines the server pushed, as countdowns in the game's words."""
    words = part_for(model.game).deadline_words
    timers = [
        f"{words.get(d['command'], d['command'])} {seconds_left(d['at'], now_us)}"
        for d in model.deadlines
    ]
    return [style.yellow(" · ".join(timers))] if timers else []


def results_lines(model: TableModel, style: Style = PLAIN) -> list[str]:
    """The results of a finished game, as its part words them (none from the generic part)."""
    return part_for(model.game).results(model.view, style)


def feed_lines(
    feed: Sequence[FeedLine], count: int, style: Style, back: int = 0, picked: int | None = None
) -> list[str]:
    """`count` events ending `back` lines before the latest, each with its number (the seq a
    protest names, R-ROUND-8) and its time since the card's reveal; the event `picked` for a
    protest is marked `▶` and shown in reverse."""
    colour = {"win": style.green, "flag": style.red, "refused": style.yellow, "table": style.bold}
    shown = []
    end = len(feed) - back
    for line in list(feed)[max(0, end - count) : end] if count > 0 else []:
        paint = colour.get(line.kind, lambda text: text)
        text = f"#{line.seq:<4} {line.stamp()}  {line.text}"
        if line.seq == picked:
            shown.append(style.reverse(f"▶ {text}"))
        else:
            shown.append(f"  #{line.seq:<4} {line.stamp()}  {paint(line.text)}")
    return shown


def render(
    frame: Frame, now_us: int, width: int = 80, height: int = 30, style: Style = PLAIN
) -> list[str]:
    """The whole screen as lines (no trailing newline); fits `height` by trimming the feed."""
    rule = style.dim("─" * max(10, width))
    if frame.model is None:
        # Not joined yet: the status is the whole story (which server, is it running, when
        # the next try is), one part a line under the header, never cut off at its right.
        top = [*header(replace(frame, status=""), width, style), rule, COMMON.say("screen.joining")]
        top += [style.yellow(part) for part in frame.status.split("; ")]
        middle: list[str] = []
    else:
        top = [*header(frame, width, style), rule]
        part = part_for(frame.model.game)
        top += part.board(frame.model.view, style, frame.role)
        top += countdown_lines(frame.model, now_us, style)
        top.append(rule)
        middle = part.side(frame.model.view, frame.me, style, frame.presence)
    bottom = [rule]
    for line in frame.notice.splitlines():  # a multi-line notice (`help`) is lines
        bottom.append(style.red(line) if frame.notice_is_error else line)
    bottom.extend(frame.extra)
    if frame.keys:
        bottom.append(style.dim(frame.keys))
    if frame.prompt:
        bottom.append(frame.prompt)
    room = max(MIN_FEED, height - len(top) - len(middle) - len(bottom) - 1)
    feed = []
    if frame.feed:
        back = max(0, min(frame.feed_back, len(frame.feed) - room))
        feed = [feed_rule(len(frame.feed), room, back, width, style)]
        feed += feed_lines(frame.feed, room, style, back, frame.picked)
    above = top + middle + feed
    # On a short terminal the bottom (notice, keys, the line being typed) always stays.
    return above[: max(0, height - len(bottom))] + bottom


def feed_rule(total: int, room: int, back: int, width: int, style: Style) -> str:
    """The rule above the feed; it says when older events are above or the view is
    scrolled back, and which keys scroll (PgUp, PgDn)."""
    if back > 0:
        label = f" {back} newer below · PgDn: newer · PgUp: older "
    elif total > room:
        label = " PgUp: older events "
    else:
        return style.dim("─" * max(10, width))
    return style.dim("──" + label + "─" * max(2, width - len(label) - 2))


def compact(model: TableModel, style: Style = PLAIN) -> list[str]:
    """The table in a few lines, for `t24 replay` printing every event (the game's part)."""
    return part_for(model.game).compact(model.view, style)
