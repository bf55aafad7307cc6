"""The tournament's seed stays the officials' (issue 33): given the stream's first event and its
rounds, what each role is shown of `TableCreated`, what `secrets` declares, and a seating that
says nothing of the seed.

The attack this closes: a spectator joining `tournament/<id>` with `after_seq: 0` was pushed
`TableCreated.options.deck_seed`, and `decks.round_cards(seed, rules, 1)` gave round 1's cards
in order before any was placed. The seating, public, was a function of that seed, so trying
the 2**31 seeds against it gave the seed away as well.
"""

from __future__ import annotations

from tournament_support import DIRECTOR, Tourney, csv_of, tournament_options

import server.tournament as tournament
from server.games.base import SERVER_ACTOR, Actor, Event
from server.tournament import decks

NON_OFFICIALS = (
    Actor("spectator", "v1"),
    Actor("proctor", "x1"),
    Actor("player", "p1"),
)
OFFICIALS = (DIRECTOR, Actor("auditor", "a1"), SERVER_ACTOR)
SEED = 1_234_567_891


def created(**options: object) -> Event:
    """The shell's first event of the stream, as the hub records it."""
    return Event("TableCreated", {"game": "tournament", "options": tournament_options(**options)})


def seated(deck_seed: int, **more: object) -> Tourney:
    """Given: seven 4th-graders and six 5th-graders registered, round 1 seated."""
    t = Tourney(tournament_options(grades=["4th", "5th"], deck_seed=deck_seed, **more))
    rows = [(f"S{i}", "Oak", "4th") for i in range(7)] + [(f"T{i}", "Elm", "5th") for i in range(6)]
    t.do("import_students", csv=csv_of(rows))
    t.do("close_registration")
    t.do("seat_round", round=1)
    return t


def test_table_created_is_pushed_without_the_deck_seed_to_everyone_but_the_officials():
    event = created(deck_seed=SEED)
    for viewer in NON_OFFICIALS:
        shown = tournament.event_view(event, viewer)
        options = dict(event.data["options"])
        del options["deck_seed"]
        assert shown == Event("TableCreated", {"game": "tournament", "options": options})
    for viewer in OFFICIALS:
        assert tournament.event_view(event, viewer) is event


def test_options_that_are_not_a_map_are_not_shown_at_all():
    odd = Event("TableCreated", {"game": "tournament", "options": [SEED]})
    assert tournament.event_view(odd, Actor("spectator", "v1")) == Event(
        "TableCreated", {"game": "tournament", "options": {}}
    )


def test_secrets_list_the_seed_the_tie_break_seeds_and_every_started_card():
    t = seated(SEED, per_table_shuffle=True)
    t.do("start_round", round=1)
    declared = tournament.secrets(t.state, Actor("spectator", "v1"))
    assert declared.keys == {"deck_seed", "deck", "orders"}
    assert {SEED, decks.tie_break_seed(SEED, 1)} <= declared.values
    for card in t.state.round(1).deck:
        assert card["card_id"] in declared.values
        assert tuple(card["numbers"]) in declared.values
    for order in t.state.round(1).orders.values():
        assert tuple(order) in declared.values
    for official in OFFICIALS:
        assert tournament.secrets(t.state, official).values == frozenset()


def test_no_non_official_view_or_push_of_a_round_holds_a_secret():
    t = seated(SEED, per_table_shuffle=True)
    t.do("start_round", round=1)
    log = [created(deck_seed=SEED), *t.events]
    for viewer in NON_OFFICIALS:
        declared = tournament.secrets(t.state, viewer)
        shown = [dict(tournament.event_view(event, viewer).data) for event in log]
        shown.append(tournament.view(t.state, viewer))
        text = repr(shown)
        assert str(SEED) not in text
        card_ids = [value for value in declared.values if isinstance(value, str)]
        assert card_ids and not [card for card in card_ids if repr(card) in text]
        assert not any(key in text for key in ("'deck_seed'", "'deck'", "'orders'"))


def test_the_seating_is_the_same_whatever_the_deck_seed():
    """A seating is public: with the seed in its shuffle, trying every seed against it found
    the seed. Two tournaments that differ only in their seed seat alike, round 1 and 2."""
    tables = []
    for deck_seed in (SEED, 7):
        t = seated(deck_seed)
        t.do("start_round", round=1)
        for table in t.state.round(1).tables:
            t.table_ends(table.table, {s: 0 for s in table.students})
        t.do("close_round", round=1)
        t.do("seat_round", round=2)
        tables.append([t.state.round(n).tables for n in (1, 2)])
    assert tables[0] == tables[1]
    first = seated(SEED).state.round(1).tables
    renamed = Tourney(tournament_options(grades=["4th", "5th"], deck_seed=SEED, name="Fall"))
    rows = [(f"S{i}", "Oak", "4th") for i in range(7)] + [(f"T{i}", "Elm", "5th") for i in range(6)]
    renamed.do("import_students", csv=csv_of(rows))
    renamed.do("close_registration")
    renamed.do("seat_round", round=1)
    assert renamed.state.round(1).tables != first  # still a shuffle: by name and date
