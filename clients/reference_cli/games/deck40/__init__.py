"""The reference client's part for the `deck40` game (docs/games/deck40.md): what the screen
shows of a deck40 view (`screen.py`), what a typed line sends (`screen.parse_line`) and what a
bot plays (`brain.py`). Pure functions over the view the server sends; the server judges.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clients.reference_cli.games import GamePart, typed_controls
from clients.reference_cli.games.deck40 import brain, screen


def seat_names(view: Mapping[str, Any]) -> dict[str, str]:
    """Seat id -> the player's name (else the seat id)."""
    return {seat["seat"]: seat.get("name") or seat["seat"] for seat in view.get("seats", [])}


def header_words(view: Mapping[str, Any]) -> list[str]:
    options = view.get("options", {})
    return [f"set {view.get('set', 0)}", str(options.get("scoring", "?"))]


def describe_event(kind: str, data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One event in words, citing its rule."""
    who = names.get(data.get("seat", ""), data.get("seat", ""))
    words = {
        "GameStarted": lambda: "the cards are shuffled and dealt",
        "CardsTurnedUp": lambda: (
            "turned up: " + " ".join(screen.card_text(c) for c in data["cards"])
        ),
        "SolutionCalled": lambda: (
            f"{who}: 24! {data['expression']} is "
            + ("right" if data["ok"] else f"wrong ({data['reason']})")
        ),
        "PlayerExcluded": lambda: f"{who} is out of these cards",
        "NoSolutionCalled": lambda: f"{who}: no solution",
        "NoSolutionAgreed": lambda: (
            "no solution, agreed"
            + (
                ""
                if data["solvable"] is None
                else f"; the server says solvable: {data['solvable']}"
            )
        ),
        "RoundWon": lambda: f"{who} takes the four cards ({data['points']} points)",
        "CardsReturned": lambda: (
            "back to the piles: " + " ".join(entry["card"] for entry in data["returns"])
        ),
        "GameEnded": lambda: f"the game ends ({data['reason']})",
    }.get(kind)
    text = words() if words else kind
    return f"{text} ({data['rule']})" if data.get("rule") else text


# `t24 play`: one typed line per command (`screen.parse_line`); watching has no keys.
controls = typed_controls("deck40", screen.parse_line, screen.HELP)


PART = GamePart(
    name="deck40",
    header_words=header_words,
    seat_label=lambda view, seat: f"{seat_names(view).get(seat, seat)} ({seat})",
    seat_names=seat_names,
    board=lambda view, style, role: screen.board_lines(view),
    side=lambda view, me, style, presence: screen.seat_lines(view),
    results=lambda view, style: screen.result_lines(view),
    compact=lambda view, style: [screen.compact(view)],
    describe_event=describe_event,
    finished=lambda view: view.get("phase") == "ended",
    bot=brain.bot_moves,
    controls=controls,
)
