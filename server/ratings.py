"""Ratings: a student against a card (practice), and the students of a table against each
other (tournament rounds and casual tables), on openskill's Weng-Lin models.

Why openskill for both, and not the `glicko2` package: openskill (MIT, maintained, pure
Python with compiled wheels) implements the Weng-Lin Bayesian approximation, the family of
Glicko; its Bradley-Terry model with one player a side is Glicko's logistic law. The one
Glicko-2 package on PyPI (`glicko2` 2.1.0, a port of pyglicko2) computes the volatility
step with the player's rating where Glickman's step 5 has the rating deviation (its `_f`),
which its own test cannot see because that test's player is rated exactly 1500
(docs/analysis.md, "Ratings"). We keep Glicko's scale (1500, deviation 350, 173.7 points
per logistic unit) so a rating reads like a lichess puzzle rating.

The lessons of lichess's puzzle ratings, and how each is kept here:
- the next card follows the student's rating at once (lila 19101, 16619): the practice game
  chooses every card with the rating its previous card left (server/games/practice);
- no flood of cards far below one's level (lila 4684): the choice takes the cards nearest the
  rating, never the easiest first (`server/games/practice/choice.py`);
- early jumps are bounded while a rating is provisional (lila 7777): `MAX_PROVISIONAL_STEP`;
- a card played very often does not drift (lila 1704, 1235): a card's deviation never
  grows and never falls below `CARD_MIN_SIGMA`, its step is at most `CARD_MAX_STEP`, and it
  stays within `CARD_MAX_SHIFT` of the difficulty model's prior.

Determinism: a practice table records every rating before and after in its events, so a
replay reads them and never recomputes (the floats of another machine's libm cannot change a
recorded rating). Table ratings in the analysis are recomputed from the recorded results in
the log's order, with the same code, and are data of the analysis, not of the log.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from server.puzzles.difficulty import DOT_THRESHOLDS

START_MU = 1500.0
START_SIGMA = 350.0
# Glicko's scale: 400 / ln(10) = 173.7 points per logistic unit. Bradley-Terry's c is
# sqrt(sigma_a^2 + sigma_b^2 + 2 beta^2), so beta = 173.7 / sqrt(2) gives Glicko's law once
# both deviations are small.
BETA = 400 / math.log(10) / math.sqrt(2)
# Additive dynamics per attempt: keeps a settled rating able to follow a student who learns.
STUDENT_TAU = 12.0
PROVISIONAL_SIGMA = 110.0  # lichess shows a rating as provisional above this deviation
MAX_PROVISIONAL_STEP = 150.0  # lila 7777: no jump above this while provisional
# Cards (lila 1704): small steps around the difficulty model's prior.
CARD_SIGMA = 120.0
CARD_MIN_SIGMA = 10.0
CARD_MAX_STEP = 25.0
CARD_MAX_SHIFT = 400.0
# The difficulty model's score -> a card's prior rating: linear, the two dot thresholds (the
# 25th and 75th percentiles of the classic cards, docs/puzzles.md) at 1500 -/+ 0.674 * 350,
# so the classic cards' ratings spread like a population of students rated 1500 +/- 350.
_LOW, _HIGH = DOT_THRESHOLDS
POINTS_PER_SCORE = 2 * 0.6745 * START_SIGMA / (_HIGH - _LOW)
_MIDDLE = (_LOW + _HIGH) / 2

if TYPE_CHECKING:
    from openskill.models import BradleyTerryFull, PlackettLuce


@cache
def _duel() -> BradleyTerryFull:
    """The student-against-card model, built by its first rating: openskill is imported
    there, not by every server's start (the practice game's options import this module;
    issue 29)."""
    from openskill.models import BradleyTerryFull

    return BradleyTerryFull(mu=START_MU, sigma=START_SIGMA, beta=BETA, tau=0.0)


@cache
def _table() -> PlackettLuce:
    """The table's model (scores of a whole table), built by its first rating (`_duel`)."""
    from openskill.models import PlackettLuce

    return PlackettLuce(mu=START_MU, sigma=START_SIGMA, beta=BETA, tau=STUDENT_TAU)


@dataclass(frozen=True)
class Rating:
    """A rating and its deviation (Glicko's scale), rounded to what is recorded."""

    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    def as_data(self) -> dict[str, float]:
        return {"mu": self.mu, "sigma": self.sigma}

    @classmethod
    def from_data(cls, data: Any, default: Rating | None = None) -> Rating:
        """A rating from recorded data (`{mu, sigma}`); `default` (or a new rating) if none."""
        if not isinstance(data, Mapping):
            return default or cls()
        return cls(float(data["mu"]), float(data["sigma"]))


def _rounded(mu: float, sigma: float) -> Rating:
    # Recorded to a hundredth: what is read back is exactly what was decided.
    return Rating(round(mu, 2), round(sigma, 2))


def card_prior(score: float) -> Rating:
    """A card's rating before anyone played it, from the difficulty model's score."""
    return _rounded(START_MU + (score - _MIDDLE) * POINTS_PER_SCORE, CARD_SIGMA)


def expected(student: Rating, card: Rating) -> float:
    """The chance the student solves the card in time (the model's own prediction)."""
    duel = _duel()
    a = duel.rating(mu=student.mu, sigma=student.sigma)
    b = duel.rating(mu=card.mu, sigma=card.sigma)
    return float(duel.predict_win([[a], [b]])[0])


def rate_attempt(
    student: Rating, card: Rating, solved: bool, card_prior_mu: float
) -> tuple[Rating, Rating]:
    """The student's and the card's ratings after one attempt (see the module doc)."""
    duel = _duel()
    a = duel.rating(mu=student.mu, sigma=math.hypot(student.sigma, STUDENT_TAU))
    b = duel.rating(mu=card.mu, sigma=card.sigma)
    ranks = [1.0, 2.0] if solved else [2.0, 1.0]
    [[a_after], [b_after]] = duel.rate([[a], [b]], ranks=ranks)
    step = a_after.mu - student.mu
    if student.provisional:
        step = max(-MAX_PROVISIONAL_STEP, min(MAX_PROVISIONAL_STEP, step))
    new_student = _rounded(student.mu + step, min(a_after.sigma, START_SIGMA))
    card_step = max(-CARD_MAX_STEP, min(CARD_MAX_STEP, b_after.mu - card.mu))
    card_mu = card.mu + card_step
    card_mu = max(card_prior_mu - CARD_MAX_SHIFT, min(card_prior_mu + CARD_MAX_SHIFT, card_mu))
    card_sigma = max(CARD_MIN_SIGMA, min(card.sigma, b_after.sigma))
    return new_student, _rounded(card_mu, card_sigma)


def rate_table(ratings: Sequence[Rating], scores: Sequence[float]) -> list[Rating]:
    """The players' ratings after a table where they made `scores` (higher is better; equal
    scores are a tie), Plackett-Luce over the ranking, the early steps bounded as above."""
    model = _table()
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    rated = model.rate(teams, scores=[float(s) for s in scores])
    out = []
    for before, [after] in zip(ratings, rated, strict=True):
        step = after.mu - before.mu
        if before.provisional:
            step = max(-MAX_PROVISIONAL_STEP, min(MAX_PROVISIONAL_STEP, step))
        out.append(_rounded(before.mu + step, min(after.sigma, START_SIGMA)))
    return out
