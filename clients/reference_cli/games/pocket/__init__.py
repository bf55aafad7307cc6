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
from clients.reference_cli.games.pocket.words import WORDS
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


DEADLINES = ("answer_deadline", "stumped_deadline")


def header_words(view: Mapping[str, Any]) -> list[str]:
    return [
        say(WORDS, "screen.card_of", turned=view.get("turned", 0), size=screen.stack_size(view))
    ]


def describe_event(kind: str, data: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """One event in words (`words.WORDS`, key `event.<type>[.<variant>]`), citing its rule;
    an event type this client does not know reads as "something new happened"."""
    seat = data.get("seat")
    fields: dict[str, Any] = {
        "who": name_in(names, seat) if seat is not None else names_list([]),
        "number": data.get("number"),
    }
    key = f"event.{kind}"
    if kind == "TableCreated":
        seats = (data.get("options") or {}).get("seats", [])
        fields["count"] = len(seats)
        fields["names"] = names_list(list(view_seat_names({"seats": seats}).values()))
    elif kind == "GameStarted":
        stack = data.get("stack")
        fields["count"] = len(stack) if isinstance(stack, list) else stack
    elif kind == "CardTurnedUp":
        fields.update(numbers=" ".join(map(str, data["numbers"])), count=data["dots"])
    elif kind == "AnswerJudged":
        key += ".right" if data["ok"] else ".wrong"
        fields.update(
            expression=data["expression"],
            why=answer_reason(data.get("reason", ""), data.get("message", "")),
        )
    elif kind in ("PlayerExcluded", "CardSetAside", "GameEnded"):
        key += f".{data.get('reason')}"
    elif kind == "CardWon":
        key += ".bonus" if data.get("bonus") else ""
        fields["count"] = data["points"]
    elif kind == "GamePaused":
        fields["cause"] = screen.cause_words(data.get("cause"))
    text = say(WORDS, key, **fields) if key in WORDS else unknown_event(kind)
    return f"{text} ({data['rule']})" if data.get("rule") else text


# `t24 play`: one typed line per command (`screen.parse_line`); watching has no keys.
controls = typed_controls("pocket", screen.parse_line, screen.HELP)


PART = GamePart(
    name="pocket",
    header_words=header_words,
    seat_label=seat_name,
    seat_names=seat_names,
    board=lambda view, style, role: screen.board_lines(view, view.get("clock", 0)),
    side=lambda view, me, style, presence: screen.score_lines(view),
    results=lambda view, style: screen.result_lines(view),
    compact=lambda view, style: ["    " + style.dim(screen.compact(view))],
    deadline_words={name: say(WORDS, f"deadline.{name}") for name in DEADLINES},
    describe_event=describe_event,
    words=WORDS,
    finished=lambda view: view.get("phase") == "ended",
    bot=brain.bot_moves,
    controls=controls,
)
