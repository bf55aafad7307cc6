"""The simulated tournament's bots answer every card they are shown (`t24 tournament
simulate`, clients/reference_cli/tournament_bots.py): a four-number card with three steps, a
Variables side (R-DECK-2, Q1) with x and three steps for each wheel; the table's judge takes
both."""

from __future__ import annotations

import math

from clients.reference_cli.tournament_bots import card_answer
from server.puzzles.expressions import check_solution
from server.puzzles.variables import check_variables_solution


def test_the_bots_answer_a_variables_side_with_x_and_six_steps_Q1():
    wheels = [[6, 6, 2], [20, 22, 24]]
    answer, score = card_answer({"wheels": wheels, "numbers": [6, 6, 2, 20, 22, 24]})
    assert answer is not None and math.isfinite(score)
    pattern, steps, x = answer
    assert x == 1 and len(steps) == 6  # the smallest x that works
    assert check_variables_solution(wheels, x, pattern, steps).ok


def test_the_bots_answer_a_four_number_card_without_x_and_skip_an_unsolvable_one():
    answer, _score = card_answer({"numbers": [3, 3, 8, 8]})
    assert answer is not None
    pattern, steps, x = answer
    assert x is None and check_solution((3, 3, 8, 8), pattern, steps).ok
    assert card_answer({"numbers": [1, 1, 1, 1]}) == (None, math.inf)
    assert card_answer({"wheels": [[1, 1, 1], [9, 9, 9]]}) == (None, math.inf)
