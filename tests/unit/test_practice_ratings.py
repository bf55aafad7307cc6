"""The ratings (server/ratings.py) and the practice pool (server/games/practice/pool.py),
issue 31: the lessons of lichess's puzzle ratings, each as a test."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

from server.games.practice.pool import pool
from server.puzzles import difficulty
from server.puzzles.solver import solvable
from server.ratings import (
    CARD_MAX_SHIFT,
    CARD_MAX_STEP,
    CARD_MIN_SIGMA,
    Rating,
    card_prior,
    expected,
    rate_attempt,
    rate_table,
)


def test_a_card_played_very_often_does_not_drift():
    """lila 1704: 5,000 attempts by students of every level around the card's, each solving
    it with the chance their true levels give: the card's rating settles at its true level
    and stays there, its steps shrinking as its deviation does."""
    rng = random.Random(24)
    prior = card_prior(20.0)
    true_card = Rating(prior.mu, 1.0)
    card, seen = prior, []
    for _ in range(5000):
        level = prior.mu + rng.uniform(-300, 300)
        rated = Rating(level + rng.uniform(-60, 60), rng.uniform(60, 350))
        solved = rng.random() < expected(Rating(level, 1.0), true_card)
        _student, card = rate_attempt(rated, card, solved, prior.mu)
        seen.append(card.mu)
    assert abs(card.mu - prior.mu) < 60
    assert max(seen[-1000:]) - min(seen[-1000:]) < 40  # settled, not wandering
    assert CARD_MIN_SIGMA <= card.sigma < prior.sigma


def test_a_card_everyone_solves_moves_in_small_steps_and_stays_near_its_prior():
    """lila 1235 (a puzzle rated 8937): no attempt moves a card more than CARD_MAX_STEP, and
    no run of them more than CARD_MAX_SHIFT from the difficulty model's prior."""
    prior = card_prior(25.0)
    card = prior
    for _ in range(2000):
        before = card
        _student, card = rate_attempt(Rating(800, 60), card, True, prior.mu)
        assert abs(card.mu - before.mu) <= CARD_MAX_STEP + 0.01
    assert prior.mu - CARD_MAX_SHIFT - 0.01 <= card.mu < prior.mu


def test_harder_cards_have_higher_priors_and_a_stronger_student_is_expected_to_win_more():
    assert card_prior(15).mu < card_prior(20).mu < card_prior(25).mu
    card = card_prior(20)
    assert expected(Rating(1900, 80), card) > expected(Rating(1500, 80), card)
    assert abs(expected(Rating(card.mu, 80), Rating(card.mu, 80)) - 0.5) < 1e-9


def test_a_table_ranks_its_players_by_score_and_ties_move_alike():
    before = [Rating(), Rating(), Rating(), Rating()]
    after = rate_table(before, [5, 3, 3, 0])
    assert after[0].mu > after[1].mu == after[2].mu > after[3].mu
    assert all(a.sigma < b.sigma for a, b in zip(after, before, strict=True))


def test_the_pool_is_every_solvable_card_of_1_to_13_with_its_score():
    cards = {c for c in combinations_with_replacement(range(1, 14), 4) if solvable(c)}
    assert {numbers for numbers, _score in pool()} == cards and len(pool()) == 1362
    assert [score for _n, score in pool()] == sorted(score for _n, score in pool())
    for numbers, score in random.Random(7).sample(pool(), 25):
        assert score == round(difficulty.score(numbers), 4)
