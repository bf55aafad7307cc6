"""Every refusal of a Tjugoett table, exactly: its code, the rule it cites and its message,
as the client receives them (`RuleViolation.as_dict`), from the command that provokes it.

Why exact: clients act on the code, a director reads the rule and the message; a refusal
whose message became None or whose rule went missing would reach the wire unnoticed (issue
20). Also checked: which check comes first when a command is wrong in two ways (the sender
before the phase, as `decide` says), and that nothing is recorded for a refused command.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tjugoett_tables import DEALER, DIRECTOR, SPECTATOR, T0, S, Table, options, player, stacked

from server.games import tjugoett
from server.games.base import SERVER_ACTOR, Actor, Command, RuleViolation
from server.games.tjugoett.cards import DECK

PROCTOR = Actor("proctor", "p1")


def fresh() -> Table:
    return Table(options())


def fresh_with_dealer() -> Table:
    return Table(options(person_dealer=True))


def player_turn() -> Table:
    """s1 holds 9C 8C (17) and is asked; s2 holds 2D; the server deals."""
    return Table.dealt("9C", "2D", "8C")


def dealer_turn() -> Table:
    """s1 stood on 17; the person dealer holds no card yet."""
    table = Table.dealt("9C", "2D", "8C", "10S", "5H", person_dealer=True)
    table.do("stand", player("s1"))
    return table


def dealer_turn_one_card() -> Table:
    table = dealer_turn()
    table.do("dealer_draw", DEALER)
    return table


def server_dealer_turn() -> Table:
    table = Table.dealt("9C", "2D", "8C", "10S")
    table.do("stand", player("s1"))
    return table


def person_player_turn() -> Table:
    return Table.dealt("9C", "2D", "8C", person_dealer=True)


def ended() -> Table:
    table = fresh()
    table.do("end_table")
    return table


REFUSALS: list[tuple[str, Callable[[], Table], str, Actor, dict, dict]] = [
    # (case, given, command, sender, args, the refusal as the client gets it)
    (
        "an unknown command",
        fresh,
        "shuffle",
        DIRECTOR,
        {},
        {"code": "unknown_command", "rule": "", "message": "unknown command 'shuffle'"},
    ),
    (
        "a player ends the table",
        fresh,
        "end_table",
        player("s1"),
        {},
        {"code": "not_allowed", "rule": "", "message": "'player' may not send end_table"},
    ),
    (
        "a spectator starts a round",
        fresh,
        "start_round",
        SPECTATOR,
        {},
        {
            "code": "not_allowed",
            "rule": "",
            "message": "start_round: the director or the dealer sends it",
        },
    ),
    (
        "a player who is not the dealer starts a round",
        fresh_with_dealer,
        "start_round",
        player("s1"),
        {},
        {
            "code": "not_allowed",
            "rule": "",
            "message": "start_round: the director or the dealer sends it",
        },
    ),
    (
        "the dealer gives an order",
        fresh_with_dealer,
        "start_round",
        DEALER,
        {"order": stacked()},
        {
            "code": "not_allowed",
            "rule": "",
            "message": "start_round: only the director or proctor gives an order",
        },
    ),
    (
        "an order of 51 cards",
        fresh,
        "start_round",
        DIRECTOR,
        {"order": list(DECK[:51])},
        {
            "code": "bad_args",
            "rule": "",
            "message": "start_round: 'order' is the 52 card codes, each once (R-21-1)",
        },
    ),
    (
        "a spectator draws",
        player_turn,
        "draw_card",
        SPECTATOR,
        {},
        {"code": "not_allowed", "rule": "", "message": "'spectator' may not send draw_card"},
    ),
    (
        "the director draws for the dealer",
        dealer_turn,
        "dealer_draw",
        DIRECTOR,
        {},
        {"code": "not_allowed", "rule": "", "message": "'director' may not send dealer_draw"},
    ),
    (
        "the dealer plays a player's hand",
        person_player_turn,
        "stand",
        DEALER,
        {},
        {
            "code": "not_allowed",
            "rule": "",
            "message": "stand: the dealer does not play a player's hand",
        },
    ),
    (
        "a seat that is not at the table",
        player_turn,
        "draw_card",
        player("s9"),
        {},
        {"code": "unknown_seat", "rule": "", "message": "no seat 's9' at this table"},
    ),
    (
        "the second player draws in the first's turn",
        player_turn,
        "draw_card",
        player("s2"),
        {},
        {
            "code": "not_your_turn",
            "rule": "R-21-5",
            "message": "it is seat s1's turn, not s2's",
        },
    ),
    (
        "a player draws for the dealer",
        dealer_turn,
        "dealer_draw",
        player("s1"),
        {},
        {"code": "not_dealer", "rule": "R-21-14", "message": "seat 's1' is not the dealer"},
    ),
    (
        "a person stands for the server's dealer",
        server_dealer_turn,
        "dealer_stand",
        player("s1"),
        {},
        {
            "code": "server_dealer",
            "rule": "R-21-14",
            "message": "dealer_stand: the server is this table's dealer",
        },
    ),
    (
        "a player draws between rounds",
        fresh,
        "draw_card",
        player("s1"),
        {},
        {
            "code": "no_round",
            "rule": "R-21-3",
            "message": "draw_card: no round is in play; start one first",
        },
    ),
    (
        "a round starts while one is in play",
        player_turn,
        "start_round",
        DIRECTOR,
        {},
        {"code": "round_in_play", "rule": "R-21-3", "message": "a round is in play"},
    ),
    (
        "the player draws after standing",
        dealer_turn,
        "draw_card",
        player("s1"),
        {},
        {
            "code": "dealer_turn",
            "rule": "R-21-14",
            "message": "draw_card: the player has stood; the dealer plays",
        },
    ),
    (
        "the dealer draws before the player stood",
        person_player_turn,
        "dealer_draw",
        DEALER,
        {},
        {
            "code": "player_turn",
            "rule": "R-21-14",
            "message": "dealer_draw: the dealer draws only after the player stood",
        },
    ),
    (
        "the dealer stands on no card",
        dealer_turn,
        "dealer_stand",
        DEALER,
        {},
        {"code": "too_few_cards", "rule": "R-21-11", "message": "the dealer holds 0 card(s)"},
    ),
    (
        "the dealer stands on one card",
        dealer_turn_one_card,
        "dealer_stand",
        DEALER,
        {},
        {"code": "too_few_cards", "rule": "R-21-11", "message": "the dealer holds 1 card(s)"},
    ),
    (
        "a round after the table ended",
        ended,
        "start_round",
        DIRECTOR,
        {},
        {"code": "table_over", "rule": "", "message": "start_round: the table has ended"},
    ),
    (
        "a person sends the server's dealer move",
        server_dealer_turn,
        "dealer_play",
        DIRECTOR,
        {},
        {
            "code": "not_allowed",
            "rule": "",
            "message": "dealer_play is the server's, fired by a deadline",
        },
    ),
    (
        "a player sends the turn's deadline",
        player_turn,
        "turn_deadline",
        player("s1"),
        {},
        {
            "code": "not_allowed",
            "rule": "",
            "message": "turn_deadline is the server's, fired by a deadline",
        },
    ),
    (
        "a timer whose key is no longer live",
        server_dealer_turn,
        "dealer_play",
        SERVER_ACTOR,
        {"key": "dealer:1:s1:5"},
        {
            "code": "stale_deadline",
            "rule": "",
            "message": "dealer_play: 'dealer:1:s1:5' is not a live deadline",
        },
    ),
]


@pytest.mark.parametrize(
    ("given", "name", "actor", "args", "expected"),
    [case[1:] for case in REFUSALS],
    ids=[case[0] for case in REFUSALS],
)
def test_every_refusal_exactly(given, name, actor, args, expected):
    table = given()
    assert table.refused(name, actor, **args).as_dict() == expected


def test_arguments_that_are_not_a_map():
    table = fresh()
    with pytest.raises(RuleViolation) as caught:
        tjugoett.decide(table.state, Command("start_round", ["x"], DIRECTOR), T0)  # type: ignore[arg-type]
    assert caught.value.as_dict() == {
        "code": "bad_args",
        "rule": "",
        "message": "start_round: arguments are a map",
    }


def test_a_timer_more_than_a_millisecond_early_is_not_due():
    table = server_dealer_turn()
    (deadline,) = tjugoett.deadlines(table.state)
    assert deadline.at == T0 + S
    early = Command("dealer_play", {"key": deadline.key}, SERVER_ACTOR)
    with pytest.raises(RuleViolation) as caught:
        tjugoett.decide(table.state, early, deadline.at - 1_001)
    assert caught.value.as_dict() == {
        "code": "deadline_not_due",
        "rule": "",
        "message": f"dealer:1:s1:0 is due at {T0 + S}, now is {deadline.at - 1_001}",
    }
    # a millisecond early is due, and happens at the deadline's own time
    events = tjugoett.decide(table.state, early, deadline.at - 1_000)
    assert [event.data["at"] for event in events] == [deadline.at]


@pytest.mark.parametrize("official", [DIRECTOR, PROCTOR])
def test_both_officials_give_an_order_start_rounds_and_end_the_table(official):
    table = fresh_with_dealer()
    events = table.do("start_round", official, order=stacked("9C", "2D", "8C"))
    assert events[0].data["order"][:3] == ["9C", "2D", "8C"]
    assert table.do("end_table", official)[-1].type == "TableEnded"


def test_the_sender_is_checked_before_the_phase():
    """A wrong sender in the wrong phase hears about the sender (`decide`'s order)."""
    table = fresh()
    assert table.refused("draw_card", player("s9")).code == "unknown_seat"
    assert table.refused("draw_card", SPECTATOR).code == "not_allowed"
    assert table.refused("dealer_draw", player("s1")).code == "server_dealer"
    with_dealer = fresh_with_dealer()
    assert with_dealer.refused("dealer_draw", player("s1")).code == "not_dealer"


def test_in_the_dealers_turn_another_player_hears_it_is_the_dealers_turn():
    """`not_your_turn` is for the player turn; after a stand every player hears `dealer_turn`."""
    table = dealer_turn()
    assert table.refused("draw_card", player("s2")).code == "dealer_turn"
    assert table.refused("stand", player("s2")).code == "dealer_turn"


def test_a_turns_deadline_for_the_player_is_the_servers_alone():
    table = Table.dealt("9C", "2D", "8C", turn_seconds=5)
    (deadline,) = tjugoett.deadlines(table.state)
    assert deadline.key == "turn:1:s1:2"
    refusal = table.refused("turn_deadline", DIRECTOR, key=deadline.key)
    assert refusal.code == "not_allowed"
