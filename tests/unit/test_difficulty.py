"""server.puzzles.difficulty: the human-difficulty model and its dots (R-DECK-3).

The held-out check recomputes Spearman's rho from server/puzzles/data/4nums-difficulty-train.csv
(in the repository, so these tests run on every clone; a missing file fails them, never skips
them):
the shipped constants were fitted on the 80% training part only (calibration.split), and the
20% they never saw must still rank the cards like people do (rho >= 0.7).
"""

import math

import pytest

from server.puzzles import calibration, difficulty
from server.puzzles.difficulty import dots, dots_for_score, score
from server.puzzles.solver import solve

CSV = calibration.DEFAULT_CSV


@pytest.fixture(scope="module")
def samples():
    assert CSV.is_file(), f"calibration data missing: {CSV} (see the README.md beside it)"
    return calibration.load(CSV)


def test_held_out_spearman_is_at_least_0_7(samples):
    fitting, held_out = calibration.split(samples)
    assert (len(fitting), len(held_out)) == (545, 136)
    rho = calibration.held_out_spearman(samples)
    assert rho >= 0.7
    assert rho == pytest.approx(0.727, abs=0.005)  # the figure in docs/puzzles.md


def test_shipped_constants_are_the_fit_on_the_training_part_only(samples):
    fitting, held_out = calibration.split(samples)
    assert not {s.numbers for s in fitting} & {s.numbers for s in held_out}
    weights, card, fitted_rho = calibration.fit(fitting)
    assert weights == pytest.approx(difficulty.SOLUTION_WEIGHTS, abs=1e-9)
    assert card == pytest.approx(difficulty.CARD_WEIGHTS, abs=1e-9)
    assert fitted_rho == pytest.approx(0.790, abs=0.005)


def test_split_is_deterministic_and_seeded(samples):
    first, _ = calibration.split(samples)
    again, _ = calibration.split(samples)
    other, _ = calibration.split(samples, seed=calibration.SPLIT_SEED + 1)
    assert [s.numbers for s in first] == [s.numbers for s in again]
    assert [s.numbers for s in first] != [s.numbers for s in other]


def test_dot_thresholds_are_the_quartiles_of_the_classic_cards():
    assert calibration.dot_thresholds() == pytest.approx(difficulty.DOT_THRESHOLDS)
    counts = {1: 0, 2: 0, 3: 0}
    cards = calibration.classic_cards()
    assert len(cards) == 1362
    for card in cards:
        counts[dots(card)] += 1
    # odds 1:2:1, the 12/24/12 mix of a deck (R-DECK-1), up to ties at the cuts
    assert abs(counts[1] / len(cards) - 0.25) < 0.02
    assert abs(counts[3] / len(cards) - 0.25) < 0.02


def test_harder_cards_score_higher():
    assert score((1, 1, 4, 6)) < score((2, 4, 8, 10)) < score((3, 3, 8, 8))
    assert dots((1, 1, 4, 6)) == 1
    assert dots((3, 3, 8, 8)) == 3
    assert dots((1, 3, 4, 6)) == 3


def test_unsolvable_card_has_infinite_score_and_no_dots():
    assert math.isinf(score((1, 1, 1, 1)))
    with pytest.raises(ValueError, match="no solution"):
        dots((1, 1, 1, 1))


def test_dots_for_score_cuts_at_the_thresholds():
    low, high = difficulty.DOT_THRESHOLDS
    assert dots_for_score(low - 0.001) == 1
    assert dots_for_score(low) == 2
    assert dots_for_score(high - 0.001) == 2
    assert dots_for_score(high) == 3


def test_feature_names_match_the_features():
    (solution,) = solve((3, 3, 8, 8))
    features = difficulty.solution_features(solution)
    assert len(features) == len(difficulty.SOLUTION_FEATURES) == len(difficulty.SOLUTION_WEIGHTS)
    named = dict(zip(difficulty.SOLUTION_FEATURES, features, strict=True))
    assert named["divisions"] == 2 and named["subtractions"] == 1
    assert named["uses_fractions"] == 1 and named["fraction_in_first_step"] == 1
    card = difficulty.card_features((3, 3, 8, 8), 1)
    assert len(card) == len(difficulty.CARD_FEATURES) == len(difficulty.CARD_WEIGHTS)
    assert card[:3] == (0.0, 0.0, 2.0)


def test_spearman():
    assert calibration.spearman([1, 2, 3, 4], [10, 20, 30, 45]) == pytest.approx(1.0)
    assert calibration.spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    assert calibration.ranks([5, 1, 5, 2]) == [2.5, 0.0, 2.5, 1.0]
    assert calibration.spearman([1, 1, 1], [1, 2, 3]) == 0.0
