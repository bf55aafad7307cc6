"""What each viewer sees of a pocket table (server/games/pocket/view.py), whole: the snapshot
a player reads mid-game and at the end, and what only the officials see (R-POCKET-1: the
stack is face down). Issue 20: whole views, so a field dropped or renamed is noticed."""

from __future__ import annotations

from casual_tables import (
    AUDITOR,
    DIRECTOR,
    POCKET_ANSWERS,
    POCKET_WRONG,
    PROCTOR,
    SPECTATOR,
    T0,
    S,
    Table,
    player,
    pocket_options,
)

from server.games import pocket
from server.games.base import SERVER_ACTOR

SEATS = [{"seat": f"s{i}", "name": f"Player {i}"} for i in (1, 2, 3)]
OPTIONS = {
    "answer_seconds": 15.0,
    "dots": [1, 2, 3],
    "edition": "single-digits",
    "seats": SEATS,
    "size": 24,
    "stumped_seconds": None,
}


def second_card_in_play() -> Table:
    """Given: s1 won p1 (1 dot); on p2, s3 declared stumped and s2 answered wrong (out)."""
    table = Table.started(pocket, pocket_options(3, ["p1", "p2", "p3"]))
    table.advance(1)
    table.do("claim", player("s1"))
    table.do("answer", player("s1"), expression=POCKET_ANSWERS["p1"][2])
    table.advance(1)
    table.do("declare_stumped", player("s3"))
    table.do("claim", player("s2"))
    table.do("answer", player("s2"), expression=POCKET_WRONG)
    return table


def test_a_player_sees_the_table_but_not_the_stack():
    table = second_card_in_play()
    assert pocket.view(table.state, player("s2")) == {
        "game": "pocket",
        "phase": "open",
        "paused": False,
        "pause_cause": None,
        "options": OPTIONS,
        "seats": [
            {"seat": "s1", "name": "Player 1", "score": 1, "cards_won": ["p1"]},
            {"seat": "s2", "name": "Player 2", "score": 0, "cards_won": []},
            {"seat": "s3", "name": "Player 3", "score": 0, "cards_won": []},
        ],
        "scores": {"s1": 1, "s2": 0, "s3": 0},
        "card": {
            "card_id": "p2",
            "numbers": [3, 3, 8, 8],
            "dots": 3,
            "number": 2,
            "claimer": None,
            "claim_at": None,
            "excluded": ["s2"],
            "stumped": ["s3"],
        },
        "bonus": [],
        "stack_left": 1,
        "turned": 2,
        "deadlines": [],
        "result": None,
        "clock": T0 + 2 * S,
        "you": "s2",
    }


def test_a_claim_shows_its_claimer_time_and_deadline():
    table = Table.started(pocket, pocket_options(3, ["p1", "p2"]))
    table.advance(2)
    table.do("claim", player("s1"))
    shown = pocket.view(table.state, SPECTATOR)
    assert "you" not in shown and "stack" not in shown
    assert shown["card"]["claimer"] == "s1" and shown["card"]["claim_at"] == T0 + 2 * S
    key = f"answer:1:{T0 + 2 * S}"
    assert shown["deadlines"] == [{"key": key, "command": "answer_deadline", "at": T0 + 17 * S}]


def test_only_the_officials_see_the_stack_and_the_unplayed_cards():
    table = second_card_in_play()
    for official in (PROCTOR, DIRECTOR, AUDITOR, SERVER_ACTOR):
        assert pocket.view(table.state, official)["stack"] == [
            {"card_id": "p3", "numbers": [2, 2, 2, 3], "dots": 2}
        ]
    table.do("end_game", PROCTOR)
    ended = {
        "at": T0 + 2 * S,
        "reason": "ended_by_director",
        "scores": {"s1": 1, "s2": 0, "s3": 0},
        "winners": ["s1"],
        "tie": False,
        "unclaimed_bonus": [],
        "rule": "R-POCKET-5",
    }
    assert pocket.view(table.state, player("s1"))["result"] == {**ended, "unplayed": 2}
    assert pocket.view(table.state, PROCTOR)["result"] == {**ended, "unplayed": ["p2", "p3"]}
    assert pocket.view(table.state, PROCTOR)["phase"] == "ended"
