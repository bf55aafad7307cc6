"""Exact verdicts of the judge (R-PUZ-1..3): the whole `Verdict` (ok, reason, message, value),
not only `not ok`, for every refusal reason and for the edges where a small slip in the judge
would turn a wrong answer into a right one (issue 20, found by mutation testing).

Why whole verdicts: the verdict is recorded in the log (`SolutionJudged`) as the auditor reads
it; a test that checks only `reason` lets `ok` become None or True unnoticed.
"""

from fractions import Fraction

import pytest

from server.puzzles.expressions import (
    REASONS,
    Pattern,
    Verdict,
    check_expression,
    check_solution,
    parse_pattern,
)


def refused(reason: str, message: str, value: Fraction | int | None = None) -> Verdict:
    """The verdict of a refusal: `ok` is exactly False, not merely falsy."""
    return Verdict(False, reason, message, None if value is None else Fraction(value))


CORRECT = Verdict(True, "", "correct", Fraction(24))
RIGHT = ["1 × 2 = 2", "2 × 3 = 6", "6 × 4 = 24"]  # on 1 2 3 4, pattern 6 × 4

# -- tournament solutions: one exact verdict per refusal reason (R-PUZ-2, R-PUZ-3) -----------

SOLUTIONS = [
    ((3, 3, 8, 8), "8 ÷ 1/3", ["8 ÷ 3 = 8/3", "3 − 8/3 = 1/3", "8 ÷ 1/3 = 24"], CORRECT),
    ((1, 2, 3, 4), "6 × 4", RIGHT, CORRECT),
    ((1, 2, 3, 4), "4 × 6", RIGHT, CORRECT),  # R-PUZ-3: operand order is free for ×
    ((1, 2, 3, 4), "6 × 4", ["1 × 2 = 2", "2 × 3 = 6", "6 x 4 = 24"], CORRECT),
    (
        (1, 2, 3, 4),
        "3 . 8",
        RIGHT,
        refused(
            "syntax",
            "pattern: unexpected '.' at position 3: decimals are not allowed; "
            "write fractions as n/d, e.g. 8/3",
        ),
    ),
    (
        (1, 2, 3, 4),
        "1" * 201,
        RIGHT,
        refused("too_long", "pattern: the text has 201 characters; at most 200"),
    ),
    (
        (1, 2, 3, 4),
        "8 ÷ 0",
        RIGHT,
        refused("division_by_zero", "the pattern 8 ÷ 0 divides by zero"),
    ),
    (
        (1, 2, 3, 4),
        "6 ÷ 4",
        RIGHT,
        refused("pattern_not_24", "the pattern 6 ÷ 4 makes 3/2, not 24", Fraction(3, 2)),
    ),
    (
        (1, 2, 3, 4),
        "6 − 4",
        RIGHT,
        refused("pattern_not_24", "the pattern 6 − 4 makes 2, not 24", 2),
    ),
    (
        (1, 2, 3, 4),
        "6 × 4",
        RIGHT[:2],
        refused("wrong_step_count", "2 steps given; a solution has exactly 3 (R-PUZ-2)"),
    ),
    (
        (1, 2, 3, 4),
        "6 × 4",
        [*RIGHT, "1"],
        refused("wrong_step_count", "4 steps given; a solution has exactly 3 (R-PUZ-2)"),
    ),
    (
        (1, 2, 3, 4),
        "6 × 4",
        ["1 × 2 × 3 = 6", "6 × 4 = 24"],
        refused("run_on", "step 1 '1 × 2 × 3 = 6' has more than one operation (R-PUZ-2)"),
    ),
    (
        (1, 2, 3, 4),
        "6 × 4",
        ["1 × 2 = 2", "2 × 3 = 6", "6 × 4 × 1 = 24", "1"],
        refused("run_on", "step 3 '6 × 4 × 1 = 24' has more than one operation (R-PUZ-2)"),
    ),
    (
        (1, 2, 3, 4),
        "6 × 4",
        ["1 × 2 = 2", "2 × 3 = 6", "6 × 4 = 24 = 24"],
        refused("run_on", "step 3 chains several '=': write one operation per step (R-PUZ-2)"),
    ),
    (  # an '=' first, then another: still several '=', not a step without an operand
        (1, 2, 3, 4),
        "6 × 4",
        ["1 × 2 = 2", "= 1 = 2", "6 × 4 = 24"],
        refused("run_on", "step 2 chains several '=': write one operation per step (R-PUZ-2)"),
    ),
    (
        (1, 2, 3, 4),
        "6 × 4",
        ["1 × 2 = 2", "2 × 3 = 6", "6 × 4 = 20 + 4"],
        refused("run_on", "step 3 continues after '=': one operation per step (R-PUZ-2)"),
    ),
    (
        (1, 2, 3, 4),
        "6 × 4",
        ["1 × 2 = 2", "2 × 3 = 6", ""],
        refused("syntax", "step 3 is empty"),
    ),
    (
        (1, 2, 3, 4),
        "6 × 4",
        ["1 × 2 = 2", "2 × 3 = 6", "6 × 4 ="],
        refused("syntax", "step 3 needs a number after '='"),
    ),
    (
        (1, 2, 3, 4),
        "6 × 4",
        ["1 × 2 = 2", "(2 × 3) = 6", "6 × 4 = 24"],
        refused("syntax", "step 2 has brackets; only a fraction is bracketed, e.g. 8 ÷ (1/3)"),
    ),
    (
        (1, 2, 3, 4),
        "6 × 4",
        ["1 × 2 = 2", "2 3 = 6", "6 × 4 = 24"],
        refused("syntax", "step 2 '2 3 = 6' is not of the form 'a op b' (e.g. 8 ÷ 3 = 8/3)"),
    ),
    (
        (1, 2, 3, 4),
        "6 × 4",
        ["1 × 2 = 2", "2 × 3 = 6", "x" * 201],
        refused("too_long", "the text has 201 characters; at most 200"),
    ),
    (
        (1, 2, 3, 0),
        "6 × 4",
        ["1 × 2 = 2", "3 ÷ 0", "6 × 4 = 24"],
        refused("division_by_zero", "step 2 divides by zero"),
    ),
    (
        (1, 2, 3, 4),
        "6 × 4",
        ["1 × 2 = 2", "2 × 3 = 6", "6 × 4 = 1/0"],
        refused("division_by_zero", "step 3 states a result over 0"),
    ),
    (
        (1, 2, 3, 4),
        "6 × 4",
        ["1 × 2 = 2", "2 × 3 = 7", "6 × 4 = 24"],
        refused("step_result_wrong", "step 2: 2 × 3 makes 6, not 7", 6),
    ),
    (
        (1, 2, 3, 4),
        "6 × 4",
        ["1 × 2 = 2", "2 × 7 = 14", "6 × 4 = 24"],
        refused("value_not_available", "step 2: 7 is not available (available: 2, 3, 4)"),
    ),
    (
        (1, 2, 3, 4),
        "6 × 4",
        ["1 × 2 = 2", "7 × 2 = 14", "6 × 4 = 24"],
        refused("value_not_available", "step 2: 7 is not available (available: 2, 3, 4)"),
    ),
    (
        (1, 2, 3, 4),
        "6 × 4",
        ["1 × 2 = 2", "2 × 2 = 4", "6 × 4 = 24"],
        refused("value_not_available", "step 2 uses 2 twice; only one 2 is available: 2, 3, 4"),
    ),
    (
        (1, 2, 3, 4),
        "6 × 4",
        ["1 × 2 = 2", "2 ÷ 0 = 0", "6 × 4 = 24"],
        refused("value_not_available", "step 2: 0 is not available (available: 2, 3, 4)"),
    ),
    (
        (1, 2, 3, 4),
        "36 − 12",
        ["12 × 3 = 36", "36 − 4 = 32", "32 − 8 = 24"],
        refused(
            "joined_digits", "step 1: 12 joins card numbers together; each number must stand alone"
        ),
    ),
    (
        (1, 1, 3, 4),
        "6 × 4",
        ["1 × 1 = 1", "11 × 3 = 33", "6 × 4 = 24"],
        # the two 1s are used up: 11 joins nothing that is left
        refused("value_not_available", "step 2: 11 is not available (available: 1, 3, 4)"),
    ),
    (
        (1, 2, 3, 4, 5),
        "6 × 4",
        RIGHT,
        refused("numbers_left_over", "after step 3, 5 is not used", 24),
    ),
    (
        (1, 2, 3, 4, 5, 6),
        "6 × 4",
        RIGHT,
        refused("numbers_left_over", "after step 3, 5, 6 is not used", 24),
    ),
    (
        (1, 2, 3, 4),
        "24 × 1",
        ["1 + 2 = 3", "3 + 3 = 6", "6 + 4 = 10"],
        refused("not_24", "step 3 makes 10, not 24", 10),
    ),
    (
        (1, 2, 3, 4),
        "48/1/2",
        ["1 × 2 = 2", "2 × 3 = 6", "4 × 6 = 24"],
        refused(
            "pattern_mismatch",
            "the last step 4 × 6 is not the declared pattern 48 ÷ 2 (R-PUZ-3)",
            24,
        ),
    ),
    (
        (1, 2, 3, 4),
        "6 × 4",
        ["1 + 2 = 3", "3 − 3 = 0", "0 + 4 = 4"],
        refused("not_24", "step 3 makes 4, not 24", 4),
    ),
]


@pytest.mark.parametrize("card, pattern, steps, verdict", SOLUTIONS)
def test_every_solution_verdict_is_exact(card, pattern, steps, verdict):
    """R-PUZ-2/3: the whole verdict, so a flipped `ok` or a dropped `value` is noticed."""
    assert check_solution(card, pattern, steps) == verdict


def test_every_solution_reason_has_an_exact_verdict_here():
    reasons = {verdict.reason for *_, verdict in SOLUTIONS} - {""}
    assert reasons == set(REASONS) - {"wrong_numbers"}  # wrong_numbers is free-form only


# -- the edges where a slip would accept a wrong answer ---------------------------------------


def test_an_ambiguous_slash_step_has_its_stated_result_checked():
    """R-PUZ-2: `6/1 / 1 = 7` is 6 in either reading; the stated 7 is wrong."""
    steps = ["6/1 / 1 = 7", "6 × 4 = 24", "24 × 1 = 24"]
    assert check_solution((6, 1, 4, 1), "24 × 1", steps) == refused(
        "step_result_wrong", "step 1: 6 ÷ 1 makes 6, not 7", 6
    )
    right = ["6/1 / 1 = 6", "6 × 4 = 24", "24 × 1 = 24"]
    assert check_solution((6, 1, 4, 1), "24 × 1", right) == CORRECT


@pytest.mark.parametrize("first", ["8 / 1/3", "8/1 / 3", "8/1/3"])
def test_the_reading_with_available_operands_is_taken_without_a_stated_result(first):
    """`8 / 1/3` on 8 3 9 1: 8 ÷ (1/3) uses 1/3, which is not available; (8/1) ÷ 3 = 8/3
    uses 8 and 3, which are. The available reading wins over spacing (docs/puzzles.md)."""
    steps = [first, "8/3 × 9 = 24", "24 × 1 = 24"]
    assert check_solution((8, 3, 9, 1), "24 × 1", steps) == CORRECT


def test_a_declared_pattern_prefers_the_reading_that_makes_24():
    """R-PUZ-3: `48/1/2` is 48 ÷ 2 (= 24), not 48 ÷ (1/2) (= 96)."""
    for text in ("48/1/2", "48 / 1/2", "48/1 / 2"):
        assert parse_pattern(text) == Pattern(Fraction(48), "/", Fraction(2))
    steps = ["1 × 1 = 1", "1 ÷ 2 = 1/2", "48 ÷ 1/2 = 96"]
    assert check_solution((2, 1, 48, 1), "48/1/2", steps) == refused(
        "not_24", "step 3 makes 96, not 24", 96
    )


def test_a_step_repeating_a_used_card_number_is_refused_not_a_crash():
    """`5 + 5` twice on 5 5 1 4: the second has no 5s left (value_not_available)."""
    steps = ["5 + 5 = 10", "5 + 5 = 10", "24 × 1 = 24"]
    assert check_solution((5, 5, 1, 4), "24 × 1", steps) == refused(
        "value_not_available", "step 2: 5 is not available (available: 1, 4, 10)"
    )


def test_a_bracketed_bare_number_in_a_step_is_refused_not_a_crash():
    """`(8) × 3` has brackets (syntax); with more operations it is a run-on answer."""
    rest = ["24 × 1 = 24", "24 × 1 = 24"]
    assert check_solution((8, 3, 1, 1), "24 × 1", ["(8) × 3", *rest]) == refused(
        "syntax", "step 1 has brackets; only a fraction is bracketed, e.g. 8 ÷ (1/3)"
    )
    assert check_solution((8, 3, 1, 1), "24 × 1", ["(8) × 3 × 1 × 1", *rest]) == refused(
        "run_on", "step 1 '(8) × 3 × 1 × 1' has more than one operation (R-PUZ-2)"
    )


# -- free-form answers (R-PUZ-1, R-POCKET-2) --------------------------------------------------

EXPRESSIONS = [
    ((1, 2, 3, 4), "(1+2+3)*4", CORRECT),
    ((1, 2, 3, 4), "1*2*3*4", CORRECT),
    ((0, 4, 6, 1), "4*6 + 0*1", CORRECT),  # 0 is a card number like any other
    ((1, 2, 3, 4), "1+2+3+4", refused("not_24", "1+2+3+4 makes 10, not 24", 10)),
    ((1, 2, 3, 4), " 1+2+3+04 ", refused("not_24", "1+2+3+04 makes 10, not 24", 10)),
    (
        (1, 2, 3, 4),
        "12+3+4",
        refused("joined_digits", "12 joins card numbers together; each number must stand alone"),
    ),
    (
        (1, 2, 3, 4),
        "1+2+34",
        refused("joined_digits", "34 joins card numbers together; each number must stand alone"),
    ),
    # 56 joins nothing (every card number is used): simply not on the card
    ((1, 2, 3, 4), "1+2+3+4+56", refused("wrong_numbers", "56 is not on the card (card: 1 2 3 4)")),
    # 11 would need two 1s; the card has one, and it is not used
    (
        (1, 2, 3, 4),
        "11 + 2 + 3 + 4",
        refused("wrong_numbers", "11 is not on the card; the card's 1 is not used (card: 1 2 3 4)"),
    ),
    (
        (1, 2, 3, 4),
        "4*6/(3-3)",
        refused(
            "wrong_numbers",
            "3 is used twice but the card has it once; 6 is not on the card; "
            "the card's 1 is not used; the card's 2 is not used (card: 1 2 3 4)",
        ),
    ),
    (
        (2, 2, 2, 3),
        "3*8",
        refused(
            "wrong_numbers",
            "8 is not on the card; the card's 2 is missing 3 times (card: 2 2 2 3)",
        ),
    ),
    (
        (2, 2, 2, 3),
        "2*2*2*2*3",
        refused("wrong_numbers", "2 is used 4 times but the card has it 3 times (card: 2 2 2 3)"),
    ),
    (
        (2, 2, 3, 6),
        "6*2*2",
        refused("wrong_numbers", "the card's 3 is not used (card: 2 2 3 6)"),
    ),
    (
        (2, 2, 3, 6),
        "6*3+3",
        refused(
            "wrong_numbers",
            "3 is used twice but the card has it once; the card's 2 is missing twice "
            "(card: 2 2 3 6)",
        ),
    ),
    (
        (2, 0, 3, 4),
        "4*3*2/0",
        refused("division_by_zero", "division by zero: 0 is 0"),
    ),
    ((2, 0, 3, 4), "4*3*2/(0)", refused("division_by_zero", "division by zero: (0) is 0")),
]


@pytest.mark.parametrize("card, text, verdict", EXPRESSIONS)
def test_every_free_form_verdict_is_exact(card, text, verdict):
    assert check_expression(card, text) == verdict


@pytest.mark.parametrize("card", [(), (3.0, 1, 2, 4), (1, 2, 3, -1), (True, 2, 3, 4), "1234"])
def test_a_card_is_whole_numbers_from_zero(card):
    """0 is allowed (the 0 above); 3.0, -1, True and an empty card are not numbers of a card."""
    with pytest.raises(ValueError, match="a card is a sequence of whole numbers >= 0"):
        check_expression(card, "1+2+3+4")
    with pytest.raises(ValueError, match="a card is a sequence of whole numbers >= 0"):
        check_solution(card, "6 × 4", RIGHT)


# -- joined digits: how a number is cut into card numbers ------------------------------------

JOINED = [
    # 105 would be 1 and 05: a part never starts with 0 unless it is 0 itself
    (
        (1, 5, 2, 12),
        "105 + 2 + 12",
        refused(
            "wrong_numbers",
            "105 is not on the card; the card's 1 is not used; the card's 5 is not used "
            "(card: 1 5 2 12)",
        ),
    ),
    # ... and 0 itself is a card number that can be joined
    (
        (1, 0, 2, 3),
        "10+2+3",
        refused("joined_digits", "10 joins card numbers together; each number must stand alone"),
    ),
    # 121: 1 then 21 fails, so 12 then 1 (the 1 tried first is given back)
    (
        (1, 12, 2, 3),
        "121 + 2 + 3",
        refused("joined_digits", "121 joins card numbers together; each number must stand alone"),
    ),
    # 1211 needs two 1s and a 12; the card has one 1
    (
        (1, 12, 2, 3),
        "1211 + 2 + 3",
        refused(
            "wrong_numbers",
            "1211 is not on the card; the card's 1 is not used; the card's 12 is not used "
            "(card: 1 12 2 3)",
        ),
    ),
    (
        (1, 1, 12, 3),
        "1211 + 3",
        refused("joined_digits", "1211 joins card numbers together; each number must stand alone"),
    ),
]


@pytest.mark.parametrize("card, text, verdict", JOINED)
def test_joined_digits_are_cut_into_unused_card_numbers(card, text, verdict):
    assert check_expression(card, text) == verdict


def test_fractions_available_to_a_step_are_listed_exactly():
    steps = ["8 ÷ 3 = 8/3", "3 − 8/3 = 1/3", "8 × 3 = 24"]
    assert check_solution((3, 3, 8, 8), "8 ÷ 1/3", steps) == refused(
        "value_not_available", "step 3: 3 is not available (available: 1/3, 8)"
    )
    squares = ["8 ÷ 3 = 8/3", "8 ÷ 3 = 8/3", "8/3 × 8/3 = 64/9"]
    assert check_solution((3, 3, 8, 8), "8 ÷ 1/3", squares) == refused(
        "not_24", "step 3 makes 64/9, not 24", Fraction(64, 9)
    )
