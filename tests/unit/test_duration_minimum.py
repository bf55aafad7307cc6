"""Every game's durations: a new table's are at least `base.MIN_SECONDS` (issue 33, item 4),
checked by the game's `check_new_table` alone, so a recorded table still reads back; and the
24 Challenge's settings are checked in one place for a table and for the tournament that
passes them on (`challenge.options.check_settings`)."""

from __future__ import annotations

import pytest

from server.games import challenge, pocket, tjugoett
from server.games.base import MIN_SECONDS, RuleViolation, seconds_us, short_duration
from server.games.challenge.options import DURATIONS, check_settings, table_options

SEATS = [{"seat": "a", "name": "A"}, {"seat": "b", "name": "B"}, {"seat": "c", "name": "C"}]
DECK = [{"card_id": 1, "numbers": [1, 2, 3, 4], "dots": 1}]


def challenge_options(**more):
    return {"seats": SEATS, "deck": DECK, **more}


@pytest.mark.parametrize("name", DURATIONS)
def test_a_new_challenge_table_refuses_each_duration_under_the_minimum(name):
    raw = challenge_options(**{name: 0.04})
    assert table_options(raw)  # it reads (a recorded table with it still loads)
    with pytest.raises(RuleViolation, match=f"'{name}': at least 0.05 seconds, not 0.04") as e:
        challenge.check_new_table(raw)
    assert e.value.code == "bad_options"
    challenge.check_new_table(challenge_options(**{name: MIN_SECONDS}))  # the minimum is fine


def test_a_casual_challenge_table_gets_the_minimum_too():
    with pytest.raises(RuleViolation, match="pattern_seconds"):
        challenge.check_new_table(challenge_options(pattern_seconds=1e-7, casual=True))


@pytest.mark.parametrize(
    ("game", "raw", "code"),
    [
        (pocket, {"answer_seconds": 0.02}, "invalid_options"),
        (pocket, {"stumped_seconds": 0.02}, "invalid_options"),
        (tjugoett, {"seed": "a-long-seed", "dealer_seconds": 0.02}, "bad_options"),
        (tjugoett, {"seed": "a-long-seed", "turn_seconds": 0.02}, "bad_options"),
        (tjugoett, {"seed": "a-long-seed", "next_round_seconds": 0.02}, "bad_options"),
    ],
)
def test_the_casual_games_refuse_a_new_timer_under_the_minimum(game, raw, code):
    options = {"seats": SEATS, **raw}
    game.initial_state(options)  # reads back
    with pytest.raises(RuleViolation) as refused:
        game.check_new_table(options)
    assert refused.value.code == code and "at least 0.05 seconds" in refused.value.message
    game.check_new_table({**options, **dict.fromkeys(raw.keys() - {"seed"}, MIN_SECONDS)})


def test_seconds_are_read_in_one_place():
    assert seconds_us(0.05) == 50_000 and seconds_us(3600) == 3_600_000_000
    assert seconds_us(1e-7) == 0  # reads (a recorded table), refused for a new one below
    for bad in (0, -1, 3600.5, float("nan"), True, "3", None):
        assert seconds_us(bad) is None
    assert short_duration({"x": 1e-7}, ["x"]) == "option 'x': at least 0.05 seconds, not 1e-07"
    assert short_duration({"x": None, "y": "bad"}, ["x", "y", "z"]) is None


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"pattern_seconds": -1}, "'pattern_seconds': seconds in (0, 3600]"),
        ({"solution_seconds": "15"}, "'solution_seconds': seconds in"),
        ({"no_touch_seconds": 1e-7}, "'no_touch_seconds': at least 0.05 seconds"),
        ({"auto_proctor": 0}, "'auto_proctor': seconds in"),
        ({"auto_reveal_seconds": 0.01}, "'auto_reveal_seconds': at least"),
        ({"mode": "telepathic"}, "'mode': one of networked, proctored"),
        ({"stumped_cards": "burn"}, "'stumped_cards': one of replay_at_end, set_aside"),
    ],
)
def test_the_settings_alone_get_the_checks_of_a_new_table(settings, named):
    with pytest.raises(RuleViolation, match=named.replace("(", r"\(").replace("]", r"\]")):
        check_settings(settings)
    with pytest.raises(RuleViolation, match=named.replace("(", r"\(").replace("]", r"\]")):
        challenge.check_new_table(challenge_options(**settings))


def test_good_settings_pass():
    check_settings({})
    check_settings({"pattern_seconds": 2, "auto_proctor": None, "mode": "proctored"})


def test_the_fast_simulation_sets_timers_a_new_tournament_takes():
    """`t24 tournament simulate --fast` scales the timers 50 times down, never under the
    minimum (its own copy of it: a client imports no server module)."""
    from clients.reference_cli import tournament_sim
    from server import tournament

    assert tournament_sim.MIN_SECONDS == MIN_SECONDS
    timers = tournament_sim.table_timers(fast=True)
    assert min(v for v in timers.values() if isinstance(v, float)) == MIN_SECONDS
    options = {"name": "S", "date": "2026-03-14", "grades": ["4th"], "deck_seed": 1}
    tournament.check_new_table({**options, "table_options": timers})
