"""A Kortspillet 24 table on screen and the lines a player types, as pure functions.

`render_lines(view)` draws the view the server sends (docs/games/deck40.md): the four cards
face up as playing cards (`7♥`), whose pile each came from, every player's pile size (never
its cards), won cards and points, who called "no solution" or is excluded, and at the end
the result (a tie is shown as a tie). `parse_line(text)` turns a typed line into a command:
`start`, `n` or `n 7H` ("no solution", returning that card), `end` (the director); anything
else is a "24!" with that solution.
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


def render_lines(view: Mapping[str, Any]) -> list[str]:
    """The lines of the screen for a deck40 view."""
    options = view.get("options", {})
    names = {seat["seat"]: seat["name"] or seat["seat"] for seat in view.get("seats", [])}
    me = view.get("you")
    target = options.get("target_points")
    lines = [
        f"deck40 · {view.get('phase')} · set {view.get('set', 0)} · {options.get('layout')}"
        f" · scoring {options.get('scoring')}" + (f" · to {target} points" if target else "")
    ]
    for seat in view.get("seats", []):
        you = " (you)" if seat["seat"] == me else ""
        lines.append(
            f"   {names[seat['seat']]}{you}: pile {seat['pile']} · won {len(seat['won'])}"
            f" · {seat['score']} points"
        )
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
    if view.get("no_solution"):
        lines.append("   no solution: " + ", ".join(names.get(s, s) for s in view["no_solution"]))
    if view.get("excluded"):
        lines.append(
            "   out of these cards: " + ", ".join(names.get(s, s) for s in view["excluded"])
        )
    result = view.get("result")
    if result:
        winners = ", ".join(names.get(s, s) for s in result["winners"])
        lines.append(f"{'tie' if result['tie'] else 'winner'}: {winners} ({result['reason']})")
    else:
        lines.append(HELP)
    return lines


def parse_line(text: str) -> tuple[str, dict[str, Any]] | None:
    """The command a typed line sends, or None for an empty line."""
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
        return "call_no_solution", ({"returns": card} if card else {})
    return "call_24", {"expression": line.removeprefix("24!").strip() or line}
