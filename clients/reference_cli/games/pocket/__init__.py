"""The reference client's part for the `pocket` game (docs/games/pocket.md): what the screen
shows of a pocket view (`screen.py`), what a typed line sends (`screen.parse_line`) and what a
bot plays (`brain.py`). Pure functions over the view the server sends; no rules are judged
here (the server judges every answer).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clients.reference_cli.games import GamePart, typed_controls
from clients.reference_cli.games.pocket import brain, screen


def seat_names(view: Mapping[str, Any]) -> dict[str, str]:
    """Seat id -> the player's name (else the seat id)."""
    return {seat["seat"]: seat.get("name") or seat["seat"] for seat in view.get("seats", [])}


def header_words(view: Mapping[str, Any]) -> list[str]:
    return [f"card {view.get('turned', 0)}", f"{view.get('stack_left', 0)} in the stack"]


def describe_event(kind: str, data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One event in words, citing its rule."""
    who = names.get(data.get("seat", ""), data.get("seat", ""))
    words = {
        "GameStarted": lambda: "the stack is counted off",
        "CardTurnedUp": lambda: f"card {data['number']}: {' '.join(map(str, data['numbers']))}",
        "ClaimMade": lambda: f"{who}: I got it!",
        "AnswerJudged": lambda: (
            f"{who}: {data['expression']} is "
            + ("right" if data["ok"] else f"wrong ({data['reason']})")
        ),
        "PlayerExcluded": lambda: f"{who} is out of this card ({data['reason']})",
        "StumpedDeclared": lambda: f"{who} is stumped",
        "CardWon": lambda: (
            f"{who} wins {data['points']} points"
            + (f" with {len(data['bonus'])} bonus cards" if data["bonus"] else "")
        ),
        "CardSetAside": lambda: f"card {data['number']} is a bonus card ({data['reason']})",
        "GamePaused": lambda: f"paused ({data['cause']})",
        "GameResumed": lambda: "resumed",
        "GameEnded": lambda: f"the game ends ({data['reason']})",
    }.get(kind)
    text = words() if words else kind
    return f"{text} ({data['rule']})" if data.get("rule") else text


# `t24 play`: one typed line per command (`screen.parse_line`); watching has no keys.
controls = typed_controls("pocket", screen.parse_line, screen.HELP)


PART = GamePart(
    name="pocket",
    header_words=header_words,
    seat_label=lambda view, seat: f"{seat_names(view).get(seat, seat)} ({seat})",
    seat_names=seat_names,
    board=lambda view, style, role: screen.board_lines(view, view.get("clock", 0)),
    side=lambda view, me, style, presence: screen.score_lines(view),
    results=lambda view, style: screen.result_lines(view),
    compact=lambda view, style: [screen.compact(view)],
    deadline_words={"answer_deadline": "answer due in", "stumped_deadline": "stumped in"},
    describe_event=describe_event,
    finished=lambda view: view.get("phase") == "ended",
    bot=brain.bot_moves,
    controls=controls,
)
