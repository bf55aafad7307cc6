"""`t24 tournament` says what a command did in words with counts (issue 26): given a
tournament driven through the real `decide`, the words come from its views before and after
each command, as the CLI reads them (`view_at` of `seq - events` and `seq`)."""

from __future__ import annotations

from tournament_support import DIRECTOR, Tourney, csv_of, tournament_options

from clients.reference_cli.tournament_words import command_words, created_words, plural
from server.tournament.standings import view


def said(t: Tourney, command: str, **args) -> str:
    before = view(t.state, DIRECTOR)
    t.do(command, **args)
    return command_words(command, args, before, view(t.state, DIRECTOR))


def test_each_command_is_said_in_words_with_counts_and_names():
    t = Tourney(tournament_options(grades=["4th", "5th"]))
    rows = [(f"A{i}", "Hill", "4th") for i in range(4)]
    rows += [(f"C{i}", "Dale", "5th") for i in range(3)]
    words = said(t, "import_students", csv=csv_of(rows))
    assert words == "7 students imported (4 in 4th, 3 in 5th)"
    assert said(t, "register", name="Ada", school="Hill", grade="5th") == (
        "Ada (Hill, 5th) registered as p8"
    )
    assert said(t, "withdraw", student="p8") == "Ada (Hill, 5th) withdrawn"
    assert said(t, "merge_grades", grades=["4th", "5th"], section="4th & 5th") == (
        "4th and 5th play as one section: 4th & 5th"
    )
    assert said(t, "close_registration") == (
        "registration closed: 7 students in 1 section (7 in 4th & 5th)"
    )
    assert said(t, "seat_round", round=1) == "round 1 seated: 2 tables (2 in 4th & 5th)"
    a, b = t.state.round(1).tables[0].students[0], t.state.round(1).tables[1].students[0]
    words = said(t, "swap_seats", round=1, a=a, b=b)
    assert words.startswith("round 1: ") and "now sits at r1.s1.t02" in words
    assert said(t, "start_round", round=1) == (
        "round 1 started: 2 tables created (r1.s1.t01 to r1.s1.t02)"
    )
    for table in t.state.round(1).tables:
        t.table_ends(table.table, dict.fromkeys(table.students, 1))  # all tied: a tie-break?
    words = said(t, "close_round", round=1)
    assert words == "round 1 closed"  # round 1 advances nobody: no tie-break yet
    assert "events" not in words and "close_round" not in words


def test_advancing_names_who_goes_on_and_the_tie_breaks():
    t = Tourney(tournament_options(grades=["4th"], advance_count=3))
    t.register_many(7, grades=["4th"])
    t.play_round(1, lambda s: 1)
    t.do("seat_round", round=2)
    t.do("start_round", round=2)
    for table in t.state.round(2).tables:
        t.table_ends(table.table, {s: int(s[1:]) for s in table.students})
    words = said(t, "close_round", round=2)
    assert words == "round 2 closed"  # distinct totals: no tie
    assert (
        said(t, "advance", round=2) == "round 2 advanced: 3 in 4th go to the semi-finals (round 3)"
    )


def test_a_tie_break_is_said_with_the_students_names():
    t = Tourney(tournament_options(grades=["4th"], advance_count=3))
    t.register_many(7, grades=["4th"])
    t.play_round(1, lambda s: 1)
    t.do("seat_round", round=2)
    t.do("start_round", round=2)
    for table in t.state.round(2).tables:
        t.table_ends(table.table, dict.fromkeys(table.students, 1))
    words = said(t, "close_round", round=2)
    assert words.startswith("round 2 closed; 1 tie-break seated (4th: ")
    assert "4th-00 (School 0, 4th)" in words and "for 3 places)" in words


def test_created_and_plurals():
    options = tournament_options(grades=["4th"], cards_per_round=6)
    assert created_words("drill", options) == (
        "tournament drill created: Spring Challenge on 2026-03-14, 1 grade (4th), 6 cards a round"
    )
    assert plural(1, "table") == "1 table" and plural(0, "table") == "0 tables"


def test_the_champions_are_named_when_declared():
    t = Tourney(tournament_options(grades=["4th"], advance_count=4))
    t.register_many(7, grades=["4th"])
    points = lambda s: int(s[1:])  # noqa: E731 - distinct totals: p7 the best
    t.play_round(1, points)
    t.play_round(2, points)
    assert said(t, "advance", round=2) == (
        "round 2 advanced: 4 in 4th go to the semi-finals (round 3)"
    )
    t.play_round(3, points)
    words = said(t, "advance", round=3)
    assert words == "round 3 advanced; 1 champion (4th: 4th-06 (School 0, 4th))"
