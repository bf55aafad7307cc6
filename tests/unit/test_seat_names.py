"""What people call the seats (protocol/words/seat_names.py): a name, never a seat id.

Where two players share a name the first keeps it and each later one reads `Ada (2)`; a seat
with no name reads as its place, `Player 1`, in each language's words; no label ever equals
another seat's. The terminal's casual screens and events follow it (the web pages follow the
same rule: tests/e2e/test_web_languages.py runs js/words.js `seatNames` on these tables).
"""

from __future__ import annotations

import re

import pytest

from clients.reference_cli.games import part_for
from clients.reference_cli.words import set_language
from protocol.words import catalogue
from protocol.words.seat_names import seat_names

SEAT_ID = re.compile(r"\bs\d+\b")

# (seats as a view lists them, what people read): shared by the web test (the same answers)
TABLES: list[tuple[list[dict[str, str]], dict[str, str]]] = [
    ([{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}], {"s1": "Ada", "s2": "Bo"}),
    (
        [
            {"seat": "s1", "name": "Ada"},
            {"seat": "s2", "name": "Bo"},
            {"seat": "s3", "name": "Ada"},
        ],
        {"s1": "Ada", "s2": "Bo", "s3": "Ada (2)"},
    ),
    (
        [
            {"seat": "s1", "name": "Ada"},
            {"seat": "s2", "name": " ada "},
            {"seat": "s3", "name": "ADA"},
        ],
        {"s1": "Ada", "s2": "ada (2)", "s3": "ADA (3)"},
    ),
    (
        [{"seat": "s1", "name": ""}, {"seat": "s2", "name": "Bo"}, {"seat": "s3", "name": ""}],
        {"s1": "Player 1", "s2": "Bo", "s3": "Player 3"},
    ),
    (  # a real "Ada (2)" keeps her name: the second Ada counts on to 3
        [
            {"seat": "s1", "name": "Ada"},
            {"seat": "s2", "name": "Ada (2)"},
            {"seat": "s3", "name": "Ada"},
        ],
        {"s1": "Ada", "s2": "Ada (2)", "s3": "Ada (3)"},
    ),
    (  # a player named "Player 2" keeps the name; the unnamed seat 2 moves on
        [{"seat": "t01", "name": "Player 2"}, {"seat": "t02", "name": ""}],
        {"t01": "Player 2", "t02": "Player 3"},
    ),
]


@pytest.mark.parametrize(("seats", "expected"), TABLES)
def test_a_seat_reads_as_its_name_and_a_shared_name_with_its_count(seats, expected):
    named = seat_names(seats, catalogue("en"))
    assert named == expected
    assert len(set(named.values())) == len(named)  # nobody reads as somebody else
    assert not any(SEAT_ID.search(label) or "t01" in label for label in named.values())


def test_the_first_holder_of_a_name_keeps_it_when_another_sits_down():
    before = seat_names([{"seat": "s1", "name": "Ada"}], catalogue("en"))
    after = seat_names(
        [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Ada"}], catalogue("en")
    )
    assert before["s1"] == after["s1"] == "Ada" and after["s2"] == "Ada (2)"


@pytest.mark.parametrize(
    ("lang", "player"), [("en", "Player"), ("nb", "Spiller"), ("sv", "Spelare")]
)
def test_a_seat_without_a_name_is_a_player_in_each_language(lang, player):
    seats = [
        {"seat": "s1", "name": "Ada"},
        {"seat": "s2", "name": ""},
        {"seat": "s3", "name": "Ada"},
    ]
    assert seat_names(seats, catalogue(lang)) == {"s1": "Ada", "s2": f"{player} 2", "s3": "Ada (2)"}


TWO_ADAS = [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Ada"}]


@pytest.fixture
def english():
    set_language("en")
    yield
    set_language("en")


def test_two_adas_at_a_pocket_table_in_the_terminal(english):
    """The terminal's pocket screen and events tell the two Adas apart, with no seat id."""
    part = part_for("pocket")
    view = {
        "phase": "ended",
        "seats": [{**seat, "score": 0, "cards_won": []} for seat in TWO_ADAS],
        "scores": {"s1": 3, "s2": 5},
        "result": {"winners": ["s2"], "tie": False, "reason": "stack_used_up"},
        "you": "s2",
    }
    names = part.seat_names(view)
    assert names == {"s1": "Ada", "s2": "Ada (2)"}
    assert part.seat_label(view, "s2") == "Ada (2)"
    won = part.describe_event("CardWon", {"seat": "s2", "number": 1, "points": 2}, names)
    assert won.startswith("Ada (2) wins card 1"), won
    created = part.describe_event("TableCreated", {"options": {"seats": TWO_ADAS}}, names)
    assert "Ada and Ada (2)" in created, created
    screen = "\n".join(part.side(view, "s2", None, None) + part.results(view, None))
    assert "Ada 3 · Ada (2) 5" in screen and "Ada (2)" in screen.splitlines()[-1]
    assert not SEAT_ID.search(screen), screen


def test_two_adas_at_a_deck40_table_in_the_terminal(english):
    part = part_for("deck40")
    seats = [{**seat, "score": 0, "pile": 20, "won": []} for seat in TWO_ADAS]
    view = {"phase": "playing", "set": 1, "seats": seats, "no_solution": ["s2"], "excluded": []}
    table = [
        {"card": "AH", "rank": 1, "suit": "hearts", "seat": "s1"},
        {"card": "7C", "rank": 7, "suit": "clubs", "seat": "s2"},
    ]
    view["table"] = table
    text = part.describe_event("CardsTurnedUp", {"cards": table, "set": 1}, part.seat_names(view))
    assert "(Ada)" in text and "(Ada (2))" in text and not SEAT_ID.search(text), text
    screen = "\n".join(part.board(view, None, "player") + part.side(view, "s1", None, None))
    assert "Ada (2)" in screen and not SEAT_ID.search(screen), screen
