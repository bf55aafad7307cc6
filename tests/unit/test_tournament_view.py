"""What a tournament shows (server/tournament/standings.py `view`, `event_view`): the whole
snapshot as a viewer reads it, and which round data only the officials see (issue 20: whole
payloads, so a field dropped or renamed does not go unnoticed)."""

from __future__ import annotations

import pytest
from tournament_support import DIRECTOR, Tourney, csv_of, tournament_options

import server.tournament as tournament
from server.games.base import SERVER_ACTOR, Actor
from server.tournament.standings import standings
from server.tournament.tables import table_options_for

PLAYER = Actor("player", "p1")
PROCTOR = Actor("proctor", "x1")


def one_table_played() -> Tourney:
    """Given: four 4th-graders, seated in round 1 at one table with a proctor; its result is
    recorded (scores 1, 2, 0, 3 in seating order)."""
    tourney = Tourney(tournament_options(grades=["4th"]))
    tourney.do("import_students", csv=csv_of([(f"S{i}", "Oak", "4th") for i in range(4)]))
    tourney.do("close_registration")
    tourney.do("seat_round", round=1)
    table = tourney.state.round(1).tables[0]
    tourney.do("assign_proctor", table=table.table, name="Grace Hopper")
    tourney.do("start_round", round=1)
    tourney.table_ends(table.table, {s: i for i, s in enumerate(table.students)})
    return tourney


def test_the_tournament_snapshot_as_a_player_reads_it():
    tourney = one_table_played()
    (table,) = tourney.state.round(1).tables
    seated = list(table.students)
    snapshot = tournament.view(tourney.state, PLAYER)
    assert snapshot == {
        "game": "tournament",
        "name": "Spring Challenge",
        "date": "2026-03-14",
        "rules": "official",
        "grades": ["4th"],
        "sections": ["4th"],
        "merges": {},
        "registration_open": False,
        "students": [
            {
                "student": f"p{i + 1}",
                "name": f"S{i}",
                "school": "Oak",
                "grade": "4th",
                "withdrawn": False,
            }
            for i in range(4)
        ],
        "rounds": [
            {
                "round": 1,
                "started": True,
                "closed": False,
                "advanced": False,
                "tables": [
                    {
                        "table": table.table,
                        "section": "4th",
                        "students": seated,
                        "result": {
                            "table": table.table,
                            "scores": {s: seated.index(s) for s in sorted(seated)},
                            "flags": {s: 0 for s in sorted(seated)},
                            "disqualified": [],
                            "initials": "GH",
                            "seq": 4,
                        },
                        "proctor": {"name": "Grace Hopper", "initials": "GH"},
                    }
                ],
            },
            *(
                {"round": n, "started": False, "closed": False, "advanced": False, "tables": []}
                for n in (2, 3, 4)
            ),
        ],
        "tie_breaks": [],
        "standings": standings(tourney.state),  # its own tests: test_tournament_advancement
        "champions": {},
        "finished": False,
        "tables_not_created": {},
    }
    ranked = [row["student"] for row in snapshot["standings"]["4th"]["qualifying"]]
    assert ranked == seated[::-1]  # scored 0, 1, 2, 3 in seating order


def test_only_the_officials_see_the_deck_seed_and_the_round_cards():
    tourney = one_table_played()
    started = next(event for event in tourney.events if event.type == "RoundStarted")
    for official in (DIRECTOR, Actor("auditor", "a1"), SERVER_ACTOR):
        assert tournament.view(tourney.state, official)["deck_seed"] == 24
        assert tournament.event_view(started, official) is started
    for viewer in (PLAYER, PROCTOR, Actor("spectator", "v1")):
        assert "deck_seed" not in tournament.view(tourney.state, viewer)
        shown = tournament.event_view(started, viewer)
        assert shown.type == "RoundStarted"
        assert dict(shown.data) == {
            key: started.data[key]
            for key in ("at", "round", "edition", "half", "side", "tables", "rule")
        }  # without `deck` and `orders`


def test_a_proctor_name_is_a_text_of_1_to_64_characters_stripped():
    tourney = Tourney(tournament_options(grades=["4th"]))
    tourney.do("import_students", csv=csv_of([(f"S{i}", "Oak", "4th") for i in range(4)]))
    tourney.do("close_registration")
    tourney.do("seat_round", round=1)
    table = tourney.state.round(1).tables[0].table
    refused = tourney.refused("assign_proctor", table=table, name="n" * 65)
    assert refused.as_dict() == {
        "code": "bad_args",
        "rule": "",
        "message": "assign_proctor: 'name' is a text of 1..64 characters",
    }
    (assigned,) = tourney.do("assign_proctor", table=table, name=" " + "n" * 64 + " ")
    assert assigned.data["name"] == "n" * 64 and assigned.data["initials"] == "N"


def test_the_options_of_a_round_table_whole_and_of_an_unknown_table():
    tourney = one_table_played()
    (table,) = tourney.state.round(1).tables
    options = table_options_for(tourney.state, table.table)
    assert {key: value for key, value in options.items() if key != "deck"} == {
        "stumped_cards": "replay_at_end",  # R-PLAY-7 under the Official Rules
        "round": 1,
        "seats": [{"seat": s, "name": tourney.state.students[s].name} for s in table.students],
        "wait_for_students": True,  # decision 15: no card before the students are there
    }  # four students: the table's own `min_seats` (3) stands
    assert options["deck"] == [dict(card) for card in tourney.state.round(1).deck]
    with pytest.raises(KeyError) as unknown:
        table_options_for(tourney.state, "r9.s1.t01")
    assert unknown.value.args == ("r9.s1.t01",)


def test_a_final_of_two_and_a_tie_break_table_seat_two():
    """R-ROUND-2, R-ROUND-5/6: eight students make two semi-final tables, so a final of two;
    a tie-break table names its round and is timed."""
    tourney = Tourney(tournament_options(grades=["4th"]))
    tourney.register_many(8)
    for number in (1, 2):
        tourney.play_round(number, lambda s: int(s[1:]))
    tourney.do("advance", round=2)
    tourney.play_round(3, lambda s: int(s[1:]))
    tourney.do("advance", round=3)
    tourney.do("seat_round", round=4)
    (final,) = tourney.state.round(4).tables
    tourney.do("start_round", round=4)
    options = table_options_for(tourney.state, final.table)
    assert len(final.students) == 2 and options["min_seats"] == 2 and options["round"] == 4
    tourney.table_ends(final.table, {s: 1 for s in final.students})  # a tie for champion
    tourney.do("close_round", round=4)
    (tie,) = tourney.state.tie_breaks
    tied = table_options_for(tourney.state, tie.tables[0].table)
    assert {key: value for key, value in tied.items() if key != "deck"} == {
        "stumped_cards": "replay_at_end",
        "round": 4,
        "round_seconds": 300,
        "min_seats": 2,
        "wait_for_students": True,
        "seats": [
            {"seat": s, "name": tourney.state.students[s].name} for s in tie.tables[0].students
        ],
    }
