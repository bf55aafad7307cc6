"""The reference client's part for the `practice` game (docs/games/practice.md): the lines a
practice view draws, what a typed line sends, and a bot that plays the solver's simplest
solution. Pure functions over the view the server sends; the server judges every answer.

Typed lines: `n` the next card, `t` (or a space) touches, `g` gives up, `end` ends one's own
practice, and an answer is the pattern then the steps, separated by `;`:
`3*8; 1+1=2; 2+1=3; 3*8=24`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clients.reference_cli.games import line_part
from server.puzzles.solver import solve

View = Mapping[str, Any]
HELP = "n next card · t touch · PATTERN; STEP; STEP; STEP answers · g give up · q leave"
RESULT_WORDS = {
    "solved": "solved",
    "wrong": "wrong answer",
    "no_touch": "not touched in time",
    "no_answer": "no answer in time",
    "gave_up": "given up",
}


def _rating(rating: Mapping[str, Any] | None) -> str:
    if not rating:
        return "-"
    mark = "?" if rating.get("provisional") else ""
    return f"{rating['mu']:.0f}{mark} ± {rating['sigma']:.0f}"


def seat_names(view: View) -> dict[str, str]:
    return {seat["seat"]: seat.get("name") or seat["seat"] for seat in view.get("seats", [])}


def render_lines(view: View) -> list[str]:
    """Each student: rating, cards played and solved, the card in play, the last miss."""
    lines = []
    if view.get("paused"):
        lines.append(f"paused ({view.get('pause_cause')})")
    if view.get("phase") == "ended":
        lines.append(f"the practice is over ({view.get('end_reason')})")
    for seat in view.get("seats", []):
        you = " (you)" if seat["seat"] == view.get("you") else ""
        lines.append(
            f"{seat.get('name') or seat['seat']}{you}: rating {_rating(seat.get('rating'))}, "
            f"{seat.get('solved', 0)} of {seat.get('played', 0)} solved"
        )
        card = seat.get("card")
        if card:
            touched = "touched" if card.get("touched_at") else "not touched"
            lines.append(
                f"  card {card['number']}: {' '.join(map(str, card['numbers']))} "
                f"(card rating {_rating(card.get('card_rating'))}), {touched}"
            )
        last = seat.get("last")
        if last and not last.get("solved"):
            ways = " or ".join(s["expression"] for s in last.get("solutions", [])) or "none"
            lines.append(
                f"  missed {' '.join(map(str, last['numbers']))} "
                f"({RESULT_WORDS.get(last['result'], last['result'])}): {ways}"
            )
    return lines


def parse_line(text: str, view: View | None) -> tuple[str, dict[str, Any]] | None:
    """A typed line as a command (see the module doc), or None for an empty line."""
    words = text.strip()
    if not words:
        return None
    if words.lower() in ("n", "next"):
        return "next_card", {}
    if words.lower() in ("t", "touch"):
        return "touch", {}
    if words.lower() in ("g", "give up"):
        return "give_up", {}
    if words.lower() == "end":
        return "end_practice", {}
    parts = [part.strip() for part in words.split(";") if part.strip()]
    return "answer", {"pattern": parts[0], "steps": parts[1:] or [parts[0]]}


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
    who = names.get(data.get("seat", ""), data.get("seat", ""))
    numbers = " ".join(map(str, data.get("numbers", [])))
    words = {
        "CardDealt": lambda: f"{who}: card {data['number']} is {numbers}",
        "CardTouched": lambda: f"{who} touches",
        "AnswerJudged": lambda: f"{who}: " + ("right" if data["ok"] else data["message"]),
        "CardSolved": lambda: f"{who} solved it in {data['after_us'] / 1e6:.1f} s",
        "CardMissed": lambda: f"{who} missed it ({RESULT_WORDS.get(data['reason'], '')})",
        "RatingUpdated": lambda: (
            f"{who}: rating {data['before']['mu']:.0f} -> {data['after']['mu']:.0f}"
        ),
        "PracticePaused": lambda: f"paused ({data['cause']})",
        "PracticeResumed": lambda: "resumed",
        "PracticeEnded": lambda: f"the practice is over ({data['reason']})",
    }.get(kind)
    return words() if words else kind


PART = line_part(
    "practice",
    render_lines,
    parse_line,
    HELP,
    next_move=next_move,
    describe_event=describe_event,
    seat_names=seat_names,
)
