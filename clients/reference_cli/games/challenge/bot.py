"""What a bot does at a 24 Challenge table, as a plan of timed commands (pure; no I/O).

Three skills:
- `perfect`: touches a revealed card after a short reaction, declares the pattern of the
  simplest solution the solver finds and fixes it at once (R-PLAY-2, R-PLAY-4, R-PLAY-5).
- `human`: takes as long as people do. Its time to find a solution is drawn from a
  log-normal law whose median grows with the card's difficulty score
  (`server.puzzles.difficulty.score`): `log(seconds) = HUMAN_TIME_A + HUMAN_TIME_B * score`,
  spread `HUMAN_TIME_SD`, fitted by least squares on the calibration data
  (server/puzzles/data/4nums-difficulty-train.csv, `server.puzzles.calibration.csv_rows`)
  (`fit_human_model` redoes it; a unit test checks these constants). It errs as often as
  people fail the card there (`HUMAN_FAIL_A/B`, on the log-odds of the failure rate): then it
  fixes a wrong solution (a penalty flag, R-FLAG-1) or freezes and lets the 3 s pass
  (R-PLAY-4). When it would need longer than the no-touch window, it declares stumped
  (R-PLAY-7).
- `random`: touches at a random moment with 1 to 5 fingertips, says a random pattern and
  random steps, or gives up: the flags and disqualifications of R-FLAG, on purpose.

`plan(situation)` returns `Action`s with delays in seconds from now; the driver
(bot_commands.py) cancels the plan whenever the situation (phase, card play, toucher,
paused) changes and asks again. `time_scale` multiplies every delay (tests run bots fast).
The bot reads the card's numbers from the table view, never from anything hidden, and the
lengths of its windows from the live deadlines the server pushes (`Timings.from_deadlines`),
never from a copy of the rules.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clients.reference_cli.games.challenge.phases import REVEALED, SECOND, SOLVING
from clients.reference_cli.words import COMMON, decimal

SKILLS = ("perfect", "human", "random")
# log(seconds to solve) = A + B * difficulty score; residual spread SD (natural log units).
HUMAN_TIME_A = 0.7659
HUMAN_TIME_B = 0.07682
HUMAN_TIME_SD = 0.4511
# log-odds of failing the card = A + B * difficulty score.
HUMAN_FAIL_A = -5.3079
HUMAN_FAIL_B = 0.1581
PERFECT_REACTION = 0.2  # seconds before each of the perfect bot's moves
OPERATORS = ("+", "-", "*", "/")


@dataclass(frozen=True)
class Timings:
    """How long the bot has: the no-touch, pattern and solution windows (R-PLAY-7, R-PLAY-4,
    R-PLAY-5) in microseconds; the rule defaults until the server's deadlines say more."""

    pattern_us: int = 3 * SECOND
    solution_us: int = 15 * SECOND
    no_touch_us: int = 15 * SECOND

    @classmethod
    def from_deadlines(cls, deadlines: Sequence[Mapping[str, Any]], now_us: int) -> Timings:
        """The time left in each live window, from the pushed deadlines (absolute server
        times) and the server's clock now; a window that is not live keeps its default."""
        left = {d.get("command"): d.get("at", 0) - now_us for d in deadlines}
        default = cls()
        return cls(
            pattern_us=left.get("pattern_deadline", default.pattern_us),
            solution_us=left.get("solution_deadline", default.solution_us),
            no_touch_us=left.get("no_touch_deadline", default.no_touch_us),
        )


@dataclass(frozen=True)
class Action:
    """Send `name` with `args` after `delay` seconds (from when the plan was made)."""

    delay: float
    name: str
    args: Mapping[str, Any]
    why: str = ""


@dataclass(frozen=True)
class Situation:
    """What the bot plans from: the view, its seat, the table's timings."""

    view: Mapping[str, Any]
    me: str
    timings: Timings

    def key(self) -> tuple:
        """The plan is redone when this changes."""
        card = self.view.get("card") or {}
        return (
            self.view.get("phase"),
            card.get("play"),
            self.view.get("toucher"),
            bool(self.view.get("paused")),
        )


def fit_human_model(path: Path | None = None) -> tuple[float, float, float, float, float]:
    """(time A, time B, time SD, fail A, fail B) by least squares on the calibration data:
    the difficulty model's file (`calibration.DEFAULT_CSV`) unless `path` names another.

    Why least squares on logs: solve times are skewed (a log-normal law fits them), and the
    failure rate is a probability (its log-odds is what grows linearly with the score).
    """
    from server.puzzles import calibration, difficulty

    xs, times, fails = [], [], []
    for row in calibration.csv_rows(path if path is not None else calibration.DEFAULT_CSV):
        xs.append(difficulty.score([int(n) for n in row["Puzzles"].split()]))
        times.append(math.log(float(row["AMT (s)"])))
        rate = float(row["Solved rate"].rstrip("%")) / 100
        rate = min(max(rate, 1e-3), 1 - 1e-3)
        fails.append(math.log((1 - rate) / rate))
    mean_x = sum(xs) / len(xs)
    spread = sum((x - mean_x) ** 2 for x in xs)

    def line(ys: list[float]) -> tuple[float, float]:
        mean_y = sum(ys) / len(ys)
        slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / spread
        return mean_y - slope * mean_x, slope

    time_a, time_b = line(times)
    residuals = [y - (time_a + time_b * x) for x, y in zip(xs, times, strict=True)]
    time_sd = math.sqrt(sum(r * r for r in residuals) / len(residuals))
    fail_a, fail_b = line(fails)
    return time_a, time_b, time_sd, fail_a, fail_b


def human_seconds(score: float, rng: random.Random) -> float:
    """A human's time to find a solution of a card with this difficulty score."""
    median = math.exp(HUMAN_TIME_A + HUMAN_TIME_B * score)
    return median * math.exp(rng.gauss(0.0, HUMAN_TIME_SD))


def human_fails(score: float) -> float:
    """The probability that a human gets this card wrong."""
    return 1.0 / (1.0 + math.exp(-(HUMAN_FAIL_A + HUMAN_FAIL_B * score)))


def best_answer(numbers: Sequence[int]) -> tuple[str, list[str]] | None:
    """(pattern, three steps) of the simplest solution, in ASCII; None when unsolvable."""
    from server.puzzles.solver import solve

    solutions = solve(list(numbers))
    if not solutions:
        return None
    steps = list(solutions[0].ascii_steps)
    return steps[-1].split("=")[0].strip(), steps


def wrong_steps(steps: Sequence[str]) -> list[str]:
    """The same steps with the first operator changed: an incorrect solution (R-PLAY-5)."""
    first = steps[0]
    for op in OPERATORS:
        if f" {op} " in first:
            other = OPERATORS[(OPERATORS.index(op) + 1) % len(OPERATORS)]
            return [first.replace(f" {op} ", f" {other} ", 1).split("=")[0].strip(), *steps[1:]]
    return ["1 + 1", *steps[1:]]


def _card_numbers(view: Mapping[str, Any]) -> list[int] | None:
    """The revealed card's four numbers; None for none, and for a Variables side (its
    `wheels`, R-DECK-2): this bot answers four-number cards only and leaves a Variables card
    to the others (`t24 tournament simulate`'s bots answer both)."""
    card = view.get("card") or {}
    numbers = card.get("numbers")
    return list(numbers) if numbers and not card.get("wheels") else None


def _why(reason: str) -> str:
    """Why the bot makes a move, in words (`t24 bot` prints it beside the move)."""
    return COMMON.say(f"bot.why.{reason}")


def _answer_plan(
    answer: tuple[str, list[str]], view: Mapping[str, Any], timings: Timings, pace: list[float]
) -> list[Action]:
    """Pattern (unless already declared), steps, fix, at the cumulative delays in `pace`."""
    pattern, steps = answer
    actions, delay = [], 0.0
    if view.get("pattern") is None:
        delay += pace[0]
        actions.append(Action(delay, "declare_pattern", {"pattern": pattern}, _why("pattern")))
    delay += pace[1]
    actions.append(Action(delay, "state_steps", {"steps": steps}, _why("steps")))
    delay += pace[2]
    actions.append(Action(delay, "fix_solution", {"steps": steps}, _why("fix")))
    return actions


def plan(
    situation: Situation, skill: str, rng: random.Random, time_scale: float = 1.0
) -> list[Action]:
    """The bot's next moves in this situation (empty: wait for the table to change)."""
    view, me, timings = situation.view, situation.me, situation.timings
    seat = next((s for s in view.get("seats", []) if s["seat"] == me), None)
    if seat is None or seat.get("disqualified") or view.get("paused"):
        return []
    numbers = _card_numbers(view)
    phase = view.get("phase")
    if phase == REVEALED and numbers and me not in view.get("touches", []):
        if me in view.get("stumped_declared", []):
            return []
        actions = _touch_plan(numbers, skill, rng, timings)
    elif phase == SOLVING and view.get("toucher") == me and numbers:
        actions = _solve_plan(numbers, view, skill, rng, timings)
    else:
        return []
    return [_scaled(action, time_scale, timings) for action in actions]


def _scaled(action: Action, time_scale: float, timings: Timings) -> Action:
    """Scale a delay, but never past the answer windows (R-PLAY-4 3 s, R-PLAY-5 15 s)."""
    delay = action.delay * time_scale
    if action.name == "declare_pattern":
        delay = min(delay, 0.7 * timings.pattern_us / 1e6)
    elif action.name in ("state_steps", "fix_solution"):
        delay = min(delay, 0.8 * timings.solution_us / 1e6)
    return Action(delay, action.name, action.args, action.why)


def _touch_plan(numbers: list[int], skill: str, rng: random.Random, timings: Timings):
    window = timings.no_touch_us / 1_000_000
    if skill == "perfect":
        if best_answer(numbers) is None:
            return [Action(PERFECT_REACTION, "declare_stumped", {}, _why("no_solution"))]
        return [Action(PERFECT_REACTION, "touch_card", {"fingertips": 1}, _why("solved"))]
    if skill == "human":
        from server.puzzles import difficulty

        score = difficulty.score(numbers)
        if math.isinf(score):
            return [Action(0.6 * window, "declare_stumped", {}, _why("no_solution"))]
        seconds = human_seconds(score, rng)
        if seconds >= 0.9 * window:
            return [Action(0.8 * window, "declare_stumped", {}, _why("cannot_find"))]
        found = COMMON.say("bot.why.found", seconds=decimal(seconds))
        return [Action(seconds, "touch_card", {"fingertips": 1}, found)]
    if rng.random() < 0.25:
        return [Action(rng.uniform(0, 0.8 * window), "declare_stumped", {}, _why("random"))]
    fingertips = rng.choice([1, 1, 2, 3, 4, 5])
    return [
        Action(
            rng.uniform(0, 0.8 * window), "touch_card", {"fingertips": fingertips}, _why("random")
        )
    ]


def _solve_plan(
    numbers: list[int],
    view: Mapping[str, Any],
    skill: str,
    rng: random.Random,
    timings: Timings,
) -> list[Action]:
    pattern_s, solution_s = timings.pattern_us / 1e6, timings.solution_us / 1e6
    if skill == "random":
        a, b = rng.sample(numbers, 2)
        steps = [
            f"{rng.choice(numbers)} {rng.choice(OPERATORS)} {rng.choice(numbers)}" for _ in range(3)
        ]
        pace = [rng.uniform(0, pattern_s), rng.uniform(0, 1), rng.uniform(0, 1)]
        return _answer_plan((f"{a} {rng.choice(OPERATORS)} {b}", steps), view, timings, pace)
    answer = best_answer(numbers)
    if answer is None:
        return []  # no pattern: the R-PLAY-4 deadline flags it
    if skill == "perfect":
        return _answer_plan(answer, view, timings, [PERFECT_REACTION / 2] * 3)
    from server.puzzles import difficulty

    pace = [min(rng.uniform(0.4, 1.2), 0.6 * pattern_s)]
    pace += [min(rng.uniform(0.8, 2.0), 0.35 * (solution_s - pace[0]))] * 2
    if rng.random() < human_fails(difficulty.score(numbers)):
        if rng.random() < 0.3:
            return []  # freezes: no pattern within the window (R-PLAY-4)
        answer = (answer[0], wrong_steps(answer[1]))
    return _answer_plan(answer, view, timings, pace)
