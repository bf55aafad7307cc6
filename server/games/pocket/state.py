"""The state of a pocket-edition casual table, how each event changes it, and its timers.

What this module keeps: everything a table *is* after some events; only `evolve` changes it,
one recorded event at a time, so a replay of the log is the live state.

Theory of operation (R-POCKET-1..5):

| phase | the top card | what may happen |
|---|---|---|
| `setup` | none yet | `start_game` records the stack and turns up its top card |
| `open` | face up, no claim | `claim`, `answer` (claim and answer at once), `declare_stumped` |
| `claimed` | one player said "I got it" | his `answer` within `answer_seconds` (R-POCKET-3) |
| `ended` | none | nothing |

- Every card lives in exactly one place: the stack (hidden, top first), the top card, a
  player's won cards, or the bonus pile (stumped cards waiting for the next winner).
- Every event carries its time in `data["at"]`. Two anchors start the live windows:
  `card.claim_at` (the answer window, R-POCKET-3) and `card.open_from` (the optional stumped
  timeout, R-POCKET-4; it restarts when a claim fails, so a claim never eats the others'
  time). Pausing is not a phase: a paused game keeps its phase and has no live timer
  (`GamePaused`, the shell's recovery after a restart); `GameResumed` restarts both windows
  in full from its time, so nobody loses time to the pause.
- A deadline key is `kind:number:anchor`; it changes whenever the window does, so a deadline
  fired after the state moved on is refused as stale.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from server.games.base import SERVER_ACTOR, Command, Deadline
from server.games.kit import unchanged
from server.games.pocket.options import PocketCard, PocketOptions, read_card, table_options

SETUP, OPEN, CLAIMED, ENDED = "setup", "open", "claimed", "ended"

DEADLINE_COMMANDS = {"answer": "answer_deadline", "stumped": "stumped_deadline"}


@dataclass(frozen=True)
class SeatState:
    """A player's game so far: points and the cards won (R-POCKET-2, R-POCKET-5)."""

    seat: str
    name: str
    score: int = 0
    cards_won: tuple[str, ...] = ()


@dataclass(frozen=True)
class TopCard:
    """The card everybody plays for, and what has happened to it."""

    card: PocketCard
    number: int  # 1 for the first card turned up, 2 for the next, ...
    open_from: int  # start of the stumped timeout window
    claimer: str | None = None
    claim_at: int = 0
    excluded: tuple[str, ...] = ()  # wrong or late on this card (R-POCKET-3)
    stumped: tuple[str, ...] = ()  # declared stumped (R-POCKET-4)


@dataclass(frozen=True)
class PocketState:
    """One pocket table. Stack order: index 0 is the top (the next card turned up)."""

    options: PocketOptions
    seats: tuple[SeatState, ...]
    started: bool = False
    ended: bool = False
    end_reason: str | None = None
    stack: tuple[PocketCard, ...] = ()
    card: TopCard | None = None
    bonus: tuple[PocketCard, ...] = ()
    turned: int = 0
    clock: int = 0
    result: Mapping[str, Any] | None = None  # the GameEnded data
    paused: bool = False
    pause_cause: str | None = None

    @property
    def phase(self) -> str:
        """One of SETUP, OPEN, CLAIMED, ENDED."""
        if self.ended:
            return ENDED
        if not self.started or self.card is None:
            return SETUP
        return CLAIMED if self.card.claimer is not None else OPEN

    def seat(self, seat_id: object) -> SeatState | None:
        """The seat with this id, or None."""
        for seat in self.seats:
            if seat.seat == seat_id:
                return seat
        return None

    def still_playing(self) -> tuple[str, ...]:
        """Seats not excluded from the top card (R-POCKET-3)."""
        excluded = self.card.excluded if self.card else ()
        return tuple(seat.seat for seat in self.seats if seat.seat not in excluded)

    def scores(self) -> dict[str, int]:
        """Points per seat (R-POCKET-2)."""
        return {seat.seat: seat.score for seat in self.seats}


def initial_state(options: Mapping[str, Any]) -> PocketState:
    """The table before `start_game`; raises RuleViolation `invalid_options` on bad options."""
    read = table_options(options)
    return PocketState(options=read, seats=tuple(SeatState(s.seat, s.name) for s in read.seats))


# -- evolve ---------------------------------------------------------------------------------


def _with_card(state: PocketState, **changes: Any) -> PocketState:
    assert state.card is not None
    return replace(state, card=replace(state.card, **changes))


def _game_started(state: PocketState, data: Mapping[str, Any]) -> PocketState:
    return replace(state, started=True, stack=tuple(read_card(entry) for entry in data["stack"]))


def _card_turned_up(state: PocketState, data: Mapping[str, Any]) -> PocketState:
    top = state.stack[0]
    assert top.card_id == data["card_id"]
    card = TopCard(top, number=data["number"], open_from=data["at"])
    return replace(state, stack=state.stack[1:], card=card, turned=data["number"])


def _claim_made(state: PocketState, data: Mapping[str, Any]) -> PocketState:
    return _with_card(state, claimer=data["seat"], claim_at=data["at"])


def _player_excluded(state: PocketState, data: Mapping[str, Any]) -> PocketState:
    assert state.card is not None
    return _with_card(
        state, claimer=None, excluded=state.card.excluded + (data["seat"],), open_from=data["at"]
    )


def _stumped_declared(state: PocketState, data: Mapping[str, Any]) -> PocketState:
    assert state.card is not None
    return _with_card(state, stumped=state.card.stumped + (data["seat"],))


def _card_won(state: PocketState, data: Mapping[str, Any]) -> PocketState:
    assert state.card is not None
    won = (state.card.card.card_id,) + tuple(card.card_id for card in state.bonus)
    seats = tuple(
        replace(seat, score=seat.score + data["points"], cards_won=seat.cards_won + won)
        if seat.seat == data["seat"]
        else seat
        for seat in state.seats
    )
    return replace(state, seats=seats, card=None, bonus=())


def _card_set_aside(state: PocketState, data: Mapping[str, Any]) -> PocketState:
    assert state.card is not None
    return replace(state, card=None, bonus=state.bonus + (state.card.card,))


def _game_paused(state: PocketState, data: Mapping[str, Any]) -> PocketState:
    return replace(state, paused=True, pause_cause=data["cause"])


def _game_resumed(state: PocketState, data: Mapping[str, Any]) -> PocketState:
    """Both windows restart in full from the resume (`claim_at` only counts while a claim
    runs, so setting it without one changes nothing)."""
    state = replace(state, paused=False, pause_cause=None)
    if state.card is None:
        return state
    return _with_card(state, open_from=data["at"], claim_at=data["at"])


def _game_ended(state: PocketState, data: Mapping[str, Any]) -> PocketState:
    # An early end puts the top card back on the stack: what was never resolved.
    stack = ((state.card.card,) if state.card else ()) + state.stack
    return replace(
        state,
        ended=True,
        end_reason=data["reason"],
        card=None,
        stack=stack,
        result=dict(data),
        paused=False,
        pause_cause=None,
    )


EVOLVERS: dict[str, Callable[[PocketState, Mapping[str, Any]], PocketState]] = {
    "GameStarted": _game_started,
    "CardTurnedUp": _card_turned_up,
    "ClaimMade": _claim_made,
    "AnswerJudged": unchanged,
    "PlayerExcluded": _player_excluded,
    "StumpedDeclared": _stumped_declared,
    "CardWon": _card_won,
    "CardSetAside": _card_set_aside,
    "GamePaused": _game_paused,
    "GameResumed": _game_resumed,
    "GameEnded": _game_ended,
}
EVENT_TYPES = frozenset(EVOLVERS)
FINAL_EVENTS = frozenset({"GameEnded"})


# -- deadlines ------------------------------------------------------------------------------


def _deadline(kind: str, number: int, anchor: int, at: int) -> Deadline:
    key = f"{kind}:{number}:{anchor}"
    return Deadline(key, at, Command(DEADLINE_COMMANDS[kind], {"key": key}, SERVER_ACTOR))


def deadlines(state: PocketState) -> list[Deadline]:
    """Exactly the live timers (none while paused): the claimer's answer window (R-POCKET-3),
    else the optional stumped timeout (R-POCKET-4). Derived, never stored."""
    card, options = state.card, state.options
    if state.ended or state.paused or card is None:
        return []
    if card.claimer is not None:
        return [_deadline("answer", card.number, card.claim_at, card.claim_at + options.answer_us)]
    if options.stumped_us is None:
        return []
    return [_deadline("stumped", card.number, card.open_from, card.open_from + options.stumped_us)]


def is_over(state: PocketState) -> bool:
    """True once `GameEnded` is recorded (R-POCKET-5)."""
    return state.ended
