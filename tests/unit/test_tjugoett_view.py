"""R-21-19 and the `public_hands` option: who sees which cards, in snapshots and in pushed
events. Each case is checked on the snapshot and on the events, with `leaks` from
tjugoett_tables (the property tests run the same check on random games)."""

from __future__ import annotations

from tjugoett_tables import (
    AUDITOR,
    DEALER,
    DIRECTOR,
    SEED,
    SPECTATOR,
    Table,
    leaks,
    only,
    options,
    player,
)

from server.games import tjugoett
from server.games.base import Event


def _seat(view: dict, seat: str) -> dict:
    (entry,) = [entry for entry in view["seats"] if entry["seat"] == seat]
    return entry


def test_r21_19_the_dealer_sees_no_players_card_or_sum_during_the_turn():
    table = Table.dealt("9C", "2D", "8C", person_dealer=True)
    seen = tjugoett.view(table.state, DEALER)
    assert _seat(seen, "s1") == {
        "seat": "s1",
        "name": "Ada",
        "count": 2,
        "cards": None,
        "sum": None,
        "settled": False,
        "facing_dealer": True,
    }
    assert _seat(seen, "s2")["cards"] is None and _seat(seen, "s2")["count"] == 1
    assert seen["your_role"] == "dealer" and seen["your_commands"] == []
    for event in table.events:
        pushed = tjugoett.event_view(event, DEALER)
        assert leaks(DEALER, dict(pushed.data), table.state, event.type) == []
        if event.type == "CardDealt":
            assert pushed.data["card"] is None and pushed.data["sum"] is None
    assert leaks(DEALER, seen, table.state) == []


def test_r21_19_the_sum_at_a_stand_is_hidden_from_the_dealer_even_with_live_hands():
    table = Table.dealt("9C", "2D", "8C", person_dealer=True, public_hands="live")
    (stood,) = table.do("stand", player("s1"))
    assert tjugoett.event_view(stood, DEALER).data["sum"] is None
    assert tjugoett.event_view(stood, SPECTATOR).data["sum"] == 17
    assert tjugoett.view(table.state, DEALER)["your_commands"] == ["dealer_draw"]
    assert _seat(tjugoett.view(table.state, DEALER), "s1")["sum"] is None


def test_r21_19_after_the_turn_the_hand_is_public_to_the_dealer():
    table = Table.dealt("9C", "2D", "8C", "10S", "8H", person_dealer=True)
    table.do("stand", player("s1"))
    table.do("dealer_draw", DEALER)
    table.do("dealer_draw", DEALER)
    events = table.do("dealer_stand", DEALER)
    settled = tjugoett.event_view(only(events, "TurnSettled"), DEALER)
    assert settled.data["player_cards"] == ["9C", "8C"]
    seen = tjugoett.view(table.state, DEALER)
    assert seen["results"][0]["player_cards"] == ["9C", "8C"]
    assert _seat(seen, "s1")["settled"] is True
    assert _seat(seen, "s2")["cards"] is None  # s2's turn is live now
    assert leaks(DEALER, seen, table.state) == []


def test_a_player_always_sees_its_own_hand_and_not_the_others_by_default():
    table = Table.dealt("9C", "2D", "8C")
    mine = tjugoett.view(table.state, player("s1"))
    assert _seat(mine, "s1")["cards"] == ["9C", "8C"] and _seat(mine, "s1")["sum"] == 17
    assert mine["your_commands"] == ["draw_card", "stand"]
    theirs = tjugoett.view(table.state, player("s2"))
    assert _seat(theirs, "s1")["cards"] is None and _seat(theirs, "s2")["cards"] == ["2D"]
    assert theirs["your_commands"] == []
    spectator = tjugoett.view(table.state, SPECTATOR)
    assert _seat(spectator, "s1")["cards"] is None and _seat(spectator, "s2")["cards"] is None
    dealt = table.events[-1]
    assert tjugoett.event_view(dealt, player("s1")).data["card"] == "8C"
    assert tjugoett.event_view(dealt, player("s2")).data["card"] is None
    assert tjugoett.event_view(dealt, SPECTATOR).data["card"] is None
    for viewer in (player("s2"), SPECTATOR):
        assert leaks(viewer, tjugoett.view(table.state, viewer), table.state) == []


def test_live_hands_show_other_players_and_spectators_every_card_but_not_the_dealer():
    table = Table.dealt("9C", "2D", "8C", person_dealer=True, public_hands="live")
    dealt = table.events[-1]
    for viewer in (player("s2"), SPECTATOR):
        assert tjugoett.event_view(dealt, viewer).data["card"] == "8C"
        assert _seat(tjugoett.view(table.state, viewer), "s1")["cards"] == ["9C", "8C"]
    assert tjugoett.event_view(dealt, DEALER).data["card"] is None
    assert _seat(tjugoett.view(table.state, DEALER), "s1")["cards"] is None


def test_only_officials_see_the_draw_order_and_the_seed():
    table = Table.dealt("9C", "2D", "8C")
    started = table.events[0]
    created = Event("TableCreated", {"game": "tjugoett", "options": options()})
    for viewer in (DIRECTOR, AUDITOR):
        assert tjugoett.event_view(started, viewer).data["order"][:3] == ["9C", "2D", "8C"]
        assert tjugoett.event_view(created, viewer).data["options"]["seed"] == SEED
        assert tjugoett.view(table.state, viewer)["draw_order"] == list(table.state.draw_pile)
    for viewer in (DEALER, player("s1"), SPECTATOR):
        assert tjugoett.event_view(started, viewer).data["order"] == 52
        assert "seed" not in tjugoett.event_view(created, viewer).data["options"]
        assert "draw_order" not in tjugoett.view(table.state, viewer)
        assert SEED not in str(tjugoett.view(table.state, viewer))


def test_the_reshuffled_order_is_hidden_like_the_first():
    pushed = tjugoett.event_view(
        Event("DiscardsReshuffled", {"at": 1, "order": ["2C", "3C"], "kept": 1, "added": 1}),
        SPECTATOR,
    )
    assert pushed.data["order"] == 2


def test_the_dealers_cards_are_public():
    table = Table.dealt("9C", "2D", "8C", "10S", person_dealer=True)
    table.do("stand", player("s1"))
    (drawn,) = table.do("dealer_draw", DEALER)
    for viewer in (player("s1"), player("s2"), SPECTATOR, DEALER):
        assert tjugoett.event_view(drawn, viewer).data["card"] == "10S"
        assert tjugoett.view(table.state, viewer)["dealer"]["cards"] == ["10S"]


def test_the_view_before_any_round():
    table = Table(options(players=3))
    seen = tjugoett.view(table.state, DIRECTOR)
    assert seen["phase"] == "between_rounds" and seen["round"] == 0
    assert [entry["seat"] for entry in seen["seats"]] == ["s1", "s2", "s3"]
    assert seen["your_commands"] == ["start_round", "end_table"]
    assert seen["dealer"]["name"] == "server" and seen["dealer"]["stands_at"] == 17
    assert seen["tally"]["dealer"] == {"won": 0, "lost": 0}
    assert tjugoett.view(table.state, SPECTATOR)["your_role"] == "spectator"
