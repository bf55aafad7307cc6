"""Advancement, ties, score cards and late rulings (R-ROUND-3..8, R-FLAG-4)."""

from __future__ import annotations

from tournament_support import Recorded, Tourney, tournament_options, types

from server.tournament import ranking
from server.tournament.standings import score_cards, standings


def one_grade(count: int, **more) -> Tourney:
    t = Tourney(tournament_options(grades=["4th"], **more))
    t.register_many(count)
    return t


def number(student: str) -> int:
    return int(student[1:])


def through_round_two(t: Tourney, points) -> None:
    t.play_round(1, points)
    t.play_round(2, points)


def test_r_round_3_rounds_one_and_two_add_up_and_the_sixteen_highest_advance():
    t = one_grade(20)
    through_round_two(t, number)  # student pN scores N each round: p5..p20 are the top 16
    event = t.do("advance", round=2)[0]
    assert event.type == "Advanced" and event.data["rule"] == "R-ROUND-3"
    assert sorted(event.data["advancing"]["4th"], key=number) == [f"p{i}" for i in range(5, 21)]
    rows = {row["student"]: row for row in standings(t.state)["4th"]["qualifying"]}
    assert rows["p20"]["total"] == 40 and rows["p20"]["rank"] == 1
    assert rows["p5"]["advanced"] == "top" and rows["p4"]["advanced"] == "eliminated"


def test_r_round_3_fewer_than_sixteen_all_advance_and_sit_four_to_a_semi_final_table():
    t = one_grade(10)
    through_round_two(t, number)
    advancing = t.do("advance", round=2)[0].data["advancing"]["4th"]
    assert len(advancing) == 10
    t.do("seat_round", round=3)
    assert [len(table.students) for table in t.state.round(3).tables] == [4, 3, 3]


def test_r_round_3_sixteen_semi_finalists_sit_four_to_a_table():
    t = one_grade(20)
    through_round_two(t, number)
    t.do("advance", round=2)
    t.do("seat_round", round=3)
    assert [len(table.students) for table in t.state.round(3).tables] == [4, 4, 4, 4]


def test_r_flag_4_a_disqualified_student_keeps_their_points_and_may_advance():
    t = one_grade(20)
    t.do("close_registration")
    t.do("seat_round", round=1)
    t.do("start_round", round=1)
    for table in t.state.round(1).tables:
        scores = {s: number(s) for s in table.students}
        out = ["p1"] if "p1" in table.students else []
        if out:
            scores["p1"] = 60  # won many cards, then drew three flags
        t.table_ends(table.table, scores, disqualified=out, flags={s: 3 for s in out})
    t.do("close_round", round=1)
    t.play_round(2, number)
    assert "p1" in t.do("advance", round=2)[0].data["advancing"]["4th"]


def tie_at_the_cut(student: str) -> int:
    """p4 and p5 both total 10: one place left for two students (R-ROUND-3 decision)."""
    return 5 if student == "p4" else number(student)


def test_r_round_6_a_tie_for_the_last_place_is_played_off_and_advance_waits_for_it():
    t = one_grade(20)
    t.play_round(1, tie_at_the_cut)
    t.do("seat_round", round=2)
    t.do("start_round", round=2)
    tables = t.state.round(2).tables
    for table in tables[:-1]:
        t.table_ends(table.table, {s: tie_at_the_cut(s) for s in table.students})
    last = tables[-1]
    assert t.refused("close_round", round=2).code == "tables_unsigned"
    t.table_ends(last.table, {s: tie_at_the_cut(s) for s in last.students})
    events = t.do("close_round", round=2)
    assert types(events) == ["RoundClosed", "TieBreakSeated"]
    tie = events[1].data
    assert (tie["students"], tie["places"], tie["rule"]) == (["p4", "p5"], 1, "R-ROUND-6")
    assert [len(table["students"]) for table in tie["tables"]] == [2]  # two seats allowed
    assert t.refused("advance", round=2).code == "tie_break_pending"
    t.table_ends(tie["tables"][0]["table"], {"p4": 3, "p5": 1})
    advancing = t.do("advance", round=2)[0].data["advancing"]["4th"]
    assert "p4" in advancing and "p5" not in advancing
    rows = {row["student"]: row for row in standings(t.state)["4th"]["qualifying"]}
    assert rows["p4"]["advanced"] == "tie_break 1" and rows["p4"]["rank"] == rows["p5"]["rank"]


def test_r_round_6_a_tie_break_still_tied_is_played_again():
    t = one_grade(20)
    through_round_two(t, tie_at_the_cut)
    first = t.state.tie_breaks[0]
    again = t.table_ends(first.tables[0].table, {"p4": 2, "p5": 2})
    assert types(again) == ["TableResultRecorded", "TieBreakSeated"]
    second = again[1].data
    assert second["number"] == 2 and second["students"] == ["p4", "p5"]
    assert t.refused("advance", round=2).code == "tie_break_pending"
    t.table_ends(second["tables"][0]["table"], {"p4": 0, "p5": 1})
    advancing = t.do("advance", round=2)[0].data["advancing"]["4th"]
    assert "p5" in advancing and "p4" not in advancing


def test_r_round_6_ties_that_decide_nothing_are_shown_as_ties_and_not_played_off():
    t = one_grade(20)
    through_round_two(t, lambda s: 3 if number(s) > 4 else 1)  # 16 tied first, 4 tied last
    assert t.state.tie_breaks == ()
    rows = standings(t.state)["4th"]["qualifying"]
    assert {row["rank"] for row in rows} == {1, 17}
    assert len(t.do("advance", round=2)[0].data["advancing"]["4th"]) == 16


def test_r_round_6_tie_break_tables_play_a_timed_round_on_a_fresh_deck_of_the_same_edition():
    from server.tournament.tables import table_options_for

    t = one_grade(20)
    through_round_two(t, tie_at_the_cut)
    table = t.state.tie_breaks[0].tables[0].table
    options = table_options_for(t.state, table)
    assert options["round_seconds"] == 300 and options["min_seats"] == 2
    round_two = {card["card_id"] for card in t.state.round(2).deck}
    fresh = {card["card_id"] for card in options["deck"]}
    assert not fresh & round_two and len(fresh) == 48
    side_numbers = [card["numbers"] for card in options["deck"]]
    assert all(max(numbers) <= 9 for numbers in side_numbers)  # half 1: Single Digits


def semi_points(student: str) -> int:
    return 100 - number(student)  # the lowest totals do best in the face-off


def test_r_round_4_only_round_three_points_count_and_each_semi_table_winner_goes_on():
    t = one_grade(20)
    through_round_two(t, number)
    t.do("advance", round=2)
    t.play_round(3, semi_points)
    event = t.do("advance", round=3)[0]
    assert event.data["rule"] == "R-ROUND-4"
    finalists = event.data["advancing"]["4th"]
    expected = [min(table.students, key=number) for table in t.state.round(3).tables]
    assert sorted(finalists) == sorted(expected)
    t.do("seat_round", round=4)
    assert [sorted(table.students) for table in t.state.round(4).tables] == [sorted(finalists)]


def test_r_round_5_the_final_highest_is_champion_and_the_tournament_ends():
    t = one_grade(20)
    through_round_two(t, number)
    t.do("advance", round=2)
    t.play_round(3, semi_points)
    t.do("advance", round=3)
    finalists = t.state.round(4).tables or None
    assert finalists is None
    t.play_round(4, number)
    events = t.do("advance", round=4)
    assert types(events) == ["Advanced", "TournamentFinished"]
    final = t.state.round(4).tables[0].students
    assert events[0].data["champions"] == {"4th": max(final, key=number)}
    assert t.state.finished
    assert t.refused("seat_round", round=4).code == "tournament_over"


def test_r_round_5_a_tie_for_champion_is_played_off_but_second_place_ties_are_shown():
    t = one_grade(20)
    through_round_two(t, number)
    t.do("advance", round=2)
    t.play_round(3, semi_points)
    t.do("advance", round=3)
    t.do("seat_round", round=4)
    final = sorted(t.state.round(4).tables[0].students, key=number)
    scores = {final[0]: 9, final[1]: 9, final[2]: 4, final[3]: 4}
    t.do("start_round", round=4)
    t.table_ends(t.state.round(4).tables[0].table, scores)
    events = t.do("close_round", round=4)
    assert types(events) == ["RoundClosed", "TieBreakSeated"]
    assert sorted(events[1].data["students"]) == sorted(final[:2])
    t.play_tie_breaks(lambda s: 5 if s == final[1] else 0)
    assert t.do("advance", round=4)[0].data["champions"] == {"4th": final[1]}
    rows = standings(t.state)["4th"]["final"][0]["rows"]
    ranks = {row["student"]: row["rank"] for row in rows}
    assert ranks[final[2]] == ranks[final[3]] == 3


def test_r_round_5_a_section_with_one_semi_final_table_has_its_champion_there():
    t = one_grade(4)
    through_round_two(t, number)
    t.do("advance", round=2)
    t.play_round(3, number)
    events = t.do("advance", round=3)
    assert events[0].data["champions"] == {"4th": "p4"}
    assert types(events) == ["Advanced", "TournamentFinished"]


def test_r_round_7_the_score_card_shows_each_round_points_flags_and_the_proctors_initials():
    t = one_grade(8)
    t.do("close_registration")
    t.do("seat_round", round=1)
    t.do("start_round", round=1)
    table = t.state.round(1).tables[0]
    t.do("assign_proctor", table=table.table, name="Grace Hopper")
    scores = {s: number(s) for s in table.students}
    signed = Recorded(
        "ScoreCardSigned",
        {"initials": "GH", "scores": scores, "flags": {table.students[0]: 2}, "disqualified": []},
        60,
    )
    t.streams[table.table] = [signed]
    from server.tournament.results import table_result

    t.do("record_result", _server(), table=table.table, **table_result([signed]))
    card = score_cards(t.state)[table.students[0]]
    assert card == [
        {
            "round": 1,
            "tie_break": None,
            "table": table.table,
            "points": number(table.students[0]),
            "flags": 2,
            "disqualified": False,
            "initials": "GH",
            "proctor": "Grace Hopper",
        }
    ]


def _server():
    from server.games.base import SERVER_ACTOR

    return SERVER_ACTOR


def test_r_round_8_a_late_ruling_changes_who_advances_until_advance_then_needs_a_reopen():
    t = one_grade(20)
    through_round_two(t, number)
    table = next(x for x in t.state.round(2).tables if "p4" in x.students)
    corrected = {s: number(s) for s in table.students} | {"p4": 30}  # a protest upheld
    t.table_ends(table.table, corrected, seq=80)
    assert "p4" in t.do("advance", round=2)[0].data["advancing"]["4th"]
    again = {s: number(s) for s in table.students}
    code = t.refused(
        "record_result", _server(), table=table.table, scores=again, seq=90, flags={}
    ).code
    assert code == "round_advanced"
    assert types(t.do("reopen_round", round=2)) == ["RoundReopened"]
    t.table_ends(table.table, again, seq=90)
    assert "p4" not in t.do("advance", round=2)[0].data["advancing"]["4th"]
    t.do("seat_round", round=3)
    t.do("start_round", round=3)
    assert t.refused("reopen_round", round=2).code == "next_round_started"
    assert t.refused("reopen_round", round=3).code == "not_advanced"


def test_close_round_advance_and_record_result_refusals():
    t = one_grade(8)
    t.do("close_registration")
    assert t.refused("close_round", round=1).code == "round_not_started"
    t.play_round(1, number)
    assert t.refused("close_round", round=1).code == "round_closed"
    assert t.refused("advance", round=1).code == "nothing_to_advance"
    assert t.refused("advance", round=2).code == "round_not_closed"
    table = t.state.round(1).tables[0]
    scores = {s: number(s) for s in table.students}
    assert t.refused(
        "record_result", _server(), table=table.table, scores={"p1": 1}, seq=1
    ).code == ("bad_result")
    recorded = t.state.results[table.table]
    assert t.refused(
        "record_result", _server(), table=table.table, scores=scores, seq=recorded.seq
    ).code == ("result_unchanged")
    t.play_round(2, number)
    t.do("advance", round=2)
    assert t.refused("advance", round=2).code == "already_advanced"


def test_pending_ties_are_listed_only_for_places_that_matter():
    t = one_grade(20)
    through_round_two(t, tie_at_the_cut)
    pending = ranking.pending_ties(t.state, 2)
    assert [(p.students, p.places, p.seated) for p in pending] == [(("p4", "p5"), 1, True)]


def test_record_result_refuses_a_malformed_result_without_crashing():
    t = one_grade(4)
    t.do("close_registration")
    t.do("seat_round", round=1)
    t.do("start_round", round=1)
    table = t.state.round(1).tables[0]
    good = {s: 1 for s in table.students}
    for junk in (
        {"scores": good, "seq": "7"},
        {"scores": good, "seq": True},
        {"scores": {s: "1" for s in table.students}, "seq": 7},
        {"scores": good, "seq": 7, "flags": {"p1": None}},
        {"scores": good, "seq": 7, "disqualified": ["nobody"]},
        {"scores": good, "seq": 7, "disqualified": [["p1"]]},  # issue 18: was a TypeError
        {"scores": good, "seq": 7, "initials": 5},
        {"scores": [1, 2], "seq": 7},
    ):
        assert t.refused("record_result", _server(), table=table.table, **junk).code == (
            "bad_result"
        )


def test_r_round_5_withdrawn_semi_finalists_do_not_sit_and_the_last_one_wins_by_walkover():
    """Decision 11: one student left of a section's semi-finalists sits at no table and is
    its champion when round 3 advances (it was refused `cannot_seat` before: a stop)."""
    t = one_grade(4)
    through_round_two(t, number)
    t.do("advance", round=2)
    t.do("withdraw", student="p1")
    t.do("seat_round", round=3)
    assert sorted(t.state.round(3).tables[0].students) == ["p2", "p3", "p4"]
    t.do("withdraw", student="p2")
    t.do("withdraw", student="p3")
    assert t.do("seat_round", round=3)[0].data["tables"] == []
    t.do("start_round", round=3)
    t.do("close_round", round=3)
    assert types(t.do("advance", round=3)) == ["Advanced", "TournamentFinished"]
    assert t.state.champions == {"4th": "p4"}


def test_r_round_5_a_grade_nobody_registered_for_does_not_hold_the_tournament_open():
    t = Tourney(tournament_options(grades=["4th", "5th"]))
    t.register_many(4, grades=["4th"])
    through_round_two(t, number)
    t.do("advance", round=2)
    t.play_round(3, number)
    assert types(t.do("advance", round=3)) == ["Advanced", "TournamentFinished"]
    assert t.state.champions == {"4th": "p4"}


def test_r_round_8_reopening_the_round_that_named_a_champion_takes_the_title_back():
    """A section whose semi-final table is its last (R-ROUND-5) has its champion at round 3
    while a bigger one plays on; reopening round 3 (a late ruling) forgets who advanced from
    it and that champion."""
    t = Tourney(tournament_options(grades=["4th", "5th"]))
    t.register_many(4, grades=["4th"])
    t.register_many(20, grades=["5th"])
    through_round_two(t, number)
    t.do("advance", round=2)
    t.play_round(3, number)
    t.do("advance", round=3)
    assert list(t.state.champions) == ["4th"] and 3 in t.state.advanced
    (reopened,) = t.do("reopen_round", round=3)
    assert (reopened.type, dict(reopened.data)) == (
        "RoundReopened",
        {"at": reopened.data["at"], "round": 3, "sections": ["4th"], "rule": "R-ROUND-8"},
    )
    assert t.state.champions == {} and 3 not in t.state.advanced and 2 in t.state.advanced
    assert t.state.round(3).advanced is False and t.state.round(2).advanced is True
    assert t.replayed() == t.state
