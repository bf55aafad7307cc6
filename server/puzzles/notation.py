"""How answers are written: values, operators, and the two grammars (free-form and steps).

What this module keeps: the text of an answer becomes structure here, and nothing is judged.
- Values are exact (`fractions.Fraction`, R-PUZ-1); `format_value` writes them back as `8/3`.
- One tokenizer feeds two readers. Free-form text (R-POCKET-2, R-DECK40) goes through a
  recursive descent parser with the usual precedence, where every `/` divides. A step or a
  pattern (R-PUZ-2, R-PUZ-3) is `value op value [= value]`, a value being a whole number or a
  fraction `n/d`, optionally signed, so `8 / 1/3` has two readings: `parse_step` enumerates them
  and takes one by the fixed order of preferences documented in docs/puzzles.md (available
  operands, the stated result, spacing, the leftmost operator).
- Text that cannot be read raises `PuzzleSyntaxError` with a stable `reason` code; the judge
  (`expressions.py`) turns it into a refusal.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from server.puzzles.spoken import words_to_symbols

TARGET = Fraction(24)
MAX_TEXT = 200  # longer input is refused before parsing (bounded work per answer)
# Brackets open at once in a free-form expression: a card of four numbers needs three at most.
# Why a cap: the parser recurses five frames per bracket, so 190 brackets (within MAX_TEXT)
# would exhaust the stack under a server's own frames and turn a wrong answer into a crash.
MAX_BRACKET_DEPTH = 32

# Input symbol -> operator code. The codes are "+", "-", "*", "/".
OPERATORS: dict[str, str] = {
    "+": "+",
    "-": "-",
    "−": "-",  # U+2212 minus sign
    "–": "-",  # en dash, what word processors turn "-" into
    "*": "*",
    "×": "*",
    "x": "*",
    "X": "*",
    "·": "*",
    "÷": "/",
    "/": "/",
    ":": "/",
}
_OPERATOR_SHAPE = {"-": "-", "−": "-", "–": "-", "/": "/"}  # other operators are "o"
DISPLAY_OPERATOR = {"+": "+", "-": "−", "*": "×", "/": "÷"}
ASCII_OPERATOR = {"+": "+", "-": "-", "*": "*", "/": "/"}
COMMUTATIVE = frozenset({"+", "*"})

_TOKEN = re.compile(r"(\s*)(?:(\d+)|([-+−–*×xX·÷/:])|([()=])|(\S))")


class PuzzleSyntaxError(ValueError):
    """Text that cannot be read; `reason` is a code of `expressions.REASONS`, usually "syntax"."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def apply_operator(left: Fraction, op: str, right: Fraction) -> Fraction:
    """`left op right`, exactly. Built from numerators and denominators because that is about
    three times faster than Fraction's operators, and checking answers is on the hot path."""
    a, b = left.numerator, left.denominator
    c, d = right.numerator, right.denominator
    if op == "+":
        return Fraction(a * d + c * b, b * d)
    if op == "-":
        return Fraction(a * d - c * b, b * d)
    if op == "*":
        return Fraction(a * c, b * d)
    if op == "/":
        if c == 0:
            raise ZeroDivisionError
        return Fraction(a * d, b * c)
    raise ValueError(f"unknown operator {op!r}")


def format_value(value: Fraction | int, unicode: bool = True) -> str:
    """Render an exact value the way steps are written (`8/3`, `−4`), so it reads back."""
    value = Fraction(value)
    sign = ("−" if unicode else "-") if value < 0 else ""
    magnitude = abs(value)
    if magnitude.denominator == 1:
        return f"{sign}{magnitude.numerator}"
    return f"{sign}{magnitude.numerator}/{magnitude.denominator}"


@dataclass(frozen=True)
class Pattern:
    """The last step of a tournament solution, e.g. `3 × 8` (R-PUZ-3)."""

    left: Fraction
    op: str  # "+", "-", "*" or "/"
    right: Fraction

    def __post_init__(self) -> None:
        if self.op not in DISPLAY_OPERATOR:
            raise ValueError(f"unknown operator {self.op!r}")
        if type(self.left) is not Fraction:
            object.__setattr__(self, "left", Fraction(self.left))
        if type(self.right) is not Fraction:
            object.__setattr__(self, "right", Fraction(self.right))

    @property
    def value(self) -> Fraction:
        """What the pattern makes; raises ZeroDivisionError for `a ÷ 0`."""
        return apply_operator(self.left, self.op, self.right)

    def same_as(self, other: Pattern) -> bool:
        """R-PUZ-3: same operator and operands; operand order is free for + and × only."""
        if self.op != other.op:
            return False
        if (self.left, self.right) == (other.left, other.right):
            return True
        return self.op in COMMUTATIVE and (self.left, self.right) == (other.right, other.left)

    def render(self, unicode: bool = True) -> str:
        """`3 × 8` (or `3 * 8` in ASCII); fractions as `n/d`."""
        symbols = DISPLAY_OPERATOR if unicode else ASCII_OPERATOR
        left, right = format_value(self.left, unicode), format_value(self.right, unicode)
        return f"{left} {symbols[self.op]} {right}"

    def __str__(self) -> str:
        return self.render()


@dataclass(frozen=True)
class Step:
    """One parsed step `left op right [= stated]`."""

    left: Fraction
    op: str
    right: Fraction
    stated: Fraction | None = None

    @property
    def pattern(self) -> Pattern:
        return Pattern(self.left, self.op, self.right)


# -- tokens ---------------------------------------------------------------------------------


class _Token(NamedTuple):
    kind: str  # "num", "op", "(", ")", "="
    text: str
    start: int
    end: int
    spaced: bool  # whitespace (or an end of the text) on both sides: how operators are written
    tight: bool  # no whitespace on either side: how fraction bars are written
    shape: str  # one letter: n number, - minus, / slash, o other operator, ( ) =


def check_length(text: str) -> None:
    """Refuse text over MAX_TEXT characters before any parsing: bounded work per answer."""
    if len(text) > MAX_TEXT:
        raise PuzzleSyntaxError(
            "too_long", f"the text has {len(text)} characters; at most {MAX_TEXT}"
        )


def tokenize(text: str) -> list[_Token]:
    """Split text into numbers, operators, brackets and '=', noting the spacing around each
    (spacing decides between readings of `8 / 1/3`); raises PuzzleSyntaxError."""
    check_length(text)
    raw = _TOKEN.findall(text)  # (leading space, number, operator, bracket or '=', other)
    tokens: list[_Token] = []
    position = 0
    last = len(raw) - 1
    for index, (space, number, operator, other, bad) in enumerate(raw):
        position += len(space)
        if bad:
            if bad in ".,":
                hint = "decimals are not allowed; write fractions as n/d, e.g. 8/3"
            else:
                hint = "use numbers, + − × ÷, brackets and '='"
            raise PuzzleSyntaxError(
                "syntax", f"unexpected {bad!r} at position {position + 1}: {hint}"
            )
        token = number or operator or other
        end = position + len(token)
        before = bool(space)
        after = bool(raw[index + 1][0]) if index < last else end < len(text)
        if number:
            kind, shape = "num", "n"
        elif operator:
            kind, shape = "op", _OPERATOR_SHAPE.get(operator, "o")
        else:
            kind = shape = other
        spaced = (before or position == 0) and (after or index == last)
        tokens.append(_Token(kind, token, position, end, spaced, not before and not after, shape))
        position = end
    return tokens


def _where(token: _Token) -> str:
    return f"{token.text!r} at position {token.start + 1}"


# -- free-form expressions -------------------------------------------------------------------


@dataclass(frozen=True)
class Node:
    """A free-form expression tree: a number, or `left op right`; start/end index the text so
    a message can quote the part at fault (the divisor that is zero)."""

    start: int
    end: int
    op: str = ""  # "" for a number
    number: int = 0
    left: Node | None = None
    right: Node | None = None


class FreeFormParser:
    """Recursive descent: expr := term (+|- term)*; term := factor (*|/ factor)*;
    factor := NUMBER | ( expr ). No unary minus: the card has no negative numbers."""

    def __init__(self, text: str, tokens: list[_Token]) -> None:
        self.text = text
        self.tokens = tokens
        self.index = 0
        self.depth = 0  # brackets open at the current token

    def parse(self) -> Node:
        if not self.tokens:
            raise PuzzleSyntaxError("syntax", "the expression is empty")
        node = self._expression()
        if self.index < len(self.tokens):
            token = self.tokens[self.index]
            if token.kind == "num":
                raise PuzzleSyntaxError(
                    "joined_digits" if self.tokens[self.index - 1].kind == "num" else "syntax",
                    f"missing operator before {_where(token)}; numbers may not be joined",
                )
            if token.kind == "(":
                raise PuzzleSyntaxError("syntax", f"missing operator before {_where(token)}")
            # an `=` never gets here: `without_stated_target` and `_split_stated` take it first
            raise PuzzleSyntaxError("syntax", f"unexpected {_where(token)}")
        return node

    def _peek(self) -> _Token | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def _binary(self, operand: Callable[[], Node], codes: str) -> Node:
        node = operand()
        while (token := self._peek()) is not None and token.kind == "op":
            code = OPERATORS[token.text]
            if code not in codes:
                break
            self.index += 1
            right = operand()
            node = Node(node.start, right.end, code, 0, node, right)
        return node

    def _expression(self) -> Node:
        return self._binary(self._term, "+-")

    def _term(self) -> Node:
        return self._binary(self._factor, "*/")

    def _factor(self) -> Node:
        token = self._peek()
        if token is None:
            raise PuzzleSyntaxError("syntax", "the expression ends too early: a number is missing")
        self.index += 1
        if token.kind == "num":
            return Node(token.start, token.end, number=int(token.text))
        if token.kind == "(":
            if self.depth == MAX_BRACKET_DEPTH:
                raise PuzzleSyntaxError(
                    "syntax",
                    f"brackets nested more than {MAX_BRACKET_DEPTH} deep at {_where(token)}",
                )
            self.depth += 1
            inner = self._expression()
            self.depth -= 1
            closing = self._peek()
            if closing is None or closing.kind != ")":
                raise PuzzleSyntaxError("syntax", f"the bracket {_where(token)} is never closed")
            self.index += 1
            return Node(token.start, closing.end, inner.op, inner.number, inner.left, inner.right)
        if token.kind == "op" and OPERATORS[token.text] == "-":
            raise PuzzleSyntaxError(
                "syntax",
                f"{_where(token)} has no number on its left; negative numbers are not allowed",
            )
        raise PuzzleSyntaxError("syntax", f"a number is expected at {_where(token)}")


def without_stated_target(text: str, tokens: list[_Token]) -> tuple[str, list[_Token]]:
    """A free-form answer may end with `= 24`, as people and other solvers write it
    (`(5 + 3 - 2) × 4 = 24`): returns the expression's text and tokens without it. Anything
    else after an `=` is `syntax` (an answer states no other result)."""
    equals = next((index for index, token in enumerate(tokens) if token.kind == "="), None)
    if equals is None:
        return text, tokens
    rest = tokens[equals + 1 :]
    if len(rest) != 1 or rest[0].kind != "num" or int(rest[0].text) != TARGET:
        raise PuzzleSyntaxError(
            "syntax",
            f"only '= 24' may follow the expression ({_where(tokens[equals])}), or nothing",
        )
    return text[: tokens[equals].start], tokens[:equals]


def numbers_of(node: Node) -> list[int]:
    """The numbers a free-form expression uses, left to right (checked against the card)."""
    if not node.op:
        return [node.number]
    assert node.left is not None and node.right is not None
    return numbers_of(node.left) + numbers_of(node.right)


# -- steps and patterns ----------------------------------------------------------------------


class _Reading(NamedTuple):
    """One way to read `operand op operand`: which token is the operator."""

    left: Fraction | None  # None: an operand is n/0
    op: str
    right: Fraction | None
    operator_index: int
    well_spaced: bool


def _operand(tokens: Sequence[_Token]) -> tuple[Fraction | None, bool] | None:
    """Read `[-] n [/ d]`; returns (value or None for d = 0, fraction bars tight) or None."""
    if len(tokens) == 1 and tokens[0].shape == "n":
        return Fraction(int(tokens[0].text)), True  # the usual operand: a whole number
    index, sign = 0, 1
    if tokens and tokens[0].shape == "-":
        index, sign = 1, -1
    rest = tokens[index:]
    if len(rest) == 1 and rest[0].kind == "num":
        return Fraction(sign * int(rest[0].text)), True
    if (
        len(rest) == 3
        and rest[0].kind == "num"
        and rest[1].text == "/"  # only a slash is a fraction bar; ÷ and : always divide
        and rest[2].kind == "num"
    ):
        denominator = int(rest[2].text)
        value = None if denominator == 0 else Fraction(sign * int(rest[0].text), denominator)
        return value, rest[1].tight
    return None


_OPERAND_SHAPE = re.compile(r"-?n(?:/n)?")  # over `_shape`: [-] n [/ d]


def _readings(tokens: Sequence[_Token]) -> list[_Reading]:
    shape = "".join([token.shape for token in tokens])
    readings = []
    for index in range(1, len(tokens) - 1):
        if shape[index] not in "-/o":
            continue
        # cheap test on the letters first: most candidate operators fail it
        if not (
            _OPERAND_SHAPE.fullmatch(shape, 0, index) and _OPERAND_SHAPE.fullmatch(shape, index + 1)
        ):
            continue
        left, right = _operand(tokens[:index]), _operand(tokens[index + 1 :])
        assert left is not None and right is not None
        token = tokens[index]
        well_spaced = token.spaced and left[1] and right[1]
        readings.append(_Reading(left[0], OPERATORS[token.text], right[0], index, well_spaced))
    return readings


def _choose(
    readings: list[_Reading], preferences: Sequence[Callable[[_Reading], bool]]
) -> _Reading:
    """Narrow the readings by each preference in turn (skipping one no reading meets), then
    take the leftmost operator."""
    for prefer in preferences:
        if len(readings) == 1:
            break
        kept = [reading for reading in readings if prefer(reading)]
        if kept:
            readings = kept
    return min(readings, key=lambda reading: reading.operator_index)


def _looks_run_on(tokens: Sequence[_Token]) -> bool:
    """More than one operation that still reads as a formula: `3 + 3 × 4 × 1`, `(3 + 3) × 4`."""
    try:
        tree = FreeFormParser("", list(tokens)).parse()
    except PuzzleSyntaxError:
        return False
    return len(numbers_of(tree)) >= 3


def _split_stated(
    shape: str, tokens: list[_Token], label: str
) -> tuple[list[_Token], list[_Token]]:
    equals = shape.find("=")
    if equals < 0:
        return tokens, []
    if shape.count("=") > 1:
        raise PuzzleSyntaxError(
            "run_on", f"{label} chains several '=': write one operation per step (R-PUZ-2)"
        )
    return tokens[:equals], tokens[equals + 1 :]


def parse_step(
    text: str,
    available: Callable[[Fraction, Fraction], bool] | None = None,
    *,
    label: str = "the step",
    prefer_value: Fraction | None = None,
) -> Step:
    """Read `a op b [= r]`, where a, b and r are integers or fractions `n/d` (optionally signed).

    Why readings are enumerated: `8 / 1/3` is either 8 ÷ (1/3) or (8/1) ÷ 3. Among the readings
    we prefer, in order: operands that are `available` (the step's context), a value equal to
    the stated result (or `prefer_value`), an operator with spaces on both sides and tight
    fraction bars, and finally the leftmost operator. Raises PuzzleSyntaxError.
    """
    check_length(text)
    said = text
    fast = _fast_step(said)  # the usual step, in symbols: no word table to read
    if fast is not None:
        return fast
    text = words_to_symbols(said)  # "8 divided by 3 equals 8/3" (`spoken.py`)
    fast = _fast_step(text)
    if fast is not None:
        return fast
    two = _two_slash_readings(text)
    if two is not None:
        return _choose_step(two[0], two[1], available, label, prefer_value)
    return _parse_step_tokens(said, tokenize(text), available, label, prefer_value)


# The common steps have exactly one reading, so nothing is to be chosen: `a op b [= r]` with a
# non-slash operator and tight fraction bars (`3 − 8/3 = 1/3`, `8 ÷ 1/3`), or a single slash
# between two whole numbers (`8/3`). These regular expressions read them without tokens; any
# other text (and any denominator 0, for its error message) goes to the general reader, and a
# property test checks that both readers agree.
_SIGNED = r"([-−–]?)(\d+)"
_VALUE = _SIGNED + r"(?:/(\d+))?"
_STATED = r"(?:\s*=\s*" + _VALUE + r")?\s*"
_FAST_STEP = re.compile(r"\s*" + _VALUE + r"\s*([-+−–*×xX·÷:])\s*" + _VALUE + _STATED)
_FAST_DIVISION = re.compile(r"\s*" + _SIGNED + r"()\s*(/)\s*" + _SIGNED + r"()" + _STATED)


def _fast_value(sign: str, number: str, denominator: str | None) -> Fraction:
    value = Fraction(int(number), int(denominator)) if denominator else Fraction(int(number))
    return -value if sign else value


def _fast_step(text: str) -> Step | None:
    match = _FAST_STEP.fullmatch(text) or _FAST_DIVISION.fullmatch(text)
    if match is None:
        return None
    sign_a, a, den_a, op, sign_b, b, den_b, sign_r, r, den_r = match.groups()
    if any(denominator and int(denominator) == 0 for denominator in (den_a, den_b, den_r)):
        return None  # the general reader names the division by zero
    stated = _fast_value(sign_r, r, den_r) if r is not None else None
    return Step(_fast_value(sign_a, a, den_a), OPERATORS[op], _fast_value(sign_b, b, den_b), stated)


# `a / b/c` and `a/b / c`, the ambiguous steps people actually write (`8 / 1/3`): always two
# readings, the first or the second slash as the operator. Read without tokens, then chosen
# as the general reader chooses; a property test checks that both readers agree.
_TWO_SLASHES = re.compile(r"\s*([-−–]?)(\d+)(\s*)/(\s*)(\d+)(\s*)/(\s*)(\d+)" + _STATED)


def _two_slash_readings(text: str) -> tuple[list[_Reading], Fraction | None] | None:
    match = _TWO_SLASHES.fullmatch(text)
    if match is None:
        return None
    sign, a, s1, s2, b, s3, s4, c, sign_r, r, den_r = match.groups()
    if den_r is not None and int(den_r) == 0:
        return None  # the general reader names the division by zero
    first = -int(a) if sign else int(a)
    b_value, c_value = int(b), int(c)
    as_fraction_bc = Fraction(b_value, c_value) if c_value else None
    as_fraction_ab = Fraction(first, b_value) if b_value else None
    offset = 1 if sign else 0  # a sign is a token of its own
    # Well spaced (as in the general reader): the operator has spaces on both sides and the
    # other slash, the fraction bar, has none.
    first_spaced = bool(s1 and s2 and not (s3 or s4))
    second_spaced = bool(s3 and s4 and not (s1 or s2))
    readings = [
        _Reading(Fraction(first), "/", as_fraction_bc, 1 + offset, first_spaced),  # a ÷ (b/c)
        _Reading(as_fraction_ab, "/", Fraction(c_value), 3 + offset, second_spaced),  # (a/b) ÷ c
    ]
    stated = _fast_value(sign_r, r, den_r) if r is not None else None
    return readings, stated


def _parse_step_tokens(
    text: str,
    tokens: list[_Token],
    available: Callable[[Fraction, Fraction], bool] | None,
    label: str,
    prefer_value: Fraction | None,
) -> Step:
    if not tokens:
        raise PuzzleSyntaxError("syntax", f"{label} is empty")
    shape = "".join([token.shape for token in tokens])
    body, stated_tokens = _split_stated(shape, tokens, label)
    body_shape = shape[: len(body)]
    if "(" in body_shape or ")" in body_shape:
        bracketed = _bracketed_readings(body)
        if bracketed:
            return _choose_step(
                bracketed,
                _stated_value(stated_tokens, tokens, body, label),
                available,
                label,
                prefer_value,
            )
        if _looks_run_on(body):
            raise PuzzleSyntaxError(
                "run_on", f"{label} '{text.strip()}' has more than one operation (R-PUZ-2)"
            )
        raise PuzzleSyntaxError(
            "syntax", f"{label} has brackets; only a fraction is bracketed, e.g. 8 ÷ (1/3)"
        )
    readings = _readings(body)
    if not readings:
        if _looks_run_on(body):
            raise PuzzleSyntaxError(
                "run_on", f"{label} '{text.strip()}' has more than one operation (R-PUZ-2)"
            )
        raise PuzzleSyntaxError(
            "syntax", f"{label} '{text.strip()}' is not of the form 'a op b' (e.g. 8 ÷ 3 = 8/3)"
        )
    stated = _stated_value(stated_tokens, tokens, body, label)
    return _choose_step(readings, stated, available, label, prefer_value)


def _stated_value(
    stated_tokens: list[_Token], tokens: list[_Token], body: list[_Token], label: str
) -> Fraction | None:
    """The result stated after '=' (None when there is no '=')."""
    if not stated_tokens and len(tokens) == len(body):
        return None
    result = _operand(_unbracketed_fraction(stated_tokens))
    if result is None:
        if _readings(stated_tokens) or _looks_run_on(stated_tokens):
            raise PuzzleSyntaxError(
                "run_on", f"{label} continues after '=': one operation per step (R-PUZ-2)"
            )
        raise PuzzleSyntaxError("syntax", f"{label} needs a number after '='")
    if result[0] is None:
        raise PuzzleSyntaxError("division_by_zero", f"{label} states a result over 0")
    return result[0]


def _unbracketed_fraction(tokens: list[_Token]) -> list[_Token]:
    """A stated result in brackets is one value when it is a fraction (R-PUZ-2, as for an
    operand): `3 − 8/3 = (1/3)` states 1/3. Anything else is returned as it is (`(8)` stays
    unreadable, as around an operand)."""
    if tokens and tokens[0].kind == "(" and tokens[-1].kind == ")":
        inner = tokens[1:-1]
        if any(token.text == "/" for token in inner):
            return inner
    return tokens


def _bracketed_readings(tokens: Sequence[_Token]) -> list[_Reading]:
    """R-PUZ-2: a bracketed fraction is one value: `8 ÷ (1/3)`, `(1/3) × 72` read as `a op b`.
    Empty when the brackets hold anything but one fraction (`8 ÷ (3 − 1)` has two operations:
    run-on; `(8) × 3` is syntax, as before) or there is no operator between two values."""
    items: list[_Token | Fraction | None] = []  # a bracketed value is read at once
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.kind == ")":
            return []
        if token.kind != "(":
            items.append(token)
            index += 1
            continue
        close = next((j for j in range(index + 1, len(tokens)) if tokens[j].kind in "()"), None)
        if close is None or tokens[close].kind != ")":
            return []
        inside = tokens[index + 1 : close]
        inner = _operand(inside)
        if inner is None or not any(token.text == "/" for token in inside):
            return []  # only a fraction is bracketed as one value: `(8)` stays syntax
        items.append(inner[0])
        index = close + 1

    def side_value(side: list[_Token | Fraction | None]) -> tuple[bool, Fraction | None]:
        if len(side) == 1 and not isinstance(side[0], _Token):
            return True, side[0]
        if not side or not all(isinstance(item, _Token) for item in side):
            return False, None
        read = _operand([item for item in side if isinstance(item, _Token)])
        return (read is not None), (read[0] if read is not None else None)

    readings = []
    for position, item in enumerate(items):
        if not isinstance(item, _Token) or item.shape not in "-/o" or item.kind != "op":
            continue
        left_ok, left = side_value(items[:position])
        right_ok, right = side_value(items[position + 1 :])
        if left_ok and right_ok:
            readings.append(_Reading(left, OPERATORS[item.text], right, position, True))
    return readings


def _choose_step(
    readings: list[_Reading],
    stated: Fraction | None,
    available: Callable[[Fraction, Fraction], bool] | None,
    label: str,
    prefer_value: Fraction | None,
) -> Step:
    """The step among `readings` that `parse_step`'s preferences pick (see its docstring)."""
    if len(readings) == 1 and (only := readings[0]).left is not None and only.right is not None:
        return Step(only.left, only.op, only.right, stated)  # the usual case: nothing to choose
    wanted = stated if stated is not None else prefer_value

    def operands_available(reading: _Reading) -> bool:
        if available is None or reading.left is None or reading.right is None:
            return False
        return available(reading.left, reading.right)

    def makes_wanted(reading: _Reading) -> bool:
        if wanted is None or reading.left is None or reading.right is None:
            return False
        try:
            return apply_operator(reading.left, reading.op, reading.right) == wanted
        except ZeroDivisionError:
            return False

    chosen = _choose(
        readings,
        [
            lambda reading: reading.left is not None and reading.right is not None,
            operands_available,
            makes_wanted,
            lambda reading: reading.well_spaced,
        ],
    )
    if chosen.left is None or chosen.right is None:
        raise PuzzleSyntaxError("division_by_zero", f"{label} has a fraction over 0")
    return Step(chosen.left, chosen.op, chosen.right, stated)


def parse_pattern(text: str) -> Pattern:
    """Read a declared pattern `a op b` (R-PUZ-3), like one step without '='.

    Ambiguous slashes are resolved as in `parse_step`, preferring a reading that makes 24.
    Raises PuzzleSyntaxError (reason "syntax", "too_long", "run_on" or "division_by_zero").
    """
    check_length(text)
    said, text = text, words_to_symbols(text)  # "3 times 8", "15 plus 9" (`spoken.py`)
    if "=" in text:
        raise PuzzleSyntaxError("syntax", "a pattern is 'a op b' without '=' (e.g. 3 × 8)")
    step = _fast_step(text)
    if step is None:
        two = _two_slash_readings(text)
        if two is not None:
            step = _choose_step(two[0], two[1], None, "the pattern", TARGET)
        else:
            step = _parse_step_tokens(said, tokenize(text), None, "the pattern", TARGET)
    return step.pattern
