"""Every distinct way to make 24 from a card, and a fast yes/no.

What this module keeps (R-PUZ-1, R-PUZ-2, R-PUZ-4):
- Exact arithmetic: values are `int` while whole and `Fraction` otherwise (the two compare and
  hash alike), so fraction-only cards such as 3 3 8 8 or 1 5 5 5 are found.
- Every solution is a binary tree, which is exactly a sequence of n - 1 binary steps, so each
  solution renders as a free-form expression and as a three-step tournament answer whose last
  step is its pattern.
- *Distinct* solutions: two trees are the same solution when they have the same canonical
  form (described below and in docs/puzzles.md).

How `solvable` is fast: the sets of values reachable from every sorted sub-multiset of one,
two and three numbers are memoised (there are only 455 triples of 1..13), and a card of four
is solvable when, for some split into one + three or two + two numbers, one side's values meet
the values the other side *needs* to make 24 (`24 - x`, `x - 24`, `24 + x`, `24 / x`, `x / 24`,
`24 * x`): a set intersection per split instead of enumerating 7,680 expression trees.

How `solve` works: the same splits, over memoised *forms* (canonical form -> value and the
nicest tree having it) of the sub-multisets; only the final combinations that make 24 are built.

Canonical form: sums and differences are flattened into a signed multiset of terms
(`a - (b - c)` = `a + c - b`), products and quotients into a multiset of factors over a
multiset of divisors (`a / (b / c)` = `a × c / b`), each multiset sorted; a sum's terms and a
product's factors are themselves canonical. Negation is pulled out as a sign: a sum is stored
in the one of its two orientations (`a - b` or `b - a`) whose text sorts first, with a sign, and
a product's sign is the product of its factors' signs, so `(a - b) × (c - d)` and
`(b - a) × (d - c)` are one solution, and `x - (a - b) × c` is `x + (b - a) × c`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations

from server.puzzles.notation import (
    ASCII_OPERATOR,
    DISPLAY_OPERATOR,
    TARGET,
    Pattern,
    format_value,
)

Value = int | Fraction
MAX_NUMBER = 99  # a card number is a whole number 0..99 (R-DECK-2 uses 1..24)
MAX_CARD = 6  # more numbers than this makes the search needlessly expensive

# -- values only (solvable) ------------------------------------------------------------------


def _quotient(a: Value, b: Value) -> Value:
    if type(a) is int and type(b) is int:
        whole, remainder = divmod(a, b)
        return whole if remainder == 0 else Fraction(a, b)
    result = Fraction(a) / b
    return result.numerator if result.denominator == 1 else result


def _whole(value: Value) -> Value:
    if type(value) is not int and value.denominator == 1:
        return value.numerator
    return value


def _results(a: Value, b: Value) -> list[Value]:
    """Every value of `a op b` and `b op a`."""
    out = [_whole(a + b), _whole(a - b), _whole(b - a), _whole(a * b)]
    if b:
        out.append(_quotient(a, b))
    if a:
        out.append(_quotient(b, a))
    return out


def _splits(numbers: tuple[int, ...]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Each way to cut a sorted multiset in two non-empty parts, once per unordered pair."""
    seen = set()
    out = []
    size = len(numbers)
    for count in range(1, size // 2 + 1):
        for chosen in combinations(range(size), count):
            first = tuple(numbers[i] for i in chosen)
            second = tuple(numbers[i] for i in range(size) if i not in chosen)
            key = (first, second) if (count, first) <= (size - count, second) else (second, first)
            if key not in seen:
                seen.add(key)
                out.append(key)
    return out


@cache
def _values(numbers: tuple[int, ...]) -> frozenset[Value]:
    """All values reachable from a sorted multiset, each number used once."""
    if len(numbers) == 1:
        return frozenset(numbers)
    found: set[Value] = set()
    for first, second in _splits(numbers):
        left_values, right_values = _values(first), _values(second)
        for a in left_values:
            for b in right_values:
                found.update(_results(a, b))
    return frozenset(found)


@cache
def _needs(numbers: tuple[int, ...]) -> frozenset[Value]:
    """The values y such that `x op y` or `y op x` is 24 for some value x of `numbers`."""
    needed: set[Value] = set()
    for x in _values(numbers):
        needed.update((_whole(24 - x), _whole(x - 24), _whole(24 + x)))
        if x:  # y / x = 24 and x / y = 24 need x != 0; x * y = 24 too
            needed.add(_whole(24 * x))
            needed.add(_quotient(24, x))
            needed.add(_quotient(x, 24))
    return frozenset(needed)


def _validate(numbers: Sequence[int]) -> tuple[int, ...]:
    if not 1 <= len(numbers) <= MAX_CARD:
        raise ValueError(f"a card has 1 to {MAX_CARD} numbers, not {len(numbers)}")
    for n in numbers:
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MAX_NUMBER:
            raise ValueError(f"card numbers are whole numbers 0..{MAX_NUMBER}, not {n!r}")
    return tuple(sorted(numbers))


def solvable(numbers: Sequence[int]) -> bool:
    """True when the numbers make 24 with + − × ÷, each used once (R-PUZ-1, R-PUZ-4).

    Why not `bool(solve(...))`: decks test thousands of candidate cards; this answers with a
    few set intersections over memoised reachable-value sets.
    """
    return _solvable(_validate(numbers))


@cache
def _solvable(card: tuple[int, ...]) -> bool:
    """`solvable` of a sorted multiset, memoised: R-PUZ-4 checks every card of each table a
    tournament creates (48 per table, 500 tables a round start: issue 32), mostly the same
    cards, and the splits alone cost ~0.1 ms a card."""
    if len(card) == 1:
        return card[0] == 24
    for first, second in _splits(card):
        # `first` is the smaller part: its needs are few, the larger part's values many
        if not _needs(first).isdisjoint(_values(second)):
            return True
    return False


# -- forms (solve) ---------------------------------------------------------------------------
# A tree is an int (a card number) or (op, left, right). A canonical form is
# (negated, kind, key, parts_a, parts_b): kind "n" number, "s" sum (a = added terms,
# b = subtracted), "p" product (a = factors, b = divisors); key is the text of the body.
Tree = int | tuple[str, "Tree", "Tree"]


@dataclass(frozen=True)
class _Form:
    value: Value
    negated: bool  # the tree's value is minus the body's (`key`)
    kind: str
    key: str
    a: tuple[str, ...]
    b: tuple[str, ...]
    tree: Tree
    # negatives, fractions, largest |intermediate|, right-nested chains (`a + (b + c)`)
    badness: tuple[int, int, Value, int]

    @property
    def full_key(self) -> str:
        return "-" + self.key if self.negated else self.key


def _leaf(n: int) -> _Form:
    return _Form(n, False, "n", str(n), (), (), n, (0, 0, 0, 0))


def _sum_key(plus: Sequence[str], minus: Sequence[str]) -> str:
    return "(" + "+".join(plus) + "-" + "-".join(minus) + ")"


def _canonical(
    op: str, left: _Form, right: _Form
) -> tuple[bool, str, str, tuple[str, ...], tuple[str, ...]]:
    if op in ("+", "-"):
        plus: list[str] = []
        minus: list[str] = []
        for form, subtracted in ((left, False), (right, op == "-")):
            added = form.negated == subtracted
            if form.kind == "s":
                plus.extend(form.a if added else form.b)
                minus.extend(form.b if added else form.a)
            else:
                (plus if added else minus).append(form.key)
        plus.sort()
        minus.sort()
        forward, backward = _sum_key(plus, minus), _sum_key(minus, plus)
        if forward <= backward:
            return False, "s", forward, tuple(plus), tuple(minus)
        return True, "s", backward, tuple(minus), tuple(plus)
    factors: list[str] = []
    divisors: list[str] = []
    for form, inverse in ((left, False), (right, op == "/")):
        if form.kind == "p":
            factors.extend(form.b if inverse else form.a)
            divisors.extend(form.a if inverse else form.b)
        else:
            (divisors if inverse else factors).append(form.key)
    factors.sort()
    divisors.sort()
    key = "[" + "*".join(factors) + "/" + "/".join(divisors) + "]"
    return left.negated != right.negated, "p", key, tuple(factors), tuple(divisors)


def _combine(op: str, left: _Form, right: _Form, value: Value) -> _Form:
    negated, kind, key, a, b = _canonical(op, left, right)
    bad_l, bad_r = left.badness, right.badness
    badness = (
        bad_l[0] + bad_r[0] + (value < 0),
        bad_l[1] + bad_r[1] + (type(value) is not int),
        max(bad_l[2], bad_r[2], abs(Fraction(value))),
        bad_l[3] + bad_r[3] + (_precedence(right.tree) == _PRECEDENCE[op]),  # a number: 3
    )
    return _Form(value, negated, kind, key, a, b, (op, left.tree, right.tree), badness)


def _apply(op: str, a: Value, b: Value) -> Value | None:
    if op == "+":
        return _whole(a + b)
    if op == "-":
        return _whole(a - b)
    if op == "*":
        return _whole(a * b)
    return _quotient(a, b) if b else None


def _keep(found: dict[str, _Form], form: _Form) -> None:
    old = found.get(form.full_key)
    if (
        old is None
        or form.badness < old.badness
        or (form.badness == old.badness and _render(form.tree) < _render(old.tree))
    ):
        found[form.full_key] = form


@cache
def _forms(numbers: tuple[int, ...]) -> dict[Value, tuple[_Form, ...]]:
    """Distinct forms of a sorted multiset, indexed by value."""
    if len(numbers) == 1:
        return {numbers[0]: (_leaf(numbers[0]),)}
    found: dict[str, _Form] = {}
    for first, second in _splits(numbers):
        lefts = [f for group in _forms(first).values() for f in group]
        rights = [f for group in _forms(second).values() for f in group]
        for x in lefts:
            for y in rights:
                for op, p, q in (("+", x, y), ("*", x, y), ("-", x, y), ("-", y, x)) + (
                    ("/", x, y),
                    ("/", y, x),
                ):
                    value = _apply(op, p.value, q.value)
                    if value is not None:
                        _keep(found, _combine(op, p, q, value))
    by_value: dict[Value, list[_Form]] = {}
    for form in found.values():
        by_value.setdefault(form.value, []).append(form)
    return {value: tuple(group) for value, group in by_value.items()}


def _partners(x: Value) -> list[tuple[str, bool, Value]]:
    """(op, x_on_left, y) for each y with `x op y == 24` (x_on_left) or `y op x == 24`."""
    out: list[tuple[str, bool, Value]] = [
        ("+", True, _whole(24 - x)),
        ("+", False, _whole(24 - x)),  # both orders: the nicer tree wins in `_keep`
        ("-", True, _whole(x - 24)),
        ("-", False, _whole(24 + x)),
    ]
    if x:  # x × y, y × x and y ÷ x make 24 only for x != 0; x ÷ y never for y = 0
        out += [
            ("*", True, _quotient(24, x)),
            ("*", False, _quotient(24, x)),
            ("/", False, _whole(24 * x)),
            ("/", True, _quotient(x, 24)),
        ]
    return out


def _targeted(numbers: tuple[int, ...]) -> list[_Form]:
    """The distinct forms of `numbers` (two or more) whose value is 24, built only where they
    make 24."""
    found: dict[str, _Form] = {}
    for first, second in _splits(numbers):
        right_forms = _forms(second)
        for group in _forms(first).values():
            for x in group:
                for op, x_left, y in _partners(x.value):
                    for other in right_forms.get(y, ()):
                        p, q = (x, other) if x_left else (other, x)
                        _keep(found, _combine(op, p, q, TARGET.numerator))
    return sorted(found.values(), key=lambda f: (f.badness, _render(f.tree)))


# -- rendering -------------------------------------------------------------------------------

_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2}


def _precedence(tree: Tree) -> int:
    """How tightly a tree's top operator binds (a number binds tightest)."""
    return 3 if isinstance(tree, int) else _PRECEDENCE[tree[0]]


def _render(tree: Tree, unicode: bool = False) -> str:
    """Minimal brackets: a child is bracketed when it binds looser than its parent, or as
    tightly on the right of − or ÷ (where regrouping would change the value)."""
    if isinstance(tree, int):
        return str(tree)
    op, left, right = tree
    symbols = DISPLAY_OPERATOR if unicode else ASCII_OPERATOR

    def side(child: Tree, is_right: bool) -> str:
        text = _render(child, unicode)
        if isinstance(child, int):
            return text
        child_level, level = _precedence(child), _PRECEDENCE[op]
        if child_level < level or (is_right and child_level == level and op in ("-", "/")):
            return f"({text})"
        return text

    return f"{side(left, False)} {symbols[op]} {side(right, True)}"


def _value_of(tree: Tree) -> Value:
    if isinstance(tree, int):
        return tree
    op, left, right = tree
    value = _apply(op, _value_of(left), _value_of(right))
    assert value is not None
    return value


def _steps(tree: Tree) -> list[tuple[Value, str, Value, Value]]:
    """Post-order: the binary steps that compute the tree, last step last."""
    if isinstance(tree, int):
        return []
    op, left, right = tree
    a, b = _value_of(left), _value_of(right)
    return [*_steps(left), *_steps(right), (a, op, b, _value_of(tree))]


def _step_text(step: tuple[Value, str, Value, Value], unicode: bool) -> str:
    a, op, b, result = step
    symbols = DISPLAY_OPERATOR if unicode else ASCII_OPERATOR
    return (
        f"{format_value(a, unicode)} {symbols[op]} {format_value(b, unicode)}"
        f" = {format_value(result, unicode)}"
    )


@dataclass(frozen=True)
class Solution:
    """One distinct solution, rendered both ways (free-form and three steps with a pattern)."""

    expression: str  # free-form, × ÷ −, minimal brackets: "8 ÷ (3 − 8 ÷ 3)"
    steps: tuple[str, ...]  # three steps for a card of four: "8 ÷ 3 = 8/3", ...
    pattern: Pattern  # the last step (R-PUZ-3)
    canonical: str  # the canonical form's text; equal texts are the same solution
    ascii_expression: str  # "8 / (3 - 8 / 3)"
    ascii_steps: tuple[str, ...]
    uses_fractions: bool  # some intermediate value is not whole
    uses_negatives: bool  # some intermediate value is below zero
    largest_intermediate: Fraction  # the largest |value| of any step
    # the steps as exact values: (left, op, right, result), op one of "+", "-", "*", "/"
    arithmetic: tuple[tuple[Fraction, str, Fraction, Fraction], ...] = ()
    joins_results: bool = False  # the last step combines two earlier results: (a·b)·(c·d)

    def as_dict(self) -> dict[str, object]:
        """Plain data for JSON output and the wire."""
        return {
            "expression": self.expression,
            "ascii_expression": self.ascii_expression,
            "steps": list(self.steps),
            "ascii_steps": list(self.ascii_steps),
            "pattern": str(self.pattern),
            "canonical": self.canonical,
            "uses_fractions": self.uses_fractions,
            "uses_negatives": self.uses_negatives,
            "largest_intermediate": str(self.largest_intermediate),  # never negative: "49", "8/3"
        }


def _solution(form: _Form) -> Solution:
    steps = _steps(form.tree)
    last = steps[-1]
    return Solution(
        expression=_render(form.tree, unicode=True),
        steps=tuple(_step_text(step, True) for step in steps),
        pattern=Pattern(Fraction(last[0]), last[1], Fraction(last[2])),
        canonical=form.full_key,
        ascii_expression=_render(form.tree),
        ascii_steps=tuple(_step_text(step, False) for step in steps),
        uses_fractions=form.badness[1] > 0,
        uses_negatives=form.badness[0] > 0,
        largest_intermediate=Fraction(form.badness[2]),
        arithmetic=tuple((Fraction(a), op, Fraction(b), Fraction(r)) for a, op, b, r in steps),
        joins_results=isinstance(form.tree, tuple)
        and not isinstance(form.tree[1], int)
        and not isinstance(form.tree[2], int),
    )


def solve(numbers: Sequence[int]) -> list[Solution]:
    """Every distinct solution of a card, simplest first (no negatives, fewest fractions,
    smallest intermediates), each as a free-form expression and as steps with a pattern.

    Why distinct and not every tree: 2 4 8 10 has hundreds of trees but few genuinely
    different solutions; difficulty and hints need the latter. A card of four numbers gets
    three steps (R-PUZ-2); other sizes get one step fewer than they have numbers.
    """
    card = _validate(numbers)
    if len(card) == 1:
        return []  # a lone 24 needs no step; not a puzzle
    return [_solution(form) for form in _targeted(card)]
