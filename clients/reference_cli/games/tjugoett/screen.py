"""How a Tjugoett table looks in the reference client: the hands, the tally, the feed's words.

Pure functions of the plain data the server sends (its `view` for this viewer, its pushed
events as this viewer may see them; the generic screen, clients/reference_cli/render.py,
places the lines), so what they show is exactly what the server allowed: a hidden card
arrives as null and is drawn as `??`. No rule of the game is computed here: sums, whose turn
it is and which moves are open all come from the view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from clients.reference_cli.styling import Style

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
REASONS = {
    "twenty_one": "21",
    "five_cards": "five cards under 21",
    "bust": "bust",
    "dealer_twenty_one": "the dealer has 21",
    "dealer_five_cards": "the dealer has five cards under 21",
    "dealer_bust": "the dealer is bust",
    "dealer_at_or_above": "the dealer stood at or above",
    "dealer_below": "the dealer stood below",
}
PHASES = {
    "between_rounds": "between rounds",
    "player_turn": "a player's turn",
    "dealer_turn": "the dealer's turn",
    "table_over": "table over",
}
DEADLINE_WORDS = {
    "dealer_play": "the dealer moves in",
    "turn_deadline": "time to move:",
    "start_round": "next round in",
}


def card_text(card: str | None) -> str:
    """`10H` -> `10♥`; a hidden card (null) -> `??`."""
    if not card:
        return "??"
    return card[:-1] + SUIT_SYMBOLS.get(card[-1], "?")


def hand_text(cards: Sequence[str] | None, total: int | None, count: int) -> str:
    """A hand as its viewer may see it: the cards and the sum, or only how many cards."""
    if cards is None:
        return " ".join("??" for _ in range(count)) or "-"
    if not cards:
        return "-"
    shown = " ".join(card_text(card) for card in cards)
    return f"{shown} = {total}" if total is not None else shown


def header_words(view: Mapping[str, Any]) -> list[str]:
    """`tjugoett`, the round, the phase (the header of every screen)."""
    return ["tjugoett", f"round {view.get('round', 0)}", PHASES.get(view.get("phase", ""), "")]


def seat_names(view: Mapping[str, Any]) -> dict[str, str]:
    """Seat id -> a name for people (the seat id when the table gave none); the dealer too."""
    named = {seat["seat"]: seat["name"] or seat["seat"] for seat in view.get("seats", [])}
    dealer = view.get("dealer") or {}
    if dealer.get("seat"):
        named[dealer["seat"]] = dealer.get("name") or "the dealer"
    named["dealer"] = "the dealer"
    return named


def seat_label(view: Mapping[str, Any], seat_id: Any) -> str:
    """`Ada (s1)`; the person dealer's seat says so."""
    name = seat_names(view).get(seat_id, str(seat_id))
    dealer = (view.get("dealer") or {}).get("seat")
    return f"{name} ({seat_id}, the dealer)" if seat_id == dealer else f"{name} ({seat_id})"


def board_lines(view: Mapping[str, Any], style: Style, role: str = "") -> list[str]:
    """The dealer's hand, then each seat's as the viewer may see it, then the piles."""
    dealer = view["dealer"]
    who = dealer["name"] if dealer["seat"] else f"the server, stands at {dealer['stands_at']}"
    cards = dealer["cards"]
    lines = [f"Dealer ({who}): {hand_text(cards, dealer['sum'], len(cards))}"]
    results = {result["seat"]: result for result in view.get("results", [])}
    for seat in view["seats"]:
        playing = seat["facing_dealer"] and view["phase"] in ("player_turn", "dealer_turn")
        marker = "▶" if playing else " "
        you = "  (you)" if seat["seat"] == view.get("you") else ""
        if seat["seat"] in results:
            result = results[seat["seat"]]
            won = result["winner"] == "player"
            hand = hand_text(result["player_cards"], result["player_sum"], 0)
            words = f"{'won' if won else 'lost'}: {REASONS.get(result['reason'], result['reason'])}"
            text = f"{hand}  {style.green(words) if won else style.red(words)}"
        else:
            text = hand_text(seat["cards"], seat["sum"], seat["count"])
        lines.append(f" {marker} {seat['seat']:>4} {seat['name'] or '':<12} {text}{you}")
    lines.append(f"draw pile {view['draw_pile']} · discard pile {len(view['discard_pile'])}")
    return lines


def tally_line(view: Mapping[str, Any]) -> str:
    """`tally (won-lost): Ada 2-1  Bo 0-3  the dealer 4-2`."""
    named = seat_names(view)
    parts = [
        f"{named.get(seat, seat)} {entry['won']}-{entry['lost']}"
        for seat, entry in view.get("tally", {}).items()
    ]
    return "tally (won-lost): " + "  ".join(parts)


def side_lines(view: Mapping[str, Any], me: Any, style: Style, presence: Any) -> list[str]:
    """Beside the board: the tally across rounds."""
    return [tally_line(view)]


def results_lines(view: Mapping[str, Any], style: Style) -> list[str]:
    """What is printed when a finished table's screen is left: the rounds and the tally."""
    return [f"table over after {view.get('round', 0)} round(s)", tally_line(view)]


def compact(view: Mapping[str, Any], style: Style) -> list[str]:
    """One line per seat under each event of `t24 replay`."""
    named = seat_names(view)
    dealer = view["dealer"]
    parts = [f"dealer {hand_text(dealer['cards'], dealer['sum'], len(dealer['cards']))}"]
    for seat in view.get("seats", []):
        hand = hand_text(seat["cards"], seat["sum"], seat["count"])
        parts.append(f"{named.get(seat['seat'], seat['seat'])} {hand}")
    return ["    " + style.dim(" · ".join(parts))]


def event_kind(kind: str, data: Mapping[str, Any]) -> str:
    """A coarse class for colouring the feed: win, flag, table or info."""
    if kind == "TurnSettled":
        return "win" if data.get("winner") == "player" else "flag"
    if kind == "DrawFailed":
        return "flag"
    if kind in ("RoundStarted", "RoundEnded", "TableEnded", "TableCreated"):
        return "table"
    return "info"


def describe_event(kind: str, data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One event in words, e.g. `Ada gets 8♣ (16)` or `Bo gets a card (2 cards)`."""
    seat = names.get(data.get("seat", ""), str(data.get("seat", "")))
    if kind == "TableCreated":
        seats = (data.get("options") or {}).get("seats", [])
        return f"table created (tjugoett, {len(seats)} players)"
    if kind == "RoundStarted":
        return f"round {data['round']}: the deck is shuffled; one card to each player"
    if kind == "TurnStarted":
        return f"{seat} faces the dealer"
    if kind == "CardDealt":
        if data.get("card") is None:
            count = data["cards"]
            return f"{seat} gets a card ({count} card{'' if count == 1 else 's'})"
        return f"{seat} gets {card_text(data['card'])} ({data['sum']})"
    if kind == "PlayerStood":
        total = "" if data.get("sum") is None else f" at {data['sum']}"
        return f"{seat} stands{total}"
    if kind == "DealerCardDealt":
        return f"the dealer draws {card_text(data['card'])} ({data['sum']})"
    if kind == "DealerStood":
        return f"the dealer stands at {data['sum']}"
    if kind == "TurnSettled":
        outcome = "wins" if data["winner"] == "player" else "loses"
        hand = hand_text(data["player_cards"], data["player_sum"], 0)
        return f"{seat} {outcome} ({REASONS.get(data['reason'], data['reason'])}): {hand}"
    if kind == "CardsDiscarded":
        holder = names.get(data["holder"], data["holder"])
        return f"{holder}'s cards go to the discard pile"
    if kind == "DiscardsReshuffled":
        return f"one card left: {data['added']} discards shuffled into the draw pile"
    if kind == "DrawFailed":
        return f"error: {data['message']}"
    if kind == "RoundEnded":
        return f"round {data['round']} over ({data['reason'].replace('_', ' ')})"
    if kind == "TableEnded":
        return f"the table is over after {data['rounds']} round(s)"
    return kind
