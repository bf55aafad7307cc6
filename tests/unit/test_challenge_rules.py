"""The 24 Challenge table, rule by rule: given these events, when this command, then these
events (or this refusal). Rule ids are from shared/rules/24-challenge.md."""

from __future__ import annotations

from challenge_tables import (
    ANSWERS,
    DIRECTOR,
    PROCTOR,
    SPECTATOR,
    T0,
    WRONG_STEPS,
    S,
    Table,
    options,
    player,
    seat_of,
    types,
)

from server.games import challenge
from server.games.base import SERVER_ACTOR, Command, RuleViolation

# -- R-ROUND-1: start and end of the round ----------------------------------------------------


def test_round_must_start_before_cards_are_placed():
    table = Table(options())
    assert table.refused("place_card").code == "round_not_started"
    assert challenge.deadlines(table.state) == []


def test_round_started_records_deck_order_seats_and_options():
    table = Table(options())
    (event,) = table.do(
        "start_round", order=["c3", "c1", "c2", "c4", "c5", "c6", "c7", "c8", "c9", "c10"]
    )
    assert event.type == "RoundStarted"
    assert event.data["deck"][:3] == ["c3", "c1", "c2"]
    assert event.data["removed"] == []
    assert event.data["seats"][0] == {"seat": "s1", "name": "Ada"}
    assert event.data["options"]["pattern_seconds"] == 3
    assert event.data["at"] == T0
    table.do("place_card")
    assert table.state.card.card.card_id == "c3"  # the top of the recorded order


def test_start_round_refuses_an_order_that_is_not_the_deck():
    table = Table(options(cards=["c1", "c2"]))
    assert table.refused("start_round", order=["c1", "c1"]).code == "bad_args"
    assert table.refused("start_round", order="c1 c2").code == "bad_args"


def test_round_starts_once_and_only_by_the_proctor_or_director():
    table = Table(options())
    assert table.refused("start_round", player("s1")).code == "not_allowed"
    table.do("start_round", DIRECTOR)
    assert table.refused("start_round").code == "round_already_started"


def test_round_ends_when_the_deck_is_empty_with_the_scores():
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    table.win("s1")
    table.next_card()
    events = table.win("s2")
    assert types(events)[-2:] == ["CardWon", "RoundEnded"]
    ended = events[-1].data
    assert ended["reason"] == "deck_empty"
    assert ended["scores"] == {"s1": 1, "s2": 3, "s3": 0, "s4": 0}
    assert ended["unplayed"] == []
    assert not challenge.is_over(table.state)  # over once the score card is signed (R-ROUND-7)
    assert challenge.deadlines(table.state) == []
    assert table.refused("place_card").code == "round_over"
    assert table.refused("end_round").code == "round_over"


def test_proctor_may_end_the_round_early_and_unplayed_cards_are_listed():
    table = Table.started(cards=["c1", "c2", "c3"])
    table.do("place_card")
    assert table.refused("end_round", player("s1")).code == "not_allowed"
    (event,) = table.do("end_round")
    assert event.data["reason"] == "ended_by_proctor"
    assert event.data["unplayed"] == ["c1", "c2", "c3"]
    assert table.state.deck == ("c1", "c2", "c3")
    assert table.state.phase == "ended"


# -- R-DECK-4 ------------------------------------------------------------------------------


def test_three_student_table_removes_the_two_bottom_most_two_dot_cards():
    table = Table(options(seats=3))
    (event,) = table.do("start_round")
    # 2-dot cards in deck order: c3, c5, c8, c9; the two nearest the bottom go.
    assert event.data["removed"] == ["c9", "c8"]
    assert "c8" not in event.data["deck"] and "c9" not in event.data["deck"]
    assert len(event.data["deck"]) == 8
    assert event.data["rule"] == "R-DECK-4"
    assert len(table.state.deck) == 8


def test_four_student_table_keeps_the_whole_deck():
    table = Table(options(seats=4))
    (event,) = table.do("start_round")
    assert event.data["removed"] == [] and len(event.data["deck"]) == 10


def test_three_student_table_whose_deck_is_only_two_dot_cards_ends_at_once():
    table = Table(options(seats=3, cards=["c3", "c5"]))
    events = table.do("start_round")
    assert types(events) == ["RoundStarted", "RoundEnded"]
    assert events[1].data["reason"] == "deck_empty"


# -- R-PLAY-1: placing and revealing -----------------------------------------------------------


def test_card_is_placed_then_revealed():
    table = Table.started()
    (placed,) = table.do("place_card")
    assert placed.type == "CardPlaced" and placed.data["play"] == 1
    assert table.state.phase == "placed"
    assert table.refused("place_card").code == "card_in_play"
    (revealed,) = table.do("reveal_card")
    assert revealed.data["numbers"] == [1, 1, 1, 8]
    assert table.state.phase == "revealed"
    assert table.refused("reveal_card").code == "already_revealed"


def test_reveal_needs_a_placed_card_and_the_proctor():
    table = Table.started()
    assert table.refused("reveal_card").code == "no_card_placed"
    table.do("place_card")
    assert table.refused("reveal_card", player("s1")).code == "not_allowed"
    assert table.refused("reveal_card", SPECTATOR).code == "not_allowed"


# -- R-PLAY-2: the first touch -----------------------------------------------------------------


def test_first_touch_holds_the_card_and_later_touches_are_recorded_and_refused():
    table = Table.started()
    table.next_card()
    (first,) = table.do("touch_card", player("s2"), fingertips=2)
    assert first.type == "CardTouched" and first.data["seat"] == "s2"
    table.advance(0.001)
    (second,) = table.do("touch_card", player("s1"))
    assert second.type == "TouchRefused"
    assert second.data["reason"] == "not_first" and second.data["toucher"] == "s2"
    assert second.data["at"] == T0 + 1000
    assert table.state.card.toucher == "s2"
    assert table.state.card.touches == ("s2", "s1")
    assert table.refused("touch_card", player("s1")).code == "already_touched"
    assert table.refused("touch_card", player("s2")).code == "already_touched"


def test_touch_needs_a_card():
    table = Table.started()
    assert table.refused("touch_card", player("s1")).code == "no_card_in_play"


def test_networked_player_acts_only_for_its_own_seat():
    table = Table.started()
    table.next_card()
    assert table.refused("touch_card", player("s1"), seat="s2").code == "not_your_seat"
    assert table.refused("touch_card", player("s9")).code == "unknown_seat"
    assert table.refused("touch_card", PROCTOR, seat="s1").code == "not_allowed"
    assert table.refused("touch_card", SPECTATOR).code == "not_allowed"
    table.do("touch_card", player("s1"), seat="s1")  # naming one's own seat is fine
    assert table.state.card.toucher == "s1"


def test_proctored_table_records_touches_and_answers_for_a_named_seat():
    table = Table.started(mode="proctored")
    table.next_card()
    assert table.refused("touch_card", player("s1")).code == "not_allowed"
    assert table.refused("touch_card", PROCTOR).code == "seat_required"
    assert table.refused("touch_card", PROCTOR, seat="s7").code == "unknown_seat"
    events = table.win("s3", actor=PROCTOR)
    assert events[-1].type == "CardWon" and events[-1].data["seat"] == "s3"


def test_only_the_toucher_may_answer():
    table = Table.started()
    table.next_card()
    table.do("touch_card", player("s1"))
    assert table.refused("declare_pattern", player("s2"), pattern="3 × 8").code == "not_toucher"
    assert table.refused("state_steps", player("s2"), steps=["1 + 1"]).code == "not_toucher"
    assert table.refused("fix_solution", player("s2"), steps=WRONG_STEPS).code == "not_toucher"


def test_proctor_overrides_who_was_first_and_the_new_windows_start_at_the_ruling():
    table = Table.started()
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="3 × 8")
    table.advance(2)
    assert table.refused("override_first_touch", player("s2"), seat="s2").code == "not_allowed"
    assert table.refused("override_first_touch", seat="s1").code == "already_first"
    (ruling,) = table.do("override_first_touch", seat="s2")
    assert ruling.data == {
        "at": T0 + 2 * S,
        "seat": "s2",
        "previous": "s1",
        "play": 1,
        "rule": "R-PLAY-2",
    }
    card = table.state.card
    assert card.toucher == "s2" and card.pattern is None and card.steps == ()
    assert table.live() == {
        "pattern_deadline": T0 + 5 * S,
        "solution_deadline": T0 + 17 * S,
    }
    table.do("declare_pattern", player("s2"), pattern="8 × 3")
    events = table.do("fix_solution", player("s2"), steps=ANSWERS["c1"][3])
    assert events[-1].type == "CardWon" and events[-1].data["seat"] == "s2"


def test_override_needs_a_touch_in_progress_and_a_seat_in_play():
    table = Table.started()
    table.next_card()
    assert table.refused("override_first_touch", seat="s2").code == "no_touch_in_progress"
    table.do("touch_card", player("s1"))
    assert table.refused("override_first_touch").code == "seat_required"
    assert table.refused("override_first_touch", seat="zz").code == "unknown_seat"


# -- R-PLAY-3: flags for touching ------------------------------------------------------------


def test_touch_before_reveal_draws_a_flag_and_the_card_goes_to_the_bottom():
    table = Table.started(cards=["c1", "c2", "c3"])
    table.do("place_card")
    events = table.do("touch_card", player("s1"))
    assert types(events) == ["CardTouched", "FlagIssued", "CardReturnedToDeck"]
    assert events[1].data["cause"] == "touched_before_reveal"
    assert events[1].data["rule"] == "R-PLAY-3"
    assert events[2].data["revealed"] is False
    assert table.state.deck == ("c2", "c3", "c1")  # R-FLAG-2: bottom of the deck
    assert seat_of(table.state, "s1").flags == 1
    assert table.state.phase == "between_cards"


def test_more_than_three_fingertips_draws_a_flag_and_three_do_not():
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    events = table.do("touch_card", player("s4"), fingertips=4)
    assert types(events) == ["CardTouched", "FlagIssued", "CardReturnedToDeck"]
    assert events[1].data["cause"] == "too_many_fingertips"
    table.next_card()
    assert types(table.do("touch_card", player("s3"), fingertips=3)) == ["CardTouched"]


def test_fingertips_are_a_small_whole_number():
    table = Table.started()
    table.next_card()
    for bad in (0, 11, "2", True, 2.0):
        assert table.refused("touch_card", player("s1"), fingertips=bad).code == "bad_args"


# -- R-PLAY-4: the pattern within 3 s ----------------------------------------------------------


def test_pattern_within_three_seconds_is_recorded_with_its_reading():
    table = Table.started()
    table.next_card()
    table.do("touch_card", player("s1"))
    table.advance(2.999999)
    (event,) = table.do("declare_pattern", player("s1"), pattern="  3 * 8 ")
    assert event.data["pattern"] == "3 * 8" and event.data["canonical"] == "3 × 8"
    assert table.live() == {"solution_deadline": T0 + 15 * S}


def test_pattern_at_three_seconds_is_too_late_and_the_deadline_flags():
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    table.do("touch_card", player("s1"))
    table.advance(3)
    violation = table.refused("declare_pattern", player("s1"), pattern="3 × 8")
    assert (violation.code, violation.rule) == ("too_late", "R-PLAY-4")
    events = table.fire("pattern_deadline")
    assert types(events) == ["FlagIssued", "CardReturnedToDeck"]
    assert events[0].data["cause"] == "no_pattern" and events[0].data["seat"] == "s1"
    assert events[0].data["at"] == T0 + 3 * S
    assert table.state.deck == ("c2", "c1")


def test_steps_before_the_pattern_are_refused():
    table = Table.started()
    table.next_card()
    table.do("touch_card", player("s1"))
    assert table.refused("state_steps", player("s1"), steps=["1 + 1"]).code == "pattern_first"
    assert table.refused("fix_solution", player("s1"), steps=WRONG_STEPS).code == "pattern_first"


def test_unreadable_pattern_is_refused_and_may_be_declared_again():
    table = Table.started()
    table.next_card()
    table.do("touch_card", player("s1"))
    violation = table.refused("declare_pattern", player("s1"), pattern="3 × 8 × 1")
    assert (violation.code, violation.rule) == ("bad_pattern", "R-PUZ-3")
    assert table.refused("declare_pattern", player("s1"), pattern="").code == "bad_args"
    assert table.refused("declare_pattern", player("s1"), pattern=38).code == "bad_args"
    table.do("declare_pattern", player("s1"), pattern="3 × 8")


def test_answers_need_a_student_holding_the_card():
    table = Table.started()
    table.do("place_card")
    assert table.refused("declare_pattern", player("s1"), pattern="3 × 8").code == (
        "card_not_revealed"
    )
    table.do("reveal_card")
    assert table.refused("declare_pattern", player("s1"), pattern="3 × 8").code == (
        "no_touch_in_progress"
    )


# -- R-PLAY-5: steps, corrections, the fixed solution within 15 s -------------------------------


def test_steps_may_be_restated_until_fixed_and_only_the_fixed_solution_is_judged():
    table = Table.started()
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="3 × 8")
    table.do("state_steps", player("s1"), steps=["1 + 8 = 9"])
    (restated,) = table.do("state_steps", player("s1"), steps=ANSWERS["c1"][3])
    assert restated.type == "StepsStated"
    assert table.state.card.steps == tuple(ANSWERS["c1"][3])
    events = table.do("fix_solution", player("s1"))
    assert types(events) == ["SolutionFixed", "SolutionJudged", "CardWon"]
    assert events[0].data["steps"] == ANSWERS["c1"][3]
    assert events[1].data["ok"] is True and events[1].data["value"] == "24"


def test_pattern_cannot_change():
    table = Table.started()
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="3 × 8")
    violation = table.refused("declare_pattern", player("s1"), pattern="8 × 3")
    assert (violation.code, violation.rule) == ("pattern_cannot_change", "R-PLAY-5")


def test_last_step_must_be_the_declared_pattern():
    table = Table.started()
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="24 × 1")
    events = table.do("fix_solution", player("s1"), steps=ANSWERS["c1"][3])
    assert types(events) == ["SolutionFixed", "SolutionJudged", "FlagIssued", "CardReturnedToDeck"]
    assert events[1].data["reason"] == "pattern_mismatch"
    assert events[2].data["cause"] == "incorrect_solution"
    # R-FLAG-1: the flag names the card it was drawn on, for the score card and protests
    assert (events[2].data["card_id"], events[2].data["revealed"]) == ("c1", True)
    assert events[2].data["play"] == events[3].data["play"]


def test_a_pattern_that_is_not_24_is_an_incorrect_solution():
    table = Table.started()
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="3 + 8")
    events = table.do("fix_solution", player("s1"), steps=ANSWERS["c1"][3])
    assert events[1].data["ok"] is False and events[1].data["reason"] == "pattern_not_24"
    assert events[2].data["cause"] == "incorrect_solution"


def test_incorrect_solution_draws_a_flag_and_nobody_else_tries_the_card_now():
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("touch_card", player("s2"))  # refused: not first
    table.do("declare_pattern", player("s1"), pattern="3 × 8")
    events = table.do("fix_solution", player("s1"), steps=WRONG_STEPS)
    assert events[1].data["ok"] is False and events[1].data["reason"] == "not_24"
    assert types(events)[2:] == ["FlagIssued", "CardReturnedToDeck"]
    assert table.state.card is None and table.state.deck == ("c2", "c1")
    assert table.refused("touch_card", player("s2")).code == "no_card_in_play"


def test_run_on_answer_is_incorrect():
    table = Table.started()
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="3 × 8")
    events = table.do("fix_solution", player("s1"), steps=["1 + 1 + 1 = 3", "3 × 8 = 24"])
    assert events[1].data["reason"] == "run_on"


def test_fix_needs_steps_and_steps_are_one_to_three_texts():
    table = Table.started()
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="3 × 8")
    assert table.refused("fix_solution", player("s1")).code == "no_steps"
    for bad in ([], ["a", "b", "c", "d"], "1 + 1", [1], ["x" * 201], None):
        assert table.refused("state_steps", player("s1"), steps=bad).code == "bad_args"


def test_solution_at_fifteen_seconds_is_too_late_and_the_deadline_flags():
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="3 × 8")
    table.advance(15)
    violation = table.refused("fix_solution", player("s1"), steps=ANSWERS["c1"][3])
    assert (violation.code, violation.rule) == ("too_late", "R-PLAY-5")
    assert table.refused("state_steps", player("s1"), steps=["1 + 1"]).code == "too_late"
    events = table.fire("solution_deadline")
    assert types(events) == ["FlagIssued", "CardReturnedToDeck"]
    assert events[0].data["cause"] == "no_solution"


def test_solution_deadline_flags_even_without_a_pattern_when_it_comes_first():
    table = Table.started(pattern_seconds=20, solution_seconds=15)
    table.next_card()
    table.do("touch_card", player("s1"))
    assert list(table.live()) == ["solution_deadline", "pattern_deadline"]
    assert table.fire("solution_deadline")[0].data["cause"] == "no_solution"


# -- R-PLAY-6: points ----------------------------------------------------------------------


def test_correct_solution_wins_the_dots_of_the_side_in_play():
    table = Table.started(cards=["c2", "c1"])
    table.next_card()
    events = table.win("s3")
    assert events[-1].type == "CardWon"
    assert events[-1].data == {
        "at": T0,
        "seat": "s3",
        "card_id": "c2",
        "dots": 3,
        "play": 1,
        "rule": "R-PLAY-6",
    }
    assert seat_of(table.state, "s3").score == 3
    assert seat_of(table.state, "s3").cards_won == ("c2",)


# -- R-PLAY-7: stumped -------------------------------------------------------------------------


def test_nobody_touches_within_fifteen_seconds_and_the_card_is_set_aside():
    table = Table.started(cards=["c1", "c2"], stumped_cards="set_aside")
    table.next_card()
    assert table.live() == {"no_touch_deadline": T0 + 15 * S}
    events = table.fire("no_touch_deadline")
    assert types(events) == ["CardStumped"]
    assert events[0].data["reason"] == "no_touch"
    assert table.state.stumped == ("c1",) and table.state.deck == ("c2",)


def test_every_student_in_play_declares_stumped():
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    for seat in ("s1", "s2", "s3"):
        assert types(table.do("declare_stumped", player(seat))) == ["StumpedDeclared"]
    assert table.refused("declare_stumped", player("s1")).code == "already_stumped"
    events = table.do("declare_stumped", player("s4"))
    assert types(events) == ["StumpedDeclared", "CardStumped"]
    assert events[1].data["reason"] == "all_stumped"


def test_stumped_is_declared_only_on_a_revealed_card_nobody_holds():
    table = Table.started()
    assert table.refused("declare_stumped", player("s1")).code == "no_card_in_play"
    table.do("place_card")
    assert table.refused("declare_stumped", player("s1")).code == "card_not_revealed"
    table.do("reveal_card")
    table.do("declare_stumped", player("s2"))
    table.do("touch_card", player("s2"))  # a student who declared may still touch
    assert table.refused("declare_stumped", player("s1")).code == "touch_in_progress"


def test_stumped_cards_replay_once_at_the_end_when_the_table_says_so():
    table = Table.started(cards=["c1", "c2"], stumped_cards="replay_at_end")
    table.next_card()
    table.fire("no_touch_deadline")
    table.next_card()
    events = table.fire("no_touch_deadline")
    assert types(events) == ["CardStumped", "StumpedCardsReturned"]
    assert events[1].data["cards"] == ["c1", "c2"]
    assert table.state.deck == ("c1", "c2") and table.state.stumped == ()
    table.next_card()
    table.win("s1")
    table.next_card()
    events = table.fire("no_touch_deadline")  # stumped twice: set aside for good
    assert types(events) == ["CardStumped", "RoundEnded"]
    assert events[1].data["stumped"] == ["c2"]


def test_stumped_cards_are_never_replayed_when_set_aside():
    table = Table.started(cards=["c1"], stumped_cards="set_aside")
    table.next_card()
    events = table.fire("no_touch_deadline")
    assert types(events) == ["CardStumped", "RoundEnded"]


# -- R-FLAG-2/3/4: flags and disqualification ------------------------------------------------


def _flag_by_touching_early(table: Table, seat: str) -> list:
    table.do("place_card")
    return table.do("touch_card", player(seat))


def test_three_flags_disqualify_in_rounds_one_and_two():
    table = Table.started(round=2)
    _flag_by_touching_early(table, "s1")
    _flag_by_touching_early(table, "s1")
    events = _flag_by_touching_early(table, "s1")
    assert types(events) == [
        "CardTouched",
        "FlagIssued",
        "PlayerDisqualified",
        "CardReturnedToDeck",
    ]
    assert events[2].data == {
        "at": T0,
        "seat": "s1",
        "flags": 3,
        "cause": "flag_limit",
        "rule": "R-FLAG-3",
    }
    assert seat_of(table.state, "s1").disqualified


def test_two_flags_disqualify_in_rounds_three_and_four_and_the_limit_is_an_option():
    table = Table.started(round=3)
    _flag_by_touching_early(table, "s1")
    assert types(_flag_by_touching_early(table, "s1"))[2] == "PlayerDisqualified"
    table = Table.started(round=1, flag_limit=1)
    assert types(_flag_by_touching_early(table, "s2"))[2] == "PlayerDisqualified"


def test_disqualified_student_keeps_points_and_cannot_touch():
    table = Table.started(round=4)
    table.next_card()
    table.win("s1")
    _flag_by_touching_early(table, "s1")
    _flag_by_touching_early(table, "s1")
    assert seat_of(table.state, "s1").disqualified and seat_of(table.state, "s1").score == 1
    table.do("place_card")
    table.do("reveal_card")
    violation = table.refused("touch_card", player("s1"))
    assert (violation.code, violation.rule) == ("disqualified", "R-FLAG-4")
    assert table.refused("declare_stumped", player("s1")).code == "disqualified"
    assert table.refused("issue_flag", seat="s1", cause="no_pattern").code == "disqualified"


def test_last_student_standing_plays_on_alone():
    table = Table.started(round=3, flag_limit=1)
    for seat in ("s1", "s2", "s3"):
        _flag_by_touching_early(table, seat)
    assert table.state.seats_in_play() == ("s4",)
    assert table.state.phase == "between_cards"
    table.next_card()
    events = table.do("declare_stumped", player("s4"))  # all students still in play agree
    assert types(events) == ["StumpedDeclared", "CardStumped"]
    table.next_card()
    assert table.win("s4")[-1].type == "CardWon"


def test_round_ends_when_every_student_is_disqualified():
    table = Table.started(flag_limit=1)
    for seat in ("s1", "s2", "s3"):
        _flag_by_touching_early(table, seat)
    events = _flag_by_touching_early(table, "s4")
    assert types(events)[-1] == "RoundEnded"
    assert events[-1].data["reason"] == "all_disqualified"
    assert events[-1].data["disqualified"] == ["s1", "s2", "s3", "s4"]
    assert len(events[-1].data["unplayed"]) == 10


def test_proctor_flag_takes_the_card_when_nobody_holds_it():
    table = Table.started(cards=["c1", "c2"], mode="proctored")
    table.next_card()
    events = table.do("issue_flag", seat="s2", cause="touched_before_reveal")
    assert types(events) == ["FlagIssued", "CardReturnedToDeck"]
    assert events[0].data["play"] == 1


def test_proctor_flag_on_a_bystander_leaves_the_card_with_its_toucher():
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    table.do("touch_card", player("s1"))
    events = table.do("issue_flag", seat="s2", cause="too_many_fingertips")
    assert types(events) == ["FlagIssued"] and events[0].data["play"] is None
    assert table.state.card.toucher == "s1"


def test_proctor_flag_between_cards_only_counts():
    table = Table.started(cards=["c1", "c2"])
    events = table.do("issue_flag", DIRECTOR, seat="s2", cause="no_solution")
    assert types(events) == ["FlagIssued"]
    assert seat_of(table.state, "s2").flags == 1


def test_issue_flag_needs_a_cause_of_the_five_and_a_proctor():
    table = Table.started()
    assert table.refused("issue_flag", seat="s1", cause="rudeness").code == "bad_args"
    assert table.refused("issue_flag", seat="s1").code == "bad_args"
    assert table.refused("issue_flag", player("s2"), seat="s1", cause="no_pattern").code == (
        "not_allowed"
    )


# -- deadlines: exactly the live timers, stale ones refused ----------------------------------------


def test_deadlines_follow_the_phase():
    table = Table(options())
    assert table.live() == {}
    table.do("start_round")
    assert table.live() == {}  # no auto_proctor: the proctor places the cards
    table.do("place_card")
    assert table.live() == {}
    table.advance(1)
    table.do("reveal_card")
    assert table.live() == {"no_touch_deadline": T0 + 16 * S}
    table.advance(2)
    table.do("touch_card", player("s1"))
    assert table.live() == {"pattern_deadline": T0 + 6 * S, "solution_deadline": T0 + 18 * S}


def test_stale_and_early_deadlines_are_refused():
    table = Table.started()
    table.next_card()
    old = table.deadline("no_touch_deadline")
    table.do("touch_card", player("s1"))
    stale = table.refused(old.command.name, SERVER_ACTOR, **old.command.args)
    assert stale.code == "stale_deadline"
    pattern = table.deadline("pattern_deadline")
    table.now = pattern.at - 1001
    early = table.refused("pattern_deadline", SERVER_ACTOR, **pattern.command.args)
    assert early.code == "deadline_not_due"
    assert table.refused("pattern_deadline", SERVER_ACTOR, key="nonsense").code == (
        "stale_deadline"
    )
    assert table.refused("pattern_deadline", PROCTOR, **pattern.command.args).code == (
        "not_allowed"
    )


def test_a_deadline_fired_a_hair_early_happens_at_its_own_time():
    table = Table.started()
    table.next_card()
    table.do("touch_card", player("s1"))
    pattern = table.deadline("pattern_deadline")
    table.now = pattern.at - 1
    events = table.do("pattern_deadline", SERVER_ACTOR, **pattern.command.args)
    assert events[0].data["at"] == pattern.at


def test_the_table_clock_never_runs_backwards():
    table = Table.started()
    table.advance(5)
    table.do("place_card")
    table.now = T0  # a shell clock that stepped back
    (event,) = table.do("reveal_card")
    assert event.data["at"] == T0 + 5 * S


# -- pause and resume --------------------------------------------------------------------------


def test_paused_table_has_no_live_deadline_and_refuses_touches():
    table = Table.started()
    table.next_card()
    table.do("touch_card", player("s1"))
    (paused,) = table.do("pause_table", SERVER_ACTOR, cause="server_restart")
    assert paused.data["cause"] == "server_restart"
    assert challenge.deadlines(table.state) == []
    table.advance(60)
    assert table.refused("declare_pattern", player("s1"), pattern="3 × 8").code == "table_paused"
    assert table.refused("touch_card", player("s2")).code == "table_paused"
    assert table.refused("pause_table").code == "already_paused"


def test_resume_restarts_the_windows_of_the_card_from_the_resume_time():
    table = Table.started()
    table.next_card()
    table.do("touch_card", player("s1"))
    table.advance(2)
    table.do("pause_table")
    table.advance(100)
    (resumed,) = table.do("resume_table")
    assert resumed.data == {"at": T0 + 102 * S, "cause": "proctor"}
    assert table.live() == {
        "pattern_deadline": T0 + 105 * S,
        "solution_deadline": T0 + 117 * S,
    }
    table.advance(2.5)
    table.do("declare_pattern", player("s1"), pattern="3 × 8")  # in time after the resume
    assert table.refused("resume_table").code == "not_paused"


def test_a_proctor_may_flag_and_end_while_paused_but_not_reveal():
    table = Table.started()
    table.do("place_card")
    table.do("pause_table", cause="protest")
    assert table.refused("reveal_card").code == "table_paused"
    assert types(table.do("issue_flag", seat="s1", cause="touched_before_reveal"))[0] == (
        "FlagIssued"
    )
    assert types(table.do("end_round")) == ["RoundEnded"]
    assert not table.state.paused


def test_pause_needs_a_running_round_and_a_proctor():
    table = Table(options())
    assert table.refused("pause_table").code == "round_not_started"
    table.do("start_round")
    assert table.refused("pause_table", player("s1")).code == "not_allowed"
    assert table.refused("pause_table", cause="").code == "bad_args"
    assert table.refused("resume_table", SERVER_ACTOR).code == "not_allowed"


# -- auto_proctor --------------------------------------------------------------------------------


def test_auto_proctor_places_and_reveals_after_the_previous_card_is_resolved():
    table = Table.started(cards=["c1", "c2"], auto_proctor=2, auto_reveal_seconds=0.5)
    assert table.live() == {"place_card": T0 + 2 * S}
    (placed,) = table.fire("place_card")
    assert placed.data["at"] == T0 + 2 * S
    assert table.live() == {"reveal_card": T0 + 2_500_000}
    table.fire("reveal_card")
    table.advance(1)
    table.win("s1")
    assert table.live() == {"place_card": T0 + 5_500_000}


def test_auto_proctor_deadline_is_stale_once_the_proctor_placed_by_hand():
    table = Table.started(auto_proctor=2)
    place = table.deadline("place_card")
    table.do("place_card")
    assert table.refused("place_card", SERVER_ACTOR, **place.command.args).code == (
        "stale_deadline"
    )


def test_without_auto_proctor_the_server_cannot_place_cards():
    table = Table.started()
    assert table.refused("place_card", SERVER_ACTOR, key="place:1:0").code == "stale_deadline"


# -- commands in general -------------------------------------------------------------------------


def test_unknown_command_and_non_map_arguments_are_refused():
    table = Table.started()
    assert table.refused("slap_card", player("s1")).code == "unknown_command"
    try:
        challenge.decide(table.state, Command("touch_card", ["s1"], player("s1")), T0)
    except RuleViolation as violation:
        assert violation.code == "bad_args"
    else:
        raise AssertionError("a list of arguments was accepted")


def test_every_refusal_code_names_a_known_rule_or_none():
    rule_ids = {rule for rule, _meaning in challenge.REFUSALS.values()}
    assert rule_ids <= {
        "",
        "R-PLAY-1",
        "R-PLAY-2",
        "R-PLAY-4",
        "R-PLAY-5",
        "R-PLAY-7",
        "R-FLAG-4",
        "R-PUZ-3",
        "R-ROUND-1",
        "R-ROUND-7",
        "R-ROUND-8",
    }
    assert set(challenge.FLAG_CAUSES) == {
        "no_pattern",
        "no_solution",
        "incorrect_solution",
        "too_many_fingertips",
        "touched_before_reveal",
    }
