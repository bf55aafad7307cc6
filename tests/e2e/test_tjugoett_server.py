"""Tjugoett over the wire: a real server process, real sockets, a temp SQLite file.

The server's dealer plays three rounds against three bots (clients/reference_cli/games/
tjugoett/bot.py), each bot a player client that decides from its own pushes only. A
spectator and an auditor watch. Checked on what each client received (R-21-19 and the
`public_hands` default): nobody but the auditor ever got the draw order, no client ever got
another seat's card while that hand's turn was live, each bot got its own cards; the tally
the table ends with counts every settled turn.
"""

from __future__ import annotations

import time

import pytest

from clients.reference_cli.games.tjugoett.bot import TjugoettBot

pytestmark = pytest.mark.e2e

SEATS = [{"seat": f"s{i}", "name": f"Bot {i}"} for i in range(1, 4)]
ROUNDS = 3
TIMEOUT = 60.0


def _available(client) -> list[dict]:
    """Every message the client has received by now (waiting briefly for the next)."""
    messages = []
    while True:
        try:
            messages.append(client.recv(timeout=0.02))
        except TimeoutError:
            return messages


def test_a_server_dealer_against_three_bots(server, connect):
    director = connect(server.token("director", name="dir"))
    table = "tjugoett-bots"
    reply = director.request(
        "create_table",
        table=table,
        game="tjugoett",
        options={
            "seats": SEATS,
            "seed": "e2e-seed-4f1c2a",
            "dealer_seconds": 0.05,
            "next_round_seconds": 0.1,
        },
    )
    assert reply["type"] == "table_created", reply
    bots = {}
    for seat in SEATS:
        client = connect(server.token("player", table=table, seat=seat["seat"]))
        bots[seat["seat"]] = (client, TjugoettBot(seat["seat"]))
    spectator = connect(server.token("spectator", name="w", table=table))
    auditor = connect(server.token("auditor", name="a"))
    for client in (director, spectator, auditor, *(client for client, _ in bots.values())):
        snapshot = client.request("join", table=table)
        assert snapshot["type"] == "snapshot" and snapshot["view"]["phase"] == "between_rounds"

    received: dict[str, list[dict]] = {seat: [] for seat in bots}
    assert director.request("command", table=table, name="start_round", args={})["type"] == (
        "accepted"
    )
    ended_rounds = 0
    deadline = time.monotonic() + TIMEOUT
    while ended_rounds < ROUNDS:
        assert time.monotonic() < deadline, "the bots did not finish their rounds in time"
        for seat, (client, bot) in bots.items():
            for message in _available(client):
                if message["type"] != "event":
                    continue
                received[seat].append(message)
                if seat == "s1" and message["event_type"] == "RoundEnded":
                    ended_rounds += 1
                move = bot.on_event(message["event_type"], message["data"])
                if move is not None:
                    answer = client.request("command", table=table, name=move, args={})
                    assert answer["type"] == "accepted", (seat, move, answer)
    ended = director.request("command", table=table, name="end_table", args={})
    assert ended["type"] == "accepted", ended

    final = spectator.event("TableEnded")["data"]
    pushed = spectator.events()
    settled = [m for m in pushed if m["event_type"] == "TurnSettled"]
    assert final["rounds"] >= ROUNDS
    tally = final["tally"]
    assert sum(tally[seat]["won"] + tally[seat]["lost"] for seat in bots) == len(settled)
    assert tally["dealer"]["won"] == sum(tally[seat]["lost"] for seat in bots)
    # What the spectator got: no draw order, no card of a hand whose turn was live.
    for message in pushed:
        data = message["data"]
        if message["event_type"] in ("RoundStarted", "DiscardsReshuffled"):
            assert data["order"] == 52 or isinstance(data["order"], int)
        if message["event_type"] in ("CardDealt", "PlayerStood"):
            assert data.get("card") is None and data["sum"] is None, message
    # Each bot: its own cards, never another seat's live card.
    for seat, messages in received.items():
        dealt = [m["data"] for m in messages if m["event_type"] == "CardDealt"]
        assert any(data["seat"] == seat and data["card"] for data in dealt)
        for data in dealt:
            if data["seat"] != seat:
                assert data["card"] is None and data["sum"] is None, (seat, data)
    # The auditor sees everything, the order of each round too.
    started = auditor.event("RoundStarted")["data"]
    assert sorted(started["order"]) == sorted(
        rank + suit
        for suit in "CDHS"
        for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    )
    view = spectator.request("join", table=table)["view"]
    assert view["phase"] == "table_over" and view["tally"] == tally
