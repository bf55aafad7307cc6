"""The bot's timing for games answered with one typed expression (pocket, deck40).

Why one module: both games' bots plan the same way once their brain has chosen a move (how
long each skill takes, `random` answering nonsense half the time); only the choice of move
and what makes a new situation are the game's own (`games/<game>/brain.py`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from clients.reference_cli.words import COMMON

ANSWER = "expression"  # the argument that carries a typed answer


@dataclass(frozen=True)
class Action:
    """Send `name` with `args` after `delay` seconds (what `t24 bot`'s runner schedules)."""

    delay: float
    name: str
    args: Mapping[str, Any]
    why: str = ""


def plan(
    key: Any,
    move: tuple[str, Mapping[str, Any]] | None,
    skill: str,
    rng: random.Random,
    time_scale: float = 1.0,
) -> tuple[Any, list[Action]]:
    """`t24 bot`'s plan for the situation `key` and the brain's `move`. `perfect` answers at
    once; `human` takes a few seconds; `random` answers nonsense half the time (a wrong
    answer excludes it from these cards, on purpose; the other arguments, such as the `set`
    it answers, stay)."""
    if move is None:
        return key, []
    name, args = move
    delay = {"perfect": 0.2, "human": 2.0 + 4.0 * rng.random()}.get(skill, 1.0 * rng.random())
    if skill == "random" and ANSWER in args and rng.random() < 0.5:
        args = {**args, ANSWER: "1 + 2 + 3"}
    why = COMMON.say(f"bot.skill.{skill}") if f"bot.skill.{skill}" in COMMON else skill
    return key, [Action(delay * time_scale, name, args, why=why)]


def typed_bot(
    situation: Callable[[Mapping[str, Any]], Any],
    next_move: Callable[[Mapping[str, Any], str], tuple[str, Mapping[str, Any]] | None],
) -> Callable[..., tuple[Any, list[Action]]]:
    """A game part's `bot` (`t24 bot`) from its brain: `situation(view)`, the key that redoes
    the plan when it changes, and `next_move(view, me)`, timed per skill by `plan`."""

    def bot_moves(
        view: Mapping[str, Any],
        me: str,
        deadlines: Sequence[Mapping[str, Any]],
        now_us: int,
        skill: str,
        rng: random.Random,
        time_scale: float = 1.0,
    ) -> tuple[Any, list[Action]]:
        return plan(situation(view), next_move(view, me), skill, rng, time_scale)

    return bot_moves
