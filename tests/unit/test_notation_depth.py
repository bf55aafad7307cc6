"""Deeply bracketed answers are judged, never a crash (found while mutation testing the casual
games, issue 20): the free-form parser recurses per bracket, and an answer of 193 opening
brackets fits in `MAX_TEXT`. Under the server's own stack frames that exhausted Python's
recursion limit, so a pocket `answer` or a deck40 `call_24` became an internal error instead
of a wrong answer that excludes its player (R-POCKET-3, R-DECK40-2)."""

import os
from fractions import Fraction

from server.puzzles.expressions import Verdict, check_expression
from server.puzzles.notation import MAX_BRACKET_DEPTH, MAX_TEXT

CARD = (1, 2, 3, 4)
# The frames a server's reactor holds under the judge. Under mutmut (`make mutate`) every call
# of a mutated function passes through two more frames of its trampoline, so the parser's own
# frames triple: there the stand-in for the server's stack is smaller, or this test would
# measure mutmut's frames instead of the server's (it failed mutmut's stats run).
SERVER_FRAMES = 200 if "MUTANT_UNDER_TEST" in os.environ else 600


def bracketed(depth: int, inner: str = "1*2*3*4") -> str:
    return "(" * depth + inner + ")" * depth


def judged_deep_in_the_stack(text: str, frames: int) -> Verdict:
    """`check_expression` called `frames` Python frames deep, as a server's reactor calls it."""
    if frames == 0:
        return check_expression(CARD, text)
    return judged_deep_in_the_stack(text, frames - 1)


def test_brackets_up_to_the_cap_are_read_as_written():
    assert check_expression(CARD, bracketed(MAX_BRACKET_DEPTH)) == Verdict(
        True, "", "correct", Fraction(24)
    )


def test_one_bracket_more_than_the_cap_is_a_syntax_verdict_naming_the_bracket():
    text = bracketed(MAX_BRACKET_DEPTH + 1)
    assert check_expression(CARD, text) == Verdict(
        False, "syntax", "brackets nested more than 32 deep at '(' at position 33"
    )


def test_the_longest_bracketed_answer_deep_in_a_stack_is_judged_not_a_crash():
    depth = (MAX_TEXT - len("1*2*3*4")) // 2  # 96 pairs: the whole text limit
    text = bracketed(depth)
    assert len(text) <= MAX_TEXT
    verdict = judged_deep_in_the_stack("(" * 193 + "1*2*3*4", SERVER_FRAMES)
    assert (verdict.ok, verdict.reason) == (False, "syntax")
    verdict = judged_deep_in_the_stack(text, SERVER_FRAMES)
    assert (verdict.ok, verdict.reason) == (False, "syntax")


def test_bracket_depth_is_counted_open_at_once_not_in_total():
    many = "*".join(["(1)", "(2)", "(3)", "(4)"])
    nested_in_turn = bracketed(MAX_BRACKET_DEPTH, "1*2") + "*" + bracketed(MAX_BRACKET_DEPTH, "3*4")
    assert check_expression(CARD, many).ok is True
    assert check_expression(CARD, nested_in_turn).ok is True


def test_a_closed_bracket_gives_its_depth_back_exactly():
    # after `(1)` the depth is 0 again: 32 more open at once are read, the 33rd is refused
    after_one = "(1)*"
    assert check_expression(CARD, after_one + bracketed(MAX_BRACKET_DEPTH, "2*3*4")) == Verdict(
        True, "", "correct", Fraction(24)
    )
    assert check_expression(CARD, after_one + bracketed(MAX_BRACKET_DEPTH + 1, "2*3*4")) == Verdict(
        False, "syntax", "brackets nested more than 32 deep at '(' at position 37"
    )
