"""A Tjugoett bot: which command a seat sends after each pushed event, or none.

The policy is the server dealer's (docs/games/tjugoett.md): draw until the hand is worth
`stand_at` or more with at least two cards, then stand. It reads only what the server
pushes to its seat: a player's own `CardDealt` carries the card count and the sum (the
server hides them from everyone else), so the bot needs no card arithmetic of its own. A
hand worth 21, over 21 or of five cards is settled by the server at once, so the bot does
not move then. As the dealer of a person-dealer table it plays the dealer's hand the same
way after each `PlayerStood`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from clients.reference_cli.words import COMMON

TWENTY_ONE = 21
MAX_CARDS = 5
MIN_STAND_CARDS = 2


def _undecided(cards: int, total: int) -> bool:
    """True while the hand is still to be played (the server settles 21, bust, five cards)."""
    return total < TWENTY_ONE and cards < MAX_CARDS


@dataclass
class TjugoettBot:
    """One seat's bot (a player's, or the person dealer's with `dealer=True`)."""

    seat: str
    stand_at: int = 15
    dealer: bool = False
    my_turn: bool = False

    def _choose(self, cards: int, total: int, draw: str, stand: str) -> str | None:
        if not _undecided(cards, total):
            return None
        return stand if cards >= MIN_STAND_CARDS and total >= self.stand_at else draw

    def on_view(self, view: Mapping[str, Any]) -> str | None:
        """The command to send in the situation a snapshot shows (a bot that joins, or comes
        back, in the middle of its turn), or None. The view says which moves are open."""
        open_moves = view.get("your_commands", [])
        if "dealer_draw" in open_moves:
            cards = view["dealer"]["cards"]
            if not cards:
                return "dealer_draw"
            return self._choose(len(cards), view["dealer"]["sum"], "dealer_draw", "dealer_stand")
        if "draw_card" in open_moves:
            self.my_turn = True
            (mine,) = [seat for seat in view["seats"] if seat["seat"] == self.seat]
            return self._choose(mine["count"], mine["sum"], "draw_card", "stand")
        return None

    def on_event(self, event_type: str, data: Mapping[str, Any]) -> str | None:
        """The command to send after this pushed event, or None."""
        if self.dealer:
            if event_type == "PlayerStood":
                return "dealer_draw"
            if event_type == "DealerCardDealt":
                return self._choose(data["cards"], data["sum"], "dealer_draw", "dealer_stand")
            return None
        mine = data.get("seat") == self.seat
        if event_type == "TurnStarted":
            self.my_turn = mine
        elif event_type in ("TurnSettled", "RoundEnded", "TableEnded") or (
            event_type == "PlayerStood" and mine
        ):
            self.my_turn = False
        elif event_type == "CardDealt" and mine and self.my_turn and data.get("sum") is not None:
            return self._choose(data["cards"], data["sum"], "draw_card", "stand")
        return None


@dataclass(frozen=True)
class Action:
    """Send `name` after `delay` seconds (the generic bot runner's plan step)."""

    delay: float
    name: str
    args: Mapping[str, Any]
    why: str = ""


# skill -> (the value it stands at, seconds it takes to decide)
SKILLS = {"perfect": (16, 0.1), "human": (15, 1.0), "random": (0, 0.3)}


def bot_moves(
    view: Mapping[str, Any],
    me: str,
    deadlines: Sequence[Mapping[str, Any]],
    now_us: int,
    skill: str,
    rng: random.Random,
    time_scale: float = 1.0,
) -> tuple[Any, list[Action]]:
    """The generic bot runner's brain (`t24 bot`): the situation key and the plan for it.

    The key changes whenever the bot's hand, the dealer's hand or the open moves change, so
    each new situation gets one move. `random` draws or stands at random (it never breaks a
    rule: the server settles 21, bust and five cards itself).
    """
    stand_at, pause = SKILLS.get(skill, SKILLS["human"])
    seats = {seat["seat"]: seat for seat in view.get("seats", [])}
    mine = seats.get(me, {})
    key = (
        view.get("round"),
        view.get("phase"),
        view.get("turn"),
        mine.get("count"),
        len((view.get("dealer") or {}).get("cards", [])),
        tuple(view.get("your_commands", [])),
    )
    dealer = view.get("your_role") == "dealer"
    if skill == "random" and ("draw_card" in key[-1] or "dealer_stand" in key[-1]):
        stand_at = rng.choice((2, 21))  # stand at once, or draw until the hand decides
    move = TjugoettBot(me, stand_at=stand_at, dealer=dealer).on_view(view)
    if move is None:
        return key, []
    why = COMMON.say("bot.why.stands_at", total=stand_at)
    return key, [Action(pause * time_scale, move, {}, why)]
