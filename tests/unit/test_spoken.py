"""Patterns and steps said in words (issue 28, item 7): R-PUZ-3 words its patterns "3 times 8"
or "15 plus 9", and R-PLAY-5 fixes a solution by saying "equals, makes or is 24". Given a
text in words, when it is read, then it reads as the same text in symbols.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from server.puzzles.expressions import (
    Pattern,
    PuzzleSyntaxError,
    Verdict,
    check_solution,
    parse_pattern,
    parse_step,
)
from server.puzzles.notation import Step
from server.puzzles.spoken import OPERATOR_WORDS, RESULT_WORDS, WordTable, words_to_symbols


@pytest.mark.parametrize(
    ("said", "pattern"),
    [
        ("3 times 8", Pattern(3, "*", 8)),  # the seed's own examples (R-PUZ-3)
        ("15 plus 9", Pattern(15, "+", 9)),
        ("24 divided by 1", Pattern(24, "/", 1)),
        ("28 minus 4", Pattern(28, "-", 4)),
        ("3 multiplied by 8", Pattern(3, "*", 8)),
        ("3 TIMES 8", Pattern(3, "*", 8)),  # any letter case
        ("24  Divided\tBY  1", Pattern(24, "/", 1)),  # any whitespace inside a phrase
        ("3times8", Pattern(3, "*", 8)),  # digits may touch a word
        ("8 divided by 1/3", Pattern(8, "/", Fraction(1, 3))),  # ÷: the slash is the fraction
        ("8 divided by (1/3)", Pattern(8, "/", Fraction(1, 3))),
        ("24/5 times 5", Pattern(Fraction(24, 5), "*", 5)),
    ],
)
def test_a_pattern_said_in_words_reads_as_in_symbols_R_PUZ_3(said, pattern):
    assert parse_pattern(said) == pattern


@pytest.mark.parametrize(
    ("said", "reason", "message"),
    [
        ("3 times 8 is 24", "syntax", "a pattern is 'a op b' without '=' (e.g. 3 × 8)"),
        (
            "3 timez 8",
            "syntax",
            "unexpected 't' at position 3: use numbers, + − × ÷, brackets and '='",
        ),
        # "this" holds "is", but a word is only read whole: no letter may touch it
        (
            "this 3",
            "syntax",
            "unexpected 't' at position 1: use numbers, + − × ÷, brackets and '='",
        ),
        (
            "8 divided by 3 divided by 1",
            "run_on",
            "the pattern '8 divided by 3 divided by 1' has more than one operation (R-PUZ-2)",
        ),
    ],
)
def test_words_never_make_a_wrong_pattern_readable_R_PUZ_3(said, reason, message):
    with pytest.raises(PuzzleSyntaxError) as refused:
        parse_pattern(said)
    assert (refused.value.reason, refused.value.message) == (reason, message)


@pytest.mark.parametrize(
    ("said", "step"),
    [
        ("8 divided by 3 equals 8/3", Step(Fraction(8), "/", Fraction(3), Fraction(8, 3))),
        ("3 minus 8/3 makes 1/3", Step(Fraction(3), "-", Fraction(8, 3), Fraction(1, 3))),
        ("8 divided by 1/3 is 24", Step(Fraction(8), "/", Fraction(1, 3), Fraction(24))),
        ("4 times 4 = 16", Step(Fraction(4), "*", Fraction(4), Fraction(16))),
    ],
)
def test_a_step_said_in_words_reads_as_in_symbols_R_PLAY_5(said, step):
    assert parse_step(said) == step


def test_a_whole_solution_said_in_words_is_judged_like_one_in_symbols_R_PUZ_2():
    steps = ["8 divided by 3 equals 8/3", "3 minus 8/3 is 1/3", "8 divided by 1/3 makes 24"]
    assert check_solution((3, 3, 8, 8), "8 divided by 1/3", steps) == Verdict(
        True, "", "correct", Fraction(24)
    )
    wrong = check_solution((3, 3, 8, 8), "3 times 8", steps)
    assert (wrong.ok, wrong.reason) == (False, "pattern_mismatch")


def test_a_word_keeps_its_length_so_positions_and_the_length_limit_mean_the_same():
    """A word becomes its symbol padded with spaces: a refusal quoting a position points at
    the text as said, and 200 characters are 200 characters in words too."""
    said = "3 times 8 divided by 2 equals 12"
    read = words_to_symbols(said)
    assert read == "3 ×     8 ÷          2 =      12"
    assert len(read) == len(said)


def test_the_word_table_is_the_one_place_a_language_is_added():
    """Given the word table with a language added (as another issue will add "ganger" and
    "gånger"), when a pattern is said in it, then it reads; every English word still reads."""
    table = WordTable(
        {**OPERATOR_WORDS, "nb": {"ganger": "×", "pluss": "+"}, "sv": {"gånger": "×"}},
        {**RESULT_WORDS, "nb": ("er",)},
    )
    assert table.to_symbols("3 ganger 8") == "3 ×      8"
    assert table.to_symbols("3 GÅNGER 8") == "3 ×      8"
    assert table.to_symbols("20 pluss 4 er 24") == "20 +     4 =  24"
    assert table.to_symbols("15 plus 9") == "15 +    9"
    assert table.to_symbols("3 ganger 8 er 24") == "3 ×      8 =  24"


def test_a_phrase_is_read_whole_before_a_word_it_starts_with():
    """Given a table with "divided" and "divided by" (and a phrase's inner whitespace free),
    when "8 divided  by 2" is read, then the phrase is one operator, not "divided" and "by"."""
    table = WordTable({"xx": {"divided": "÷", "divided by": "÷", "multiplied by": "×"}}, {})
    assert table.to_symbols("8 divided  by 2") == "8 ÷           2"
    assert table.to_symbols("8 Multiplied\tBY 2") == "8 ×             2"
    assert table.to_symbols("8 divided 2") == "8 ÷       2"


def test_a_word_that_would_mean_two_things_is_refused_when_the_table_is_built():
    with pytest.raises(ValueError, match="'X' means both '×' and '='"):
        WordTable({"en": {"x": "×"}}, {"xx": ("X",)})
    with pytest.raises(ValueError, match="'Plus' means both '\\+' and '−'"):
        WordTable({"en": {"plus": "+"}, "zz": {"Plus": "−"}}, {})
    # the same meaning twice (two languages sharing a word) is fine
    assert WordTable({"nb": {"minus": "−"}, "sv": {"minus": "−"}}, {}).symbol_of == {"minus": "−"}


@pytest.mark.parametrize(
    ("said", "pattern"),
    [
        ("3 ganger 8", Pattern(3, "*", 8)),  # Norwegian Bokmål (issue 30)
        ("15 pluss 9", Pattern(15, "+", 9)),
        ("24 delt på 1", Pattern(24, "/", 1)),
        ("3 gånger 8", Pattern(3, "*", 8)),  # Swedish
        ("24 delat med 1", Pattern(24, "/", 1)),
        ("30 minus 6", Pattern(30, "-", 6)),
    ],
)
def test_a_pattern_said_in_norwegian_or_swedish_reads_R_PUZ_3(said, pattern):
    assert parse_pattern(said) == pattern


def test_a_step_said_in_norwegian_or_swedish_reads_with_its_result_R_PLAY_5():
    assert words_to_symbols("3 ganger 8 er lik 24") == "3 ×      8 =      24"
    assert words_to_symbols("3 gånger 8 är lika med 24") == "3 ×      8 =           24"
    assert words_to_symbols("20 pluss 4 blir 24") == "20 +     4 =    24"
