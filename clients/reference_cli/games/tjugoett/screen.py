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

from clients.reference_cli.games.tjugoett.words import WORDS
from clients.reference_cli.styling import Style
from clients.reference_cli.words import name_in, names_list, say, unknown_event, view_seat_names

SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
DEADLINE_WORDS = {
    name: say(WORDS, f"deadline.{name}") for name in ("dealer_play", "turn_deadline", "start_round")
}


def _label(kind: str, code: Any) -> str:
    """A phase in words (`screen.<kind>.<code>`); an unknown code (a newer server's) as is."""
    key = f"screen.{kind}.{code}"
    return say(WORDS, key) if key in WORDS else str(code)


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
    return [
        say(WORDS, "screen.title"),
        say(WORDS, "screen.round", round=view.get("round", 0)),
        _label("phase", view.get("phase", "")),
    ]


def seat_names(view: Mapping[str, Any]) -> dict[str, str]:
    """Seat id -> what people call it (words.py `view_seat_names`: the person dealer among
    them, never an id); a dealer without a name, and the server dealer, as "the dealer"."""
    named = view_seat_names(view)
    dealer = view.get("dealer") or {}
    if dealer.get("seat") and not dealer.get("name"):
        named[dealer["seat"]] = say(WORDS, "screen.the_dealer")
    named["dealer"] = say(WORDS, "screen.the_dealer")
    return named


def seat_label(view: Mapping[str, Any], seat_id: Any) -> str:
    """`Ada`; the person dealer's seat says so: `Dora (the dealer)`."""
    name = name_in(seat_names(view), seat_id)
    if seat_id == (view.get("dealer") or {}).get("seat"):
        return say(WORDS, "screen.dealer_label", name=name)
    return name


def settled_why(result: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """Why a turn was won or lost, in a whole sentence: `the dealer stood at 18, at or above
    17` (a `TurnSettled` event, or a result of the view: the same fields)."""
    key = f"reason.{result.get('reason')}"
    if key not in WORDS:
        return str(result.get("reason"))
    seat = result.get("seat")
    return say(
        WORDS,
        key,
        who=name_in(names, seat),
        player_sum=result.get("player_sum"),
        dealer_sum=result.get("dealer_sum"),
    )


def board_lines(view: Mapping[str, Any], style: Style, role: str = "") -> list[str]:
    """The dealer's hand, then each seat's as the viewer may see it, then the piles."""
    named = seat_names(view)
    dealer = view["dealer"]
    cards = dealer["cards"]
    hand = hand_text(cards, dealer["sum"], len(cards))
    if dealer["seat"]:
        lines = [say(WORDS, "screen.dealer.person", name=dealer["name"], hand=hand)]
    else:
        lines = [say(WORDS, "screen.dealer.server", stands_at=dealer["stands_at"], hand=hand)]
    results = {result["seat"]: result for result in view.get("results", [])}
    for seat in view["seats"]:
        playing = seat["facing_dealer"] and view["phase"] in ("player_turn", "dealer_turn")
        marker = "▶" if playing else " "
        you = "  " + say(WORDS, "screen.you") if seat["seat"] == view.get("you") else ""
        if seat["seat"] in results:
            result = results[seat["seat"]]
            won = result["winner"] == "player"
            hand = hand_text(result["player_cards"], result["player_sum"], 0)
            words = say(
                WORDS, "screen.won" if won else "screen.lost", why=settled_why(result, named)
            )
            text = f"{hand}  {style.green(words) if won else style.red(words)}"
        else:
            text = hand_text(seat["cards"], seat["sum"], seat["count"])
        lines.append(f" {marker} {name_in(named, seat['seat']):<16} {text}{you}")
    lines.append(
        say(WORDS, "screen.piles", draw=view["draw_pile"], count=len(view["discard_pile"]))
    )
    return lines


def tally_line(view: Mapping[str, Any]) -> str:
    """`tally (won-lost): Ada 2-1  Bo 0-3  the dealer 4-2`."""
    named = seat_names(view)
    parts = [
        f"{name_in(named, seat)} {entry['won']}-{entry['lost']}"
        for seat, entry in view.get("tally", {}).items()
    ]
    return say(WORDS, "screen.tally", tally="  ".join(parts))


def side_lines(view: Mapping[str, Any], me: Any, style: Style, presence: Any) -> list[str]:
    """Beside the board: the tally across rounds."""
    return [tally_line(view)]


def results_lines(view: Mapping[str, Any], style: Style) -> list[str]:
    """What is printed when a finished table's screen is left: the rounds and the tally."""
    return [say(WORDS, "screen.over", count=view.get("round", 0)), tally_line(view)]


def compact(view: Mapping[str, Any], style: Style) -> list[str]:
    """One line per seat under each event of `t24 replay`."""
    named = seat_names(view)
    dealer = view["dealer"]
    dealer_hand = hand_text(dealer["cards"], dealer["sum"], len(dealer["cards"]))
    parts = [say(WORDS, "screen.compact.dealer", hand=dealer_hand)]
    for seat in view.get("seats", []):
        hand = hand_text(seat["cards"], seat["sum"], seat["count"])
        parts.append(f"{name_in(named, seat['seat'])} {hand}")
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
    """One event in words (`words.WORDS`, key `event.<type>[.<variant>]`), e.g. `Ada gets 8♣
    (16)` or `Bo gets a card face down (2 cards)`; the rule it applies is not cited (the
    events of this game carry theirs, the docs list them)."""
    seat = data.get("seat")
    fields: dict[str, Any] = {"who": name_in(names, seat), "sum": data.get("sum")}
    key = f"event.{kind}"
    if kind == "TableCreated":
        seats = (data.get("options") or {}).get("seats", [])
        fields["count"] = len(seats)
        fields["names"] = names_list(list(view_seat_names({"seats": seats}).values()))
    elif kind == "RoundStarted":
        fields["round"] = data["round"]
    elif kind == "CardDealt":
        if data.get("card") is None:
            key += ".hidden"
            fields["count"] = data["cards"]
        else:
            fields["card"] = card_text(data["card"])
    elif kind == "PlayerStood":
        timeout = data.get("cause") == "turn_seconds"
        hidden = data.get("sum") is None
        key += {(False, False): "", (False, True): ".hidden", (True, False): ".timeout"}.get(
            (timeout, hidden), ".timeout_hidden"
        )
    elif kind == "DealerCardDealt":
        fields["card"] = card_text(data["card"])
    elif kind == "TurnSettled":
        key += ".won" if data["winner"] == "player" else ".lost"
        fields["why"] = settled_why(data, names)
        fields["hand"] = hand_text(data["player_cards"], data["player_sum"], 0)
    elif kind == "CardsDiscarded":
        fields["who"] = name_in(names, data["holder"])
    elif kind == "DiscardsReshuffled":
        fields["count"] = data["added"]
    elif kind == "DrawFailed":
        fields["who"] = name_in(names, data["for_whom"])
    elif kind == "RoundEnded":
        key += f".{data['reason']}"
        fields["round"] = data["round"]
    elif kind == "TableEnded":
        fields["count"] = data["rounds"]
    return say(WORDS, key, **fields) if key in WORDS else unknown_event(kind)
