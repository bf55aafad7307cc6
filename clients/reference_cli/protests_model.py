"""The client's copy of a table's protests, rulings, corrections and score card (R-ROUND-7,
R-ROUND-8), carried forward push by push exactly as the server's `view` shows them.

Why a module of its own: `table_model` follows play; this follows the hearing that may come
during and after it, with its own events, so neither grows past what a reader holds in mind.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

HEARING_EVENTS = frozenset(
    {
        "ProtestFiled",
        "ProtestRuled",
        "FlagRescinded",
        "PlayerReinstated",
        "CardAwarded",
        "CardAwardRevoked",
        "ScoreAdjusted",
        "ScoreCardSigned",
        "ScoreCardReopened",
    }
)
CORRECTION_EVENTS = HEARING_EVENTS - {
    "ProtestFiled",
    "ProtestRuled",
    "ScoreCardSigned",
    "ScoreCardReopened",
}


def _seat(view: dict[str, Any], seat_id: Any) -> dict[str, Any] | None:
    for seat in view.get("seats", []):
        if seat["seat"] == seat_id:
            return seat
    return None


def _without(items: list[Any], item: Any) -> list[Any]:
    return [other for other in items if other != item]


def _card_left_its_pile(view: dict[str, Any], card: Any, pile: Any) -> None:
    """An awarded card waiting in the deck or the stumped pile leaves it (`from_pile`)."""
    if pile == "stumped":
        view["stumped"] = _without(view.get("stumped", []), card)
    elif pile == "deck":
        view["cards_left"] = max(0, view.get("cards_left", 0) - 1)
        if "deck" in view:
            view["deck"] = _without(view["deck"], card)


def view_after_hearing(view: dict[str, Any], kind: str, data: Mapping[str, Any]) -> bool:
    """Change `view` in place for one hearing event; False when `kind` is not one."""
    if kind not in HEARING_EVENTS:
        return False
    seat = _seat(view, data.get("seat"))
    if kind == "ProtestFiled":
        view["protests"] = [
            *view.get("protests", []),
            {
                "protest": data.get("protest"),
                "by": data.get("by"),
                "seqs": list(data.get("seqs", [])),
                "reason": data.get("reason"),
                "at": data.get("at"),
                "status": "open",
                "ruling_text": None,
                "ruled_at": None,
            },
        ]
    elif kind == "ProtestRuled":
        for protest in view.get("protests", []):
            if protest["protest"] == data.get("protest"):
                protest.update(
                    status="upheld" if data.get("upheld") else "rejected",
                    ruling_text=data.get("ruling_text"),
                    ruled_at=data.get("at"),
                )
    elif kind == "FlagRescinded" and seat is not None:
        seat["flags"] -= 1
    elif kind == "PlayerReinstated" and seat is not None:
        seat.update(
            disqualified=False, disqualified_cause=None, reinstated_from=data.get("from_play")
        )
    elif kind == "CardAwarded" and seat is not None:
        seat["score"] += data.get("dots", 0)
        seat["cards_won"] = [*seat["cards_won"], data.get("card")]
        _card_left_its_pile(view, data.get("card"), data.get("from_pile"))
    elif kind == "CardAwardRevoked" and seat is not None:
        seat["score"] -= data.get("dots", 0)
        seat["cards_won"] = _without(seat["cards_won"], data.get("card"))
    elif kind == "ScoreAdjusted" and seat is not None:
        seat["score"] += data.get("delta", 0)
    elif kind == "ScoreCardSigned":
        view["score_card"] = {
            "signed": True,
            "initials": data.get("initials"),
            "at": data.get("at"),
        }
    elif kind == "ScoreCardReopened":
        view["score_card"] = {"signed": False, "initials": None, "at": None}
    return True
