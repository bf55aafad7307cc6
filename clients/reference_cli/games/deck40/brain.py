"""What a deck40 bot plays next, from the view alone (pure; the driver sends it).

A `perfect` bot calls "24!" with the solver's simplest solution of the four face-up cards;
when the solver finds none it calls "no solution" once per set (R-DECK40-3), returning its
first card (the default, R-DECK40-4). It reads only the face-up cards, and every call names
the set it answers (`set`, the view's): a call that crosses the next deal (the other player
won the set first) is refused `stale_set`, not judged on cards the bot never saw.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clients.reference_cli.games.typed_answers import typed_bot
from server.puzzles.solver import solve


def situation(view: Mapping[str, Any]) -> tuple[Any, ...]:
    """What the bot's plan depends on: the set of four, who is out, who called."""
    return (
        view.get("phase"),
        view.get("set"),
        tuple(view.get("excluded", ())),
        tuple(view.get("no_solution", ())),
    )


def next_move(view: Mapping[str, Any], me: str) -> tuple[str, dict[str, Any]] | None:
    """The command to send now, or None to wait for the next push."""
    table = view.get("table") or []
    if view.get("phase") != "playing" or len(table) != 4:
        return None
    if me in view.get("excluded", ()) or me in view.get("no_solution", ()):
        return None
    solutions = solve([card["rank"] for card in table])
    if solutions:
        return "call_24", {"expression": solutions[0].ascii_expression, "set": view.get("set")}
    return "call_no_solution", {"set": view.get("set")}


# `t24 bot`'s plan: the situation key (the plan is redone when it changes) and the moves,
# timed per skill (`games.typed_answers.plan`).
bot_moves = typed_bot(situation, next_move)
