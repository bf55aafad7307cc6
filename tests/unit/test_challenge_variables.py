"""A Variables card at a 24 Challenge table (R-DECK-2; shared/rules/24-challenge.md Q1, our
reading): its wheels are shown and hidden like a card's numbers (R-PLAY-1), the toucher says
the first wheel's last step as the pattern (R-PLAY-4, R-PUZ-3), then names x and fixes six
steps (R-PLAY-5, R-PUZ-2); right wins the dots (R-PLAY-6), wrong is a flag (R-FLAG-1).
`server.games.challenge.variables_play`."""

from __future__ import annotations

from typing import Any

import pytest
from challenge_tables import PROCTOR, SPECTATOR, Table, deck_data, player, seats_data, types

from server.games import challenge
from server.games.base import RuleViolation, replay
from server.games.challenge.options import check_new_table, table_options

WHEELS = [[6, 6, 2], [20, 22, 24]]  # the published example: x = 2 (1, 3, 6 and 8 work too)
VARIABLES_CARD = {"card_id": "v1", "wheels": WHEELS, "dots": 2}
PATTERN = "12 + 12"
STEPS = ["6 * 2 = 12", "6 * 2 = 12", "12 + 12 = 24", "24 - 22 = 2", "2 + 2 = 4", "20 + 4 = 24"]


def variables_options(**more: Any) -> dict[str, Any]:
    return {"seats": seats_data(), "deck": [VARIABLES_CARD, *deck_data(["c1"])], **more}


def revealed() -> Table:
    table = Table(variables_options())
    table.do("start_round", PROCTOR)
    assert table.next_card() == "v1"
    return table


def with_pattern() -> Table:
    table = revealed()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern=PATTERN)
    return table


def test_given_a_variables_card_when_placed_and_revealed_then_its_wheels_show_R_PLAY_1():
    table = Table(variables_options())
    table.do("start_round", PROCTOR)
    (placed,) = table.do("place_card")
    assert placed.data["wheels"] == WHEELS
    assert placed.data["numbers"] == [6, 6, 2, 20, 22, 24]
    hidden = challenge.event_view(placed, SPECTATOR).data
    assert not {"card_id", "numbers", "wheels", "dots"} & set(hidden)
    assert challenge.view(table.state, player("s1"))["card"]["wheels"] is None
    assert challenge.view(table.state, PROCTOR)["card"]["wheels"] == WHEELS
    (shown,) = table.do("reveal_card")
    assert shown.data["wheels"] == WHEELS and shown.data["dots"] == 2
    assert challenge.event_view(shown, SPECTATOR) == shown
    assert challenge.view(table.state, SPECTATOR)["card"]["wheels"] == WHEELS


def test_given_the_pattern_when_x_and_six_steps_are_fixed_then_the_card_is_won_Q1_R_PLAY_6():
    table = with_pattern()
    stated = table.do("state_steps", player("s1"), steps=STEPS[:3], x=3)
    assert stated[0].data["x"] == 3 and stated[0].data["steps"] == STEPS[:3]
    again = table.do("state_steps", player("s1"), steps=STEPS)  # x stays as stated
    assert again[0].data["x"] == 3
    events = table.do("fix_solution", player("s1"), x=2)  # a fix may name x itself
    assert types(events)[:3] == ["SolutionFixed", "SolutionJudged", "CardWon"]
    assert events[0].data["x"] == 2 and events[0].data["steps"] == STEPS
    assert events[1].data["ok"] is True
    assert events[2].data["dots"] == 2
    assert table.state.seat("s1").score == 2
    assert replay(challenge, variables_options(), table.events) == table.state


def test_given_a_wrong_x_when_fixed_then_a_flag_naming_the_wheel_R_FLAG_1():
    table = with_pattern()
    events = table.do("fix_solution", player("s1"), steps=STEPS, x=3)
    judged = next(event for event in events if event.type == "SolutionJudged")
    assert judged.data["ok"] is False and judged.data["reason"] == "value_not_available"
    assert judged.data["message"].startswith("wheel 6 6 2 with x = 3: step 2:")
    assert "FlagIssued" in types(events) and "CardReturnedToDeck" in types(events)


def test_given_a_four_number_card_then_its_events_have_no_x_or_wheels():
    table = Table.started(cards=["c1", "c2"])
    placed = table.do("place_card")[0]
    assert "wheels" not in placed.data
    table.do("reveal_card")
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="3 × 8")
    stated = table.do("state_steps", player("s1"), steps=["1 + 1 = 2"])
    assert "x" not in stated[0].data
    assert "wheels" not in challenge.view(table.state, PROCTOR)["card"]


@pytest.mark.parametrize(
    "given, name, args, code, message",
    [
        (with_pattern, "fix_solution", {"steps": STEPS}, "no_x", "name x (1..9)"),
        (with_pattern, "state_steps", {"steps": STEPS, "x": 10}, "bad_args", "1..9"),
        (with_pattern, "state_steps", {"steps": STEPS, "x": True}, "bad_args", "1..9"),
        (
            with_pattern,
            "state_steps",
            {"steps": [*STEPS, "1 + 1"]},
            "bad_args",
            "'steps' is a list of 1..6 texts",
        ),
    ],
)
def test_a_variables_answer_without_x_or_with_a_bad_one_is_refused(
    given, name, args, code, message
):
    refused = given().refused(name, player("s1"), **args)
    assert refused.code == code and message in refused.message


def test_an_x_on_a_four_number_card_is_refused():
    table = Table.started(cards=["c1"])
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="3 × 8")
    refused = table.refused("state_steps", player("s1"), steps=["1 + 1 = 2"], x=2)
    assert refused.as_dict() == {
        "code": "bad_args",
        "rule": "",
        "message": "state_steps: 'x' names a Variables card's x (R-DECK-2)",
    }


def test_a_variables_deck_entry_reads_back_and_a_bad_one_is_refused_R_DECK_2():
    read = table_options(variables_options())
    card = read.card("v1")
    assert card.wheels == ((6, 6, 2), (20, 22, 24)) and card.numbers == (6, 6, 2, 20, 22, 24)
    assert card.as_data() == VARIABLES_CARD
    for bad in (
        {"card_id": "v2", "wheels": [[6, 6], [20, 22, 24]], "dots": 2},
        {"card_id": "v2", "wheels": [[6, 6, 2]], "dots": 2},
        {"card_id": "v2", "wheels": [[6, 6, 2], [20, 22, 100]], "dots": 2},
        {"card_id": "v2", "wheels": WHEELS, "numbers": [1, 2, 3, 4], "dots": 2},
    ):
        with pytest.raises(RuleViolation) as refused:
            table_options({"seats": seats_data(), "deck": [bad]})
        assert refused.value.code == "bad_options"
        assert "'wheels' is two lists of three whole numbers 0..99" in refused.value.message


def test_a_new_table_refuses_a_variables_card_no_x_solves_R_PUZ_4():
    unsolvable = {"card_id": "v9", "wheels": [[1, 1, 1], [9, 9, 9]], "dots": 1}
    with pytest.raises(RuleViolation) as refused:
        check_new_table({"seats": seats_data(), "deck": [unsolvable]})
    assert refused.value.rule == "R-PUZ-4"
    assert "card 'v9' (1 1 1 9 9 9) has no solution" in refused.value.message
    check_new_table(variables_options())  # the published example has one
