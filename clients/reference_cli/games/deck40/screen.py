"""A Kortspillet 24 table on screen and the lines a player types, as pure functions.

`render_lines(view)` draws the view the server sends (docs/games/deck40.md): the four cards
face up as playing cards (`7♥`), whose pile each came from, every player's pile size (never
its cards), won cards and points, who called "no solution" or is excluded, and at the end
the result (a tie is shown as a tie). `parse_line(text)` turns a typed line into a command:
`start`, `n` or `n 7H` ("no solution", returning that card), `end` (the director); anything
else is a "24!" with that solution. A call names the set on screen (`set`, the view's): one
that crosses the next deal is refused (`stale_set`), never judged on cards not yet drawn.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SUIT_SIGNS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}
HELP = "type 24! with a solution, e.g. (8-4)*(7-1) · n [card] no solution · start · q quit"


def card_text(card: Mapping[str, Any]) -> str:
    """`A♠`, `10♥`: rank and suit sign."""
    rank = "A" if card["rank"] == 1 else str(card["rank"])
    return f"{rank}{SUIT_SIGNS.get(card['suit'], '?')}"


def board_lines(view: Mapping[str, Any]) -> list[str]:
    """The four cards face up and whose pile each came from, the common pile, who called
    "no solution" and who is out of these cards (R-DECK40-1..5)."""
    names = _names(view)
    lines = []
    if view.get("common_pile"):
        lines.append(f"   common pile: {view['common_pile']}")
    table = view.get("table") or []
    if table:
        shown = "  ".join(
            card_text(card)
            + (f" ({names.get(card['seat'], card['seat'])})" if card["seat"] else "")
            for card in table
        )
        lines.append(f"   table: {shown}")
    elif view.get("phase") == "setup":
        lines.append("   waiting for `start` (any player or the director)")
    if view.get("no_solution"):
        lines.append("   no solution: " + ", ".join(names.get(s, s) for s in view["no_solution"]))
    if view.get("excluded"):
        lines.append(
            "   out of these cards: " + ", ".join(names.get(s, s) for s in view["excluded"])
        )
    return lines


def seat_lines(view: Mapping[str, Any]) -> list[str]:
    """Each player's pile size (never its cards), won cards and points."""
    names, me = _names(view), view.get("you")
    return [
        f"   {names[seat['seat']]}{' (you)' if seat['seat'] == me else ''}: pile {seat['pile']}"
        f" · won {len(seat['won'])} · {seat['score']} points"
        for seat in view.get("seats", [])
    ]


def result_lines(view: Mapping[str, Any]) -> list[str]:
    """The winners (a tie shown as a tie, R-DECK40-6) and why the game ended."""
    result = view.get("result")
    if not result:
        return []
    names = _names(view)
    winners = ", ".join(names.get(s, s) for s in result["winners"])
    return [f"{'tie' if result['tie'] else 'winner'}: {winners} ({result['reason']})"]


def header(view: Mapping[str, Any]) -> str:
    options = view.get("options", {})
    target = options.get("target_points")
    return (
        f"deck40 · {view.get('phase')} · set {view.get('set', 0)} · {options.get('layout')}"
        f" · scoring {options.get('scoring')}" + (f" · to {target} points" if target else "")
    )


def render_lines(view: Mapping[str, Any], now_us: int = 0) -> list[str]:
    """The lines of the screen for a deck40 view (`now_us` unused: deck40 has no timers)."""
    ending = result_lines(view) or [HELP]
    return [header(view), *seat_lines(view), *board_lines(view), *ending]


def compact(view: Mapping[str, Any]) -> str:
    """One line: the table and the points (`t24 replay`)."""
    cards = " ".join(card_text(card) for card in view.get("table") or []) or "-"
    scores = " · ".join(f"{seat} {score}" for seat, score in view.get("scores", {}).items())
    return f"set {view.get('set', 0)}: {cards} · {scores}"


def _names(view: Mapping[str, Any]) -> dict[str, str]:
    return {seat["seat"]: seat["name"] or seat["seat"] for seat in view.get("seats", [])}


def drawn_set(view: Mapping[str, Any] | None) -> dict[str, Any]:
    """`{"set": n}`: the set of the view on screen, which a call answers (docs/games/deck40.md);
    nothing without a view."""
    return {} if view is None or "set" not in view else {"set": view["set"]}


def parse_line(
    text: str, view: Mapping[str, Any] | None = None
) -> tuple[str, dict[str, Any]] | None:
    """The command a typed line sends, or None for an empty line; a call carries the set of
    `view`, the view on screen when the line was sent (`drawn_set`)."""
    line = text.strip()
    if not line:
        return None
    word, _, rest = line.partition(" ")
    if word.lower() in ("start", "start_game") and not rest:
        return "start_game", {}
    if word.lower() in ("end", "end_game") and not rest:
        return "end_game", {}
    if word.lower() in ("n", "none", "no"):
        card = rest.strip().upper()
        return "call_no_solution", ({"returns": card} if card else {}) | drawn_set(view)
    expression = line.removeprefix("24!").strip() or line
    return "call_24", {"expression": expression, **drawn_set(view)}
