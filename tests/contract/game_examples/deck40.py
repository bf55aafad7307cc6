"""The deck40 game's part in the contract suite (see `game_examples/__init__.py`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import Any

from server.games import deck40
from server.games.base import Actor, Command, Event
from server.games.deck40.options import CARD_NAMES, rank
from server.games.deck40.state import Deck40State
from server.games.deck40.view import sees_everything
from server.puzzles.solver import solve

GAME = deck40
DIRECTOR = Actor("director", "d1")


def options(rng: random.Random) -> dict[str, Any]:
    players = rng.choice([2, 2, 3, 4, 5])
    scorings = ["simple", "advanced", "cards"] if players in (2, 4) else ["simple", "advanced"]
    raw: dict[str, Any] = {
        "seats": [{"seat": f"s{i}", "name": f"N{i}"} for i in range(1, players + 1)],
        "scoring": rng.choice(scorings),
        "reveal_unsolvable": rng.random() < 0.5,
    }
    if rng.random() < 0.5:
        deck = list(CARD_NAMES)
        rng.shuffle(deck)
        raw["deck"] = deck
    else:
        raw["seed"] = rng.randint(0, 1000)
    if raw["scoring"] == "cards" and players == 2:
        raw["house_loser_takes"] = rng.random() < 0.5
    if raw["scoring"] != "cards" and rng.random() < 0.3:
        raw["target_points"] = rng.randint(1, 5)
    return raw


def commands(state: Deck40State, rng: random.Random) -> list[Command]:
    seats = [seat.seat for seat in state.seats]
    if state.phase == "setup":
        return [Command("start_game", {}, Actor("player", rng.choice(seats)))]
    if state.phase != "playing":
        return []
    me = Actor("player", rng.choice(state.still_playing() or seats))
    solutions = _solutions(tuple(sorted(rank(on.card) for on in state.table)))
    tries = [Command("call_no_solution", {}, me), Command("call_24", {"expression": "1+2"}, me)]
    if solutions:
        right = solutions[0].ascii_expression
        tries += [Command("call_24", {"expression": right}, me)] * 2
        tries.append(Command("call_24", {"expression": right, "set": state.set_number}, me))
    # a call that crossed a deal (it names the set before): refused `stale_set`
    tries.append(Command("call_no_solution", {"set": state.set_number - 1}, me))
    mine = state.visible_of(me.id)
    if mine:
        tries.append(Command("call_no_solution", {"returns": rng.choice(mine)}, me))
    if rng.random() < 0.02:
        tries.append(Command("end_game", {}, DIRECTOR))
    return tries


@cache
def _solutions(numbers: tuple[int, ...]) -> list[Any]:
    return solve(numbers)


def _face_down(state: Deck40State) -> set[str]:
    return set(state.common) | {card for seat in state.seats for card in seat.pile}


def view_leaks(viewer: Actor, view: Mapping[str, Any], state: Deck40State) -> bool:
    """HIDDEN: every face-down card (own piles, the common pile) and their order."""
    if sees_everything(viewer):
        return False
    shown = {card["card"] for card in view.get("table", [])}
    shown |= {card for seat in view.get("seats", []) for card in seat.get("won", [])}
    return "piles" in view or "common" in view or bool(_face_down(state) & shown)


def event_leaks(viewer: Actor, event: Event, state: Deck40State) -> bool:
    """HIDDEN in events: the shuffle, the deal and the seed that gives them."""
    if sees_everything(viewer):
        return False
    data = event.data
    if event.type == "TableCreated":
        given = data.get("options", {})
        return isinstance(given.get("deck"), list) or "seed" in given
    if event.type == "GameStarted":
        piles = data["piles"]
        return (
            isinstance(data["deck"], list)
            or isinstance(data["common"], list)
            or any(isinstance(pile, list) for pile in piles.values())
        )
    return False
