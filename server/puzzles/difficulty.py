"""How hard a card is for people, and its 1, 2 or 3 dots (R-DECK-3).

The model (fitted on human solve times, see `server/puzzles/calibration.py` and
docs/puzzles.md): a person finds *some* solution, and the easier solutions dominate. Each
distinct solution gets a cost, a weighted sum of what makes it hard for a human: divisions,
subtractions, multiplications, a fraction or a negative value on the way, the size of the
largest intermediate, the shape (two partial results joined at the end), the kind of the last
step, steps that multiply or divide by 1. The card's difficulty is the *soft minimum* of its
solutions' costs, `-log(sum(exp(-cost)))` (many easy solutions make a card easier than one),
plus a few card-level terms: how many 1s, numbers above 10, distinct numbers, and the log of
the number of distinct solutions.

Dots cut the score at two thresholds, the 25th and 75th percentiles of the scores of all 1,362
solvable cards of 1..13, so a random solvable card is 1, 2 or 3 dots with odds 1:2:1, the
12/24/12 mix of a deck (R-DECK-1); the edition generators then fill each dot class exactly.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from server.puzzles.solver import Solution, solve

# Per-solution cost weights, in the order of `solution_features`. Fitted by
# `calibration.fit` (coordinate ascent on Spearman's rho) on the 80% training part of
# server/puzzles/data/4nums-difficulty-train.csv (split seed `calibration.SPLIT_SEED`); the
# held-out 20% was not used. `tests/unit/test_difficulty.py` refits and checks these numbers.
SOLUTION_WEIGHTS: tuple[float, ...] = (
    -0.25,
    -0.75,
    2.75,
    10.35,
    1.0,
    4.85,
    0.0,
    0.5,
    1.75,
    -1.25,
    -7.6,
    8.25,
)
# Card-level weights, in the order of `card_features`.
CARD_WEIGHTS: tuple[float, ...] = (-2.0, -0.75, 2.25, -1.25)
# Dot thresholds on `score`: below the first is 1 dot, at or above the second is 3 dots.
DOT_THRESHOLDS: tuple[float, float] = (18.547127101487607, 22.547127101487607)

SOLUTION_FEATURES = (
    "divisions",
    "subtractions",
    "multiplications",
    "uses_fractions",
    "uses_negatives",
    "log_largest_intermediate",
    "joins_results",
    "last_step_divides",
    "last_step_subtracts",
    "last_step_multiplies",
    "steps_with_one",
    "fraction_in_first_step",
)
CARD_FEATURES = ("ones", "numbers_above_10", "distinct_numbers", "log_solutions")


def solution_features(solution: Solution) -> tuple[float, ...]:
    """What makes one solution hard for a person, as numbers (names in SOLUTION_FEATURES)."""
    ops = [step[1] for step in solution.arithmetic]
    last = solution.arithmetic[-1]
    with_one = sum(
        1
        for left, op, right, _ in solution.arithmetic
        if (op in "*/" and right == 1) or (op == "*" and left == 1)
    )
    return (
        float(ops.count("/")),
        float(ops.count("-")),
        float(ops.count("*")),
        float(solution.uses_fractions),
        float(solution.uses_negatives),
        math.log(max(float(solution.largest_intermediate), 1.0)),
        float(solution.joins_results),
        float(last[1] == "/"),
        float(last[1] == "-"),
        float(last[1] == "*"),
        float(with_one),
        float(solution.arithmetic[0][3].denominator != 1),
    )


def card_features(numbers: Sequence[int], solution_count: int) -> tuple[float, ...]:
    """Card-level terms (names in CARD_FEATURES)."""
    return (
        float(list(numbers).count(1)),
        float(sum(1 for n in numbers if n > 10)),
        float(len(set(numbers))),
        math.log1p(solution_count),
    )


def combine(
    solutions: Sequence[tuple[float, ...]],
    card: Sequence[float],
    solution_weights: Sequence[float],
    card_weights: Sequence[float],
) -> float:
    """The model itself: soft minimum of the solution costs plus the card terms."""
    if not solutions:
        return math.inf
    costs = [sum(w * x for w, x in zip(solution_weights, s, strict=True)) for s in solutions]
    lowest = min(costs)
    soft_min = lowest - math.log(sum(math.exp(lowest - cost) for cost in costs))
    return soft_min + sum(w * x for w, x in zip(card_weights, card, strict=True))


def score(numbers: Sequence[int]) -> float:
    """Difficulty of a card for people: higher is harder; `math.inf` when it has no solution.

    Why a score and not only dots: decks, hints and reports rank cards; dots are a coarse cut.
    """
    solutions = solve(numbers)
    return combine(
        [solution_features(s) for s in solutions],
        card_features(numbers, len(solutions)),
        SOLUTION_WEIGHTS,
        CARD_WEIGHTS,
    )


def dots_for_score(value: float) -> int:
    """Cut a score into 1, 2 or 3 dots at the calibrated thresholds."""
    low, high = DOT_THRESHOLDS
    if value < low:
        return 1
    if value < high:
        return 2
    return 3


def dots(numbers: Sequence[int]) -> int:
    """1, 2 or 3 dots (R-DECK-3); raises ValueError for a card with no solution (R-PUZ-4)."""
    value = score(numbers)
    if math.isinf(value):
        raise ValueError(f"{' '.join(map(str, numbers))} has no solution, so no dots")
    return dots_for_score(value)
