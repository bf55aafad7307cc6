"""The reference client's part for the `deck40` game (docs/games/deck40.md): what the screen
shows of a deck40 view (`screen.py`), what a typed line sends (`screen.parse_line`) and what a
bot plays (`brain.py`). Pure functions over the view the server sends; the server judges.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clients.reference_cli.games import GamePart, typed_controls
from clients.reference_cli.games.deck40 import brain, screen
from clients.reference_cli.games.deck40.words import WORDS
from clients.reference_cli.words import (
    answer_reason,
    name_in,
    names_list,
    say,
    seat_name,
    unknown_event,
    view_seat_names,
)


def seat_names(view: Mapping[str, Any]) -> dict[str, str]:
    """Seat id -> what people call it (words.py `view_seat_names`: never the id)."""
    return view_seat_names(view)


def header_words(view: Mapping[str, Any]) -> list[str]:
    options = view.get("options", {})
    scoring = f"screen.scoring.{options.get('scoring')}"
    return [
        say(WORDS, "screen.set", set=view.get("set", 0)),
        say(WORDS, "screen.scoring", scoring=say(WORDS, scoring) if scoring in WORDS else "?"),
    ]


def describe_event(kind: str, data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One event in words (`words.WORDS`, key `event.<type>[.<variant>]`), citing its rule;
    an event type this client does not know reads as "something new happened"."""
    seat = data.get("seat")
    fields: dict[str, Any] = {
        "who": name_in(names, seat) if seat is not None else names_list([]),
        "set": data.get("set"),
    }
    key = f"event.{kind}"
    if kind == "TableCreated":
        seats = (data.get("options") or {}).get("seats", [])
        fields["count"] = len(seats)
        fields["names"] = names_list(list(view_seat_names({"seats": seats}).values()))
    elif kind == "GameStarted":
        key += f".{data.get('layout')}"
    elif kind == "CardsTurnedUp":
        fields["cards"] = "  ".join(
            screen.card_text(card)
            + (f" ({name_in(names, card['seat'])})" if card.get("seat") else "")
            for card in data["cards"]
        )
    elif kind == "SolutionCalled":
        key += ".right" if data["ok"] else ".wrong"
        fields.update(
            expression=data["expression"],
            why=answer_reason(data.get("reason", ""), data.get("message", "")),
        )
    elif kind == "NoSolutionCalled":
        if data.get("returns"):
            fields["card"] = screen.name_text(data["returns"])
        else:
            key += ".common"
    elif kind == "NoSolutionAgreed":
        if data.get("solvable") is None:
            key += f".{data.get('reason')}"
        else:
            key += ".solvable" if data["solvable"] else ".unsolvable"
            fields["example"] = data.get("example")
    elif kind == "RoundWon":
        if data.get("taken_by"):
            key += ".house"
            fields["loser"] = name_in(names, data["taken_by"])
        elif not data.get("points"):
            key += ".cards"
        fields["count"] = data.get("points")
    elif kind == "CardsReturned":
        fields["cards"] = "  ".join(screen.name_text(entry["card"]) for entry in data["returns"])
    elif kind == "GameEnded":
        key += f".{data.get('reason')}"
        fields["names"] = names_list([name_in(names, s) for s in data.get("winners", [])])
    text = say(WORDS, key, **fields) if key in WORDS else unknown_event(kind)
    return f"{text} ({data['rule']})" if data.get("rule") else text


# `t24 play`: one typed line per command (`screen.parse_line`); watching has no keys.
controls = typed_controls("deck40", screen.parse_line, screen.HELP)


PART = GamePart(
    name="deck40",
    header_words=header_words,
    seat_label=seat_name,
    seat_names=seat_names,
    board=lambda view, style, role: screen.board_lines(view),
    side=lambda view, me, style, presence: screen.seat_lines(view),
    results=lambda view, style: screen.result_lines(view),
    compact=lambda view, style: ["    " + style.dim(screen.compact(view))],
    describe_event=describe_event,
    words=WORDS,
    finished=lambda view: view.get("phase") == "ended",
    bot=brain.bot_moves,
    controls=controls,
)
