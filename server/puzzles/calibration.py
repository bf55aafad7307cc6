"""How the difficulty model's constants were obtained, so anyone can redo it.

Data: server/puzzles/data/4nums-difficulty-train.csv (human adjusted median solve times
of 681 classic cards; the README.md beside it gives its source and licence and forbids
fitting to anything else). It is package data of `server.puzzles`, read with
`importlib.resources`, so an installed t24 has it as a checkout does. The rows are split once, by a
seeded shuffle, into 80% for fitting and 20% held out. `fit` maximises Spearman's rho between
the model's score and the human time on the fitting part by coordinate ascent over a fixed
ladder of step sizes (deterministic: same data, same constants). `held_out_spearman` then
measures the shipped constants on the 20% the fit never saw.

Run `python -m server.puzzles.calibration [path]` to print the fitted constants, the fit and
held-out figures and the dot thresholds; paste the constants into difficulty.py.
"""

from __future__ import annotations

import csv
import io
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from itertools import combinations_with_replacement
from pathlib import Path

from server.puzzles import difficulty
from server.puzzles.solver import solvable, solve

SPLIT_SEED = 24
HELD_OUT_SHARE = 0.2
STEP_LADDER = (2.0, 1.0, 0.5, 0.25, 0.1)
ROUNDS = 3
# Package data (pyproject.toml, [tool.setuptools.package-data]): a checkout and an installed
# wheel alike, never a path beside the source tree.
DEFAULT_CSV: Traversable = files("server.puzzles") / "data" / "4nums-difficulty-train.csv"


@dataclass(frozen=True)
class Sample:
    """One card with its features and the human time (seconds)."""

    numbers: tuple[int, ...]
    seconds: float
    solutions: tuple[tuple[float, ...], ...]
    card: tuple[float, ...]


def csv_rows(path: Traversable | Path = DEFAULT_CSV) -> list[dict[str, str]]:
    """The rows of the calibration CSV (column name -> text): this fit's data, and the
    `human` bot's (clients/reference_cli/games/challenge/bot.py)."""
    return list(csv.DictReader(io.StringIO(path.read_text(encoding="utf-8"), newline="")))


def load(path: Traversable | Path = DEFAULT_CSV) -> list[Sample]:
    """Read the CSV and compute every card's features once."""
    samples = []
    for row in csv_rows(path):
        numbers = tuple(int(n) for n in row["Puzzles"].split())
        solutions = solve(numbers)
        samples.append(
            Sample(
                numbers,
                float(row["AMT (s)"]),
                tuple(difficulty.solution_features(s) for s in solutions),
                difficulty.card_features(numbers, len(solutions)),
            )
        )
    return samples


def split(samples: Sequence[Sample], seed: int = SPLIT_SEED) -> tuple[list[Sample], list[Sample]]:
    """(fitting part, held-out part): a seeded shuffle, the last 20% held out.

    The shuffle uses only `random.Random.random()`, whose sequence Python guarantees across
    versions, so the split is the same on every machine.
    """
    rng = random.Random(seed)
    order = list(range(len(samples)))
    for i in range(len(order) - 1, 0, -1):
        j = int(rng.random() * (i + 1))
        order[i], order[j] = order[j], order[i]
    cut = len(order) - round(len(order) * HELD_OUT_SHARE)
    return [samples[i] for i in order[:cut]], [samples[i] for i in order[cut:]]


def ranks(values: Sequence[float]) -> list[float]:
    """Ranks from 0, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            out[order[k]] = (start + end) / 2
        start = end + 1
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rho: the Pearson correlation of the ranks."""
    rx, ry = ranks(xs), ranks(ys)
    n = len(rx)
    mx, my = sum(rx) / n, sum(ry) / n
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else 0.0


def rho(
    samples: Sequence[Sample],
    solution_weights: Sequence[float],
    card_weights: Sequence[float],
) -> float:
    """Spearman's rho between the model's scores and the human times."""
    scores = [
        difficulty.combine(s.solutions, s.card, solution_weights, card_weights) for s in samples
    ]
    return spearman(scores, [s.seconds for s in samples])


def fit(samples: Sequence[Sample]) -> tuple[tuple[float, ...], tuple[float, ...], float]:
    """Coordinate ascent on rho from all-ones solution weights and zero card weights."""
    weights = [1.0] * len(difficulty.SOLUTION_FEATURES)
    card = [0.0] * len(difficulty.CARD_FEATURES)
    best = rho(samples, weights, card)
    for _ in range(ROUNDS):
        for step in STEP_LADDER:
            for vector in (weights, card):
                for i in range(len(vector)):
                    for delta in (step, -step):
                        vector[i] += delta
                        value = rho(samples, weights, card)
                        if value > best:
                            best = value
                        else:
                            vector[i] -= delta
    return tuple(round(w, 6) for w in weights), tuple(round(w, 6) for w in card), best


def held_out_spearman(samples: Sequence[Sample] | None = None) -> float:
    """rho of the shipped constants on the held-out 20%."""
    _, held_out = split(samples if samples is not None else load())
    return rho(held_out, difficulty.SOLUTION_WEIGHTS, difficulty.CARD_WEIGHTS)


def other_splits(
    samples: Sequence[Sample], seeds: Sequence[int] = (1, 2, 3, 4, 5)
) -> list[tuple[int, float]]:
    """(seed, held-out rho) of a fresh fit on each of some other 80/20 splits: how much the
    figure depends on the one split we ship (robustness, not a choice of split)."""
    out = []
    for seed in seeds:
        fitting, held_out = split(samples, seed)
        weights, card, _ = fit(fitting)
        out.append((seed, rho(held_out, weights, card)))
    return out


def classic_cards() -> list[tuple[int, ...]]:
    """The 1,362 solvable cards of 1..13."""
    return [c for c in combinations_with_replacement(range(1, 14), 4) if solvable(c)]


def dot_thresholds() -> tuple[float, float]:
    """The 25th and 75th percentiles of `score` over the solvable cards of 1..13."""
    scores = sorted(difficulty.score(c) for c in classic_cards())
    return scores[len(scores) // 4], scores[(3 * len(scores)) // 4]


def main(argv: list[str]) -> int:
    """Print the constants and figures (see the module docstring)."""
    samples = load(Path(argv[0]) if argv else DEFAULT_CSV)
    fitting, held_out = split(samples)
    weights, card, fitted_rho = fit(fitting)
    print(f"SOLUTION_WEIGHTS = {weights}")
    print(f"CARD_WEIGHTS = {card}")
    print(f"fit rho ({len(fitting)} cards) = {fitted_rho:.4f}")
    print(f"held-out rho ({len(held_out)} cards) = {rho(held_out, weights, card):.4f}")
    for seed, value in other_splits(samples):
        print(f"other split, seed {seed}: held-out rho = {value:.4f}")
    difficulty.SOLUTION_WEIGHTS, difficulty.CARD_WEIGHTS = weights, card
    print(f"DOT_THRESHOLDS = {dot_thresholds()}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
