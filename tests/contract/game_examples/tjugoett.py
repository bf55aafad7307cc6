"""Tjugoett's part in the contract suite (see `game_examples/__init__.py`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from tjugoett_leaks import leaks

from server.games import tjugoett
from server.games.base import Actor, Command, Event
from server.games.tjugoett.state import TjugoettState

GAME = tjugoett
DIRECTOR = Actor("director", "d1")
DEALER = Actor("player", "dl")


def options(rng: random.Random) -> dict[str, Any]:
    players = rng.randint(1, 7)
    raw: dict[str, Any] = {
        "seats": [{"seat": f"s{i}", "name": f"N{i}"} for i in range(1, players + 1)],
        "seed": f"seed-{rng.getrandbits(64):016x}",
        "dealer_seconds": rng.choice([0.5, 1]),
        "dealer_stands_at": rng.randint(14, 19),
        "public_hands": rng.choice(["turn_over", "live"]),
        "turn_seconds": rng.choice([None, None, 3]),
        "next_round_seconds": rng.choice([None, 1]),
    }
    if rng.random() < 0.5:
        raw["dealer"] = {"seat": DEALER.id, "name": "Dora"}
    return raw


def commands(state: TjugoettState, rng: random.Random) -> list[Command]:
    phase = state.phase
    tries: list[Command] = []
    if phase == "between_rounds":
        tries += [Command("start_round", {}, DIRECTOR)] * 4
        if state.options.dealer is not None:
            tries.append(Command("start_round", {}, DEALER))
    elif phase == "player_turn" and state.turn is not None:
        turn = Actor("player", state.turn)
        tries += [Command("draw_card", {}, turn)] * 3 + [Command("stand", {}, turn)] * 2
        tries.append(Command("draw_card", {}, Actor("player", rng.choice(["s1", "s2"]))))
    elif phase == "dealer_turn" and state.options.dealer is not None:
        tries += [Command("dealer_draw", {}, DEALER)] * 3
        tries.append(Command("dealer_stand", {}, DEALER))
    if rng.random() < 0.03:
        tries.append(Command("end_table", {}, DIRECTOR))
    return tries


def view_leaks(viewer: Actor, view: Mapping[str, Any], state: TjugoettState) -> bool:
    """HIDDEN: a live hand's cards or sum (from the dealer always; from others unless
    `public_hands` is `live`), the draw order, the seed."""
    return bool(leaks(viewer, dict(view), state))


def event_leaks(viewer: Actor, event: Event, state: TjugoettState) -> bool:
    """The same for one pushed event, judged on the state right after it."""
    return bool(leaks(viewer, dict(event.data), state, event.type))
