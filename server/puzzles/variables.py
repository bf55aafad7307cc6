"""The arithmetic of a *Variables* card (R-DECK-2; our reading of it: shared/rules Q1).

What this module keeps:
- A Variables side shows two *wheels* of three whole numbers. The player finds one whole
  number x from 1 to 9 that makes 24 with each wheel: each wheel and x are a four-number card
  with a three-step solution (R-PUZ-2). Published example: wheels 6 6 2 and 20 22 24, x = 2.
- A Variables solution names x and gives three steps for each wheel, six in all: wheel 1's
  first, then wheel 2's. The pattern (R-PUZ-3, said within 3 s, R-PLAY-4) is the last step of
  the first wheel; the second wheel's last step may be any step that makes 24.
- A generated Variables card has exactly one such x (it is "the" value of the variable, as an
  equation has one solution); the judge accepts any x of 1..9 that works, which for a
  generated card is that one.
- Difficulty (R-DECK-3): a side is as hard as the harder of its two four-number cards with
  its x (`difficulty.score`), cut into dots at the same thresholds (`dots_for_score`).

How it stays apart from the judge of four-number cards: everything here is built on the
public `solver.solvable`, `solver.solve`, `difficulty.score` and `expressions.check_solution`
of a wheel and x, so `notation.py` and `expressions.py` know nothing of Variables cards.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from server.puzzles.difficulty import dots_for_score
from server.puzzles.difficulty import score as card_score
from server.puzzles.expressions import (
    STEP_COUNT,
    Pattern,
    PuzzleSyntaxError,
    Verdict,
    check_solution,
    parse_step,
)
from server.puzzles.solver import Solution, solvable, solve

X_VALUES = range(1, 10)  # Q1: "one whole number x from 1 to 9"
WHEELS, WHEEL_SIZE = 2, 3
VARIABLES_STEP_COUNT = WHEELS * STEP_COUNT  # three steps for each wheel
# Any pattern that makes 24: the second wheel's steps are judged against it, and a
# `pattern_mismatch` then only means "a valid solution with another last step" (see
# `_wheel_makes_24`).
_ANY_24 = Pattern(Fraction(24), "*", Fraction(1))

Wheels = tuple[tuple[int, ...], ...]


def read_wheels(wheels: Sequence[Sequence[int]]) -> Wheels:
    """Two wheels of three whole numbers >= 0, as tuples; ValueError otherwise."""
    if len(wheels) != WHEELS or any(len(wheel) != WHEEL_SIZE for wheel in wheels):
        raise ValueError(f"a Variables side has two wheels of three numbers, not {wheels!r}")
    read = tuple(tuple(wheel) for wheel in wheels)
    if any(not isinstance(n, int) or isinstance(n, bool) or n < 0 for w in read for n in w):
        raise ValueError(f"a wheel holds whole numbers >= 0, not {wheels!r}")
    return read


@lru_cache(maxsize=4096)
def _wheel_values(wheel: tuple[int, ...]) -> frozenset[int]:
    """The x of 1..9 that make 24 with one (sorted) wheel; memoised: the generator asks for
    the same few thousand wheels again and again."""
    return frozenset(x for x in X_VALUES if solvable((*wheel, x)))


def variable_values(wheels: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Every x of 1..9 that makes 24 with each wheel (R-PUZ-2: three binary steps), in order."""
    first, second = (tuple(sorted(wheel)) for wheel in read_wheels(wheels))
    return tuple(sorted(_wheel_values(first) & _wheel_values(second)))


def has_solution(wheels: Sequence[Sequence[int]]) -> bool:
    """R-PUZ-4 for a Variables side: some x of 1..9 makes 24 with both wheels."""
    return bool(variable_values(wheels))


@lru_cache(maxsize=4096)
def wheel_score(wheel: tuple[int, ...], x: int) -> float:
    """`difficulty.score` of one wheel with x (memoised: the generator rates a wheel's first
    card, then the whole side)."""
    return card_score(tuple(sorted((*wheel, x))))


def score(wheels: Sequence[Sequence[int]]) -> float:
    """Difficulty (higher is harder): for the easiest x, the harder of the two wheels with x
    (`difficulty.score`); `math.inf` when no x works."""
    read = read_wheels(wheels)
    return min(
        (max(wheel_score(wheel, x) for wheel in read) for x in variable_values(read)),
        default=math.inf,
    )


def dots(wheels: Sequence[Sequence[int]]) -> int:
    """1, 2 or 3 dots (R-DECK-3) at the four-number cards' thresholds; ValueError without a
    solution (R-PUZ-4)."""
    value = score(wheels)
    if math.isinf(value):
        raise ValueError(f"the wheels {wheels!r} have no x that makes 24 with both")
    return dots_for_score(value)


@dataclass(frozen=True)
class VariablesSolution:
    """One answer to a Variables side: x and a solution of each wheel with x."""

    x: int
    wheels: tuple[Solution, Solution]

    @property
    def pattern(self) -> Pattern:
        """The pattern to declare (Q1): the last step of the first wheel."""
        return self.wheels[0].pattern

    @property
    def ascii_steps(self) -> tuple[str, ...]:
        """The six steps to fix, wheel 1's then wheel 2's."""
        return self.wheels[0].ascii_steps + self.wheels[1].ascii_steps


def solve_variables(wheels: Sequence[Sequence[int]]) -> VariablesSolution | None:
    """The simplest answer (each wheel's simplest solution, `solver.solve`) for the smallest
    x that works, or None."""
    read = read_wheels(wheels)
    for x in variable_values(read):
        first, second = (solve((*wheel, x)) for wheel in read)
        return VariablesSolution(x, (first[0], second[0]))
    return None


def _wheel_text(wheel: Sequence[int], x: int) -> str:
    return f"wheel {' '.join(map(str, wheel))} with x = {x}"


def _wheel_makes_24(card: tuple[int, ...], steps: Sequence[str]) -> Verdict:
    """Three steps that use the card's numbers and make 24, whatever the last step is.

    Why through `check_solution` with a pattern that makes 24: it judges the steps in full
    (each step read, available, exact, nothing left over, 24) before it compares the last
    step with the pattern, so its `pattern_mismatch` means "right, with another last step".
    """
    verdict = check_solution(card, _ANY_24, steps)
    if verdict.ok or verdict.reason == "pattern_mismatch":
        return Verdict(True, "", "correct", verdict.value)
    return verdict


def check_variables_solution(
    wheels: Sequence[Sequence[int]], x: int, pattern: str | Pattern, steps: Sequence[str]
) -> Verdict:
    """Judge a Variables answer (Q1, R-PUZ-2, R-PUZ-3): x, the pattern (the last step of the
    first wheel) and six steps, three for each wheel. Reasons are `expressions.REASONS`; the
    message names the wheel and x. ValueError for an x outside 1..9 (the table refuses it).

    The checks in order: six steps (a run-on step is reported as `run_on`), then the first
    wheel with x against the pattern (`check_solution`), then the second wheel with x (any
    last step that makes 24).
    """
    read = read_wheels(wheels)
    if not isinstance(x, int) or isinstance(x, bool) or x not in X_VALUES:
        raise ValueError(f"x is a whole number 1..9, not {x!r}")
    if len(steps) != VARIABLES_STEP_COUNT:
        for index, text in enumerate(steps):
            try:
                parse_step(text, label=f"step {index + 1}")
            except PuzzleSyntaxError as error:
                if error.reason == "run_on":
                    return Verdict(False, "run_on", error.message)
        return Verdict(
            False,
            "wrong_step_count",
            f"{len(steps)} steps given; a Variables solution has exactly "
            f"{VARIABLES_STEP_COUNT}, {STEP_COUNT} for each wheel (R-PUZ-2)",
        )
    first = check_solution((*read[0], x), pattern, steps[:STEP_COUNT])
    if not first.ok:
        message = f"{_wheel_text(read[0], x)}: {first.message}"
        return Verdict(False, first.reason, message, first.value)
    second = _wheel_makes_24((*read[1], x), steps[STEP_COUNT:])
    if not second.ok:
        message = f"{_wheel_text(read[1], x)}: {second.message}"
        return Verdict(False, second.reason, message, second.value)
    return Verdict(True, "", "correct", second.value)
