"""The practice game's part in the contract suite (see `game_examples/__init__.py`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from server.games import practice
from server.games.base import Actor, Command, Event
from server.games.practice.state import PracticeState
from server.games.practice.view import sees_everything
from server.puzzles.card_facts import facts

GAME = practice
DIRECTOR = Actor("director", "d1")
WRONG = {"pattern": "3 × 8", "steps": ["1 + 1 = 2", "2 + 1 = 3", "3 × 8 = 24"]}


def options(rng: random.Random) -> dict[str, Any]:
    seats = [{"seat": f"s{i}", "name": f"N{i}"} for i in range(1, rng.randint(1, 3) + 1)]
    raw: dict[str, Any] = {
        "seats": seats,
        "cards": rng.randint(3, 8),
        "touch_seconds": rng.choice([1, 15]),
        "answer_seconds": rng.choice([1, 15]),
        "aim": rng.choice([-200, 0, 300]),
        "seed": rng.choice([0, 7, 2**62 + rng.randint(0, 99)]),
        "stream": rng.choice(["own", "class"]),
    }
    if rng.random() < 0.5:
        raw["ratings"] = {"s1": {"mu": rng.choice([900, 1500, 2100]), "sigma": 120}}
    return raw


def commands(state: PracticeState, rng: random.Random) -> list[Command]:
    if state.ended:
        return []
    seat = rng.choice(state.seats)
    me = Actor("player", seat.seat)
    if state.paused:
        return [Command("resume_practice", {}, me)] * 4 + [Command("end_practice", {}, DIRECTOR)]
    card = seat.current
    tries = [Command("next_card", {}, me)]
    if card is not None:
        solution = facts(card.numbers).solutions[0]
        right = {"pattern": solution["pattern"], "steps": solution["steps"]}
        tries = [Command("touch", {}, me)] * 2 + [Command("answer", right, me)] * 3
        tries += [Command("answer", WRONG, me), Command("give_up", {}, me)]
    if rng.random() < 0.1:
        tries.append(Command("pause_practice", {"cause": "tea"}, DIRECTOR))
    if rng.random() < 0.02:
        tries.append(Command("end_practice", {}, DIRECTOR))
    return tries


def _seed_shown(data: Any, seed: int) -> bool:
    todo = [data]
    while todo:
        item = todo.pop()
        if isinstance(item, Mapping):
            if "seed" in item:
                return True
            todo.extend(item.values())
        elif isinstance(item, list | tuple):
            todo.extend(item)
        elif seed > 10_000 and item == seed and not isinstance(item, bool):
            return True
    return False


def view_leaks(viewer: Actor, view: Mapping[str, Any], state: PracticeState) -> bool:
    """HIDDEN: the seed."""
    return not sees_everything(viewer) and _seed_shown(view, state.options.seed)


def event_leaks(viewer: Actor, event: Event, state: PracticeState) -> bool:
    """HIDDEN in events: the seed (in `TableCreated.options`)."""
    return not sees_everything(viewer) and _seed_shown(dict(event.data), state.options.seed)
