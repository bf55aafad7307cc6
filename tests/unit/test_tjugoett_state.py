"""What a Tjugoett table is between events: the game's face for the shell (who may send what,
the final events, the seed option), `evolve` on a log that is not the game's own, the state's
helpers, and the draw pile at the edge of a reshuffle (R-21-21: only when ONE card is left).

Why: these are read by the shell and the views, not by the rule tests' assertions, so a
changed constant or a helper off by one went unnoticed (issue 20).
"""

from __future__ import annotations

import dataclasses

from tjugoett_tables import DIRECTOR, T0, S, Table, options, player, stacked

from server.games import tjugoett
from server.games.base import Event
from server.games.tjugoett.state import Hand, Tally, TjugoettState


def test_the_face_the_shell_reads():
    assert tjugoett.NAME == "tjugoett"
    assert tjugoett.RECOVERY_COMMAND is None and tjugoett.SEED_OPTION == "seed"
    assert tjugoett.FINAL_EVENTS == frozenset({"TableEnded"})
    assert {name: sorted(roles) for name, roles in tjugoett.COMMANDS_BY_ROLE.items()} == {
        "start_round": ["director", "player", "proctor", "server"],
        "draw_card": ["player"],
        "stand": ["player"],
        "dealer_draw": ["player"],
        "dealer_stand": ["player"],
        "dealer_play": ["server"],
        "turn_deadline": ["server"],
        "end_table": ["director", "proctor"],
    }


def test_no_reshuffle_while_two_cards_are_left():
    """R-21-21 rebuilds the pile when one card is left, not before."""
    table = Table.dealt("2C", "3D", "4C", "5C", "6C")
    state = table.state
    table.state = dataclasses.replace(
        state, draw_pile=state.draw_pile[:2], discard_pile=state.draw_pile[2:]
    )
    (dealt,) = table.do("draw_card", player("s1"))
    assert (dealt.type, dealt.data["card"]) == ("CardDealt", "5C")
    assert table.state.draw_pile == ("6C",) and table.state.reshuffles == 0


def test_a_card_not_on_top_of_the_pile_is_taken_from_where_it_is():
    """`evolve` follows a log that is not the game's own (a director's correction, an old
    log): the card is taken from wherever it is in the pile."""
    table = Table.dealt("2C", "3D", "4C")
    top = table.state.draw_pile[:3]
    event = Event("CardDealt", {"at": T0, "seat": "s1", "card": top[2]})
    after = tjugoett.evolve(table.state, event)
    assert after.draw_pile[:2] == top[:2] and top[2] not in after.draw_pile
    assert len(after.draw_pile) == len(table.state.draw_pile) - 1
    assert after.cards_of("s1") == ("2C", "4C", top[2])
    dealer = tjugoett.evolve(table.state, Event("DealerCardDealt", {"at": T0, "card": top[1]}))
    assert dealer.draw_pile == (top[0], *table.state.draw_pile[2:])
    assert dealer.dealer_cards == (top[1],)


def test_evolve_keeps_unknown_events_and_never_turns_the_clock_back():
    state = Table(options()).state
    later = tjugoett.evolve(state, Event("Annotated", {"at": T0}))
    assert later == dataclasses.replace(state, clock=T0)
    assert tjugoett.evolve(later, Event("Annotated", {"at": T0 - 1})) == later
    assert tjugoett.evolve(later, Event("Annotated", {"at": "soon"})) == later
    assert tjugoett.evolve(later, Event("DealerStood", {"at": T0 + 1})).clock == T0 + 1


def test_the_state_helpers():
    state = tjugoett.initial_state(options(players=3))
    assert state.tally == (Tally("s1"), Tally("s2"), Tally("s3"))
    assert state.hand("s1") is None and state.cards_of("s1") == ()
    assert state.tally_of("s9") == Tally("s9", 0, 0)
    hands = (Hand("s1", ("2C",), True), Hand("s2"), Hand("s3"))
    dealt = dataclasses.replace(state, hands=hands, turn="s2", in_round=True)
    assert dealt.next_seat() == "s3"  # s1 settled, s2 playing
    assert dataclasses.replace(dealt, turn=None).next_seat() == "s2"
    tallied = dataclasses.replace(state, tally=(Tally("s1", 2, 1), Tally("s2", 0, 3)))
    assert tallied.dealer_tally() == Tally("dealer", won=4, lost=2)
    assert isinstance(state, TjugoettState) and state.phase == "between_rounds"


def test_the_phases():
    table = Table(options(players=1))
    assert table.state.phase == "between_rounds"
    table.do("start_round", DIRECTOR, order=stacked("9C", "8C"))
    assert table.state.phase == "player_turn"
    in_round_no_turn = dataclasses.replace(table.state, turn=None)
    assert in_round_no_turn.phase == "between_rounds"
    table.do("stand", player("s1"))
    assert table.state.phase == "dealer_turn"
    ended = dataclasses.replace(table.state, table_over=True)
    assert ended.phase == "table_over"


def test_a_round_start_resets_what_the_last_round_left():
    table = Table(options(players=1))
    table.do("start_round", DIRECTOR, order=stacked("KC", "QC"))  # s1 busts
    state = dataclasses.replace(
        table.state, reshuffles=2, dealer_cards=("AS",), stood=True, turn="s1"
    )
    order = stacked("9C", "8C")
    started = tjugoett.evolve(
        state, Event("RoundStarted", {"at": T0 + 5, "round": 2, "order": order})
    )
    assert (started.round, started.in_round, started.turn, started.stood) == (2, True, None, False)
    assert started.draw_pile == tuple(order) and started.discard_pile == ()
    assert started.hands == (Hand("s1"),) and started.dealer_cards == ()
    assert (started.reshuffles, started.results, started.end_reason) == (0, (), None)
    assert started.timer_from == T0 + 5 and started.tally == state.tally


def test_a_table_ended_mid_turn_in_a_foreign_log_ends_the_round_too():
    """`decide` ends a round before the table (`RoundEnded` first); a log without it (an old
    or hand-written one) still leaves no round, turn or stand behind the end of the table."""
    table = Table.dealt("9C", "2D", "8C")
    table.do("stand", player("s1"))
    assert (table.state.in_round, table.state.turn, table.state.stood) == (True, "s1", True)
    ended = tjugoett.evolve(table.state, Event("TableEnded", {"at": T0, "rounds": 1}))
    assert (ended.table_over, ended.in_round, ended.turn, ended.stood) == (True, False, None, False)


def test_two_cards_left_without_discards_are_still_drawn():
    """R-21-22 fails a draw only when one card is left and nothing can rebuild the pile."""
    table = Table.dealt("2C", "3D", "4C", "5C", "6C")
    table.state = dataclasses.replace(table.state, draw_pile=table.state.draw_pile[:2])
    (dealt,) = table.do("draw_card", player("s1"))
    assert (dealt.type, dealt.data["card"]) == ("CardDealt", "5C")
    assert table.state.draw_pile == ("6C",) and table.state.in_round


def test_a_settled_turn_ends_the_dealers_turn_by_itself():
    """`TurnSettled` clears the stand in the state it leaves, whatever follows it in the log."""
    table = Table.dealt("9C", "2D", "8C")
    table.do("stand", player("s1"))
    settled = Event(
        "TurnSettled",
        {
            "at": T0,
            "seat": "s1",
            "winner": "player",
            "reason": "dealer_bust",
            "rule": "R-21-17",
            "player_cards": ["9C", "8C"],
            "player_sum": 17,
            "dealer_cards": [],
            "dealer_sum": None,
        },
    )
    after = tjugoett.evolve(table.state, settled)
    assert after.stood is False and after.hand("s1").settled is True
    assert after.tally_of("s1") == Tally("s1", 1, 0)


def test_a_turn_start_clears_the_stand_and_starts_the_timer_by_itself():
    table = Table.dealt("9C", "2D", "8C")
    table.do("stand", player("s1"))
    started = tjugoett.evolve(table.state, Event("TurnStarted", {"at": T0 + 9, "seat": "s2"}))
    assert (started.turn, started.stood, started.timer_from) == ("s2", False, T0 + 9)


def test_each_card_dealt_restarts_the_players_timer():
    """`turn_seconds` is per move: the deadline runs from the last card dealt."""
    table = Table.dealt("2C", "3D", "4C", "5C", turn_seconds=10)
    table.now = T0 + 4 * S
    table.do("draw_card", player("s1"))
    (deadline,) = tjugoett.deadlines(table.state)
    assert (deadline.key, deadline.at) == ("turn:1:s1:3", T0 + 14 * S)
