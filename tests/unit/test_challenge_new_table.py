"""R-PUZ-4 at table creation, the round's deck of a single table (R-DECK-5) and the
challenge's redaction groups, on the pure core: the guarding tests of `make mutate` for
`check_new_table`, `tournament_table_deck` and `redaction_group` (the shell's side of
R-PUZ-4, creation and replay through a hub and a store, is in
test_challenge_new_table_check.py).
"""

from __future__ import annotations

from typing import Any

import pytest
from challenge_tables import PROCTOR, Table, deck_data, seats_data

from server.games import challenge
from server.games.base import Actor, RuleViolation
from server.games.challenge.options import table_options, tournament_table_deck
from server.puzzles.round_decks import round_deck

DUD = {"card_id": "dud", "numbers": [1, 1, 1, 1], "dots": 1}  # no solution (R-PUZ-2)
REFUSAL = (
    "option 'deck': card 'dud' (1 1 1 1) has no solution (R-PUZ-4); only a casual table may play it"
)


def hand_made(**more: Any) -> dict[str, Any]:
    """Options with a hand-made deck: a solvable card, then one without a solution."""
    return {"seats": seats_data(), "deck": [*deck_data(["c1"]), DUD], **more}


# -- the game ---------------------------------------------------------------------------------


def test_a_new_table_with_a_card_without_a_solution_is_refused_naming_it_R_PUZ_4():
    with pytest.raises(RuleViolation) as refused:
        challenge.check_new_table(hand_made())
    assert refused.value.as_dict() == {"code": "bad_options", "rule": "R-PUZ-4", "message": REFUSAL}


def test_a_new_casual_table_may_play_a_card_without_a_solution_R_PUZ_4():
    assert challenge.check_new_table(hand_made(casual=True)) is None


def test_the_new_table_check_reads_the_options_first():
    """Options that do not read are refused as they are by `initial_state`, before R-PUZ-4."""
    with pytest.raises(RuleViolation) as refused:
        challenge.check_new_table(hand_made(seats=[]))
    assert refused.value.code == "bad_options"
    assert "'seats'" in refused.value.message


def test_recorded_options_with_a_card_without_a_solution_read_back_and_play_R_PUZ_4():
    """`initial_state` (what a replay runs) does not judge R-PUZ-4: the card is played and,
    nobody finding a solution, stumped as any other (R-PLAY-7)."""
    table = Table(hand_made(stumped_cards="set_aside"))
    assert [card.card_id for card in table.state.options.deck] == ["c1", "dud"]
    table.do("start_round", PROCTOR, order=["dud", "c1"])
    assert table.next_card() == "dud"
    stumped = table.fire("no_touch_deadline")
    assert "CardStumped" in [event.type for event in stumped]


def test_a_casual_table_reads_back_casual():
    assert table_options(hand_made(casual=True)).casual is True
    assert table_options(hand_made()).casual is False


# -- the round's deck of a single table (R-DECK-5) ---------------------------------------------


def test_a_single_table_of_a_round_plays_the_round_s_half_under_its_document():
    """Under the Guidelines round 2 plays the Double Digits half (the Official Rules: the
    Single Digits half again, flipped)."""
    deck = tournament_table_deck("double-digits", 5, 2, document="guidelines")
    assert deck == round_deck(5, "guidelines", 2)
    assert tournament_table_deck(None, 5, 2) == round_deck(5, "official", 2)


def test_a_single_table_refuses_another_edition_or_side_exactly():
    with pytest.raises(ValueError) as other_edition:
        tournament_table_deck("single-digits", 5, 2, document="guidelines")
    assert str(other_edition.value) == (
        "round 2 under the guidelines rules plays double-digits (R-DECK-5), not single-digits"
    )
    with pytest.raises(ValueError) as other_side:
        tournament_table_deck(None, 5, 1, side="blue")
    assert str(other_side.value) == "a side is one of ('red', 'white'), not 'blue'"


# -- redaction groups --------------------------------------------------------------------------


def test_the_full_view_roles_share_one_redaction_group_everyone_else_another():
    groups = {
        role: challenge.redaction_group(Actor(role, "x"))
        for role in ("director", "proctor", "player", "spectator")
    }
    assert groups == {
        "director": "full",
        "proctor": "full",
        "player": "public",
        "spectator": "public",
    }
