"""What `t24 tjugoett` prints: the table drawn from the server's view, and one line per event.

Pure functions of the plain data the server sends (its `view` for this viewer, its pushed
events as this viewer may see them), so what they show is exactly what the server allowed:
a hidden card arrives as null and is drawn as `??`. No rule of the game is computed here:
sums, whose turn it is and which moves are open all come from the view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
# What each key does, by the command it sends (the view's `your_commands` says which apply).
KEYS = {
    "draw_card": ("d", "draw a card"),
    "stand": ("s", "stand"),
    "dealer_draw": ("d", "draw for the dealer"),
    "dealer_stand": ("s", "stand for the dealer"),
    "start_round": ("n", "start the next round"),
    "end_table": ("e", "end the table"),
}
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


def names(view: Mapping[str, Any]) -> dict[str, str]:
    """Seat id -> a name for people (the seat id when the table gave none)."""
    named = {seat["seat"]: seat["name"] or seat["seat"] for seat in view.get("seats", [])}
    named["dealer"] = "the dealer"
    return named


def screen_lines(view: Mapping[str, Any], table: str) -> list[str]:
    """The whole table as this viewer sees it, one line per row."""
    dealer = view["dealer"]
    who = dealer["name"] if dealer["seat"] else f"server, stands at {dealer['stands_at']}"
    lines = [
        f"Tjugoett · table {table} · round {view['round']} · {PHASES.get(view['phase'], '')}",
        f"Dealer ({who}): {hand_text(dealer['cards'], dealer['sum'], len(dealer['cards']))}",
    ]
    results = {result["seat"]: result for result in view.get("results", [])}
    for seat in view["seats"]:
        marker = "▶" if seat["facing_dealer"] and view["phase"] != "between_rounds" else " "
        you = "  (you)" if seat["seat"] == view.get("you") else ""
        if seat["seat"] in results:
            result = results[seat["seat"]]
            outcome = "won" if result["winner"] == "player" else "lost"
            hand = hand_text(result["player_cards"], result["player_sum"], 0)
            text = f"{hand}  {outcome}: {REASONS.get(result['reason'], result['reason'])}"
        else:
            text = hand_text(seat["cards"], seat["sum"], seat["count"])
        lines.append(f" {marker} {seat['seat']:>4} {seat['name'] or '':<12} {text}{you}")
    lines.append(f"Draw pile {view['draw_pile']} · discard pile {len(view['discard_pile'])}")
    named = names(view)
    tally = "  ".join(
        f"{named.get(seat, seat)} {entry['won']}-{entry['lost']}"
        for seat, entry in view["tally"].items()
    )
    lines.append(f"Tally (won-lost): {tally}")
    keys = [KEYS[name] for name in view.get("your_commands", []) if name in KEYS]
    if keys:
        lines.append(
            "Your keys: " + ", ".join(f"{key} = {what}" for key, what in keys) + ", q = quit"
        )
    else:
        lines.append("q = quit")
    return lines


def event_line(event_type: str, data: Mapping[str, Any], named: Mapping[str, str]) -> str | None:
    """One event in words (None for the events the screen shows well enough by itself)."""
    seat = named.get(data.get("seat", ""), data.get("seat", ""))
    if event_type == "RoundStarted":
        return f"round {data['round']}: the deck is shuffled; one card to each player"
    if event_type == "TurnStarted":
        return f"{seat} faces the dealer"
    if event_type == "CardDealt":
        if data.get("card") is None:
            count = data["cards"]
            return f"{seat} gets a card ({count} card{'' if count == 1 else 's'})"
        return f"{seat} gets {card_text(data['card'])} ({data['sum']})"
    if event_type == "PlayerStood":
        total = "" if data.get("sum") is None else f" at {data['sum']}"
        return f"{seat} stands{total}"
    if event_type == "DealerCardDealt":
        return f"the dealer draws {card_text(data['card'])} ({data['sum']})"
    if event_type == "DealerStood":
        return f"the dealer stands at {data['sum']}"
    if event_type == "TurnSettled":
        outcome = "wins" if data["winner"] == "player" else "loses"
        hand = hand_text(data["player_cards"], data["player_sum"], 0)
        return f"{seat} {outcome} ({REASONS.get(data['reason'], data['reason'])}): {hand}"
    if event_type == "DiscardsReshuffled":
        return f"one card left: {data['added']} discards shuffled into the draw pile"
    if event_type == "DrawFailed":
        return f"error: {data['message']}"
    if event_type == "RoundEnded":
        return f"round {data['round']} over ({data['reason'].replace('_', ' ')})"
    if event_type == "TableEnded":
        return f"the table is over after {data['rounds']} round(s)"
    return None
