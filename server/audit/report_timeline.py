"""A table's events as the officials' report shows them: in words, grouped by card.

What it keeps: `timeline(events, names)`, every event of a 24 Challenge table's stream as one
`Line` (its seq, its time, its sentence from server/audit/report_events.py, a class for the
margin's colour), grouped by card from its placing (`Group`: the card's id, its numbers each
on its own, its dots), with the events before the first card and after the round in groups
of their own. Times within a card are seconds from its reveal (R-PLAY-4/5/7 count from
there), elsewhere the clock time (UTC) of the event.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from server.audit.report_events import Names, TableContext, numbers_text, table_sentence
from server.audit.report_words import CHALLENGE, decimal, say

SECOND = 1_000_000

# The css class of a timeline line (colour and margin mark; the words say it all anyway).
LINE_KINDS = {
    "CardWon": "win",
    "FlagIssued": "flag",
    "PlayerDisqualified": "dq",
    "TouchRefused": "refused",
    "ProtestFiled": "protest",
    "ProtestRuled": "protest",
    "FlagRescinded": "correction",
    "PlayerReinstated": "correction",
    "CardAwarded": "correction",
    "CardAwardRevoked": "correction",
    "ScoreAdjusted": "correction",
    "ScoreCardSigned": "signed",
    "ScoreCardReopened": "protest",
}
CORRECTIONS = frozenset(k for k, v in LINE_KINDS.items() if v == "correction")


def clock(at: Any) -> str:
    """An event time (microseconds, UTC) as `09:14:03`."""
    if not isinstance(at, int):
        return ""
    return datetime.fromtimestamp(at / SECOND, UTC).strftime("%H:%M:%S")


def event_time(event: Any) -> int:
    at = event.data.get("at")
    return at if isinstance(at, int) else int(event.at)


@dataclass
class Line:
    """One event of a timeline: its seq, its time, its sentence."""

    seq: int
    time: str
    text: str
    kind: str
    rule: str


@dataclass
class Group:
    """The events of one card (from its placing), or of the start or the end of the round."""

    kind: str  # "start", "card", "end"
    play: Any = None
    card: Any = None
    numbers: tuple[str, ...] = ()
    dots: Any = None
    at: str = ""
    lines: list[Line] = field(default_factory=list)


def _reveals(events: Sequence[Any]) -> dict[int, int]:
    """Index of each `CardPlaced` -> the time of its card's reveal (when it was revealed)."""
    out: dict[int, int] = {}
    placed: int | None = None
    for index, event in enumerate(events):
        if event.type == "CardPlaced":
            placed = index
        elif event.type == "CardRevealed" and placed is not None:
            out[placed] = event_time(event)
            placed = None
    return out


def timeline(events: Sequence[Any], names: Names) -> list[Group]:
    """A table's events in words, grouped by card; times from the card's reveal."""
    reveals = _reveals(events)
    groups = [Group("start")]
    ctx = TableContext(names)
    revealed_at: int | None = None
    for index, event in enumerate(events):
        data = event.data
        if event.type == "RoundStarted":
            options = data.get("options") or {}
            ctx = TableContext(names, options.get("flag_limit"), None)
        if event.type == "CardPlaced":
            revealed_at = reveals.get(index)
            groups.append(
                Group(
                    "card",
                    play=data.get("play"),
                    card=data.get("card_id"),
                    numbers=tuple(numbers_text(data.get("numbers")).split()),
                    dots=data.get("dots"),
                    at=clock(event_time(event)),
                )
            )
        elif event.type == "RoundEnded":
            revealed_at = None
            groups.append(Group("end", at=clock(event_time(event))))
        ctx = TableContext(names, ctx.flag_limit, revealed_at)
        at = event_time(event)
        if revealed_at is not None:
            seconds = decimal((at - revealed_at) / SECOND, "+0.000;-0.000")
            time = say(CHALLENGE, "from_reveal", seconds=seconds)
        else:
            time = clock(at)
        groups[-1].lines.append(
            Line(
                seq=event.seq,
                time=time,
                text=table_sentence(event.type, data, ctx),
                kind=LINE_KINDS.get(event.type, "info"),
                rule=str(data.get("rule") or ""),
            )
        )
    return [group for group in groups if group.lines]
