"""Issue 28, items 1 and 4: every stage seats whoever is left, and tie-breaks of more than
four compare their tables fairly (R-ROUND-2..6; docs/tournament.md, decisions 11 and 12).

Given a tournament driven through the real `decide` and `evolve` (tournament_support), when
the director sends a command, then these events (or this refusal). Before: five students
left in a section (`advance_count` 5, or a grade of six with one withdrawn after the
advance) made `seat_round` raise `CannotSeat` out of `decide`, which stopped every section;
six tied students sat 4 + 2 and the table of two took the places on raw points.
"""

from __future__ import annotations

from tournament_support import Tourney, tournament_options, types

from server.tournament import ranking


def number(student: str) -> int:
    return int(student[1:])


def sizes(t: Tourney, round_number: int, section: str) -> list[int]:
    return [len(x.students) for x in t.state.round(round_number).tables if x.section == section]


def qualified(t: Tourney, points=number) -> None:
    """Rounds 1 and 2 played (pN scores N each round) and advanced."""
    t.play_round(1, points)
    t.play_round(2, points)
    t.do("advance", round=2)


# -- item 1: five, two, one or nobody left (decision 11) ----------------------------------------


def test_r_round_4_five_semi_finalists_sit_three_and_two_and_their_winners_play_a_final():
    """Given `advance_count` 5 (a valid option), when round 3 is seated, then the five sit
    3 + 2 (no table of five, no bye) and each table's winner goes to a final of two."""
    t = Tourney(tournament_options(grades=["4th"], advance_count=5))
    t.register_many(9)
    qualified(t)
    assert t.state.advanced[2]["4th"] == ("p5", "p6", "p7", "p8", "p9")
    assert types(t.do("seat_round", round=3)) == ["RoundSeated"]
    assert sizes(t, 3, "4th") == [3, 2]
    t.play_round(3, number)
    t.do("advance", round=3)
    winners = {max(x.students, key=number) for x in t.state.round(3).tables}
    assert set(t.state.advanced[3]["4th"]) == winners and t.state.champions == {}
    t.play_round(4, number)
    assert types(t.do("advance", round=4)) == ["Advanced", "TournamentFinished"]
    assert t.state.champions == {"4th": max(winners, key=number)}


def test_r_round_2_a_section_of_five_does_not_stop_the_other_sections_round_three():
    """Given the defaults, a grade of six that all advance, one of whom withdraws after the
    advance, and a grade of eight, when round 3 is seated, then both grades are seated: the
    five 3 + 2, the eight 4 + 4 (it raised `CannotSeat` for every section before)."""
    t = Tourney(tournament_options(grades=["4th", "5th"]))
    t.register_many(6, grades=["4th"])
    t.register_many(8, grades=["5th"])
    qualified(t)
    t.do("withdraw", student="p3")
    (seated,) = t.do("seat_round", round=3)
    assert seated.data["rule"] == "R-ROUND-2"
    assert (sizes(t, 3, "4th"), sizes(t, 3, "5th")) == ([3, 2], [4, 4])
    fourth = [x.students for x in t.state.round(3).tables if x.section == "4th"]
    assert sorted(s for students in fourth for s in students) == ["p1", "p2", "p4", "p5", "p6"]


def test_r_round_3_five_left_after_registration_sit_three_and_two_and_all_advance():
    """Given a grade of six with `advance_count` 3 and one withdrawn after registration
    closed, when rounds 1 and 2 are seated, then the five sit 3 + 2 (nobody can merge the
    section any more) and, since a table of two's points cannot be compared with a table of
    three's, all five advance rather than three chosen on those points."""
    t = Tourney(tournament_options(grades=["4th"], advance_count=3))
    t.register_many(6)
    t.do("close_registration")
    t.do("withdraw", student="p6")
    t.play_round(1, number)
    assert sizes(t, 1, "4th") == [3, 2]
    t.play_round(2, number)
    assert sizes(t, 2, "4th") == [3, 2]
    (advanced,) = t.do("advance", round=2)
    assert advanced.data["advancing"] == {"4th": ["p1", "p2", "p3", "p4", "p5"]}


def test_r_round_3_a_section_of_six_with_advance_count_three_still_advances_three():
    """Given the same grade with nobody withdrawn (3 + 3), then only the three highest
    advance: advancing whole is for a qualifying round that sat a table of two only."""
    t = Tourney(tournament_options(grades=["4th"], advance_count=3))
    t.register_many(6)
    qualified(t)
    assert t.state.advanced[2] == {"4th": ("p4", "p5", "p6")}


def test_r_round_5_one_student_left_in_rounds_one_and_two_plays_no_table_and_wins_by_walkover():
    """Given a grade of three and a grade of four, two of the three withdrawn after
    registration closed, then the one left sits at no table in any round, advances with no
    points and is the grade's champion at round 3 (a table needs two players)."""
    t = Tourney(tournament_options(grades=["4th", "5th"]))
    t.register_many(3, grades=["4th"])
    t.register_many(4, grades=["5th"])
    t.do("close_registration")
    t.do("withdraw", student="p1")
    t.do("withdraw", student="p2")
    qualified(t)
    assert sizes(t, 1, "4th") == [] and sizes(t, 2, "4th") == []
    assert t.state.advanced[2]["4th"] == ("p3",)
    (seated,) = t.do("seat_round", round=3)
    assert [(x["section"], sorted(x["students"])) for x in seated.data["tables"]] == [
        ("5th", ["p4", "p5", "p6", "p7"])
    ]
    t.play_round(3, number)
    assert types(t.do("advance", round=3)) == ["Advanced", "TournamentFinished"]
    assert t.state.champions == {"4th": "p3", "5th": "p7"}


def test_r_round_5_a_round_with_no_table_at_all_starts_closes_and_advances():
    """Given a single grade left with one student, when the director seats, starts, closes
    and advances round 3 as for any round, then the round has no table and the walkover
    finishes the tournament (before, a round without tables could not be started)."""
    t = Tourney(tournament_options(grades=["4th"]))
    t.register_many(3)
    qualified(t)
    t.do("withdraw", student="p1")
    t.do("withdraw", student="p2")
    assert t.do("seat_round", round=3)[0].data["tables"] == []
    assert t.do("start_round", round=3)[0].data["tables"] == []
    assert types(t.do("close_round", round=3)) == ["RoundClosed"]
    assert types(t.do("advance", round=3)) == ["Advanced", "TournamentFinished"]
    assert t.state.champions == {"4th": "p3"}
    assert t.replayed() == t.state


def test_r_round_5_a_section_whose_semi_finalists_all_withdrew_holds_nobody_up():
    """Given two grades, one of which withdraws whole after the advance, then the other's
    champion finishes the tournament; the empty grade has no champion (before, it held the
    tournament open for ever)."""
    t = Tourney(tournament_options(grades=["4th", "5th"]))
    t.register_many(4)
    qualified(t)
    for student in ("p1", "p2", "p3", "p4"):
        t.do("withdraw", student=student)
    t.play_round(3, number)
    assert types(t.do("advance", round=3)) == ["Advanced", "TournamentFinished"]
    assert t.state.champions == {"5th": "p8"}
    assert t.state.advanced[3] == {"4th": (), "5th": ("p8",)}


def test_r_round_5_a_finalist_left_alone_is_champion_by_walkover():
    """Given a final of two (two semi-final tables), when one finalist withdraws before the
    final is seated, then the final has no table and the other finalist is champion."""
    t = Tourney(tournament_options(grades=["4th"]))
    t.register_many(8)
    qualified(t)
    t.play_round(3, number)
    t.do("advance", round=3)
    first, second = t.state.advanced[3]["4th"]
    t.do("withdraw", student=first)
    assert t.do("seat_round", round=4)[0].data["tables"] == []
    t.do("start_round", round=4)
    t.do("close_round", round=4)
    assert types(t.do("advance", round=4)) == ["Advanced", "TournamentFinished"]
    assert t.state.champions == {"4th": second}


def test_r_round_4_a_withdrawn_student_at_a_semi_final_table_takes_no_place():
    """Given a semi-final table whose top scorer withdraws before the round closes, then the
    next at that table goes to the final (a withdrawal is out of every place to decide)."""
    t = Tourney(tournament_options(grades=["4th"]))
    t.register_many(8)
    qualified(t)
    t.do("seat_round", round=3)
    t.do("start_round", round=3)
    table = t.state.round(3).tables[0]
    top, *rest = sorted(table.students, key=number, reverse=True)
    for x in t.state.round(3).tables:
        t.table_ends(x.table, {s: number(s) for s in x.students})
    t.do("withdraw", student=top)
    t.do("close_round", round=3)
    t.do("advance", round=3)
    assert rest[0] in t.state.advanced[3]["4th"] and top not in t.state.advanced[3]["4th"]


def test_r_round_8_a_round_seated_before_a_changed_advance_must_be_seated_again():
    """Given round 3 seated, round 2 reopened and a late ruling that changes who advances,
    when the director starts round 3, then it is refused (`round_not_seated`) until it is
    seated again: the old seating seats a student who no longer advanced."""
    t = Tourney(tournament_options(grades=["4th"], advance_count=3))
    t.register_many(6)
    qualified(t)
    t.do("seat_round", round=3)
    t.do("reopen_round", round=2)
    table = next(x for x in t.state.round(2).tables if "p1" in x.students)
    late = {s: 100 if s == "p1" else number(s) for s in table.students}
    t.table_ends(table.table, late, seq=9)
    t.do("advance", round=2)
    assert "p1" in t.state.advanced[2]["4th"]
    refused = t.refused("start_round", round=3)
    assert (refused.code, refused.rule) == ("round_not_seated", "R-ROUND-2")
    assert "seat it again" in refused.message and "4th" in refused.message
    t.do("seat_round", round=3)
    assert types(t.do("start_round", round=3)) == ["RoundStarted"]


def test_r_round_6_a_withdrawal_from_a_seated_tie_seats_the_tie_of_the_others_at_once():
    """Given four tied for the last place and their tie-break seated, when one of them
    withdraws, then the three others' tie-break is seated with the withdrawal (no later
    command would seat it, and `advance` would wait for ever)."""
    t = Tourney(tournament_options(grades=["4th"], advance_count=3))
    t.register_many(6)
    top = {"p1": 10, "p2": 10}
    t.play_round(1, lambda s: top.get(s, 1))
    t.play_round(2, lambda s: top.get(s, 1))
    (first,) = t.state.tie_breaks
    assert sorted(first.students) == ["p3", "p4", "p5", "p6"]
    events = t.do("withdraw", student="p6")
    assert types(events) == ["StudentWithdrawn", "TieBreakSeated"]
    assert (events[1].data["students"], events[1].data["places"]) == (["p3", "p4", "p5"], 1)
    t.play_tie_breaks(number)
    t.do("advance", round=2)
    assert t.state.advanced[2]["4th"] == ("p1", "p2", "p5")


def test_r_round_6_the_winner_of_a_finished_tie_break_withdrawing_seats_the_others_again():
    """Given a tie-break played and won, when its winner withdraws before the advance, then
    the students left tied at the cut play off again, seated with the withdrawal (before,
    the advance waited for a tie-break nothing would seat: the tournament stopped)."""
    t = Tourney(tournament_options(grades=["4th"], advance_count=3))
    t.register_many(6)
    top = {"p1": 10, "p2": 10}
    t.play_round(1, lambda s: top.get(s, 1))
    t.play_round(2, lambda s: top.get(s, 1))
    t.play_tie_breaks(number)  # p6 wins the place
    events = t.do("withdraw", student="p6")
    assert types(events) == ["StudentWithdrawn", "TieBreakSeated"]
    assert events[1].data["students"] == ["p3", "p4", "p5"]
    t.play_tie_breaks(number)
    t.do("advance", round=2)
    assert t.state.advanced[2]["4th"] == ("p1", "p2", "p5")


# -- item 4: tie-breaks of more than four (decision 12) ----------------------------------------


def tied_for(places: int, tied: int) -> Tourney:
    """`tied` students tied for the last `places` places; p1, p2 above them."""
    t = Tourney(tournament_options(grades=["4th"], advance_count=2 + places))
    t.register_many(tied + 2)
    top = {"p1": 10, "p2": 10}
    t.play_round(1, lambda s: top.get(s, 1))
    t.play_round(2, lambda s: top.get(s, 1))
    return t


def test_r_round_6_six_tied_sit_three_and_three_and_each_tables_winner_takes_a_place():
    """Given six tied for two places (they sat 4 + 2 before), when the two tables of three
    end 17 / 8 / 0 and 4 / 1 / 2, then the two table winners take the places: the runner-up
    with 8 at the table that scored more does not, since points of different tables are not
    compared."""
    t = tied_for(2, 6)
    (tie,) = t.state.tie_breaks
    assert (tie.places, [len(x.students) for x in tie.tables]) == (2, [3, 3])
    (a1, a2, a3), (b1, b2, b3) = (x.students for x in tie.tables)
    t.table_ends(tie.tables[0].table, {a1: 17, a2: 8, a3: 0})
    t.table_ends(tie.tables[1].table, {b1: 4, b2: 1, b3: 2})
    assert ranking.tie_break_ranks(t.state, t.state.tie_breaks[0]) == {
        a1: 1, a2: 2, a3: 3, b1: 1, b3: 2, b2: 3
    }  # fmt: skip
    t.do("advance", round=2)
    assert set(t.state.advanced[2]["4th"]) == {"p1", "p2", a1, b1}


def test_r_round_6_more_table_winners_than_places_play_off_again_at_one_table():
    """Given nine tied for two places at three tables of three, when each table has a clear
    winner, then the three winners are level and play a second tie-break for the two places,
    at one table, seated at once; its points decide."""
    t = tied_for(2, 9)
    (tie,) = t.state.tie_breaks
    assert [len(x.students) for x in tie.tables] == [3, 3, 3]
    winners = []
    for x in tie.tables:
        ordered = sorted(x.students, key=number)
        events = t.table_ends(x.table, {s: i for i, s in enumerate(ordered)})
        winners.append(ordered[-1])
    assert types(events) == ["TableResultRecorded", "TieBreakSeated"]
    second = t.state.tie_breaks[1]
    assert (sorted(second.students), second.places) == (sorted(winners), 2)
    assert [len(x.students) for x in second.tables] == [3]
    assert t.refused("advance", round=2).code == "tie_break_pending"
    loser = min(winners, key=number)
    t.table_ends(second.tables[0].table, {s: 0 if s == loser else 5 for s in winners})
    t.do("advance", round=2)
    assert set(t.state.advanced[2]["4th"]) == {"p1", "p2", *winners} - {loser}


def test_r_round_6_students_level_at_their_own_table_share_its_rank():
    """Given six tied for two places at 3 + 3, when two tie for first at one table and the
    other has one winner, then those three share rank 1 and play off for the two places."""
    t = tied_for(2, 6)
    (tie,) = t.state.tie_breaks
    (a1, a2, a3), (b1, b2, b3) = (x.students for x in tie.tables)
    t.table_ends(tie.tables[0].table, {a1: 3, a2: 3, a3: 0})
    events = t.table_ends(tie.tables[1].table, {b1: 9, b2: 1, b3: 1})
    assert types(events) == ["TableResultRecorded", "TieBreakSeated"]
    assert sorted(events[1].data["students"]) == sorted([a1, a2, b1])
    assert events[1].data["places"] == 2


def test_r_round_6_five_tied_sit_three_and_two_compared_by_rank():
    """Given five tied for one place (3 + 2: no table of five, decision 11), when each
    table has a winner, then the two winners play off for the place at one table of two."""
    t = tied_for(1, 5)
    (tie,) = t.state.tie_breaks
    assert [len(x.students) for x in tie.tables] == [3, 2]
    for x in tie.tables:
        t.table_ends(x.table, {s: 10 * (i == 0) for i, s in enumerate(x.students)})
    second = t.state.tie_breaks[1]
    assert sorted(second.students) == sorted(x.students[0] for x in tie.tables)
    assert [len(x.students) for x in second.tables] == [2]


def test_r_round_6_a_tie_break_at_one_table_is_still_decided_by_its_points():
    """Given four tied for two places (one table), then its points order them as before."""
    t = tied_for(2, 4)
    (tie,) = t.state.tie_breaks
    (table,) = tie.tables
    t.table_ends(table.table, {"p3": 1, "p4": 7, "p5": 6, "p6": 2})
    t.do("advance", round=2)
    assert t.state.advanced[2]["4th"] == ("p1", "p2", "p4", "p5")
