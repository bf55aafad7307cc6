"""The tournament core's functions the shell calls beside `decide` (server/tournament/decks.py,
options.py, state.py), exactly: the decks a tournament's node draws ahead, a new tournament's
creation checks (docs/tournament.md), and a table the shell could not create
(`TableCreationFailed`, read back by the state)."""

from __future__ import annotations

import pytest
from tournament_support import T0, tournament_options

import server.tournament as tournament
from server.games.base import Event, RuleViolation
from server.puzzles.round_decks import RoundPlan
from server.tournament.decks import draws_ahead, plan_of, round_cards, tie_break_cards
from server.tournament.options import check_new_tournament
from server.tournament.options import tournament_options as read_options


def test_the_official_rules_draw_one_editions_halves_and_the_next_tie_breaks_R_DECK_5():
    options = read_options(tournament_options())
    assert draws_ahead(options, 0) == [
        ("single-digits", 24, 1),
        ("single-digits", 24, 2),
        ("single-digits", 1_000_027, 1),  # tie-break 1's fresh deck: 24 + 1 x 1,000,003
        ("single-digits", 1_000_027, 2),
    ]
    assert draws_ahead(options, 2)[2:] == [
        ("single-digits", 3_000_033, 1),
        ("single-digits", 3_000_033, 2),
    ]


def test_the_double_digits_edition_and_the_guidelines_draw_their_own_decks_R_DECK_5():
    double = read_options(tournament_options(edition="double-digits"))
    assert draws_ahead(double, 0) == [
        ("double-digits", 24, 1),
        ("double-digits", 24, 2),
        ("double-digits", 1_000_027, 1),
        ("double-digits", 1_000_027, 2),
    ]
    guidelines = read_options(tournament_options(rules="guidelines"))
    assert draws_ahead(guidelines, 0) == [
        ("single-digits", 24, 1),
        ("double-digits", 24, 1),
        ("single-digits", 1_000_027, 1),
        ("double-digits", 1_000_027, 1),
    ]


def test_a_double_digits_tournament_plays_that_edition_in_every_round_R_DECK_5():
    options = read_options(tournament_options(edition="double-digits"))
    assert [plan_of(options, number) for number in (1, 2, 3, 4)] == [
        RoundPlan("double-digits", 1, "red"),
        RoundPlan("double-digits", 1, "white"),
        RoundPlan("double-digits", 2, "red"),
        RoundPlan("double-digits", 2, "white"),
    ]


@pytest.mark.parametrize("round_number", [1, 2, 3, 4])
def test_a_double_digits_tournaments_tie_break_plays_a_fresh_double_digits_deck_R_ROUND_6(
    round_number,
):
    """ "A fresh deck of the same edition": the broken round's cards (edition, half), drawn
    from the tie-break's own seed, never the Single Digits deck of the default edition."""
    options = read_options(tournament_options(edition="double-digits"))
    fresh = tie_break_cards(options, round_number, 2)
    ids = sorted(card["card_id"] for card in fresh)
    assert ids == sorted(f"TB2-{card['card_id']}" for card in round_cards(options, round_number))
    assert all(card_id.startswith("TB2-DD-") for card_id in ids) and len(ids) == 48


def test_a_new_tournament_with_good_options_passes():
    assert check_new_tournament(tournament_options()) is None


@pytest.mark.parametrize(
    ("more", "message"),
    [
        ({"date": "2026-02-30"}, "option 'date': a real date YYYY-MM-DD, not '2026-02-30'"),
        ({"date": "2026-13-01"}, "option 'date': a real date YYYY-MM-DD, not '2026-13-01'"),
        (
            {"table_options": {"mode": "casual"}},
            "option 'table_options': option 'mode': one of networked, proctored, not 'casual'",
        ),
        (
            {"table_options": {"pattern_seconds": 0.01}},
            "option 'table_options': option 'pattern_seconds': at least 0.05 seconds, not 0.01",
        ),
    ],
)
def test_a_new_tournament_on_no_real_day_or_with_table_options_no_table_takes_is_refused(
    more, message
):
    with pytest.raises(RuleViolation) as caught:
        check_new_tournament(tournament_options(**more))
    assert (caught.value.code, caught.value.message, caught.value.rule) == (
        "bad_options",
        message,
        "",
    )


def test_a_table_the_shell_could_not_create_is_kept_with_its_reason():
    state = tournament.initial_state(tournament_options())
    failed = {"table": "r1.s1.t01", "reason": "the hub refused it", "at": T0}
    state = tournament.evolve(state, Event("TableCreationFailed", failed))
    more = {"table": "r1.s1.t02", "reason": "out of disk", "at": T0 + 1}
    state = tournament.evolve(state, Event("TableCreationFailed", more))
    assert state.not_created == {"r1.s1.t01": "the hub refused it", "r1.s1.t02": "out of disk"}
