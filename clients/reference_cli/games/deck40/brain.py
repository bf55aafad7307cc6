"""What a deck40 bot plays next, from the view alone (pure; the driver sends it).

A `perfect` bot calls "24!" with the solver's simplest solution of the four face-up cards;
when the solver finds none it calls "no solution" once per set (R-DECK40-3), returning its
first card (the default, R-DECK40-4). It reads only the face-up cards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from server.puzzles.solver import solve

ANSWER = "expression"


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
        return "call_24", {"expression": solutions[0].ascii_expression}
    return "call_no_solution", {}


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
