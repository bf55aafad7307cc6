"""Golden snapshots of a 24 Challenge table (`view`) and its live deadlines after the events
that move the windows: what a proctor's screen and the shell's timers show, field by field.

Why whole snapshots: `evolve` is only tested through what `decide` reads next, so a field it
sets and nothing reads yet (the end reason, a ruling's touch time, the window restart after a
card leaves play) could go wrong unnoticed (issue 20). Rule ids: shared/rules/24-challenge.md.
"""

from __future__ import annotations

from typing import Any

import pytest
from challenge_tables import PROCTOR, T0, S, Table, options, player

from server.games import challenge
from server.games.base import SERVER_ACTOR, Command, Event
from server.games.challenge.state import SeatState, replace


def seats(**changes: dict[str, Any]) -> list[dict[str, Any]]:
    """The four seats of the test table, with the changes given per seat id."""
    names = {"s1": "Ada", "s2": "Bo", "s3": "Cy", "s4": "Di"}
    base = {
        "score": 0,
        "flags": 0,
        "disqualified": False,
        "disqualified_cause": None,  # "flag_limit" or "slap" (R-PLAY-3)
        "reinstated_from": 0,  # R-ROUND-8
        "cards_won": [],
    }
    return [
        {"seat": seat, "name": name, **base, **changes.get(seat, {})}
        for seat, name in names.items()
    ]


def deadlines(table: Table) -> list[tuple[str, str, int]]:
    return [(d.key, d.command.name, d.at) for d in challenge.deadlines(table.state)]


def test_the_proctor_sees_a_ruling_restart_the_windows_and_drop_the_answer():
    """R-PLAY-2: after the ruling the new toucher's windows start at the ruling, it is listed
    once among the touches, and the previous toucher's pattern and steps are gone."""
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    table.do("touch_card", player("s1"))
    table.advance(0.5)
    table.do("touch_card", player("s2"))  # recorded and refused (R-PLAY-2)
    table.do("declare_pattern", player("s1"), pattern="3 × 8")
    table.do("state_steps", player("s1"), steps=["1 + 1 = 2"])
    table.advance(1)
    ruled = table.now
    table.do("override_first_touch", seat="s2")
    snapshot = challenge.view(table.state, PROCTOR)
    assert snapshot == {
        "game": "challenge",
        "round": 1,
        "mode": "networked",
        "phase": "solving",
        "paused": False,
        "pause_cause": None,
        "waiting": False,  # decision 30: a table without wait_for_students never waits
        "attendance": {},
        "cards_total": 2,
        "end_reason": None,
        "flag_limit": 3,
        "seats": seats(),
        "scores": {"s1": 0, "s2": 0, "s3": 0, "s4": 0},
        "card": {
            "play": 1,
            "card_id": "c1",
            "numbers": [1, 1, 1, 8],
            "dots": 1,
            "placed_at": T0,
            "revealed_at": T0,
        },
        "toucher": "s2",
        "touched_at": ruled,
        "touches": ["s1", "s2"],
        "pattern": None,
        "steps": [],
        "stumped_declared": [],
        "deadlines": [
            {"key": f"pattern:1:{ruled}", "command": "pattern_deadline", "at": ruled + 3 * S},
            {"key": f"solution:1:{ruled}", "command": "solution_deadline", "at": ruled + 15 * S},
        ],
        "cards_left": 1,
        "stumped": [],
        "clock": ruled,
        "seq": table.last_seq(),
        "protests": [],  # R-ROUND-8
        "score_card": {"signed": False, "initials": None, "at": None, "by": None},  # R-ROUND-7
        "deck": ["c2"],
        "removed": [],
    }
    # a ruling for a seat that never touched adds it to the touches once
    table.do("override_first_touch", seat="s3")
    assert table.state.card.touches == ("s1", "s2", "s3")


def test_a_player_sees_its_own_seat_and_no_deck():
    table = Table.started(cards=["c1", "c2"])
    snapshot = challenge.view(table.state, player("s3"))
    assert snapshot["you"] == "s3"
    assert "deck" not in snapshot and "removed" not in snapshot
    assert snapshot["seats"] == seats()


def test_after_the_round_ends_with_a_card_in_play_the_snapshot_shows_why_and_no_card():
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    table.win("s4")
    table.do("place_card")
    table.do("pause_table", cause="fire drill")
    table.advance(2)
    table.do("end_round")
    snapshot = challenge.view(table.state, PROCTOR)
    assert {key: snapshot[key] for key in ("phase", "paused", "pause_cause", "end_reason")} == {
        "phase": "ended",
        "paused": False,
        "pause_cause": "fire drill",
        "end_reason": "ended_by_proctor",
    }
    assert snapshot["card"] is None and snapshot["toucher"] is None
    assert snapshot["deck"] == ["c2"] and snapshot["cards_left"] == 1
    assert snapshot["seats"] == seats(s4={"score": 1, "cards_won": ["c1"]})
    assert snapshot["deadlines"] == []


def test_resuming_clears_the_pause_and_restarts_the_windows_in_full():
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    table.do("pause_table")
    assert challenge.view(table.state, PROCTOR)["pause_cause"] == "proctor"
    assert deadlines(table) == []
    table.advance(100)
    resumed = table.now
    table.do("resume_table")
    snapshot = challenge.view(table.state, PROCTOR)
    assert (snapshot["paused"], snapshot["pause_cause"]) == (False, None)
    assert deadlines(table) == [(f"no_touch:1:{resumed}", "no_touch_deadline", resumed + 15 * S)]


# -- auto_proctor: the place deadline counts from the moment the last card left play ----------


def auto_table(**more: Any) -> Table:
    table = Table(options(cards=["c1", "c2", "c3"], auto_proctor=2, **more))
    table.do("start_round")
    return table


def test_the_first_card_is_placed_automatically_after_the_round_starts():
    table = auto_table()
    assert deadlines(table) == [(f"place:1:{T0}", "place_card", T0 + 2 * S)]
    (placed,) = table.fire("place_card")
    assert placed.data["play"] == 1
    assert deadlines(table) == [(f"reveal:1:{T0 + 2 * S}", "reveal_card", T0 + 3 * S)]
    for deadline in challenge.deadlines(table.state):
        assert deadline.command.actor == SERVER_ACTOR


@pytest.mark.parametrize(
    "resolve",
    [
        lambda table: (
            table.do("touch_card", player("s1")),
            table.advance(1),
            table.do("declare_pattern", player("s1"), pattern="3 × 8"),
            table.do("fix_solution", player("s1"), steps=["1 + 1 = 2", "2 + 1 = 3", "3 × 8 = 24"]),
        ),
        lambda table: table.do("issue_flag", seat="s1", cause="no_pattern"),
        lambda table: table.fire("no_touch_deadline"),
    ],
    ids=["won", "returned", "stumped"],
)
def test_the_next_card_is_placed_two_seconds_after_a_card_leaves_play(resolve):
    table = auto_table()
    table.fire("place_card")
    table.fire("reveal_card")
    table.advance(5)
    resolve(table)
    left = table.now
    assert deadlines(table) == [(f"place:2:{left}", "place_card", left + 2 * S)]


def test_the_place_deadline_restarts_when_the_stumped_pile_comes_back():
    table = Table(
        options(cards=["c1"], auto_proctor=2, stumped_cards="replay_at_end", no_touch_seconds=1)
    )
    table.do("start_round")
    table.fire("place_card")
    table.fire("reveal_card")
    events = table.fire("no_touch_deadline")
    assert [event.type for event in events] == ["CardStumped", "StumpedCardsReturned"]
    returned = table.now
    assert deadlines(table) == [(f"place:2:{returned}", "place_card", returned + 2 * S)]


# -- evolve never fails on a recorded log -------------------------------------------------------


def test_events_of_other_parts_leave_the_table_as_it_is_but_move_its_clock():
    table = Table.started(cards=["c1"])
    state = table.state
    later = challenge.evolve(state, Event("TournamentNote", {"at": T0 + S, "seat": "s1"}))
    # Every event of the stream counts in `seq` (a protest names events by it, R-ROUND-8).
    assert later == replace(state, clock=T0 + S, seq=state.seq + 1)
    unchanged = replace(state, seq=state.seq + 1)
    assert challenge.evolve(state, Event("ShellNote", {"text": "no time"})) == unchanged
    assert challenge.evolve(state, Event("ShellNote", {"at": "soon"})) == unchanged
    assert challenge.evolve(state, Event("ShellNote", {"at": T0 - S})) == unchanged


def test_replace_refuses_a_field_the_record_does_not_have():
    with pytest.raises(TypeError, match=r"SeatState has no field \['bogus'\]"):
        replace(SeatState("s1", "Ada"), bogus=1)


# -- event_view: redaction never fails on what a log may hold ---------------------------------


def test_a_flag_or_return_recorded_without_revealed_is_shown_as_recorded():
    """Events recorded before `revealed` existed name their card: shown as they are."""
    for type_ in ("FlagIssued", "CardReturnedToDeck"):
        event = Event(type_, {"at": T0, "card_id": "c1", "play": 1})
        assert challenge.event_view(event, player("s1")) == event
        hidden = Event(type_, {"at": T0, "card_id": "c1", "play": 1, "revealed": False})
        assert dict(challenge.event_view(hidden, player("s1")).data) == {
            "at": T0,
            "play": 1,
            "revealed": False,
        }


def test_the_shells_first_event_hides_the_deck_order_even_without_options():
    bare = Event("TableCreated", {"game": "challenge"})
    assert dict(challenge.event_view(bare, player("s1")).data) == {
        "game": "challenge",
        "options": {},
    }
    created = Event("TableCreated", {"options": {"deck": [{"card_id": "c1"}], "round": 2}})
    assert dict(challenge.event_view(created, player("s1")).data) == {
        "options": {"deck": 1, "round": 2}
    }


def test_the_snapshot_lists_who_declared_stumped_on_the_card_in_play():
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    table.do("declare_stumped", player("s3"))
    table.do("declare_stumped", player("s1"))
    assert challenge.view(table.state, player("s2"))["stumped_declared"] == ["s3", "s1"]


def test_a_timed_round_has_one_round_deadline_from_its_start_fired_by_the_server():
    """R-ROUND-6: the key names the round's start, so it is live until the round ends."""
    table = Table(options(cards=["c1", "c2"], round_seconds=60))
    table.do("start_round")
    (deadline,) = challenge.deadlines(table.state)
    assert (deadline.key, deadline.at) == (f"round:0:{T0}", T0 + 60 * S)
    assert deadline.command == Command("round_deadline", {"key": f"round:0:{T0}"}, SERVER_ACTOR)
