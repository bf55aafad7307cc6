"""What a pocket bot plays next, from the view alone (pure; the driver sends it).

A `perfect` bot answers every card it may still play with the solver's simplest solution
after `reaction` seconds; when the solver finds none it declares stumped (R-POCKET-4).
It never claims a card another player holds, and it reads only the face-up card. Every move
names that card (`set`, its `number`): an answer that crosses the next card's turn-up
(another player won the card first) is refused `stale_set`, not judged on a card it never saw.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clients.reference_cli.games.typed_answers import typed_bot
from server.puzzles.solver import solve


def situation(view: Mapping[str, Any]) -> tuple[Any, ...]:
    """What the bot's plan depends on: the card, the claim, who is out or stumped, a pause."""
    card = view.get("card") or {}
    return (
        view.get("phase"),
        card.get("number"),
        card.get("claimer"),
        tuple(card.get("excluded", ())),
        tuple(card.get("stumped", ())),
        view.get("paused"),
    )


def next_move(view: Mapping[str, Any], me: str) -> tuple[str, dict[str, Any]] | None:
    """The command to send now, or None to wait for the next push."""
    card = view.get("card")
    if view.get("phase") != "open" or not card or view.get("paused"):
        return None
    if me in card.get("excluded", ()) or me in card.get("stumped", ()):
        return None
    solutions = solve(card["numbers"])
    if not solutions:
        return "declare_stumped", {"set": card["number"]}
    return "answer", {"expression": solutions[0].ascii_expression, "set": card["number"]}


# `t24 bot`'s plan: the situation key (the plan is redone when it changes) and the moves,
# timed per skill (`games.typed_answers.plan`).
bot_moves = typed_bot(situation, next_move)
