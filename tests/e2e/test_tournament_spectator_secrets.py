"""A spectator of a tournament learns neither its seed nor its cards, on a real server (issue 33).

The attack run found: a spectator joining `tournament/<id>` with `after_seq: 0` was pushed
`TableCreated.options.deck_seed`, and `decks.round_cards(seed, "official", 1)` gave round 1's
cards in order, exactly as the director's `RoundStarted.deck`, before any card was placed.
Here the same steps over real websockets: the director sees the seed and the cards, the
spectator's whole catch-up, snapshot and `view_at` answers (of the tournament and of one of
its tables) hold neither.
"""

from __future__ import annotations

import secrets

import pytest

from server import tournament
from server.tournament import decks

pytestmark = pytest.mark.e2e

DECK_SEED = 1_987_654_321
CARDS = 6


def everything_after(client, table: str) -> list[dict]:
    """The snapshot and every pushed event of `table` from seq 0 (a join with `after_seq: 0`),
    waiting for the event of the snapshot's seq."""
    snapshot = client.request("join", table=table, after_seq=0)
    assert snapshot["type"] == "snapshot", snapshot
    last = client.wait_for(lambda m: m["type"] == "event" and m["seq"] == snapshot["seq"])
    pushes = [m for m in client.events() if m["table"] == table]
    return [snapshot, *pushes, last]


def test_a_spectator_of_a_tournament_gets_no_deck_seed_nor_card_from_seq_0(server, connect):
    tid = "leak-" + secrets.token_hex(4)
    stream = f"tournament/{tid}"
    director = connect(server.token("director", name="d"))
    options = {
        "name": "Leak check",
        "date": "2026-03-14",
        "grades": ["4th"],
        "deck_seed": DECK_SEED,
        "cards_per_round": CARDS,
    }
    reply = director.request("create_table", table=stream, game="tournament", options=options)
    assert reply["type"] == "table_created", reply
    csv = "name,school,grade\n" + "".join(f"S{i},Hill,4th\n" for i in range(6))
    for name, args in [
        ("import_students", {"csv": csv}),
        ("close_registration", {}),
        ("seat_round", {"round": 1}),
        ("start_round", {"round": 1}),
    ]:
        reply = director.request("command", table=stream, name=name, args=args)
        assert reply["type"] == "accepted", reply

    # the director's own log: the seed and, from it, the round's cards in order
    official = everything_after(director, stream)
    started = next(m for m in official if m.get("event_type") == "RoundStarted")
    assert official[1]["data"]["options"]["deck_seed"] == DECK_SEED
    dealt = decks.round_cards(tournament.initial_state(options).options, 1)
    assert started["data"]["deck"] == dealt[:CARDS]
    card_ids = [card["card_id"] for card in started["data"]["deck"]]
    table = f"{tid}.{started['data']['tables'][0]}"

    spectator = connect(server.token("spectator", name="w"))
    seen = everything_after(spectator, stream)
    assert seen[0]["seq"] == official[0]["seq"]
    created = next(m for m in seen if m.get("event_type") == "TableCreated")
    assert created["seq"] == 1 and "deck_seed" not in created["data"]["options"]
    assert created["data"]["options"]["name"] == "Leak check"  # the rest is public
    seen.append(spectator.request("query", table=stream, name="view_at", args={"seq": 1}))
    seen += everything_after(spectator, table)  # a table the tournament created
    seen.append(spectator.request("query", table=table, name="view_at", args={"seq": 2}))
    seen.append(spectator.request("list_tables"))
    assert all(m["type"] in ("snapshot", "event", "answer", "tables") for m in seen), seen
    text = repr(seen)
    assert "deck_seed" not in text and str(DECK_SEED) not in text
    assert not [card for card in card_ids if repr(card) in text]
