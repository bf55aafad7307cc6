"""Who sees what at a 24 Challenge table (R-PLAY-1: the card is cupped until revealed; the
deck is kept out of sight), in snapshots (`view`) and in every pushed event (`event_view`)."""

from __future__ import annotations

from challenge_tables import (
    AUDITOR,
    DIRECTOR,
    PROCTOR,
    SPECTATOR,
    T0,
    S,
    Table,
    options,
    player,
)

from server.games import challenge
from server.games.base import SERVER_ACTOR, Event

PLAYER_LIKE = (player("s1"), SPECTATOR)
FULL = (PROCTOR, DIRECTOR, AUDITOR, SERVER_ACTOR)


def test_players_and_spectators_do_not_see_a_placed_card_until_it_is_revealed():
    table = Table.started()
    table.do("place_card")
    for viewer in PLAYER_LIKE:
        card = challenge.view(table.state, viewer)["card"]
        assert card["numbers"] is None and card["dots"] is None and card["card_id"] is None
        assert card["play"] == 1 and card["revealed_at"] is None
    for viewer in FULL:
        assert challenge.view(table.state, viewer)["card"]["numbers"] == [1, 1, 1, 8]
    table.do("reveal_card")
    for viewer in PLAYER_LIKE:
        card = challenge.view(table.state, viewer)["card"]
        assert card == {
            "play": 1,
            "card_id": "c1",
            "numbers": [1, 1, 1, 8],
            "dots": 1,
            "placed_at": T0,
            "revealed_at": T0,
        }


def test_only_full_viewers_see_the_deck_order_and_removed_cards():
    table = Table(options(seats=3))
    table.do("start_round")
    for viewer in PLAYER_LIKE:
        snapshot = challenge.view(table.state, viewer)
        assert "deck" not in snapshot and "removed" not in snapshot
        assert snapshot["cards_left"] == 8
    for viewer in FULL:
        snapshot = challenge.view(table.state, viewer)
        assert snapshot["deck"][:2] == ["c1", "c2"] and snapshot["removed"] == ["c9", "c8"]


def test_spectator_sees_what_a_player_sees_without_a_seat_of_its_own():
    table = Table.started()
    table.next_card()
    as_player = challenge.view(table.state, player("s2"))
    as_spectator = challenge.view(table.state, SPECTATOR)
    assert as_player.pop("you") == "s2"
    assert as_player == as_spectator


def test_view_has_scores_flags_the_toucher_the_answer_and_deadlines():
    table = Table.started()
    table.next_card()
    table.win("s1")
    table.do("place_card")
    table.do("touch_card", player("s2"))  # before the reveal: a flag
    table.next_card()
    table.advance(1)
    table.do("touch_card", player("s3"))
    table.do("declare_pattern", player("s3"), pattern="8 ÷ 1/3")
    table.do("state_steps", player("s3"), steps=["8 ÷ 3 = 8/3"])
    snapshot = challenge.view(table.state, SPECTATOR)
    assert snapshot["phase"] == "solving"
    assert snapshot["scores"] == {"s1": 1, "s2": 0, "s3": 0, "s4": 0}
    seats = {seat["seat"]: seat for seat in snapshot["seats"]}
    assert seats["s2"]["flags"] == 1 and not seats["s2"]["disqualified"]
    assert seats["s1"]["cards_won"] == ["c1"]
    assert snapshot["toucher"] == "s3" and snapshot["touched_at"] == T0 + S
    assert snapshot["pattern"] == "8 ÷ 1/3" and snapshot["steps"] == ["8 ÷ 3 = 8/3"]
    assert snapshot["deadlines"] == [
        {"key": f"solution:3:{T0 + S}", "command": "solution_deadline", "at": T0 + 16 * S}
    ]
    assert snapshot["cards_left"] == 8 and snapshot["flag_limit"] == 3
    assert snapshot["paused"] is False and snapshot["end_reason"] is None


def test_every_pushed_event_is_redacted_for_players_and_spectators():
    table = Table(options(seats=3, cards=["c1", "c3", "c5", "c2"]))
    table.do("start_round")
    table.do("place_card")
    table.do("touch_card", player("s1"))  # flag: the unrevealed card goes back
    table.do("place_card")
    table.do("reveal_card")
    table.do("end_round")
    by_type = {event.type: event for event in table.events}
    for viewer in PLAYER_LIKE:
        seen = {event.type: challenge.event_view(event, viewer).data for event in table.events}
        assert seen["RoundStarted"]["deck"] == 2 and seen["RoundStarted"]["removed"] == 2
        assert set(seen["CardPlaced"]) == {"at", "play", "rule"}
        assert "card_id" not in seen["CardReturnedToDeck"]
        assert seen["CardRevealed"]["numbers"] == [3, 3, 8, 8]
        assert seen["RoundEnded"]["unplayed"] == 2
        # the flag was for a touch before the reveal: the hidden card's id is not shown
        flag = dict(by_type["FlagIssued"].data)
        assert flag.pop("card_id") == "c1" and flag["revealed"] is False
        assert seen["FlagIssued"] == flag
    for viewer in FULL:
        for event in table.events:
            assert challenge.event_view(event, viewer) is event


def test_returned_card_that_was_revealed_keeps_its_id_for_players():
    event = Event(
        "CardReturnedToDeck",
        {"at": T0, "card_id": "c1", "play": 1, "revealed": True, "rule": "R-FLAG-2"},
    )
    assert challenge.event_view(event, SPECTATOR).data["card_id"] == "c1"


def test_the_shells_table_created_event_hides_the_deck_from_players():
    created = Event("TableCreated", {"game": "challenge", "options": options()})
    seen = challenge.event_view(created, player("s1")).data
    assert seen["options"]["deck"] == 10 and seen["options"]["seats"] == options()["seats"]
    assert challenge.event_view(created, PROCTOR).data["options"]["deck"][0]["card_id"] == "c1"
    assert created.data["options"]["deck"] != 10  # the recorded event is untouched


def test_events_of_other_parts_pass_unchanged():
    note = Event("ProtestNoted", {"at": T0, "text": "s2 says s1 slapped"})
    assert challenge.event_view(note, SPECTATOR) == note


def test_viewers_are_grouped_by_what_they_may_see():
    """`view_group` (server.games.base): the shell computes one view per group, so a player
    must never share a group with the full-view roles."""
    assert {challenge.view_group(viewer) for viewer in FULL} == {"full"}
    assert {challenge.view_group(viewer) for viewer in (*PLAYER_LIKE, player("s2"))} == {"public"}
