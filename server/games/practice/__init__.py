"""Practice at the right level (issue 31): a student plays alone against the server's cards,
each chosen by the difficulty model to their rating, timed and judged as at a tournament, and
each miss is shown at once with its solutions. A class may practise at one table: each
student plays their own stream of cards.

This module is the game's face for the shell (`server.games.base.Game`). The state and
`evolve` live in `practice/state.py`, the options in `practice/options.py`, the choice of the
next card in `practice/choice.py` (the pool of cards in `practice/pool.py`), the refusals
in `practice/refusals.py`, what each viewer sees in `practice/view.py`; `decide` and `evolve`
are built by the game kit (`server.games.kit`) from the table `COMMANDS` below;
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

from server.games.base import Command, Decision
from server.games.kit import PLAYER, TIMER, Hold, Kit, Rule
from server.games.practice.choice import choose
from server.games.practice.options import DEFAULT_OPTIONS as DEFAULT_OPTIONS
from server.games.practice.refusals import MAX_STEPS, refuse
from server.games.practice.refusals import REFUSALS as REFUSALS
from server.games.practice.state import (
    DEADLINE_COMMANDS,
    EVOLVERS,
    Attempt,
    PracticeState,
    SeatPractice,
)
from server.games.practice.state import EVENT_TYPES as EVENT_TYPES
from server.games.practice.state import FINAL_EVENTS as FINAL_EVENTS
from server.games.practice.state import deadlines as deadlines
from server.games.practice.state import initial_state as initial_state
from server.games.practice.state import is_over as is_over
from server.games.practice.view import event_view as event_view
from server.games.practice.view import redaction_group as redaction_group
from server.games.practice.view import secrets as secrets
from server.games.practice.view import view as view
from server.games.practice.view import view_group as view_group
from server.puzzles.card_facts import facts
from server.puzzles.expressions import check_solution
from server.ratings import card_prior, rate_attempt

NAME = "practice"
RECOVERY_COMMAND: str | None = "pause_practice"
SEED_OPTION: str | None = "seed"
# `from_log: true` at create_table: the shell fills `ratings` and `card_ratings` from the
# ratings across the log (server/runtime/ratings_query.py) and records them, never the flag.
LOG_RATINGS_OPTION: str | None = "from_log"


class _Decision(Decision[PracticeState]):
    def seat(self, seat_id: str | None) -> SeatPractice:
        """A seat of the table (the command's acting seat: the kit's seat reader found it)."""
        assert seat_id is not None
        seat = self.state.seat(seat_id)
        assert seat is not None
        return seat


def _current(seat: SeatPractice) -> Attempt:
    attempt = seat.current
    if attempt is None:
        raise refuse("no_card", f"seat {seat.seat} has no card in play: ask for the next one")
    return attempt


# -- consequences -----------------------------------------------------------------------------


def _finish(decision: _Decision, seat: SeatPractice, attempt: Attempt, solved: bool) -> None:
    """After a card is solved or missed: both ratings move (recorded), then the table ends
    when every student has played their cards."""
    after, card_after = rate_attempt(
        attempt.rating, attempt.card_rating, solved, card_prior(attempt.score).mu
    )
    decision.emit(
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
    state = decision.state
    if all(state.done(s) for s in state.seats):
        _end(decision, "all_played")


def _miss(decision: _Decision, seat: SeatPractice, reason: str, message: str = "") -> None:
    attempt = _current(seat)
    decision.emit(
        "CardMissed",
        seat=seat.seat,
        number=attempt.number,
        card_id=attempt.card_id,
        reason=reason,
        message=message,
        solutions=[dict(s) for s in facts(attempt.numbers).solutions],
        after_us=decision.now - attempt.dealt_at,
    )
    _finish(decision, decision.seat(seat.seat), attempt, solved=False)


def _end(decision: _Decision, reason: str) -> None:
    decision.emit(
        "PracticeEnded",
        reason=reason,
        ratings={seat.seat: seat.rating.as_data() for seat in decision.state.seats},
        played={seat.seat: seat.played for seat in decision.state.seats},
    )


# -- handlers ---------------------------------------------------------------------------------


def _next_card(decision: _Decision, command: Command, seat_id: str | None) -> None:
    seat = decision.seat(seat_id)
    if seat.current is not None:
        raise refuse("card_in_play", f"seat {seat.seat}: answer the card in play or give up")
    if decision.state.done(seat):
        raise refuse("all_cards_played", f"seat {seat.seat} played all {seat.played} cards")
    chosen = choose(decision.state, seat)
    decision.emit(
        "CardDealt",
        seat=seat.seat,
        number=seat.played + 1,
        card_id=chosen.card_id,
        numbers=list(chosen.numbers),
        score=chosen.score,
        card_rating=chosen.rating.as_data(),
        rating=seat.rating.as_data(),
    )


def _touch(decision: _Decision, command: Command, seat_id: str | None) -> None:
    seat = decision.seat(seat_id)
    attempt = _current(seat)
    if attempt.touched_at is not None:
        raise refuse("already_touched", f"card {attempt.number} is touched already (R-PLAY-2)")
    decision.emit("CardTouched", seat=seat.seat, number=attempt.number, rule="R-PLAY-2")


def _answer(decision: _Decision, command: Command, seat_id: str | None) -> None:
    seat = decision.seat(seat_id)
    attempt = _current(seat)
    if attempt.touched_at is None:
        raise refuse("touch_first", "touch the card before answering (R-PLAY-4)")
    if decision.now >= attempt.window_from + decision.state.options.answer_us:
        raise refuse("too_late", f"card {attempt.number}: the answer came after its window")
    pattern, steps = refuse.text_arg(command, "pattern"), refuse.steps_arg(command, MAX_STEPS)
    verdict = check_solution(attempt.numbers, pattern, steps)
    decision.emit(
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
        _miss(decision, seat, "wrong", verdict.message)
        return
    decision.emit(
        "CardSolved",
        seat=seat.seat,
        number=attempt.number,
        card_id=attempt.card_id,
        after_us=decision.now - attempt.dealt_at,
        touch_us=attempt.touched_at - attempt.dealt_at,
    )
    _finish(decision, decision.seat(seat.seat), attempt, solved=True)


def _give_up(decision: _Decision, command: Command, seat_id: str | None) -> None:
    seat = decision.seat(seat_id)
    _current(seat)
    _miss(decision, seat, "gave_up")


def _deadline_seat(decision: _Decision, command: Command) -> SeatPractice:
    key = command.args.get("key")
    seat_id = str(key).split(":")[1]
    return decision.seat(seat_id)


def _touch_deadline(decision: _Decision, command: Command, seat: str | None) -> None:
    _miss(decision, _deadline_seat(decision, command), "no_touch")


def _answer_deadline(decision: _Decision, command: Command, seat: str | None) -> None:
    _miss(decision, _deadline_seat(decision, command), "no_answer")


def _pause(decision: _Decision, command: Command, seat: str | None) -> None:
    if decision.state.paused:
        raise refuse("already_paused", f"paused since: {decision.state.pause_cause}")
    decision.emit("PracticePaused", cause=refuse.cause_arg(command, command.actor.role))


def _resume(decision: _Decision, command: Command, seat: str | None) -> None:
    if not decision.state.paused:
        raise refuse("not_paused", "the practice is not paused")
    decision.emit("PracticeResumed", cause=decision.state.pause_cause)


def _end_practice(decision: _Decision, command: Command, seat: str | None) -> None:
    if command.actor.role == PLAYER and len(decision.state.seats) > 1:
        raise refuse("not_allowed", "a student ends only a practice of their own")
    _end(decision, "ended")


# -- the table of commands --------------------------------------------------------------------

PLAYERS = frozenset({PLAYER})
STEWARDS = frozenset({"proctor", "director"})
PAUSED = ("paused",)

COMMANDS: dict[str, Rule[_Decision]] = {
    "next_card": Rule(PLAYERS, (), _next_card, seated=True),
    "touch": Rule(PLAYERS, (), _touch, seated=True),
    "answer": Rule(PLAYERS, (), _answer, seated=True),
    "give_up": Rule(PLAYERS, (), _give_up, seated=True),
    "end_practice": Rule(STEWARDS | PLAYERS, (), _end_practice, passes=PAUSED),
    "pause_practice": Rule(STEWARDS | TIMER, (), _pause, passes=PAUSED),
    "resume_practice": Rule(STEWARDS | PLAYERS, (), _resume, passes=PAUSED),
    "touch_deadline": Rule(TIMER, (), _touch_deadline),
    "answer_deadline": Rule(TIMER, (), _answer_deadline),
}
# Checks run in this order: the command, its arguments map, the sender, the practice's end, a
# player's seat, a timer's key (which implies no pause) or the pause, then the handler's own.
GAME = Kit(
    COMMANDS,
    refuse,
    EVOLVERS,
    _Decision,
    ("args", "sender", "over", "seat", "deadline", "paused"),
    holds=(
        Hold("over", lambda state: state.ended, "practice_over", "the practice has ended"),
        Hold("paused", lambda state: state.paused, "practice_paused", "the practice is paused"),
    ),
    deadlines=deadlines,
    deadline_commands=DEADLINE_COMMANDS,
)
decide, evolve, COMMANDS_BY_ROLE = GAME.decide, GAME.evolve, GAME.commands_by_role
