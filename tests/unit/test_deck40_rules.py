"""Given/when/then tests of Kortspillet 24 with a 40-card deck, one or more per rule id
(R-DECK40-1..7, shared/rules/casual-24.md) and one per refusal code."""

from __future__ import annotations

import pytest
from casual_tables import (
    AUDITOR,
    DIRECTOR,
    SETS,
    SPECTATOR,
    Table,
    deck40_options,
    one,
    player,
    seats_data,
    types,
)

from server.games import deck40
from server.games.base import Actor, Command, Event, RuleViolation
from server.games.deck40.options import CARD_NAMES, shuffled_deck
from server.games.deck40.refusals import REFUSALS
from server.puzzles.editions import playing_card_deck

S1, S2, S3, S4 = player("s1"), player("s2"), player("s3"), player("s4")


def started(players: int = 2, sets: list[str] | None = None, **more) -> Table:
    return Table.started(deck40, deck40_options(players, sets, **more))


def on_table(table: Table) -> list[str]:
    return [on.card for on in table.state.table]


def solve_it(table: Table, actor: Actor) -> list[Event]:
    for cards, answer in SETS.values():
        if list(cards) == on_table(table) and answer:
            return table.do("call_24", actor, expression=answer)
    raise AssertionError(f"no known answer for {on_table(table)}")


def all_call_no_solution(table: Table, **returns: str) -> list[Event]:
    events: list[Event] = []
    for seat in table.state.still_playing():
        args = {"returns": returns[seat]} if seat in returns else {}
        events += table.do("call_no_solution", player(seat), **args)
    return events


# -- R-DECK40-1: real playing cards, 40 of them, the shuffle recorded -------------------------


def test_r_deck40_1_the_deck_is_forty_cards_ace_to_ten_in_four_suits():
    assert len(CARD_NAMES) == 40 and len(set(CARD_NAMES)) == 40
    assert {name[-1] for name in CARD_NAMES} == {"C", "D", "H", "S"}


def test_r_deck40_1_the_shuffle_is_recorded_and_cards_are_suit_and_rank_ace_is_one():
    table = started(2, ["4187"])
    started_event = one(table.events, "GameStarted")
    assert started_event["deck"] == deck40_options(2, ["4187"])["deck"]
    turned = one(table.events, "CardsTurnedUp")["cards"]
    assert turned[1] == {"card": "AC", "suit": "clubs", "rank": 1, "seat": "s1"}
    assert [(c["card"], c["seat"]) for c in turned] == [
        ("4C", "s1"),
        ("AC", "s1"),
        ("8C", "s2"),
        ("7C", "s2"),
    ]


def test_r_deck40_1_a_seed_is_expanded_by_the_edition_generator_and_the_order_recorded():
    table = Table.started(deck40, {"seats": seats_data(2), "seed": 11})
    recorded = one(table.events, "GameStarted")["deck"]
    assert recorded == shuffled_deck(11)
    assert [(c.suit[0].upper(), c.rank) for c in playing_card_deck(11)][0][0] == recorded[0][-1]
    assert sorted(recorded) == sorted(CARD_NAMES)


def test_r_deck40_1_two_players_have_piles_of_20_and_turn_up_two_each():
    table = started(2)
    piles = one(table.events, "GameStarted")["piles"]
    assert {seat: len(pile) for seat, pile in piles.items()} == {"s1": 20, "s2": 20}
    assert table.state.cards_left() == {"s1": 18, "s2": 18} and len(table.state.table) == 4


def test_r_deck40_1_four_players_have_piles_of_10_and_turn_up_one_each():
    table = started(4, ["2345"])
    assert table.state.options.layout == "singles"
    assert table.state.cards_left() == {"s1": 9, "s2": 9, "s3": 9, "s4": 9}
    assert [(on.card, on.seat) for on in table.state.table] == [
        ("2D", "s1"),
        ("3D", "s2"),
        ("4D", "s3"),
        ("5D", "s4"),
    ]


@pytest.mark.parametrize(
    "bad",
    [
        {"seats": seats_data(1)},
        {"seats": seats_data(9)},
        {"seats": seats_data(2), "deck": list(CARD_NAMES[:39])},
        {"seats": seats_data(2), "deck": list(CARD_NAMES[:39]) + ["AS"]},
        {"seats": seats_data(2), "deck": list(CARD_NAMES[:39]) + ["KS"]},
        {"seats": seats_data(2), "scoring": "golf"},
        {"seats": seats_data(2), "layout": "circle"},
        {"seats": seats_data(2), "target_points": 0},
        {"seats": seats_data(2), "reveal_unsolvable": "yes"},
        {"seats": seats_data(2), "jokers": 2},
    ],
)
def test_r_deck40_1_bad_options_are_refused(bad):
    with pytest.raises(RuleViolation) as caught:
        deck40.initial_state(bad)
    assert caught.value.code == "invalid_options"


# -- R-DECK40-2: "24!" with a spoken solution; wrong excludes from these four cards ----------


def test_r_deck40_2_a_call_ending_with_equals_24_takes_the_four_cards():
    """Issue 28: `... = 24`, as people write it, is a right solution, not `syntax`."""
    table = started(2, ["2345", "3388"])
    events = table.do("call_24", S1, expression="(5 + 3 - 2) × 4 = 24")
    assert one(events, "RoundWon")["seat"] == "s1"


def test_r_deck40_2_a_right_call_takes_the_four_cards():
    table = started(2, ["3388", "4187"])
    events = table.do("call_24", S2, expression="8 ÷ (3 − 8 ÷ 3)")
    assert types(events) == ["SolutionCalled", "RoundWon", "CardsTurnedUp"]
    won = one(events, "RoundWon")
    assert (won["seat"], won["cards"], won["points"]) == ("s2", ["3S", "3H", "8S", "8H"], 1)
    assert table.state.seat("s2").won == ("3S", "3H", "8S", "8H")
    assert on_table(table) == ["4C", "AC", "8C", "7C"]


@pytest.mark.parametrize(
    ("text", "reason"),
    [("(8 + 8 + 3) + 3 + 2", "wrong_numbers"), ("83 - 38 - 3 + 8", "joined_digits")],
)
def test_r_deck40_2_a_wrong_call_excludes_that_player_from_these_four_cards(text, reason):
    table = started(2, ["3388", "4187"])
    events = table.do("call_24", S1, expression=text)
    assert one(events, "SolutionCalled")["reason"] == reason
    assert one(events, "PlayerExcluded")["seat"] == "s1"
    assert table.refused("call_24", S1, expression="8/(3-8/3)").code == "excluded"
    assert table.refused("call_no_solution", S1).code == "excluded"
    solve_it(table, S2)
    assert table.state.excluded == ()  # the next four cards are everyone's again
    assert one(solve_it(table, S1), "RoundWon")["seat"] == "s1"


def test_r_deck40_2_when_every_player_is_excluded_the_cards_go_back_as_unsolved():
    table = started(2, ["3388"])
    table.do("call_24", S1, expression="3 + 3 + 8 + 8")
    events = table.do("call_24", S2, expression="3 * 8 + 8 - 3")
    assert one(events, "NoSolutionAgreed")["reason"] == "all_excluded"


def test_r_deck40_2_a_call_that_crossed_a_deal_is_refused_not_judged_on_the_new_cards():
    """Both players solve set 1; s2's "24!" arrives first and set 2 is dealt. s1's call, sent
    for set 1, arrives after: refused `stale_set`, nothing recorded, s1 still in set 2."""
    table = started(2, ["3388", "4187"])
    table.do("call_24", S2, expression="8/(3-8/3)", set=1)
    assert table.state.set_number == 2
    recorded = list(table.events)
    assert table.refused("call_24", S1, expression="8/(3-8/3)", set=1).code == "stale_set"
    assert table.events == recorded and table.state.excluded == ()
    won = one(table.do("call_24", S1, expression="(8 - 4) × (7 - 1)", set=2), "RoundWon")
    assert (won["seat"], won["set"]) == ("s1", 2)


def test_r_deck40_2_without_a_set_a_call_answers_the_cards_on_the_table():
    """Old clients: the same crossed call without `set` is judged on set 2 (wrong, out)."""
    table = started(2, ["3388", "4187"])
    table.do("call_24", S2, expression="8/(3-8/3)")
    events = table.do("call_24", S1, expression="8/(3-8/3)")
    assert types(events) == ["SolutionCalled", "PlayerExcluded"]
    assert one(events, "SolutionCalled")["set"] == 2 and table.state.excluded == ("s1",)


@pytest.mark.parametrize("named", [{"set": 1}, {"set": None}, {}])
@pytest.mark.parametrize("text", ["8/(3-8/3)", "3 + 3 + 8 + 8"])
def test_r_deck40_2_a_call_naming_the_set_on_the_table_is_judged_as_one_naming_none(named, text):
    """A right call takes the set, a wrong one excludes, whether it names set 1 (the set on
    the table), names none (`None`) or leaves `set` out: the same events, the same state."""
    plain = started(2, ["3388", "4187"])
    expected = plain.do("call_24", S1, expression=text)
    table = started(2, ["3388", "4187"])
    assert table.do("call_24", S1, expression=text, **named) == expected
    assert table.state == plain.state


# -- R-DECK40-3: "no solution" agreed by all; advanced scoring --------------------------------


def test_r_deck40_3_no_solution_is_agreed_only_when_every_player_has_called_it():
    table = started(2, ["1111"])
    assert types(table.do("call_no_solution", S1)) == ["NoSolutionCalled"]
    assert table.refused("call_no_solution", S1).code == "already_called"
    events = table.do("call_no_solution", S2)
    assert types(events) == [
        "NoSolutionCalled",
        "NoSolutionAgreed",
        "CardsReturned",
        "CardsTurnedUp",
    ]


def test_r_deck40_3_advanced_a_solution_after_another_players_no_solution_scores_two():
    table = started(2, ["3388", "4187"], scoring="advanced")
    table.do("call_no_solution", S1)
    won = one(solve_it(table, S2), "RoundWon")
    assert (won["points"], won["after_no_solution"]) == (2, True)
    assert one(solve_it(table, S2), "RoundWon")["points"] == 1


def test_r_deck40_3_advanced_the_caller_who_finds_one_himself_scores_one():
    table = started(2, ["3388"], scoring="advanced")
    table.do("call_no_solution", S1)
    assert one(solve_it(table, S1), "RoundWon")["points"] == 1


def test_r_deck40_3_simple_scoring_is_one_point_even_after_a_no_solution_call():
    table = started(2, ["3388"], scoring="simple")
    table.do("call_no_solution", S1)
    assert one(solve_it(table, S2), "RoundWon")["points"] == 1


def test_r_deck40_3_a_no_solution_that_crossed_a_deal_does_not_count_on_the_new_set():
    """s1 sees no solution in set 1 (3 3 8 8) but s2 solves it first; s1's call for set 1
    arrives once set 2 (1 1 1 1) is up: refused `stale_set`, so s2's call on set 2 is not an
    agreement (s1 has not called on set 2)."""
    table = started(2, ["3388", "1111"])
    table.do("call_24", S2, expression="8/(3-8/3)", set=1)
    assert table.refused("call_no_solution", S1, set=1).code == "stale_set"
    assert dict(table.state.no_solution) == {} and table.state.after_no_solution is False
    assert types(table.do("call_no_solution", S2, set=2)) == ["NoSolutionCalled"]
    assert types(table.do("call_no_solution", S1, returns="AS", set=2))[1] == "NoSolutionAgreed"


def test_r_deck40_3_without_a_set_a_crossed_no_solution_counts_on_the_new_set():
    """Old clients: the same crossed call without `set` counts as s1's agreement on set 2."""
    table = started(2, ["3388", "1111"])
    table.do("call_24", S2, expression="8/(3-8/3)")
    assert one(table.do("call_no_solution", S1), "NoSolutionCalled")["set"] == 2
    assert types(table.do("call_no_solution", S2))[1] == "NoSolutionAgreed"


@pytest.mark.parametrize("named", [{"set": 1}, {"set": None}])
def test_r_deck40_3_a_no_solution_naming_the_set_on_the_table_counts(named):
    plain = started(2, ["1111"])
    expected = plain.do("call_no_solution", S1, returns="AH")
    table = started(2, ["1111"])
    assert table.do("call_no_solution", S1, returns="AH", **named) == expected
    assert table.state == plain.state


# -- R-DECK40-4: each returns one of his cards (his choice, default the first) ---------------


def test_r_deck40_4_each_player_returns_his_chosen_card_to_the_bottom_and_turns_up_one():
    table = started(2, ["1111", "3388"])
    top_s1, top_s2 = table.state.seat("s1").pile[0], table.state.seat("s2").pile[0]
    events = all_call_no_solution(table, s1="AH")  # s1 chooses his second card; s2 defaults
    assert one(events, "CardsReturned")["returns"] == [
        {"card": "AH", "seat": "s1"},
        {"card": "AD", "seat": "s2"},
    ]
    assert table.state.seat("s1").pile[-1] == "AH" and table.state.seat("s2").pile[-1] == "AD"
    assert on_table(table) == ["AS", "AC", top_s1, top_s2]
    assert table.state.cards_left() == {"s1": 18, "s2": 18}


def test_r_deck40_4_a_player_returns_only_his_own_face_up_card():
    table = started(2, ["1111"])
    assert table.refused("call_no_solution", S1, returns="AD").code == "not_your_card"
    assert table.refused("call_no_solution", S1, returns="QS").code == "not_your_card"


def test_r_deck40_4_with_four_players_each_returns_his_one_card():
    table = started(4, ["1111"])
    events = all_call_no_solution(table)
    assert [r["card"] for r in one(events, "CardsReturned")["returns"]] == ["AS", "AH", "AD", "AC"]
    assert len(table.state.table) == 4 and table.state.cards_left() == dict.fromkeys(
        ["s1", "s2", "s3", "s4"], 9
    )


def test_r_deck40_4_when_every_remaining_card_has_come_round_unsolved_the_game_ends():
    """Our decision: the players may agree "no solution" even on a solvable set; once more
    agreements in a row than cards in play show that every card came round, the game ends."""
    table = started(4, ["1111"])
    count = 0
    while not deck40.is_over(table.state) and count < 100:
        all_call_no_solution(table)
        count += 1
    assert one(table.events, "GameEnded")["reason"] == "no_solution_left"
    assert count == table.state.cards_in_play() + 1 == 41


# -- R-DECK40-5: the common pile and its dealer -----------------------------------------------


def test_r_deck40_5_three_players_play_from_a_common_pile_the_dealer_turns_up_four():
    table = started(3, ["1111", "3388"])
    assert table.state.options.layout == "common_pile"
    assert [on.seat for on in table.state.table] == [None] * 4
    assert len(table.state.common) == 36 and table.state.cards_left() == dict.fromkeys(
        ["s1", "s2", "s3"], 0
    )
    assert table.refused("call_no_solution", S1, returns="AS").code == "bad_args"
    events = all_call_no_solution(table)
    assert [r["card"] for r in one(events, "CardsReturned")["returns"]] == ["AS", "AH"]
    assert on_table(table) == ["AD", "AC", "3S", "3H"] and table.state.common[-2:] == ("AS", "AH")


def test_r_deck40_5_a_won_set_leaves_the_game_and_the_pile_ends_it():
    table = started(5, ["3388"])
    solve_it(table, S3)
    assert len(table.state.common) == 32 and table.state.seat("s3").won == SETS["3388"][0]


def test_r_deck40_5_the_common_pile_can_be_asked_for_with_two_players():
    table = started(2, [], layout="common_pile")
    assert table.state.options.layout == "common_pile" and len(table.state.common) == 36


# -- R-DECK40-6: scoring versions, target, the card version's tie and the house option --------


def _play_out(table: Table, winner: Actor, limit: int = 400) -> dict:
    """Play to the end: `winner` solves every solvable set (found by the solver), everybody
    calls "no solution" on the others."""
    from server.games.deck40.options import rank
    from server.puzzles.solver import solve

    for _ in range(limit):
        if deck40.is_over(table.state):
            return dict(table.state.result)
        solutions = solve([rank(card) for card in on_table(table)])
        if solutions:
            table.do("call_24", winner, expression=solutions[0].ascii_expression)
        else:
            all_call_no_solution(table)
    raise AssertionError("the game did not end")


def test_r_deck40_6_simple_scoring_plays_until_the_cards_run_out():
    table = Table.started(deck40, {"seats": seats_data(2), "seed": 0})
    result = _play_out(table, S1)
    assert result["reason"] in ("cards_out", "no_solution_left")
    assert (
        result["winners"] == ["s1"]
        and result["scores"]["s1"] == len(table.state.seat("s1").won) // 4
    )


def test_r_deck40_6_play_to_target_points():
    table = started(2, ["3388", "4187", "2345"], target_points=2)
    solve_it(table, S1)
    events = solve_it(table, S1)
    ended = one(events, "GameEnded")
    assert (ended["reason"], ended["winners"], ended["scores"]) == (
        "target_points",
        ["s1"],
        {"s1": 2, "s2": 0},
    )


def test_r_deck40_6_the_card_version_as_written_ends_in_a_tie_for_two_players():
    table = Table.started(deck40, {"seats": seats_data(2), "seed": 4, "scoring": "cards"})
    result = _play_out(table, S1)
    assert result["scores"] == {"s1": 0, "s2": 0}
    assert result["cards_left"]["s1"] == result["cards_left"]["s2"]
    assert result["tie"] is True and result["winners"] == ["s1", "s2"]


def test_r_deck40_6_the_house_option_the_loser_takes_the_four_cards_is_decisive():
    options = {"seats": seats_data(2), "seed": 4, "scoring": "cards", "house_loser_takes": True}
    table = Table.started(deck40, options)
    first = solve_it_by_solver(table, S1)
    won = one(first, "RoundWon")
    assert won["taken_by"] == "s2" and table.state.seat("s2").pile[-4:] == tuple(won["cards"])
    assert table.state.cards_left() == {"s1": 16, "s2": 20}
    result = _play_out(table, S1)
    assert result["reason"] == "cannot_turn_up"
    assert result["winners"] == ["s1"] and result["tie"] is False


def solve_it_by_solver(table: Table, actor: Actor) -> list[Event]:
    from server.games.deck40.options import rank
    from server.puzzles.solver import solve

    while True:
        solutions = solve([rank(card) for card in on_table(table)])
        if solutions:
            return table.do("call_24", actor, expression=solutions[0].ascii_expression)
        all_call_no_solution(table)


@pytest.mark.parametrize(
    "bad",
    [
        {"scoring": "cards", "target_points": 10},
        {"scoring": "simple", "house_loser_takes": True},
        {"scoring": "cards", "layout": "common_pile"},
    ],
)
def test_r_deck40_6_combinations_the_rules_do_not_have_are_refused(bad):
    with pytest.raises(RuleViolation) as caught:
        deck40.initial_state({"seats": seats_data(2), **bad})
    assert caught.value.code == "invalid_options"
    with pytest.raises(RuleViolation):
        deck40.initial_state({"seats": seats_data(3), "scoring": "cards"})


def test_r_deck40_6_the_director_may_end_the_game_early():
    table = started(2, ["3388"])
    assert table.refused("end_game", S1).code == "not_allowed"
    ended = one(table.do("end_game", DIRECTOR), "GameEnded")
    assert ended["reason"] == "ended_by_director" and ended["tie"] is True
    assert table.refused("call_24", S1, expression="8/(3-8/3)").code == "game_over"


# -- R-DECK40-7: the server may confirm an agreed "no solution" ------------------------------


def test_r_deck40_7_off_by_default_the_players_agree_alone():
    table = started(2, ["1111"])
    agreed = one(all_call_no_solution(table), "NoSolutionAgreed")
    assert agreed["solvable"] is None and agreed["example"] is None


def test_r_deck40_7_with_reveal_unsolvable_the_server_confirms_or_shows_a_solution():
    table = started(2, ["1111", "3388"], reveal_unsolvable=True)
    agreed = one(all_call_no_solution(table), "NoSolutionAgreed")
    assert (agreed["solvable"], agreed["example"], agreed["rule"]) == (False, None, "R-DECK40-7")
    table = started(2, ["3388"], reveal_unsolvable=True)
    agreed = one(all_call_no_solution(table), "NoSolutionAgreed")
    assert agreed["solvable"] is True and agreed["example"]


# -- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "actor", "args", "code"),
    [
        ("slap", S1, {}, "unknown_command"),
        ("call_24", S1, {}, "bad_args"),
        ("call_24", S1, {"expression": "  "}, "bad_args"),
        ("call_24", SPECTATOR, {"expression": "1"}, "not_allowed"),
        ("end_game", S1, {}, "not_allowed"),
        ("call_24", S1, {"seat": "s2", "expression": "1"}, "not_your_seat"),
        ("call_24", player("s7"), {"expression": "1"}, "unknown_seat"),
        ("start_game", DIRECTOR, {}, "game_already_started"),
    ],
)
def test_refusals_of_a_running_game(name, actor, args, code):
    table = started(2, ["3388"])
    violation = table.refused(name, actor, **args)
    assert violation.code == code and violation.rule == REFUSALS[code][0]


def test_refusals_before_the_start_and_of_a_non_map():
    table = Table(deck40, deck40_options(2))
    assert table.refused("call_no_solution", S1).code == "game_not_started"
    with pytest.raises(RuleViolation) as caught:
        deck40.decide(table.state, Command("start_game", ["x"], S1), 0)  # type: ignore[arg-type]
    assert caught.value.code == "bad_args"


# -- who sees what ----------------------------------------------------------------------------


def test_players_and_spectators_see_pile_sizes_never_the_piles():
    table = started(2, ["3388"])
    for viewer in (S1, SPECTATOR):
        snapshot = deck40.view(table.state, viewer)
        assert "piles" not in snapshot and "common" not in snapshot
        assert [seat["pile"] for seat in snapshot["seats"]] == [18, 18]
        redacted = deck40.event_view(table.events[0], viewer).data
        assert redacted["deck"] == 40 and redacted["piles"] == {"s1": 20, "s2": 20}
    assert len(deck40.view(table.state, DIRECTOR)["piles"]["s1"]) == 18
    assert deck40.event_view(table.events[0], AUDITOR) == table.events[0]
    created = Event("TableCreated", {"game": "deck40", "options": {"seed": 5, "deck": CARD_NAMES}})
    assert deck40.event_view(created, S1).data["options"] == {"deck": 40}


def test_replay_of_the_log_is_the_live_state():
    table = started(2, ["1111", "3388"], scoring="advanced")
    all_call_no_solution(table, s1="AH")
    table.do("call_24", S2, expression="1 + 2")
    assert table.replayed() == table.state
