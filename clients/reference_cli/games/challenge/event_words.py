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


def _count(value: Any) -> int:
    return len(value) if isinstance(value, list) else int(value or 0)


FLAG_CAUSE_WORDS = {
    "no_pattern": "no pattern within the time (R-PLAY-4)",
    "no_solution": "no solution within the time (R-PLAY-5)",
    "incorrect_solution": "incorrect solution (R-PLAY-5)",
    "too_many_fingertips": "more than three fingertips (R-PLAY-3)",
    "touched_before_reveal": "touched before the reveal (R-PLAY-3)",
}
END_REASON_WORDS = {
    "deck_empty": "the deck is played out",
    "all_disqualified": "every student is disqualified",
    "ended_by_proctor": "the proctor ended it",
}
STUMPED_WORDS = {"no_touch": "nobody touched it in time", "all_stumped": "everyone is stumped"}


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


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def card_label(data: Mapping[str, Any]) -> str:
    """`card SD-02 (play 5)`: the card by its own id, which it keeps when it returns under
    the deck, and the play (the table's count of cards put in play); `a card (play 5)`
    while its id is hidden (a cupped card, R-PLAY-1)."""
    play, card_id = data.get("play"), data.get("card_id")
    name = f"card {card_id}" if card_id is not None else "a card"
    return name + (f" (play {play})" if play is not None else "")


def _ms(microseconds: Any) -> str:
    return f"{microseconds / 1000:g} ms" if isinstance(microseconds, int) else "none (stale)"


def describe_claim(data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """A compensated touch (R-PLAY-2, issue 19): its timing, so a replay shows the decision."""
    seat = data.get("seat")
    who = names.get(seat, str(seat))
    return (
        f"{who} touched: arrived {data.get('arrival')}, lag {_ms(data.get('delay_us'))}, "
        f"credit {_ms(data.get('credit_us'))}, compensated {data.get('compensated_at')} "
        "(R-PLAY-2)"
    )


def describe_grant(data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """The arbitration's result with both orders: by compensated time and by arrival."""

    def name(seat: Any) -> str:
        return names.get(seat, str(seat))

    considered = data.get("considered") or []
    by_time = sorted(considered, key=lambda c: (c.get("compensated_at", 0), c.get("arrival", 0)))
    by_arrival = ", ".join(name(c.get("seat")) for c in considered)
    compensated = ", ".join(name(c.get("seat")) for c in by_time)
    return (
        f"{name(data.get('seat'))} touched first, lag compensated (R-PLAY-2): "
        f"compensated order {compensated}; arrival order {by_arrival}"
    )


def describe_event(kind: str, data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One event in words, e.g. `Bo touched (2 fingertips)`; unknown types by name."""

    def who(key: str = "seat") -> str:
        seat = data.get(key)
        return names.get(seat, str(seat)) if seat is not None else "nobody"

    hearing = describe_hearing(kind, data, names)  # R-ROUND-7/8: protests and corrections
    if hearing is not None:
        return hearing
    numbers = data.get("numbers")
    shown = " ".join(map(str, numbers)) if numbers else ""
    if kind == "TableCreated":
        options = data.get("options", {})
        seats = options.get("seats", []) if isinstance(options, Mapping) else []
        return f"table created ({data.get('game', '?')}, {_plural(len(seats), 'seat')})"
    if kind == "RoundStarted":
        cards = _plural(_count(data.get("deck")), "card")
        text = f"round {data.get('round', '?')} started: {cards}"
        removed = _count(data.get("removed"))
        if removed:
            text += f", {_plural(removed, 'two-dot card')} removed (R-DECK-4)"
        return text
    if kind == "CardPlaced":
        hidden = f" ({shown}, hidden from players)" if shown else ""
        return f"{card_label(data)} placed, cupped{hidden}"
    if kind == "CardRevealed":
        dots = data.get("dots")
        worth = f"  ({_plural(dots, 'dot')})" if dots else ""
        return f"{card_label(data)} revealed: {shown}{worth}"
    if kind == "CardTouched":
        return f"{who()} touched ({_plural(data.get('fingertips', 1), 'fingertip')})"
    if kind == "TouchRefused":
        return f"{who()} touched too, but {who('toucher')} was first (R-PLAY-2)"
    if kind == "TouchClaimed":
        return describe_claim(data, names)
    if kind == "FirstTouchGranted":
        return describe_grant(data, names)
    if kind == "FirstTouchOverridden":
        return f"ruling: {who()} touched first, not {who('previous')} (R-PLAY-2)"
    if kind == "PatternDeclared":
        return f"{who()} declared the pattern {data.get('pattern')}"
    if kind == "StepsStated":
        return f"{who()} stated: " + "; ".join(data.get("steps", []))
    if kind == "SolutionFixed":
        return f"{who()} fixed the solution: " + "; ".join(data.get("steps", []))
    if kind == "SolutionJudged":
        if data.get("ok"):
            return f"{who()}'s solution is right"
        return f"{who()}'s solution is wrong: {data.get('message') or data.get('reason')}"
    if kind == "StumpedDeclared":
        return f"{who()} is stumped"
    if kind == "CardWon":
        return f"{who()} won {card_label(data)} (+{data.get('dots', 0)})"
    if kind == "FlagIssued":
        cause = FLAG_CAUSE_WORDS.get(data.get("cause"), str(data.get("cause")))
        return f"penalty flag for {who()}: {cause}, flag {data.get('flags', '?')}"
    if kind == "PlayerDisqualified":
        if data.get("cause") == "slap":
            return f"{who()} is disqualified: a slap with the whole hand (R-PLAY-3)"
        return f"{who()} is disqualified ({_plural(data.get('flags', 0), 'flag')}, R-FLAG-3)"
    if kind == "CardReturnedToDeck":
        return f"{card_label(data)} goes back under the deck (R-FLAG-2)"
    if kind == "CardStumped":
        why = STUMPED_WORDS.get(data.get("reason"), str(data.get("reason")))
        return f"{card_label(data)} set aside as stumped: {why} (R-PLAY-7)"
    if kind == "StumpedCardsReturned":
        return f"{_plural(_count(data.get('cards')), 'stumped card')} back in play (R-PLAY-7)"
    if kind == "TablePaused":
        return f"table paused ({data.get('cause', '?')})"
    if kind == "TableResumed":
        return "table resumed: the windows start again in full"
    if kind == "RoundEnded":
        why = END_REASON_WORDS.get(data.get("reason"), str(data.get("reason")))
        scores = data.get("scores", {})
        board = ", ".join(f"{names.get(seat, seat)} {points}" for seat, points in scores.items())
        return f"round over: {why}. Scores: {board}"
    return kind
