"""Exact values and the two ways a player writes an answer: free-form and three steps.

What this module keeps (R-PUZ-1 .. R-PUZ-3):
- Every value is a `fractions.Fraction`; no float ever decides whether an answer is right
  (`8/(3-8/3)` is 23.999999999999996 in floats and exactly 24 here).
- A *free-form expression* (casual games, R-POCKET-2, R-DECK40) is an ordinary formula with
  brackets and the usual precedence, optionally followed by `= 24`. `check_expression`
  accepts it when it uses exactly the card's numbers (as a multiset), joins no digits and
  makes 24.
- A *tournament solution* (R-PUZ-2, R-PUZ-3) is a pattern (the last step, `3 × 8`) and exactly
  three steps `a op b [= r]`. Each step combines two *available* values (card numbers not yet
  used, or results of earlier steps); its result becomes available; after the third step
  nothing is left and the value is 24; the last step is the declared pattern (order free for
  + and × only). `check_solution` judges it.

How it works: `notation.py` reads the text (tokens, the free-form grammar, the step grammar and
its rules for several slashes); this module judges what was read against the card. Every
refusal is a `Verdict` with a stable machine-readable `reason` (the codes are listed in
`REASONS`) and a human message that points at the problem. The names a caller needs
(`Pattern`, `parse_pattern`, `PuzzleSyntaxError`, ...) are importable from here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from server.puzzles.notation import (
    MAX_TEXT,
    TARGET,
    FreeFormParser,
    Node,
    Pattern,
    PuzzleSyntaxError,
    Step,
    apply_operator,
    format_value,
    numbers_of,
    parse_pattern,
    parse_step,
    tokenize,
    without_stated_target,
)

__all__ = [
    "MAX_TEXT",
    "REASONS",
    "STEP_COUNT",
    "TARGET",
    "Pattern",
    "PuzzleSyntaxError",
    "Step",
    "Verdict",
    "check_expression",
    "check_solution",
    "format_value",
    "parse_pattern",
    "parse_step",
]

STEP_COUNT = 3  # R-PUZ-2: "ALL solutions are three steps."

# Every refusal reason, with what it means. Stable: clients and event logs store these codes.
REASONS: dict[str, str] = {
    "syntax": "the text cannot be read as an expression, step or pattern",
    "too_long": f"the text is longer than {MAX_TEXT} characters",
    "wrong_numbers": "the card's numbers are not each used exactly once",
    "joined_digits": "two card numbers are written together as one number (2 and 3 as 23)",
    "division_by_zero": "something is divided by zero",
    "not_24": "the answer does not make 24",
    "run_on": "a step holds more than one operation (R-PUZ-2: no run-on answers)",
    "wrong_step_count": "a tournament solution has exactly three steps (R-PUZ-2)",
    "step_result_wrong": "the result stated after '=' is not what the step makes",
    "value_not_available": "a step uses a value that is not available at that point",
    "numbers_left_over": "values are left unused after the last step",
    "pattern_not_24": "the declared pattern does not make 24 (R-PUZ-3)",
    "pattern_mismatch": "the last step is not the declared pattern (R-PUZ-3)",
}

# -- results ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """The judgement of an answer: `ok`, or a stable `reason` code and a human `message`."""

    ok: bool
    reason: str
    message: str
    value: Fraction | None = None


# -- free-form ----------------------------------------------------------------------------


class _DivisionByZero(Exception):
    def __init__(self, divisor: Node) -> None:
        self.divisor = divisor


def _evaluate(node: Node) -> Fraction:
    if not node.op:
        return Fraction(node.number)
    assert node.left is not None and node.right is not None
    left, right = _evaluate(node.left), _evaluate(node.right)
    if node.op == "/" and right == 0:
        raise _DivisionByZero(node.right)
    return apply_operator(left, node.op, right)


def _is_joined(number: int, parts: Counter[int]) -> bool:
    """True when the digits of `number` are two or more of `parts` written side by side."""

    def split(digits: str, left: Counter[int], pieces: int) -> bool:
        if not digits:
            return pieces >= 2
        for cut in range(1, len(digits) + 1):
            head = digits[:cut]
            if head.startswith("0") and head != "0":
                continue
            value = int(head)
            if left[value] > 0:
                left[value] -= 1
                found = split(digits[cut:], left, pieces + 1)
                left[value] += 1
                if found:
                    return True
        return False

    return split(str(number), Counter(parts), 0)


def _card_text(card: Sequence[int]) -> str:
    return " ".join(str(n) for n in card)


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def _numbers_verdict(card: Sequence[int], used: Iterable[int]) -> Verdict | None:
    """Compare the numbers an answer uses with the card's; None when they match."""
    have, want = Counter(used), Counter(card)
    extra, missing = have - want, want - have
    if not extra and not missing:
        return None
    for number in sorted(extra):
        if number not in want and _is_joined(number, missing):
            return Verdict(
                False,
                "joined_digits",
                f"{number} joins card numbers together; each number must stand alone",
            )
    problems = []
    for number in sorted(extra):
        if number in want:
            times_used, printed = _times(have[number]), _times(want[number])
            problems.append(f"{number} is used {times_used} but the card has it {printed}")
        else:
            problems.append(f"{number} is not on the card")
    for number in sorted(missing):
        if missing[number] == 1:
            problems.append(f"the card's {number} is not used")
        else:
            problems.append(f"the card's {number} is missing {_times(missing[number])}")
    return Verdict(False, "wrong_numbers", f"{'; '.join(problems)} (card: {_card_text(card)})")


def _validate_card(card: Sequence[int]) -> None:
    if not card or any(not isinstance(n, int) or isinstance(n, bool) or n < 0 for n in card):
        raise ValueError(f"a card is a sequence of whole numbers >= 0, not {card!r}")


def check_expression(card: Sequence[int], text: str) -> Verdict:
    """Judge a free-form answer (R-POCKET-2, R-DECK40): exact value 24, each card number once.

    Why a verdict and not an exception: a wrong answer is an ordinary outcome of play that the
    game records; the reason code is what rules and clients act on.
    """
    _validate_card(card)
    try:
        text, tokens = without_stated_target(text, tokenize(text))
        tree = FreeFormParser(text, tokens).parse()
    except PuzzleSyntaxError as error:
        return Verdict(False, error.reason, error.message)
    wrong = _numbers_verdict(card, numbers_of(tree))
    if wrong is not None:
        return wrong
    try:
        value = _evaluate(tree)
    except _DivisionByZero as error:
        divisor = text[error.divisor.start : error.divisor.end]
        return Verdict(False, "division_by_zero", f"division by zero: {divisor} is 0")
    if value != TARGET:
        return Verdict(
            False, "not_24", f"{text.strip()} makes {format_value(value)}, not 24", value
        )
    return Verdict(True, "", "correct", value)


def _label(index: int) -> str:
    return f"step {index + 1}"


def check_solution(card: Sequence[int], pattern: str | Pattern, steps: Sequence[str]) -> Verdict:
    """Judge a tournament answer (R-PUZ-2, R-PUZ-3): a pattern and exactly three steps.

    Why the checks run in this order: the first problem a proctor would point at is reported
    (an unreadable pattern before the steps, a step before the steps after it).
    """
    _validate_card(card)
    if isinstance(pattern, str):
        try:
            pattern = parse_pattern(pattern)
        except PuzzleSyntaxError as error:
            return Verdict(False, error.reason, f"pattern: {error.message}")
    try:
        pattern_value = pattern.value
    except ZeroDivisionError:
        return Verdict(False, "division_by_zero", f"the pattern {pattern} divides by zero")
    if pattern_value != TARGET:
        return Verdict(
            False,
            "pattern_not_24",
            f"the pattern {pattern} makes {format_value(pattern_value)}, not 24",
            pattern_value,
        )
    if len(steps) != STEP_COUNT:
        for index, text in enumerate(steps):
            try:
                parse_step(text, label=_label(index))
            except PuzzleSyntaxError as error:
                if error.reason == "run_on":
                    return Verdict(False, "run_on", error.message)
        return Verdict(
            False,
            "wrong_step_count",
            f"{len(steps)} steps given; a solution has exactly {STEP_COUNT} (R-PUZ-2)",
        )

    pool = _Pool(card)
    available = pool.has_both
    # The card's own numbers not used yet: only these can be "joined" (`33` on 3 3 8 8); a
    # number made of earlier results (1 and 2 made by steps, then `12`) is simply not there.
    unused_card = Counter(card)

    value: Fraction | None = None
    step: Step | None = None
    for index, text in enumerate(steps):
        label = _label(index)
        try:
            step = parse_step(text, available, label=label)
        except PuzzleSyntaxError as error:
            return Verdict(False, error.reason, error.message)
        missing = _missing_operand(step, pool, unused_card, label)
        if missing is not None:
            return missing
        try:
            value = apply_operator(step.left, step.op, step.right)
        except ZeroDivisionError:
            return Verdict(False, "division_by_zero", f"{label} divides by zero")
        if step.stated is not None and step.stated != value:
            return Verdict(
                False,
                "step_result_wrong",
                f"{label}: {step.pattern} makes {format_value(value)}, "
                f"not {format_value(step.stated)}",
                value,
            )
        pool.take(step.left)
        pool.take(step.right)
        pool.add(value)
        for operand in (step.left, step.right):
            _use_card_number(unused_card, operand)
    assert value is not None and step is not None
    pool.take(value)
    left_over = pool.values()
    if left_over:
        shown = ", ".join(format_value(v) for v in left_over)
        return Verdict(
            False, "numbers_left_over", f"after step {STEP_COUNT}, {shown} is not used", value
        )
    if value != TARGET:
        return Verdict(
            False, "not_24", f"step {STEP_COUNT} makes {format_value(value)}, not 24", value
        )
    if not step.pattern.same_as(pattern):
        return Verdict(
            False,
            "pattern_mismatch",
            f"the last step {step.pattern} is not the declared pattern {pattern} (R-PUZ-3)",
            value,
        )
    return Verdict(True, "", "correct", value)


class _Pool:
    """The values available to the next step, a multiset. Keyed by (numerator, denominator):
    hashing a pair of ints is far cheaper than hashing a Fraction."""

    def __init__(self, values: Iterable[int | Fraction]) -> None:
        self.counts: dict[tuple[int, int], int] = {}
        for value in values:
            self.add(value)

    def add(self, value: int | Fraction) -> None:
        key = (value.numerator, value.denominator)
        self.counts[key] = self.counts.get(key, 0) + 1

    def take(self, value: int | Fraction) -> None:
        key = (value.numerator, value.denominator)
        left = self.counts[key] - 1
        if left:
            self.counts[key] = left
        else:
            del self.counts[key]

    def has_both(self, left: Fraction, right: Fraction) -> bool:
        """True when `left` and `right` are both available (two of them if they are equal)."""
        a, b = (left.numerator, left.denominator), (right.numerator, right.denominator)
        if a == b:
            return self.counts.get(a, 0) >= 2
        return a in self.counts and b in self.counts

    def values(self) -> list[Fraction]:
        """Every available value, sorted, repeated as often as it is available."""
        return sorted(Fraction(n, d) for (n, d), count in self.counts.items() for _ in range(count))


def _use_card_number(unused_card: Counter[int], operand: Fraction) -> None:
    """Count a step's operand as a card number used when it can be one. Why a card number
    first, when a result of the same value is also there: "joined" is then claimed only of
    numbers that are certainly still unused on the card."""
    if operand.denominator == 1 and unused_card[operand.numerator]:
        unused_card[operand.numerator] -= 1


def _missing_operand(
    step: Step, pool: _Pool, unused_card: Counter[int], label: str
) -> Verdict | None:
    """Why a step's operands are not both available: `joined_digits` when the missing one is
    unused *card* numbers written together (`33` on 3 3 8 8), else `value_not_available`."""
    if pool.has_both(step.left, step.right):
        return None
    left_key = (step.left.numerator, step.left.denominator)
    operand = step.left if step.left == step.right or left_key not in pool.counts else step.right
    if operand.denominator == 1 and operand > 0 and _is_joined(int(operand), unused_card):
        return Verdict(
            False,
            "joined_digits",
            f"{label}: {format_value(operand)} joins card numbers together; "
            "each number must stand alone",
        )
    shown = ", ".join(format_value(v) for v in pool.values()) or "nothing"
    value = format_value(operand)
    if step.left == step.right and left_key in pool.counts:
        # The value is there once and the step uses it twice: say so, not "not available".
        return Verdict(
            False,
            "value_not_available",
            f"{label} uses {value} twice; only one {value} is available: {shown}",
        )
    return Verdict(
        False,
        "value_not_available",
        f"{label}: {value} is not available (available: {shown})",
    )
