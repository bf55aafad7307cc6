"""How the 24 Challenge table looks on screen: the card, its holder, the seats, the words.

What it keeps (pure functions: a view in, lines of text out; the generic screen in
render.py places them): the card in large digits once revealed (R-PLAY-1: a cupped card
shows no numbers to players), who holds it with the declared pattern and the steps, the
seats with score, flags and disqualification (R-FLAG), the compact form `t24 replay` prints,
and the words for each deadline the server pushes (R-PLAY-4/5/7).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from clients.reference_cli.games.challenge.event_words import END_REASON_WORDS
from clients.reference_cli.games.challenge.phases import BETWEEN, ENDED, PLACED, SECOND, SETUP
from clients.reference_cli.styling import Style

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


def seat_label(view: Mapping[str, Any], seat_id: Any) -> str:
    """A seat as people call it: `Ada (s1)`, or the id alone when it has no name."""
    for seat in view.get("seats", []):
        if seat["seat"] == seat_id:
            name = seat.get("name")
            return f"{name} ({seat_id})" if name and name != seat_id else str(seat_id)
    return str(seat_id)


def card_lines(view: Mapping[str, Any], style: Style) -> list[str]:
    """The card in play (or why there is none), its holder, pattern and steps (the generic
    screen adds the countdowns)."""
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


def compact(view: Mapping[str, Any], style: Style) -> list[str]:
    """The table in a few lines, for `t24 replay` printing every event: card, holder, seats."""
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
