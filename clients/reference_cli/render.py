"""The table on screen, as a pure function: a `Frame` (what the client knows) -> lines of text.

What it keeps: the layout of every full-screen view (`t24 play`, `proctor`, `watch`) and the
compact form `t24 replay` prints after each event. Nothing here touches a terminal, a socket
or a clock: time comes in as `now_us` (server time, microseconds), so a test renders any
moment of a countdown and compares lines.

Layout, top to bottom: a header (table, round, mode, who you are, connection status); the
card (large digits once revealed, R-PLAY-1: a cupped card shows no numbers to players); who
holds it with the declared pattern and the steps; the live countdowns (the 3 s pattern and
15 s solution windows of R-PLAY-4/5, the no-touch window of R-PLAY-7); the seats with score,
flags and disqualification (R-FLAG); the latest events; a notice line (errors in words);
the key help and the input prompt.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from clients.reference_cli.event_words import END_REASON_WORDS
from clients.reference_cli.styling import Style
from clients.reference_cli.table_model import (
    BETWEEN,
    ENDED,
    PLACED,
    SECOND,
    SETUP,
    FeedLine,
    TableModel,
)

# 5-row block digits for the card (R-PUZ-1: four whole numbers).
BIG_DIGITS = {
    "0": ("███", "█ █", "█ █", "█ █", "███"),
    "1": (" █ ", "██ ", " █ ", " █ ", "███"),
    "2": ("███", "  █", "███", "█  ", "███"),
    "3": ("███", "  █", " ██", "  █", "███"),
    "4": ("█ █", "█ █", "███", "  █", "  █"),
    "5": ("███", "█  ", "███", "  █", "███"),
    "6": ("███", "█  ", "███", "█ █", "███"),
    "7": ("███", "  █", " █ ", " █ ", " █ "),
    "8": ("███", "█ █", "███", "█ █", "███"),
    "9": ("███", "█ █", "███", "  █", "███"),
    "?": ("░░░", "░░░", "░░░", "░░░", "░░░"),
}
DEADLINE_WORDS = {
    "place_card": "next card in",
    "reveal_card": "reveal in",
    "no_touch_deadline": "touch window closes in",
    "pattern_deadline": "pattern due in",
    "solution_deadline": "solution due in",
}
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


def big_numbers(numbers: Sequence[Any] | None) -> list[str]:
    """Five lines of block digits for a card; `None` (cupped, R-PLAY-1) shows four blanks."""
    cells = ["?"] * 4 if numbers is None else [str(n) for n in numbers]
    rows = []
    for row in range(5):
        parts = [
            " ".join(BIG_DIGITS.get(ch, BIG_DIGITS["?"])[row] for ch in cell) for cell in cells
        ]
        rows.append("   ".join(parts).rstrip())
    return rows


def dots_text(dots: Any) -> str:
    """`●●○` for 2 dots of 3 (R-DECK-3)."""
    if not isinstance(dots, int) or not 1 <= dots <= 3:
        return ""
    return "●" * dots + "○" * (3 - dots)


def seconds_left(at_us: int, now_us: int) -> str:
    """`2.4 s`, never negative (the server fires the deadline, not the client)."""
    return f"{max(0, at_us - now_us) / SECOND:.1f} s"


def seat_label(view: Mapping[str, Any], seat_id: Any) -> str:
    """A seat as people call it: `Ada (s1)`, or the id alone when it has no name."""
    for seat in view.get("seats", []):
        if seat["seat"] == seat_id:
            name = seat.get("name")
            return f"{name} ({seat_id})" if name and name != seat_id else str(seat_id)
    return str(seat_id)


def header(frame: Frame, width: int, style: Style) -> list[str]:
    """Table, round, mode, who you are; the connection status on the right (or on a line of
    its own when both do not fit)."""
    model = frame.model
    parts = ["t24"]
    if model is not None:
        view = model.view
        parts += [f"table {model.table}", f"round {view.get('round', '?')}", view.get("mode", "?")]
    if frame.me:
        parts.append("you: " + (seat_label(model.view, frame.me) if model else frame.me))
    else:
        parts.append(frame.role)
    left = " · ".join(parts)
    status = frame.status
    colored = style.green(status) if status == "connected" else style.yellow(status)
    gap = width - len(left) - len(status)
    if gap < 1:
        return [style.bold(left), " " * max(0, width - len(status)) + colored]
    return [style.bold(left) + " " * gap + colored]


def card_lines(model: TableModel, now_us: int, style: Style) -> list[str]:
    """The card in play (or why there is none), its holder, pattern, steps and countdowns."""
    view = model.view
    phase = view.get("phase", SETUP)
    lines: list[str] = []
    if view.get("paused"):
        lines.append(
            style.yellow(f"PAUSED ({view.get('pause_cause') or 'proctor'}): no clock runs")
            + " · the proctor resumes the table"
        )
    if phase == SETUP:
        lines.append("waiting for the proctor to start the round")
        return lines
    if phase == ENDED:
        reason = END_REASON_WORDS.get(view.get("end_reason"), str(view.get("end_reason")))
        lines.append(style.bold(f"round over: {reason}"))
        return lines
    card = view.get("card")
    if phase == BETWEEN or card is None:
        lines.append(f"no card in play · {view.get('cards_left', 0)} cards left")
    else:
        numbers = card.get("numbers")
        shown = " ".join(map(str, numbers)) if numbers else "hidden"
        title = f"card {card.get('play')} · {shown}"
        if card.get("dots"):
            title += f" · {dots_text(card.get('dots'))}"
        if phase == PLACED:
            title += " · placed, cupped: wait for the reveal (touching now draws a flag)"
        lines.append(style.bold(title) + f" · {view.get('cards_left', 0)} cards left")
        big = big_numbers(numbers if phase != PLACED else None)
        lines.extend("  " + (style.cyan(row) if phase != PLACED else style.dim(row)) for row in big)
        toucher = view.get("toucher")
        if toucher is not None:
            since = ""
            if card.get("revealed_at") and view.get("touched_at"):
                since = f" (+{(view['touched_at'] - card['revealed_at']) / SECOND:.2f} s)"
            held = f"{seat_label(view, toucher)} holds the card{since}"
            if view.get("pattern"):
                held += f" · pattern {view['pattern']}"
            lines.append(style.bold(held))
            for index, step in enumerate(view.get("steps", []), start=1):
                lines.append(f"   step {index}: {step}")
        stumped = view.get("stumped_declared", [])
        if stumped:
            names = ", ".join(seat_label(view, seat) for seat in stumped)
            lines.append(f"stumped so far: {names}")
    timers = [
        f"{DEADLINE_WORDS.get(d['command'], d['command'])} {seconds_left(d['at'], now_us)}"
        for d in view.get("deadlines", [])
    ]
    if timers:
        lines.append(style.yellow(" · ".join(timers)))
    return lines


def scoreboard(view: Mapping[str, Any], me: str | None, style: Style) -> list[str]:
    """One line per seat: score, flags of the limit (R-FLAG-3), disqualified (R-FLAG-4)."""
    limit = view.get("flag_limit", "?")
    lines = [style.dim(f"  {'seat':8} {'name':16} {'score':>5}  flags")]
    toucher = view.get("toucher")
    for seat in view.get("seats", []):
        marker = "▶" if seat["seat"] == me else " "
        flags = f"{seat['flags']}/{limit}"
        line = (
            f"{marker} {seat['seat']:8} {(seat.get('name') or ''):16} {seat['score']:>5}  {flags}"
        )
        if seat.get("disqualified"):
            line += "  DISQUALIFIED"
            line = style.red(line)
        elif seat["seat"] == toucher:
            line += "  holds the card"
            line = style.bold(line)
        lines.append(line)
    return lines


def feed_lines(feed: Sequence[FeedLine], count: int, style: Style) -> list[str]:
    """The latest `count` events, each with its time since the card's reveal."""
    colour = {"win": style.green, "flag": style.red, "refused": style.yellow, "table": style.bold}
    shown = []
    for line in list(feed)[-count:] if count > 0 else []:
        paint = colour.get(line.kind, lambda text: text)
        shown.append(f"{line.stamp()}  {paint(line.text)}")
    return shown


def render(
    frame: Frame, now_us: int, width: int = 80, height: int = 30, style: Style = PLAIN
) -> list[str]:
    """The whole screen as lines (no trailing newline); fits `height` by trimming the feed."""
    rule = style.dim("─" * max(10, width))
    top = [*header(frame, width, style), rule]
    if frame.model is None:
        top.append(f"joining the table… ({frame.status})")
        middle: list[str] = []
    else:
        top += card_lines(frame.model, now_us, style)
        top.append(rule)
        middle = scoreboard(frame.model.view, frame.me, style)
    bottom = [rule]
    if frame.notice:
        bottom.append(style.red(frame.notice) if frame.notice_is_error else frame.notice)
    bottom.extend(frame.extra)
    if frame.keys:
        bottom.append(style.dim(frame.keys))
    if frame.prompt:
        bottom.append(frame.prompt)
    room = max(MIN_FEED, height - len(top) - len(middle) - len(bottom) - 1)
    feed = [rule, *feed_lines(frame.feed, room, style)] if frame.feed else []
    above = top + middle + feed
    # On a short terminal the bottom (notice, keys, the line being typed) always stays.
    return above[: max(0, height - len(bottom))] + bottom


def compact(model: TableModel, style: Style = PLAIN) -> list[str]:
    """The table in a few lines, for `t24 replay` printing every event: card, holder, seats."""
    view = model.view
    lines = []
    card = view.get("card")
    if card is not None:
        numbers = card.get("numbers")
        shown = " ".join(map(str, numbers)) if numbers else "hidden"
        state = "revealed" if card.get("revealed_at") else "placed"
        text = f"card {card.get('play')}: {shown} {dots_text(card.get('dots'))} {state}".rstrip()
        if view.get("toucher"):
            text += f", held by {seat_label(view, view['toucher'])}"
            if view.get("pattern"):
                text += f", pattern {view['pattern']}"
            if view.get("steps"):
                text += ", steps " + "; ".join(view["steps"])
        lines.append(text)
    else:
        lines.append(f"{view.get('phase', SETUP).replace('_', ' ')}, no card in play")
    seats = []
    for seat in view.get("seats", []):
        text = f"{seat.get('name') or seat['seat']} {seat['score']}"
        if seat["flags"]:
            text += f" ⚑{seat['flags']}"
        if seat.get("disqualified"):
            text += " DQ"
        seats.append(text)
    paused = " · PAUSED" if view.get("paused") else ""
    lines.append(f"scores: {', '.join(seats)} · {view.get('cards_left', 0)} cards left{paused}")
    return ["    " + style.dim(line) for line in lines]
