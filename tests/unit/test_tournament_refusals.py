"""Every refusal of a tournament, exactly: its code, the rule it cites and its message, as the
director's client receives them (`RuleViolation.as_dict`), from the command that provokes it.

Why exact: a client acts on the code, the director reads the rule and the message; a refusal
whose message became None or whose rule went missing would reach the wire unnoticed (issue
20). The given tournaments: two grades (4th, 5th) of four students each, one table a grade.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tournament_support import DIRECTOR, T0, Tourney, csv_of, tournament_options, types

import server.tournament as tournament
from server.games.base import SERVER_ACTOR, Actor, Command, RuleViolation


def registering() -> Tourney:
    t = Tourney(tournament_options(grades=["4th", "5th"]))
    t.register_many(4)
    return t


def closed() -> Tourney:
    t = registering()
    t.do("close_registration")
    return t


def seated() -> Tourney:
    t = closed()
    t.do("seat_round", round=1)
    return t


def started() -> Tourney:
    t = seated()
    t.do("start_round", round=1)
    return t


def round_one_closed() -> Tourney:
    t = closed()
    t.play_round(1, lambda s: int(s[1:]))
    return t


def round_two_closed() -> Tourney:
    t = round_one_closed()
    t.play_round(2, lambda s: int(s[1:]))
    return t


def advanced() -> Tourney:
    t = round_two_closed()
    t.do("advance", round=2)
    return t


def three_in_4th() -> Tourney:
    t = Tourney(tournament_options(grades=["4th", "5th"]))
    t.register_many(4)
    t.do("withdraw", student="p1")
    t.do("withdraw", student="p2")
    return t


def finished() -> Tourney:
    t = Tourney(tournament_options(grades=["4th"], advance_count=3))
    t.register_many(3)
    t.play_round(1, lambda s: int(s[1:]))
    t.play_round(2, lambda s: int(s[1:]))
    t.do("advance", round=2)  # three advance: one semi-final table, its winner is champion
    t.play_round(3, lambda s: int(s[1:]))
    t.do("advance", round=3)
    assert t.state.finished
    return t


def refusal(code: str, rule: str, message: str) -> dict[str, str]:
    return {"code": code, "rule": rule, "message": message}


REFUSALS: list[tuple[str, Callable[[], Tourney], str, Actor, dict, dict]] = [
    (
        "an unknown command",
        registering,
        "shuffle",
        DIRECTOR,
        {},
        refusal("unknown_command", "", "unknown command 'shuffle'"),
    ),
    (
        "a proctor registers a student",
        registering,
        "register",
        Actor("proctor", "p"),
        {},
        refusal("not_allowed", "", "'proctor' may not send register"),
    ),
    (
        "the director records a result",
        started,
        "record_result",
        DIRECTOR,
        {},
        refusal("not_allowed", "", "'director' may not send record_result"),
    ),
    (
        "merging one grade",
        registering,
        "merge_grades",
        DIRECTOR,
        {"grades": ["4th"], "section": "4-5"},
        refusal("bad_args", "", "merge_grades: 'grades' lists two or more grades"),
    ),
    (
        "merging grades that are not a list",
        registering,
        "merge_grades",
        DIRECTOR,
        {"grades": "4th,5th", "section": "4-5"},
        refusal("bad_args", "", "merge_grades: 'grades' lists two or more grades"),
    ),
    (
        "merging into a section without a name",
        registering,
        "merge_grades",
        DIRECTOR,
        {"grades": ["4th", "5th"], "section": " "},
        refusal("bad_args", "", "merge_grades: 'section' is a text of 1..64 characters"),
    ),
    (
        "merging an unknown grade",
        registering,
        "merge_grades",
        DIRECTOR,
        {"grades": ["4th", "9th"], "section": "4-9"},
        refusal("unknown_grade", "R-ROUND-2", "merge_grades: no grade '9th'"),
    ),
    (
        "merging after registration closed",
        closed,
        "merge_grades",
        DIRECTOR,
        {"grades": ["4th", "5th"], "section": "4-5"},
        refusal("registration_closed", "R-ROUND-2", "merge_grades: registration is closed"),
    ),
    (
        "registering after registration closed",
        closed,
        "register",
        DIRECTOR,
        {"name": "Ada", "school": "Hill", "grade": "4th"},
        refusal("registration_closed", "R-ROUND-2", "register: registration is closed"),
    ),
    (
        "registering an unknown grade",
        registering,
        "register",
        DIRECTOR,
        {"name": "Ada", "school": "Hill", "grade": "9th"},
        refusal(
            "unknown_grade",
            "R-ROUND-2",
            "register: grade '9th' is not one of this tournament's (4th, 5th)",
        ),
    ),
    (
        "registering a student twice",
        registering,
        "register",
        DIRECTOR,
        {"name": "4TH-00", "school": "school 0", "grade": "4th"},
        refusal("bad_student", "", "register: 4TH-00 (school 0, 4th) is registered already"),
    ),
    (
        "registering without a school",
        registering,
        "register",
        DIRECTOR,
        {"name": "Ada", "grade": "4th"},
        refusal("bad_student", "", "register: school must be a text of 1..64 characters"),
    ),
    (
        "importing without a file",
        registering,
        "import_students",
        DIRECTOR,
        {},
        refusal("bad_args", "", "import_students: 'csv' is the file's text"),
    ),
    (
        "importing bad rows",
        registering,
        "import_students",
        DIRECTOR,
        {"csv": "name,school,grade\nAda,Hill,9th\nBo,Hill\n"},
        refusal(
            "bad_rows",
            "",
            "line 2: grade '9th' is not one of this tournament's (4th, 5th); "
            "line 3: 2 fields, expected 3",
        ),
    ),
    (
        "withdrawing nobody",
        registering,
        "withdraw",
        DIRECTOR,
        {"student": "p99"},
        refusal("unknown_student", "", "withdraw: no student 'p99'"),
    ),
    (
        "withdrawing a number",
        registering,
        "withdraw",
        DIRECTOR,
        {"student": 1},
        refusal("unknown_student", "", "withdraw: no student 1"),
    ),
    (
        "closing with three students in a grade",
        three_in_4th,
        "close_registration",
        DIRECTOR,
        {},
        refusal(
            "cannot_seat",
            "R-ROUND-2",
            "section '4th' has 2 students: they cannot sit 3 or 4 to a table; merge it "
            "with another (merge_grades)",
        ),
    ),
    (
        "seating round 5",
        closed,
        "seat_round",
        DIRECTOR,
        {"round": 5},
        refusal("bad_round", "R-ROUND-1", "seat_round: 'round' is 1, 2, 3 or 4, not 5"),
    ),
    (
        "seating round 0",
        closed,
        "seat_round",
        DIRECTOR,
        {"round": 0},
        refusal("bad_round", "R-ROUND-1", "seat_round: 'round' is 1, 2, 3 or 4, not 0"),
    ),
    (
        "seating round True",
        closed,
        "seat_round",
        DIRECTOR,
        {"round": True},
        refusal("bad_round", "R-ROUND-1", "seat_round: 'round' is 1, 2, 3 or 4, not True"),
    ),
    (
        "seating before registration closed",
        registering,
        "seat_round",
        DIRECTOR,
        {"round": 1},
        refusal("registration_open", "R-ROUND-2", "seat_round: close registration first"),
    ),
    (
        # registration is checked first for rounds 1 and 2 (they seat the registered)...
        "seating round 2 before registration closed",
        registering,
        "seat_round",
        DIRECTOR,
        {"round": 2},
        refusal("registration_open", "R-ROUND-2", "seat_round: close registration first"),
    ),
    (
        # ... and not for round 3, which seats who advanced from round 2
        "seating round 3 before registration closed",
        registering,
        "seat_round",
        DIRECTOR,
        {"round": 3},
        refusal("previous_round_open", "R-ROUND-1", "seat_round: advance round 2 first"),
    ),
    (
        "seating round 2 before round 1 closed",
        started,
        "seat_round",
        DIRECTOR,
        {"round": 2},
        refusal("previous_round_open", "R-ROUND-1", "seat_round: close round 1 first"),
    ),
    (
        "seating round 3 before round 2 advanced",
        round_two_closed,
        "seat_round",
        DIRECTOR,
        {"round": 3},
        refusal("previous_round_open", "R-ROUND-1", "seat_round: advance round 2 first"),
    ),
    (
        "seating a started round",
        started,
        "seat_round",
        DIRECTOR,
        {"round": 1},
        refusal("round_started", "R-ROUND-2", "seat_round: round 1 has started"),
    ),
    (
        "swapping in an unseated round",
        closed,
        "swap_seats",
        DIRECTOR,
        {"round": 1, "a": "p1", "b": "p5"},
        refusal("round_not_seated", "R-ROUND-2", "swap_seats: round 1 is not seated"),
    ),
    (
        "swapping in a started round",
        started,
        "swap_seats",
        DIRECTOR,
        {"round": 1, "a": "p1", "b": "p5"},
        refusal("round_started", "R-ROUND-2", "swap_seats: round 1 has started"),
    ),
    (
        "swapping a student without a seat",
        seated,
        "swap_seats",
        DIRECTOR,
        {"round": 1, "a": "p1", "b": "p99"},
        refusal("not_seated", "R-ROUND-2", "swap_seats: 'p99' has no seat in round 1"),
    ),
    (
        "swapping with nobody",
        seated,
        "swap_seats",
        DIRECTOR,
        {"round": 1, "a": "p1"},
        refusal("not_seated", "R-ROUND-2", "swap_seats: None has no seat in round 1"),
    ),
    (
        "swapping at one table",
        seated,
        "swap_seats",
        DIRECTOR,
        {"round": 1, "a": "p1", "b": "p2"},
        refusal("same_table", "R-ROUND-2", "swap_seats: p1 and p2 sit at r1.s1.t01"),
    ),
    (
        "swapping across sections",
        seated,
        "swap_seats",
        DIRECTOR,
        {"round": 1, "a": "p1", "b": "p5"},
        refusal(
            "different_sections", "R-ROUND-2", "swap_seats: p1 and p5 are in different sections"
        ),
    ),
    (
        "a proctor for no table",
        seated,
        "assign_proctor",
        DIRECTOR,
        {"table": "r1.s9.t01", "name": "Gil Hart"},
        refusal("unknown_table", "", "assign_proctor: no table 'r1.s9.t01'"),
    ),
    (
        "a proctor without a name",
        seated,
        "assign_proctor",
        DIRECTOR,
        {"table": "r1.s1.t01"},
        refusal("bad_args", "", "assign_proctor: 'name' is a text of 1..64 characters"),
    ),
    (
        "a proctor with nine initials",
        seated,
        "assign_proctor",
        DIRECTOR,
        {"table": "r1.s1.t01", "name": "Gil Hart", "initials": "ABCDEFGHI"},
        refusal("bad_args", "", "assign_proctor: 'initials' is a text of 1..8 characters"),
    ),
    (
        "starting an unseated round",
        closed,
        "start_round",
        DIRECTOR,
        {"round": 1},
        refusal("round_not_seated", "R-ROUND-2", "start_round: round 1 is not seated"),
    ),
    (
        "starting a started round",
        started,
        "start_round",
        DIRECTOR,
        {"round": 1},
        refusal("round_started", "R-ROUND-2", "start_round: round 1 has started"),
    ),
    (
        "closing a round not started",
        seated,
        "close_round",
        DIRECTOR,
        {"round": 1},
        refusal("round_not_started", "R-ROUND-1", "close_round: round 1 has not started"),
    ),
    (
        "closing a round without its results",
        started,
        "close_round",
        DIRECTOR,
        {"round": 1},
        refusal(
            "tables_unsigned",
            "R-ROUND-7",
            "close_round: no final result yet at r1.s1.t01, r1.s2.t01",
        ),
    ),
    (
        "closing a closed round",
        round_one_closed,
        "close_round",
        DIRECTOR,
        {"round": 1},
        refusal("round_closed", "R-ROUND-1", "close_round: round 1 is closed"),
    ),
    (
        "advancing round 1",
        round_one_closed,
        "advance",
        DIRECTOR,
        {"round": 1},
        refusal("nothing_to_advance", "R-ROUND-3", "advance: round 1 advances nobody (R-ROUND-3)"),
    ),
    (
        "advancing an open round",
        round_one_closed,
        "advance",
        DIRECTOR,
        {"round": 2},
        refusal("round_not_closed", "R-ROUND-3", "advance: close round 2 first"),
    ),
    (
        "advancing twice",
        advanced,
        "advance",
        DIRECTOR,
        {"round": 2},
        refusal("already_advanced", "R-ROUND-3", "advance: round 2 was advanced"),
    ),
    (
        "reopening a round not advanced",
        round_two_closed,
        "reopen_round",
        DIRECTOR,
        {"round": 2},
        refusal("not_advanced", "R-ROUND-8", "reopen_round: round 2 is not advanced"),
    ),
    (
        "a result for no table",
        started,
        "record_result",
        SERVER_ACTOR,
        {"table": "r1.s9.t01"},
        refusal("unknown_table", "", "record_result: no table 'r1.s9.t01'"),
    ),
    (
        "a result without every seat's score",
        started,
        "record_result",
        SERVER_ACTOR,
        {"table": "r1.s1.t01", "scores": {"p1": 1}, "seq": 4},
        refusal("bad_result", "R-ROUND-7", "record_result: scores for p3, p1, p2, p4"),
    ),
    (
        "a result for an advanced round",
        advanced,
        "record_result",
        SERVER_ACTOR,
        {"table": "r2.s1.t01"},
        refusal("round_advanced", "R-ROUND-8", "record_result: round 2 is advanced; reopen it"),
    ),
    (
        "a command after the champions",
        finished,
        "withdraw",
        DIRECTOR,
        {"student": "p1"},
        refusal("tournament_over", "R-ROUND-5", "withdraw: the tournament is over"),
    ),
]


@pytest.mark.parametrize(
    ("given", "name", "actor", "args", "expected"),
    [case[1:] for case in REFUSALS],
    ids=[case[0] for case in REFUSALS],
)
def test_every_refusal_exactly(given, name, actor, args, expected):
    t = given()
    assert t.refused(name, actor, **args).as_dict() == expected


def test_arguments_that_are_not_a_map():
    t = registering()
    with pytest.raises(RuleViolation) as caught:
        tournament.decide(t.state, Command("withdraw", ["p1"], DIRECTOR), T0)  # type: ignore[arg-type]
    assert caught.value.as_dict() == refusal("bad_args", "", "withdraw: arguments are a map")


def test_withdrawing_twice():
    t = registering()
    t.do("withdraw", student="p1")
    assert t.refused("withdraw", student="p1").as_dict() == refusal(
        "already_withdrawn", "", "withdraw: p1 has withdrawn"
    )


def test_the_same_result_twice():
    t = started()
    t.table_ends("r1.s1.t01", {"p1": 1, "p2": 2, "p3": 3, "p4": 4})
    result = {"scores": {"p1": 1, "p2": 2, "p3": 3, "p4": 4}, "seq": 4}
    assert t.refused("record_result", SERVER_ACTOR, table="r1.s1.t01", **result).as_dict() == (
        refusal("result_unchanged", "R-ROUND-7", "record_result: r1.s1.t01 at seq 4 is recorded")
    )


def test_reopening_a_round_whose_next_round_started():
    t = advanced()
    t.do("seat_round", round=3)
    t.do("start_round", round=3)
    assert t.refused("reopen_round", round=2).as_dict() == refusal(
        "next_round_started", "R-ROUND-8", "reopen_round: round 3 has started"
    )


def test_advancing_with_ties_pending_in_two_sections_names_each_sections_students():
    """R-ROUND-6: the director reads every pending tie, section by section, in one refusal."""
    t = Tourney(tournament_options(grades=["4th", "5th"], advance_count=3))
    t.register_many(6)  # p1..p6 in 4th, p7..p12 in 5th
    tie = {"p1": 9, "p2": 9, "p7": 9, "p8": 9}  # two on top, four tied for the last place
    t.play_round(1, lambda s: tie.get(s, 1))
    t.play_round(2, lambda s: tie.get(s, 1))
    assert t.refused("advance", round=2).as_dict() == refusal(
        "tie_break_pending",
        "R-ROUND-6",
        "advance: ties to play off first (4th: p3, p4, p5, p6; 5th: p10, p11, p12, p9)",
    )


def test_starting_round_3_while_round_2_is_reopened():
    """R-ROUND-8: round 3 seated before round 2 was reopened waits for round 2's advance (the
    late ruling may change who advances); started, it would end the tournament with round 2
    still open, and the ruling could never count."""
    t = advanced()
    t.do("seat_round", round=3)
    t.do("reopen_round", round=2)
    assert t.refused("start_round", round=3).as_dict() == refusal(
        "previous_round_open", "R-ROUND-1", "start_round: advance round 2 first"
    )
    t.do("advance", round=2)
    assert types(t.do("start_round", round=3)) == ["RoundStarted"]


def test_starting_round_2_before_round_1_closed():
    t = started()
    for table in t.state.round(1).tables:
        t.table_ends(table.table, {s: 1 for s in table.students})
    # round 1 has every result but is not closed: round 2 cannot be seated, nor started
    assert t.refused("seat_round", round=2).code == "previous_round_open"


def test_an_import_too_long_empty_or_with_other_columns():
    t = registering()
    cases = {
        "": "line 1: the file is empty; the first line names the columns",
        "name,school\nAda,Hill\n": (
            "line 1: the columns are name, school, grade (found name, school)"
        ),
        "name,school,grade\n\n": "line 2: no students in the file",
        "x" * (512 * 1024 + 1): "line 1: the file is longer than 524288 characters",
    }
    for text, message in cases.items():
        assert t.refused("import_students", csv=text).as_dict() == refusal("bad_rows", "", message)


def test_an_import_of_exactly_the_maximum_length_is_read_not_refused_for_its_length():
    """`MAX_CSV` characters are read and imported (one more is refused for its length: the
    case above). The rows are padded with spaces, which the import strips."""
    t = registering()
    header = "name,school,grade\n"
    rows = [f"S{i},Hill,4th\n" for i in range(1000)]
    padding = 512 * 1024 - len(header) - sum(len(row) for row in rows)
    rows = [row.replace(",", " " * (padding // 1000) + ",", 1) for row in rows]
    rows[-1] = rows[-1].replace(",", " " * (padding % 1000) + ",", 1)
    text = header + "".join(rows)
    assert len(text) == 512 * 1024
    before = len(t.state.students)
    t.do("import_students", csv=text)
    assert len(t.state.students) == before + 1000


def test_an_import_of_5000_rows_passes_and_5001_are_refused():
    t = Tourney(tournament_options(grades=["4th"]))
    rows = [(f"S{i}", "Hill", "4th") for i in range(5001)]
    assert t.refused("import_students", csv=csv_of(rows)).as_dict() == refusal(
        "bad_rows", "", "line 5002: at most 5000 students in one import"
    )
    t.do("import_students", csv=csv_of(rows[:5000]))
    assert len(t.state.students) == 5000


GOOD_RESULT = {"scores": {"p1": 1, "p2": 2, "p3": 3, "p4": 0}, "seq": 4}


@pytest.mark.parametrize(
    "change",
    [
        {"scores": None},
        {"scores": [1, 2, 3, 0]},
        {"scores": {"p1": 1, "p2": 2, "p3": 3, "p4": True}},
        {"scores": {"p1": 1, "p2": 2, "p3": 3, "p4": 0.0}},
        {"scores": {"p1": 1, "p2": 2, "p3": 3, "p4": 0, "p9": 0}},
        {"flags": {"p1": "one"}},
        {"flags": [1]},
        {"disqualified": "p1"},
        {"disqualified": ["p9"]},
        {"initials": 7},
        {"seq": None},
        {"seq": "4"},
        {"seq": True},
    ],
)
def test_a_result_that_does_not_match_the_tables_seats_is_refused(change):
    t = started()
    refused = t.refused(
        "record_result", SERVER_ACTOR, table="r1.s1.t01", **{**GOOD_RESULT, **change}
    )
    assert refused.as_dict() == refusal(
        "bad_result", "R-ROUND-7", "record_result: scores for p3, p1, p2, p4"
    )


def test_a_result_with_its_optional_parts_left_out_is_recorded_with_empty_ones():
    t = started()
    (recorded,) = t.do("record_result", SERVER_ACTOR, table="r1.s1.t01", **GOOD_RESULT)
    assert dict(recorded.data) == {
        "at": recorded.data["at"],
        "table": "r1.s1.t01",
        "scores": GOOD_RESULT["scores"],
        "flags": {},
        "disqualified": [],
        "initials": "",
        "seq": 4,
        "rule": "R-ROUND-7",
    }
    again = {**GOOD_RESULT, "seq": 5, "flags": {"p1": 1}, "disqualified": ["p1"], "initials": "AB"}
    (changed,) = t.do("record_result", SERVER_ACTOR, table="r1.s1.t01", **again)
    assert (changed.data["seq"], changed.data["initials"]) == (5, "AB")
    assert t.state.results["r1.s1.t01"].disqualified == ("p1",)
