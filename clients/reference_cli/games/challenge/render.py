"""How the 24 Challenge table looks on screen: the card, its holder, the seats, the results.

What it keeps (pure functions: a view in, lines of text out; the generic screen in
clients/reference_cli/render.py places them): the card in large digits once revealed
(R-PLAY-1: a cupped card shows no numbers to players), who holds it with the declared
pattern and the steps; the seats with score, flags and disqualification (R-FLAG), and who is
connected (`presence`, when the server sent it); once the round is over the card's place
holds the results (`results_lines`), which the views also print when they leave; the compact
form `t24 replay` prints; the words for each deadline the server pushes (R-PLAY-4/5/7).

Cards and plays are numbered apart: a card is named by its id (`card SD-02`, printed on the
physical card), which it keeps when it goes back under the deck and comes again; a play is
the table's count of cards put in play (`play 5`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from clients.reference_cli.games.challenge.event_words import end_reason_words
from clients.reference_cli.games.challenge.hearing import hearing_lines
from clients.reference_cli.games.challenge.phases import BETWEEN, ENDED, PLACED, SECOND, SETUP
from clients.reference_cli.games.challenge.words import WORDS
from clients.reference_cli.styling import Style
from clients.reference_cli.words import name_in, names_list, say, seat_name, view_seat_names

PLAIN = Style(color=False)
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


class _DeadlineWords(Mapping[str, str]):
    """A deadline's words (`deadline.<kind>`), in the language spoken when drawn."""

    KINDS = ("place_card", "reveal_card", "no_touch_deadline", "pattern_deadline")
    KINDS += ("solution_deadline",)

    def __getitem__(self, kind: str) -> str:
        if kind not in self.KINDS:
            raise KeyError(kind)
        return say(WORDS, f"deadline.{kind}")

    def __iter__(self) -> Iterator[str]:
        return iter(self.KINDS)

    def __len__(self) -> int:
        return len(self.KINDS)


DEADLINE_WORDS: Mapping[str, str] = _DeadlineWords()


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


def cards_left(view: Mapping[str, Any]) -> str:
    """`1 card left`, `3 cards left`."""
    return say(WORDS, "screen.cards_left", count=view.get("cards_left", 0))


def card_name(card: Mapping[str, Any]) -> str:
    """`play 5 · card SD-02`: the play counter and the card's own id (kept when it returns)."""
    card_id = card.get("card_id")
    name = say(WORDS, "screen.play", play=card.get("play"))
    if card_id is None:
        return name + say(WORDS, "screen.a_card")
    return name + say(WORDS, "screen.card_id", card_id=card_id)


def seat_label(view: Mapping[str, Any], seat_id: Any) -> str:
    """A seat as people call it: `Ada`, `Ada (2)` for a second Ada, `Player 3` for a seat
    with no name (words.py `seat_name`); never its id."""
    return seat_name(view, seat_id)


def results_lines(view: Mapping[str, Any], style: Style = PLAIN) -> list[str]:
    """The results of a round that is over: the seats ranked by score, the winner(s), the
    flags of the limit (R-FLAG-3) and who was disqualified (R-FLAG-4)."""
    reason = end_reason_words(view.get("end_reason"))
    limit = view.get("flag_limit", "?")
    seats = list(view.get("seats", []))
    standing = [seat for seat in seats if not seat.get("disqualified")]
    best = max((seat["score"] for seat in standing), default=0)
    winners = [seat for seat in standing if seat["score"] == best and best > 0]
    ranked = sorted(seats, key=lambda seat: (bool(seat.get("disqualified")), -seat["score"]))
    lines = [style.bold(say(WORDS, "screen.round_over", why=reason))]
    if winners:
        names = names_list([seat_label(view, seat["seat"]) for seat in winners])
        key = "screen.wins" if len(winners) == 1 else "screen.tie"
        lines.append(style.green(say(WORDS, key, names=names, count=best)))
    else:
        lines.append(say(WORDS, "screen.nobody_scored"))
    column = {name: say(WORDS, f"screen.column.{name}") for name in ("seat", "score", "flags")}
    lines.append(
        style.dim(
            f"  {'':3} {column['seat']:24} {column['score']:>5}  {column['flags']:5}  "
            + say(WORDS, "screen.column.cards")
        )
    )
    rank = 0
    previous: tuple[bool, int] | None = None
    for position, seat in enumerate(ranked, start=1):
        key = (bool(seat.get("disqualified")), seat["score"])
        rank = rank if key == previous else position
        previous = key
        place = "–" if seat.get("disqualified") else f"{rank}."
        cards = len(seat.get("cards_won", []))
        line = (
            f"  {place:3} {seat_label(view, seat['seat']):24} {seat['score']:>5}  "
            f"{seat['flags']}/{limit}".ljust(42)
            + f"  {cards}"
        )
        if seat.get("disqualified"):
            line = style.red(line + "  " + say(WORDS, "screen.disqualified"))
        elif seat in winners:
            line = style.bold(line + "  " + say(WORDS, "screen.winner"))
        lines.append(line)
    return lines


def card_lines(view: Mapping[str, Any], style: Style, role: str = "player") -> list[str]:
    """The card in play (or why there is none), its holder, pattern and steps; the results
    once the round is over (the generic screen adds the countdowns)."""
    phase = view.get("phase", SETUP)
    lines: list[str] = []
    if view.get("paused"):
        lines.append(
            style.yellow(
                say(
                    WORDS,
                    "screen.paused",
                    cause=end_reason_words(view.get("pause_cause") or "proctor"),
                )
            )
            + say(WORDS, "screen.paused.resume")
        )
    if phase == SETUP:
        lines.append(say(WORDS, "screen.waiting"))
        return lines
    if phase == ENDED:
        return lines + results_lines(view, style)
    card = view.get("card")
    if phase == BETWEEN or card is None:
        lines.append(say(WORDS, "screen.no_card", left=cards_left(view)))
    else:
        numbers = card.get("numbers")
        shown = " ".join(map(str, numbers)) if numbers else say(WORDS, "screen.hidden")
        title = f"{card_name(card)} · {shown}"
        if card.get("dots"):
            title += f" · {dots_text(card.get('dots'))}"
        if phase == PLACED:
            title += say(WORDS, "screen.placed")
            if role == "player":
                title += say(WORDS, "screen.wait_reveal")
        lines.append(style.bold(title) + f" · {cards_left(view)}")
        big = big_numbers(numbers if phase != PLACED else None)
        lines.extend("  " + (style.cyan(row) if phase != PLACED else style.dim(row)) for row in big)
        toucher = view.get("toucher")
        if toucher is not None:
            since = ""
            if card.get("revealed_at") and view.get("touched_at"):
                seconds = f"{(view['touched_at'] - card['revealed_at']) / SECOND:.2f}"
                since = say(WORDS, "screen.since", seconds=seconds)
            held = say(WORDS, "screen.holds", who=seat_label(view, toucher), since=since)
            if view.get("pattern"):
                held += say(WORDS, "screen.pattern", pattern=view["pattern"])
            lines.append(style.bold(held))
            for index, step in enumerate(view.get("steps", []), start=1):
                lines.append(say(WORDS, "screen.step", index=index, step=step))
        stumped = view.get("stumped_declared", [])
        if stumped:
            names = ", ".join(seat_label(view, seat) for seat in stumped)
            lines.append(say(WORDS, "screen.stumped", names=names))
    return lines


def scoreboard(
    view: Mapping[str, Any],
    me: str | None,
    style: Style,
    presence: Mapping[str, Any] | None = None,
) -> list[str]:
    """One line per seat: score, flags of the limit (R-FLAG-3), disqualified (R-FLAG-4),
    and, once the server said who is connected, an empty seat (`not connected`) and, on a
    screen without a seat of its own (the proctor's), each seat's measured lag."""
    if view.get("phase") == ENDED:
        return []  # once the round is over, the results on the board are the scoreboard
    limit = view.get("flag_limit", "?")
    column = {name: say(WORDS, f"screen.column.{name}") for name in ("seat", "name", "score")}
    lines = [
        style.dim(
            f"  {column['seat']:8} {column['name']:16} {column['score']:>5}  "
            + say(WORDS, "screen.column.flags")
        )
    ]
    toucher = view.get("toucher")
    present = set(presence.get("seats", [])) if presence is not None else None
    names = view_seat_names(view)
    # the seat's place at the table (what a proctor may type for it), then its name
    for place, seat in enumerate(view.get("seats", []), start=1):
        marker = "▶" if seat["seat"] == me else " "
        flags = f"{seat['flags']}/{limit}"
        name = name_in(names, seat["seat"])
        line = f"{marker} {place:<8} {name:16} {seat['score']:>5}  {flags}"
        if present is not None and seat["seat"] not in present:
            line += style.dim(say(WORDS, "screen.not_connected"))
        elif me is None and presence is not None:  # the proctor's (and a watcher's) screen
            line += style.dim(lag_words(presence.get("lag", {}).get(seat["seat"])))
        if seat.get("disqualified"):
            line += say(WORDS, "screen.DISQUALIFIED")
            line = style.red(line)
        elif seat["seat"] == toucher:
            line += say(WORDS, "screen.holds_card")
            line = style.bold(line)
        lines.append(line)
    if presence is not None:
        proctor = say(
            WORDS, "screen.proctor_connected" if presence.get("proctor") else "screen.no_proctor"
        )
        watchers = presence.get("watchers", 0)
        watching = say(WORDS, "screen.watching", count=watchers) if watchers else ""
        lines.append(style.dim(f"  {proctor}{watching}"))
    return lines


def lag_words(lag: Mapping[str, Any] | None) -> str:
    """A seat's connection lag as the server measured it (issue 19, `presence.lag`): what a
    fair first touch credits it, so the proctor sees who plays over a slow link."""
    if lag is None:
        return ""
    if lag.get("stale") or lag.get("delay_ms") is None:
        return say(WORDS, "screen.lag_unknown")
    return say(WORDS, "screen.lag", ms=lag["delay_ms"], jitter=lag.get("jitter_ms", 0))


def compact(view: Mapping[str, Any], style: Style = PLAIN) -> list[str]:
    """The table in a few lines, for `t24 replay` printing every event: card, holder, seats."""
    lines = []
    card = view.get("card")
    if card is not None:
        numbers = card.get("numbers")
        shown = " ".join(map(str, numbers)) if numbers else "hidden"
        state = "revealed" if card.get("revealed_at") else "placed"
        text = f"{card_name(card)}: {shown} {dots_text(card.get('dots'))} {state}".rstrip()
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
    names = view_seat_names(view)
    for seat in view.get("seats", []):
        text = f"{name_in(names, seat['seat'])} {seat['score']}"
        if seat["flags"]:
            text += f" ⚑{seat['flags']}"
        if seat.get("disqualified"):
            text += " DQ"
        seats.append(text)
    paused = " · PAUSED" if view.get("paused") else ""
    lines.append(f"scores: {', '.join(seats)} · {cards_left(view)}{paused}")
    lines += hearing_lines(view)  # R-ROUND-7/8: open protests, the signature
    return ["    " + style.dim(line) for line in lines]
