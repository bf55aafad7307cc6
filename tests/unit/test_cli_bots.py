"""What the bots of `t24 bot` plan (clients/reference_cli/games/challenge/bot.py), judged by
the real checker."""

from __future__ import annotations

import math
import random

import pytest

from clients.reference_cli.games.challenge import bot as bots
from clients.reference_cli.games.challenge.bot import Situation, Timings, plan
from server.puzzles import calibration, difficulty
from server.puzzles.expressions import check_solution

EASY, HARD = [1, 2, 3, 4], [3, 3, 8, 8]


def view(numbers, phase="revealed", toucher=None, **more):
    seats = [
        {"seat": s, "name": "", "score": 0, "flags": 0, "disqualified": s == "s4", "cards_won": []}
        for s in ("s1", "s2", "s3", "s4")
    ]
    card = {"play": 1, "numbers": numbers, "dots": 2, "revealed_at": 1}
    return {
        "phase": phase,
        "card": card,
        "toucher": toucher,
        "pattern": None,
        "touches": [],
        "stumped_declared": [],
        "seats": seats,
        "paused": False,
        **more,
    }


DEFAULT_TIMINGS = Timings()


def situation(numbers, me="s1", timings=DEFAULT_TIMINGS, **more):
    return Situation(view(numbers, **more), me, timings)


def test_the_human_model_constants_are_the_fit_of_the_calibration_data():
    data = calibration.DEFAULT_CSV  # one file for both fits: fit_human_model's default
    assert data.is_file(), f"calibration data missing: {data} (see its README.md)"
    fitted = bots.fit_human_model()
    shipped = (
        bots.HUMAN_TIME_A,
        bots.HUMAN_TIME_B,
        bots.HUMAN_TIME_SD,
        bots.HUMAN_FAIL_A,
        bots.HUMAN_FAIL_B,
    )
    assert fitted == pytest.approx(shipped, abs=2e-3)
    # Harder cards take people longer and fail more often.
    assert bots.HUMAN_TIME_B > 0 and bots.HUMAN_FAIL_B > 0
    easy, hard = difficulty.score(EASY), difficulty.score(HARD)
    assert bots.human_fails(hard) > bots.human_fails(easy)
    median = [
        sorted(bots.human_seconds(s, random.Random(i)) for i in range(301))[150]
        for s in (easy, hard)
    ]
    assert median[0] < median[1]
    assert median[0] == pytest.approx(math.exp(bots.HUMAN_TIME_A + bots.HUMAN_TIME_B * easy), 0.15)


def test_the_perfect_bot_touches_at_once_and_answers_right():
    actions = plan(situation(HARD), "perfect", random.Random(1))
    assert [(a.name, a.args) for a in actions] == [("touch_card", {"fingertips": 1})]
    assert actions[0].delay == bots.PERFECT_REACTION
    answer = plan(situation(HARD, phase="solving", toucher="s1"), "perfect", random.Random(1))
    assert [a.name for a in answer] == ["declare_pattern", "state_steps", "fix_solution"]
    pattern, steps = answer[0].args["pattern"], answer[2].args["steps"]
    assert check_solution(HARD, pattern, steps).ok  # R-PUZ-2, R-PUZ-3
    assert [a.delay for a in answer] == sorted(a.delay for a in answer)
    # Pattern already declared (a resume after a pause): only steps and fix.
    resumed = plan(
        situation(HARD, phase="solving", toucher="s1", pattern=pattern), "perfect", random.Random(1)
    )
    assert [a.name for a in resumed] == ["state_steps", "fix_solution"]


def test_wrong_steps_are_judged_wrong():
    pattern, steps = bots.best_answer(EASY)
    assert check_solution(EASY, pattern, steps).ok
    assert not check_solution(EASY, pattern, bots.wrong_steps(steps)).ok
    assert bots.wrong_steps(["24"])[0] == "1 + 1"
    assert bots.best_answer([1, 1, 1, 1]) is None


def test_the_human_bot_touches_when_found_and_is_stumped_when_it_would_take_too_long():
    touches = [plan(situation(EASY), "human", random.Random(seed)) for seed in range(40)]
    assert all(len(a) == 1 for a in touches)
    names = {a[0].name for a in touches}
    assert "touch_card" in names
    short = Timings(no_touch_us=2_000_000)
    gives_up = plan(situation(HARD, timings=short), "human", random.Random(3))
    assert [a.name for a in gives_up] == ["declare_stumped"]  # R-PLAY-7
    assert gives_up[0].delay == pytest.approx(1.6)
    unsolvable = plan(situation([1, 1, 1, 1]), "human", random.Random(3))
    assert [a.name for a in unsolvable] == ["declare_stumped"]
    assert plan(situation([1, 1, 1, 1]), "perfect", random.Random(3))[0].name == "declare_stumped"


def test_the_human_bot_errs_about_as_often_as_people_fail_the_card():
    rate = bots.human_fails(difficulty.score(HARD))
    outcomes = []
    for seed in range(400):
        actions = plan(situation(HARD, phase="solving", toucher="s1"), "human", random.Random(seed))
        if not actions:
            outcomes.append("froze")
            continue
        assert actions[0].delay <= 0.7 * 3  # the pattern comes within R-PLAY-4's 3 s
        assert actions[-1].delay <= 0.8 * 15  # the fix within R-PLAY-5's 15 s
        ok = check_solution(HARD, actions[0].args["pattern"], actions[-1].args["steps"]).ok
        outcomes.append("right" if ok else "wrong")
    errs = (outcomes.count("froze") + outcomes.count("wrong")) / len(outcomes)
    assert abs(errs - rate) < 0.06
    assert outcomes.count("froze") and outcomes.count("wrong")


def test_the_random_bot_draws_flags():
    plans = [plan(situation(EASY), "random", random.Random(seed)) for seed in range(60)]
    fingers = {a[0].args.get("fingertips") for a in plans if a[0].name == "touch_card"}
    assert fingers == {1, 2, 3, 4, 5}
    assert any(a[0].name == "declare_stumped" for a in plans)
    answer = plan(situation(EASY, phase="solving", toucher="s1"), "random", random.Random(2))
    assert [a.name for a in answer] == ["declare_pattern", "state_steps", "fix_solution"]


@pytest.mark.parametrize(
    ("me", "more"),
    [
        ("s4", {}),  # disqualified (R-FLAG-4)
        ("s9", {}),  # not at the table
        ("s1", {"paused": True}),
        ("s1", {"touches": ["s1"]}),  # already touched this card
        ("s1", {"stumped_declared": ["s1"]}),
        ("s1", {"phase": "solving", "toucher": "s2"}),  # someone else holds it
        ("s1", {"phase": "placed"}),  # never touch before the reveal (R-PLAY-3)
    ],
)
def test_when_a_bot_waits(me, more):
    assert plan(situation(EASY, me=me, **more), "perfect", random.Random(1)) == []


def test_time_scale_speeds_thinking_but_never_breaks_the_windows():
    slow = plan(situation(EASY, phase="solving", toucher="s1"), "perfect", random.Random(1), 100)
    assert slow[0].delay == pytest.approx(0.7 * 3) and slow[-1].delay == pytest.approx(0.8 * 15)
    fast = plan(situation(EASY), "perfect", random.Random(1), 0.1)
    assert fast[0].delay == pytest.approx(0.02)
    key = situation(EASY).key()
    assert key == ("revealed", 1, None, False)


def test_the_bot_leaves_a_variables_card_alone_R_DECK_2():
    """A Variables side (Q1: x and three steps for each wheel) is not this bot's: it neither
    touches it nor answers it with a six-number solution the table would refuse."""
    for skill in ("perfect", "human", "random"):
        wheels = {"play": 1, "numbers": [6, 6, 2, 20, 22, 24], "wheels": [[6, 6, 2], [20, 22, 24]]}
        revealed = Situation(view([6, 6, 2, 20, 22, 24]) | {"card": wheels}, "s1", DEFAULT_TIMINGS)
        assert plan(revealed, skill, random.Random(1)) == []
        held = view([6, 6, 2, 20, 22, 24], phase="solving", toucher="s1") | {"card": wheels}
        assert plan(Situation(held, "s1", DEFAULT_TIMINGS), skill, random.Random(1)) == []
