"""Which card a student gets next: one of the cards rated nearest their rating now.

What it keeps (issue 31, the lessons of lichess's puzzles):
- the target is the student's rating *after* their last card (plus the table's `aim`), so the
  next card follows the rating at once, not after a hundred cards (lila 19101, 16619);
- the candidates are the `NEAREST` unplayed cards whose ratings are closest to the target,
  above or below alike: never "every card below the target" (lila 4684, a flood of easy
  puzzles), never a card the student had before at this table;
- among them one is picked with a generator seeded by the table's secret seed, the seat and
  the card's number: the same state always makes the same choice, and it is recorded
  (`CardDealt`), so a replay never runs this again.

A class's stream (option `stream: class`): every student's card n is the same card. The first
student to ask for card n has it chosen as above, but at the class's level (the mean of the
seats' ratings now, plus `aim`) and among the cards not yet in the stream; every later student
gets that card, at the rating the table's attempts have given it since. Why the mean: one
stream is for a class that works the same cards together (and talks them over after); it
follows the class as a whole, while each student's own rating still moves with their own
answers.

A card's rating is the one this table's attempts gave it (`PracticeState.card_ratings`), else
its prior from the difficulty model (`ratings.card_prior`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from server.games.practice.options import CLASS_STREAM
from server.games.practice.pool import pool
from server.games.practice.state import PracticeState, SeatPractice
from server.ratings import Rating, card_prior

NEAREST = 8  # the candidates the seeded pick chooses among


@dataclass(frozen=True)
class Choice:
    """The card to deal: its id (the sorted numbers as text), numbers, score and rating."""

    card_id: str
    numbers: tuple[int, ...]
    score: float
    rating: Rating


def card_id_of(numbers: tuple[int, ...]) -> str:
    return " ".join(map(str, sorted(numbers)))


def _in_stream(state: PracticeState, number: int) -> Choice | None:
    """Card `number` of a class's stream, when a student has had it already."""
    for other in state.seats:
        if len(other.attempts) >= number:
            dealt = other.attempts[number - 1]
            rating = state.card_ratings.get(dealt.card_id) or card_prior(dealt.score)
            return Choice(dealt.card_id, dealt.numbers, dealt.score, rating)
    return None


def choose(state: PracticeState, seat: SeatPractice) -> Choice:
    """The next card for `seat` (see the module doc)."""
    played = {attempt.card_id for attempt in seat.attempts}
    if state.options.stream == CLASS_STREAM:
        dealt = _in_stream(state, len(seat.attempts) + 1)
        if dealt is not None:
            return dealt
        level = sum(s.rating.mu for s in state.seats) / len(state.seats)
        target = level + state.options.aim
        generator = random.Random(f"t24/practice/{state.options.seed}/class/{len(played)}")
    else:
        target = seat.rating.mu + state.options.aim
        generator = random.Random(f"t24/practice/{state.options.seed}/{seat.seat}/{len(played)}")
    candidates = []
    for numbers, score in pool():
        card_id = card_id_of(numbers)
        if card_id in played:
            continue
        rating = state.card_ratings.get(card_id) or card_prior(score)
        candidates.append((abs(rating.mu - target), card_id, numbers, score, rating))
    candidates.sort(key=lambda c: (c[0], c[1]))
    nearest = candidates[:NEAREST]
    _distance, card_id, numbers, score, rating = nearest[generator.randrange(len(nearest))]
    return Choice(card_id, numbers, score, rating)
