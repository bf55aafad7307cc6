"""server.puzzles.solver: solvable(), distinct solutions and their renderings (R-PUZ-1, -2)."""

import random
import re
from fractions import Fraction
from itertools import combinations_with_replacement

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.puzzles.expressions import Pattern, check_expression, check_solution
from server.puzzles.solver import solvable, solve

FRACTION_ONLY = [(3, 3, 8, 8), (1, 3, 4, 6), (1, 5, 5, 5), (3, 3, 7, 7), (4, 4, 7, 7), (1, 4, 5, 6)]


def _naive_solvable(values: list[Fraction]) -> bool:
    """Plain recursive search over ordered pairs: the reference the fast path must agree with."""
    if len(values) == 1:
        return values[0] == 24
    for i, a in enumerate(values):
        for j, b in enumerate(values):
            if i == j:
                continue
            rest = [v for k, v in enumerate(values) if k not in (i, j)]
            for result in (a + b, a - b, a * b, a / b if b else None):
                if result is not None and _naive_solvable([*rest, result]):
                    return True
    return False


def test_counts_of_solvable_cards():
    # the published counts: 1,362 of the 1,820 cards of 1..13, 566 of the 715 of 1..10
    classic = list(combinations_with_replacement(range(1, 14), 4))
    assert len(classic) == 1820
    assert sum(solvable(card) for card in classic) == 1362
    small = list(combinations_with_replacement(range(1, 11), 4))
    assert len(small) == 715
    assert sum(solvable(card) for card in small) == 566


@pytest.mark.parametrize("card", FRACTION_ONLY)
def test_fraction_only_cards_are_found(card):
    solutions = solve(card)
    assert solutions, card
    assert all(s.uses_fractions for s in solutions)
    assert solvable(card)


def test_3_3_8_8_has_one_solution_in_three_steps():
    (solution,) = solve((3, 3, 8, 8))
    assert solution.expression == "8 ÷ (3 − 8 ÷ 3)"
    assert solution.ascii_expression == "8 / (3 - 8 / 3)"
    assert solution.steps == ("8 ÷ 3 = 8/3", "3 − 8/3 = 1/3", "8 ÷ 1/3 = 24")
    assert solution.pattern == Pattern(8, "/", Fraction(1, 3))


@pytest.mark.parametrize("card", [(1, 1, 1, 1), (1, 1, 1, 2), (13, 13, 13, 13), (1, 7, 7, 7)])
def test_unsolvable_cards(card):
    assert not solvable(card)
    assert solve(card) == []


def test_2_4_8_10_has_eleven_distinct_solutions():
    # the card reported to have the most distinct solutions (field notes)
    solutions = solve((2, 4, 8, 10))
    assert len(solutions) == 11
    assert len({s.canonical for s in solutions}) == 11


def test_commutativity_and_associativity_count_once():
    # 6 6 6 6: 6+6+6+6 in any grouping and order is one solution; 6×6−6−6 is another
    expressions = {s.expression for s in solve((6, 6, 6, 6))}
    assert "6 + 6 + 6 + 6" in expressions
    assert len(solve((6, 6, 6, 6))) == len({s.canonical for s in solve((6, 6, 6, 6))})


def _trees(numbers):
    """Every binary expression tree over the numbers (ordered children): the brute force."""
    if len(numbers) == 1:
        yield numbers[0]
        return
    size = len(numbers)
    for mask in range(1, (1 << size) - 1):
        left = [numbers[i] for i in range(size) if mask >> i & 1]
        right = [numbers[i] for i in range(size) if not mask >> i & 1]
        for a in _trees(left):
            for b in _trees(right):
                for op in "+-*/":
                    yield (op, a, b)


def _evaluate(tree, values):
    if isinstance(tree, int):
        return values[tree]
    op, left, right = tree
    a, b = _evaluate(left, values), _evaluate(right, values)
    return {"+": a + b, "-": a - b, "*": a * b}[op] if op != "/" else a / b


@pytest.mark.parametrize("card", [(2, 4, 8, 10), (1, 4, 7, 8), (1, 2, 3, 4), (2, 3, 5, 12)])
def test_distinct_means_different_as_an_identity(card):
    # Independent check of the canonical forms: put random rationals in place of the numbers;
    # two solutions are the same identity exactly when they agree there (with certainty for
    # practical purposes). For four different numbers, our distinct solutions are exactly the
    # distinct identities among all the trees that make 24, so no rewrite is missing or wrong.
    rng = random.Random(1)
    at = {n: Fraction(rng.randrange(10**6, 10**7), rng.randrange(10**6, 10**7)) for n in card}
    identities = set()
    for tree in _trees(list(card)):
        try:
            if _evaluate(tree, {n: Fraction(n) for n in card}) == 24:
                identities.add(_evaluate(tree, at))
        except ZeroDivisionError:
            continue
    ours = [
        eval(re.sub(r"\d+", lambda m: f"S[{m.group()}]", s.ascii_expression), {"S": at})
        for s in solve(card)
    ]
    assert len(set(ours)) == len(ours)
    assert set(ours) == identities


def test_simplest_solution_first():
    first = solve((1, 2, 3, 4))[0]
    assert not first.uses_fractions and not first.uses_negatives


def test_as_dict_is_plain_data():
    data = solve((3, 3, 8, 8))[0].as_dict()
    assert data["pattern"] == "8 ÷ 1/3"
    assert data["steps"] == ["8 ÷ 3 = 8/3", "3 − 8/3 = 1/3", "8 ÷ 1/3 = 24"]
    assert data["uses_fractions"] is True


@pytest.mark.parametrize(
    "numbers", [(), (1, 2, 3, 4, 5, 6, 7), (1, 2, 3, -4), (1, 2, 3, 100), (1, 2, 3, 4.0)]
)
def test_invalid_cards_are_refused(numbers):
    with pytest.raises(ValueError):
        solvable(numbers)
    with pytest.raises(ValueError):
        solve(numbers)


def test_other_card_sizes():
    assert solvable((24,)) and not solvable((23,))
    assert solve((24,)) == []
    assert solvable((4, 6)) and len(solve((4, 6))) == 1
    assert solvable((1, 2, 3, 4, 5))
    five = solve((1, 2, 3, 4, 5))
    assert five and all(len(s.steps) == 4 for s in five)


CARDS = st.lists(st.integers(1, 13), min_size=4, max_size=4)


@settings(max_examples=60, deadline=None)
@given(card=CARDS)
def test_every_solution_passes_both_checkers(card):
    for solution in solve(card):
        assert check_expression(card, solution.expression).ok, solution
        assert check_expression(card, solution.ascii_expression).ok, solution
        verdict = check_solution(card, solution.pattern, solution.steps)
        assert verdict.ok, (solution, verdict)
        assert check_solution(card, str(solution.pattern), solution.ascii_steps).ok
        # R-PUZ-3: swapping the operands of + and × in the pattern never changes the verdict
        pattern = solution.pattern
        if pattern.op in "+*":
            swapped = Pattern(pattern.right, pattern.op, pattern.left)
            assert check_solution(card, swapped, solution.steps).ok


@settings(max_examples=100, deadline=None)
@given(card=st.lists(st.integers(0, 24), min_size=4, max_size=4))
def test_solvable_agrees_with_a_naive_search_and_with_solve(card):
    expected = _naive_solvable([Fraction(n) for n in card])
    assert solvable(card) == expected
    assert bool(solve(card)) == expected
