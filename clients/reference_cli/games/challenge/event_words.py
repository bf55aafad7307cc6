"""Recorded events in words, for the feed of every view and for `t24 replay`.

What it keeps: one sentence per event type of the 24 Challenge table, citing the rule it
applies (`penalty flag for Bo: no pattern within the time (R-PLAY-4), flag 1`), and a coarse
class per event for colouring (win, flag, refused, table, info). Seats are named as people
call them (the student's name, else the seat id). An event type this client does not know
is shown by its name (docs/protocol.md: clients ignore what they do not know).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clients.reference_cli.games.challenge.hearing import describe_hearing
from clients.reference_cli.games.challenge.words import WORDS
from clients.reference_cli.words import (
    answer_reason,
    names_list,
    say,
    unknown_event,
    view_seat_names,
)


def _count(value: Any) -> int:
    return len(value) if isinstance(value, list) else int(value or 0)


def _code_words(code: Any) -> str:
    """A reason or cause code inside an event in words (`reason.<code>`); a free text (a
    pause's cause as the proctor typed it) as it is."""
    key = f"reason.{code}"
    return say(WORDS, key) if key in WORDS else str(code)


def event_kind(kind: str, data: Mapping[str, Any]) -> str:
    """A coarse class for colouring the feed: win, flag, refused, table or info."""
    if kind == "CardWon" or (kind == "SolutionJudged" and data.get("ok")):
        return "win"
    if kind in ("FlagIssued", "PlayerDisqualified") or (
        kind == "SolutionJudged" and not data.get("ok")
    ):
        return "flag"
    if kind == "TouchRefused":
        return "refused"
    if kind in ("ProtestFiled", "ProtestRuled", "ScoreCardSigned", "ScoreCardReopened"):
        return "table"
    if kind in ("RoundStarted", "RoundEnded", "TablePaused", "TableResumed", "TableCreated"):
        return "table"
    return "info"


def card_label(data: Mapping[str, Any]) -> str:
    """`card SD-02 (play 5)`: the card by its own id, which it keeps when it returns under
    the deck, and the play (the table's count of cards put in play); `a card (play 5)`
    while its id is hidden (a cupped card, R-PLAY-1)."""
    play, card_id = data.get("play"), data.get("card_id")
    key = "card" if card_id is not None else "card.hidden"
    if play is None:
        key = "card.no_play" if card_id is not None else "card.hidden_no_play"
    return say(WORDS, key, card_id=card_id, play=play)


def _ms(microseconds: Any) -> str:
    if isinstance(microseconds, int):
        return say(WORDS, "lag", ms=f"{microseconds / 1000:g}")
    return say(WORDS, "lag.none")


def describe_event(kind: str, data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One event in words (`words.WORDS`, key `event.<type>[.<variant>]`), e.g. `Bo touched
    (2 fingertips)`; an event type this client does not know says so, never by its name."""

    def who(key: str = "seat") -> str:
        seat = data.get(key)
        return names.get(seat, str(seat)) if seat is not None else say(WORDS, "nobody")

    hearing = describe_hearing(kind, data, names)  # R-ROUND-7/8: protests and corrections
    if hearing is not None:
        return hearing
    numbers = data.get("numbers")
    fields: dict[str, Any] = {
        "who": who(),
        "card": card_label(data),
        "numbers": " ".join(map(str, numbers)) if numbers else "",
    }
    key = f"event.{kind}"
    if kind == "TableCreated":
        options = data.get("options", {})
        seats = options.get("seats", []) if isinstance(options, Mapping) else []
        fields["count"] = len(seats)
        fields["names"] = names_list(list(view_seat_names({"seats": seats}).values()))
    elif kind == "RoundStarted":
        fields.update(round=data.get("round", "?"), count=_count(data.get("deck")))
        removed = _count(data.get("removed"))
        if removed:
            text = say(WORDS, key, **fields)
            return f"{text}, {say(WORDS, 'event.RoundStarted.removed', count=removed)}"
    elif kind == "CardPlaced":
        key += ".shown" if numbers else ""
    elif kind == "CardRevealed":
        fields["count"] = data.get("dots") or 0
    elif kind == "CardTouched":
        fields["count"] = data.get("fingertips", 1)
    elif kind == "TouchRefused":
        fields["toucher"] = who("toucher")
        key += ".claimed" if data.get("toucher") is None else ""
    elif kind == "TouchClaimed":
        fields.update(
            arrival=data.get("arrival"),
            lag=_ms(data.get("delay_us")),
            credit=_ms(data.get("credit_us")),
            compensated=data.get("compensated_at"),
        )
    elif kind == "FirstTouchGranted":
        fields.update(grant_orders(data, names))
    elif kind == "FirstTouchOverridden":
        fields["previous"] = who("previous")
    elif kind == "PatternDeclared":
        fields["pattern"] = data.get("pattern")
    elif kind in ("StepsStated", "SolutionFixed"):
        fields["steps"] = "; ".join(data.get("steps", []))
    elif kind == "SolutionJudged":
        key += ".right" if data.get("ok") else ".wrong"
        fields["why"] = data.get("message") or answer_reason(str(data.get("reason")))
    elif kind == "CardWon":
        fields["count"] = data.get("dots", 0)
    elif kind == "FlagIssued":
        fields.update(cause=_code_words(data.get("cause")), flags=data.get("flags", "?"))
    elif kind == "PlayerDisqualified":
        key += ".slap" if data.get("cause") == "slap" else ""
        fields["count"] = data.get("flags", 0)
    elif kind == "CardStumped":
        fields["why"] = _code_words(data.get("reason"))
    elif kind == "StumpedCardsReturned":
        cards = data.get("cards")
        fields["count"] = _count(cards)
        fields["cards"] = ", ".join(map(str, cards)) if isinstance(cards, list) else ""
    elif kind == "TablePaused":
        fields["cause"] = _code_words(data.get("cause", "?"))
    elif kind == "PlayBegan":  # decision 30: the students, the proctor or the director
        by = data.get("by")
        key += f".{by}" if by in ("students", "proctor", "director") else ""
    elif kind == "SeatMarked":
        key += ".absent" if data.get("mark") == "absent" else ".present"
    elif kind == "RoundEnded":
        scores = data.get("scores", {})
        fields["why"] = _code_words(data.get("reason"))
        fields["scores"] = ", ".join(
            say(WORDS, "score", name=names.get(seat, seat), points=points)
            for seat, points in scores.items()
        )
    return say(WORDS, key, **fields) if key in WORDS else unknown_event(kind)


def end_reason_words(reason: Any) -> str:
    """Why a round ended (a view's `end_reason`, RoundEnded's `reason`), in words."""
    return _code_words(reason)


def grant_orders(data: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, str]:
    """The arbitration's two orders (R-PLAY-2, issue 19): by compensated time and by arrival."""

    def name(seat: Any) -> str:
        return names.get(seat, str(seat))

    considered = data.get("considered") or []
    by_time = sorted(considered, key=lambda c: (c.get("compensated_at", 0), c.get("arrival", 0)))
    return {
        "compensated": ", ".join(name(c.get("seat")) for c in by_time),
        "arrival": ", ".join(name(c.get("seat")) for c in considered),
    }
