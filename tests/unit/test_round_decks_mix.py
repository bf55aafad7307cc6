"""The Special Instructions' mix for rounds 3 and 4 (server/puzzles/round_decks.py, R-DECK-5),
exactly: which cards, in which shuffled order, for a seed. A tournament's later rounds must
deal the same cards in the same order for a seed years later (the log records them, but a
director's printed decks and the reference CLI are drawn again). Seed 1's shuffle ends with
a swap of the first two cards, so every step of the shuffle shows in its order."""

from __future__ import annotations

from server.puzzles.round_decks import mixed_cards

MIX_OF_SEED_1 = (
    "DD-52 VAR-03 SD-52 SD-55 DD-50 VAR-16 DD-61 DD-55 SD-58 VAR-13 SD-60 SD-53 "
    "DD-53 VAR-06 SD-69 VAR-05 VAR-01 SD-59 DD-54 DD-57 SD-51 SD-50 VAR-07 DD-59 "
    "SD-54 SD-65 DD-60 VAR-02 DD-56 SD-49 DD-64 SD-62 SD-64 VAR-10 VAR-19 SD-56 "
    "SD-57 DD-62 VAR-12 VAR-08 DD-58 DD-65 VAR-04 VAR-18 VAR-14 VAR-09 DD-49 DD-51"
).split()


def test_the_mix_of_a_seed_is_these_48_cards_in_this_order_R_DECK_5():
    assert [card.card_id for card in mixed_cards(1)] == MIX_OF_SEED_1
