"""A pocket table on screen and the lines a player types, as pure functions.

`render_lines(view, now_us)` draws the view the server sends (docs/games/pocket.md, "Views"):
the top card with its dots, who claimed it and the answer countdown, who is excluded or
stumped, the bonus cards waiting, the scores, and at the end the winners (a tie is shown as a
tie). `parse_line(text)` turns a typed line into a command: `start`, `c` (claim "I got it"),
`s` (stumped), `resume`, `end` (the director), anything else is an answer expression. A claim,
an answer or "stumped" names the card on screen (`set`, the view's card `number`): one that
crosses the next card's turn-up is refused (`stale_set`), never judged on that card. Every
word comes from the game's table (`words.WORDS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clients.reference_cli.games.pocket.words import WORDS
from clients.reference_cli.words import name_in, names_list, say, view_seat_names


def HELP() -> str:  # noqa: N802 - the help line, in the language spoken when it is shown
    return say(WORDS, "screen.help")


SECOND = 1_000_000


def _who(view: Mapping[str, Any], seats: list[str]) -> str:
    names = view_seat_names(view)
    return names_list([name_in(names, seat) for seat in seats])


def board_lines(view: Mapping[str, Any], now_us: int = 0) -> list[str]:
    """The top card with its dots, the claim and its countdown, who is out or stumped, the
    bonus cards waiting (R-POCKET-2..4)."""
    lines = []
    card = view.get("card")
    if card:
        numbers = "  ".join(str(n) for n in card["numbers"])
        drawn = "●" * card["dots"]
        lines.append(
            "   " + say(WORDS, "screen.card", numbers=numbers, dots_drawn=drawn, count=card["dots"])
        )
        if card.get("claimer"):
            due = next(
                (d["at"] for d in view.get("deadlines", []) if d["command"] == "answer_deadline"),
                None,
            )
            who = _who(view, [card["claimer"]])
            if due is None:
                lines.append("   " + say(WORDS, "screen.claimed", who=who))
            else:
                seconds = f"{max(0, due - now_us) / SECOND:.0f}"
                lines.append("   " + say(WORDS, "screen.claimed.due", who=who, seconds=seconds))
        if card.get("excluded"):
            lines.append("   " + say(WORDS, "screen.excluded", names=_who(view, card["excluded"])))
        if card.get("stumped"):
            lines.append("   " + say(WORDS, "screen.stumped", names=_who(view, card["stumped"])))
    elif view.get("phase") == "setup":
        lines.append("   " + say(WORDS, "screen.waiting"))
    if view.get("paused"):
        lines.append(
            "   " + say(WORDS, "screen.paused", cause=cause_words(view.get("pause_cause")))
        )
    bonus = view.get("bonus") or []
    if bonus:
        dots = sum(entry["dots"] for entry in bonus)
        lines.append("   " + say(WORDS, "screen.bonus", count=len(bonus), dots=dots))
    return lines


def cause_words(cause: Any) -> str:
    """A pause's cause: the server's own causes in words, a typed cause as typed."""
    key = f"reason.{cause}"
    return say(WORDS, key) if key in WORDS else str(cause or "")


def score_lines(view: Mapping[str, Any]) -> list[str]:
    """The scores in one line."""
    names = view_seat_names(view)
    scores = view.get("scores", {})
    shown = " · ".join(f"{name_in(names, seat)} {score}" for seat, score in scores.items())
    return [say(WORDS, "screen.scores", scores=shown)]


def result_lines(view: Mapping[str, Any]) -> list[str]:
    """The winners (a tie shown as a tie, R-POCKET-5) and the unclaimed bonus cards."""
    result = view.get("result")
    if not result:
        return []
    key = "screen.tie" if result["tie"] else "screen.winner"
    lines = [say(WORDS, key, names=_who(view, result["winners"]))]
    if result.get("unclaimed_bonus"):
        lines.append(say(WORDS, "screen.unclaimed", count=len(result["unclaimed_bonus"])))
    return lines


def stack_size(view: Mapping[str, Any]) -> int:
    """How many cards the game plays: those turned and those left once it runs, the
    options' `size` before (the view's count of cards left is 0 until the start)."""
    if view.get("phase") == "setup":
        return int((view.get("options") or {}).get("size", 0))
    return int(view.get("turned", 0)) + int(view.get("stack_left", 0))


def header_line(view: Mapping[str, Any]) -> str:
    """`pocket · playing · card 3 of 12 · you are Ada`."""
    names = view_seat_names(view)
    me = view.get("you")
    phase = f"screen.phase.{view.get('phase')}"
    fields = {
        "phase": say(WORDS, phase) if phase in WORDS else str(view.get("phase")),
        "turned": view.get("turned", 0),
        "size": stack_size(view),
    }
    if me:
        return say(WORDS, "screen.header", me=name_in(names, me), **fields)
    return say(WORDS, "screen.header.watching", **fields)


def render_lines(view: Mapping[str, Any], now_us: int = 0) -> list[str]:
    """The lines of the screen for a pocket view."""
    ending = result_lines(view) or [HELP()]
    return [header_line(view), *board_lines(view, now_us), *score_lines(view), *ending]


def compact(view: Mapping[str, Any]) -> str:
    """One line: the card and the scores (`t24 replay`)."""
    card = view.get("card")
    shown = " ".join(str(n) for n in card["numbers"]) if card else "-"
    return say(
        WORDS,
        "screen.compact",
        turned=view.get("turned", 0),
        numbers=shown,
        scores=score_lines(view)[0],
    )


def drawn_card(view: Mapping[str, Any] | None) -> dict[str, Any]:
    """`{"set": n}`: the number of the card on screen, which a claim, an answer or "stumped"
    is for (docs/games/pocket.md); nothing without a card up."""
    card = (view or {}).get("card")
    return {"set": card["number"]} if card else {}


def parse_line(
    text: str, view: Mapping[str, Any] | None = None
) -> tuple[str, dict[str, Any]] | None:
    """The command a typed line sends, or None for an empty line; a claim, an answer or
    "stumped" carries the card of `view`: the view on screen when the line's typing began
    (the caller keeps it), so an answer typed at a card is judged on that card or refused
    `stale_set`, never judged on a card turned up while it was typed."""
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
    if word in ("resume", "resume_game"):
        return "resume_game", {}
    if word in ("end", "end_game"):
        return "end_game", {}
    return "answer", {"expression": line, **drawn_card(view)}
