"""Every refusal of the 24 Challenge table, exactly: its code, the rule it cites and its message,
as the client receives them (`RuleViolation.as_dict`), from the command that provokes it.

Why exact: clients act on the code, a proctor reads the rule and the message; a refusal whose
message became None or whose rule went missing would reach the wire unnoticed (issue 20).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from challenge_tables import PROCTOR, S, Table, options, player

from server.games import challenge
from server.games.base import SERVER_ACTOR, Command, RuleViolation


def fresh() -> Table:
    return Table(options())


def started() -> Table:
    return Table.started()


def placed() -> Table:
    table = Table.started()
    table.do("place_card")
    return table


def revealed() -> Table:
    table = Table.started()
    table.next_card()
    return table


def solving() -> Table:
    """s1 holds the revealed card c1 (1 1 1 8)."""
    table = revealed()
    table.do("touch_card", player("s1"))
    return table


def with_pattern() -> Table:
    table = solving()
    table.do("declare_pattern", player("s1"), pattern="3 × 8")
    return table


def proctored() -> Table:
    table = Table.started(mode="proctored")
    table.next_card()
    return table


def paused() -> Table:
    table = Table.started()
    table.do("pause_table")
    return table


def ended() -> Table:
    table = Table.started()
    table.do("end_round")
    return table


def disqualified() -> Table:
    """s1 has three flags (R-FLAG-3) with c1 revealed."""
    table = revealed()
    for _ in range(3):
        table.do("issue_flag", seat="s1", cause="no_pattern")
        if table.state.card is None:
            table.next_card()
    return table


def stumped() -> Table:
    table = revealed()
    table.do("declare_stumped", player("s1"))
    return table


PLAYER1, PLAYER2 = player("s1"), player("s2")
# (given, command, actor, args) -> (code, rule, message)
REFUSED: list[tuple[Callable[[], Table], str, object, dict, tuple[str, str, str]]] = [
    (fresh, "fly", PROCTOR, {}, ("unknown_command", "", "unknown command 'fly'")),
    (
        fresh,
        "start_round",
        PLAYER1,
        {},
        ("not_allowed", "R-PLAY-2", "'player' may not send start_round"),
    ),
    (
        fresh,
        "place_card",
        PROCTOR,
        {},
        ("round_not_started", "R-ROUND-1", "place_card: the round has not started"),
    ),
    (
        started,
        "start_round",
        PROCTOR,
        {},
        ("round_already_started", "R-ROUND-1", "the round has already started"),
    ),
    (
        ended,
        "place_card",
        PROCTOR,
        {},
        ("round_over", "R-ROUND-1", "place_card: the round has ended"),
    ),
    (
        fresh,
        "start_round",
        PROCTOR,
        {"order": ["c1"]},
        ("bad_args", "", "start_round: 'order' is a permutation of the deck's card ids"),
    ),
    (placed, "place_card", PROCTOR, {}, ("card_in_play", "R-PLAY-1", "a card is already in play")),
    (
        started,
        "touch_card",
        PLAYER1,
        {},
        ("no_card_in_play", "R-PLAY-1", "touch_card: no card is in play"),
    ),
    (
        started,
        "reveal_card",
        PROCTOR,
        {},
        ("no_card_placed", "R-PLAY-1", "place a card before revealing it"),
    ),
    (
        revealed,
        "reveal_card",
        PROCTOR,
        {},
        ("already_revealed", "R-PLAY-1", "the card is already revealed"),
    ),
    (
        placed,
        "declare_stumped",
        PLAYER1,
        {},
        ("card_not_revealed", "R-PLAY-1", "declare_stumped: the card has not been revealed"),
    ),
    (
        revealed,
        "declare_pattern",
        PLAYER1,
        {"pattern": "3 × 8"},
        ("no_touch_in_progress", "R-PLAY-2", "declare_pattern: nobody holds the card"),
    ),
    (
        solving,
        "declare_stumped",
        PLAYER2,
        {},
        ("touch_in_progress", "R-PLAY-2", "declare_stumped: a student holds the card"),
    ),
    (
        revealed,
        "touch_card",
        PROCTOR,
        {"seat": "s1"},
        ("not_allowed", "R-PLAY-2", "touch_card: at a networked table students send it themselves"),
    ),
    (
        revealed,
        "touch_card",
        PLAYER1,
        {"seat": "s2"},
        ("not_your_seat", "R-PLAY-2", "player 's1' cannot act for seat 's2'"),
    ),
    (revealed, "touch_card", player("s9"), {}, ("unknown_seat", "", "no seat 's9' at this table")),
    (
        proctored,
        "touch_card",
        PLAYER1,
        {},
        ("not_allowed", "R-PLAY-2", "touch_card: at a proctored table the proctor records it"),
    ),
    (
        proctored,
        "touch_card",
        PROCTOR,
        {},
        ("seat_required", "R-PLAY-2", "touch_card: name the 'seat'"),
    ),
    (
        proctored,
        "touch_card",
        PROCTOR,
        {"seat": "s7"},
        ("unknown_seat", "", "touch_card: no seat 's7' at this table"),
    ),
    (
        disqualified,
        "touch_card",
        PLAYER1,
        {},
        ("disqualified", "R-FLAG-4", "seat s1 is disqualified (R-FLAG-4)"),
    ),
    (
        disqualified,
        "issue_flag",
        PROCTOR,
        {"seat": "s1", "cause": "no_pattern"},
        ("disqualified", "R-FLAG-4", "seat s1 is disqualified (R-FLAG-4)"),
    ),
    (
        solving,
        "touch_card",
        PLAYER1,
        {},
        ("already_touched", "R-PLAY-2", "seat s1's touch on this card is recorded"),
    ),
    (
        revealed,
        "touch_card",
        PLAYER1,
        {"fingertips": 0},
        ("bad_args", "", "touch_card: 'fingertips' is a whole number 1..10"),
    ),
    (
        solving,
        "declare_pattern",
        PLAYER2,
        {"pattern": "3 × 8"},
        ("not_toucher", "R-PLAY-2", "seat s2 did not touch first; s1 did"),
    ),
    (
        solving,
        "declare_pattern",
        PLAYER1,
        {"pattern": 38},
        ("bad_args", "", "declare_pattern: 'pattern' is a text of 1..200 characters"),
    ),
    (
        solving,
        "declare_pattern",
        PLAYER1,
        {"pattern": "3 . 8"},
        (
            "bad_pattern",
            "R-PUZ-3",
            "pattern: unexpected '.' at position 3: decimals are not allowed; "
            "write fractions as n/d, e.g. 8/3",
        ),
    ),
    (
        with_pattern,
        "declare_pattern",
        PLAYER1,
        {"pattern": "8 × 3"},
        ("pattern_cannot_change", "R-PLAY-5", "the pattern '3 × 8' is declared"),
    ),
    (
        solving,
        "state_steps",
        PLAYER1,
        {"steps": ["1 + 1 = 2"]},
        ("pattern_first", "R-PLAY-4", "announce the pattern before the steps (R-PLAY-4)"),
    ),
    (
        with_pattern,
        "state_steps",
        PLAYER1,
        {"steps": "1 + 1 = 2"},
        (
            "bad_args",
            "",
            "state_steps: 'steps' is a list of 1..3 texts of 1..200 characters (R-PUZ-2)",
        ),
    ),
    (
        with_pattern,
        "fix_solution",
        PLAYER1,
        {},
        ("no_steps", "R-PLAY-5", "state the steps before fixing the solution"),
    ),
    (
        solving,
        "override_first_touch",
        PROCTOR,
        {"seat": "s1"},
        ("already_first", "R-PLAY-2", "seat s1 already holds the card"),
    ),
    (
        solving,
        "override_first_touch",
        PROCTOR,
        {},
        ("seat_required", "R-PLAY-2", "override_first_touch: name the 'seat'"),
    ),
    (
        stumped,
        "declare_stumped",
        PLAYER1,
        {},
        ("already_stumped", "R-PLAY-7", "seat s1 already declared stumped"),
    ),
    (
        revealed,
        "issue_flag",
        PROCTOR,
        {"seat": "s1", "cause": "rudeness"},
        (
            "bad_args",
            "",
            "issue_flag: 'cause' is one of no_pattern, no_solution, incorrect_solution, "
            "too_many_fingertips, touched_before_reveal",
        ),
    ),
    (
        revealed,
        "issue_flag",
        PROCTOR,
        {"seat": "s5", "cause": "no_pattern"},
        ("unknown_seat", "", "issue_flag: no seat 's5' at this table"),
    ),
    (paused, "place_card", PROCTOR, {}, ("table_paused", "", "place_card: the table is paused")),
    (paused, "pause_table", PROCTOR, {}, ("already_paused", "", "paused since: proctor")),
    (started, "resume_table", PROCTOR, {}, ("not_paused", "", "the table is not paused")),
    (
        started,
        "pause_table",
        PROCTOR,
        {"cause": "x" * 65},
        ("bad_args", "", "pause_table: 'cause' is a text of 1..64 characters"),
    ),
    (
        revealed,
        "no_touch_deadline",
        SERVER_ACTOR,
        {"key": "no_touch:1:0"},
        ("stale_deadline", "", "no_touch_deadline: 'no_touch:1:0' is not a live deadline"),
    ),
]


@pytest.mark.parametrize(
    "given, name, actor, args, refusal",
    REFUSED,
    ids=[f"{row[4][0]}-{row[1]}" for row in REFUSED],
)
def test_every_refusal_is_exact(given, name, actor, args, refusal):
    table = given()
    refused = table.refused(name, actor, **args)
    code, rule, message = refusal
    assert refused.as_dict() == {"code": code, "rule": rule, "message": message}
    assert rule == challenge.REFUSALS[code][0]  # the rule documented for the code


def test_every_refusal_code_of_a_command_is_provoked_above():
    """Every code of `REFUSALS` but the three decided outside a command's handlers
    (bad_options: initial_state; too_late and deadline_not_due: tests/unit/test_limits.py)."""
    provoked = {row[4][0] for row in REFUSED}
    assert provoked == set(challenge.REFUSALS) - {"bad_options", "too_late", "deadline_not_due"}


def test_arguments_that_are_not_a_map_are_refused():
    table = started()
    with pytest.raises(RuleViolation) as caught:
        challenge.decide(table.state, Command("place_card", ["c1"], PROCTOR), table.now)
    assert caught.value.as_dict() == {
        "code": "bad_args",
        "rule": "",
        "message": "place_card: arguments are a map",
    }


def test_bad_options_are_refused_before_anything_is_recorded():
    with pytest.raises(RuleViolation) as caught:
        challenge.initial_state(options(seats=2))
    assert caught.value.as_dict() == {
        "code": "bad_options",
        "rule": "",
        "message": "option 'seats': a list of 3 or 4 seats (R-ROUND-2)",
    }


def test_a_deadline_fired_early_is_not_due_and_names_its_time():
    table = revealed()
    deadline = table.deadline("no_touch_deadline")
    table.now = deadline.at - 2 * S
    refused = table.refused("no_touch_deadline", SERVER_ACTOR, **deadline.command.args)
    assert refused.as_dict() == {
        "code": "deadline_not_due",
        "rule": "",
        "message": f"{deadline.key} is due at {deadline.at}, now is {table.now}",
    }
