"""The tournament's pure helpers at their edges: table sizes for every small count, how a big
tie is split into tie-break tables, competition ranks, a tie-break's seed, `take` with no
places or more places than students, the table names, and seating rounds 3 and 4 after
withdrawals (R-ROUND-2..6).

Why: the property tests check that these hold together on random tournaments; a size off by
one or a rank repeated wrongly passes many of them (issue 20).
"""

from __future__ import annotations

import pytest
from tournament_support import Tourney, tournament_options, types

from server.tournament import decks, ranking, seating, tables


@pytest.mark.parametrize(
    ("count", "sizes"),
    [
        (3, [3]),
        (4, [4]),
        (6, [3, 3]),
        (7, [4, 3]),
        (8, [4, 4]),
        (9, [3, 3, 3]),
        (10, [4, 3, 3]),
        (11, [4, 4, 3]),
        (12, [4, 4, 4]),
        (13, [4, 3, 3, 3]),
    ],
)
def test_table_sizes_three_or_four_the_larger_first(count, sizes):
    assert seating.table_sizes(count) == sizes


@pytest.mark.parametrize("count", [-1, 0, 1, 2, 5])
def test_counts_that_cannot_sit_are_refused_with_the_count(count):
    with pytest.raises(seating.CannotSeat) as caught:
        seating.table_sizes(count)
    assert str(caught.value) == f"{count} students cannot sit 3 or 4 to a table"


def test_repeated_pairs_counts_pairs_who_meet_again():
    assert seating.repeated_pairs([["a", "b", "c"]], [["a", "b"], ["c", "d"]]) == 1
    assert seating.repeated_pairs([["a", "b", "c"]], [["a", "b", "c"]]) == 3
    assert seating.repeated_pairs([["a", "b"]], [["a", "c"], ["b", "d"]]) == 0


@pytest.mark.parametrize(
    ("points", "ranks"),
    [
        ({}, {}),
        ({"a": 5}, {"a": 1}),
        ({"a": 5, "b": 3, "c": 3, "d": 1}, {"a": 1, "b": 2, "c": 2, "d": 4}),
        ({"a": 2, "b": 2, "c": 2}, {"a": 1, "b": 1, "c": 1}),
        ({"a": 0, "b": 7}, {"b": 1, "a": 2}),
    ],
)
def test_competition_ranks_share_a_rank_and_skip_after_it(points, ranks):
    assert ranking.rank_with_ties(points) == ranks


def test_take_with_no_place_or_room_for_all():
    state = Tourney().state
    none = ranking.take(state, 2, "4th", ["a", "b"], 0, {"a": 1, "b": 2})
    assert none == ranking.Outcome(frozenset(), None, ())
    everyone = ranking.take(state, 2, "4th", ["a", "b"], 2, {"a": 1, "b": 2})
    assert everyone == ranking.Outcome(frozenset({"a", "b"}), None, ())
    top = ranking.take(state, 2, "4th", ["a", "b", "c"], 1, {"a": 1, "b": 2, "c": 0})
    assert top == ranking.Outcome(frozenset({"b"}), None, ())
    tied = ranking.take(state, 2, "4th", ["a", "b", "c"], 2, {"a": 1, "b": 2, "c": 1})
    assert tied == ranking.Outcome(
        frozenset({"b"}), ranking.Pending(2, "4th", ("a", "c"), 1, False), ()
    )


def test_tie_break_seeds_and_names():
    assert decks.TIE_BREAK_SEED_STRIDE == 1_000_003
    assert decks.tie_break_seed(24, 1) == 1_000_027
    assert decks.tie_break_seed(2**31 - 1, 1) == 1_000_002
    assert tables.round_table_name(2, 3, 4) == "r2.s3.t04"
    assert tables.round_table_name(1, 1, 12) == "r1.s1.t12"
    assert tables.tie_break_table_name(4, 1) == "tb4.t1"
    assert tables.table_id("spring", "r1.s1.t01") == "spring.r1.s1.t01"


@pytest.mark.parametrize(
    ("tied", "sizes"),
    [(2, [2]), (4, [4]), (5, [3, 2]), (6, [3, 3]), (7, [4, 3]), (8, [4, 4]), (9, [3, 3, 3])],
)
def test_r_round_6_a_tie_of_many_students_is_split_into_tables_of_three_or_four(tied, sizes):
    """R-ROUND-6: everyone tied for the last place plays off: four or fewer at one table,
    more 3 or 4 to a table (R-ROUND-2), five 3 + 2 (decision 12; was 4 + 2 for six)."""
    t = Tourney(tournament_options(grades=["4th"], advance_count=3))
    t.register_many(tied + 2)
    top = {"p1": 10, "p2": 10}  # two places taken; the rest tie for the last one
    t.play_round(1, lambda s: top.get(s, 1))
    t.play_round(2, lambda s: top.get(s, 1))
    (tie,) = t.state.tie_breaks
    assert [len(table.students) for table in tie.tables] == sizes
    assert [table.table for table in tie.tables] == [f"tb1.t{i}" for i in range(1, len(sizes) + 1)]
    assert (tie.places, len(tie.students)) == (1, tied)


def test_r_round_2_a_semi_final_of_two_after_withdrawals_sits_at_one_table_and_one_at_none():
    """Decision 11: two left sit at one table; one left sits at none (a walkover), where the
    seating was refused before (`cannot_seat`), which stopped every section's round 3."""
    t = Tourney(tournament_options(grades=["4th"], advance_count=3))
    t.register_many(6)
    t.play_round(1, lambda s: int(s[1:]))
    t.play_round(2, lambda s: int(s[1:]))
    advancing = t.do("advance", round=2)[0].data["advancing"]["4th"]
    assert advancing == ["p4", "p5", "p6"]
    t.do("withdraw", student="p6")
    (seated,) = t.do("seat_round", round=3)
    assert seated.data["tables"] == [
        {"table": "r3.s1.t01", "section": "4th", "students": ["p4", "p5"]}
    ]
    t2 = Tourney(tournament_options(grades=["4th"], advance_count=3))
    t2.register_many(6)
    t2.play_round(1, lambda s: int(s[1:]))
    t2.play_round(2, lambda s: int(s[1:]))
    t2.do("advance", round=2)
    t2.do("withdraw", student="p6")
    t2.do("withdraw", student="p5")
    (seated,) = t2.do("seat_round", round=3)
    assert seated.data["tables"] == []


def test_a_section_with_a_champion_after_the_semi_final_plays_no_final():
    """R-ROUND-5: one semi-final table decides its section; the other section plays a final."""
    t = Tourney(tournament_options(grades=["4th", "5th"]))
    t.register_many(3, grades=["4th"])
    t.register_many(8, grades=["5th"])
    for number in (1, 2):
        t.play_round(number, lambda s: int(s[1:]))
    t.do("advance", round=2)
    t.play_round(3, lambda s: int(s[1:]))
    events = t.do("advance", round=3)
    assert types(events) == ["Advanced"]
    assert events[0].data["champions"] == {"4th": "p3"}
    (seated,) = t.do("seat_round", round=4)
    assert [table["section"] for table in seated.data["tables"]] == ["5th"]
    assert seated.data["tables"][0]["table"] == "r4.s2.t01"
    t.do("start_round", round=4)
    (final,) = t.state.round(4).tables
    t.table_ends(final.table, {s: int(s[1:]) for s in final.students})
    t.do("close_round", round=4)
    events = t.do("advance", round=4)
    assert types(events) == ["Advanced", "TournamentFinished"]
    assert (events[0].data["rule"], events[0].data["champions"]) == ("R-ROUND-5", {"5th": "p11"})
    assert events[1].data["champions"] == {"4th": "p3", "5th": "p11"}


def _seated() -> Tourney:
    t = Tourney(tournament_options(grades=["4th"]))
    t.register_many(4)
    t.do("close_registration")
    t.do("seat_round", round=1)
    return t


@pytest.mark.parametrize(
    ("given", "initials"),
    [(None, "GMH"), ("", "GMH"), ("ABCDEFGH", "ABCDEFGH"), ("X", "X")],
)
def test_a_proctors_initials_are_given_1_to_8_or_taken_from_the_name(given, initials):
    t = _seated()
    args = {"table": "r1.s1.t01", "name": "gil m hart"}
    if given is not None:
        args["initials"] = given
    (assigned,) = t.do("assign_proctor", **args)
    assert assigned.data["initials"] == initials
    assert t.state.proctors == {"r1.s1.t01": {"name": "gil m hart", "initials": initials}}


def test_an_import_records_its_source_and_continues_the_ids():
    t = Tourney(tournament_options(grades=["4th"]))
    t.do("register", name="Ada", school="Hill", grade="4th")
    (imported,) = t.do("import_students", csv="grade,name,school\n4th, Bo ,Dale\n\n4th,Cy,Dale\n")
    assert dict(imported.data) == {
        "at": imported.data["at"],
        "students": [
            {"student": "p2", "name": "Bo", "school": "Dale", "grade": "4th"},
            {"student": "p3", "name": "Cy", "school": "Dale", "grade": "4th"},
        ],
        "source": "csv",
    }


def test_reopening_a_semi_final_that_crowned_a_champion_takes_the_title_back():
    """R-ROUND-8: a reopened round decides again, so the champion it named is no longer one."""
    t = Tourney(tournament_options(grades=["4th", "5th"]))
    t.register_many(3, grades=["4th"])
    t.register_many(8, grades=["5th"])
    for number in (1, 2):
        t.play_round(number, lambda s: int(s[1:]))
    t.do("advance", round=2)
    t.play_round(3, lambda s: int(s[1:]))
    t.do("advance", round=3)
    assert t.state.champions == {"4th": "p3"}
    (reopened,) = t.do("reopen_round", round=3)
    assert dict(reopened.data) == {
        "at": reopened.data["at"],
        "round": 3,
        "sections": ["4th"],
        "rule": "R-ROUND-8",
    }
    assert t.state.champions == {} and 3 not in t.state.advanced
    assert not t.state.round(3).advanced and t.state.round(2).advanced
    assert t.replayed() == t.state


def test_a_tables_result_is_its_last_signature_and_none_before_one():
    """R-ROUND-7: an ended table without a signed score card has no result yet; after a
    ruling the card is signed again and the last signature is the result."""
    from tournament_support import Recorded

    from server.tournament.results import table_result

    assert table_result([]) is None
    assert table_result([Recorded("RoundEnded", {"scores": {"p1": 3}}, 5)]) is None
    first = Recorded("ScoreCardSigned", {"scores": {"p1": 3}, "initials": "GH"}, 6)
    second = Recorded(
        "ScoreCardSigned",
        {
            "scores": {"p1": 2, "p2": 1},
            "flags": {"p2": 1},
            "disqualified": ["p2"],
            "initials": "JK",
        },
        9,
    )
    assert table_result([first]) == {
        "scores": {"p1": 3},
        "flags": {},
        "disqualified": [],
        "initials": "GH",
        "seq": 6,
    }
    assert table_result([first, Recorded("RulingMade", {}, 7), second]) == {
        "scores": {"p1": 2, "p2": 1},
        "flags": {"p2": 1},
        "disqualified": ["p2"],
        "initials": "JK",
        "seq": 9,
    }
    bare = Recorded("ScoreCardSigned", {}, 3)
    assert table_result([bare]) == {
        "scores": {},
        "flags": {},
        "disqualified": [],
        "initials": "",
        "seq": 3,
    }


def test_a_section_that_withdrew_whole_after_round_one_needs_no_champion():
    """R-ROUND-5: the tournament is over when every section still in play has a champion; a
    section whose students all withdrew after round 1 has nobody left to crown."""
    t = Tourney(tournament_options(grades=["4th", "5th"]))
    t.register_many(3)  # p1..p3 in 4th, p4..p6 in 5th
    t.play_round(1, lambda s: int(s[1:]))
    for student in ("p4", "p5", "p6"):
        t.do("withdraw", student=student)
    t.play_round(2, lambda s: int(s[1:]))
    advanced = t.do("advance", round=2)
    assert advanced[0].data["advancing"] == {"4th": ["p1", "p2", "p3"], "5th": []}
    t.play_round(3, lambda s: int(s[1:]))
    events = t.do("advance", round=3)
    assert types(events) == ["Advanced", "TournamentFinished"]
    assert events[1].data["champions"] == {"4th": "p3"}


def test_a_swap_of_seats_is_recorded_whole():
    t = Tourney(tournament_options(grades=["4th"]))
    t.register_many(8)
    t.do("close_registration")
    t.do("seat_round", round=1)
    first, second = t.state.round(1).tables
    a, b = first.students[0], second.students[0]
    (swapped,) = t.do("swap_seats", round=1, a=a, b=b)
    assert dict(swapped.data) == {
        "at": swapped.data["at"],
        "round": 1,
        "a": a,
        "b": b,
        "rule": "R-ROUND-2",
    }


def test_a_round_table_of_three_keeps_the_tables_own_minimum():
    """Only a table of two needs `min_seats` 2; three is the challenge table's own minimum."""
    from server.tournament.tables import table_options_for

    t = Tourney(tournament_options(grades=["4th"]))
    t.register_many(6)
    t.do("close_registration")
    t.do("seat_round", round=1)
    t.do("start_round", round=1)
    for table in t.state.round(1).tables:
        assert len(table.students) == 3
        assert "min_seats" not in table_options_for(t.state, table.table)


def test_the_official_rounds_play_one_editions_96_cards_from_the_tournaments_seed_R_DECK_1():
    """R-DECK-1/5: both halves of the Official Rules' deck come from the tournament's own
    seed, of the edition it names (Single Digits unless `edition` says Double Digits)."""
    from server.puzzles.editions import double_digits, single_digits
    from server.tournament.options import tournament_options as read_options

    for edition, cards in ((None, single_digits), ("double-digits", double_digits)):
        options = read_options(tournament_options(edition=edition))
        played = {
            number: {card["card_id"] for card in decks.round_cards(options, number)}
            for number in (1, 2, 3, 4)
        }
        assert played[1] == played[2] == {card.card_id for card in cards(24, 1)}
        assert played[3] == played[4] == {card.card_id for card in cards(24, 2)}


def test_a_reopen_in_a_foreign_log_of_a_round_not_advanced_or_without_sections():
    """`evolve` never fails on a recorded log: a `RoundReopened` of a round that was not
    advanced, or one recorded before `sections` was, keeps what it cannot undo."""
    import server.tournament as tournament
    from server.games.base import Event

    t = Tourney(tournament_options(grades=["4th"]))
    state = tournament.evolve(t.state, Event("RoundReopened", {"round": 2}))
    assert state.advanced == {} and not state.round(2).advanced
    crowned = tournament.evolve(
        t.state,
        Event("Advanced", {"round": 3, "advancing": {"4th": ["p1"]}, "champions": {"4th": "p1"}}),
    )
    reopened = tournament.evolve(crowned, Event("RoundReopened", {"round": 3}))
    assert reopened.champions == {"4th": "p1"} and 3 not in reopened.advanced


def test_a_score_card_line_whole_with_flags_left_out_and_a_disqualification():
    """R-ROUND-7: a student's score card shows each table's points, flags (none recorded: 0),
    disqualification, the signature's initials and the proctor."""
    from server.games.base import SERVER_ACTOR
    from server.tournament.standings import score_cards

    t = _seated()
    (table,) = t.state.round(1).tables
    assert score_cards(t.state)["p1"] == [
        {
            "round": 1,
            "tie_break": None,
            "table": table.table,
            "points": None,
            "flags": None,
            "disqualified": False,
            "initials": None,
            "proctor": None,
        }
    ]
    t.do("assign_proctor", table=table.table, name="Gil Hart")
    t.do("start_round", round=1)
    scores = {"p1": 4, "p2": 2, "p3": 1, "p4": 0}
    t.do(
        "record_result",
        SERVER_ACTOR,
        table=table.table,
        scores=scores,
        flags={"p2": 3},
        disqualified=["p2"],
        initials="GH",
        seq=7,
    )
    cards = score_cards(t.state)
    line = {"round": 1, "tie_break": None, "table": table.table, "initials": "GH"}
    assert cards["p1"] == [
        {**line, "points": 4, "flags": 0, "disqualified": False, "proctor": "Gil Hart"}
    ]
    assert cards["p2"] == [
        {**line, "points": 2, "flags": 3, "disqualified": True, "proctor": "Gil Hart"}
    ]


def test_the_semi_finals_of_every_section_in_the_standings():
    """R-ROUND-4: each section lists its own semi-final tables, whatever the order of sections."""
    from server.tournament.standings import standings

    t = Tourney(tournament_options(grades=["4th", "5th"]))
    t.register_many(3, grades=["4th"])
    t.register_many(8, grades=["5th"])
    for number in (1, 2):
        t.play_round(number, lambda s: int(s[1:]))
    t.do("advance", round=2)
    t.play_round(3, lambda s: int(s[1:]))
    table_names = {
        section: [table["table"] for table in standings(t.state)[section]["semi_final"]]
        for section in ("4th", "5th")
    }
    assert table_names == {"4th": ["r3.s1.t01"], "5th": ["r3.s2.t01", "r3.s2.t02"]}


def test_advancing_students_are_listed_in_registration_order():
    """`Advanced.advancing` lists students as they registered (p9 before p10), not as text."""
    t = Tourney(tournament_options(grades=["4th"], advance_count=16))
    t.register_many(20)
    t.play_round(1, lambda s: int(s[1:]))
    t.play_round(2, lambda s: int(s[1:]))
    (advanced,) = t.do("advance", round=2)
    assert advanced.data["advancing"] == {"4th": [f"p{i}" for i in range(5, 21)]}


def test_a_semi_final_before_its_result_shows_no_points_or_ranks():
    from server.tournament.standings import standings

    t = Tourney(tournament_options(grades=["4th"], advance_count=3))
    t.register_many(6)
    t.play_round(1, lambda s: int(s[1:]))
    t.play_round(2, lambda s: int(s[1:]))
    t.do("advance", round=2)
    t.do("seat_round", round=3)
    t.do("start_round", round=3)
    (table,) = standings(t.state)["4th"]["semi_final"]
    assert [(row["points"], row["rank"], row["advanced"]) for row in table["rows"]] == [
        (None, None, None)
    ] * 3
    assert [row["student"] for row in table["rows"]] == ["p4", "p5", "p6"]


def test_a_tie_break_in_the_standings_before_and_after_it_is_played():
    """R-ROUND-6: a seated tie-break shows no points until every table of it has a result;
    each section lists its own tie-breaks."""
    from server.tournament.standings import standings

    t = Tourney(tournament_options(grades=["4th", "5th"], advance_count=3))
    t.register_many(6)  # p1..p6 in 4th, p7..p12 in 5th
    tie = {"p1": 9, "p2": 9, "p7": 9, "p8": 9}  # two top, four tied for the last place
    t.play_round(1, lambda s: tie.get(s, 1))
    t.play_round(2, lambda s: tie.get(s, 1))
    first, second = t.state.tie_breaks
    assert (first.section, second.section) == ("4th", "5th")
    rows = standings(t.state)["5th"]["tie_breaks"]
    assert rows == [
        {
            "number": 2,
            "round": 2,
            "places": 1,
            "tables": ["tb2.t1"],
            "students": ["p10", "p11", "p12", "p9"],
            "points": None,
            "ranks": None,
        }
    ]
    t.table_ends("tb2.t1", {"p9": 3, "p10": 1, "p11": 0, "p12": 0})
    assert standings(t.state)["5th"]["tie_breaks"][0]["points"] == {
        "p10": 1,
        "p11": 0,
        "p12": 0,
        "p9": 3,
    }
    # decision 12: the rank at one's own table orders a tie-break's students
    assert standings(t.state)["5th"]["tie_breaks"][0]["ranks"] == {
        "p9": 1,
        "p10": 2,
        "p11": 3,
        "p12": 3,
    }
    assert standings(t.state)["4th"]["tie_breaks"][0]["points"] is None
    assert standings(t.state)["4th"]["tie_breaks"][0]["ranks"] is None
    # each section's tie is decided by its own tie-break: only 4th's is still pending
    assert ranking.pending_ties(t.state, 2) == [
        ranking.Pending(2, "4th", ("p3", "p4", "p5", "p6"), 1, True)
    ]


def test_an_advance_recorded_before_champions_were_replays():
    import server.tournament as tournament
    from server.games.base import Event

    t = Tourney(tournament_options(grades=["4th"]))
    old = Event("Advanced", {"round": 2, "advancing": {"4th": ["p1", "p2"]}})
    state = tournament.evolve(t.state, old)
    assert state.champions == {} and state.advanced == {2: {"4th": ("p1", "p2")}}


def test_a_tie_break_plays_a_fresh_deck_from_its_own_seed():
    """R-ROUND-6: "a fresh deck of the same edition": the sides of the deck derived from the
    tie-break's seed, on the broken round's half and side, not the round's own cards."""
    from server.puzzles.editions import single_digits
    from server.tournament.options import tournament_options as read_options

    options = read_options(tournament_options())  # the Official Rules, Single Digits
    tie_seed = decks.tie_break_seed(24, 1)
    for round_number, half, side in ((2, 1, "white"), (3, 2, "red")):
        cards = decks.tie_break_cards(options, round_number, 1)
        fresh = single_digits(tie_seed, half)
        assert sorted(tuple(card["numbers"]) for card in cards) == sorted(
            tuple(card.side(side).numbers) for card in fresh
        )
        assert {card["card_id"] for card in cards} == {f"TB1-{card.card_id}" for card in fresh}
        assert sorted(tuple(c["numbers"]) for c in cards) != sorted(
            tuple(card.side(side).numbers) for card in single_digits(24, half)
        )


def test_a_tie_break_tied_again_is_replayed_while_another_sections_is_pending():
    """R-ROUND-6: a section's tie-break that ends tied again gets a new one at once, even
    while another section's tie-break is still being played."""
    t = Tourney(tournament_options(grades=["4th", "5th"], advance_count=3))
    t.register_many(6)
    tie = {"p1": 9, "p2": 9, "p7": 9, "p8": 9}
    t.play_round(1, lambda s: tie.get(s, 1))
    t.play_round(2, lambda s: tie.get(s, 1))
    events = t.table_ends("tb2.t1", {"p9": 2, "p10": 2, "p11": 0, "p12": 0})
    assert types(events) == ["TableResultRecorded", "TieBreakSeated"]
    again = events[1].data
    assert (again["number"], again["section"], again["students"]) == (3, "5th", ["p10", "p9"])


def test_round_two_seatings_of_known_rounds_one():
    """R-ROUND-2: the reseat is a pure function of the students, round 1 and the seed's key;
    these are what it gave when written (a changed deal seats other tables)."""
    ten = [f"p{i}" for i in range(1, 11)]
    nine = ten[:9]
    dealt = seating.reseat(nine, [nine[:3], nine[3:6], nine[6:]], "k")  # 3 mates, 3 tables
    assert dealt == [["p2", "p4", "p9"], ["p1", "p6", "p7"], ["p3", "p5", "p8"]]
    assert seating.repeated_pairs([nine[:3], nine[3:6], nine[6:]], dealt) == 0
    four_mates = seating.reseat(ten, [ten[:4], ten[4:7], ten[7:]], "k")  # 4 mates, 3 tables
    assert four_mates == [["p3", "p4", "p6", "p9"], ["p2", "p5", "p10"], ["p1", "p7", "p8"]]
    assert seating.repeated_pairs([ten[:4], ten[4:7], ten[7:]], four_mates) == 1  # pigeonhole
    seven = ten[:7]
    spread = seating.reseat(seven, [seven[:4], seven[4:]], "k")  # 4 mates, 2 tables: spread
    assert spread == [["p3", "p1", "p5", "p6"], ["p2", "p4", "p7"]]
    eight = ten[:8]
    assert seating.reseat(eight, [eight[:4], eight[4:]], "k") == [
        ["p3", "p1", "p5", "p8"],
        ["p2", "p4", "p7", "p6"],
    ]


def test_the_tournament_shuffle_of_a_known_key():
    assert decks._shuffled(list("abcdef"), "a") == ["d", "e", "f", "c", "a", "b"]


def test_a_tie_of_nine_sits_every_tied_student_exactly_once():
    t = Tourney(tournament_options(grades=["4th"], advance_count=3))
    t.register_many(11)
    top = {"p1": 10, "p2": 10}
    t.play_round(1, lambda s: top.get(s, 1))
    t.play_round(2, lambda s: top.get(s, 1))
    (tie,) = t.state.tie_breaks
    seated = [s for table in tie.tables for s in table.students]
    assert sorted(seated) == sorted(tie.students) and len(seated) == 9


def test_a_round_start_recorded_before_per_table_orders_replays():
    import server.tournament as tournament
    from server.games.base import Event

    t = _seated()
    started = tournament.evolve(t.state, Event("RoundStarted", {"round": 1, "deck": []}))
    assert started.round(1).started and started.round(1).orders == {}


def test_a_result_disqualifying_every_student_of_the_table_is_recorded():
    """R-FLAG-4: disqualified students keep their points; a table may lose all its players."""
    from server.games.base import SERVER_ACTOR

    t = _seated()
    t.do("start_round", round=1)
    (table,) = t.state.round(1).tables
    everyone = list(table.students)
    scores = {s: 1 for s in everyone}
    (recorded,) = t.do(
        "record_result",
        SERVER_ACTOR,
        table=table.table,
        scores=scores,
        disqualified=everyone,
        seq=3,
    )
    assert recorded.data["disqualified"] == everyone


def test_an_empty_grade_does_not_hide_a_later_grade_that_cannot_sit():
    t = Tourney(tournament_options(grades=["4th", "5th"]))
    t.do("register", name="Ada", school="Hill", grade="5th")
    t.do("register", name="Bo", school="Hill", grade="5th")
    assert t.refused("close_registration").code == "cannot_seat"


def test_r_round_2_round_two_seats_the_two_that_withdrawals_left_at_one_table():
    """Decision 11: registration is closed, nobody can merge the section any more, so round 2
    seats who is left (it refused `cannot_seat` before, and every section waited)."""
    t = Tourney(tournament_options(grades=["4th"]))
    t.register_many(4)
    t.play_round(1, lambda s: int(s[1:]))
    t.do("withdraw", student="p1")
    t.do("withdraw", student="p2")
    (seated,) = t.do("seat_round", round=2)
    assert [sorted(table["students"]) for table in seated.data["tables"]] == [["p3", "p4"]]


def test_names_of_one_character_and_a_file_of_exactly_the_limit():
    t = Tourney(tournament_options(grades=["4th"]))
    (one,) = t.do("register", name="A", school="H", grade="4th")
    assert one.data["students"][0]["name"] == "A"
    head = "name,school,grade\nBo,Hill,4th\n"
    pad = 512 * 1024 - len(head)  # blank lines of 128 characters, then a shorter one
    text = head + (" " * 127 + "\n") * (pad // 128) + " " * (pad % 128 - 1) + "\n"
    assert len(text) == 512 * 1024
    (imported,) = t.do("import_students", csv=text)
    assert [s["name"] for s in imported.data["students"]] == ["Bo"]


def test_the_tournament_clock_never_runs_backwards():
    t = Tourney(tournament_options(grades=["4th"]))
    t.do("register", name="Ada", school="Hill", grade="4th")
    assert t.state.clock == t.now - 1_000
    late = t.state.clock
    t.now = late - 5_000_000
    (event,) = t.do("register", name="Bo", school="Hill", grade="4th")
    assert event.data["at"] == late and t.state.clock == late


def test_a_final_of_four_sits_in_id_order():
    """R-ROUND-5: the final seats the semi-final winners as they are (no draw)."""
    t = Tourney(tournament_options(grades=["4th"]))
    t.register_many(20)
    for number in (1, 2):
        t.play_round(number, lambda s: int(s[1:]))
    t.do("advance", round=2)
    t.play_round(3, lambda s: int(s[1:]))
    winners = t.do("advance", round=3)[0].data["advancing"]["4th"]
    (seated,) = t.do("seat_round", round=4)
    assert seated.data["tables"] == [
        {"table": "r4.s1.t01", "section": "4th", "students": sorted(winners)}
    ]
    assert len(winners) == 4


def test_a_file_csv_cannot_read_is_refused_by_line_not_a_crash():
    """A field over the csv module's own limit (128 KiB, within `MAX_CSV`) raised `csv.Error`
    out of `decide` (an internal error); now it is a `bad_rows` refusal naming the line."""
    t = Tourney(tournament_options(grades=["4th"]))
    huge = "name,school,grade\nAda,Hill,4th\n" + "x" * 200_000 + ",Hill,4th\n"
    assert t.refused("import_students", csv=huge).as_dict() == {
        "code": "bad_rows",
        "rule": "",
        "message": "line 3: not a line of CSV (field larger than field limit (131072))",
    }


def test_a_grade_nobody_registered_for_does_not_stop_the_seating_of_the_next():
    t = Tourney(tournament_options(grades=["4th", "5th"]))
    t.register_many(4, grades=["5th"])
    t.do("close_registration")
    (seated,) = t.do("seat_round", round=1)
    assert [table["section"] for table in seated.data["tables"]] == ["5th"]
    assert seated.data["tables"][0]["table"] == "r1.s2.t01"
