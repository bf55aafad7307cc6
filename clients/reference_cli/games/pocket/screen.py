"""A pocket table on screen and the lines a player types, as pure functions.

`render_lines(view, now_us)` draws the view the server sends (docs/games/pocket.md, "Views"):
the top card with its dots, who claimed it and the answer countdown, who is excluded or
stumped, the bonus cards waiting, the scores, and at the end the winners (a tie is shown as a
tie). `parse_line(text)` turns a typed line into a command: `start`, `c` (claim "I got it"),
`s` (stumped), `end` (the director), anything else is an answer expression. A claim, an
answer or "stumped" names the card on screen (`set`, the view's card `number`): one that
crosses the next card's turn-up is refused (`stale_set`), never judged on that card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

HELP = "type an answer, e.g. (5+3-2)*4, and Enter · c claim · s stumped · start · q quit"
SECOND = 1_000_000


def _names(view: Mapping[str, Any]) -> dict[str, str]:
    return {seat["seat"]: seat["name"] or seat["seat"] for seat in view.get("seats", [])}


def _who(view: Mapping[str, Any], seats: list[str]) -> str:
    names = _names(view)
    return ", ".join(names.get(seat, seat) for seat in seats) or "—"


def board_lines(view: Mapping[str, Any], now_us: int = 0) -> list[str]:
    """The top card with its dots, the claim and its countdown, who is out or stumped, the
    bonus cards waiting (R-POCKET-2..4)."""
    names = _names(view)
    lines = []
    card = view.get("card")
    if card:
        numbers = "  ".join(str(n) for n in card["numbers"])
        lines.append(f"   [ {numbers} ]   {'●' * card['dots']} ({card['dots']} dots)")
        if card.get("claimer"):
            due = next(
                (d["at"] for d in view.get("deadlines", []) if d["command"] == "answer_deadline"),
                None,
            )
            left = "" if due is None else f", answer within {max(0, due - now_us) / SECOND:.0f} s"
            lines.append(f"   claimed by {names.get(card['claimer'], card['claimer'])}{left}")
        if card.get("excluded"):
            lines.append(f"   out of this card: {_who(view, card['excluded'])}")
        if card.get("stumped"):
            lines.append(f"   stumped: {_who(view, card['stumped'])}")
    elif view.get("phase") == "setup":
        lines.append("   waiting for `start` (any player or the director)")
    if view.get("paused"):
        lines.append(f"   paused ({view.get('pause_cause')}): a player resumes it")
    bonus = view.get("bonus") or []
    if bonus:
        dots = sum(entry["dots"] for entry in bonus)
        lines.append(f"   bonus cards waiting: {len(bonus)} ({dots} dots) for the next winner")
    return lines


def score_lines(view: Mapping[str, Any]) -> list[str]:
    """The scores in one line."""
    names = _names(view)
    scores = view.get("scores", {})
    return [
        "scores: "
        + " · ".join(f"{names.get(seat, seat)} {score}" for seat, score in scores.items())
    ]


def result_lines(view: Mapping[str, Any]) -> list[str]:
    """The winners (a tie shown as a tie, R-POCKET-5) and the unclaimed bonus cards."""
    result = view.get("result")
    if not result:
        return []
    lines = [("tie: " if result["tie"] else "winner: ") + _who(view, result["winners"])]
    if result.get("unclaimed_bonus"):
        lines.append(f"unclaimed bonus cards: {len(result['unclaimed_bonus'])}")
    return lines


def render_lines(view: Mapping[str, Any], now_us: int = 0) -> list[str]:
    """The lines of the screen for a pocket view."""
    names = _names(view)
    me = view.get("you")
    header = (
        f"pocket · {view.get('phase')} · card {view.get('turned', 0)}"
        f" · {view.get('stack_left', 0)} left in the stack"
        + (f" · you are {names.get(me, me)}" if me else "")
    )
    ending = result_lines(view) or [HELP]
    return [header, *board_lines(view, now_us), *score_lines(view), *ending]


def compact(view: Mapping[str, Any]) -> str:
    """One line: the card and the scores (`t24 replay`)."""
    card = view.get("card")
    shown = " ".join(str(n) for n in card["numbers"]) if card else "-"
    return f"card {view.get('turned', 0)}: {shown} · " + score_lines(view)[0]


def drawn_card(view: Mapping[str, Any] | None) -> dict[str, Any]:
    """`{"set": n}`: the number of the card on screen, which a claim, an answer or "stumped"
    is for (docs/games/pocket.md); nothing without a card up."""
    card = (view or {}).get("card")
    return {"set": card["number"]} if card else {}


def parse_line(
    text: str, view: Mapping[str, Any] | None = None
) -> tuple[str, dict[str, Any]] | None:
    """The command a typed line sends, or None for an empty line; a claim, an answer or
    "stumped" carries the card of `view`, the view on screen when it was sent (`drawn_card`)."""
    line = text.strip()
    if not line:
        return None
    word = line.lower()
    if word in ("start", "start_game"):
        return "start_game", {}
    if word in ("c", "claim"):
        return "claim", drawn_card(view)
    if word in ("s", "stumped"):
        return "declare_stumped", drawn_card(view)
    if word in ("end", "end_game"):
        return "end_game", {}
    return "answer", {"expression": line, **drawn_card(view)}
