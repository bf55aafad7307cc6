"""What the solver and the difficulty model say of one card: the only knowledge the analysis
adds to the log.

Why a module of its own: the analysis is a pure function of the events *and the solver*
(issue 31); every fact that does not come from an event comes from here, so a test can
check that nothing else is read (tests/unit/test_analysis_purity.py). The answers are
memoised per card: a tournament grade plays the same card at many tables.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from server.puzzles import difficulty, variables
from server.puzzles.solver import solve

SHOWN_SOLUTIONS = 3  # the simplest solutions a person is shown; the count says how many exist


@dataclass(frozen=True)
class CardFacts:
    """A card's difficulty (`score`: higher is harder, None when it has no solution), the
    model's dots for it, and its simplest solutions (expression, pattern, steps)."""

    score: float | None
    model_dots: int | None
    solutions: tuple[dict[str, Any], ...]
    solution_count: int

    def as_data(self) -> dict[str, Any]:
        """Plain data (JSON, msgpack): the score rounded to what a person reads."""
        return {
            "score": None if self.score is None else round(self.score, 2),
            "model_dots": self.model_dots,
            "solutions": [dict(solution) for solution in self.solutions],
            "solution_count": self.solution_count,
        }


def facts(numbers: Sequence[int], wheels: Sequence[Sequence[int]] | None = None) -> CardFacts:
    """The facts of a four-number card, or of a Variables side when `wheels` are given."""
    if wheels:
        return _variables_facts(tuple(tuple(wheel) for wheel in wheels))
    return _card_facts(tuple(numbers))


@lru_cache(maxsize=4096)
def _card_facts(numbers: tuple[int, ...]) -> CardFacts:
    try:
        solutions = solve(numbers)
    except ValueError:  # not a card the solver takes (a casual table's odd numbers)
        return CardFacts(None, None, (), 0)
    if not solutions:
        return CardFacts(None, None, (), 0)
    value = difficulty.score(numbers)
    shown = tuple(
        {
            "expression": solution.ascii_expression,
            "pattern": str(solution.pattern),
            "steps": list(solution.ascii_steps),
        }
        for solution in solutions[:SHOWN_SOLUTIONS]
    )
    return CardFacts(value, difficulty.dots_for_score(value), shown, len(solutions))


@lru_cache(maxsize=1024)
def _variables_facts(wheels: tuple[tuple[int, ...], ...]) -> CardFacts:
    try:
        value = variables.score(wheels)
        solution = variables.solve_variables(wheels)
    except ValueError:
        return CardFacts(None, None, (), 0)
    if solution is None or math.isinf(value):
        return CardFacts(None, None, (), 0)
    shown = (
        {
            "x": solution.x,
            "expression": " ; ".join(wheel.ascii_expression for wheel in solution.wheels),
            "pattern": str(solution.pattern),
            "steps": list(solution.ascii_steps),
        },
    )
    return CardFacts(value, difficulty.dots_for_score(value), shown, 1)
