"""Golden whole-event payloads of a small tournament played from registration to its champion,
every field compared (the way an auditor reads the stream), and the standings it leaves.

Given: grades 4th and 5th merged into one section of four students (a fifth withdraws), four
cards a round, three advance. Round 2 ends with three students tied for the last two places
(R-ROUND-6: a tie-break), the director reopens round 2 once (R-ROUND-8), and the single
semi-final table decides the champion (R-ROUND-5). Why whole: a field set to None, a rule id
swapped or a count off by one passes a test that reads only event types (issue 20).
"""

from __future__ import annotations

from tournament_support import DIRECTOR, T0, Tourney, tournament_options

import server.tournament as tournament
from server.games.base import SERVER_ACTOR, Actor, Event
from server.tournament import decks

MS = 1_000  # Tourney advances its clock 1 ms per command


def data(events: list[Event]) -> list[tuple[str, dict]]:
    return [(event.type, dict(event.data)) for event in events]


def registered() -> Tourney:
    t = Tourney(tournament_options(grades=["4th", "5th"], cards_per_round=4, advance_count=3))
    for name, school, grade in [
        ("Ada", "Hill", "4th"),
        ("Bo", "Hill", "4th"),
        ("Cy", "Dale", "5th"),
        ("Di", "Dale", "5th"),
        ("Ek", "Hill", "4th"),
    ]:
        t.do("register", name=name, school=school, grade=grade)
    return t


def test_registration_and_round_one_whole():
    t = registered()
    assert data(t.events[:1]) == [
        (
            "StudentsRegistered",
            {
                "at": T0,
                "students": [{"student": "p1", "name": "Ada", "school": "Hill", "grade": "4th"}],
            },
        )
    ]
    assert data(t.do("merge_grades", grades=["4th", "5th"], section=" 4-5 ")) == [
        (
            "GradesMerged",
            {"at": T0 + 5 * MS, "grades": ["4th", "5th"], "section": "4-5", "rule": "R-ROUND-2"},
        )
    ]
    assert data(t.do("withdraw", student="p5")) == [
        ("StudentWithdrawn", {"at": T0 + 6 * MS, "student": "p5"})
    ]
    assert data(t.do("close_registration")) == [
        ("RegistrationClosed", {"at": T0 + 7 * MS, "students": 4})
    ]
    assert data(t.do("seat_round", round=1)) == [
        (
            "RoundSeated",
            {
                "at": T0 + 8 * MS,
                "round": 1,
                "tables": [
                    {"table": "r1.s1.t01", "section": "4-5", "students": ["p4", "p2", "p1", "p3"]}
                ],
                "rule": "R-ROUND-2",
            },
        )
    ]
    assert data(t.do("assign_proctor", table="r1.s1.t01", name=" Gil hart ")) == [
        (
            "ProctorAssigned",
            {
                "at": T0 + 9 * MS,
                "table": "r1.s1.t01",
                "name": "Gil hart",
                "initials": "GH",
                "rule": "R-ROUND-7",
            },
        )
    ]
    assert data(t.do("start_round", round=1)) == [
        (
            "RoundStarted",
            {
                "at": T0 + 10 * MS,
                "round": 1,
                "tables": ["r1.s1.t01"],
                "edition": "single-digits",
                "half": 1,
                "side": "red",
                "deck": [
                    {"card_id": "SD-31", "numbers": [9, 6, 5, 8], "dots": 3},
                    {"card_id": "SD-05", "numbers": [5, 8, 5, 7], "dots": 2},
                    {"card_id": "SD-46", "numbers": [6, 2, 2, 5], "dots": 2},
                    {"card_id": "SD-29", "numbers": [1, 9, 6, 1], "dots": 2},
                ],
                "orders": {},
                "rule": "R-DECK-5",
            },
        )
    ]
    scores = {"p1": 3, "p2": 1, "p3": 2, "p4": 0}
    recorded = t.table_ends(
        "r1.s1.t01", scores, flags={"p1": 0, "p2": 1, "p3": 0, "p4": 3}, disqualified=["p4"]
    )
    assert data(recorded) == [
        (
            "TableResultRecorded",
            {
                "at": T0 + 11 * MS,
                "table": "r1.s1.t01",
                "scores": scores,
                "flags": {"p1": 0, "p2": 1, "p3": 0, "p4": 3},
                "disqualified": ["p4"],
                "initials": "GH",
                "seq": 4,
                "rule": "R-ROUND-7",
            },
        )
    ]
    assert data(t.do("close_round", round=1)) == [
        ("RoundClosed", {"at": T0 + 12 * MS, "round": 1, "rule": "R-ROUND-7"})
    ]
    assert t.replayed() == t.state


def round_one_played() -> Tourney:
    t = registered()
    t.do("merge_grades", grades=["4th", "5th"], section="4-5")
    t.do("withdraw", student="p5")
    t.do("close_registration")
    t.do("seat_round", round=1)
    t.do("assign_proctor", table="r1.s1.t01", name="Gil hart")
    t.do("start_round", round=1)
    t.table_ends(
        "r1.s1.t01",
        {"p1": 3, "p2": 1, "p3": 2, "p4": 0},
        flags={"p1": 0, "p2": 1, "p3": 0, "p4": 3},
        disqualified=["p4"],
    )
    t.do("close_round", round=1)
    return t


def test_a_tie_for_the_last_places_a_reopen_and_the_champion_whole():
    t = round_one_played()
    t.do("seat_round", round=2)
    started = t.do("start_round", round=2)[0]
    assert started.data["deck"] == decks.round_cards(t.state.options, 2)[:4]
    plan = (started.data["edition"], started.data["half"], started.data["side"])
    assert plan == ("single-digits", 1, "white")  # R-DECK-5: round 1's cards flipped
    t.table_ends("r2.s1.t01", {"p1": 2, "p2": 2, "p3": 1, "p4": 3})  # totals 5, 3, 3, 3
    at = t.now
    assert data(t.do("close_round", round=2)) == [
        ("RoundClosed", {"at": at, "round": 2, "rule": "R-ROUND-7"}),
        (
            "TieBreakSeated",
            {
                "at": at,
                "number": 1,
                "round": 2,
                "section": "4-5",
                "students": ["p2", "p3", "p4"],
                "places": 2,
                "tables": [{"table": "tb1.t1", "section": "4-5", "students": ["p2", "p3", "p4"]}],
                "deck": decks.tie_break_cards(t.state.options, 2, 1),
                "rule": "R-ROUND-6",
            },
        ),
    ]
    assert tournament.view(t.state, Actor("spectator", "v1"))["tie_breaks"] == [
        {
            "number": 1,
            "round": 2,
            "section": "4-5",
            "students": ["p2", "p3", "p4"],
            "places": 2,
            "tables": [{"table": "tb1.t1", "section": "4-5", "students": ["p2", "p3", "p4"]}],
        }
    ]
    assert t.refused("advance", round=2).as_dict() == {
        "code": "tie_break_pending",
        "rule": "R-ROUND-6",
        "message": "advance: ties to play off first (4-5: p2, p3, p4)",
    }
    t.table_ends("tb1.t1", {"p2": 2, "p3": 1, "p4": 0})
    advanced = {"round": 2, "advancing": {"4-5": ["p1", "p2", "p3"]}, "champions": {}}
    at = t.now
    assert data(t.do("advance", round=2)) == [
        ("Advanced", {"at": at, **advanced, "rule": "R-ROUND-3"})
    ]
    at = t.now
    assert data(t.do("reopen_round", round=2)) == [
        ("RoundReopened", {"at": at, "round": 2, "sections": [], "rule": "R-ROUND-8"})
    ]
    assert not t.state.round(2).advanced and 2 not in t.state.advanced
    t.do("advance", round=2)
    at = t.now
    assert data(t.do("seat_round", round=3)) == [
        (
            "RoundSeated",
            {
                "at": at,
                "round": 3,
                "tables": [
                    {"table": "r3.s1.t01", "section": "4-5", "students": ["p3", "p1", "p2"]}
                ],
                "rule": "R-ROUND-2",
            },
        )
    ]
    t.do("start_round", round=3)
    t.table_ends("r3.s1.t01", {"p1": 1, "p2": 4, "p3": 2})
    t.do("close_round", round=3)
    at = t.now
    assert data(t.do("advance", round=3)) == [
        (
            "Advanced",
            {
                "at": at,
                "round": 3,
                "advancing": {"4-5": ["p2"]},
                "champions": {"4-5": "p2"},
                "rule": "R-ROUND-4",
            },
        ),
        ("TournamentFinished", {"at": at, "champions": {"4-5": "p2"}, "rule": "R-ROUND-5"}),
    ]
    assert tournament.is_over(t.state) and tournament.deadlines(t.state) == []
    assert t.replayed() == t.state
    assert tournament.standings(t.state) == {
        "4-5": {
            "qualifying": [
                _row("p1", "Ada", "Hill", "4th", 3, 2, 5, 1, "top"),
                _row("p2", "Bo", "Hill", "4th", 1, 2, 3, 2, "tie_break 1"),
                _row("p3", "Cy", "Dale", "5th", 2, 1, 3, 2, "tie_break 1"),
                _row("p4", "Di", "Dale", "5th", 0, 3, 3, 2, "eliminated"),
                {
                    **_row("p5", "Ek", "Hill", "4th", None, None, 0, None, "eliminated"),
                    "withdrawn": True,
                },
            ],
            "semi_final": [
                {
                    "table": "r3.s1.t01",
                    "rows": [
                        {"student": "p2", "name": "Bo", "points": 4, "rank": 1, "advanced": "top"},
                        {
                            "student": "p3",
                            "name": "Cy",
                            "points": 2,
                            "rank": 2,
                            "advanced": "eliminated",
                        },
                        {
                            "student": "p1",
                            "name": "Ada",
                            "points": 1,
                            "rank": 3,
                            "advanced": "eliminated",
                        },
                    ],
                }
            ],
            "final": [],
            "tie_breaks": [
                {
                    "number": 1,
                    "round": 2,
                    "places": 2,
                    "tables": ["tb1.t1"],
                    "students": ["p2", "p3", "p4"],
                    "points": {"p2": 2, "p3": 1, "p4": 0},
                    "ranks": {"p2": 1, "p3": 2, "p4": 3},
                }
            ],
            "champion": "p2",
        }
    }


def _row(student, name, school, grade, r1, r2, total, rank, advanced) -> dict:
    return {
        "student": student,
        "name": name,
        "school": school,
        "grade": grade,
        "r1": r1,
        "r2": r2,
        "total": total,
        "rank": rank,
        "withdrawn": False,
        "advanced": advanced,
    }


def test_the_view_after_round_one_whole_and_the_cards_only_for_officials():
    t = round_one_played()
    seen = tournament.view(t.state, Actor("spectator", "v1"))
    assert {key: seen[key] for key in seen if key not in ("rounds", "standings")} == {
        "game": "tournament",
        "name": "Spring Challenge",
        "date": "2026-03-14",
        "rules": "official",
        "grades": ["4th", "5th"],
        "sections": ["4-5"],
        "merges": {"4th": "4-5", "5th": "4-5"},
        "registration_open": False,
        "students": [
            {"student": "p1", "name": "Ada", "school": "Hill", "grade": "4th", "withdrawn": False},
            {"student": "p2", "name": "Bo", "school": "Hill", "grade": "4th", "withdrawn": False},
            {"student": "p3", "name": "Cy", "school": "Dale", "grade": "5th", "withdrawn": False},
            {"student": "p4", "name": "Di", "school": "Dale", "grade": "5th", "withdrawn": False},
            {"student": "p5", "name": "Ek", "school": "Hill", "grade": "4th", "withdrawn": True},
        ],
        "tie_breaks": [],
        "champions": {},
        "finished": False,
        "tables_not_created": {},
    }
    assert seen["rounds"][0] == {
        "round": 1,
        "started": True,
        "closed": True,
        "advanced": False,
        "tables": [
            {
                "table": "r1.s1.t01",
                "section": "4-5",
                "students": ["p4", "p2", "p1", "p3"],
                "result": {
                    "table": "r1.s1.t01",
                    "scores": {"p1": 3, "p2": 1, "p3": 2, "p4": 0},
                    "flags": {"p1": 0, "p2": 1, "p3": 0, "p4": 3},
                    "disqualified": ["p4"],
                    "initials": "GH",
                    "seq": 4,
                },
                "proctor": {"name": "Gil hart", "initials": "GH"},
            }
        ],
    }
    assert seen["rounds"][1] == {
        "round": 2,
        "started": False,
        "closed": False,
        "advanced": False,
        "tables": [],
    }
    for official in (DIRECTOR, Actor("auditor", "a1"), SERVER_ACTOR):
        assert tournament.view(t.state, official)["deck_seed"] == 24
    for viewer in (Actor("spectator", "v1"), Actor("player", "p1"), Actor("proctor", "x")):
        assert "deck_seed" not in tournament.view(t.state, viewer)
    started = t.events[[e.type for e in t.events].index("RoundStarted")]
    for official in (DIRECTOR, Actor("auditor", "a1"), SERVER_ACTOR):
        assert tournament.event_view(started, official) == started
    hidden = tournament.event_view(started, Actor("proctor", "x"))
    assert set(hidden.data) == {"at", "round", "tables", "edition", "half", "side", "rule"}
