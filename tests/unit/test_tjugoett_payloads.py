"""Golden whole-event payloads of Tjugoett rounds: given a stacked deck, when the players and
the dealer play, then exactly these events, every field compared (the way an auditor reads
the log), and the state they leave.

Why whole: the log is the audit record. A field set to None, a rule id swapped or a count off
by one in an event passes a test that checks only the event types or what `evolve` reads
(issue 20). Rule ids are from shared/rules/tjugoett.md.
"""

from __future__ import annotations

import dataclasses

from tjugoett_tables import DEALER, DIRECTOR, SEED, T0, S, Table, options, player, stacked

from server.games import tjugoett
from server.games.base import SERVER_ACTOR, Command, Event
from server.games.tjugoett.cards import DECK, reshuffle_label, round_label, shuffled
from server.games.tjugoett.state import Tally, TurnResult

PERSON = {"public_hands": "turn_over", "dealer_seat": "dl"}
SERVER = {"public_hands": "turn_over", "dealer_seat": None}


def data(events: list[Event]) -> list[tuple[str, dict]]:
    return [(event.type, dict(event.data)) for event in events]


def test_a_whole_round_against_a_person_dealer():
    """s1 stands on 17 and the dealer stands on 19 (R-21-18); s2 stands on 15 and the dealer
    busts (R-21-17); the round ends after the last seat (R-21-5)."""
    order = stacked("9C", "2D", "8C", "10S", "5H", "4S", "KD", "JH", "QH")
    table = Table(options(person_dealer=True, turn_seconds=20))
    started = table.do("start_round", DIRECTOR, order=order)
    assert data(started) == [
        ("RoundStarted", {"at": T0, "round": 1, "order": order, "rule": "R-21-3"}),
        (
            "CardDealt",
            {
                "at": T0,
                "seat": "s1",
                "card": "9C",
                "cards": 1,
                "sum": 9,
                **PERSON,
                "rule": "R-21-4",
            },
        ),
        (
            "CardDealt",
            {
                "at": T0,
                "seat": "s2",
                "card": "2D",
                "cards": 1,
                "sum": 2,
                **PERSON,
                "rule": "R-21-4",
            },
        ),
        ("TurnStarted", {"at": T0, "seat": "s1", "rule": "R-21-5"}),
        (
            "CardDealt",
            {
                "at": T0,
                "seat": "s1",
                "card": "8C",
                "cards": 2,
                "sum": 17,
                **PERSON,
                "rule": "R-21-6",
            },
        ),
    ]
    table.now = T0 + 3 * S
    assert data(table.do("stand", player("s1"))) == [
        (
            "PlayerStood",
            {
                "at": T0 + 3 * S,
                "seat": "s1",
                "cards": 2,
                "sum": 17,
                "cause": "player",
                **PERSON,
                "rule": "R-21-11",
            },
        )
    ]
    table.now = T1 = T0 + 4 * S
    drawn = [table.do("dealer_draw", DEALER) for _ in range(3)]
    assert [data(events) for events in drawn] == [
        [("DealerCardDealt", {"at": T1, "card": "10S", "cards": 1, "sum": 10, "rule": "R-21-14"})],
        [("DealerCardDealt", {"at": T1, "card": "5H", "cards": 2, "sum": 15, "rule": "R-21-14"})],
        [("DealerCardDealt", {"at": T1, "card": "4S", "cards": 3, "sum": 19, "rule": "R-21-14"})],
    ]
    assert data(table.do("dealer_stand", DEALER)) == [
        ("DealerStood", {"at": T1, "cards": 3, "sum": 19, "rule": "R-21-19"}),
        (
            "TurnSettled",
            {
                "at": T1,
                "seat": "s1",
                "winner": "dealer",
                "reason": "dealer_at_or_above",
                "player_cards": ["9C", "8C"],
                "player_sum": 17,
                "dealer_cards": ["10S", "5H", "4S"],
                "dealer_sum": 19,
                "rule": "R-21-18",
            },
        ),
        ("CardsDiscarded", {"at": T1, "holder": "s1", "cards": ["9C", "8C"], "rule": "R-21-12"}),
        (
            "CardsDiscarded",
            {"at": T1, "holder": "dealer", "cards": ["10S", "5H", "4S"], "rule": "R-21-13"},
        ),
        ("TurnStarted", {"at": T1, "seat": "s2", "rule": "R-21-5"}),
        (
            "CardDealt",
            {
                "at": T1,
                "seat": "s2",
                "card": "KD",
                "cards": 2,
                "sum": 15,
                **PERSON,
                "rule": "R-21-6",
            },
        ),
    ]
    table.now = T2 = T0 + 5 * S
    table.do("stand", player("s2"))
    table.do("dealer_draw", DEALER)
    assert data(table.do("dealer_draw", DEALER)) == [
        ("DealerCardDealt", {"at": T2, "card": "QH", "cards": 2, "sum": 23, "rule": "R-21-14"}),
        (
            "TurnSettled",
            {
                "at": T2,
                "seat": "s2",
                "winner": "player",
                "reason": "dealer_bust",
                "player_cards": ["2D", "KD"],
                "player_sum": 15,
                "dealer_cards": ["JH", "QH"],
                "dealer_sum": 23,
                "rule": "R-21-17",
            },
        ),
        ("CardsDiscarded", {"at": T2, "holder": "s2", "cards": ["2D", "KD"], "rule": "R-21-12"}),
        (
            "CardsDiscarded",
            {"at": T2, "holder": "dealer", "cards": ["JH", "QH"], "rule": "R-21-13"},
        ),
        (
            "RoundEnded",
            {
                "at": T2,
                "round": 1,
                "reason": "all_played",
                "results": {"s1": "dealer", "s2": "player"},
                "tally": {
                    "s1": {"won": 0, "lost": 1},
                    "s2": {"won": 1, "lost": 0},
                    "dealer": {"won": 1, "lost": 1},
                },
                "rule": "R-21-5",
            },
        ),
    ]
    state = table.state
    assert (state.phase, state.round, state.in_round, state.turn, state.stood) == (
        "between_rounds",
        1,
        False,
        None,
        False,
    )
    assert state.end_reason == "all_played" and state.clock == T2 and state.timer_from == T2
    assert state.discard_pile == ("9C", "8C", "10S", "5H", "4S", "2D", "KD", "JH", "QH")
    assert state.draw_pile == tuple(order[9:]) and state.dealer_cards == ()
    assert [hand.cards for hand in state.hands] == [(), ()]
    assert [hand.settled for hand in state.hands] == [True, True]
    assert state.tally == (Tally("s1", 0, 1), Tally("s2", 1, 0))
    assert state.results == (
        TurnResult(
            "s1",
            "dealer",
            "dealer_at_or_above",
            "R-21-18",
            ("9C", "8C"),
            17,
            ("10S", "5H", "4S"),
            19,
        ),
        TurnResult("s2", "player", "dealer_bust", "R-21-17", ("2D", "KD"), 15, ("JH", "QH"), 23),
    )
    assert table.replayed() == state


def test_a_hand_decided_at_once_has_no_dealer_cards_and_the_next_turn_follows():
    """R-21-7 on the opening two cards: settled before the dealer holds anything."""
    table = Table(options())
    events = table.do("start_round", DIRECTOR, order=stacked("AS", "2D", "7H", "9D"))
    assert data(events[4:]) == [
        (
            "CardDealt",
            {
                "at": T0,
                "seat": "s1",
                "card": "7H",
                "cards": 2,
                "sum": 21,
                **SERVER,
                "rule": "R-21-6",
            },
        ),
        (
            "TurnSettled",
            {
                "at": T0,
                "seat": "s1",
                "winner": "player",
                "reason": "twenty_one",
                "player_cards": ["AS", "7H"],
                "player_sum": 21,
                "dealer_cards": [],
                "dealer_sum": None,
                "rule": "R-21-7",
            },
        ),
        ("CardsDiscarded", {"at": T0, "holder": "s1", "cards": ["AS", "7H"], "rule": "R-21-12"}),
        ("TurnStarted", {"at": T0, "seat": "s2", "rule": "R-21-5"}),
        (
            "CardDealt",
            {
                "at": T0,
                "seat": "s2",
                "card": "9D",
                "cards": 2,
                "sum": 11,
                **SERVER,
                "rule": "R-21-6",
            },
        ),
    ]
    assert table.state.turn == "s2" and table.state.tally_of("s1") == Tally("s1", 1, 0)
    assert table.state.hand("s1").settled and not table.state.hand("s2").settled


def test_the_server_dealer_plays_by_its_deadlines_and_stands_at_dealer_stands_at():
    """The server dealer draws below `dealer_stands_at` and stands at it with two cards."""
    table = Table(options(players=1, dealer_stands_at=15, dealer_seconds=2))
    table.do("start_round", DIRECTOR, order=stacked("9C", "8C", "10S", "5H", "9H"))
    table.now = T0 + S
    table.do("stand", player("s1"))
    (deadline,) = tjugoett.deadlines(table.state)
    assert deadline.key == "dealer:1:s1:0" and deadline.at == T0 + 3 * S
    assert deadline.command == Command("dealer_play", {"key": "dealer:1:s1:0"}, SERVER_ACTOR)
    assert data(table.fire("dealer_play")) == [
        (
            "DealerCardDealt",
            {"at": T0 + 3 * S, "card": "10S", "cards": 1, "sum": 10, "rule": "R-21-14"},
        )
    ]
    (deadline,) = tjugoett.deadlines(table.state)
    assert deadline.key == "dealer:1:s1:1" and deadline.at == T0 + 5 * S
    table.fire("dealer_play")  # 15 on two cards: it stands next
    (deadline,) = tjugoett.deadlines(table.state)
    assert deadline.key == "dealer:1:s1:2" and deadline.at == T0 + 7 * S
    events = table.fire("dealer_play")
    assert data(events[:2]) == [
        ("DealerStood", {"at": T0 + 7 * S, "cards": 2, "sum": 15, "rule": "R-21-19"}),
        (
            "TurnSettled",
            {
                "at": T0 + 7 * S,
                "seat": "s1",
                "winner": "player",
                "reason": "dealer_below",
                "player_cards": ["9C", "8C"],
                "player_sum": 17,
                "dealer_cards": ["10S", "5H"],
                "dealer_sum": 15,
                "rule": "R-21-18",
            },
        ),
    ]
    assert events[-1].type == "RoundEnded"
    assert tjugoett.deadlines(table.state) == []  # no next_round_seconds: a person starts it


def test_a_stand_when_the_turn_seconds_pass_and_the_next_rounds_timer():
    table = Table(options(players=1, turn_seconds=10, next_round_seconds=4))
    table.do("start_round", DIRECTOR, order=stacked("9C", "8C", "10S", "KH"))
    (deadline,) = tjugoett.deadlines(table.state)
    assert (deadline.key, deadline.at) == ("turn:1:s1:2", T0 + 10 * S)
    assert deadline.command == Command("turn_deadline", {"key": "turn:1:s1:2"}, SERVER_ACTOR)
    assert data(table.fire("turn_deadline")) == [
        (
            "PlayerStood",
            {
                "at": T0 + 10 * S,
                "seat": "s1",
                "cards": 2,
                "sum": 17,
                "cause": "turn_seconds",
                **SERVER,
                "rule": "R-21-11",
            },
        )
    ]
    table.fire("dealer_play")
    ended = table.fire("dealer_play")  # 10 + 13: the dealer busts
    assert ended[-1].type == "RoundEnded" and ended[-1].data["at"] == T0 + 12 * S
    (deadline,) = tjugoett.deadlines(table.state)
    assert (deadline.key, deadline.at) == ("round:2", T0 + 16 * S)
    assert deadline.command == Command("start_round", {"key": "round:2"}, SERVER_ACTOR)
    started = table.fire("start_round")[0]
    assert dict(started.data) == {
        "at": T0 + 16 * S,
        "round": 2,
        "order": shuffled(DECK, SEED, round_label(2)),
        "rule": "R-21-3",
    }


def test_a_person_dealer_who_waits_turn_seconds_gets_the_servers_move():
    table = Table.dealt("9C", "2D", "8C", "10S", person_dealer=True, turn_seconds=6)
    table.now = T0 + S
    table.do("stand", player("s1"))
    (deadline,) = tjugoett.deadlines(table.state)
    assert (deadline.key, deadline.at) == ("dealer_wait:1:s1:0", T0 + 7 * S)
    assert deadline.command == Command("dealer_play", {"key": deadline.key}, SERVER_ACTOR)


def test_the_discard_pile_reshuffled_into_the_draw_pile_whole():
    """R-21-21: with one card left, the discards join it and are shuffled, the order recorded."""
    table = Table.dealt("2C", "3D", "4C", "5C")
    state = table.state
    table.state = dataclasses.replace(
        state, draw_pile=state.draw_pile[:1], discard_pile=state.draw_pile[1:4]
    )
    pile = table.state.draw_pile + table.state.discard_pile
    order = shuffled(pile, SEED, reshuffle_label(1, 1))
    assert data(table.do("draw_card", player("s1"))) == [
        (
            "DiscardsReshuffled",
            {"at": T0, "order": order, "kept": 1, "added": 3, "rule": "R-21-21"},
        ),
        (
            "CardDealt",
            {
                "at": T0,
                "seat": "s1",
                "card": order[0],
                "cards": 3,
                "sum": 6 + tjugoett.cards.card_points(order[0]),
                **SERVER,
                "rule": "R-21-10",
            },
        ),
    ]
    assert table.state.draw_pile == tuple(order[1:]) and table.state.reshuffles == 1


def test_a_second_reshuffle_in_a_round_has_its_own_label():
    table = Table.dealt("2C", "3D", "4C", "5C")
    state = dataclasses.replace(table.state, reshuffles=1)
    table.state = dataclasses.replace(
        state, draw_pile=state.draw_pile[:1], discard_pile=state.draw_pile[1:3]
    )
    pile = table.state.draw_pile + table.state.discard_pile
    reshuffled = table.do("draw_card", player("s1"))[0]
    assert reshuffled.data["order"] == shuffled(pile, SEED, reshuffle_label(1, 2))
    assert table.state.reshuffles == 2


def test_no_card_for_the_dealer_ends_the_round_whole():
    """R-21-22: one card left and nothing to rebuild from: a logged end, never a crash."""
    table = Table.dealt("9C", "2D", "8C")
    table.do("stand", player("s1"))
    table.state = dataclasses.replace(table.state, draw_pile=table.state.draw_pile[:1])
    assert data(table.fire("dealer_play")) == [
        (
            "DrawFailed",
            {
                "at": T0 + S,
                "for_whom": "dealer",
                "draw_pile": 1,
                "discard_pile": 0,
                "message": "no card can be drawn for dealer: the draw pile holds 1 card(s) "
                "and the discard pile is empty",
                "rule": "R-21-22",
            },
        ),
        (
            "RoundEnded",
            {
                "at": T0 + S,
                "round": 1,
                "reason": "no_card_to_draw",
                "results": {},
                "tally": {
                    "s1": {"won": 0, "lost": 0},
                    "s2": {"won": 0, "lost": 0},
                    "dealer": {"won": 0, "lost": 0},
                },
                "rule": "R-21-22",
            },
        ),
    ]
    state = table.state
    assert state.end_reason == "no_card_to_draw" and state.phase == "between_rounds"
    assert (state.in_round, state.turn, state.stood) == (False, None, False)  # no stand left over


def test_the_next_rounds_timer_runs_from_the_end_of_the_round():
    """`next_round_seconds` counts from `RoundEnded`, not from the last card dealt."""
    table = Table(options(players=1, person_dealer=True, next_round_seconds=4))
    table.do("start_round", DIRECTOR, order=stacked("9C", "8C", "10S", "9S"))
    table.do("stand", player("s1"))
    table.now = T0 + S
    table.do("dealer_draw", DEALER)
    table.do("dealer_draw", DEALER)  # 19 on two cards
    table.now = T0 + 7 * S
    ended = table.do("dealer_stand", DEALER)[-1]
    assert (ended.type, ended.data["at"]) == ("RoundEnded", T0 + 7 * S)
    (deadline,) = tjugoett.deadlines(table.state)
    assert (deadline.key, deadline.at) == ("round:2", T0 + 11 * S)


def test_the_director_ends_the_table_mid_round_whole():
    table = Table.dealt("9C", "2D", "8C")
    table.now = T0 + 9 * S
    assert data(table.do("end_table", DIRECTOR)) == [
        (
            "RoundEnded",
            {
                "at": T0 + 9 * S,
                "round": 1,
                "reason": "ended_by_director",
                "results": {},
                "tally": {
                    "s1": {"won": 0, "lost": 0},
                    "s2": {"won": 0, "lost": 0},
                    "dealer": {"won": 0, "lost": 0},
                },
                "rule": "",
            },
        ),
        (
            "TableEnded",
            {
                "at": T0 + 9 * S,
                "rounds": 1,
                "tally": {
                    "s1": {"won": 0, "lost": 0},
                    "s2": {"won": 0, "lost": 0},
                    "dealer": {"won": 0, "lost": 0},
                },
            },
        ),
    ]
    state = table.state
    assert (state.table_over, state.in_round, state.turn, state.stood) == (True, False, None, False)


def test_the_director_ends_the_table_between_rounds_with_one_event():
    table = Table(options(players=1))
    table.do("start_round", DIRECTOR, order=stacked("KC", "QC"))  # s1 busts: round over
    assert data(table.do("end_table", DIRECTOR)) == [
        (
            "TableEnded",
            {
                "at": T0,
                "rounds": 1,
                "tally": {"s1": {"won": 0, "lost": 1}, "dealer": {"won": 1, "lost": 0}},
            },
        )
    ]
