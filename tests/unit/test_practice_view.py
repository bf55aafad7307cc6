"""What each viewer sees of a practice table (server/games/practice/view.py): the whole view
after a solved card, a missed one and a card in play, for a player and for an official; the
seed hidden from players and spectators only, in the view, the events and the secrets."""

from __future__ import annotations

import pytest

from server.games.base import NO_SECRETS, SERVER_ACTOR, Actor, Event, Secrets
from server.games.practice import evolve
from server.games.practice.state import PracticeState, initial_state
from server.games.practice.view import (
    event_view,
    redaction_group,
    secrets,
    view,
    view_group,
)

T0 = 1_700_000_000_000_000
S = 1_000_000
ADA = Actor("player", "s1")
SPECTATOR = Actor("spectator", "x")
OFFICIALS = [Actor("proctor", "p"), Actor("director", "d"), Actor("auditor", "a"), SERVER_ACTOR]
OPTIONS = {
    "seats": [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}],
    "cards": 3,
    "touch_seconds": 10,
    "answer_seconds": 20,
    "aim": 50,
    "seed": 20_000,
}
SOLUTION = {"pattern": "3 × 8", "steps": ["1 + 1 = 2", "2 + 1 = 3", "3 × 8 = 24"]}


def dealt(number: int, card_id: str, at: int, rating: dict[str, float]) -> Event:
    data = {
        "seat": "s1",
        "number": number,
        "card_id": card_id,
        "numbers": [int(n) for n in card_id.split()],
        "score": 1.5,
        "card_rating": {"mu": 1400.0, "sigma": 120.0},
        "rating": rating,
        "at": at,
    }
    return Event("CardDealt", data)


def rated(number: int, card_id: str, after: dict[str, float], at: int) -> Event:
    data = {
        "seat": "s1",
        "number": number,
        "card_id": card_id,
        "after": after,
        "card_after": {"mu": 1395.0, "sigma": 100.0},
        "at": at,
    }
    return Event("RatingUpdated", data)


def table() -> PracticeState:
    """Ada solved card 1, missed card 2 (wrong), and holds card 3, touched; Bo has no card."""
    events = [
        dealt(1, "1 1 1 8", T0, {"mu": 1500.0, "sigma": 350.0}),
        Event("CardTouched", {"seat": "s1", "number": 1, "at": T0 + 1 * S}),
        Event("CardSolved", {"seat": "s1", "number": 1, "at": T0 + 3 * S}),
        rated(1, "1 1 1 8", {"mu": 1550.0, "sigma": 100.0}, T0 + 3 * S),
        dealt(2, "1 2 3 4", T0 + 4 * S, {"mu": 1550.0, "sigma": 100.0}),
        Event(
            "CardMissed",
            {
                "seat": "s1",
                "number": 2,
                "reason": "wrong",
                "message": "no",
                "solutions": [SOLUTION],
                "at": T0 + 9 * S,
            },
        ),
        rated(2, "1 2 3 4", {"mu": 1520.0, "sigma": 90.0}, T0 + 9 * S),
        dealt(3, "2 2 2 3", T0 + 10 * S, {"mu": 1520.0, "sigma": 90.0}),
        Event("CardTouched", {"seat": "s1", "number": 3, "at": T0 + 12 * S}),
    ]
    state = initial_state(OPTIONS)
    for event in events:
        state = evolve(state, event)
    return state


SOLVED = {
    "number": 1,
    "card_id": "1 1 1 8",
    "numbers": [1, 1, 1, 8],
    "score": 1.5,
    "card_rating": {"mu": 1400.0, "sigma": 120.0, "provisional": True},
    "rating": {"mu": 1500.0, "sigma": 350.0, "provisional": True},
    "dealt_at": T0,
    "touched_at": T0 + 1 * S,
    "result": "solved",
    "solved": True,
    "after_us": 3 * S,
    "message": "",
    "solutions": [],
    "rating_after": {"mu": 1550.0, "sigma": 100.0, "provisional": False},
    "card_rating_after": {"mu": 1395.0, "sigma": 100.0, "provisional": False},
}
MISSED = {
    "number": 2,
    "card_id": "1 2 3 4",
    "numbers": [1, 2, 3, 4],
    "score": 1.5,
    "card_rating": {"mu": 1400.0, "sigma": 120.0, "provisional": True},
    "rating": {"mu": 1550.0, "sigma": 100.0, "provisional": False},
    "dealt_at": T0 + 4 * S,
    "touched_at": None,
    "result": "wrong",
    "solved": False,
    "after_us": 5 * S,
    "message": "no",
    "solutions": [SOLUTION],
    "rating_after": {"mu": 1520.0, "sigma": 90.0, "provisional": False},
    "card_rating_after": {"mu": 1395.0, "sigma": 100.0, "provisional": False},
}
IN_PLAY = {
    "number": 3,
    "card_id": "2 2 2 3",
    "numbers": [2, 2, 2, 3],
    "score": 1.5,
    "card_rating": {"mu": 1400.0, "sigma": 120.0, "provisional": True},
    "rating": {"mu": 1520.0, "sigma": 90.0, "provisional": False},
    "dealt_at": T0 + 10 * S,
    "touched_at": T0 + 12 * S,
    "result": None,
    "solved": False,
    "after_us": None,
    "message": "",
    "solutions": [],
    "rating_after": None,
    "card_rating_after": None,
}
SEATS = [
    {
        "seat": "s1",
        "name": "Ada",
        "rating": {"mu": 1520.0, "sigma": 90.0, "provisional": False},
        "played": 2,
        "solved": 1,
        "done": False,
        "card": IN_PLAY,
        "last": MISSED,
        "history": [SOLVED, MISSED],
    },
    {
        "seat": "s2",
        "name": "Bo",
        "rating": {"mu": 1500.0, "sigma": 350.0, "provisional": True},
        "played": 0,
        "solved": 0,
        "done": False,
        "card": None,
        "last": None,
        "history": [],
    },
]
PUBLIC_OPTIONS = {
    "seats": [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}],
    "cards": 3,
    "touch_seconds": 10.0,
    "answer_seconds": 20.0,
    "aim": 50,
    "stream": "own",
}


def test_a_player_sees_every_card_rating_and_solution_and_who_they_are_but_no_seed():
    assert view(table(), ADA) == {
        "game": "practice",
        "phase": "practising",
        "paused": False,
        "pause_cause": None,
        "end_reason": None,
        "options": PUBLIC_OPTIONS,
        "seats": SEATS,
        "you": "s1",
    }


def test_a_spectator_sees_the_same_without_you():
    shown = view(table(), SPECTATOR)
    assert "you" not in shown and "seed" not in shown
    assert shown["seats"] == SEATS


@pytest.mark.parametrize("official", OFFICIALS)
def test_an_official_sees_the_seed_too(official):
    shown = view(table(), official)
    assert shown["seed"] == 20_000 and "you" not in shown
    assert shown["seats"] == SEATS and shown["options"] == PUBLIC_OPTIONS


def test_a_paused_then_ended_table_says_so():
    state = evolve(table(), Event("PracticePaused", {"cause": "proctor", "at": T0 + 13 * S}))
    shown = view(state, ADA)
    assert (shown["phase"], shown["paused"], shown["pause_cause"]) == (
        "practising",
        True,
        "proctor",
    )
    state = evolve(state, Event("PracticeEnded", {"reason": "ended", "at": T0 + 14 * S}))
    shown = view(state, ADA)
    assert (shown["phase"], shown["paused"], shown["end_reason"]) == ("ended", False, "ended")


def test_a_seat_that_played_all_its_cards_is_done():
    state = table()
    for event in (
        Event("CardSolved", {"seat": "s1", "number": 3, "at": T0 + 13 * S}),
        rated(3, "2 2 2 3", {"mu": 1530.0, "sigma": 85.0}, T0 + 13 * S),
    ):
        state = evolve(state, event)
    ada = view(state, ADA)["seats"][0]
    assert (ada["played"], ada["solved"], ada["done"], ada["card"]) == (3, 2, True, None)
    assert ada["last"]["number"] == 3 and ada["last"]["after_us"] == 3 * S


def test_players_and_spectators_may_not_learn_a_large_seed():
    state = table()
    assert secrets(state, ADA) == Secrets(frozenset({"seed"}), frozenset({20_000}))
    assert secrets(state, SPECTATOR) == Secrets(frozenset({"seed"}), frozenset({20_000}))
    for official in OFFICIALS:
        assert secrets(state, official) == NO_SECRETS


@pytest.mark.parametrize(("seed", "values"), [(10_000, frozenset()), (10_001, frozenset({10_001}))])
def test_a_small_seed_is_a_secret_key_but_not_a_secret_value(seed, values):
    state = initial_state({**OPTIONS, "seed": seed})
    assert secrets(state, ADA) == Secrets(frozenset({"seed"}), values)


def test_the_groups_players_and_spectators_share_and_officials_share():
    for official in OFFICIALS:
        assert (view_group(official), redaction_group(official)) == ("full", "full")
    for viewer in (ADA, SPECTATOR, Actor("player", "s2")):
        assert view_group(viewer) == "player-or-spectator"
        assert redaction_group(viewer) == "redacted"


def test_table_created_loses_its_seed_for_players_only():
    created = Event("TableCreated", {"game": "practice", "options": OPTIONS, "at": T0})
    seen = event_view(created, ADA)
    assert seen == Event(
        "TableCreated",
        {
            "game": "practice",
            "options": {k: v for k, v in OPTIONS.items() if k != "seed"},
            "at": T0,
        },
    )
    assert OPTIONS["seed"] == 20_000  # the recorded event is not changed
    assert event_view(created, SPECTATOR) == seen
    for official in OFFICIALS:
        assert event_view(created, official) is created


def test_table_created_without_options_or_seed_is_shown_as_recorded():
    bare = Event("TableCreated", {"game": "practice"})
    assert event_view(bare, ADA) == Event("TableCreated", {"game": "practice", "options": {}})
    unseeded = Event("TableCreated", {"options": {"cards": 3}})
    assert event_view(unseeded, ADA) == unseeded


def test_other_events_are_shown_to_everyone_as_they_are():
    event = dealt(1, "1 1 1 8", T0, {"mu": 1500.0, "sigma": 350.0})
    assert event_view(event, ADA) is event
