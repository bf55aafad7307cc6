"""The reference client's part for the `practice` game (docs/games/practice.md): what the
screen shows of a practice view and what a typed line sends (`screen.py`), each event in
words (`describe_event`), and a bot that plays the solver's simplest solution. Pure functions
over the view the server sends; the server judges every answer. Every word is in the game's
table (`words.WORDS`).

Typed lines: `n` the next card, `t` touches, `g` gives up, `resume` goes on after a pause,
`end` ends one's own practice, and an answer is the pattern then the steps, separated by `;`:
`3*8; 1+1=2; 2+1=3; 3*8=24`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from clients.reference_cli.games import line_part
from clients.reference_cli.games.practice import screen
from clients.reference_cli.games.practice.words import WORDS
from clients.reference_cli.words import (
    answer_reason,
    name_in,
    names_list,
    say,
    seat_name,
    unknown_event,
    view_seat_names,
)
from server.puzzles.solver import solve

View = Mapping[str, Any]
DEADLINES = ("touch_deadline", "answer_deadline")


def seat_names(view: View) -> dict[str, str]:
    """Seat id -> what people call it (words.py `view_seat_names`: never the id)."""
    return view_seat_names(view)


def next_move(view: View, me: str) -> tuple[str, dict[str, Any]] | None:
    """A perfect bot: the next card, a touch, the solver's simplest solution."""
    if view.get("phase") == "ended" or view.get("paused"):
        return None
    seat = next((s for s in view.get("seats", []) if s["seat"] == me), None)
    if seat is None or seat.get("done"):
        return None
    card = seat.get("card")
    if card is None:
        return "next_card", {}
    if not card.get("touched_at"):
        return "touch", {}
    solution = solve(card["numbers"])[0]
    return "answer", {"pattern": str(solution.pattern), "steps": list(solution.ascii_steps)}


def describe_event(kind: str, data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One event in words (`words.WORDS`, key `event.<type>[.<variant>]`), citing its rule;
    an event type this client does not know reads as "something new happened"."""
    seat = data.get("seat")
    fields: dict[str, Any] = {
        "who": name_in(names, seat) if seat is not None else names_list([]),
        "number": data.get("number"),
    }
    key = f"event.{kind}"
    if kind == "TableCreated":
        seats = (data.get("options") or {}).get("seats", [])
        fields["count"] = len(seats)
        fields["names"] = names_list(list(view_seat_names({"seats": seats}).values()))
    elif kind == "CardDealt":
        fields.update(
            numbers=screen.numbers_text(data["numbers"]),
            card_rating=screen.mu_text(data.get("card_rating")),
            rating=screen.mu_text(data.get("rating")),
        )
    elif kind == "AnswerJudged":
        key += ".right" if data["ok"] else ".wrong"
        fields.update(
            answer=screen.answer_text(data.get("pattern", ""), data.get("steps", [])),
            # the judge's own words say which step is wrong: a student learns from them
            why=data.get("message") or answer_reason(data.get("reason", "")),
        )
    elif kind == "CardSolved":
        fields.update(
            seconds=screen.seconds_text(data.get("after_us")),
            touch=screen.seconds_text(data.get("touch_us")),
        )
    elif kind == "CardMissed":
        key += f".{data.get('reason')}"
        fields["ways"] = screen.ways_text(data.get("solutions") or [])
    elif kind == "RatingUpdated":
        for name in ("before", "after", "card_before", "card_after"):
            fields[name] = screen.mu_text(data.get(name))
    elif kind == "PracticePaused":
        fields["cause"] = screen.reason_words(data.get("cause"))
    elif kind == "PracticeEnded":
        key += f".{data.get('reason')}"
        fields["ratings"] = screen.final_ratings(
            data.get("ratings") or {}, data.get("played") or {}, names
        )
    text = say(WORDS, key, **fields) if key in WORDS else unknown_event(kind)
    rule = data.get("rule")
    return f"{text} ({rule})" if rule and rule not in text else text


PART = replace(
    line_part(
        "practice",
        screen.render_lines,
        screen.parse_line,
        screen.HELP,
        next_move=next_move,
        describe_event=describe_event,
        seat_names=seat_names,
    ),
    header_words=screen.header_words,
    seat_label=seat_name,
    results=lambda view, style: screen.result_lines(view),
    deadline_words={name: say(WORDS, f"deadline.{name}") for name in DEADLINES},
    words=WORDS,
)
