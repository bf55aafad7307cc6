"""server.puzzles.solver: whole `Solution`s of small cards, every field (R-PUZ-1, R-PUZ-2).

Why whole values: test_solver.py checks properties (counts, agreement with a naive search,
both checkers accept every solution); these pin what a player and the difficulty model read,
the exact steps, the canonical text, the flags and the order, so a changed rendering or
preference (which of two equal trees is shown, which solution comes first) fails here.
"""

from fractions import Fraction

import pytest

from server.puzzles.notation import Pattern
from server.puzzles.solver import Solution, _render, _splits, solvable, solve

F = Fraction


def test_3_3_8_8_whole_solution():
    assert solve((3, 3, 8, 8)) == [
        Solution(
            expression="8 ÷ (3 − 8 ÷ 3)",
            steps=("8 ÷ 3 = 8/3", "3 − 8/3 = 1/3", "8 ÷ 1/3 = 24"),
            pattern=Pattern(F(8), "/", F(1, 3)),
            canonical="[8/(3-[8/3])]",
            ascii_expression="8 / (3 - 8 / 3)",
            ascii_steps=("8 / 3 = 8/3", "3 - 8/3 = 1/3", "8 / 1/3 = 24"),
            uses_fractions=True,
            uses_negatives=False,
            largest_intermediate=F(24),
            arithmetic=(
                (F(8), "/", F(3), F(8, 3)),
                (F(3), "-", F(8, 3), F(1, 3)),
                (F(8), "/", F(1, 3), F(24)),
            ),
            joins_results=False,
        )
    ]


def test_1_2_7_7_largest_intermediate_is_above_24():
    (solution,) = solve((1, 2, 7, 7))
    assert solution.expression == "(7 × 7 − 1) ÷ 2"
    assert solution.canonical == "-[(1-[7*7/])/2]"  # 1 - 7×7 sorts first: stored with a sign
    assert solution.largest_intermediate == 49
    assert solution.as_dict() == {
        "expression": "(7 × 7 − 1) ÷ 2",
        "ascii_expression": "(7 * 7 - 1) / 2",
        "steps": ["7 × 7 = 49", "49 − 1 = 48", "48 ÷ 2 = 24"],
        "ascii_steps": ["7 * 7 = 49", "49 - 1 = 48", "48 / 2 = 24"],
        "pattern": "48 ÷ 2",
        "canonical": "-[(1-[7*7/])/2]",
        "uses_fractions": False,
        "uses_negatives": False,
        "largest_intermediate": "49",
    }


def test_1_2_3_4_every_solution_in_order():
    # simplest first: equal in flags and largest step, no right-nested chain (`1 + (2 + 3)`)
    # before one, then by text
    assert [
        (s.ascii_expression, s.canonical, s.ascii_steps, s.joins_results)
        for s in solve((1, 2, 3, 4))
    ] == [
        ("(1 + 3) * (2 + 4)", "[(-1-3)*(-2-4)/]", ("1 + 3 = 4", "2 + 4 = 6", "4 * 6 = 24"), True),
        ("2 * 3 / 1 * 4", "[2*3*4/1]", ("2 * 3 = 6", "6 / 1 = 6", "6 * 4 = 24"), False),
        ("(1 + 2 + 3) * 4", "-[(-1-2-3)*4/]", ("2 + 3 = 5", "1 + 5 = 6", "6 * 4 = 24"), False),
        ("1 * 2 * 3 * 4", "[1*2*3*4/]", ("2 * 3 = 6", "1 * 6 = 6", "6 * 4 = 24"), False),
    ]


def test_both_sides_of_every_card_limit():
    # accepted: 1 and 6 numbers (MAX_CARD), the numbers 0 and 99 (MAX_NUMBER)
    assert solvable((1, 1, 1, 1, 4, 6))
    assert [s.ascii_expression for s in solve((0, 24))] == ["0 + 24", "24 - 0"]
    assert [s.ascii_expression for s in solve((24, 99, 99))] == ["99 - 99 + 24", "99 / 99 * 24"]
    refused = {
        (): "a card has 1 to 6 numbers, not 0",
        (1,) * 7: "a card has 1 to 6 numbers, not 7",
        (1, 2, 3, 100): "card numbers are whole numbers 0..99, not 100",
        (1, 2, 3, -1): "card numbers are whole numbers 0..99, not -1",
        (True, 2, 3, 4): "card numbers are whole numbers 0..99, not True",  # a bool is no number
    }
    for card, message in refused.items():
        for judge in (solvable, solve):
            with pytest.raises(ValueError) as refusal:
                judge(card)
            assert str(refusal.value) == message, card


def test_a_sum_of_two_added_terms_reads_plus_in_its_canonical_text():
    # (added terms joined by "+", then "-" and the subtracted ones): 1 + 5×5 − 2
    assert [(s.ascii_expression, s.canonical) for s in solve((1, 2, 5, 5))] == [
        ("5 * 5 - 2 + 1", "(1+[5*5/]-2)")
    ]


def test_a_zero_sum_inside_a_product_keeps_its_orientation():
    # 5 − 5 reads the same both ways round ("(5-5)"): it is stored unnegated, so a term
    # 3 × (5 − 5) is added where the tree adds it: `24 + 3 × (5 − 5)` reads −(−24 − x)
    # ("-(-24-…)", the orientation whose text sorts first) and `24 − 3 × (5 − 5)` reads 24 − x
    assert [(s.ascii_expression, s.canonical) for s in solve((3, 5, 5, 24))] == [
        ("(5 - 5) / 3 + 24", "-(-24-[(5-5)/3])"),
        ("24 + 3 * (5 - 5)", "-(-24-[(5-5)*3/])"),
        ("24 - (5 - 5) / 3", "(24-[(5-5)/3])"),
        ("24 - 3 * (5 - 5)", "(24-[(5-5)*3/])"),
    ]


def test_1_1_3_8_every_solution_in_order():
    # a product's divisors are joined by "/" as its factors by "*": 3 × 8 ÷ 1 ÷ 1 is
    # "[3*8/1/1]", another solution than 1 × 3 ÷ 1 × 8 ("[1*3*8/1]")
    assert [(s.ascii_expression, s.canonical) for s in solve((1, 1, 3, 8))] == [
        ("1 * 3 / 1 * 8", "[1*3*8/1]"),
        ("1 - 1 + 3 * 8", "(1+[3*8/]-1)"),
        ("3 * 8 / 1 / 1", "[3*8/1/1]"),
        ("(1 + 3 - 1) * 8", "[(1+3-1)*8/]"),
        ("(1 + 8 - 1) * 3", "[(1+8-1)*3/]"),
        ("1 * 1 * 3 * 8", "[1*1*3*8/]"),
    ]


def test_each_split_of_a_card_once_the_smaller_part_first():
    assert _splits((1, 2, 3, 4)) == [
        ((1,), (2, 3, 4)),
        ((2,), (1, 3, 4)),
        ((3,), (1, 2, 4)),
        ((4,), (1, 2, 3)),
        ((1, 2), (3, 4)),  # not again as (3, 4), (1, 2)
        ((1, 3), (2, 4)),
        ((1, 4), (2, 3)),
    ]
    # equal numbers: (1), (1, 2, 2) once, not once per 1
    assert _splits((1, 1, 2, 2)) == [
        ((1,), (1, 2, 2)),
        ((2,), (1, 1, 2)),
        ((1, 1), (2, 2)),
        ((1, 2), (1, 2)),
    ]


def test_brackets_only_where_regrouping_would_change_the_value():
    assert _render(("-", 8, ("-", 3, 1))) == "8 - (3 - 1)"
    assert _render(("/", 8, ("/", 4, 2)), unicode=True) == "8 ÷ (4 ÷ 2)"
    assert _render(("-", ("-", 8, 3), 1)) == "8 - 3 - 1"
    assert _render(("/", ("/", 8, 4), 2)) == "8 / 4 / 2"
    assert _render(("+", 8, ("+", 3, 1))) == "8 + 3 + 1"
    assert _render(("*", 2, ("*", 3, 4)), unicode=True) == "2 × 3 × 4"
    assert _render(("+", 8, ("-", 3, 1))) == "8 + 3 - 1"
    assert _render(("*", 8, ("/", 3, 1))) == "8 * 3 / 1"
    assert _render(("/", ("+", 8, 4), ("*", 3, 1))) == "(8 + 4) / (3 * 1)"
    assert _render(("-", 8, ("*", 3, 1))) == "8 - 3 * 1"


def test_a_card_number_is_no_step_of_the_largest_intermediate():
    # 0 1 1 24: a number adds nothing to the largest intermediate, so of the trees of
    # 0 + 1 − 1, `0 + (1 − 1)` (steps 0 and 0) is kept over `(0 + 1) − 1` (steps 1 and 0); with
    # 24 its solution ties with others at largest 24 and one right-nested step, and the first
    # text of those is shown
    solutions = {s.canonical: s.ascii_expression for s in solve((0, 1, 1, 24))}
    assert len(solutions) == 76
    assert solutions["(0+1+24-1)"] == "0 + 1 + 24 - 1"
    assert solutions["-(-24-[0*1*1/])"] == "1 * 0 * 1 + 24"
