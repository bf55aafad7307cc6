"""What a pocket bot plays next, from the view alone (pure; the driver sends it).

A `perfect` bot answers every card it may still play with the solver's simplest solution
after `reaction` seconds; when the solver finds none it declares stumped (R-POCKET-4).
It never claims a card another player holds, and it reads only the face-up card.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.puzzles.solver import solve

ANSWER = "expression"


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
        return "declare_stumped", {}
    return "answer", {"expression": solutions[0].ascii_expression}


@dataclass(frozen=True)
class Action:
    """Send `name` with `args` after `delay` seconds (what `t24 bot`'s runner schedules)."""

    delay: float
    name: str
    args: Mapping[str, Any]
    why: str = ""


def bot_moves(
    view: Mapping[str, Any],
    me: str,
    deadlines: Sequence[Mapping[str, Any]],
    now_us: int,
    skill: str,
    rng: random.Random,
    time_scale: float = 1.0,
) -> tuple[Any, list[Action]]:
    """`t24 bot`'s plan: the situation key (the plan is redone when it changes) and the
    moves. `perfect` answers at once; `human` takes a few seconds; `random` answers nonsense
    half the time (a wrong answer excludes it from these cards, on purpose)."""
    key = situation(view)
    move = next_move(view, me)
    if move is None:
        return key, []
    name, args = move
    delay = {"perfect": 0.2, "human": 2.0 + 4.0 * rng.random()}.get(skill, 1.0 * rng.random())
    if skill == "random" and ANSWER in args and rng.random() < 0.5:
        args = {ANSWER: "1 + 2 + 3"}
    return key, [Action(delay * time_scale, name, args, why=skill)]
