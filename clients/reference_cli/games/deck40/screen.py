"""A Kortspillet 24 table on screen and the lines a player types, as pure functions.

`render_lines(view)` draws the view the server sends (docs/games/deck40.md): the four cards
face up as playing cards (`7♥`), whose pile each came from, every player's pile size (never
its cards), won cards and points, who called "no solution" or is excluded, and at the end
the result (a tie is shown as a tie). `parse_line(text)` turns a typed line into a command:
`start`, `n` or `n 7H` ("no solution", returning that card), `end` (the director); anything
else is a "24!" with that solution. A call names the set on screen (`set`, the view's): one
that crosses the next deal is refused (`stale_set`), never judged on cards not yet drawn.
Every word comes from the game's table (`words.WORDS`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clients.reference_cli.games.deck40.words import WORDS
from clients.reference_cli.words import name_in, names_list, say, view_seat_names

SUIT_SIGNS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}
LETTER_SIGNS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def HELP() -> str:  # noqa: N802 - the help line, in the language spoken when it is shown
    return say(WORDS, "screen.help")


def card_text(card: Mapping[str, Any]) -> str:
    """`A♠`, `10♥`: rank and suit sign."""
    rank = "A" if card["rank"] == 1 else str(card["rank"])
    return f"{rank}{SUIT_SIGNS.get(card['suit'], '?')}"


def name_text(name: str) -> str:
    """A card's name as the server records it (`10D`, `AS`) -> `10♦`, `A♠`."""
    return name[:-1] + LETTER_SIGNS.get(name[-1:], name[-1:])


def _say(key: str, **fields: Any) -> str:
    return say(WORDS, key, **fields)


def _label(kind: str, code: Any) -> str:
    """A phase, layout or end reason in words (`screen.<kind>.<code>`); an unknown code as
    it is (a newer server's)."""
    key = f"screen.{kind}.{code}"
    return _say(key) if key in WORDS else str(code)


def board_lines(view: Mapping[str, Any]) -> list[str]:
    """The four cards face up and whose pile each came from, the common pile, who called
    "no solution" and who is out of these cards (R-DECK40-1..5)."""
    names = view_seat_names(view)
    lines = []
    if view.get("common_pile"):
        lines.append("   " + _say("screen.common_pile", count=view["common_pile"]))
    table = view.get("table") or []
    if table:
        shown = "  ".join(
            _say("screen.card_from", card=card_text(card), who=name_in(names, card["seat"]))
            if card["seat"]
            else card_text(card)
            for card in table
        )
        lines.append("   " + _say("screen.table", cards=shown))
    elif view.get("phase") == "setup":
        lines.append("   " + _say("screen.waiting"))
    if view.get("no_solution"):
        called = names_list([name_in(names, s) for s in view["no_solution"]])
        lines.append("   " + _say("screen.no_solution", names=called))
    if view.get("excluded"):
        out = names_list([name_in(names, s) for s in view["excluded"]])
        lines.append("   " + _say("screen.excluded", names=out))
    return lines


def seat_lines(view: Mapping[str, Any]) -> list[str]:
    """Each player's pile size (never its cards), won cards and points."""
    names, me = view_seat_names(view), view.get("you")
    lines = []
    for seat in view.get("seats", []):
        name = names[seat["seat"]]
        who = _say("screen.you", name=name) if seat["seat"] == me else name
        if view.get("phase") == "setup":  # no pile is dealt yet: "pile 0" would mislead
            lines.append("   " + _say("screen.seat.setup", who=who))
            continue
        fields = {"who": who, "pile": seat["pile"], "won": len(seat["won"]), "count": seat["score"]}
        lines.append("   " + _say("screen.seat", **fields))
    return lines


def result_lines(view: Mapping[str, Any]) -> list[str]:
    """The winners (a tie shown as a tie, R-DECK40-6) and why the game ended."""
    result = view.get("result")
    if not result:
        return []
    names = view_seat_names(view)
    winners = names_list([name_in(names, s) for s in result["winners"]])
    key = "screen.tie" if result["tie"] else "screen.winner"
    return [_say(key, names=winners, why=_label("ended", result["reason"]))]


def header(view: Mapping[str, Any]) -> str:
    """`deck40 · playing · set 3 · two cards from each pile · scoring simple · to 10 points`."""
    options = view.get("options", {})
    parts = [_say("screen.title"), _label("phase", view.get("phase"))]
    if view.get("set"):
        parts.append(_say("screen.set", set=view["set"]))
    parts.append(_label("layout", options.get("layout")))
    parts.append(_say("screen.scoring", scoring=options.get("scoring")))
    if options.get("target_points"):
        parts.append(_say("screen.target", target=options["target_points"]))
    return " · ".join(parts)


def render_lines(view: Mapping[str, Any], now_us: int = 0) -> list[str]:
    """The lines of the screen for a deck40 view (`now_us` unused: deck40 has no timers)."""
    ending = result_lines(view) or [HELP()]
    return [header(view), *seat_lines(view), *board_lines(view), *ending]


def compact(view: Mapping[str, Any]) -> str:
    """One line: the table and the points (`t24 replay`)."""
    names = view_seat_names(view)
    cards = " ".join(card_text(card) for card in view.get("table") or []) or "-"
    scores = " · ".join(
        f"{name_in(names, seat)} {score}" for seat, score in view.get("scores", {}).items()
    )
    return _say("screen.compact", set=view.get("set", 0), cards=cards, scores=scores)


def drawn_set(view: Mapping[str, Any] | None) -> dict[str, Any]:
    """`{"set": n}`: the set of the view on screen, which a call answers (docs/games/deck40.md);
    nothing without a view."""
    return {} if view is None or "set" not in view else {"set": view["set"]}


def parse_line(
    text: str, view: Mapping[str, Any] | None = None
) -> tuple[str, dict[str, Any]] | None:
    """The command a typed line sends, or None for an empty line; a call carries the set of
    `view`: the view on screen when the line's typing began (the caller keeps it), so a call
    typed at one set is judged on it or refused `stale_set`, never judged on the next."""
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
