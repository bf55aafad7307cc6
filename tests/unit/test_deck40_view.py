"""What each viewer sees of a deck40 table (server/games/deck40/view.py), whole: the snapshot
a player reads mid-set, and the piles only the officials see (R-DECK40-1: the piles are face
down). Issue 20: whole views, so a field dropped or renamed is noticed."""

from __future__ import annotations

from casual_tables import (
    AUDITOR,
    DIRECTOR,
    PROCTOR,
    SPECTATOR,
    T0,
    S,
    Table,
    deck40_options,
    one,
    player,
)

from server.games import deck40
from server.games.base import SERVER_ACTOR, Event


def s1_called_wrong() -> Table:
    """Given: two players; 3 3 8 8 on the table (two cards each); s1 called a wrong 24."""
    table = Table.started(deck40, deck40_options(2, ["3388"]))
    table.advance(1)
    table.do("call_24", player("s1"), expression="1 + 2")
    return table


def test_a_player_sees_the_table_and_the_pile_sizes():
    table = s1_called_wrong()
    assert deck40.view(table.state, player("s2")) == {
        "game": "deck40",
        "phase": "playing",
        "options": {
            "house_loser_takes": False,
            "layout": "pairs",
            "reveal_unsolvable": False,
            "scoring": "simple",
            "seats": [{"seat": "s1", "name": "Player 1"}, {"seat": "s2", "name": "Player 2"}],
            "target_points": None,
        },
        "set": 1,
        "table": [
            {"card": "3S", "rank": 3, "suit": "spades", "seat": "s1"},
            {"card": "3H", "rank": 3, "suit": "hearts", "seat": "s1"},
            {"card": "8S", "rank": 8, "suit": "spades", "seat": "s2"},
            {"card": "8H", "rank": 8, "suit": "hearts", "seat": "s2"},
        ],
        "excluded": ["s1"],
        "no_solution": [],
        "after_no_solution": False,
        "seats": [
            {"seat": "s1", "name": "Player 1", "score": 0, "won": [], "pile": 18},
            {"seat": "s2", "name": "Player 2", "score": 0, "won": [], "pile": 18},
        ],
        "common_pile": 0,
        "scores": {"s1": 0, "s2": 0},
        "cards_left": {"s1": 18, "s2": 18},
        "deadlines": [],
        "result": None,
        "clock": T0 + 1 * S,
        "you": "s2",
    }


def test_only_the_officials_see_the_piles_under_the_turned_up_cards():
    table = s1_called_wrong()
    dealt = one(table.events, "GameStarted")["piles"]
    for official in (PROCTOR, DIRECTOR, AUDITOR, SERVER_ACTOR):
        shown = deck40.view(table.state, official)
        assert shown["piles"] == {seat: pile[2:] for seat, pile in dealt.items()}
        assert shown["common"] == [] and "you" not in shown
    spectator = deck40.view(table.state, SPECTATOR)
    assert not {"piles", "common", "you"} & set(spectator)


def test_the_no_solution_calls_show_until_the_next_set_comes_up():
    """R-DECK40-3: who called "no solution" on these four cards shows while they lie; the
    next set starts with nobody having called."""
    table = Table.started(deck40, deck40_options(2, ["1111"]))
    table.do("call_no_solution", player("s2"))
    shown = deck40.view(table.state, player("s1"))
    assert (shown["no_solution"], shown["after_no_solution"], shown["set"]) == (["s2"], True, 1)
    table.do("call_no_solution", player("s1"))
    shown = deck40.view(table.state, player("s1"))
    assert (shown["no_solution"], shown["after_no_solution"], shown["set"]) == ([], False, 2)


def test_players_see_the_common_pile_and_the_deck_as_counts():
    """R-DECK40-5: the dealer's pile is face down too; its count shows, in the snapshot and
    in the pushed `GameStarted`."""
    table = Table.started(deck40, deck40_options(3, []))
    started = deck40.event_view(table.events[0], SPECTATOR).data
    assert (started["deck"], started["piles"], started["common"]) == (40, {}, 40)
    shown = deck40.view(table.state, player("s3"))
    assert (shown["common_pile"], shown["you"]) == (36, "s3")
    assert [seat["pile"] for seat in shown["seats"]] == [0, 0, 0]
    assert deck40.view(table.state, AUDITOR)["common"] == list(table.state.common)


def test_the_table_created_options_hide_the_shuffle_and_the_seed_failing_closed():
    """A `deck` that is not a list is dropped (not shown), a list becomes its count, the seed
    never shows; options left out stay out."""
    for given, shown in (
        ({"seed": 5, "deck": "AS 2S", "scoring": "cards"}, {"scoring": "cards"}),
        ({"deck": ["AS"], "layout": "auto"}, {"deck": 1, "layout": "auto"}),
    ):
        created = Event("TableCreated", {"game": "deck40", "options": given})
        assert deck40.event_view(created, player("s1")).data == {"game": "deck40", "options": shown}
    bare = Event("TableCreated", {"game": "deck40"})
    assert deck40.event_view(bare, SPECTATOR).data == {"game": "deck40", "options": {}}
    other = Event("CardsReturned", {"set": 1, "returns": []})
    assert deck40.event_view(other, SPECTATOR) == other
