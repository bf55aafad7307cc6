"""The state of a practice table, how each event changes it (`EVOLVERS`), and which timers
are live.

A practice table is a set of students each playing their own stream of cards: a seat asks
for its next card (`next_card`), has `touch_seconds` to touch it and then `answer_seconds`
to answer (pattern and three steps, judged as at a tournament), and every card ends solved
or missed, followed by the seat's rating and the card's (`RatingUpdated`). Seats never wait
for each other; the table is over when every seat has played its cards, or it is ended.

Every event carries its time in `data["at"]`. Each card's live window starts at `window_from`:
its deal, its touch, or a resume (a pause stops every clock; a resume restarts the windows in
full, as at a tournament table). A deadline's key names the seat, the card's number and
`window_from`, so a timer the state has moved past is refused as stale.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from server.games.base import SERVER_ACTOR, Command, Deadline
from server.games.kit import unchanged
from server.games.practice.options import PracticeOptions, practice_options
from server.ratings import Rating

SOLVED = "solved"
# Why a card was missed: a wrong answer, no touch in time, no answer in time, given up.
MISSES = ("wrong", "no_touch", "no_answer", "gave_up")
DEADLINE_COMMANDS = {"touch": "touch_deadline", "answer": "answer_deadline"}
EVENT_TYPES = frozenset(
    {
        "CardDealt",
        "CardTouched",
        "AnswerJudged",
        "CardSolved",
        "CardMissed",
        "RatingUpdated",
        "PracticePaused",
        "PracticeResumed",
        "PracticeEnded",
    }
)
FINAL_EVENTS = frozenset({"PracticeEnded"})


@dataclass(frozen=True)
class Attempt:
    """One card dealt to one student, and how it went."""

    number: int  # 1 for the seat's first card
    card_id: str  # the numbers, sorted, as text: "1 1 1 8"
    numbers: tuple[int, ...]
    score: float  # the difficulty model's score (docs/puzzles.md)
    card_rating: Rating  # the card's rating when dealt
    rating: Rating  # the student's rating when dealt
    dealt_at: int
    window_from: int
    touched_at: int | None = None
    result: str | None = None  # SOLVED or one of MISSES
    ended_at: int | None = None
    message: str = ""  # the judge's words on a wrong answer
    solutions: tuple[Mapping[str, Any], ...] = ()  # shown at once after a miss
    rating_after: Rating | None = None
    card_rating_after: Rating | None = None


@dataclass(frozen=True)
class SeatPractice:
    """One student's practice so far."""

    seat: str
    name: str
    rating: Rating
    attempts: tuple[Attempt, ...] = ()

    @property
    def current(self) -> Attempt | None:
        """The card in play, not yet solved or missed."""
        if self.attempts and self.attempts[-1].result is None:
            return self.attempts[-1]
        return None

    @property
    def played(self) -> int:
        return sum(1 for attempt in self.attempts if attempt.result is not None)


@dataclass(frozen=True)
class PracticeState:
    options: PracticeOptions
    seats: tuple[SeatPractice, ...]
    card_ratings: Mapping[str, Rating]  # every card rated so far: the options', then this table's
    paused: bool = False
    pause_cause: str | None = None
    ended: bool = False
    end_reason: str | None = None
    clock: int = 0

    def seat(self, seat_id: object) -> SeatPractice | None:
        for seat in self.seats:
            if seat.seat == seat_id:
                return seat
        return None

    def done(self, seat: SeatPractice) -> bool:
        """The seat has played all its cards."""
        return seat.played >= self.options.cards and seat.current is None

    @property
    def phase(self) -> str:
        return "ended" if self.ended else "practising"


def initial_state(options: Mapping[str, Any]) -> PracticeState:
    """The table before any card; raises RuleViolation `bad_options` on bad options."""
    read = practice_options(options)
    seats = tuple(
        SeatPractice(seat.seat, seat.name, read.ratings.get(seat.seat, Rating()))
        for seat in read.seats
    )
    return PracticeState(options=read, seats=seats, card_ratings=dict(read.card_ratings))


def _with_attempt(state: PracticeState, seat_id: str, **changes: Any) -> PracticeState:
    seats = []
    for seat in state.seats:
        if seat.seat == seat_id and seat.attempts:
            last = replace(seat.attempts[-1], **changes)
            seat = replace(seat, attempts=seat.attempts[:-1] + (last,))
        seats.append(seat)
    return replace(state, seats=tuple(seats))


def _dealt(state: PracticeState, data: Mapping[str, Any]) -> PracticeState:
    seats = []
    for seat in state.seats:
        if seat.seat == data["seat"]:
            attempt = Attempt(
                number=data["number"],
                card_id=data["card_id"],
                numbers=tuple(data["numbers"]),
                score=float(data["score"]),
                card_rating=Rating.from_data(data["card_rating"]),
                rating=Rating.from_data(data["rating"]),
                dealt_at=data["at"],
                window_from=data["at"],
            )
            seat = replace(seat, attempts=seat.attempts + (attempt,))
        seats.append(seat)
    return replace(state, seats=tuple(seats))


def _rated(state: PracticeState, data: Mapping[str, Any]) -> PracticeState:
    after = Rating.from_data(data["after"])
    card_after = Rating.from_data(data["card_after"])
    seats = []
    for seat in state.seats:
        if seat.seat == data["seat"]:
            attempts = tuple(
                replace(a, rating_after=after, card_rating_after=card_after)
                if a.number == data["number"]
                else a
                for a in seat.attempts
            )
            seat = replace(seat, rating=after, attempts=attempts)
        seats.append(seat)
    ratings = {**state.card_ratings, data["card_id"]: card_after}
    return replace(state, seats=tuple(seats), card_ratings=ratings)


def _resumed(state: PracticeState, data: Mapping[str, Any]) -> PracticeState:
    resumed = replace(state, paused=False, pause_cause=None)
    for seat in state.seats:
        if seat.current is not None:
            resumed = _with_attempt(resumed, seat.seat, window_from=data["at"])
    return resumed


def _touched(state: PracticeState, data: Mapping[str, Any]) -> PracticeState:
    return _with_attempt(state, data["seat"], touched_at=data["at"], window_from=data["at"])


def _solved(state: PracticeState, data: Mapping[str, Any]) -> PracticeState:
    return _with_attempt(state, data["seat"], result=SOLVED, ended_at=data["at"])


def _missed(state: PracticeState, data: Mapping[str, Any]) -> PracticeState:
    return _with_attempt(
        state,
        data["seat"],
        result=data["reason"],
        ended_at=data["at"],
        message=data.get("message", ""),
        solutions=tuple(data.get("solutions", ())),
    )


def _paused(state: PracticeState, data: Mapping[str, Any]) -> PracticeState:
    return replace(state, paused=True, pause_cause=data["cause"])


def _ended(state: PracticeState, data: Mapping[str, Any]) -> PracticeState:
    return replace(state, ended=True, end_reason=data["reason"], paused=False)


# How each event changes the state (the kit's `evolve` runs them after the clock rule).
EVOLVERS: dict[str, Callable[[PracticeState, Mapping[str, Any]], PracticeState]] = {
    "CardDealt": _dealt,
    "CardTouched": _touched,
    "AnswerJudged": unchanged,
    "CardSolved": _solved,
    "CardMissed": _missed,
    "RatingUpdated": _rated,
    "PracticePaused": _paused,
    "PracticeResumed": _resumed,
    "PracticeEnded": _ended,
}


def deadlines(state: PracticeState) -> list[Deadline]:
    """Each seat's live window: to touch its card, or to answer it (none while paused)."""
    if state.ended or state.paused:
        return []
    live = []
    for seat in state.seats:
        attempt = seat.current
        if attempt is None:
            continue
        kind = "touch" if attempt.touched_at is None else "answer"
        window = state.options.touch_us if kind == "touch" else state.options.answer_us
        key = f"{kind}:{seat.seat}:{attempt.number}:{attempt.window_from}"
        command = Command(DEADLINE_COMMANDS[kind], {"key": key}, SERVER_ACTOR)
        live.append(Deadline(key, attempt.window_from + window, command))
    return sorted(live, key=lambda deadline: (deadline.at, deadline.key))


def is_over(state: PracticeState) -> bool:
    return state.ended
