"""The pocket game's part in the contract suite (see `game_examples/__init__.py`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import Any

from server.games import pocket
from server.games.base import Actor, Command, Event
from server.games.pocket.state import PocketState
from server.games.pocket.view import sees_everything
from server.puzzles.solver import solve

GAME = pocket
DIRECTOR = Actor("director", "d1")
CARDS = [(1, 1, 1, 8), (3, 3, 8, 8), (2, 2, 2, 3), (2, 3, 4, 5), (4, 4, 4, 4), (1, 5, 5, 5)]
DOTS = [1, 3, 2, 1, 2, 3]
WRONG = "1 + 2 + 3 + 4"


@cache
def _answer(numbers: tuple[int, ...]) -> str:
    return solve(numbers)[0].ascii_expression


def options(rng: random.Random) -> dict[str, Any]:
    chosen = rng.sample(range(len(CARDS)), rng.randint(1, len(CARDS)))
    raw: dict[str, Any] = {
        "seats": [{"seat": f"s{i}", "name": f"N{i}"} for i in range(1, rng.randint(1, 4) + 1)],
        "answer_seconds": rng.choice([1, 5]),
        "stumped_seconds": rng.choice([None, 3]),
    }
    if rng.random() < 0.8:
        raw["stack"] = [
            {"card_id": f"c{i}", "numbers": list(CARDS[i]), "dots": DOTS[i]} for i in chosen
        ]
    else:
        raw.update(seed=rng.randint(0, 5), size=rng.randint(1, 8), dots=[rng.choice([1, 2, 3])])
    return raw


def commands(state: PocketState, rng: random.Random) -> list[Command]:
    seats = [seat.seat for seat in state.seats]
    if state.phase == "setup":
        return [Command("start_game", {}, Actor("player", rng.choice(seats)))]
    if state.ended:
        return []
    if state.paused:
        return [Command("resume_game", {}, Actor("player", rng.choice(seats)))] * 4 + [
            Command("end_game", {}, DIRECTOR)
        ]
    card = state.card
    assert card is not None
    playing = [seat for seat in seats if seat not in card.excluded] or seats
    seat = card.claimer or rng.choice(playing)
    me = Actor("player", seat)
    right = Command("answer", {"expression": _answer(card.card.numbers)}, me)
    named = Command("answer", {"expression": _answer(card.card.numbers), "set": card.number}, me)
    tries = [right, named, Command("answer", {"expression": WRONG}, me)]
    # a claim that crossed the next card (it names the card before): refused `stale_set`
    tries.append(Command("claim", {"set": card.number - 1}, me))
    tries += [Command("claim", {}, me), Command("declare_stumped", {}, Actor("player", seat))]
    tries += [Command("declare_stumped", {}, Actor("player", other)) for other in playing]
    if rng.random() < 0.1:
        tries.append(Command("pause_game", {"cause": "tea"}, DIRECTOR))
    if rng.random() < 0.02:
        tries.append(Command("end_game", {}, DIRECTOR))
    return tries


def _hidden(state: PocketState) -> set[str]:
    """Stack cards never turned up (at an early end the top card went back on the stack)."""
    stack = (
        state.stack[1:] if state.ended and state.end_reason == "ended_by_director" else state.stack
    )
    return {card.card_id for card in stack}


def _strings(data: Any) -> set[str]:
    found: set[str] = set()
    todo = [data]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            found.add(item)
        elif isinstance(item, Mapping):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, list | tuple):
            todo.extend(item)
    return found


def view_leaks(viewer: Actor, view: Mapping[str, Any], state: PocketState) -> bool:
    """HIDDEN: the stack (its cards and order)."""
    if sees_everything(viewer):
        return False
    return "stack" in view or bool(_hidden(state) & _strings(view))


def event_leaks(viewer: Actor, event: Event, state: PocketState) -> bool:
    """HIDDEN in events: the stack as a list, the seed that gives it, an unplayed card."""
    if sees_everything(viewer):
        return False
    data = event.data
    if event.type == "TableCreated":
        given = data.get("options", {})
        return isinstance(given.get("stack"), list) or "seed" in given
    if event.type == "GameStarted":
        return isinstance(data["stack"], list)
    if event.type == "GameEnded":
        return isinstance(data["unplayed"], list)
    return bool(_hidden(state) & _strings(dict(data)))
