"""Every argument limit and window edge of the 24 Challenge table, on both sides of the edge:
fingertips 1..10, texts of 1..200 characters (and a cause of 1..64), 1..3 steps, blank steps,
the 3 s and 15 s answer windows (R-PLAY-4/5) and a deadline firing exactly at its moment.

Why both sides: a limit moved by one (`<` for `<=`) is invisible to tests that stay well inside
or well outside it (issue 20).
"""

from __future__ import annotations

import pytest
from challenge_tables import PROCTOR, S, Table, player, types

from server.games.base import DEADLINE_EARLY_US, SERVER_ACTOR
from server.games.challenge import MAX_FINGERTIPS
from server.games.challenge.refusals import MAX_STEPS
from server.puzzles.expressions import MAX_TEXT


def revealed() -> Table:
    table = Table.started()
    table.next_card()  # c1: 1 1 1 8
    return table


def with_pattern() -> Table:
    table = revealed()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="3 × 8")
    return table


# -- fingertips (R-PLAY-3): 1..10 are recorded; four draw a flag, five or more are a slap ------


@pytest.mark.parametrize(
    "fingertips, flagged, slapped",
    [(1, False, False), (3, False, False), (4, True, False), (5, False, True), (10, False, True)],
)
def test_fingertips_from_one_to_ten_are_recorded(fingertips, flagged, slapped):
    table = revealed()
    events = table.do("touch_card", player("s1"), fingertips=fingertips)
    assert events[0].data["fingertips"] == fingertips
    assert ("FlagIssued" in types(events)) is flagged
    assert ("PlayerDisqualified" in types(events)) is slapped  # R-PLAY-3: a slap
    assert MAX_FINGERTIPS == 10


@pytest.mark.parametrize("fingertips", [0, 11, -1, True, 2.0, "2", None])
def test_fingertips_outside_one_to_ten_are_bad_args(fingertips):
    table = revealed()
    assert table.refused("touch_card", player("s1"), fingertips=fingertips).code == "bad_args"


# -- texts: a pattern of 1..MAX_TEXT characters, steps of 1..MAX_TEXT, at most three -----------


def test_a_pattern_of_exactly_the_maximum_length_is_read():
    table = revealed()
    table.do("touch_card", player("s1"))
    text = "3" + " " * (MAX_TEXT - 4) + "× 8"
    assert len(text) == MAX_TEXT == 200
    (declared,) = table.do("declare_pattern", player("s1"), pattern=text)
    assert declared.data["pattern"] == text and declared.data["canonical"] == "3 × 8"


def test_a_pattern_one_character_over_the_maximum_is_bad_args():
    table = revealed()
    table.do("touch_card", player("s1"))
    text = "3" + " " * (MAX_TEXT - 3) + "× 8"
    assert table.refused("declare_pattern", player("s1"), pattern=text).code == "bad_args"


def test_a_one_character_pattern_passes_the_argument_check_and_is_judged_unreadable():
    table = revealed()
    table.do("touch_card", player("s1"))
    assert table.refused("declare_pattern", player("s1"), pattern="8").code == "bad_pattern"


@pytest.mark.parametrize("pattern", ["", "   ", "\t\n"])
def test_a_blank_pattern_is_bad_args(pattern):
    table = revealed()
    table.do("touch_card", player("s1"))
    assert table.refused("declare_pattern", player("s1"), pattern=pattern).code == "bad_args"


def test_steps_of_one_character_and_of_exactly_the_maximum_are_recorded_stripped():
    table = with_pattern()
    longest = "1 +" + " " * (MAX_TEXT - 4) + "1"
    assert len(longest) == MAX_TEXT
    (stated,) = table.do("state_steps", player("s1"), steps=["1", longest, f"  {longest}  "])
    assert stated.data["steps"] == ["1", longest, longest]  # the limit is on the stripped text


def test_a_step_one_character_over_the_maximum_is_bad_args():
    table = with_pattern()
    steps = ["1 +" + " " * (MAX_TEXT - 3) + "1"]
    assert table.refused("state_steps", player("s1"), steps=steps).code == "bad_args"
    assert table.refused("fix_solution", player("s1"), steps=steps).code == "bad_args"


@pytest.mark.parametrize("blank", ["", " ", "   \t"])
def test_a_blank_or_whitespace_only_step_is_bad_args_and_nothing_is_logged(blank):
    """docs/rules.md (step limits): a blank step is refused before it is recorded, whether
    stated or fixed."""
    table = with_pattern()
    before = list(table.events)
    for name in ("state_steps", "fix_solution"):
        refused = table.refused(name, player("s1"), steps=[blank, "1 + 2"])
        assert refused.code == "bad_args"
    assert table.events == before


def test_one_to_three_steps_are_recorded_and_more_or_none_are_bad_args():
    table = with_pattern()
    assert MAX_STEPS == 3
    for count in (1, 2, 3):
        (stated,) = table.do("state_steps", player("s1"), steps=["1 + 1 = 2"] * count)
        assert stated.data["steps"] == ["1 + 1 = 2"] * count
    for steps in ([], ["1 + 1 = 2"] * 4, ("1 + 1 = 2",) * 4, [1, 2, 3], None):
        assert table.refused("state_steps", player("s1"), steps=steps).code == "bad_args"


def test_fix_solution_with_steps_as_a_tuple_judges_them():
    table = with_pattern()
    events = table.do("fix_solution", player("s1"), steps=("1 + 1 = 2", "2 + 1 = 3", "3 × 8 = 24"))
    assert types(events) == ["SolutionFixed", "SolutionJudged", "CardWon"]


@pytest.mark.parametrize("length, accepted", [(1, True), (64, True), (65, False), (0, False)])
def test_a_pause_cause_is_a_text_of_one_to_sixty_four_characters(length, accepted):
    table = Table.started()
    cause = "c" * length
    if accepted:
        (paused,) = table.do("pause_table", cause=cause)
        assert paused.data["cause"] == cause
    else:
        assert table.refused("pause_table", cause=cause).code == "bad_args"


# -- answer windows (R-PLAY-4: pattern within 3 s; R-PLAY-5: fixed solution within 15 s) -------


def test_a_pattern_one_microsecond_before_three_seconds_is_in_time():
    table = revealed()
    table.do("touch_card", player("s1"))
    table.now += 3 * S - 1
    (declared,) = table.do("declare_pattern", player("s1"), pattern="3 × 8")
    assert declared.type == "PatternDeclared"


def test_a_pattern_at_exactly_three_seconds_is_too_late():
    table = revealed()
    table.do("touch_card", player("s1"))
    table.now += 3 * S
    refused = table.refused("declare_pattern", player("s1"), pattern="3 × 8")
    assert refused.as_dict() == {
        "code": "too_late",
        "rule": "R-PLAY-4",
        "message": "the pattern came after 3 s (R-PLAY-4)",
    }


def test_a_solution_one_microsecond_before_fifteen_seconds_is_in_time():
    table = with_pattern()
    table.now = table.state.card.touched_at + 15 * S - 1
    events = table.do("fix_solution", player("s1"), steps=["1 + 1 = 2", "2 + 1 = 3", "3 × 8 = 24"])
    assert types(events) == ["SolutionFixed", "SolutionJudged", "CardWon"]


@pytest.mark.parametrize("name", ["state_steps", "fix_solution"])
def test_steps_at_exactly_fifteen_seconds_are_too_late(name):
    table = with_pattern()
    table.now = table.state.card.touched_at + 15 * S
    refused = table.refused(name, player("s1"), steps=["1 + 1 = 2"])
    assert refused.as_dict() == {
        "code": "too_late",
        "rule": "R-PLAY-5",
        "message": "the solution came after 15 s (R-PLAY-5)",
    }


def test_a_window_of_a_fraction_of_a_second_is_named_in_seconds():
    table = Table.started(pattern_seconds=0.5)
    table.next_card()
    table.do("touch_card", player("s1"))
    table.now += S // 2
    refused = table.refused("declare_pattern", player("s1"), pattern="3 × 8")
    assert refused.message == "the pattern came after 0.5 s (R-PLAY-4)"


# -- deadlines: due from 1 ms before their time, recorded at their time ----------------------


@pytest.mark.parametrize("early", [0, DEADLINE_EARLY_US])
def test_a_deadline_fired_at_its_moment_or_up_to_one_ms_early_happens_at_its_moment(early):
    table = revealed()
    deadline = table.deadline("no_touch_deadline")
    table.now = deadline.at - early
    events = table.do("no_touch_deadline", SERVER_ACTOR, **deadline.command.args)
    assert types(events) == ["CardStumped"]
    assert events[0].data["at"] == deadline.at


def test_a_deadline_fired_more_than_one_ms_early_is_not_due():
    table = revealed()
    deadline = table.deadline("no_touch_deadline")
    table.now = deadline.at - DEADLINE_EARLY_US - 1
    refused = table.refused("no_touch_deadline", SERVER_ACTOR, **deadline.command.args)
    assert refused.code == "deadline_not_due"


def test_a_deadline_fired_late_happens_when_it_arrives():
    table = revealed()
    deadline = table.deadline("no_touch_deadline")
    table.now = deadline.at + 5 * S
    (stumped,) = table.do("no_touch_deadline", SERVER_ACTOR, **deadline.command.args)
    assert stumped.data["at"] == deadline.at + 5 * S


def test_the_pattern_deadline_fires_exactly_three_seconds_after_the_touch():
    table = revealed()
    table.do("touch_card", player("s1"))
    touched = table.now
    assert table.live() == {
        "pattern_deadline": touched + 3 * S,
        "solution_deadline": touched + 15 * S,
    }
    events = table.fire("pattern_deadline")
    assert [event.data["at"] for event in events] == [touched + 3 * S] * len(events)


def test_a_deadline_key_is_live_only_for_its_own_command():
    table = revealed()
    deadline = table.deadline("no_touch_deadline")
    table.now = deadline.at
    refused = table.refused("pattern_deadline", SERVER_ACTOR, **deadline.command.args)
    assert refused.code == "stale_deadline"


def test_a_server_command_that_is_not_a_deadline_goes_through_the_usual_checks():
    table = Table.started()
    assert table.refused("end_round", SERVER_ACTOR).code == "not_allowed"
    (paused,) = table.do("pause_table", SERVER_ACTOR, cause="restart")
    assert paused.data == {"at": table.now, "cause": "restart"}
    assert table.refused("resume_table", SERVER_ACTOR).code == "not_allowed"
    table.do("resume_table", PROCTOR)
