"""The 24 Challenge's part in the contract suite (see `game_examples/__init__.py`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import cache
from typing import Any

from server.games import challenge
from server.games.base import Actor, Command, Event
from server.games.challenge.state import ChallengeState
from server.games.challenge.view import sees_everything
from server.puzzles.solver import solve

GAME = challenge
PROCTOR = Actor("proctor", "p1")
CARDS = [(1, 1, 1, 8), (3, 3, 8, 8), (2, 2, 2, 3), (1, 2, 3, 4), (4, 4, 4, 4), (1, 5, 5, 5)]
DOTS = [1, 3, 2, 1, 2, 3]
WRONG = ["1 + 1 = 2", "2 + 1 = 3", "3 + 8 = 11"]


@cache
def _answer(numbers: tuple[int, ...]) -> tuple[str, list[str]]:
    solution = solve(numbers)[0]
    return str(solution.steps[-1].split(" = ")[0]), list(solution.steps)


def options(rng: random.Random) -> dict[str, Any]:
    chosen = rng.sample(range(len(CARDS)), rng.randint(1, len(CARDS)))
    return {
        "seats": [{"seat": f"s{i}", "name": f"N{i}"} for i in range(1, rng.choice([3, 4]) + 1)],
        "deck": [{"card_id": f"c{i}", "numbers": list(CARDS[i]), "dots": DOTS[i]} for i in chosen],
        "round": rng.randint(1, 4),
        "mode": rng.choice(["networked", "proctored"]),
        "stumped_cards": rng.choice(["set_aside", "replay_at_end"]),
        "auto_proctor": rng.choice([None, 0.5]),
    }


def _as(state: ChallengeState, seat: str) -> tuple[Actor, dict[str, Any]]:
    """The actor that sends a student's command, and the args naming the seat if needed."""
    if state.options.mode == "proctored":
        return PROCTOR, {"seat": seat}
    return Actor("player", seat), {}


def commands(state: ChallengeState, rng: random.Random) -> list[Command]:
    phase = state.phase
    if state.paused:
        return [Command("resume_table", {}, PROCTOR)] * 5 + [Command("end_round", {}, PROCTOR)]
    if phase == "ended":  # R-ROUND-8 protests are heard, then the card is signed (R-ROUND-7)
        if state.signed:
            return []
        hearing = state.open_protests()
        if hearing:
            ruling = {
                "protest": hearing[0].protest,
                "upheld": rng.random() < 0.5,
                "ruling_text": "r",
            }
            return [Command("rule_protest", ruling, PROCTOR)]
        if rng.random() < 0.3:
            return [Command("file_protest", {"seqs": [2], "reason": "r"}, PROCTOR)]
        return [Command("sign_score_card", {"initials": "PK"}, PROCTOR)]
    if phase == "setup":
        order = [card.card_id for card in state.options.deck]
        rng.shuffle(order)
        return [Command("start_round", {"order": order}, PROCTOR)]
    seat = rng.choice(state.seats_in_play() or ("s1",))
    actor, args = _as(state, seat)
    tries = [Command("pause_table", {"cause": "tea"}, PROCTOR)] if rng.random() < 0.1 else []
    if phase == "between_cards":
        tries += [Command("place_card", {}, PROCTOR)] * 4
    elif phase == "placed":
        tries += [Command("reveal_card", {}, PROCTOR)] * 4
        tries.append(Command("touch_card", args, actor))
    elif phase == "revealed":
        fingertips = rng.choice([1, 1, 2, 3, 4])
        tries += [Command("touch_card", {**args, "fingertips": fingertips}, actor)] * 3
        tries.append(Command("declare_stumped", args, actor))
    elif phase == "solving" and state.card is not None and state.card.toucher is not None:
        actor, args = _as(state, state.card.toucher)
        pattern, steps = _answer(state.card.card.numbers)
        if state.card.pattern is None:
            tries += [Command("declare_pattern", {**args, "pattern": pattern}, actor)] * 3
        else:
            tries += [
                Command("state_steps", {**args, "steps": steps}, actor),
                Command("fix_solution", {**args, "steps": steps}, actor),
                Command("fix_solution", {**args, "steps": steps}, actor),
                Command("fix_solution", {**args, "steps": WRONG}, actor),
            ]
        tries.append(Command("override_first_touch", {"seat": seat}, PROCTOR))
        tries.append(Command("touch_card", _as(state, seat)[1], _as(state, seat)[0]))
    if rng.random() < 0.02:
        tries.append(Command("end_round", {}, PROCTOR))
    return tries


def view_leaks(viewer: Actor, view: Mapping[str, Any], state: ChallengeState) -> bool:
    """HIDDEN: the deck order, the removed cards, an unrevealed card's face."""
    if sees_everything(viewer):
        return False
    card = view.get("card")
    unrevealed = state.card is not None and state.card.revealed_at is None
    shown = ("card_id", "numbers", "dots")
    face = isinstance(card, Mapping) and any(card.get(key) is not None for key in shown)
    return "deck" in view or "removed" in view or (unrevealed and face)


def event_leaks(viewer: Actor, event: Event, state: ChallengeState) -> bool:
    """HIDDEN in events: lists of hidden card ids, a placed card's face, an unrevealed id."""
    if sees_everything(viewer):
        return False
    data = event.data
    if event.type == "TableCreated":
        return isinstance(data.get("options", {}).get("deck"), list)
    if event.type == "RoundStarted":
        return isinstance(data["deck"], list) or isinstance(data["removed"], list)
    if event.type == "CardPlaced":
        return any(secret in data for secret in ("card_id", "numbers", "dots"))
    if event.type in ("CardReturnedToDeck", "FlagIssued") and not data.get("revealed", True):
        return data.get("card_id") is not None
    if event.type == "RoundEnded":
        return isinstance(data["unplayed"], list)
    return False
