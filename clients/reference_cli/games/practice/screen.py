"""A practice table on screen and the lines a student types, as pure functions.

`render_lines(view)` draws the view the server sends (docs/games/practice.md, "Views"): per
student, the rating, the cards solved of those played, the card in play, and the last card
(how long it took, or why it was missed and how it goes, in the typed form of an answer, so
the student can try it). `parse_line(text, view)` turns a typed line into a command (see
`HELP`). Every word comes from the game's table (`words.WORDS`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import reduce
from typing import Any

from clients.reference_cli.games.practice.words import WORDS
from clients.reference_cli.words import name_in, names_list, say, seat_name

View = Mapping[str, Any]


def HELP() -> str:  # noqa: N802 - the help line, in the language spoken when it is shown
    return say(WORDS, "screen.help")


SECOND = 1_000_000


def numbers_text(numbers: Sequence[int]) -> str:
    """`3 3 8 8`."""
    return " ".join(map(str, numbers))


def seconds_text(microseconds: int | None) -> str:
    """`7.4` (seconds, one decimal)."""
    return f"{(microseconds or 0) / SECOND:.1f}"


def mu_text(rating: Mapping[str, Any] | None) -> str:
    """A rating as its `mu` (`1580`), as an event reads it."""
    return f"{rating['mu']:.0f}" if rating else say(WORDS, "screen.rating.none")


def rating_text(rating: Mapping[str, Any] | None) -> str:
    """`1580 ± 120`, `(provisional ...)` while it is (the view says so)."""
    if not rating:
        return say(WORDS, "screen.rating.none")
    key = "screen.rating.provisional" if rating.get("provisional") else "screen.rating"
    return say(WORDS, key, mu=f"{rating['mu']:.0f}", sigma=f"{rating['sigma']:.0f}")


def answer_text(pattern: str, steps: Sequence[str]) -> str:
    """An answer as it is typed: `3 × 8; 1 + 1 = 2; 1 + 2 = 3; 3 * 8 = 24`."""
    return "; ".join([pattern, *steps])


def ways_text(solutions: Sequence[Mapping[str, Any]]) -> str:
    """`it goes (1 + 1 + 1) * 8` (each of the solver's simplest ways, joined by `or`)."""
    expressions = [str(solution["expression"]) for solution in solutions]
    if not expressions:
        return say(WORDS, "screen.ways.none")
    joined = reduce(lambda one, other: say(WORDS, "screen.or", one=one, other=other), expressions)
    return say(WORDS, "screen.ways", ways=joined)


def reason_words(reason: Any) -> str:
    """A miss's reason or a pause's cause in words; a typed cause as typed."""
    key = f"reason.{reason}"
    return say(WORDS, key) if key in WORDS else str(reason or "")


def final_ratings(
    ratings: Mapping[str, Any], played: Mapping[str, int], names: Mapping[str, str]
) -> str:
    """`final ratings: Ada 1580 after 20 cards and Bo 1420 after 3 cards`."""
    each = [
        say(
            WORDS,
            "screen.final_rating",
            who=name_in(names, seat),
            rating=mu_text(rating),
            count=played.get(seat, 0),
        )
        for seat, rating in ratings.items()
    ]
    return say(WORDS, "screen.final_ratings", ratings=names_list(each))


def _card_lines(card: Mapping[str, Any]) -> list[str]:
    key = "screen.card.touched" if card.get("touched_at") else "screen.card"
    fields = {
        "number": card["number"],
        "numbers": numbers_text(card["numbers"]),
        "card_rating": mu_text(card.get("card_rating")),
    }
    return ["  " + say(WORDS, key, **fields)]


def _last_lines(last: Mapping[str, Any]) -> list[str]:
    """The last card played: its time when solved; when missed, why, and how it goes (each
    of the solver's ways in the typed form of an answer)."""
    fields = {"number": last["number"], "numbers": numbers_text(last["numbers"])}
    if last.get("solved"):
        return [
            "  " + say(WORDS, "screen.solved", seconds=seconds_text(last["after_us"]), **fields)
        ]
    why = reason_words(last.get("result"))
    if last.get("message"):
        lines = [
            "  " + say(WORDS, "screen.missed.message", why=why, message=last["message"], **fields)
        ]
    else:
        lines = ["  " + say(WORDS, "screen.missed", why=why, **fields)]
    solutions = last.get("solutions") or []
    if not solutions:
        return [*lines, "    " + say(WORDS, "screen.ways.none")]
    return lines + [
        "    "
        + say(
            WORDS,
            "screen.way.typed",
            expression=solution["expression"],
            answer=answer_text(solution["pattern"], solution["steps"]),
        )
        for solution in solutions
    ]


def seat_lines(view: View, seat: Mapping[str, Any]) -> list[str]:
    """One student: rating and cards solved, then the card in play (or what to type for the
    next one, on the student's own screen) and the last card played."""
    name = seat_name(view, seat["seat"])
    mine = seat["seat"] == view.get("you")
    if mine:
        name = say(WORDS, "screen.you", name=name)
    lines = [
        say(
            WORDS,
            "screen.seat",
            name=name,
            rating=rating_text(seat.get("rating")),
            solved=seat.get("solved", 0),
            count=seat.get("played", 0),
        )
    ]
    card = seat.get("card")
    if card:
        lines += _card_lines(card)
    elif seat.get("done"):
        lines.append("  " + say(WORDS, "screen.done"))
    elif mine and view.get("phase") != "ended":
        lines.append("  " + say(WORDS, "screen.next"))
    last = seat.get("last")
    if last:
        lines += _last_lines(last)
    return lines


def status_lines(view: View) -> list[str]:
    """The pause (and its cause) or the end (and why)."""
    lines = []
    if view.get("paused"):
        lines.append(say(WORDS, "screen.paused", cause=reason_words(view.get("pause_cause"))))
    if view.get("phase") == "ended":
        key = f"screen.over.{view.get('end_reason')}"
        lines.append(say(WORDS, key if key in WORDS else "screen.over.ended"))
    return lines


def result_lines(view: View) -> list[str]:
    """A finished practice (printed when its view leaves): why it ended, then each student's
    rating and cards solved."""
    if view.get("phase") != "ended":
        return []
    return status_lines(view) + [seat_lines(view, seat)[0] for seat in view.get("seats", [])]


def render_lines(view: View) -> list[str]:
    """The lines of the screen for a practice view: the status, then each student."""
    lines = status_lines(view)
    for seat in view.get("seats", []):
        lines += seat_lines(view, seat)
    return lines


def header_words(view: View) -> list[str]:
    """`20 cards each` (the table's `cards` option)."""
    cards = (view.get("options") or {}).get("cards")
    return [say(WORDS, "screen.header", count=cards)] if cards else []


def parse_line(text: str, view: View | None) -> tuple[str, dict[str, Any]] | None:
    """A typed line as a command (see `HELP`), or None for an empty line: `n` the next card,
    `t` touches, `g` gives up, `resume` goes on after a pause, `end` ends one's own practice;
    anything else is an answer, the pattern then the steps separated by `;`."""
    words = text.strip()
    if not words:
        return None
    word = words.lower()
    if word in ("n", "next"):
        return "next_card", {}
    if word in ("t", "touch"):
        return "touch", {}
    if word in ("g", "give up"):
        return "give_up", {}
    if word in ("resume", "resume_practice"):
        return "resume_practice", {}
    if word in ("end", "end_practice"):
        return "end_practice", {}
    parts = [part.strip() for part in words.split(";") if part.strip()]
    return "answer", {"pattern": parts[0], "steps": parts[1:] or [parts[0]]}
