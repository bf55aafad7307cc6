"""How each event changes a 24 Challenge table (`EVOLVERS`), and which timers are live.

What this module keeps: how the state (`challenge/state.py`, everything a table *is* after
some events) changes. `decide` (in `challenge/__init__.py`) reads the state to judge a
command; it never changes it: only the evolvers do (run by the kit's `evolve`, after the
clock rule and `counted`), one recorded event at a time, so a replay of the log is the live
state.

Theory of operation:
- The round has three stages: set-up (before `RoundStarted`), running, ended. While it runs,
  the card in play gives the *phase* (`ChallengeState.phase`):

  | phase | card in play | what may happen (R-PLAY) |
  |---|---|---|
  | `between_cards` | none | the proctor (or `auto_proctor`) places the next card |
  | `placed` | placed, cupped, numbers hidden | reveal; a touch now draws a flag (R-PLAY-3) |
  | `revealed` | revealed, nobody holds it | the first touch (R-PLAY-2); stumped (R-PLAY-7) |
  | `solving` | held by the first toucher | pattern (3 s), steps, fix (15 s) (R-PLAY-4/5) |

- Pausing is not a phase: a paused table keeps its phase and has no live timer. Nor is
  waiting for the students (`wait_for_students`, challenge/arrival.py): a waiting table is
  `between_cards` with no live timer until `PlayBegan`.
- Every event carries its time in `data["at"]` (microseconds), because `evolve` never sees
  the log's envelope. One anchor, `timer_from`, is the start of every live window: it is set
  by the events that start a window (round started, card placed, revealed, touched, a first
  touch overridden or granted, a card resolved, the table resumed; not a ruling's
  corrections, nor the stumped pile's return) and each deadline is
  `timer_from + window`. A resume or a ruling therefore restarts the windows in full.
- A deadline's key is `kind:play:timer_from`; it changes whenever the window does, so a
  deadline the shell fires after the state moved on no longer matches and is refused as stale.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from server.games.base import SERVER_ACTOR, Command, Deadline
from server.games.challenge.options import table_options
from server.games.challenge.state import (
    CardInPlay,
    ChallengeState,
    Protest,
    SeatState,
    TouchClaim,
    replace,
    with_card,
    with_seat,
)
from server.games.kit import unchanged

# Deadline kinds -> the command the shell fires when one is due.
DEADLINE_COMMANDS = {
    "place": "place_card",
    "reveal": "reveal_card",
    "no_touch": "no_touch_deadline",
    "pattern": "pattern_deadline",
    "solution": "solution_deadline",
    "round": "round_deadline",  # R-ROUND-6: a timed round's end (option `round_seconds`)
    "grant": "grant_first_touch",  # R-PLAY-2 compensated: the arbitration window closes
}


def initial_state(options: Mapping[str, Any]) -> ChallengeState:
    """The table before its round starts; raises RuleViolation `bad_options` on bad options."""
    read = table_options(options)
    return ChallengeState(
        options=read, seats=tuple(SeatState(seat.seat, seat.name) for seat in read.seats)
    )


# -- evolve ---------------------------------------------------------------------------------


def _round_started(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    # R-PLAY-7: the stumped policy in force is the one `RoundStarted` recorded, so a table
    # recorded before the default changed (set_aside -> replay_at_end) replays as it was played.
    policy = data.get("options", {}).get("stumped_cards", state.options.stumped_cards)
    if policy != state.options.stumped_cards:
        state = replace(state, options=dataclasses.replace(state.options, stumped_cards=policy))
    return replace(
        state,
        started=True,
        started_at=data["at"],
        deck=tuple(data["deck"]),
        round_cards=len(data["deck"]),
        removed=tuple(data["removed"]),
        timer_from=data["at"],
        waiting=state.options.wait_for_students,
    )


def _play_began(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    # challenge/arrival.py: the windows and a timed round run from the moment play began.
    return replace(state, waiting=False, started_at=data["at"], timer_from=data["at"])


def _seat_marked(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    return replace(state, attendance={**state.attendance, data["seat"]: data["mark"]})


def _card_placed(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    card_id = data["card_id"]
    deck = list(state.deck)
    deck.remove(card_id)
    card = CardInPlay(state.options.card(card_id), play=data["play"], placed_at=data["at"])
    return replace(state, deck=tuple(deck), card=card, plays=data["play"], timer_from=data["at"])


def _card_revealed(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    seen = state.revealed_cards
    if data["card_id"] not in seen:
        seen = seen + (data["card_id"],)
    revealed = with_card(state, revealed_at=data["at"])
    return replace(revealed, timer_from=data["at"], revealed_cards=seen)


def _fouls_after(card: CardInPlay, data: Mapping[str, Any]) -> tuple[str, ...]:
    """R-PLAY-3: a touch before the reveal or with more than three fingertips is a foul."""
    if card.revealed_at is None or data.get("fingertips", 1) > 3:
        return card.fouls + (data["seat"],)
    return card.fouls


def _card_touched(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    card = state.card
    assert card is not None
    seat = data["seat"]
    touched = with_card(
        state,
        toucher=seat,
        touched_at=data["at"],
        touches=card.touches + (seat,),
        fouls=_fouls_after(card, data),
    )
    return replace(touched, timer_from=data["at"])


def _touch_refused(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    card = state.card
    assert card is not None
    return with_card(state, touches=card.touches + (data["seat"],), fouls=_fouls_after(card, data))


def _touch_claimed(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    card = state.card
    assert card is not None
    claim = TouchClaim(  # every field is recorded since TouchClaimed exists (issue 19)
        data["seat"],
        data["fingertips"],
        data["arrival"],
        data["delay_us"],
        data["credit_us"],
        data["compensated_at"],
    )
    return with_card(state, claims=card.claims + (claim,), touches=card.touches + (claim.seat,))


def _first_touch_granted(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    # The windows of R-PLAY-4/5 run from the grant; the claims are in the event, not kept.
    granted = with_card(state, toucher=data["seat"], touched_at=data["at"], claims=())
    return replace(granted, timer_from=data["at"])


def _first_touch_overridden(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    assert state.card is not None
    seat = data["seat"]
    touches = state.card.touches if seat in state.card.touches else state.card.touches + (seat,)
    overridden = with_card(
        state, toucher=seat, touched_at=data["at"], touches=touches, pattern=None, steps=(), x=None
    )
    return replace(overridden, timer_from=data["at"])


def _pattern_declared(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    return with_card(state, pattern=data["pattern"])


def _steps_stated(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    return with_card(state, steps=tuple(data["steps"]), x=data.get("x"))


def _stumped_declared(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    assert state.card is not None
    return with_card(state, stumped=state.card.stumped + (data["seat"],))


def _card_won(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    seat = state.seat(data["seat"])
    assert seat is not None
    won = with_seat(
        state,
        seat.seat,
        score=seat.score + data["dots"],
        cards_won=seat.cards_won + (data["card_id"],),
    )
    return replace(won, card=None, timer_from=data["at"])


def _flag_issued(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    seat = state.seat(data["seat"])
    assert seat is not None
    # `state.seq` is this event's own seq (`evolve` counts it first): the flag's name.
    return with_seat(
        state, seat.seat, flags=seat.flags + 1, flag_seqs=seat.flag_seqs + (state.seq,)
    )


def _player_disqualified(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    cause = data.get("cause", "flag_limit")
    return with_seat(state, data["seat"], disqualified=True, disqualified_cause=cause)


def _card_returned(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    # R-FLAG-2: to the bottom of the remaining deck.
    return replace(state, deck=state.deck + (data["card_id"],), card=None, timer_from=data["at"])


def _card_stumped(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    return replace(
        state, stumped=state.stumped + (data["card_id"],), card=None, timer_from=data["at"]
    )


def _stumped_returned(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    # Not a window's start (decision 14: the next card is placed `auto_proctor` after the
    # previous one was *resolved*): after a card leaves play the pile returns at that same
    # time, and after a ruling whose award emptied the deck the next placing stays due from
    # the last resolution, as after any award that leaves cards in the deck.
    return replace(
        state,
        deck=state.deck + tuple(data["cards"]),
        stumped=tuple(card for card in state.stumped if card not in data["cards"]),
        stumped_returned=True,
    )


def _table_paused(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    return replace(state, paused=True, pause_cause=data["cause"])


def _table_resumed(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    return replace(state, paused=False, pause_cause=None, timer_from=data["at"])


def _round_ended(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    # The card in play (if any) goes back on top: the deck is what was never resolved.
    return replace(
        state,
        ended=True,
        end_reason=data["reason"],
        deck=tuple(data["unplayed"]),
        card=None,
        paused=False,
        waiting=False,  # a round ended while it waited (arrival.py) waits no more
    )


# -- protests, rulings and corrections (R-ROUND-8), the score card (R-ROUND-7) ----------------


def _protest_filed(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    protest = Protest(data["protest"], data["by"], tuple(data["seqs"]), data["reason"], data["at"])
    return replace(state, protests=state.protests + (protest,))


def _protest_ruled(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    status = "upheld" if data["upheld"] else "rejected"
    protests = tuple(
        replace(protest, status=status, ruling_text=data["ruling_text"], ruled_at=data["at"])
        if protest.protest == data["protest"]
        else protest
        for protest in state.protests
    )
    return replace(state, protests=protests)


def _flag_rescinded(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    seat = state.seat(data["seat"])
    assert seat is not None
    kept = tuple(flag for flag in seat.flag_seqs if flag != data["flag"])
    return with_seat(state, seat.seat, flags=seat.flags - 1, flag_seqs=kept)


def _player_reinstated(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    return with_seat(
        state,
        data["seat"],
        disqualified=False,
        disqualified_cause=None,
        reinstated_from=data["from_play"],
    )


def _card_awarded(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    # An awarded card still waiting in the deck or the stumped pile leaves it: it is won.
    seat = state.seat(data["seat"])
    assert seat is not None
    card_id = data["card"]
    awarded = with_seat(
        state, seat.seat, score=seat.score + data["dots"], cards_won=seat.cards_won + (card_id,)
    )
    return replace(
        awarded,
        deck=tuple(card for card in state.deck if card != card_id),
        stumped=tuple(card for card in state.stumped if card != card_id),
    )


def _card_award_revoked(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    seat = state.seat(data["seat"])
    assert seat is not None
    kept = tuple(card for card in seat.cards_won if card != data["card"])
    return with_seat(state, seat.seat, score=seat.score - data["dots"], cards_won=kept)


def _score_adjusted(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    seat = state.seat(data["seat"])
    assert seat is not None
    return with_seat(state, seat.seat, score=seat.score + data["delta"])


def _score_card_signed(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    return replace(
        state, signed_by=data["initials"], signed_at=data["at"], signer_role=data.get("by")
    )


def _score_card_reopened(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    return replace(state, signed_by=None, signed_at=None, signer_role=None)


EVOLVERS: dict[str, Callable[[ChallengeState, Mapping[str, Any]], ChallengeState]] = {
    "RoundStarted": _round_started,
    "PlayBegan": _play_began,
    "SeatMarked": _seat_marked,
    "CardPlaced": _card_placed,
    "CardRevealed": _card_revealed,
    "CardTouched": _card_touched,
    "TouchRefused": _touch_refused,
    "TouchClaimed": _touch_claimed,
    "FirstTouchGranted": _first_touch_granted,
    "FirstTouchOverridden": _first_touch_overridden,
    "PatternDeclared": _pattern_declared,
    "StepsStated": _steps_stated,
    "SolutionFixed": _steps_stated,
    "SolutionJudged": unchanged,
    "StumpedDeclared": _stumped_declared,
    "CardWon": _card_won,
    "FlagIssued": _flag_issued,
    "PlayerDisqualified": _player_disqualified,
    "CardReturnedToDeck": _card_returned,
    "CardStumped": _card_stumped,
    "StumpedCardsReturned": _stumped_returned,
    "TablePaused": _table_paused,
    "TableResumed": _table_resumed,
    "RoundEnded": _round_ended,
    "ProtestFiled": _protest_filed,
    "ProtestRuled": _protest_ruled,
    "FlagRescinded": _flag_rescinded,
    "PlayerReinstated": _player_reinstated,
    "CardAwarded": _card_awarded,
    "CardAwardRevoked": _card_award_revoked,
    "ScoreAdjusted": _score_adjusted,
    "ScoreCardSigned": _score_card_signed,
    "ScoreCardReopened": _score_card_reopened,
}
EVENT_TYPES = frozenset(EVOLVERS)


def counted(state: ChallengeState) -> dict[str, Any]:
    """Every event of the stream counts, known or not: `seq` is the log's own numbering, so a
    protest can name the events it disputes (R-ROUND-8). (The kit's `evolve` applies this
    change for every event, with the clock rule's.)"""
    return {"seq": state.seq + 1}


# -- deadlines ------------------------------------------------------------------------------


def _deadline(kind: str, play: int, at: int, state: ChallengeState) -> Deadline:
    key = f"{kind}:{play}:{state.timer_from}"
    return Deadline(key, at, Command(DEADLINE_COMMANDS[kind], {"key": key}, SERVER_ACTOR))


# The last state's deadlines: the shell asks for them several times per append (timers, view
# pushes, each viewer's view). States are immutable, so this one-entry memo by identity keeps
# `deadlines` a pure function.
_last_deadlines: tuple[ChallengeState | None, tuple[Deadline, ...]] = (None, ())


def deadlines(state: ChallengeState) -> list[Deadline]:
    """Exactly the timers that are live now, earliest first (none while paused or not running).

    Why derived and not stored: after a crash the shell re-derives them from the replayed
    state, and a command fired for a timer that is no longer listed is stale.
    """
    global _last_deadlines
    memo_state, memo = _last_deadlines
    if memo_state is state:
        return list(memo)
    live = _live_deadlines(state)
    _last_deadlines = (state, tuple(live))
    return live


def _live_deadlines(state: ChallengeState) -> list[Deadline]:
    if not state.started or state.ended or state.paused or state.waiting:
        return []
    options = state.options
    if options.round_us is None:
        return _card_deadlines(state)
    # R-ROUND-6: a timed round ends at `started_at + round_seconds` whatever is in play.
    key = f"round:0:{state.started_at}"
    end = state.started_at + options.round_us
    timed = Deadline(key, end, Command(DEADLINE_COMMANDS["round"], {"key": key}, SERVER_ACTOR))
    return sorted([*_card_deadlines(state), timed], key=lambda deadline: deadline.at)


def _card_deadlines(state: ChallengeState) -> list[Deadline]:
    """The timers of the card in play (or of placing the next one)."""
    options, card, start = state.options, state.card, state.timer_from
    if card is None:
        if options.auto_proctor_us is None or not state.deck:
            return []
        return [_deadline("place", state.plays + 1, start + options.auto_proctor_us, state)]
    if card.revealed_at is None:
        if options.auto_proctor_us is None:
            return []
        return [_deadline("reveal", card.play, start + options.auto_reveal_us, state)]
    if card.toucher is None and card.claims:  # R-PLAY-2 compensated: the arbitration window
        earliest = min(claim.compensated_at for claim in card.claims)
        key = f"grant:{card.play}:{earliest}"
        command = Command(DEADLINE_COMMANDS["grant"], {"key": key}, SERVER_ACTOR)
        return [Deadline(key, earliest + options.max_credit_us, command)]
    if card.toucher is None:
        return [_deadline("no_touch", card.play, start + options.no_touch_us, state)]  # R-PLAY-7
    live = []
    if card.pattern is None:
        live.append(_deadline("pattern", card.play, start + options.pattern_us, state))  # R-PLAY-4
    live.append(_deadline("solution", card.play, start + options.solution_us, state))  # R-PLAY-5
    return sorted(live, key=lambda deadline: deadline.at)


def is_over(state: ChallengeState) -> bool:
    """True once the proctor has signed the score card (R-ROUND-7), not at `RoundEnded`:
    protests are heard until the signature (R-ROUND-8)."""
    return state.signed


# After `ScoreCardSigned` nothing is decided but the director's `reopen_score_card` (no deadline
# is live once the round has ended), so a table whose log ends with it is over (a property
# test checks it); a reopened table is in play again until it is signed again.
FINAL_EVENTS = frozenset({"ScoreCardSigned"})
