"""The tournament's stages at their edges, on states written out (server/tournament/ranking.py
and rounds.py): which sections still owe a champion, which play the semi-final, when a
qualifying section advances whole (decision 11 of docs/tournament.md), when a seating no
longer matches who advanced (R-ROUND-8), and what a round that cannot close says (R-ROUND-7)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from tournament_support import DIRECTOR, T0, tournament_options

import server.tournament as tournament
from server.games.base import Command, RuleViolation
from server.tournament import ranking, rounds
from server.tournament.state import RoundState, SeatedTable, Student, TournamentState

GRADES = ["4th", "5th"]


def state_with(**fields: object) -> TournamentState:
    """A tournament of two sections (4th, 5th) with the students p1..p12 (p1..p6 in 4th)."""
    state = tournament.initial_state(tournament_options(grades=GRADES))
    students = {
        f"p{n}": Student(f"p{n}", f"Student {n}", "School", "4th" if n <= 6 else "5th")
        for n in range(1, 13)
    }
    return replace(state, students=students, registration_open=False, **fields)


def tables(number: int, *seated: tuple[str, tuple[str, ...]]) -> RoundState:
    return RoundState(
        number,
        tuple(
            SeatedTable(f"r{number}.t{i}", section, students)
            for i, (section, students) in enumerate(seated, start=1)
        ),
        seated=True,
    )


def test_a_section_nobody_advanced_from_owes_no_champion_and_the_next_still_does():
    state = state_with(advanced={2: {"4th": (), "5th": ("p7", "p8", "p9")}})
    assert ranking.sections_owed_a_champion(state) == {"5th"}


def test_after_the_semi_a_section_decided_there_is_passed_over_not_the_ones_after_it():
    """4th: nobody left at its semi-final (no table: decided there, no champion); 5th: two
    semi-final tables, so its final is still owed."""
    semi = tables(3, ("5th", ("p7", "p8", "p9")), ("5th", ("p10", "p11", "p12")))
    state = state_with(
        rounds={3: semi},
        advanced={2: {"4th": ("p1",), "5th": ("p7", "p10")}, 3: {"4th": (), "5th": ("p7", "p10")}},
    )
    assert ranking.sections_owed_a_champion(state) == {"5th"}


def test_a_section_of_two_semi_tables_whose_winners_all_withdrew_owes_nothing():
    semi = tables(3, ("5th", ("p7", "p8", "p9")), ("5th", ("p10", "p11", "p12")))
    state = state_with(
        rounds={3: semi},
        advanced={2: {"4th": ("p1",), "5th": ("p7", "p10")}, 3: {"5th": ()}},
        champions={"4th": "p1"},
    )
    assert ranking.sections_owed_a_champion(state) == set()


def test_only_sections_someone_advanced_from_play_the_semi_final():
    state = state_with(advanced={2: {"4th": (), "5th": ("p7", "p8", "p9")}})
    assert ranking._stage_sections(state, 3) == ["5th"]


def test_a_table_of_two_in_round_1_alone_makes_the_section_advance_whole_decision_11():
    first = tables(1, ("4th", ("p1", "p2", "p3")), ("4th", ("p4", "p5")))
    second = tables(2, ("4th", ("p1", "p2", "p4", "p5")))
    state = state_with(rounds={1: first, 2: second})
    assert ranking._advances_whole(state, "4th") is True
    assert ranking._advances_whole(state, "5th") is False
    both_whole = state_with(rounds={1: tables(1, ("4th", ("p1", "p2", "p3", "p4"))), 2: second})
    assert ranking._advances_whole(both_whole, "4th") is False


def test_a_section_seated_at_no_table_is_outdated_once_two_have_advanced_R_ROUND_8():
    state = state_with(
        rounds={3: tables(3, ("5th", ("p7", "p8", "p9")))},
        advanced={2: {"4th": ("p1", "p2"), "5th": ("p7", "p8", "p9")}},
    )
    assert rounds._outdated_sections(state, 3) == ["4th"]
    one = replace(state, advanced={2: {"4th": ("p1",), "5th": ("p7", "p8", "p9")}})
    assert rounds._outdated_sections(one, 3) == []


def test_closing_a_round_names_the_tables_without_a_result_and_why_one_was_not_created():
    """The director reads which tables have no result and why the shell could not create one
    (`TableCreationFailed`), not a bare list of ids."""
    first = replace(
        tables(1, ("4th", ("p1", "p2", "p3")), ("4th", ("p4", "p5", "p6"))), started=True
    )
    state = state_with(rounds={1: first}, not_created={"r1.t1": "the hub refused it"})
    with pytest.raises(RuleViolation) as refused:
        tournament.decide(state, Command("close_round", {"round": 1}, DIRECTOR), T0)
    assert refused.value.as_dict() == {
        "code": "tables_unsigned",
        "rule": "R-ROUND-7",
        "message": (
            "close_round: no final result yet at r1.t1 (not created: the hub refused it), r1.t2"
        ),
    }


def test_a_semi_final_seated_before_a_reopen_names_every_section_to_seat_again_R_ROUND_8():
    semi = tables(3, ("4th", ("p1", "p2", "p3")), ("5th", ("p7", "p8", "p9")))
    state = state_with(
        rounds={2: RoundState(2, seated=True, started=True, closed=True, advanced=True), 3: semi},
        advanced={2: {"4th": ("p1", "p2", "p4"), "5th": ("p7", "p8", "p10")}},
    )
    with pytest.raises(RuleViolation) as refused:
        tournament.decide(state, Command("start_round", {"round": 3}, DIRECTOR), T0)
    assert (refused.value.code, refused.value.message) == (
        "round_not_seated",
        "start_round: round 3 was seated before round 2 was advanced again and no longer seats"
        " who advanced (4th, 5th): seat it again",
    )
