"""The bracketed fraction (R-PUZ-2, `notation._bracketed_readings`): `8 ÷ (1/3)` and
`(1/3) × 72` are one operation on two values, read exactly like `8 ÷ 1/3`; anything else in
brackets is refused with the reader's exact reason and message.

Why each case: the bracketed reader was added after the judge was first mutation-tested, and
a partial run left ten of its mutants alive (issue 20): a bracket left open or closed twice, a
bracket holding a bare number or a whole operation, a value after the bracket, a sign outside
it, a fraction over 0 inside it, and brackets on both sides of the operator.
"""

from fractions import Fraction

import pytest

from server.puzzles.expressions import check_solution
from server.puzzles.notation import PuzzleSyntaxError, Step, parse_pattern, parse_step

BRACKETS = "step 1 has brackets; only a fraction is bracketed, e.g. 8 ÷ (1/3)"


def run_on(text: str) -> str:
    return f"step 1 '{text}' has more than one operation (R-PUZ-2)"


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("8 ÷ (1/3) = 24", Step(Fraction(8), "/", Fraction(1, 3), Fraction(24))),
        ("(1/3) × 72 = 24", Step(Fraction(1, 3), "*", Fraction(72), Fraction(24))),
        ("(1/3) / (2/3)", Step(Fraction(1, 3), "/", Fraction(2, 3))),
        ("(2/3) / 2/3", Step(Fraction(2, 3), "/", Fraction(2, 3))),
        ("-8 ÷ (1/3)", Step(Fraction(-8), "/", Fraction(1, 3))),
        ("8 ÷ (-1/3)", Step(Fraction(8), "/", Fraction(-1, 3))),
        ("( 1 / 3 ) × 72", Step(Fraction(1, 3), "*", Fraction(72))),
        ("8 - (1/3)", Step(Fraction(8), "-", Fraction(1, 3))),
        ("(1/3) + 8", Step(Fraction(1, 3), "+", Fraction(8))),
        ("8/1 / (1/3)", Step(Fraction(8), "/", Fraction(1, 3))),
        ("(8/3) - -1", Step(Fraction(8, 3), "-", Fraction(-1))),
    ],
)
def test_a_bracketed_fraction_is_one_value(text, read):
    assert parse_step(text, label="step 1") == read


@pytest.mark.parametrize(
    ("text", "reason", "message"),
    [
        ("(8) × 3", "syntax", BRACKETS),  # a bare number is not bracketed as a value
        ("8 ÷ (1/3", "syntax", BRACKETS),  # left open
        ("8 ÷ 1/3)", "syntax", BRACKETS),  # closed, never opened
        ("(1/3)) × 8", "syntax", BRACKETS),  # closed twice
        ("8 ÷ (1/3) 5", "syntax", BRACKETS),  # a value after the bracket
        ("(1/3)8", "syntax", BRACKETS),
        ("(1/3) (2/3)", "syntax", BRACKETS),  # no operator between the values
        ("8 ÷ -(1/3)", "syntax", BRACKETS),  # a sign outside the bracket
        ("(1/3)", "syntax", BRACKETS),
        ("() × 3", "syntax", BRACKETS),
        ("(1/3) = 1/3", "syntax", BRACKETS),
        ("8 ÷ (3 − 1)", "run_on", run_on("8 ÷ (3 − 1)")),  # an operation in the bracket
        ("8 ÷ (1 ÷ 3)", "run_on", run_on("8 ÷ (1 ÷ 3)")),  # ÷ always divides
        ("2 × 4 ÷ (1/3)", "run_on", run_on("2 × 4 ÷ (1/3)")),
        ("8 ÷ (1/3) × 1", "run_on", run_on("8 ÷ (1/3) × 1")),
        ("(1/0) × 3", "division_by_zero", "step 1 has a fraction over 0"),
        ("3 × (2/0)", "division_by_zero", "step 1 has a fraction over 0"),
        ("8 ÷ (1/3) = 24/0", "division_by_zero", "step 1 states a result over 0"),
        ("8 ÷ (1/3) = (24)", "syntax", "step 1 needs a number after '='"),
    ],
)
def test_anything_else_in_brackets_is_refused_exactly(text, reason, message):
    with pytest.raises(PuzzleSyntaxError) as caught:
        parse_step(text, label="step 1")
    assert (caught.value.reason, caught.value.message) == (reason, message)


def test_a_declared_pattern_may_bracket_its_fraction():
    assert parse_pattern("8 ÷ (1/3)") == parse_pattern("8 ÷ 1/3")
    assert parse_pattern("(1/3) × 72").right == Fraction(72)


def test_a_bracketed_step_is_judged_like_the_plain_one():
    """R-PUZ-2 through the judge: the stated result is checked as for any step."""
    card = (8, 1, 3, 1)
    good = check_solution(card, "8 ÷ 1/3", ["1 × 1 = 1", "1 ÷ 3 = 1/3", "8 ÷ (1/3) = 24"])
    assert good.ok is True, good
    wrong = check_solution(card, "8 ÷ 1/3", ["1 × 1 = 1", "1 ÷ 3 = 1/3", "8 ÷ (1/3) = 25"])
    assert (wrong.ok, wrong.reason) == (False, "step_result_wrong")
