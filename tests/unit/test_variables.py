"""Variables cards (R-DECK-2; shared/rules/24-challenge.md Q1, our reading): two wheels of
three numbers, one x of 1..9 that makes 24 with each wheel; the answer names x and gives three
steps for each wheel (R-PUZ-2); the pattern is the first wheel's last step (R-PUZ-3).
`server.puzzles.variables` (the arithmetic and the judge) and `editions.variables_cards` (the
edition, R-DECK-1/3, R-PUZ-4)."""

from __future__ import annotations

from collections import Counter

import pytest

from server.puzzles import variables
from server.puzzles.editions import CardSide, TournamentCard, tournament_deck, variables_cards
from server.puzzles.expressions import check_solution
from server.puzzles.variables import (
    check_variables_solution,
    solve_variables,
    variable_values,
)

# The published example (Q1): wheels 6 6 2 and 20 22 24 with x = 2.
EXAMPLE = ((6, 6, 2), (20, 22, 24))
PATTERN = "12 + 12"  # the last step of the first wheel
FIRST = ["6 * 2 = 12", "6 * 2 = 12", "12 + 12 = 24"]  # 6 6 2 and x = 2
SECOND = ["24 - 22 = 2", "2 + 2 = 4", "20 + 4 = 24"]  # 20 22 24 and x = 2
SEED = 7


def deck() -> tuple[TournamentCard, ...]:
    return tournament_deck("variables", SEED)  # cached: drawn once for the session


# -- the arithmetic -------------------------------------------------------------------------


def test_given_the_published_wheels_then_x_2_makes_24_with_each_Q1_R_PUZ_2():
    assert 2 in variable_values(EXAMPLE)
    assert variable_values(EXAMPLE) == (1, 2, 3, 6, 8)  # the example has several
    assert variable_values(((1, 1, 1), (9, 9, 9))) == ()  # 1 1 1 x needs x = 8; 9 9 9 8 fails
    assert not variables.has_solution(((1, 1, 1), (9, 9, 9)))
    assert variables.dots(EXAMPLE) in (1, 2, 3)
    with pytest.raises(ValueError, match="no x"):
        variables.dots(((1, 1, 1), (9, 9, 9)))
    with pytest.raises(ValueError, match="two wheels of three"):
        variable_values(((6, 6, 2),))


def test_given_x_and_six_steps_when_judged_then_correct_Q1_R_PUZ_2():
    verdict = check_variables_solution(EXAMPLE, 2, PATTERN, FIRST + SECOND)
    assert (verdict.ok, verdict.reason, verdict.value) == (True, "", 24)
    # the second wheel's last step is free (only the first wheel's is the pattern, R-PUZ-3)
    other_last = ["24 - 22 = 2", "2 + 2 = 4", "4 + 20"]
    assert check_variables_solution(EXAMPLE, 2, PATTERN, FIRST + other_last).ok
    # another x that works is another right answer: 6 6 2 and 1, 20 22 24 and 1
    with_one = ["6 - 2 = 4", "1 * 6 = 6", "4 * 6 = 24", "22 - 20 = 2", "2 - 1 = 1", "1 * 24 = 24"]
    assert check_variables_solution(EXAMPLE, 1, "4 * 6", with_one).ok
    assert not check_variables_solution(EXAMPLE, 1, PATTERN, FIRST + SECOND).ok


@pytest.mark.parametrize(
    "x, pattern, steps, reason, message",
    [
        (
            3,  # x = 3 with 6 6 2: the steps of x = 2 use a 2 that is not there
            PATTERN,
            FIRST + SECOND,
            "value_not_available",
            "wheel 6 6 2 with x = 3: step 2: 2 is not available (available: 3, 6, 12)",
        ),
        (
            2,
            "6 × 4",  # a pattern that is not the first wheel's last step (R-PUZ-3)
            FIRST + SECOND,
            "pattern_mismatch",
            "wheel 6 6 2 with x = 2: the last step 12 + 12 is not the declared pattern 6 × 4 "
            "(R-PUZ-3)",
        ),
        (
            2,
            PATTERN,
            [*FIRST, "24 - 22 = 2", "2 + 2 = 4", "20 + 4 = 25"],
            "step_result_wrong",
            "wheel 20 22 24 with x = 2: step 3: 20 + 4 makes 24, not 25",
        ),
        (
            2,
            PATTERN,
            [*FIRST, "24 - 22 = 2", "2 * 2 = 4", "20 - 4 = 16"],
            "not_24",
            "wheel 20 22 24 with x = 2: step 3 makes 16, not 24",
        ),
        (
            2,
            PATTERN,
            FIRST + SECOND[:2],
            "wrong_step_count",
            "5 steps given; a Variables solution has exactly 6, 3 for each wheel (R-PUZ-2)",
        ),
        (
            2,
            PATTERN,
            ["6 * 2 * 2 = 24", *SECOND],
            "run_on",
            None,
        ),
    ],
)
def test_given_a_wrong_variables_answer_when_judged_then_the_reason_names_the_wheel(
    x, pattern, steps, reason, message
):
    """Q1, R-PUZ-2, R-PUZ-3: the checks and reasons of `check_solution`, wheel by wheel;
    the message says which wheel and which x."""
    verdict = check_variables_solution(EXAMPLE, x, pattern, steps)
    assert (verdict.ok, verdict.reason) == (False, reason)
    if message is not None:
        assert verdict.message == message


def test_the_second_wheel_is_judged_in_full_whatever_its_last_step():
    """Why `_wheel_makes_24` may read `pattern_mismatch` as right: `check_solution` compares
    the last step with the pattern only after every other check passed (R-PUZ-2)."""
    card = (20, 22, 24, 2)
    assert check_solution(card, "24 × 1", SECOND).reason == "pattern_mismatch"
    assert check_solution(card, "24 × 1", ["24 - 22 = 2", "2 + 2 = 4", "20 + 2"]).reason == (
        "value_not_available"
    )
    assert check_solution(card, "24 × 1", ["24 - 22 = 2", "2 + 2 = 4", "20 - 4"]).reason == (
        "not_24"
    )


def test_an_x_outside_1_to_9_is_a_caller_error():
    for x in (0, 10, True):
        with pytest.raises(ValueError, match="x is a whole number 1..9"):
            check_variables_solution(EXAMPLE, x, PATTERN, FIRST + SECOND)


# -- the edition ------------------------------------------------------------------------------


def test_given_a_seed_then_48_variables_cards_with_one_x_and_12_24_12_dots_R_DECK_1_R_DECK_3():
    cards = deck()
    assert [card.card_id for card in cards] == [f"VAR-{n:02d}" for n in range(1, 49)]
    sides = [card.side(colour) for card in cards for colour in ("red", "white")]
    for colour in ("red", "white"):
        assert Counter(card.side(colour).dots for card in cards) == {1: 12, 2: 24, 3: 12}
    keys = {tuple(sorted(tuple(sorted(wheel)) for wheel in side.wheels or ())) for side in sides}
    assert len(keys) == 96  # no side twice
    for side in sides:
        assert side.wheels is not None and len(side.wheels) == 2
        assert side.numbers == side.wheels[0] + side.wheels[1]
        assert all(1 <= n <= 24 for n in side.numbers)
        assert len(variable_values(side.wheels)) == 1  # the card's one x (R-PUZ-4)
        assert variables.dots(side.wheels) == side.dots
    red = cards[0].red
    assert red.as_dict() == {"wheels": [list(w) for w in red.wheels or ()], "dots": red.dots}


def test_every_variables_side_is_solved_and_the_judge_accepts_the_answer_R_PUZ_4():
    for card in deck():
        for side in (card.red, card.white):
            assert side.wheels is not None
            answer = solve_variables(side.wheels)
            assert answer is not None and answer.x == variable_values(side.wheels)[0]
            verdict = check_variables_solution(
                side.wheels, answer.x, answer.pattern, answer.ascii_steps
            )
            assert verdict.ok, (side, answer, verdict)
    assert solve_variables(((1, 1, 1), (9, 9, 9))) is None


def test_the_variables_deck_is_the_same_for_a_seed_years_later():
    """A deck recorded in a log must be drawn again identically (fixed vector)."""
    first = deck()[0]
    assert first == TournamentCard(
        "VAR-01",
        CardSide((7, 22, 9, 10, 18, 23), 2, ((7, 22, 9), (10, 18, 23))),
        CardSide((8, 14, 11, 13, 3, 24), 2, ((8, 14, 11), (13, 3, 24))),
    )
    assert variables_cards(SEED) == deck()
