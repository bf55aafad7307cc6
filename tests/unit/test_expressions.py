"""server.puzzles.expressions: free-form answers and three-step solutions (R-PUZ-1..3).

Every refusal reason in `REASONS` has a test here that produces it.
"""

from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from server.puzzles import notation
from server.puzzles.expressions import (
    REASONS,
    Pattern,
    PuzzleSyntaxError,
    check_expression,
    check_solution,
    format_value,
    parse_pattern,
    parse_step,
)

CARD = (3, 3, 8, 8)
GOOD_STEPS = ["8 ÷ 3 = 8/3", "3 − 8/3 = 1/3", "8 ÷ 1/3 = 24"]


# -- free-form (R-PUZ-1, R-POCKET-2) ----------------------------------------------------------


@pytest.mark.parametrize(
    "card, text",
    [
        (CARD, "8/(3-8/3)"),
        (CARD, "8 ÷ (3 − 8 ÷ 3)"),
        ((2, 3, 4, 5), "(5 + 3 - 2) × 4"),
        ((2, 3, 4, 5), "(5+3−2)x4"),
        ((6, 6, 6, 6), "6+6+6+6"),
        ((1, 4, 7, 8), "(8 - 4) * (7 - 1)"),
        ((10, 1, 8, 7), "(8 + 7) + (10 - 1)"),
        ((1, 5, 5, 5), "5 * (5 - 1/5)"),
        ((1, 2, 3, 4), "(1 + 2 + 3) · 4"),
        ((2, 12, 1, 1), "2 * 12 : 1 : 1"),
    ],
)
def test_correct_expressions_are_accepted_with_exact_value(card, text):
    verdict = check_expression(card, text)
    assert verdict.ok, verdict
    assert verdict.reason == ""
    assert verdict.value == Fraction(24)


def test_float_trap_is_exactly_24():
    # 8/(3-8/3) is 23.999999999999996 in floats; R-PUZ-1 says exact.
    assert 8 / (3 - 8 / 3) != 24
    assert check_expression(CARD, "8/(3-8/3)").value == 24


@pytest.mark.parametrize(
    "card, text, reason, needle",
    [
        (CARD, "8/(3-8/3", "syntax", "never closed"),
        (CARD, "8/(3-8/3))", "syntax", "')' at position 10"),
        (CARD, "", "syntax", "empty"),
        (CARD, "8 * 3 +", "syntax", "ends too early"),
        (CARD, "-3 + 3 + 8 + 8", "syntax", "negative numbers"),
        (CARD, "3 + 3.5", "syntax", "decimals"),
        (CARD, "3 ^ 3", "syntax", "'^' at position 3"),
        (CARD, "8(3 - 8/3)", "syntax", "missing operator"),
        (CARD, "8/(3-8/3) = 25", "syntax", "only '= 24' may follow"),
        (CARD, "8 * * 3", "syntax", "a number is expected"),
        (CARD, "1" * 201, "too_long", "at most 200"),
        (CARD, "3 3 + 8 + 8", "joined_digits", "may not be joined"),
        (CARD, "33 - 8 - 8", "joined_digits", "33 joins card numbers"),
        ((10, 11, 6, 2), "102 + 11 - 6", "joined_digits", "102"),
        (CARD, "8 * 3", "wrong_numbers", "the card's 3 is not used"),
        (CARD, "8 * 3 * (8 - 3) / 5", "wrong_numbers", "5 is not on the card"),
        (CARD, "8 + 8 + 8 + 3 - 3", "wrong_numbers", "8 is used 3 times but the card has it twice"),
        ((2, 3, 4, 5), "6 * 4", "wrong_numbers", "6 is not on the card"),
        (CARD, "8 / (3 - 3) + 8", "division_by_zero", "(3 - 3) is 0"),
        (CARD, "3 + 3 + 8 + 8", "not_24", "makes 22, not 24"),
        (CARD, "8 / 3 + 8 / 3", "not_24", "makes 16/3"),
    ],
)
def test_free_form_refusals(card, text, reason, needle):
    verdict = check_expression(card, text)
    assert not verdict.ok
    assert verdict.reason == reason, verdict
    assert needle in verdict.message


def test_numbers_are_checked_before_value():
    # a wrong card number is reported even when the value happens to be 24
    verdict = check_expression(CARD, "4 * 6")
    assert verdict.reason == "wrong_numbers"


def test_card_must_be_whole_numbers():
    with pytest.raises(ValueError):
        check_expression((3, 3, -8, 8), "8")
    with pytest.raises(ValueError):
        check_solution((), "3 * 8", GOOD_STEPS)


# -- steps and patterns (R-PUZ-2, R-PUZ-3) ------------------------------------------------------


def test_the_issue_example_is_correct():
    verdict = check_solution(CARD, "8 / 1/3", ["8/3", "3 - 8/3", "8 / 1/3"])
    assert verdict.ok, verdict
    assert check_solution(CARD, "8 ÷ 1/3", GOOD_STEPS).ok


@pytest.mark.parametrize(
    "pattern, steps, reason, needle",
    [
        ("8 / 1/3", ["8/3", "3 - 8/3"], "wrong_step_count", "2 steps"),
        ("8 / 1/3", [*GOOD_STEPS, "24 * 1"], "wrong_step_count", "exactly 3"),
        ("3 x 8", ["8 ÷ (3 − 8 ÷ 3)"], "run_on", "more than one operation"),
        ("3 x 8", ["3 + 3 = 6 × 4 = 24", "a", "b"], "run_on", "several '='"),
        ("8 / 1/3", ["8/3 = 8/3 + 1", "3 - 8/3", "8 / 1/3"], "run_on", "continues after '='"),
        ("8 / 1/3", ["8 ÷ 3 = 8/4", "3 − 8/3", "8 / 1/3"], "step_result_wrong", "not 2"),
        ("8 / 1/3", ["8 ÷ 3", "3 − 8/3", "8 / 1/2"], "value_not_available", "1/2 is not"),
        ("8 / 1/3", ["8 ÷ 8", "8 ÷ 3", "3 - 1"], "value_not_available", "8 is not available"),
        ("8 / 1/3", ["88 ÷ 3", "3 − 8/3", "8 / 1/3"], "joined_digits", "88 joins"),
        ("8 / 1/3", ["3 − 3 = 0", "8 ÷ 0", "8 / 1/3"], "division_by_zero", "step 2"),
        ("8 / 1/3", ["8/0", "3 − 8/3", "8 / 1/3"], "value_not_available", "0 is not"),
        ("8 / 1/3", ["3 - 8/0", "3 − 8/3", "8 / 1/3"], "division_by_zero", "over 0"),
        ("8 / 1/3", ["8 ÷ 3 = 1/0", "3 − 8/3", "8 / 1/3"], "division_by_zero", "over 0"),
        ("8 / 1/3", ["8 ÷ 3 =", "3 − 8/3", "8 / 1/3"], "syntax", "after '='"),
        ("8 / 1/3", ["", "3 − 8/3", "8 / 1/3"], "syntax", "step 1 is empty"),
        ("8 / 1/3", ["8 ÷", "3 − 8/3", "8 / 1/3"], "syntax", "not of the form"),
        ("8 / 1/3", ["(8 ÷ 3)", "3 − 8/3", "8 / 1/3"], "syntax", "brackets"),
        ("8 / 1/3", ["8 ÷ 3.0", "3 − 8/3", "8 / 1/3"], "syntax", "decimals"),
        ("3 × 8", ["3 + 3", "8 + 8", "6 + 16"], "not_24", "makes 22"),
        ("3 × 8", GOOD_STEPS, "pattern_mismatch", "not the declared pattern 3 × 8"),
        ("1/3 ÷ 8", GOOD_STEPS, "pattern_not_24", "makes 1/24"),
        ("3 x 9", GOOD_STEPS, "pattern_not_24", "makes 27"),
        ("8 ÷ 0", GOOD_STEPS, "division_by_zero", "divides by zero"),
        ("8 ÷ 1/0", GOOD_STEPS, "division_by_zero", "over 0"),
        ("3 × 8 = 24", GOOD_STEPS, "syntax", "without '='"),
        ("3 × (8)", GOOD_STEPS, "syntax", "brackets"),  # only a fraction is bracketed
        ("3 × 4 × 2", GOOD_STEPS, "run_on", "more than one operation"),
        ("three times eight", GOOD_STEPS, "syntax", "unexpected 't'"),
        ("3" * 201, GOOD_STEPS, "too_long", "at most 200"),
    ],
)
def test_solution_refusals(pattern, steps, reason, needle):
    verdict = check_solution(CARD, pattern, steps)
    assert not verdict.ok
    assert verdict.reason == reason, verdict
    assert needle in verdict.message, verdict.message


def test_numbers_left_over_on_a_card_of_five():
    verdict = check_solution((1, 2, 3, 4, 5), "4 × 6", ["1 + 2", "3 + 3", "4 × 6"])
    assert verdict.reason == "numbers_left_over"
    assert "5 is not used" in verdict.message


def test_run_on_is_refused_even_with_the_right_step_count():
    # R-PUZ-2: "3 + 3 × 4 × 1 = 24" is the rule's own example of a run-on answer
    verdict = check_solution((1, 3, 3, 4), "6 × 4", ["3 + 3 × 4 × 1 = 24", "6 × 4", "x"])
    assert verdict.reason == "run_on"


def test_every_documented_reason_is_produced_by_some_test():
    # keep REASONS and this file in step: every code is exercised above
    source = open(__file__, encoding="utf-8").read()
    for reason in REASONS:
        assert f'"{reason}"' in source, reason


def test_negative_intermediates_are_written_with_a_sign():
    # (1 - 5) is -4, and -4 × -6 = 24: every value is available as written
    verdict = check_solution((1, 5, 1, 7), "−4 × −6", ["1 − 5 = −4", "1 − 7 = -6", "−4 × −6"])
    assert verdict.ok, verdict


def test_same_value_twice_needs_two_of_it():
    verdict = check_solution((3, 8, 8, 8), "3 × 8", ["8 ÷ 8 = 1", "3 × 1", "3 × 8"])
    assert verdict.ok, verdict
    assert check_solution((3, 3, 8, 1), "3 × 8", ["8 × 8", "x", "y"]).reason == (
        "value_not_available"
    )


# -- reading several slashes (docs/puzzles.md, "Step syntax") ------------------------------------


def test_slash_alone_in_a_step_is_division():
    step = parse_step("8/3")
    assert (step.left, step.op, step.right) == (8, "/", 3)


def test_spacing_decides_when_nothing_else_does():
    assert parse_step("8 / 1/3").pattern == Pattern(Fraction(8), "/", Fraction(1, 3))
    assert parse_step("8/1 / 3").pattern == Pattern(Fraction(8), "/", Fraction(3))


def test_leftmost_operator_when_spacing_does_not_decide():
    assert parse_step("8/1/3").pattern == Pattern(Fraction(8), "/", Fraction(1, 3))


def test_available_operands_win_over_spacing():
    # (8/1) ÷ 3 uses only values on the table; 8 ÷ (1/3) would need a 1/3 nobody made
    step = parse_step("8 / 1/3", lambda a, b: {a, b} <= {Fraction(8), Fraction(3)})
    assert (step.left, step.right) == (8, 3)


def test_stated_result_wins_over_spacing():
    step = parse_step("8 / 1/3 = 8/3")
    assert (step.left, step.right) == (8, 3)


def test_divide_sign_is_never_a_fraction_bar():
    step = parse_step("8 ÷ 1/3 = 24")
    assert (step.left, step.op, step.right) == (8, "/", Fraction(1, 3))


def test_pattern_prefers_the_reading_that_makes_24():
    assert parse_pattern("8/1/3") == Pattern(8, "/", Fraction(1, 3))
    assert parse_pattern("24/1/1").value == 24


@pytest.mark.parametrize(
    "text, reason",
    [("", "syntax"), ("3 ×", "syntax"), ("3 × 8 = 24", "syntax"), ("3 × 4 × 2", "run_on")],
)
def test_parse_pattern_errors(text, reason):
    with pytest.raises(PuzzleSyntaxError) as caught:
        parse_pattern(text)
    assert caught.value.reason == reason
    assert str(caught.value) == caught.value.message


def test_parse_pattern_fraction_over_zero():
    with pytest.raises(PuzzleSyntaxError) as caught:
        parse_pattern("3/0 × 8")
    assert caught.value.reason == "division_by_zero"


# -- Pattern (R-PUZ-3) --------------------------------------------------------------------------


def test_pattern_renders_with_math_signs():
    assert str(parse_pattern("3 * 8")) == "3 × 8"
    assert str(parse_pattern("8 / 1/3")) == "8 ÷ 1/3"
    assert str(parse_pattern("28 - 4")) == "28 − 4"
    assert parse_pattern("28 - 4").render(unicode=False) == "28 - 4"
    assert str(Pattern(Fraction(-4), "*", Fraction(-6))) == "−4 × −6"


def test_pattern_commutes_for_plus_and_times_only():
    assert Pattern(3, "*", 8).same_as(Pattern(8, "*", 3))
    assert Pattern(20, "+", 4).same_as(Pattern(4, "+", 20))
    assert not Pattern(28, "-", 4).same_as(Pattern(4, "-", 28))
    assert not Pattern(48, "/", 2).same_as(Pattern(2, "/", 48))
    assert not Pattern(3, "*", 8).same_as(Pattern(3, "+", 8))


def test_pattern_rejects_unknown_operator():
    with pytest.raises(ValueError):
        Pattern(3, "^", 8)


def test_pattern_object_is_accepted():
    assert check_solution(CARD, Pattern(8, "/", Fraction(1, 3)), GOOD_STEPS).ok


def test_format_value():
    assert format_value(Fraction(8, 3)) == "8/3"
    assert format_value(Fraction(-1, 3)) == "−1/3"
    assert format_value(Fraction(-1, 3), unicode=False) == "-1/3"
    assert format_value(24) == "24"


# -- properties ----------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    a=st.integers(1, 13),
    b=st.integers(1, 13),
    op=st.sampled_from(["+", "*", "x", "×"]),
    card=st.lists(st.integers(1, 13), min_size=4, max_size=4),
    steps=st.lists(st.sampled_from(GOOD_STEPS + ["3 + 3", "8 × 3", "6 × 4", "4 × 6"]), max_size=4),
)
def test_swapping_plus_and_times_operands_in_the_pattern_never_changes_a_verdict(
    a, b, op, card, steps
):
    # R-PUZ-3: 8 × 3 = 3 × 8 and 20 + 4 = 4 + 20 (the solver tests repeat this on real answers)
    forward = check_solution(card, f"{a} {op} {b}", steps)
    backward = check_solution(card, f"{b} {op} {a}", steps)
    assert (forward.ok, forward.reason) == (backward.ok, backward.reason)


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="0123456789+-*/x×÷−() =.", max_size=30))
def test_any_text_gets_a_verdict_not_an_exception(text):
    verdict = check_expression(CARD, text)
    assert verdict.ok or verdict.reason in REASONS
    verdict = check_solution(CARD, "8 / 1/3", [text, text, text])
    assert verdict.ok or verdict.reason in REASONS


STEP_PIECES = st.sampled_from(
    ["8", "3", "1", "0", "00", "12", "-", "−", "–", "/", "÷", "×", "x", "*", "+", ":", "=", " "]
)


SPACE = st.sampled_from(["", " ", "  "])
SIGN = st.sampled_from(["", "", "-", "−"])
OPERAND = st.builds(
    lambda sign, n, d: f"{sign}{n}{d}",
    SIGN,
    st.integers(0, 30),
    st.sampled_from(["", "", "/3", "/1", "/0", "/12"]),
)
STEP_TEXT = st.builds(
    lambda *parts: "".join(parts),
    SPACE, OPERAND, SPACE, st.sampled_from(list(notation.OPERATORS)), SPACE, OPERAND, SPACE,
    st.sampled_from(["", "= ", "=", " = "]), st.sampled_from(["", "24", "8/3", "-1/3"]),
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(text=st.one_of(STEP_TEXT, st.lists(STEP_PIECES, min_size=1, max_size=9).map("".join)))
def test_the_fast_step_reader_agrees_with_the_general_reader(text):
    fast = notation._fast_step(text)
    if fast is None:
        return
    general = notation._parse_step_tokens(text, notation.tokenize(text), None, "the step", None)
    assert fast == general


TWO_SLASH_TEXT = st.builds(
    lambda *parts: "".join(parts),
    SPACE, SIGN, st.integers(0, 30).map(str), SPACE, st.just("/"), SPACE,
    st.integers(0, 30).map(str), SPACE, st.just("/"), SPACE, st.integers(0, 30).map(str), SPACE,
    st.sampled_from(["", "= ", "=", " = "]), st.sampled_from(["", "24", "8/3", "-1/3", "3/0"]),
)  # fmt: skip
AVAILABLE = st.sampled_from(
    [
        None,
        lambda left, right: True,
        lambda left, right: left.denominator == 1 and right.denominator == 1,
        lambda left, right: left.denominator != 1 or right.denominator != 1,
    ]
)


@settings(max_examples=400, deadline=None)
@given(
    text=st.one_of(TWO_SLASH_TEXT, st.lists(STEP_PIECES, min_size=1, max_size=9).map("".join)),
    available=AVAILABLE,
    prefer=st.sampled_from([None, Fraction(24), Fraction(8, 3)]),
)
# The spacings that decide a reading, each run first and always: `make mutate` runs this test
# with 25 examples, which need not draw them (docs/testing.md, "Wall time").
@example(text="8 / 1/3", available=None, prefer=None)  # the first slash divides
@example(text="8 / 1 /3", available=None, prefer=None)  # neither slash is well spaced
@example(text="- 8/1 / 3", available=None, prefer=None)  # the second divides; a sign apart
def test_the_two_slash_reader_chooses_as_the_general_reader(text, available, prefer):
    """`8 / 1/3` read without tokens picks the reading the general reader picks, always."""
    two = notation._two_slash_readings(text)
    if two is None:
        return
    general_readings = notation._readings(
        notation._split_stated(
            "".join(t.shape for t in notation.tokenize(text)), notation.tokenize(text), "s"
        )[0]
    )
    assert two[0] == general_readings

    def read(reader):
        try:
            return reader()
        except notation.PuzzleSyntaxError as error:
            return (error.reason, error.message)

    fast = read(lambda: notation._choose_step(two[0], two[1], available, "the step", prefer))
    general = read(
        lambda: notation._parse_step_tokens(
            text, notation.tokenize(text), available, "the step", prefer
        )
    )
    assert fast == general


def test_the_two_slash_reader_takes_the_steps_people_write():
    assert notation._two_slash_readings("8 / 1/3") is not None
    assert notation._two_slash_readings("8/3 / 1") is not None
    assert notation._two_slash_readings(" -8 / 1/3 = 24 ") is not None
    assert notation._two_slash_readings("8 / 1/3 / 2") is None  # run-on: the general reader
    assert notation._two_slash_readings("8 ÷ 1/3") is None  # one reading: the first fast path


@pytest.mark.parametrize(
    "pattern, steps",
    [
        ("8 ÷ (1/3)", ["8 ÷ 3 = 8/3", "3 − 8/3 = 1/3", "8 ÷ (1/3) = 24"]),
        ("8 / (1/3)", ["8 / 3", "3 - 8/3", "8 / (1/3)"]),
        ("8 ÷ 1/3", ["8 ÷ 3", "3 − (8/3) = 1/3", "8 ÷ (1/3)"]),
    ],
)
def test_a_bracketed_fraction_is_one_value_R_PUZ_2(pattern, steps):
    """R-PUZ-2: `8 ÷ (1/3) = 24` is one operation, accepted exactly like `8 ÷ 1/3`."""
    verdict = check_solution(CARD, pattern, steps)
    assert verdict.ok, verdict
    assert parse_step("8 ÷ (1/3) = 24") == parse_step("8 ÷ 1/3 = 24")


@pytest.mark.parametrize("step", ["8 ÷ (3 − 1)", "(8 ÷ 3) − 1", "8 ÷ (1/3 + 1)"])
def test_two_operators_in_one_step_stay_run_on_even_in_brackets_R_PUZ_2(step):
    verdict = check_solution(CARD, "8 ÷ 1/3", [step, "3 − 8/3", "8 ÷ 1/3"])
    assert verdict.reason == "run_on", verdict


def test_a_step_reusing_a_value_says_so():
    """The refusal names the reuse: "step 2 uses 2 twice; only one 2 is available"."""
    verdict = check_solution((2, 6, 8, 1), "4 × 6", ["6 − 1 = 5", "2 + 2 = 4", "4 × 6 = 24"])
    assert verdict.reason == "value_not_available"
    assert verdict.message == "step 2 uses 2 twice; only one 2 is available: 2, 5, 8"
