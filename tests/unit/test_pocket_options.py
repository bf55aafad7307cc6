"""The pocket table's options at their edges (issue 20): every refusal exactly (code and
message, which names the option) and both sides of every limit (R-POCKET-1)."""

from __future__ import annotations

from typing import Any

import pytest
from casual_tables import pocket_options, pocket_stack

from server.games import pocket
from server.games.base import RuleViolation, SeatInfo
from server.games.pocket.options import (
    MAX_NAME,
    MAX_NUMBER,
    MAX_SEATS,
    MAX_SECONDS,
    MAX_STACK,
    MIN_SEATS,
    PocketCard,
    PocketOptions,
    stack_from_edition,
    table_options,
    the_stack,
)
from server.puzzles.editions import tournament_deck


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
    # issue 18: None once reached an `assert` (AssertionError: `internal` on create_table)
    ({"answer_seconds": None}, "answer_seconds", f"seconds in (0, {MAX_SECONDS}], not None"),
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
        "rule": "R-POCKET-1",
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


SEATS_WHY = {
    "count": f"a list of {MIN_SEATS}..{MAX_SEATS} seats",
    "id": f"a seat id is a string of 1..{MAX_NAME} characters",
    "name": f"a name is a string of at most {MAX_NAME} characters",
}


@pytest.mark.parametrize(
    ("seats", "why"),
    [
        ("s1", SEATS_WHY["count"]),
        ([], SEATS_WHY["count"]),
        ([{"seat": f"s{i}"} for i in range(MAX_SEATS + 1)], SEATS_WHY["count"]),
        (["s1"], "each seat is a map with 'seat' and 'name', not 's1'"),
        ([{"name": "Ada"}], SEATS_WHY["id"]),
        ([{"seat": ""}], SEATS_WHY["id"]),
        ([{"seat": "s" * (MAX_NAME + 1)}], SEATS_WHY["id"]),
        ([{"seat": 1}], SEATS_WHY["id"]),
        ([{"seat": "s1", "name": "n" * (MAX_NAME + 1)}], SEATS_WHY["name"]),
        ([{"seat": "s1", "name": None}], SEATS_WHY["name"]),
        ([{"seat": "s1"}, {"seat": "s1", "name": "again"}], "seat ids must be distinct"),
    ],
)
def test_every_bad_seat_list_is_refused_exactly(seats, why):
    with pytest.raises(RuleViolation) as caught:
        pocket.initial_state({"seats": seats, "stack": pocket_stack()})
    assert caught.value.as_dict() == {
        "code": "invalid_options",
        "rule": "R-POCKET-1",
        "message": f"option 'seats': {why}",
    }


def test_the_seat_limits_are_accepted_on_their_edges():
    """R-POCKET-1: one player (practice) to MAX_SEATS; ids 1..MAX_NAME characters; a name of
    at most MAX_NAME characters, empty when left out."""
    eight = [{"seat": f"s{i}", "name": "n" * MAX_NAME} for i in range(MAX_SEATS)]
    assert len(pocket.initial_state({"seats": eight}).seats) == MAX_SEATS
    (only,) = pocket.initial_state({"seats": [{"seat": "s" * MAX_NAME}]}).options.seats
    assert only == SeatInfo("s" * MAX_NAME, "")
    (short,) = pocket.initial_state({"seats": ({"seat": "a", "name": ""},)}).options.seats
    assert short.as_data() == {"seat": "a", "name": ""}


def test_options_that_are_not_a_map_are_refused():
    with pytest.raises(RuleViolation) as caught:
        table_options([("seats", [])])  # type: ignore[arg-type]
    assert caught.value.as_dict() == {
        "code": "invalid_options",
        "rule": "R-POCKET-1",
        "message": "options are a map",
    }


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(0, "0"), (-1, "-1"), (MAX_SECONDS + 0.5, f"{MAX_SECONDS + 0.5}"), ("60", "'60'")],
)
def test_the_stumped_timeout_is_refused_outside_its_limits(seconds, shown):
    with pytest.raises(RuleViolation) as caught:
        pocket.initial_state({**pocket_options(2), "stumped_seconds": seconds})
    assert caught.value.as_dict() == {
        "code": "invalid_options",
        "rule": "R-POCKET-1",
        "message": f"option 'stumped_seconds': seconds in (0, {MAX_SECONDS}], not {shown}",
    }


def test_a_nan_duration_is_refused():
    with pytest.raises(RuleViolation) as caught:
        pocket.initial_state({**pocket_options(2), "answer_seconds": float("nan")})
    assert (
        caught.value.message == f"option 'answer_seconds': seconds in (0, {MAX_SECONDS}], not nan"
    )


def test_the_defaults_read_whole_and_the_public_options():
    """Seats only: a stack of 24 sides drawn from the single-digits edition with seed 0, every
    dot value, 15 s to answer, no stumped timeout (R-POCKET-1, R-POCKET-3, R-POCKET-4)."""
    read = table_options({"seats": [{"seat": "s1", "name": "Ada"}]})
    assert read == PocketOptions(
        seats=(SeatInfo("s1", "Ada"),),
        stack=None,
        edition="single-digits",
        seed=0,
        size=24,
        dots=(1, 2, 3),
        answer_us=15_000_000,
        stumped_us=None,
    )
    assert read.seat_ids == ("s1",)
    assert table_options(dict(pocket.DEFAULT_OPTIONS)) == table_options(
        {"seats": pocket.DEFAULT_OPTIONS["seats"]}
    )
    timed = table_options(
        {"seats": [{"seat": "s1"}], "stumped_seconds": 0.25, "answer_seconds": 2, "seed": 5}
    )
    assert (timed.answer_us, timed.stumped_us) == (2_000_000, 250_000)
    assert timed.public_data() == {
        "seats": [{"seat": "s1", "name": ""}],
        "edition": "single-digits",
        "size": 24,
        "dots": [1, 2, 3],
        "answer_seconds": 2.0,
        "stumped_seconds": 0.25,
    }


def test_the_stack_is_the_given_one_or_drawn_from_the_edition():
    """R-POCKET-1: red sides (in the edition's order) before white ones, only the dot values
    asked for, cut at `size`; a given stack is used as given."""
    given = table_options({"seats": [{"seat": "s1"}], "stack": [card("x"), card("y", dots=2)]})
    assert the_stack(given) == (PocketCard("x", (1, 2, 3, 4), 1), PocketCard("y", (1, 2, 3, 4), 2))
    drawn = table_options(
        {"seats": [{"seat": "s1"}], "edition": "double-digits", "seed": 3, "size": 5, "dots": [2]}
    )
    cards = tournament_deck("double-digits", 3)
    reds = [card for card in cards if card.red.dots == 2]
    assert the_stack(drawn) == tuple(
        PocketCard(f"{card.card_id}r", card.red.numbers, 2) for card in reds[:5]
    )
    whole = stack_from_edition("single-digits", 3, MAX_STACK, [1, 2, 3])
    assert [card.card_id for card in whole] == [f"{c.card_id}r" for c in cards_of(3)] + [
        f"{c.card_id}w" for c in cards_of(3)
    ]
    assert [card.numbers for card in whole[48:]] == [c.white.numbers for c in cards_of(3)]


def cards_of(seed: int) -> tuple:
    return tournament_deck("single-digits", seed)
