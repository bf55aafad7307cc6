"""Tjugoett, rule by rule: given these events (a stacked deck), when this command, then these
events (or this refusal). Rule ids are from shared/rules/tjugoett.md (R-21-1..22).

Seat order in these tests: s1, s2 (and more when a test says so). With a stacked deck the
opening cards (R-21-4) are the top cards in seat order, then each turn starts with the next
card (R-21-6), then draws follow, the player's and then the dealer's.
"""

from __future__ import annotations

import dataclasses

import pytest
from tjugoett_tables import (
    DEALER,
    DIRECTOR,
    SEED,
    SPECTATOR,
    T0,
    S,
    Table,
    only,
    options,
    player,
    stacked,
    types,
    value,
)

from server.games import tjugoett
from server.games.base import SERVER_ACTOR, Command, Event, RuleViolation
from server.games.tjugoett.cards import (
    DECK,
    card_points,
    dealer_verdict,
    player_verdict,
    reshuffle_label,
    round_label,
    server_dealer_stands,
    shuffled,
    stand_verdict,
)

# -- R-21-1: the deck ---------------------------------------------------------------------------


def test_r21_1_the_deck_is_52_cards_of_four_suits_and_thirteen_ranks():
    assert len(DECK) == len(set(DECK)) == 52
    for suit in "CDHS":
        assert [card for card in DECK if card.endswith(suit)] == [
            rank + suit
            for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
        ]


def test_r21_1_a_round_order_must_be_the_52_cards_each_once():
    table = Table(options())
    assert table.refused("start_round", order=DECK[:51]).code == "bad_args"
    assert table.refused("start_round", order=[*DECK[:51], "AS"]).code == "bad_args"
    assert table.refused("start_round", order=[*DECK[:51], "1Z"]).code == "bad_args"
    assert table.refused("start_round", order=" ".join(DECK)).code == "bad_args"


# -- R-21-2: what a hand is worth ---------------------------------------------------------------


def test_r21_2_king_queen_jack_and_number_cards():
    assert [card_points(card) for card in ("KS", "QH", "JD", "10C", "2S")] == [13, 12, 11, 10, 2]
    assert value("KS") == 13 and value("QH", "2C") == 14


@pytest.mark.parametrize(
    ("cards", "worth", "why"),
    [
        (("AS",), 14, "a lone ace is best high"),
        (("AS", "7H"), 21, "ace high makes 21"),
        (("AS", "KH"), 14, "ace high would be 27: the ace counts 1"),
        (("AS", "AH"), 15, "one ace high, one low; both high is 28"),
        (("AS", "AH", "KD"), 15, "A+A+K: 1+1+13, any ace high busts"),
        (("AS", "AH", "AD", "AC"), 17, "four aces: 14+1+1+1"),
        (("AS", "KH", "7D"), 21, "1+13+7 with the ace low"),
        (("AS", "2H", "3D", "4C", "5S"), 15, "five cards with an ace: 28 busts, so 15"),
        (("2H", "3D", "4C", "5S", "6H"), 20, "five number cards"),
        (("KS", "AH", "QD"), 26, "bust with an ace: the smallest total, 26"),
        (("JS", "10H", "AD"), 22, "bust with an ace at 1"),
        (("AS", "AH", "KD", "QC"), 27, "bust with two aces: 1+1+13+12"),
    ],
)
def test_r21_2_ace_is_1_or_14_whichever_is_better(cards, worth, why):
    assert value(*cards) == worth, why


# -- R-21-3: the shuffle and the draw pile ---------------------------------------------------


def test_r21_3_round_started_records_the_seeded_order_and_the_discard_pile_is_empty():
    table = Table(options())
    events = table.do("start_round", DIRECTOR)
    started = events[0]
    assert started.type == "RoundStarted" and started.data["rule"] == "R-21-3"
    assert started.data["round"] == 1 and started.data["at"] == T0
    assert started.data["order"] == shuffled(DECK, SEED, round_label(1))
    assert sorted(started.data["order"]) == sorted(DECK)
    at_start = tjugoett.evolve(Table(options()).state, started)
    assert at_start.draw_pile == tuple(started.data["order"]) and at_start.discard_pile == ()
    # the opening cards came off the top of the recorded order
    assert events[1].data["card"] == started.data["order"][0]


def test_r21_3_replay_reads_the_recorded_order_and_never_shuffles_again():
    table = Table(options())
    order = stacked("2C", "3C", "4C")
    started = Event("RoundStarted", {"at": T0, "round": 1, "order": order, "rule": "R-21-3"})
    state = tjugoett.evolve(table.state, started)
    assert state.draw_pile == tuple(order)


def test_r21_3_each_round_is_a_new_shuffle_of_all_52_cards():
    table = Table(options(players=1))
    table.do("start_round", order=stacked("KC", "QC"))  # s1 busts at once: the round ends
    assert table.state.phase == "between_rounds"
    second = table.do("start_round", DIRECTOR)[0]
    assert second.data["round"] == 2
    assert second.data["order"] == shuffled(DECK, SEED, round_label(2))
    assert table.state.discard_pile == ()
    assert len(table.state.draw_pile) == 52 - 2


def test_r21_3_the_shuffle_is_a_pure_function_of_seed_and_label():
    assert shuffled(DECK, "seed-one-1", "round 1") == shuffled(DECK, "seed-one-1", "round 1")
    assert shuffled(DECK, "seed-one-1", "round 1") != shuffled(DECK, "seed-two-2", "round 1")
    assert shuffled(DECK, "seed-one-1", "round 1") != shuffled(DECK, "seed-one-1", "round 2")


def test_r21_3_only_the_director_or_proctor_gives_an_order():
    table = Table(options(person_dealer=True))
    assert table.refused("start_round", DEALER, order=stacked()).code == "not_allowed"
    assert table.do("start_round", DEALER)[0].type == "RoundStarted"


def test_r21_3_rounds_start_only_between_rounds_and_only_by_officials_or_the_dealer():
    table = Table(options())
    assert table.refused("start_round", player("s1")).code == "not_allowed"
    assert table.refused("start_round", SPECTATOR).code == "not_allowed"
    assert table.refused("start_round", SERVER_ACTOR, key="round:1").code == "stale_deadline"
    table.do("start_round")
    assert table.refused("start_round").code == "round_in_play"


# -- R-21-4 .. R-21-6: dealing and turns ---------------------------------------------------------


def test_r21_4_every_player_but_the_dealer_gets_one_card_then_r21_6_the_first_turn_starts():
    table = Table(options(players=3, person_dealer=True))
    events = table.do("start_round", order=stacked("2C", "3C", "4C", "5C"))
    assert types(events) == [
        "RoundStarted",
        "CardDealt",
        "CardDealt",
        "CardDealt",
        "TurnStarted",
        "CardDealt",
    ]
    opening = [(e.data["seat"], e.data["card"], e.data["rule"]) for e in events[1:4]]
    assert opening == [("s1", "2C", "R-21-4"), ("s2", "3C", "R-21-4"), ("s3", "4C", "R-21-4")]
    assert table.state.dealer_cards == ()
    assert events[4].data == {"at": T0, "seat": "s1", "rule": "R-21-5"}
    assert (events[5].data["seat"], events[5].data["card"]) == ("s1", "5C")
    assert events[5].data["rule"] == "R-21-6" and events[5].data["cards"] == 2
    assert table.state.cards_of("s1") == ("2C", "5C")


def test_r21_5_players_face_the_dealer_one_at_a_time_in_seat_order():
    table = Table.dealt("2C", "3C", "4C")
    assert table.state.turn == "s1"
    assert table.refused("draw_card", player("s2")).code == "not_your_turn"
    assert table.refused("stand", player("s2")).code == "not_your_turn"
    assert table.refused("draw_card", player("s9")).code == "unknown_seat"
    assert table.refused("draw_card", SPECTATOR).code == "not_allowed"
    table.do("stand", player("s1"))
    table.fire("dealer_play")  # the server dealer plays until it stands or the turn is decided
    while table.state.turn == "s1":
        table.fire("dealer_play")
    assert table.state.turn == "s2"
    assert table.state.cards_of("s2")[0] == "3C"
    assert len(table.state.cards_of("s2")) == 2


def test_r21_5_the_round_ends_after_the_last_seat():
    table = Table.dealt("KC", "KD", "QC", "QD")  # both bust on their second card
    assert types(table.events)[-1] == "RoundEnded"
    ended = table.events[-1].data
    assert ended["reason"] == "all_played" and ended["results"] == {"s1": "dealer", "s2": "dealer"}
    assert ended["tally"]["dealer"] == {"won": 2, "lost": 0}
    assert table.state.phase == "between_rounds"


def test_r21_6_a_player_holds_two_to_five_cards():
    table = Table.dealt("2C", "KD", "3C", "4C", "5C", "6C")  # 2+3+4+5+6 = 20 on five cards
    for _ in range(3):
        table.do("draw_card", player("s1"))
    settled = only(table.events, "TurnSettled")
    assert settled.data["player_cards"] == ["2C", "3C", "4C", "5C", "6C"]
    assert table.refused("draw_card", player("s1")).code == "not_your_turn"


# -- R-21-7 .. R-21-11: the player's hand ------------------------------------------------------


def test_r21_7_twenty_one_wins_at_once_on_two_cards():
    table = Table.dealt("AS", "KD", "7H")
    settled = only(table.events, "TurnSettled")
    assert settled.data["seat"] == "s1"
    assert (settled.data["winner"], settled.data["reason"]) == ("player", "twenty_one")
    assert settled.data["rule"] == "R-21-7" and settled.data["player_sum"] == 21
    assert settled.data["dealer_cards"] == [] and settled.data["dealer_sum"] is None
    assert table.state.turn == "s2"


def test_r21_7_twenty_one_wins_at_once_after_a_draw():
    table = Table.dealt("10S", "KD", "5H", "6C")
    events = table.do("draw_card", player("s1"))
    assert types(events)[:3] == ["CardDealt", "TurnSettled", "CardsDiscarded"]
    assert events[1].data["reason"] == "twenty_one" and events[1].data["winner"] == "player"


def test_r21_8_five_cards_under_21_win_at_once():
    table = Table.dealt("2C", "KD", "3C", "4C", "5C", "AC")  # 2+3+4+5+A = 15 (A high busts)
    for _ in range(2):
        assert table.do("draw_card", player("s1"))[-1].type == "CardDealt"
    events = table.do("draw_card", player("s1"))
    settled = only(events, "TurnSettled")
    assert (settled.data["winner"], settled.data["reason"]) == ("player", "five_cards")
    assert settled.data["rule"] == "R-21-8" and settled.data["player_sum"] == 15


def test_r21_9_over_21_is_bust_and_loses():
    table = Table.dealt("KC", "2D", "QC")
    settled = only(table.events, "TurnSettled")
    assert (settled.data["winner"], settled.data["reason"]) == ("dealer", "bust")
    assert settled.data["rule"] == "R-21-9" and settled.data["player_sum"] == 25


def test_r21_9_bust_with_an_ace_counted_low():
    table = Table.dealt("KC", "2D", "AC", "QC")  # K+A = 14, then Q: 26 even with the ace at 1
    events = table.do("draw_card", player("s1"))
    settled = only(events, "TurnSettled")
    assert settled.data["reason"] == "bust" and settled.data["player_sum"] == 26


def test_r21_10_a_player_under_21_with_fewer_than_five_cards_draws():
    table = Table.dealt("2C", "3D", "4C", "5C")
    events = table.do("draw_card", player("s1"))
    assert types(events) == ["CardDealt"]
    assert events[0].data["card"] == "5C" and events[0].data["rule"] == "R-21-10"
    assert events[0].data["cards"] == 3 and events[0].data["sum"] == 11


def test_r21_11_a_player_with_two_cards_under_21_stands_and_the_dealer_plays():
    table = Table.dealt("2C", "3D", "4C")
    (stood,) = table.do("stand", player("s1"))
    assert stood.type == "PlayerStood" and stood.data["rule"] == "R-21-11"
    assert stood.data["sum"] == 6 and stood.data["cards"] == 2
    assert table.state.phase == "dealer_turn"
    assert table.refused("draw_card", player("s1")).code == "dealer_turn"
    assert table.refused("stand", player("s1")).code == "dealer_turn"


# -- R-21-12 / R-21-13: discard piles ----------------------------------------------------------


def test_r21_12_the_players_cards_go_to_the_discard_pile_when_the_turn_is_over():
    table = Table.dealt("KC", "2D", "QC")  # s1 busts, the dealer holds nothing
    discards = [e for e in table.events if e.type == "CardsDiscarded"]
    assert [(e.data["holder"], e.data["cards"], e.data["rule"]) for e in discards] == [
        ("s1", ["KC", "QC"], "R-21-12")
    ]
    assert table.state.discard_pile == ("KC", "QC")
    assert table.state.cards_of("s1") == ()


def test_r21_13_the_dealers_cards_follow_the_players_to_the_discard_pile():
    table = Table.dealt("9C", "2D", "8C", "10D", "5H", "4S", person_dealer=True)
    table.do("stand", player("s1"))  # 17
    table.do("dealer_draw", DEALER)  # 10
    table.do("dealer_draw", DEALER)  # 15
    events = table.do("dealer_draw", DEALER)  # 19: no verdict yet
    assert types(events) == ["DealerCardDealt"]
    events = table.do("dealer_stand", DEALER)
    assert types(events)[:4] == ["DealerStood", "TurnSettled", "CardsDiscarded", "CardsDiscarded"]
    assert events[2].data["holder"] == "s1" and events[2].data["rule"] == "R-21-12"
    assert events[3].data == {
        "at": T0,
        "holder": "dealer",
        "cards": ["10D", "5H", "4S"],
        "rule": "R-21-13",
    }
    assert table.state.discard_pile == ("9C", "8C", "10D", "5H", "4S")
    assert table.state.dealer_cards == ()


# -- R-21-14 .. R-21-18: the dealer --------------------------------------------------------------


def test_r21_14_the_dealer_draws_only_after_a_player_stood():
    table = Table.dealt("9C", "2D", "8C", person_dealer=True)
    assert table.refused("dealer_draw", DEALER).code == "player_turn"
    assert table.refused("dealer_stand", DEALER).code == "player_turn"
    table.do("stand", player("s1"))
    (drawn,) = table.do("dealer_draw", DEALER)
    assert drawn.type == "DealerCardDealt" and drawn.data["rule"] == "R-21-14"


def test_r21_14_only_the_dealer_sends_the_dealers_moves():
    table = Table.dealt("9C", "2D", "8C", person_dealer=True)
    table.do("stand", player("s1"))
    assert table.refused("dealer_draw", player("s2")).code == "not_dealer"
    assert table.refused("dealer_draw", DIRECTOR).code == "not_allowed"
    assert table.refused("draw_card", DEALER).code == "not_allowed"
    server_table = Table.dealt("9C", "2D", "8C")
    server_table.do("stand", player("s1"))
    assert server_table.refused("dealer_draw", DEALER).code == "server_dealer"
    assert server_table.refused("dealer_play", DIRECTOR).code == "not_allowed"


def test_r21_14_the_dealer_stands_with_at_least_two_cards():
    table = Table.dealt("9C", "2D", "8C", "10D", person_dealer=True)
    table.do("stand", player("s1"))
    assert table.refused("dealer_stand", DEALER).code == "too_few_cards"
    table.do("dealer_draw", DEALER)
    assert table.refused("dealer_stand", DEALER).code == "too_few_cards"


def _dealer_against(player_cards: tuple[str, str], dealer_cards: tuple[str, ...]) -> Table:
    """s1 stands on `player_cards`; the person dealer draws `dealer_cards`."""
    table = Table.dealt(player_cards[0], "2D", player_cards[1], *dealer_cards, person_dealer=True)
    table.do("stand", player("s1"))
    for _ in dealer_cards:
        if table.state.phase == "dealer_turn":
            table.do("dealer_draw", DEALER)
    return table


def test_r21_15_the_dealer_at_21_wins():
    table = _dealer_against(("9C", "8C"), ("AS", "7H"))
    settled = only(table.events, "TurnSettled")
    assert (settled.data["winner"], settled.data["reason"]) == ("dealer", "dealer_twenty_one")
    assert settled.data["rule"] == "R-21-15" and settled.data["dealer_sum"] == 21


def test_r21_16_the_dealer_with_five_cards_under_21_wins():
    table = _dealer_against(("9C", "8C"), ("2S", "3H", "4D", "5S", "6H"))  # 20 on five cards
    settled = only(table.events, "TurnSettled")
    assert (settled.data["winner"], settled.data["reason"]) == ("dealer", "dealer_five_cards")
    assert settled.data["rule"] == "R-21-16"


def test_r21_17_the_dealer_over_21_is_bust_and_loses():
    table = _dealer_against(("2C", "3C"), ("KS", "QH"))
    settled = only(table.events, "TurnSettled")
    assert (settled.data["winner"], settled.data["reason"]) == ("player", "dealer_bust")
    assert settled.data["rule"] == "R-21-17" and settled.data["dealer_sum"] == 25
    assert table.state.tally_of("s1").won == 1


@pytest.mark.parametrize(
    ("dealer_cards", "winner", "reason"),
    [
        (("10S", "8H"), "dealer", "dealer_at_or_above"),  # 18 > 17
        (("10S", "7H"), "dealer", "dealer_at_or_above"),  # 17 == 17: the tie is the dealer's
        (("10S", "6H"), "player", "dealer_below"),  # 16 < 17
    ],
)
def test_r21_18_a_standing_dealer_wins_at_or_above_the_players_sum(dealer_cards, winner, reason):
    table = _dealer_against(("9C", "8C"), dealer_cards)
    table.do("dealer_stand", DEALER)
    settled = only(table.events, "TurnSettled")
    assert (settled.data["winner"], settled.data["reason"]) == (winner, reason)
    assert settled.data["rule"] == "R-21-18"
    assert settled.data["player_sum"] == 17 and settled.data["player_cards"] == ["9C", "8C"]


def test_verdicts_as_pure_functions():
    assert player_verdict(["AS", "7H"]).rule == "R-21-7"
    assert player_verdict(["KS", "QH"]).rule == "R-21-9"
    assert player_verdict(["2S", "3H", "4D", "5S", "6H"]).rule == "R-21-8"
    assert player_verdict(["2S", "3H"]) is None
    assert dealer_verdict(["AS", "7H"]).winner == "dealer"
    assert dealer_verdict(["KS", "QH"]).winner == "player"
    assert dealer_verdict(["2S", "3H"]) is None
    assert stand_verdict(17, 17).winner == "dealer" and stand_verdict(16, 17).winner == "player"


# -- the server's dealer ---------------------------------------------------------------------


def test_server_dealer_stands_at_17_with_two_cards_by_default():
    assert not server_dealer_stands(["KS"], 17)  # one card: always draws
    assert not server_dealer_stands(["10S", "6H"], 17)
    assert server_dealer_stands(["10S", "7H"], 17)
    assert server_dealer_stands(["AS", "3H"], 17)  # 17 with the ace high


def test_server_dealer_plays_by_deadlines_at_its_pace():
    table = Table.dealt("9C", "2D", "8C", "10S", "6H", "2S", dealer_seconds=0.5)
    table.do("stand", player("s1"))
    (deadline,) = tjugoett.deadlines(table.state)
    assert deadline.command.name == "dealer_play" and deadline.at == T0 + S // 2
    assert deadline.command.actor == SERVER_ACTOR
    early = Command("dealer_play", deadline.command.args, SERVER_ACTOR)
    with pytest.raises(RuleViolation) as caught:
        tjugoett.decide(table.state, early, T0)
    assert caught.value.code == "deadline_not_due"
    assert types(table.fire("dealer_play")) == ["DealerCardDealt"]  # 10
    stale = dict(deadline.command.args)
    assert table.refused("dealer_play", SERVER_ACTOR, **stale).code == "stale_deadline"
    table.fire("dealer_play")  # 16: draws again
    events = table.fire("dealer_play")  # 18 on three cards: the dealer stands next
    assert types(events) == ["DealerCardDealt"]
    events = table.fire("dealer_play")
    assert types(events)[:2] == ["DealerStood", "TurnSettled"]
    assert events[1].data["winner"] == "dealer"  # 18 >= 17


# -- R-21-19: hidden information (the full checks are in test_tjugoett_view.py) ----------------


def test_r21_19_the_players_sum_reaches_the_dealer_only_after_the_dealers_stand():
    table = _dealer_against(("9C", "8C"), ("10S", "8H"))
    stood = only(table.events, "PlayerStood")
    assert tjugoett.event_view(stood, DEALER).data["sum"] is None
    events = table.do("dealer_stand", DEALER)
    assert events[0].type == "DealerStood" and events[0].data["rule"] == "R-21-19"
    settled = tjugoett.event_view(events[1], DEALER)
    assert settled.data["player_cards"] == ["9C", "8C"] and settled.data["player_sum"] == 17


# -- R-21-20 .. R-21-22: drawing ---------------------------------------------------------------


def test_r21_20_cards_are_drawn_from_the_top_one_at_a_time():
    table = Table.dealt("2C", "3D", "4C", "5C", "6C")
    pile = len(table.state.draw_pile)
    for expected in ("5C", "6C"):
        (dealt,) = table.do("draw_card", player("s1"))
        assert dealt.data["card"] == expected
        assert len(table.state.draw_pile) == pile - 1
        pile -= 1


def _one_card_left(table: Table, discards: bool = True) -> None:
    """Given: the draw pile is down to one card (the rest moved to the discard pile)."""
    state = table.state
    rest = state.draw_pile[1:]
    table.state = dataclasses.replace(
        state,
        draw_pile=state.draw_pile[:1],
        discard_pile=state.discard_pile + (rest if discards else ()),
    )


def test_r21_21_with_one_card_left_the_discard_pile_is_shuffled_into_the_draw_pile():
    table = Table.dealt("2C", "3D", "4C", "5C")
    _one_card_left(table)
    pile = table.state.draw_pile + table.state.discard_pile
    events = table.do("draw_card", player("s1"))
    assert types(events) == ["DiscardsReshuffled", "CardDealt"]
    reshuffled = events[0].data
    assert reshuffled["rule"] == "R-21-21"
    assert reshuffled["kept"] == 1 and reshuffled["added"] == len(pile) - 1
    assert reshuffled["order"] == shuffled(pile, SEED, reshuffle_label(1, 1))
    assert events[1].data["card"] == reshuffled["order"][0]
    assert table.state.discard_pile == ()
    assert table.state.reshuffles == 1


def test_r21_22_no_card_to_draw_ends_the_round_with_a_logged_error():
    table = Table.dealt("2C", "3D", "4C", "5C")
    _one_card_left(table, discards=False)
    events = table.do("draw_card", player("s1"))
    assert types(events) == ["DrawFailed", "RoundEnded"]
    failed, ended = events[0].data, events[1].data
    assert failed["rule"] == "R-21-22" and failed["for_whom"] == "s1"
    assert failed["draw_pile"] == 1 and failed["discard_pile"] == 0
    assert "no card can be drawn" in failed["message"]
    assert ended["reason"] == "no_card_to_draw" and ended["rule"] == "R-21-22"
    assert table.state.phase == "between_rounds"
    assert table.do("start_round")[0].data["round"] == 2  # the table goes on


# -- rounds, the tally, timers and the end of the table ---------------------------------------


def test_the_tally_runs_across_rounds():
    table = Table(options())
    table.do("start_round", order=stacked("AS", "KD", "7H", "QD"))  # s1 21, s2 K+Q bust
    table.do("start_round", order=stacked("KC", "AD", "QC", "7D"))  # s1 bust, s2 21
    assert table.state.tally_data() == {
        "s1": {"won": 1, "lost": 1},
        "s2": {"won": 1, "lost": 1},
        "dealer": {"won": 2, "lost": 2},
    }
    assert table.state.round == 2


def test_next_round_seconds_starts_the_next_round_by_itself():
    table = Table(options(next_round_seconds=5))
    assert tjugoett.deadlines(table.state) == []  # the first round is started by a person
    table.do("start_round", order=stacked("KC", "KD", "QC", "QD"))
    (deadline,) = tjugoett.deadlines(table.state)
    assert deadline.command.name == "start_round" and deadline.at == T0 + 5 * S
    events = table.fire("start_round")
    assert events[0].type == "RoundStarted" and events[0].data["round"] == 2


def test_turn_seconds_stands_for_a_player_who_waits():
    table = Table.dealt("9C", "2D", "8C", turn_seconds=30)
    (deadline,) = tjugoett.deadlines(table.state)
    assert deadline.command.name == "turn_deadline" and deadline.at == T0 + 30 * S
    (stood,) = table.fire("turn_deadline")
    assert stood.type == "PlayerStood" and stood.data["cause"] == "turn_seconds"


def test_turn_seconds_makes_the_server_move_for_a_person_dealer_who_waits():
    table = Table.dealt("9C", "2D", "8C", "10S", person_dealer=True, turn_seconds=10)
    table.do("stand", player("s1"))
    (deadline,) = tjugoett.deadlines(table.state)
    assert deadline.key.startswith("dealer_wait:")
    assert types(table.fire("dealer_play")) == ["DealerCardDealt"]


def test_a_person_dealer_without_turn_seconds_has_no_timer():
    table = Table.dealt("9C", "2D", "8C", person_dealer=True)
    table.do("stand", player("s1"))
    assert tjugoett.deadlines(table.state) == []


def test_the_director_ends_the_table_even_mid_round():
    table = Table.dealt("9C", "2D", "8C")
    events = table.do("end_table", DIRECTOR)
    assert types(events) == ["RoundEnded", "TableEnded"]
    assert events[0].data["reason"] == "ended_by_director"
    assert events[1].data["rounds"] == 1
    assert tjugoett.is_over(table.state) and events[-1].type in tjugoett.FINAL_EVENTS
    assert tjugoett.deadlines(table.state) == []
    for name, actor in (("start_round", DIRECTOR), ("draw_card", player("s1"))):
        assert table.refused(name, actor).code == "table_over"
    assert table.refused("end_table").code == "table_over"


def test_only_officials_end_the_table():
    table = Table(options(person_dealer=True))
    assert table.refused("end_table", DEALER).code == "not_allowed"
    assert table.refused("end_table", player("s1")).code == "not_allowed"
    assert types(table.do("end_table", DIRECTOR)) == ["TableEnded"]


def test_unknown_commands_and_bad_arguments_are_refused():
    table = Table(options())
    assert table.refused("shuffle").code == "unknown_command"
    with pytest.raises(RuleViolation) as caught:
        tjugoett.decide(table.state, Command("start_round", ["x"], DIRECTOR), T0)  # type: ignore[arg-type]
    assert caught.value.code == "bad_args"


def test_between_rounds_nobody_draws():
    table = Table(options(person_dealer=True))
    assert table.refused("draw_card", player("s1")).code == "no_round"
    assert table.refused("dealer_draw", DEALER).code == "no_round"


def test_the_clock_never_runs_backwards():
    table = Table.dealt("9C", "2D", "8C")
    table.now = T0 - 10 * S
    (stood,) = table.do("stand", player("s1"))
    assert stood.data["at"] == T0
