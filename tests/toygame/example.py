"""The toy game's example play (tests/example_plays.py says what an example holds): the
contract suites play the game with it. It imports its game relatively, so the folder works
as a real game's too (`server/games/<name>/`, the way tests/unit/test_adding_a_game.py adds
one)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from server.games.base import Actor, Command, Event

from . import FINAL_EVENTS, ToyState

PROCTOR = Actor("proctor", "p1")


def options(rng: random.Random) -> dict[str, Any]:
    seats = [{"seat": f"s{i}", "name": f"N{i}"} for i in range(1, rng.randint(1, 4) + 1)]
    return {"seats": seats, "secret": rng.randint(1, 100), "turn_seconds": rng.choice([1, 2.5])}


def commands(state: ToyState, rng: random.Random) -> list[Command]:
    if not state.started:
        return [Command("start", {}, PROCTOR)]
    if state.paused:
        return [Command("resume", {}, PROCTOR)]
    seat = state.seats[state.turn]
    number = rng.randint(1, 100) if rng.random() < 0.7 else state.secret
    return [
        Command("guess", {"number": number}, Actor("player", seat)),
        Command("guess", {"number": number}, Actor("player", rng.choice(state.seats))),
        Command("pause", {"cause": "tea"}, PROCTOR),
        *([Command("end", {}, PROCTOR)] if rng.random() < 0.05 else []),
    ]


def _has_secret(data: object) -> bool:
    if isinstance(data, Mapping):
        return "secret" in data or any(_has_secret(value) for value in data.values())
    if isinstance(data, list | tuple):
        return any(_has_secret(value) for value in data)
    return False


def view_leaks(viewer: Actor, view: Mapping[str, Any], state: ToyState) -> bool:
    return viewer.role in ("player", "spectator") and not state.over and _has_secret(view)


def event_leaks(viewer: Actor, event: Event, state: ToyState) -> bool:
    hidden = viewer.role in ("player", "spectator") and event.type not in FINAL_EVENTS
    return hidden and _has_secret(event.data)


# What the play above rarely reaches, for the terminal's words check (an ended game: a right
# guess usually ends it first; tests/unit/terminal_event_examples.py).
EVENT_EXAMPLES: dict[str, list[dict[str, Any]]] = {"Ended": [{"secret": 42}]}
