"""The rule corrections an outside audit of shared/rules/24-challenge.md against the seed found
(issue 10): each test cites the rule id it enforces."""

from __future__ import annotations

from collections import Counter

import pytest
from challenge_tables import PROCTOR, T0, Table, options, player, seat_of, types

from server.games import challenge
from server.games.base import Event, replay
from server.games.challenge.options import table_options, tournament_table_deck
from server.puzzles.editions import double_digits, single_digits
from server.puzzles.round_decks import round_plan

# -- R-PLAY-3: a slap disqualifies; four fingertips are a flag -------------------------------


def test_a_slap_with_five_fingertips_disqualifies_without_a_flag_R_PLAY_3():
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    events = table.do("touch_card", player("s2"), fingertips=5)
    assert types(events) == ["CardTouched", "PlayerDisqualified", "CardReturnedToDeck"]
    assert events[1].data == {
        "at": table.now,
        "seat": "s2",
        "flags": 0,
        "cause": "slap",
        "rule": "R-PLAY-3",
    }
    s2 = seat_of(table.state, "s2")
    assert s2.disqualified and s2.flags == 0 and s2.disqualified_cause == "slap"
    assert table.state.deck[-1] == "c1"  # back to the bottom, as for a flag (R-FLAG-2)
    assert table.refused("touch_card", player("s2")).code in ("no_card_in_play", "disqualified")


def test_a_slap_before_the_reveal_is_a_slap_not_a_flag_R_PLAY_3():
    table = Table.started(cards=["c1", "c2"])
    table.do("place_card")
    events = table.do("touch_card", player("s1"), fingertips=10)
    assert types(events) == ["CardTouched", "PlayerDisqualified", "CardReturnedToDeck"]
    assert events[1].data["cause"] == "slap"
    assert "FlagIssued" not in types(events)


def test_a_later_slap_disqualifies_and_leaves_the_card_with_its_toucher_R_PLAY_3():
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    table.do("touch_card", player("s1"))
    events = table.do("touch_card", player("s3"), fingertips=5)
    assert types(events) == ["TouchRefused", "PlayerDisqualified"]
    assert table.state.card is not None and table.state.card.toucher == "s1"


def test_a_slap_the_proctor_rules_on_disqualifies_R_PLAY_3():
    table = Table.started(cards=["c1", "c2"], mode="proctored")
    table.next_card()
    assert table.refused("rule_slap", player("s1"), seat="s2").code == "not_allowed"
    events = table.do("rule_slap", seat="s2")
    assert types(events) == ["PlayerDisqualified", "CardReturnedToDeck"]
    assert events[0].data["cause"] == "slap"
    assert table.refused("rule_slap", seat="s2").code == "disqualified"
    assert table.refused("rule_slap", seat="s9").code == "unknown_seat"


def test_four_fingertips_are_a_flag_not_a_slap_R_PLAY_3():
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    events = table.do("touch_card", player("s4"), fingertips=4)
    assert types(events)[:2] == ["CardTouched", "FlagIssued"]
    assert events[1].data["cause"] == "too_many_fingertips"
    assert not seat_of(table.state, "s4").disqualified


# -- R-PLAY-2: the proctor never hands the card to a foul touch ---------------------------------


def test_override_never_hands_the_card_to_a_foul_touch_R_PLAY_2():
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("touch_card", player("s2"), fingertips=4)  # later, and a foul: recorded, flagged
    refused = table.refused("override_first_touch", PROCTOR, seat="s2")
    assert refused.code == "foul_touch" and refused.rule == "R-PLAY-2"
    table.do("touch_card", player("s3"), fingertips=3)  # three fingertips are fine
    assert types(table.do("override_first_touch", seat="s3")) == ["FirstTouchOverridden"]


# -- R-PLAY-7: the default follows the Official Rules ("removes that card for later play") ----


def test_stumped_cards_are_played_again_at_the_end_by_default_R_PLAY_7():
    table = Table.started(cards=["c1"])
    assert table.state.options.stumped_cards == "replay_at_end"
    table.next_card()
    events = table.fire("no_touch_deadline")
    assert types(events) == ["CardStumped", "StumpedCardsReturned"]
    assert challenge.DEFAULT_OPTIONS["stumped_cards"] == "replay_at_end"


def test_a_table_recorded_under_the_old_default_replays_as_it_was_played_R_PLAY_7():
    """A log whose options omit `stumped_cards` and whose `RoundStarted` recorded `set_aside`
    (the default before this correction) replays with the recorded policy."""
    raw = options(cards=["c1"])
    old_start = Event(
        "RoundStarted",
        {
            "at": T0,
            "round": 1,
            "deck": ["c1"],
            "removed": [],
            "seats": raw["seats"],
            "options": {**table_options(raw).as_data(), "stumped_cards": "set_aside"},
            "rule": "R-ROUND-1",
        },
    )
    state = replay(challenge, raw, [old_start])
    assert state.options.stumped_cards == "set_aside"
    table = Table(raw)
    table.state, table.events = state, [old_start]
    table.next_card()
    assert types(table.fire("no_touch_deadline")) == ["CardStumped", "RoundEnded"]
    assert table.replayed() == table.state


def test_events_recorded_before_a_field_existed_replay_with_its_old_meaning():
    """A `PlayerDisqualified` from before slaps (R-PLAY-3) has no `cause`: it was the flag
    limit's (R-FLAG-3); a touch from before `fingertips` was recorded is one finger (no foul,
    so the card stays with its toucher)."""
    table = Table.started()
    table.next_card()
    at = table.now
    old = [
        Event("CardTouched", {"at": at, "seat": "s1", "play": 1, "rule": "R-PLAY-2"}),
        Event(
            "TouchRefused",
            {
                "at": at,
                "seat": "s2",
                "play": 1,
                "reason": "not_first",
                "toucher": "s1",
                "rule": "R-PLAY-2",
            },
        ),
        Event("PlayerDisqualified", {"at": at, "seat": "s3", "flags": 3, "rule": "R-FLAG-3"}),
    ]
    state = table.state
    for event in old:
        state = challenge.evolve(state, event)
    assert state.card.toucher == "s1" and state.card.fouls == ()
    assert state.card.touches == ("s1", "s2")
    s3 = seat_of(state, "s3")
    assert (s3.disqualified, s3.disqualified_cause) == (True, "flag_limit")
    # A `RoundStarted` that recorded no options (or none about R-PLAY-7) keeps the table's.
    fresh = challenge.initial_state(options(cards=["c1"]))
    for recorded in ({}, {"options": {"mode": "networked"}}):
        start = Event("RoundStarted", {"at": at, "deck": ["c1"], "removed": [], **recorded})
        assert challenge.evolve(fresh, start).options == fresh.options


# -- R-PUZ-2: a bracketed fraction is one value -------------------------------------------------


def test_a_bracketed_fraction_wins_the_card_at_the_table_R_PUZ_2():
    table = Table.started(cards=["c2", "c1"])
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="8 ÷ (1/3)")
    events = table.do(
        "fix_solution", player("s1"), steps=["8 ÷ 3 = 8/3", "3 − 8/3 = 1/3", "8 ÷ (1/3) = 24"]
    )
    assert types(events) == ["SolutionFixed", "SolutionJudged", "CardWon"]


def test_a_step_reusing_a_value_is_judged_with_a_message_that_says_so():
    table = Table.started(cards=["c3", "c1"])  # c3: 2 2 2 3
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="8 × 3")
    events = table.do("fix_solution", player("s1"), steps=["2 × 2 = 4", "4 × 4 = 16", "8 × 3 = 24"])
    judged = events[1].data
    assert judged["ok"] is False and judged["reason"] == "value_not_available"
    assert judged["message"] == "step 2 uses 4 twice; only one 4 is available: 2, 3, 4"


# -- R-DECK-1 and R-DECK-5: a 96-card deck in two halves; the document decides the sides ------


def test_one_seed_makes_96_cards_in_two_halves_with_no_side_repeated_R_DECK_1():
    first, second = single_digits(7, 1), single_digits(7, 2)
    assert first == single_digits(7)  # the first half is the 48-card deck as it always was
    assert [card.card_id for card in second][:1] == ["SD-49"]
    assert {card.card_id for card in first}.isdisjoint(card.card_id for card in second)
    sides = [tuple(sorted(s.numbers)) for card in first + second for s in (card.red, card.white)]
    assert len(sides) == len(set(sides)) == 192
    for half in (first, second):
        for colour in ("red", "white"):
            dots = Counter(card.side(colour).dots for card in half)
            assert dots == {1: 12, 2: 24, 3: 12}
    with pytest.raises(ValueError):
        single_digits(7, 3)


def test_rounds_three_and_four_play_the_second_half_R_DECK_5():
    """Official Tournament Rules: round 1 the first half red side up, round 2 the same cards
    white side up, rounds 3-4 "the second half of the 96 card deck" (red, then white): the
    second half of the same edition's deck, Single Digits by default
    (server.puzzles.round_decks)."""
    ids = {n: [card["card_id"] for card in tournament_table_deck(None, 7, n)] for n in (1, 2, 3, 4)}
    assert ids[1] == ids[2] and ids[3] == ids[4] and set(ids[1]).isdisjoint(ids[3])
    second = single_digits(7, 2)
    assert tournament_table_deck(None, 7, 3)[0]["numbers"] == list(second[0].red.numbers)
    assert tournament_table_deck("single-digits", 7, 4)[0]["numbers"] == list(
        second[0].white.numbers
    )
    assert tournament_table_deck("double-digits", 7, 4)[0]["numbers"] == list(
        double_digits(7, 2)[0].white.numbers
    )
    assert [round_plan("official", n).half for n in (1, 2, 3, 4)] == [1, 1, 2, 2]


def test_the_tournament_chooses_the_document_it_runs_under_R_DECK_5():
    assert [round_plan("official", n).side for n in (1, 2, 3, 4)] == ["red", "white"] * 2
    guidelines = [round_plan("guidelines", n).side for n in (1, 2, 3, 4)]
    assert guidelines == ["white", "red", "red", "white"]
    deck = tournament_table_deck("single-digits", 7, 1, document="guidelines")
    assert deck[0]["numbers"] == list(single_digits(7)[0].white.numbers)
    with pytest.raises(ValueError) as unknown:
        round_plan("hearsay", 1)
    assert str(unknown.value) == (
        "a rules document is one of official, guidelines, special_instructions, not 'hearsay'"
    )
