"""Every refusal of a Kortspillet 24 (deck40) table, exactly: its code, the rule it cites and
its message, as the client receives them (`RuleViolation.as_dict`), from the command that
provokes it; and both sides of the spoken solution's length limit (issue 20).

Why exact: clients act on the code, players read the rule and the message; a refusal whose
message became None or whose rule went missing would reach the wire unnoticed.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from casual_tables import DIRECTOR, PROCTOR, SPECTATOR, Table, deck40_options, player

from server.games import deck40
from server.games.base import Actor, Command, RuleViolation
from server.puzzles.expressions import MAX_TEXT

S1, S2, S3 = player("s1"), player("s2"), player("s3")


def fresh() -> Table:
    return Table(deck40, deck40_options(2, ["3388"]))


def started() -> Table:
    """Two players; 3 3 8 8 on the table (3S 3H from s1's pile, 8S 8H from s2's)."""
    return Table.started(deck40, deck40_options(2, ["3388"]))


def s1_excluded() -> Table:
    table = started()
    table.do("call_24", S1, expression="3 + 3 + 8 + 8")
    return table


def s1_called() -> Table:
    table = started()
    table.do("call_no_solution", S1)
    return table


def set_2() -> Table:
    """Set 1 (3 3 8 8) won by s2; set 2 (4 1 8 7) on the table."""
    table = Table.started(deck40, deck40_options(2, ["3388", "4187"]))
    table.do("call_24", S2, expression="8/(3-8/3)", set=1)
    return table


def common_pile() -> Table:
    return Table.started(deck40, deck40_options(3, ["3388"]))


def ended() -> Table:
    table = started()
    table.do("end_game", DIRECTOR)
    return table


# (given, command, actor, args) -> (code, rule, message)
REFUSED: list[tuple[Callable[[], Table], str, Actor, dict, tuple[str, str, str]]] = [
    (started, "slap", S1, {}, ("unknown_command", "", "unknown command 'slap'")),
    (started, "call_24", SPECTATOR, {}, ("not_allowed", "", "'spectator' may not send call_24")),
    (started, "end_game", S1, {}, ("not_allowed", "", "'player' may not send end_game")),
    (started, "call_24", DIRECTOR, {}, ("not_allowed", "", "'director' may not send call_24")),
    (
        started,
        "call_24",
        S1,
        {"seat": "s2", "expression": "1"},
        ("not_your_seat", "", "player 's1' cannot act for seat 's2'"),
    ),
    (
        started,
        "call_no_solution",
        player("s7"),
        {},
        ("unknown_seat", "", "no seat 's7' at this table"),
    ),
    (
        fresh,
        "call_24",
        S1,
        {"expression": "1"},
        ("game_not_started", "R-DECK40-1", "call_24: the game has not started"),
    ),
    (
        started,
        "start_game",
        PROCTOR,
        {},
        ("game_already_started", "R-DECK40-1", "start_game: the game has already started"),
    ),
    (
        ended,
        "call_no_solution",
        S2,
        {},
        ("game_over", "R-DECK40-6", "call_no_solution: the game has ended"),
    ),
    (ended, "end_game", DIRECTOR, {}, ("game_over", "R-DECK40-6", "end_game: the game has ended")),
    (
        started,
        "call_24",
        S1,
        {},
        ("bad_args", "", f"call_24: 'expression' is a text of 1..{MAX_TEXT} characters"),
    ),
    (
        started,
        "call_24",
        S1,
        {"expression": 24},
        ("bad_args", "", f"call_24: 'expression' is a text of 1..{MAX_TEXT} characters"),
    ),
    (
        started,
        "call_24",
        S1,
        {"expression": " \t "},
        ("bad_args", "", f"call_24: 'expression' is a text of 1..{MAX_TEXT} characters"),
    ),
    (
        started,
        "call_24",
        S1,
        {"expression": "1" * (MAX_TEXT + 1)},
        ("bad_args", "", f"call_24: 'expression' is a text of 1..{MAX_TEXT} characters"),
    ),
    (
        s1_excluded,
        "call_24",
        S1,
        {"expression": "8/(3-8/3)"},
        ("excluded", "R-DECK40-2", "seat s1 is out of set 1 (R-DECK40-2)"),
    ),
    (
        s1_excluded,
        "call_no_solution",
        S1,
        {},
        ("excluded", "R-DECK40-2", "seat s1 is out of set 1 (R-DECK40-2)"),
    ),
    (
        s1_called,
        "call_no_solution",
        S1,
        {},
        ("already_called", "R-DECK40-3", "seat s1 already called 'no solution'"),
    ),
    (
        started,
        "call_no_solution",
        S1,
        {"returns": "8S"},
        ("not_your_card", "R-DECK40-4", "'8S' is not one of seat s1's face-up cards"),
    ),
    (
        started,
        "call_no_solution",
        S2,
        {"returns": 7},
        ("not_your_card", "R-DECK40-4", "7 is not one of seat s2's face-up cards"),
    ),
    (
        common_pile,
        "call_no_solution",
        S3,
        {"returns": "3S"},
        ("bad_args", "", "with the common pile the dealer returns two (R-DECK40-5)"),
    ),
    # a call names the set it answers (`set`): one that crossed a deal is not judged
    (
        set_2,
        "call_24",
        S1,
        {"expression": "8/(3-8/3)", "set": 1},
        (
            "stale_set",
            "R-DECK40-2",
            "call_24 is for set 1, but set 2 is up (R-DECK40-2)",
        ),
    ),
    (
        set_2,
        "call_no_solution",
        S1,
        {"set": 1},
        (
            "stale_set",
            "R-DECK40-2",
            "call_no_solution is for set 1, but set 2 is up (R-DECK40-2)",
        ),
    ),
    (
        started,
        "call_24",
        S1,
        {"expression": "8/(3-8/3)", "set": 2},
        (
            "stale_set",
            "R-DECK40-2",
            "call_24 is for set 2, but set 1 is up (R-DECK40-2)",
        ),
    ),
    (  # the set is read first: nothing else of a call for another set is looked at
        s1_excluded,
        "call_no_solution",
        S1,
        {"returns": "8S", "set": 0},
        (
            "stale_set",
            "R-DECK40-2",
            "call_no_solution is for set 0, but set 1 is up (R-DECK40-2)",
        ),
    ),
    (
        started,
        "call_24",
        S1,
        {"set": 2},
        (
            "stale_set",
            "R-DECK40-2",
            "call_24 is for set 2, but set 1 is up (R-DECK40-2)",
        ),
    ),
    *[
        (started, name, S1, {"expression": "8/(3-8/3)", "set": shape}, ("bad_args", "", message))
        for name, message in [
            ("call_24", "call_24: 'set' is the number of a set"),
            ("call_no_solution", "call_no_solution: 'set' is the number of a set"),
        ]
        for shape in ["1", 1.0, True, False, [1], {"set": 1}]
    ],
]


@pytest.mark.parametrize(
    ("given", "name", "actor", "args", "refusal"),
    REFUSED,
    ids=[f"{row[1]}-{row[4][0]}-{index}" for index, row in enumerate(REFUSED)],
)
def test_every_refusal_exactly(given, name, actor, args, refusal):
    table = given()
    code, rule, message = refusal
    assert table.refused(name, actor, **args).as_dict() == {
        "code": code,
        "rule": rule,
        "message": message,
    }


def test_arguments_that_are_not_a_map_are_refused_before_anything_else():
    state = started().state
    with pytest.raises(RuleViolation) as caught:
        deck40.decide(state, Command("call_24", ["x"], SPECTATOR), 0)  # type: ignore[arg-type]
    assert caught.value.as_dict() == {
        "code": "bad_args",
        "rule": "",
        "message": "call_24: arguments are a map",
    }


def test_the_spoken_solution_is_1_to_MAX_TEXT_characters_after_trimming():
    """Both sides of the limit: the longest text is judged (and recorded trimmed), one more
    character is refused; a one-character text is judged too."""
    longest = "3 + 3 + 8 +" + " " * (MAX_TEXT - 12) + "8"
    assert len(longest) == MAX_TEXT
    table = started()
    events = table.do("call_24", S1, expression=f"  {longest}  ")
    assert events[0].data["expression"] == longest and events[0].data["ok"] is False
    table = started()
    assert table.do("call_24", S2, expression="8")[0].data["expression"] == "8"


def test_a_player_may_name_his_own_seat():
    table = started()
    events = table.do("call_no_solution", S1, seat="s1", returns="3H")
    assert events[0].data["seat"] == "s1" and events[0].data["returns"] == "3H"


def test_a_player_may_start_the_game_and_a_proctor_end_it():
    table = fresh()
    assert [event.type for event in table.do("start_game", S1)] == ["GameStarted", "CardsTurnedUp"]
    assert [event.type for event in table.do("end_game", PROCTOR)] == ["GameEnded"]


def test_the_clock_never_runs_backwards():
    """A command decided at an earlier `now` than the table's clock is recorded at the clock."""
    table = started()
    table.advance(10)
    table.do("call_no_solution", S1)
    table.now -= 5_000_000
    events = table.do("call_no_solution", S2)
    assert {event.data["at"] for event in events} == {table.now + 5_000_000}
