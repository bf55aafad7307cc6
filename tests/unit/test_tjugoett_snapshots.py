"""Golden snapshots of a Tjugoett table, compared whole, for the viewers that see the most
and the least, and every pushed event as each kind of viewer receives it.

Why whole: `view` and `event_view` are the one place that decides who sees what (R-21-19,
`public_hands`); a field dropped, renamed or shown to the wrong viewer only shows when the
whole snapshot is compared (issue 20). The partial checks are in test_tjugoett_view.py.
"""

from __future__ import annotations

from tjugoett_tables import (
    AUDITOR,
    DEALER,
    DIRECTOR,
    SEED,
    SPECTATOR,
    T0,
    S,
    Table,
    options,
    player,
    stacked,
)

from server.games import tjugoett
from server.games.base import SERVER_ACTOR, Actor, Event

NO_TALLY = {"won": 0, "lost": 0}
PERSON_OPTIONS = {
    "seats": [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}],
    "dealer": {"seat": "dl", "name": "Dora"},
    "dealer_stands_at": 17,
    "dealer_seconds": 1.0,
    "public_hands": "turn_over",
    "turn_seconds": 20.0,
    "next_round_seconds": None,
}


def _dealer_drew_once() -> Table:
    """s1 (9C 8C) stood; the person dealer drew 10S; s2 holds 2D."""
    table = Table.dealt("9C", "2D", "8C", "10S", "5H", person_dealer=True, turn_seconds=20)
    table.do("stand", player("s1"))
    table.do("dealer_draw", DEALER)
    return table


def _snapshot(seats: list[dict], **more: object) -> dict:
    return {
        "game": "tjugoett",
        "phase": "dealer_turn",
        "round": 1,
        "in_round": True,
        "turn": "s1",
        "stood": True,
        "end_reason": None,
        "options": PERSON_OPTIONS,
        "seats": seats,
        "dealer": {"seat": "dl", "name": "Dora", "cards": ["10S"], "sum": 10, "stands_at": None},
        "draw_pile": 48,
        "discard_pile": [],
        "reshuffles": 0,
        "results": [],
        "tally": {"s1": NO_TALLY, "s2": NO_TALLY, "dealer": NO_TALLY},
        "deadlines": [{"key": "dealer_wait:1:s1:1", "command": "dealer_play", "at": T0 + 20 * S}],
        "clock": T0,
        **more,
    }


def _seat(
    seat: str, name: str, cards: list[str] | None, count: int, total: int | None, facing: bool
) -> dict:
    return {
        "seat": seat,
        "name": name,
        "count": count,
        "cards": cards,
        "sum": total,
        "settled": False,
        "facing_dealer": facing,
    }


def test_the_person_dealer_in_its_turn_sees_no_players_card_whole():
    table = _dealer_drew_once()
    assert tjugoett.view(table.state, DEALER) == _snapshot(
        [_seat("s1", "Ada", None, 2, None, True), _seat("s2", "Bo", None, 1, None, False)],
        you="dl",
        your_role="dealer",
        your_commands=["dealer_draw"],
    )


def test_the_director_sees_every_card_and_the_draw_order_whole():
    table = _dealer_drew_once()
    seen = tjugoett.view(table.state, DIRECTOR)
    assert seen == _snapshot(
        [_seat("s1", "Ada", ["9C", "8C"], 2, 17, True), _seat("s2", "Bo", ["2D"], 1, 2, False)],
        you=None,
        your_role="director",
        your_commands=["end_table"],
        draw_order=list(table.state.draw_pile),
    )
    assert seen["draw_order"][:2] == ["5H", "AC"]


def test_a_player_sees_its_own_hand_and_the_server_sees_everything():
    table = _dealer_drew_once()
    mine = tjugoett.view(table.state, player("s2"))
    assert mine == _snapshot(
        [_seat("s1", "Ada", None, 2, None, True), _seat("s2", "Bo", ["2D"], 1, 2, False)],
        you="s2",
        your_role="player",
        your_commands=[],
    )
    assert tjugoett.view(table.state, SERVER_ACTOR)["seats"][0]["cards"] == ["9C", "8C"]
    assert tjugoett.view(table.state, AUDITOR)["your_role"] == "auditor"


def test_the_dealer_with_two_cards_may_also_stand():
    table = _dealer_drew_once()
    table.do("dealer_draw", DEALER)
    assert tjugoett.view(table.state, DEALER)["your_commands"] == ["dealer_draw", "dealer_stand"]


def test_a_spectator_after_a_round_against_the_server_whole():
    table = Table(options(players=1, next_round_seconds=3))
    table.do("start_round", DIRECTOR, order=stacked("KC", "QC", "2S"))  # s1 busts at once
    assert tjugoett.view(table.state, SPECTATOR) == {
        "game": "tjugoett",
        "phase": "between_rounds",
        "round": 1,
        "in_round": False,
        "turn": None,
        "stood": False,
        "end_reason": "all_played",
        "you": None,
        "your_role": "spectator",
        "your_commands": [],
        "options": {
            "seats": [{"seat": "s1", "name": "Ada"}],
            "dealer": "server",
            "dealer_stands_at": 17,
            "dealer_seconds": 1.0,
            "public_hands": "turn_over",
            "turn_seconds": None,
            "next_round_seconds": 3.0,
        },
        "seats": [
            {
                "seat": "s1",
                "name": "Ada",
                "count": 0,
                "cards": [],
                "sum": None,
                "settled": True,
                "facing_dealer": False,
            }
        ],
        "dealer": {"seat": None, "name": "server", "cards": [], "sum": None, "stands_at": 17},
        "draw_pile": 50,
        "discard_pile": ["KC", "QC"],
        "reshuffles": 0,
        "results": [
            {
                "seat": "s1",
                "winner": "dealer",
                "reason": "bust",
                "rule": "R-21-9",
                "player_cards": ["KC", "QC"],
                "player_sum": 25,
                "dealer_cards": [],
                "dealer_sum": None,
            }
        ],
        "tally": {"s1": {"won": 0, "lost": 1}, "dealer": {"won": 1, "lost": 0}},
        "deadlines": [{"key": "round:2", "command": "start_round", "at": T0 + 3 * S}],
        "clock": T0,
    }


def test_a_player_without_a_seat_is_a_spectator_and_a_seated_one_a_player():
    table = Table(options())
    assert tjugoett.view(table.state, player("s9"))["your_role"] == "spectator"
    assert tjugoett.view(table.state, player("s9"))["you"] == "s9"
    assert tjugoett.view(table.state, player("s1"))["your_role"] == "player"


def test_every_pushed_event_as_a_spectator_and_as_the_director_receives_it():
    table = Table.dealt("9C", "2D", "8C", person_dealer=True)
    (stood,) = table.do("stand", player("s1"))
    started, dealt_s1 = table.events[0], table.events[1]
    for viewer in (DIRECTOR, AUDITOR, SERVER_ACTOR, Actor("proctor", "p1")):
        for event in (started, dealt_s1, stood):
            assert tjugoett.event_view(event, viewer) == event
    assert tjugoett.event_view(started, SPECTATOR) == Event(
        "RoundStarted", {"at": T0, "round": 1, "order": 52, "rule": "R-21-3"}
    )
    assert tjugoett.event_view(dealt_s1, SPECTATOR) == Event(
        "CardDealt",
        {
            "at": T0,
            "seat": "s1",
            "card": None,
            "cards": 1,
            "sum": None,
            "public_hands": "turn_over",
            "dealer_seat": "dl",
            "rule": "R-21-4",
        },
    )
    assert tjugoett.event_view(stood, DEALER) == Event(
        "PlayerStood",
        {
            "at": T0,
            "seat": "s1",
            "cards": 2,
            "sum": None,
            "cause": "player",
            "public_hands": "turn_over",
            "dealer_seat": "dl",
            "rule": "R-21-11",
        },
    )
    assert tjugoett.event_view(stood, player("s1")) == stood


def test_a_hidden_event_without_a_seat_or_options_is_hidden():
    """`event_view` is stateless: an event lacking what it needs to decide shows nothing."""
    bare = Event("CardDealt", {"card": "AS", "sum": 14})
    assert tjugoett.event_view(bare, SPECTATOR) == Event("CardDealt", {"card": None, "sum": None})
    assert tjugoett.event_view(bare, player("")) == bare  # an owner "" sees its own
    no_sum = Event("PlayerStood", {"seat": "s1", "cards": 2})
    assert tjugoett.event_view(no_sum, SPECTATOR) == no_sum
    assert tjugoett.event_view(Event("RoundStarted", {}), SPECTATOR) == Event(
        "RoundStarted", {"order": 0}
    )


def test_the_seed_in_the_first_event_is_hidden_and_the_rest_kept():
    created = Event("TableCreated", {"game": "tjugoett", "options": options(players=1)})
    assert tjugoett.event_view(created, player("s1")) == Event(
        "TableCreated",
        {"game": "tjugoett", "options": {"seats": [{"seat": "s1", "name": "Ada"}]}},
    )
    assert tjugoett.event_view(created, DIRECTOR).data["options"]["seed"] == SEED
    without = Event("TableCreated", {"game": "tjugoett", "options": None})
    assert tjugoett.event_view(without, SPECTATOR) == Event(
        "TableCreated", {"game": "tjugoett", "options": {}}
    )
    other = Event("TableCreated", {"game": "tjugoett", "options": {"seats": []}})
    assert tjugoett.event_view(other, SPECTATOR) == other
