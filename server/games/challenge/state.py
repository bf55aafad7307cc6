"""The state of a 24 Challenge table, how each event changes it, and which timers are live.

What this module keeps: everything a table *is* after some events. `decide` (in
`challenge.py`) reads this state to judge a command; it never changes it: only `evolve`
does, one recorded event at a time, so a replay of the log is the live state.

Theory of operation:
- The round has three stages: set-up (before `RoundStarted`), running, ended. While it runs,
  the card in play gives the *phase* (`ChallengeState.phase`):

  | phase | card in play | what may happen (R-PLAY) |
  |---|---|---|
  | `between_cards` | none | the proctor (or `auto_proctor`) places the next card |
  | `placed` | placed, cupped, numbers hidden | reveal; a touch now draws a flag (R-PLAY-3) |
  | `revealed` | revealed, nobody holds it | the first touch (R-PLAY-2); stumped (R-PLAY-7) |
  | `solving` | held by the first toucher | pattern (3 s), steps, fix (15 s) (R-PLAY-4/5) |

- Pausing is not a phase: a paused table keeps its phase and has no live timer.
- Every event carries its time in `data["at"]` (microseconds), because `evolve` never sees
  the log's envelope. One anchor, `timer_from`, is the start of every live window: it is set
  by the events that start a window (round started, card placed, revealed, touched, a first
  touch overridden, a card resolved, the table resumed) and each deadline is
  `timer_from + window`. A resume or a ruling therefore restarts the windows in full.
- A deadline's key is `kind:play:timer_from`; it changes whenever the window does, so a
  deadline the shell fires after the state moved on no longer matches and is refused as stale.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, TypeVar

from server.games.base import SERVER_ACTOR, Command, Deadline, Event
from server.games.challenge.options import Card, CardId, TableOptions, table_options

SETUP, BETWEEN, PLACED, REVEALED, SOLVING, ENDED = (
    "setup",
    "between_cards",
    "placed",
    "revealed",
    "solving",
    "ended",
)
RUNNING_PHASES = (BETWEEN, PLACED, REVEALED, SOLVING)

# Deadline kinds -> the command the shell fires when one is due.
DEADLINE_COMMANDS = {
    "place": "place_card",
    "reveal": "reveal_card",
    "no_touch": "no_touch_deadline",
    "pattern": "pattern_deadline",
    "solution": "solution_deadline",
    "round": "round_deadline",  # R-ROUND-6: a timed round's end (option `round_seconds`)
}


@dataclass(frozen=True)
class SeatState:
    """A student's round so far: points, flags, disqualification (R-PLAY-6, R-FLAG)."""

    seat: str
    name: str
    score: int = 0
    flags: int = 0
    disqualified: bool = False
    cards_won: tuple[CardId, ...] = ()


@dataclass(frozen=True)
class CardInPlay:
    """The card on the mat and what has happened to it during this play."""

    card: Card
    play: int  # 1 for the first card placed in the round, 2 for the next, ...
    placed_at: int
    revealed_at: int | None = None
    toucher: str | None = None  # the seat that holds the card (R-PLAY-2)
    touched_at: int | None = None
    touches: tuple[str, ...] = ()  # every seat whose touch was recorded, in arrival order
    pattern: str | None = None  # as declared (R-PLAY-4)
    steps: tuple[str, ...] = ()  # as last stated (R-PLAY-5)
    stumped: tuple[str, ...] = ()  # seats that declared themselves stumped (R-PLAY-7)


@dataclass(frozen=True)
class ChallengeState:
    """One table, one round. Deck order: index 0 is the top (the next card placed)."""

    options: TableOptions
    seats: tuple[SeatState, ...]
    started: bool = False
    ended: bool = False
    end_reason: str | None = None
    deck: tuple[CardId, ...] = ()
    removed: tuple[CardId, ...] = ()  # R-DECK-4
    card: CardInPlay | None = None
    stumped: tuple[CardId, ...] = ()  # the stumped pile (R-PLAY-7)
    stumped_returned: bool = False  # replay_at_end: the pile went back to the deck once
    plays: int = 0
    started_at: int = 0  # when `RoundStarted` was recorded: a timed round runs from it
    clock: int = 0  # the latest time recorded by an event
    timer_from: int = 0  # the start of the live windows (see the module docstring)
    paused: bool = False
    pause_cause: str | None = None

    @property
    def phase(self) -> str:
        """Where the round is: one of SETUP, BETWEEN, PLACED, REVEALED, SOLVING, ENDED."""
        if self.ended:
            return ENDED
        if not self.started:
            return SETUP
        if self.card is None:
            return BETWEEN
        if self.card.revealed_at is None:
            return PLACED
        if self.card.toucher is None:
            return REVEALED
        return SOLVING

    def seat(self, seat_id: object) -> SeatState | None:
        """The seat with this id, or None."""
        for seat in self.seats:
            if seat.seat == seat_id:
                return seat
        return None

    def seats_in_play(self) -> tuple[str, ...]:
        """Seats not disqualified (R-FLAG-4: the last one standing plays on alone)."""
        return tuple(seat.seat for seat in self.seats if not seat.disqualified)

    def scores(self) -> dict[str, int]:
        """Points per seat (R-PLAY-6); disqualified students keep theirs (R-FLAG-4)."""
        return {seat.seat: seat.score for seat in self.seats}


def initial_state(options: Mapping[str, Any]) -> ChallengeState:
    """The table before its round starts; raises RuleViolation `bad_options` on bad options."""
    read = table_options(options)
    return ChallengeState(
        options=read, seats=tuple(SeatState(seat.seat, seat.name) for seat in read.seats)
    )


# -- evolve ---------------------------------------------------------------------------------

_Record = TypeVar("_Record", SeatState, CardInPlay, ChallengeState)
_FIELDS = {kind: frozenset(f.name for f in fields(kind)) for kind in _Record.__constraints__}


def replace(record: _Record, **changes: Any) -> _Record:
    """`dataclasses.replace` for the three records above, four times faster.

    Why: `evolve` runs for every event, twice (in `decide` and when the shell applies the
    recorded event), and `dataclasses.replace` re-runs a frozen `__init__` (one
    `object.__setattr__` per field) after inspecting the fields. These records have no
    `__post_init__` and no derived field, so copying the attributes and applying the changes
    builds the same value.
    """
    if not _FIELDS[type(record)].issuperset(changes):
        raise TypeError(f"{type(record).__name__} has no field {sorted(changes)}")
    copy = object.__new__(type(record))
    attributes = copy.__dict__
    attributes.update(record.__dict__)
    attributes.update(changes)
    return copy


def _with_seat(state: ChallengeState, seat_id: str, **changes: Any) -> ChallengeState:
    seats = tuple(
        replace(seat, **changes) if seat.seat == seat_id else seat for seat in state.seats
    )
    return replace(state, seats=seats)


def _with_card(state: ChallengeState, **changes: Any) -> ChallengeState:
    assert state.card is not None
    return replace(state, card=replace(state.card, **changes))


def _round_started(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    return replace(
        state,
        started=True,
        started_at=data["at"],
        deck=tuple(data["deck"]),
        removed=tuple(data["removed"]),
        timer_from=data["at"],
    )


def _card_placed(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    card_id = data["card_id"]
    deck = list(state.deck)
    deck.remove(card_id)
    card = CardInPlay(state.options.card(card_id), play=data["play"], placed_at=data["at"])
    return replace(state, deck=tuple(deck), card=card, plays=data["play"], timer_from=data["at"])


def _card_revealed(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    return replace(_with_card(state, revealed_at=data["at"]), timer_from=data["at"])


def _card_touched(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    assert state.card is not None
    seat = data["seat"]
    touched = _with_card(
        state, toucher=seat, touched_at=data["at"], touches=state.card.touches + (seat,)
    )
    return replace(touched, timer_from=data["at"])


def _touch_refused(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    assert state.card is not None
    return _with_card(state, touches=state.card.touches + (data["seat"],))


def _first_touch_overridden(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    assert state.card is not None
    seat = data["seat"]
    touches = state.card.touches if seat in state.card.touches else state.card.touches + (seat,)
    overridden = _with_card(
        state, toucher=seat, touched_at=data["at"], touches=touches, pattern=None, steps=()
    )
    return replace(overridden, timer_from=data["at"])


def _pattern_declared(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    return _with_card(state, pattern=data["pattern"])


def _steps_stated(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    return _with_card(state, steps=tuple(data["steps"]))


def _stumped_declared(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    assert state.card is not None
    return _with_card(state, stumped=state.card.stumped + (data["seat"],))


def _card_won(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    seat = state.seat(data["seat"])
    assert seat is not None
    won = _with_seat(
        state,
        seat.seat,
        score=seat.score + data["dots"],
        cards_won=seat.cards_won + (data["card_id"],),
    )
    return replace(won, card=None, timer_from=data["at"])


def _flag_issued(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    seat = state.seat(data["seat"])
    assert seat is not None
    return _with_seat(state, seat.seat, flags=seat.flags + 1)


def _player_disqualified(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    return _with_seat(state, data["seat"], disqualified=True)


def _card_returned(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    # R-FLAG-2: to the bottom of the remaining deck.
    return replace(state, deck=state.deck + (data["card_id"],), card=None, timer_from=data["at"])


def _card_stumped(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    return replace(
        state, stumped=state.stumped + (data["card_id"],), card=None, timer_from=data["at"]
    )


def _stumped_returned(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    return replace(
        state,
        deck=state.deck + tuple(data["cards"]),
        stumped=tuple(card for card in state.stumped if card not in data["cards"]),
        stumped_returned=True,
        timer_from=data["at"],
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
    )


def _unchanged(state: ChallengeState, data: Mapping[str, Any]) -> ChallengeState:
    return state


EVOLVERS: dict[str, Callable[[ChallengeState, Mapping[str, Any]], ChallengeState]] = {
    "RoundStarted": _round_started,
    "CardPlaced": _card_placed,
    "CardRevealed": _card_revealed,
    "CardTouched": _card_touched,
    "TouchRefused": _touch_refused,
    "FirstTouchOverridden": _first_touch_overridden,
    "PatternDeclared": _pattern_declared,
    "StepsStated": _steps_stated,
    "SolutionFixed": _steps_stated,
    "SolutionJudged": _unchanged,
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
}
EVENT_TYPES = frozenset(EVOLVERS)


def evolve(state: ChallengeState, event: Event) -> ChallengeState:
    """The state after one recorded event.

    Why unknown types are kept, not refused: the stream may hold events of other parts (a
    protest noted by the tournament, a shell annotation); they do not change the table, and
    `evolve` must never fail on a recorded log.
    """
    data = event.data
    at = data.get("at")
    if isinstance(at, int) and at > state.clock:
        state = replace(state, clock=at)
    return EVOLVERS.get(event.type, _unchanged)(state, data)


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
    if not state.started or state.ended or state.paused:
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
    if card.toucher is None:
        return [_deadline("no_touch", card.play, start + options.no_touch_us, state)]  # R-PLAY-7
    live = []
    if card.pattern is None:
        live.append(_deadline("pattern", card.play, start + options.pattern_us, state))  # R-PLAY-4
    live.append(_deadline("solution", card.play, start + options.solution_us, state))  # R-PLAY-5
    return sorted(live, key=lambda deadline: deadline.at)


def is_over(state: ChallengeState) -> bool:
    """True once `RoundEnded` is recorded (R-ROUND-1)."""
    return state.ended


# Nothing is decided after `RoundEnded` (no command is allowed in ENDED, no deadline is live),
# so a table whose log ends with it is over (a property test checks it).
FINAL_EVENTS = frozenset({"RoundEnded"})
