"""Playing over the wire: a real server process, real sockets, a temp SQLite file.

A full card won (R-PLAY-1..6), a flag from a real short deadline (R-PLAY-4, R-FLAG-1),
redaction of pushes (R-PLAY-1: a placed card's numbers are hidden from players), and
reconnect-and-resume with no gap and no duplicate.
"""

from __future__ import annotations

import itertools

import pytest
from wsclients import AutobahnClient

pytestmark = pytest.mark.e2e

DECK = [
    {"card_id": "c1", "numbers": [1, 2, 3, 4], "dots": 1},
    {"card_id": "c2", "numbers": [3, 3, 8, 8], "dots": 3},
    {"card_id": "c3", "numbers": [2, 2, 6, 6], "dots": 2},
]
SEATS = [{"seat": f"s{i}", "name": f"Student {i}"} for i in range(1, 5)]
_ids = itertools.count(1)


def new_table(server, connect, **options):
    """A fresh table id created by a director over the wire; returns (table, director)."""
    director = connect(server.token("director", name="dir"))
    table = f"play-{next(_ids)}"
    reply = director.request(
        "create_table", table=table, options={"seats": SEATS, "deck": DECK, **options}
    )
    assert reply == {"type": "table_created", "id": reply["id"], "table": table, "seq": 1}
    return table, director


def seat_client(server, connect, table, seat):
    return connect(server.token("player", table=table, seat=seat))


def command(client, table, name, **args):
    reply = client.request("command", table=table, name=name, args=args)
    assert reply["type"] == "accepted", reply
    return reply


def test_a_full_card_won_over_the_wire(server, connect):
    table, _ = new_table(server, connect)
    proctor = connect(server.token("proctor", name="p", table=table))
    s1 = seat_client(server, connect, table, "s1")
    spectator = connect(server.token("spectator", name="w", table=table))
    for client in (proctor, s1, spectator):
        snapshot = client.request("join", table=table)
        assert snapshot["type"] == "snapshot" and snapshot["seq"] == 1
        assert snapshot["view"]["phase"] == "setup"

    command(proctor, table, "start_round")
    command(proctor, table, "place_card")
    placed = {c: c.event("CardPlaced")["data"] for c in (proctor, s1, spectator)}
    assert placed[proctor]["numbers"] == [1, 2, 3, 4]
    assert "numbers" not in placed[s1] and "numbers" not in placed[spectator]  # R-PLAY-1
    command(proctor, table, "reveal_card")
    assert s1.event("CardRevealed")["data"]["numbers"] == [1, 2, 3, 4]

    touch = command(s1, table, "touch_card")
    assert touch["events"] == 1
    command(s1, table, "declare_pattern", pattern="4*6")
    fixed = command(s1, table, "fix_solution", steps=["1+2=3", "3+3=6", "4*6=24"])
    assert fixed["events"] == 3
    won = spectator.event("CardWon")
    assert won["seq"] == fixed["seq"] and won["data"]["seat"] == "s1" and won["data"]["dots"] == 1
    # the pushes reached every viewer in order, before the command's reply
    seqs = [m["seq"] for m in spectator.events()]
    assert seqs == sorted(seqs)
    view = s1.request("join", table=table)["view"]
    assert view["scores"]["s1"] == 1 and view["phase"] == "between_cards"


def test_a_flag_from_a_real_short_deadline(server, connect):
    """R-PLAY-4: no pattern within pattern_seconds of the touch draws a flag (R-FLAG-1)."""
    table, _ = new_table(server, connect, pattern_seconds=0.3, solution_seconds=1)
    proctor = connect(server.token("proctor", name="p", table=table))
    s2 = seat_client(server, connect, table, "s2")
    s2.request("join", table=table)
    command(proctor, table, "start_round")
    command(proctor, table, "place_card")
    command(proctor, table, "reveal_card")
    touched_seq = command(s2, table, "touch_card")["seq"]
    touched = s2.event("CardTouched")
    flag = s2.event("FlagIssued", timeout=5)
    assert flag["seq"] == touched_seq + 1
    assert flag["data"]["cause"] == "no_pattern" and flag["data"]["seat"] == "s2"
    assert flag["data"]["at"] - touched["data"]["at"] >= 300_000
    assert s2.event("CardReturnedToDeck")["data"]["card_id"] == "c1"  # R-FLAG-2


def test_reconnect_and_resume_gets_exactly_the_missed_events(server, connect):
    table, _ = new_table(server, connect)
    proctor = connect(server.token("proctor", name="p", table=table))
    token = server.token("player", table=table, seat="s3")
    s3 = connect(token)
    s3.request("join", table=table)
    command(proctor, table, "start_round")
    s3.event("RoundStarted")
    last_seen = s3.session.last_seq[table]
    s3.close()
    assert s3.wait_closed() == 1000

    # while s3 is away: a card is placed and revealed, s1 touches it
    command(proctor, table, "place_card")
    command(proctor, table, "reveal_card")
    missed_last = command(seat_client(server, connect, table, "s1"), table, "touch_card")["seq"]

    again = AutobahnClient(server.url)
    again.session.last_seq = {table: last_seen}  # what the client remembered
    try:
        again.hello(token)
        [(rid, frame)] = again.session.rejoin_all()
        again.send_raw(frame)
        snapshot = again.wait_for(lambda m: m.get("id") == rid)
        assert snapshot["seq"] == missed_last and snapshot["view"]["toucher"] == "s1"
        # exactly the missed events, in order (ClientSession raises on a gap or duplicate)
        missed = [again.wait_for(lambda m: m["type"] == "event") for _ in range(3)]
        assert [m["seq"] for m in missed] == list(range(last_seen + 1, missed_last + 1))
        assert [m["event_type"] for m in missed] == ["CardPlaced", "CardRevealed", "CardTouched"]
        assert "numbers" not in missed[0]["data"]  # catch-up is redacted like live pushes
        # then live ones
        command(proctor, table, "issue_flag", seat="s4", cause="too_many_fingertips")
        live = again.event("FlagIssued")
        assert live["seq"] == missed_last + 1
    finally:
        again.close()
