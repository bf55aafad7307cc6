"""A table that waits for its students (challenge/arrival.py; docs/rules.md decision 30): no
card is placed, by hand or by `auto_proctor`, while a seat is not there, unless a person
begins play.

Given/when/then over the real `decide` and `evolve`: the shell's part (who is connected) is
the `seats` the server's `begin_play` names, and `presence_command` is what the shell asks.
"""

from __future__ import annotations

from challenge_tables import DIRECTOR, PROCTOR, SPECTATOR, S, Table, options, player, types

from server.games import challenge
from server.games.base import SERVER_ACTOR, Command

AUTO = {"auto_proctor": 3, "auto_reveal_seconds": 1, "wait_for_students": True}


def waiting_table(**more) -> Table:
    table = Table(options(seats=3, cards=["c1", "c2", "c3"], **{**AUTO, **more}))
    table.do("start_round", DIRECTOR)
    return table


def begin_as_server(table: Table, seats: list[str]):
    return table.do("begin_play", SERVER_ACTOR, seats=seats)


def test_a_waiting_table_places_no_card_and_runs_no_timer_until_play_begins():
    table = waiting_table()
    assert table.state.waiting
    assert table.live() == {}  # auto_proctor's placing is not even scheduled
    assert table.refused("place_card").code == "waiting_for_students"
    assert table.refused("place_card", DIRECTOR).code == "waiting_for_students"
    view = challenge.view(table.state, SPECTATOR)
    assert view["waiting"] is True and view["phase"] == "between_cards"


def test_without_the_option_a_started_table_places_its_first_card_on_its_own():
    table = Table(options(seats=3, cards=["c1", "c2"], auto_proctor=3))
    table.do("start_round", DIRECTOR)
    assert not table.state.waiting
    assert table.live() == {"place_card": table.now + 3 * S}


def test_the_server_begins_play_only_when_every_seat_is_connected():
    table = waiting_table()
    assert challenge.presence_command(table.state, frozenset({"s1", "s2"})) is None
    refused = table.refused("begin_play", SERVER_ACTOR, seats=["s1", "s2"])
    assert refused.code == "students_missing"
    assert "Cy" in refused.message  # named as people call them, not s3
    command = challenge.presence_command(table.state, frozenset({"s1", "s2", "s3"}))
    assert command == Command("begin_play", {"seats": ["s1", "s2", "s3"]}, SERVER_ACTOR)
    table.advance(40)  # the students took their time: the clocks run from the beginning
    began = begin_as_server(table, ["s1", "s2", "s3"])
    assert types(began) == ["PlayBegan"]
    assert began[0].data["by"] == "students"
    assert began[0].data["connected"] == ["s1", "s2", "s3"]
    assert table.live() == {"place_card": table.now + 3 * S}
    assert challenge.presence_command(table.state, frozenset({"s1", "s2", "s3"})) is None
    assert table.replayed() == table.state


def test_a_person_begins_play_at_once_whoever_is_connected():
    for person in (PROCTOR, DIRECTOR):
        table = waiting_table()
        began = table.do("begin_play", person)
        assert began[0].data["by"] == person.role
        assert table.live() == {"place_card": table.now + 3 * S}
        assert table.refused("begin_play", person).code == "play_begun"


def test_a_player_cannot_begin_play_nor_mark_a_seat():
    table = waiting_table()
    assert table.refused("begin_play", player("s1")).code == "not_allowed"
    assert table.refused("mark_seat", player("s1"), seat="s2", mark="absent").code == "not_allowed"


def test_a_seat_marked_absent_is_not_waited_for_and_one_marked_present_is_there():
    table = waiting_table()
    table.do("mark_seat", DIRECTOR, seat="s3", mark="absent")
    assert challenge.presence_command(table.state, frozenset({"s1"})) is None  # Bo not here
    table.do("mark_seat", PROCTOR, seat="s2", mark="present")
    command = challenge.presence_command(table.state, frozenset({"s1"}))
    assert command is not None
    began = table.do(command.name, SERVER_ACTOR, **command.args)
    assert began[0].data["attendance"] == {"s3": "absent", "s2": "present"}
    assert challenge.view(table.state, SPECTATOR)["attendance"] == {
        "s3": "absent",
        "s2": "present",
    }


def test_a_table_whose_every_student_is_marked_absent_does_not_begin_by_itself():
    table = waiting_table()
    for seat in ("s1", "s2", "s3"):
        table.do("mark_seat", DIRECTOR, seat=seat, mark="absent")
    assert challenge.presence_command(table.state, frozenset()) is None
    assert table.refused("begin_play", SERVER_ACTOR, seats=[]).code == "students_missing"
    table.do("begin_play", DIRECTOR)  # a person may
    assert not table.state.waiting


def test_marks_are_refused_once_play_has_begun_and_for_an_unknown_seat_or_mark():
    table = waiting_table()
    assert table.refused("mark_seat", DIRECTOR, seat="s9", mark="present").code == "unknown_seat"
    assert table.refused("mark_seat", DIRECTOR, seat="s1", mark="late").code == "bad_args"
    assert table.refused("begin_play", SERVER_ACTOR, seats="s1").code == "bad_args"
    table.do("begin_play", DIRECTOR)
    assert table.refused("mark_seat", DIRECTOR, seat="s1", mark="present").code == "play_begun"


def test_a_timed_tie_break_runs_its_whole_time_from_the_moment_play_began():
    table = Table(
        options(seats=2, cards=["c1", "c2"], min_seats=2, round_seconds=300, wait_for_students=True)
    )
    table.do("start_round", DIRECTOR)
    table.advance(120)
    begin_as_server(table, ["s1", "s2"])
    assert table.live()["round_deadline"] == table.now + 300 * S


def test_a_waiting_table_can_be_ended_and_its_view_and_options_say_it_waits():
    table = waiting_table()
    assert challenge.view(table.state, DIRECTOR)["waiting"] is True
    assert table.events[0].data["options"]["wait_for_students"] is True
    table.do("end_round", DIRECTOR)
    assert table.state.phase == "ended" and not table.state.waiting
    assert challenge.presence_command(table.state, frozenset({"s1", "s2", "s3"})) is None
    table.do("sign_score_card", DIRECTOR, initials="TD")  # an empty table's card is signed
    assert challenge.is_over(table.state)


def test_the_director_s_signature_is_recorded_as_the_director_s():
    """R-ROUND-7: an auto-proctored table has no proctor to sign; the director signs it
    from the board, and the score card says who signed."""
    table = waiting_table()
    table.do("begin_play", DIRECTOR)
    table.do("end_round", DIRECTOR)
    signed = table.do("sign_score_card", DIRECTOR, initials="TD")
    assert signed[0].data["by"] == "director"
    card = challenge.view(table.state, SPECTATOR)["score_card"]
    assert card == {"signed": True, "initials": "TD", "at": table.now, "by": "director"}
    assert challenge.is_over(table.state)
