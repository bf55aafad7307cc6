"""Practice at the right level (issue 31): a student plays alone against the server's cards,
each chosen by the difficulty model to their rating, timed and judged as at a tournament, and
each miss is shown at once with its solutions. A class may practise at one table: each
student plays their own stream of cards.

This module is the game's face for the shell (`server.games.base.Game`). The state and
`evolve` live in `practice/state.py`, the options in `practice/options.py`, the choice of the
next card in `practice/choice.py` (the pool of cards in `practice/pool.py`), the refusals
and argument readers in `practice/checks.py`, what each viewer sees in `practice/view.py`;
the rating arithmetic is `server.ratings` (openskill).

How a card goes (docs/games/practice.md):
- `next_card`: the student's next card is dealt face up (`CardDealt`, with its difficulty
  score and rating and the student's rating then); the touch window opens (15 s, as a
  tournament's no-touch window, R-PLAY-7).
- `touch` (R-PLAY-2) opens the answer window (15 s, R-PLAY-5); `answer` gives the pattern and
  the three steps, judged exactly by the tournament's judge (`check_solution`, R-PUZ-2/3).
- Right: `CardSolved`. Wrong, no touch in time, no answer in time, or `give_up`: `CardMissed`
  with the reason and the card's simplest solutions (from the solver), shown at once.
- Then `RatingUpdated`: the student's rating and the card's before and after, computed once
  here and recorded, so a replay reads them (server/ratings.py).
- When every student has played the table's `cards`, `PracticeEnded` (also `end_practice`).

HIDDEN: the seed (`TableCreated.options.seed`), which with the pool would tell which cards
come next, is hidden from players and spectators; everything else is face up (a class sees
each other's cards and ratings, as a class sees each other's practice). Proctors, directors,
auditors and the server see everything.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from server.games.base import SERVER, Command, Event, EventBatch, due_deadline
from server.games.practice.checks import (
    REFUSALS,
    acting_seat,
    cause_arg,
    refuse,
    steps_arg,
    text_arg,
)
from server.games.practice.choice import choose
from server.games.practice.options import DEFAULT_OPTIONS
from server.games.practice.state import (
    DEADLINE_COMMANDS,
    EVENT_TYPES,
    FINAL_EVENTS,
    Attempt,
    PracticeState,
    SeatPractice,
    deadlines,
    evolve,
    initial_state,
    is_over,
)
from server.games.practice.view import event_view, redaction_group, secrets, view, view_group
from server.puzzles.card_facts import facts
from server.puzzles.expressions import check_solution
from server.ratings import card_prior, rate_attempt

NAME = "practice"
RECOVERY_COMMAND: str | None = "pause_practice"
SEED_OPTION: str | None = "seed"
# `from_log: true` at create_table: the shell fills `ratings` and `card_ratings` from the
# ratings across the log (server/runtime/ratings_query.py) and records them, never the flag.
LOG_RATINGS_OPTION: str | None = "from_log"

__all__ = [
    "COMMANDS",
    "COMMANDS_BY_ROLE",
    "DEFAULT_OPTIONS",
    "EVENT_TYPES",
    "FINAL_EVENTS",
    "LOG_RATINGS_OPTION",
    "NAME",
    "RECOVERY_COMMAND",
    "REFUSALS",
    "SEED_OPTION",
    "decide",
    "deadlines",
    "event_view",
    "evolve",
    "initial_state",
    "is_over",
    "redaction_group",
    "secrets",
    "view",
    "view_group",
]


class _Batch(EventBatch[PracticeState]):
    def __init__(self, state: PracticeState, now: int) -> None:
        super().__init__(state, now, evolve)

    def seat(self, seat_id: str) -> SeatPractice:
        seat = self.state.seat(seat_id)
        assert seat is not None
        return seat


def _current(seat: SeatPractice) -> Attempt:
    attempt = seat.current
    if attempt is None:
        raise refuse("no_card", f"seat {seat.seat} has no card in play: ask for the next one")
    return attempt


# -- consequences -----------------------------------------------------------------------------


def _finish(batch: _Batch, seat: SeatPractice, attempt: Attempt, solved: bool) -> None:
    """After a card is solved or missed: both ratings move (recorded), then the table ends
    when every student has played their cards."""
    after, card_after = rate_attempt(
        attempt.rating, attempt.card_rating, solved, card_prior(attempt.score).mu
    )
    batch.emit(
        "RatingUpdated",
        seat=seat.seat,
        number=attempt.number,
        card_id=attempt.card_id,
        solved=solved,
        before=attempt.rating.as_data(),
        after=after.as_data(),
        card_before=attempt.card_rating.as_data(),
        card_after=card_after.as_data(),
    )
    state = batch.state
    if all(state.done(s) for s in state.seats):
        _end(batch, "all_played")


def _miss(batch: _Batch, seat: SeatPractice, reason: str, message: str = "") -> None:
    attempt = _current(seat)
    batch.emit(
        "CardMissed",
        seat=seat.seat,
        number=attempt.number,
        card_id=attempt.card_id,
        reason=reason,
        message=message,
        solutions=[dict(s) for s in facts(attempt.numbers).solutions],
        after_us=batch.now - attempt.dealt_at,
    )
    _finish(batch, batch.seat(seat.seat), attempt, solved=False)


def _end(batch: _Batch, reason: str) -> None:
    batch.emit(
        "PracticeEnded",
        reason=reason,
        ratings={seat.seat: seat.rating.as_data() for seat in batch.state.seats},
        played={seat.seat: seat.played for seat in batch.state.seats},
    )


# -- handlers ---------------------------------------------------------------------------------


def _next_card(batch: _Batch, command: Command, seat: SeatPractice | None) -> None:
    assert seat is not None
    if seat.current is not None:
        raise refuse("card_in_play", f"seat {seat.seat}: answer the card in play or give up")
    if batch.state.done(seat):
        raise refuse("all_cards_played", f"seat {seat.seat} played all {seat.played} cards")
    chosen = choose(batch.state, seat)
    batch.emit(
        "CardDealt",
        seat=seat.seat,
        number=seat.played + 1,
        card_id=chosen.card_id,
        numbers=list(chosen.numbers),
        score=chosen.score,
        card_rating=chosen.rating.as_data(),
        rating=seat.rating.as_data(),
    )


def _touch(batch: _Batch, command: Command, seat: SeatPractice | None) -> None:
    assert seat is not None
    attempt = _current(seat)
    if attempt.touched_at is not None:
        raise refuse("already_touched", f"card {attempt.number} is touched already (R-PLAY-2)")
    batch.emit("CardTouched", seat=seat.seat, number=attempt.number, rule="R-PLAY-2")


def _answer(batch: _Batch, command: Command, seat: SeatPractice | None) -> None:
    assert seat is not None
    attempt = _current(seat)
    if attempt.touched_at is None:
        raise refuse("touch_first", "touch the card before answering (R-PLAY-4)")
    if batch.now >= attempt.window_from + batch.state.options.answer_us:
        raise refuse("too_late", f"card {attempt.number}: the answer came after its window")
    pattern, steps = text_arg(command, "pattern"), steps_arg(command)
    verdict = check_solution(attempt.numbers, pattern, steps)
    batch.emit(
        "AnswerJudged",
        seat=seat.seat,
        number=attempt.number,
        pattern=pattern,
        steps=list(steps),
        ok=verdict.ok,
        reason=verdict.reason,
        message=verdict.message,
        rule="R-PUZ-2",
    )
    if not verdict.ok:
        _miss(batch, seat, "wrong", verdict.message)
        return
    batch.emit(
        "CardSolved",
        seat=seat.seat,
        number=attempt.number,
        card_id=attempt.card_id,
        after_us=batch.now - attempt.dealt_at,
        touch_us=attempt.touched_at - attempt.dealt_at,
    )
    _finish(batch, batch.seat(seat.seat), attempt, solved=True)


def _give_up(batch: _Batch, command: Command, seat: SeatPractice | None) -> None:
    assert seat is not None
    _current(seat)
    _miss(batch, seat, "gave_up")


def _deadline_seat(batch: _Batch, command: Command) -> SeatPractice:
    key = command.args.get("key")
    seat_id = str(key).split(":")[1]
    return batch.seat(seat_id)


def _touch_deadline(batch: _Batch, command: Command, seat: SeatPractice | None) -> None:
    _miss(batch, _deadline_seat(batch, command), "no_touch")


def _answer_deadline(batch: _Batch, command: Command, seat: SeatPractice | None) -> None:
    _miss(batch, _deadline_seat(batch, command), "no_answer")


def _pause(batch: _Batch, command: Command, seat: SeatPractice | None) -> None:
    if batch.state.paused:
        raise refuse("already_paused", f"paused since: {batch.state.pause_cause}")
    batch.emit("PracticePaused", cause=cause_arg(command, command.actor.role))


def _resume(batch: _Batch, command: Command, seat: SeatPractice | None) -> None:
    if not batch.state.paused:
        raise refuse("not_paused", "the practice is not paused")
    batch.emit("PracticeResumed", cause=batch.state.pause_cause)


def _end_practice(batch: _Batch, command: Command, seat: SeatPractice | None) -> None:
    if command.actor.role == PLAYER and len(batch.state.seats) > 1:
        raise refuse("not_allowed", "a student ends only a practice of their own")
    _end(batch, "ended")


# -- the table of commands --------------------------------------------------------------------

Handler = Callable[[_Batch, Command, "SeatPractice | None"], None]
PLAYER = "player"
STEWARDS = frozenset({"proctor", "director"})
TIMER = frozenset({SERVER})


@dataclass(frozen=True)
class CommandRule:
    """Who may send a command, whether it acts for the sender's seat, and whether a paused
    practice accepts it."""

    roles: frozenset[str]
    handler: Handler
    seated: bool = False
    while_paused: bool = False


COMMANDS: dict[str, CommandRule] = {
    "next_card": CommandRule(frozenset({PLAYER}), _next_card, seated=True),
    "touch": CommandRule(frozenset({PLAYER}), _touch, seated=True),
    "answer": CommandRule(frozenset({PLAYER}), _answer, seated=True),
    "give_up": CommandRule(frozenset({PLAYER}), _give_up, seated=True),
    "end_practice": CommandRule(STEWARDS | {PLAYER}, _end_practice, while_paused=True),
    "pause_practice": CommandRule(STEWARDS | TIMER, _pause, while_paused=True),
    "resume_practice": CommandRule(STEWARDS | {PLAYER}, _resume, while_paused=True),
    "touch_deadline": CommandRule(TIMER, _touch_deadline),
    "answer_deadline": CommandRule(TIMER, _answer_deadline),
}
COMMANDS_BY_ROLE: Mapping[str, frozenset[str]] = {
    name: rule.roles for name, rule in COMMANDS.items()
}
FIRED_BY_DEADLINE = frozenset(DEADLINE_COMMANDS.values())


def decide(state: PracticeState, command: Command, now: int) -> list[Event]:
    """The events a command causes at `now` (microseconds), or a RuleViolation saying why not.

    Checks run in this order: command, arguments map, role, the game's end, the seat, a
    deadline's key or the pause, then the handler's own.
    """
    rule = COMMANDS.get(command.name)
    if rule is None:
        raise refuse("unknown_command", f"unknown command {command.name!r}")
    if not isinstance(command.args, Mapping):
        raise refuse("bad_args", f"{command.name}: arguments are a map")
    if command.actor.role not in rule.roles:
        raise refuse("not_allowed", f"{command.actor.role!r} may not send {command.name}")
    if state.ended:
        raise refuse("practice_over", f"{command.name}: the practice has ended")
    now = max(now, state.clock)  # the table's clock never runs backwards
    seat = acting_seat(state, command) if rule.seated else None
    if command.actor.role == PLAYER and seat is None and state.seat(command.actor.id) is None:
        raise refuse("unknown_seat", f"no seat {command.actor.id!r} at this table")
    if command.actor.role == SERVER and command.name in FIRED_BY_DEADLINE:
        now = max(now, due_deadline(deadlines(state), command, now, refuse).at)
    elif state.paused and not rule.while_paused:
        raise refuse("practice_paused", f"{command.name}: the practice is paused")
    batch = _Batch(state, now)
    rule.handler(batch, command, seat)
    return batch.events
