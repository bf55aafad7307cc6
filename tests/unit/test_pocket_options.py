"""The pocket table's options at their edges (issue 20): every refusal exactly (code and
message, which names the option) and both sides of every limit (R-POCKET-1)."""

from __future__ import annotations

from typing import Any

import pytest
from casual_tables import pocket_options, pocket_stack

from server.games import pocket
from server.games.base import RuleViolation
from server.games.pocket.options import MAX_NAME, MAX_NUMBER, MAX_SECONDS, MAX_STACK


def card(card_id: str = "a", numbers: Any = (1, 2, 3, 4), dots: Any = 1) -> dict[str, Any]:
    return {"card_id": card_id, "numbers": list(numbers), "dots": dots}


def stack_of(count: int) -> list[dict[str, Any]]:
    return [card(f"k{i}") for i in range(count)]


REFUSED = [
    ({"colour": "red"}, "colour", "unknown option"),
    ({"edition": "roman"}, "edition", "one of single-digits, double-digits"),
    ({"seed": -1}, "seed", "a whole number >= 0"),
    ({"seed": 2**63}, "seed", "a whole number >= 0"),
    ({"size": 0}, "size", f"a whole number 1..{MAX_STACK} (R-POCKET-1)"),
    ({"size": MAX_STACK + 1}, "size", f"a whole number 1..{MAX_STACK} (R-POCKET-1)"),
    ({"dots": []}, "dots", "a non-empty list of dot values 1, 2, 3"),
    ({"dots": [4]}, "dots", "a non-empty list of dot values 1, 2, 3"),
    ({"answer_seconds": 0}, "answer_seconds", f"seconds in (0, {MAX_SECONDS}], not 0"),
    (
        {"answer_seconds": MAX_SECONDS + 1},
        "answer_seconds",
        f"seconds in (0, {MAX_SECONDS}], not {MAX_SECONDS + 1}",
    ),
    ({"answer_seconds": True}, "answer_seconds", f"seconds in (0, {MAX_SECONDS}], not True"),
    ({"stack": []}, "stack", f"a list of 1..{MAX_STACK} cards"),
    ({"stack": stack_of(MAX_STACK + 1)}, "stack", f"a list of 1..{MAX_STACK} cards"),
    ({"stack": [card(), card()]}, "stack", "card ids must be distinct"),
    ({"stack": ["a"]}, "stack", "each card is a map, not 'a'"),
    ({"stack": [card("")]}, "stack", f"a card_id is a string of 1..{MAX_NAME} characters"),
    (
        {"stack": [card("c" * (MAX_NAME + 1))]},
        "stack",
        f"a card_id is a string of 1..{MAX_NAME} characters",
    ),
    (
        {"stack": [card(numbers=(1, 2, 3))]},
        "stack",
        f"card 'a': four whole numbers 0..{MAX_NUMBER}",
    ),
    (
        {"stack": [card(numbers=(1, 2, 3, MAX_NUMBER + 1))]},
        "stack",
        f"card 'a': four whole numbers 0..{MAX_NUMBER}",
    ),
    (
        {"stack": [card(numbers=(1, 2, 3, -1))]},
        "stack",
        f"card 'a': four whole numbers 0..{MAX_NUMBER}",
    ),
    (
        {"stack": [card(numbers=(1, 2, 3, 4.0))]},
        "stack",
        f"card 'a': four whole numbers 0..{MAX_NUMBER}",
    ),
    ({"stack": [card(dots=4)]}, "stack", "card 'a': dots are 1, 2 or 3"),
    ({"stack": [card(dots=True)]}, "stack", "card 'a': dots are 1, 2 or 3"),
]


@pytest.mark.parametrize(("change", "name", "why"), REFUSED, ids=[r[1] for r in REFUSED])
def test_every_bad_option_is_refused_naming_it(change, name, why):
    with pytest.raises(RuleViolation) as caught:
        pocket.initial_state({**pocket_options(3), "stack": pocket_stack(), **change})
    assert caught.value.as_dict() == {
        "code": "invalid_options",
        "rule": "",
        "message": f"option {name!r}: {why}",
    }


@pytest.mark.parametrize(
    "change",
    [
        {"seed": 0},
        {"seed": 2**63 - 1},
        {"size": 1},
        {"size": MAX_STACK},
        {"dots": [3, 1, 3]},
        {"answer_seconds": MAX_SECONDS},
        {"answer_seconds": 0.5},
        {"stack": stack_of(1)},
        {"stack": stack_of(MAX_STACK)},
        {"stack": [card("c"), card("c" * MAX_NAME)]},
        {"stack": [card(numbers=(0, 0, 0, MAX_NUMBER))]},
        {"stack": [card(dots=3)]},
    ],
)
def test_every_limit_is_accepted_on_its_edge(change):
    state = pocket.initial_state({**pocket_options(3), **change})
    options = state.options
    if "dots" in change:
        assert options.dots == (1, 3)
    if "stack" in change:
        assert [c.card_id for c in options.stack] == [c["card_id"] for c in change["stack"]]
    if "answer_seconds" in change:
        assert options.answer_us == round(change["answer_seconds"] * 1_000_000)
