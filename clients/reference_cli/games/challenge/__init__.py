"""The 24 Challenge's part of the reference client: its pictures, words, keys and bot.

Modules: `render` (the card, the seats, the compact replay lines), `event_words` (each event
in words, citing its rule), `play_input` and `proctor_input` (the keys of `t24 play` and
`t24 proctor`), `bot` (the bot's brain), `phases` (the view's phase names). Nothing here
re-derives the table: the view and the deadlines come from the server (issue 12).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from clients.reference_cli.games import GamePart
from clients.reference_cli.games.challenge import bot as brain
from clients.reference_cli.games.challenge import event_words, hearing, render
from clients.reference_cli.games.challenge.phases import ENDED
from clients.reference_cli.games.challenge.words import WORDS
from clients.reference_cli.words import COMMON, say, view_seat_names

# The events after which no card is in play (the feed's "since the reveal" stops).
CARD_LEAVES = ("CardWon", "CardReturnedToDeck", "CardStumped", "RoundEnded")


def header_words(view: Mapping[str, Any]) -> list[str]:
    mode = f"screen.mode.{view.get('mode')}"
    return [
        say(WORDS, "screen.round", round=view.get("round", "?")),
        say(WORDS, mode) if mode in WORDS else str(view.get("mode", "?")),
    ]


def seat_names(view: Mapping[str, Any]) -> dict[str, str]:
    """Seat id -> what people call it (words.py `view_seat_names`: never the id)."""
    return view_seat_names(view)


def stamp_start(view: Mapping[str, Any]) -> int | None:
    """When the card in play was revealed, as the view shows it (a join without history)."""
    card = view.get("card")
    return card.get("revealed_at") if isinstance(card, Mapping) else None


def stamp(revealed_at: int | None, kind: str, data: Mapping[str, Any]) -> tuple[Any, int | None]:
    """The feed's time stamp of one event: microseconds since the card in play was revealed
    (0 for the reveal itself), None between cards; and the reveal time after the event."""
    at = data.get("at")
    since = None
    if isinstance(at, int):
        if kind == "CardRevealed":
            since = 0
        elif revealed_at is not None and kind != "CardPlaced":
            since = at - revealed_at
    if kind == "CardRevealed" and isinstance(at, int):
        revealed_at = at
    elif kind == "CardPlaced" or kind in CARD_LEAVES:
        revealed_at = None
    return revealed_at, since


def controls(kind: str) -> Any:
    """The keys of `t24 play` (a student's seat) or `t24 proctor` (the command line)."""
    from clients.reference_cli.games.challenge import play_input, proctor_input
    from clients.reference_cli.keyboard import Controls

    if kind == "play":
        return Controls(
            play_input.PlayInput(),
            play_input.press,
            play_input.replied,
            play_input.reconcile,
            lost_notice=play_input.lost_card_notice,
            game="challenge",
            picking=play_input.picking,
            picked=play_input.picked,
            pick=play_input.pick,
        )
    if kind == "proctor":
        return Controls(
            proctor_input.ProctorInput(),
            proctor_input.press,
            proctor_input.replied,
            proctor_input.reconcile,
            game="challenge",
        )
    return None


def bot_moves(
    view: Mapping[str, Any],
    me: str,
    deadlines: Sequence[Mapping[str, Any]],
    now_us: int,
    skill: str,
    rng: random.Random,
    time_scale: float = 1.0,
) -> tuple[Any, list[brain.Action]]:
    """The bot's situation key and its plan, its windows read from the pushed deadlines."""
    situation = brain.Situation(view, me, brain.Timings.from_deadlines(deadlines, now_us))
    return situation.key(), brain.plan(situation, skill, rng, time_scale)


def bot_refusal(view: Mapping[str, Any]) -> str | None:
    if view.get("mode") == "proctored":
        return COMMON.say("bot.proctored_table")
    return None


PART = GamePart(
    name="challenge",
    header_words=header_words,
    seat_label=render.seat_label,
    seat_names=seat_names,
    board=render.card_lines,
    side=render.scoreboard,
    results=render.results_lines,
    compact=render.compact,
    deadline_words=render.DEADLINE_WORDS,
    describe_event=event_words.describe_event,
    words=WORDS,
    event_kind=event_words.event_kind,
    stamp_start=stamp_start,
    stamp=stamp,
    controls=controls,
    finished=lambda view: view.get("phase") == ENDED,
    bot=bot_moves,
    bot_refusal=bot_refusal,
    event_marks=hearing.replay_marks,  # R-ROUND-8: protests and what they dispute
    replay_summary=hearing.protest_summary,
    describe_answer=hearing.describe_answer,  # preview_ruling
)
