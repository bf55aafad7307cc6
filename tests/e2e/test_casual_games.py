"""The casual games over the wire: a real server process, real sockets, a temp SQLite file.

Bots (simple clients in this test, solving with `server.puzzles.solver` as a player would in
his head) play a pocket game of three (R-POCKET-1..5, with a real answer deadline) and a
deck40 game of two in each scoring version (R-DECK40-1..7) to the end. Each bot sees only
its own pushes: no push or snapshot ever shows it the stack or a pile. The shipped bots
(`t24 bot`, `t24 casual --bot`) play the same games as processes in test_casual_bots.py.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from server.puzzles.solver import solve

pytestmark = pytest.mark.e2e

_ids = itertools.count(1)
TIMEOUT = 15.0


def seats(count: int) -> list[dict[str, str]]:
    return [{"seat": f"s{i}", "name": f"Bot {i}"} for i in range(1, count + 1)]


def create(server, connect, game: str, options: dict[str, Any]) -> str:
    director = connect(server.token("director", name="dir"))
    table = f"{game}-{next(_ids)}"
    reply = director.request("create_table", table=table, game=game, options=options)
    assert reply["type"] == "table_created" and reply["table"] == table, reply
    return table


def join(server, connect, table: str, seat: str | None) -> tuple[Any, dict[str, Any]]:
    if seat is None:
        client = connect(server.token("spectator", name="watcher", table=table))
    else:
        client = connect(server.token("player", table=table, seat=seat))
    snapshot = client.request("join", table=table)
    assert snapshot["type"] == "snapshot", snapshot
    return client, snapshot["view"]


def send(client, table: str, name: str, **args: Any) -> dict[str, Any]:
    reply = client.request("command", table=table, name=name, args=args)
    assert reply["type"] == "accepted", reply
    return reply


def next_of(client, *types: str) -> dict[str, Any]:
    return client.wait_for(
        lambda m: m["type"] == "event" and m["event_type"] in types, timeout=TIMEOUT
    )


def hidden_keys_absent(client, table: str, keys: tuple[str, ...]) -> dict[str, Any]:
    view = client.request("join", table=table)["view"]
    assert not set(keys) & set(view), view
    return view


# -- pocket -----------------------------------------------------------------------------------


def test_three_bots_play_a_pocket_game_to_the_end(server, connect):
    options = {"seats": seats(3), "seed": 3, "size": 6, "answer_seconds": 0.5}
    table = create(server, connect, "pocket", options)
    bots = {seat: join(server, connect, table, seat)[0] for seat in ("s1", "s2", "s3")}
    watcher, view = join(server, connect, table, None)
    assert view["phase"] == "setup" and "stack" not in view

    started = send(bots["s1"], table, "start_game")
    first = next_of(watcher, "CardTurnedUp")
    assert first["seq"] == started["seq"] and first["data"]["number"] == 1
    assert next_of(bots["s2"], "GameStarted")["data"]["stack"] == 6  # a count for players

    # card 1: s3 answers wrong, s2 claims and lets the real deadline pass, s1 wins (R-POCKET-3)
    send(bots["s3"], table, "answer", expression="1 + 1")
    assert next_of(watcher, "PlayerExcluded")["data"] | {"at": 0} == {
        "at": 0,
        "seat": "s3",
        "reason": "wrong",
        "number": 1,
        "rule": "R-POCKET-3",
    }
    send(bots["s2"], table, "claim")
    late = next_of(watcher, "PlayerExcluded")
    assert (late["data"]["seat"], late["data"]["reason"]) == ("s2", "late")
    numbers = first["data"]["numbers"]
    send(bots["s1"], table, "answer", expression=solve(numbers)[0].ascii_expression)
    assert next_of(watcher, "CardWon")["data"]["seat"] == "s1"

    # card 2: everybody is stumped: a bonus card (R-POCKET-4)
    second = next_of(watcher, "CardTurnedUp")
    for seat in ("s1", "s2", "s3"):
        send(bots[seat], table, "declare_stumped")
    aside = next_of(watcher, "CardSetAside")
    assert aside["data"]["card_id"] == second["data"]["card_id"]

    # the rest: s2 and s3 take turns; the first winner takes the bonus card too
    winners = itertools.cycle(["s2", "s3"])
    bonus_taken = None
    while True:
        pushed = next_of(watcher, "CardTurnedUp", "GameEnded")
        if pushed["event_type"] == "GameEnded":
            break
        seat = next(winners)
        expression = solve(pushed["data"]["numbers"])[0].ascii_expression
        send(bots[seat], table, "answer", expression=expression)
        won = next_of(watcher, "CardWon")["data"]
        bonus_taken = bonus_taken or won["bonus"]
    assert bonus_taken == [second["data"]["card_id"]]
    ended = pushed["data"]
    assert ended["reason"] == "stack_used_up" and ended["unplayed"] == 0  # R-POCKET-5
    best = max(ended["scores"].values())
    assert ended["winners"] == [s for s, v in ended["scores"].items() if v == best]
    assert ended["tie"] == (len(ended["winners"]) > 1)
    for bot in bots.values():
        final = hidden_keys_absent(bot, table, ("stack",))
        assert final["phase"] == "ended" and final["scores"] == ended["scores"]


# -- deck40 -----------------------------------------------------------------------------------


def rank(card: str) -> int:
    return 1 if card[:-1] == "A" else int(card[:-1])


class TableCards:
    """The four face-up cards as a bot follows them from the pushes."""

    def __init__(self) -> None:
        self.cards: list[dict[str, Any]] = []

    def apply(self, push: dict[str, Any]) -> None:
        kind, data = push["event_type"], push["data"]
        if kind == "CardsTurnedUp":
            self.cards += data["cards"]
        elif kind == "RoundWon":
            self.cards = []
        elif kind == "CardsReturned":
            gone = {entry["card"] for entry in data["returns"]}
            self.cards = [card for card in self.cards if card["card"] not in gone]


@pytest.mark.parametrize(
    ("scoring", "more"),
    [
        ("simple", {"target_points": 4}),
        ("advanced", {"reveal_unsolvable": True}),
        ("cards", {}),
        ("cards", {"house_loser_takes": True}),
    ],
)
def test_two_bots_play_a_deck40_game_to_the_end(server, connect, scoring, more):
    options = {"seats": seats(2), "seed": 20, "scoring": scoring, **more}
    table = create(server, connect, "deck40", options)
    bots = {seat: join(server, connect, table, seat)[0] for seat in ("s1", "s2")}
    watcher, _ = join(server, connect, table, None)
    send(bots["s2"], table, "start_game")
    game_started = next_of(bots["s1"], "GameStarted")["data"]
    assert game_started["deck"] == 40 and game_started["piles"] == {"s1": 20, "s2": 20}

    on_table = TableCards()
    doubled = agreed = 0
    while True:
        push = next_of(watcher, "CardsTurnedUp", "RoundWon", "CardsReturned", "GameEnded")
        on_table.apply(push)
        if push["event_type"] == "GameEnded":
            break
        if push["event_type"] != "CardsTurnedUp":
            continue
        cards = on_table.cards
        assert len(cards) == 4 and all(card["rank"] == rank(card["card"]) for card in cards)
        solutions = solve([card["rank"] for card in cards])
        if not solutions:
            mine = [card["card"] for card in cards if card["seat"] == "s1"]
            send(bots["s1"], table, "call_no_solution", returns=mine[-1])
            send(bots["s2"], table, "call_no_solution")
            agreement = next_of(watcher, "NoSolutionAgreed")["data"]
            agreed += 1
            if more.get("reveal_unsolvable"):
                assert agreement["solvable"] is False  # R-DECK40-7
            continue
        if scoring == "advanced":
            send(bots["s2"], table, "call_no_solution")  # then s1 finds one: 2 points
        send(bots["s1"], table, "call_24", expression=solutions[0].ascii_expression)
        won = next_of(watcher, "RoundWon")
        on_table.apply(won)
        doubled += won["data"]["points"] == 2
    ended = push["data"]
    assert ended["scoring"] == scoring
    if scoring == "simple":
        assert ended["reason"] == "target_points" and ended["scores"]["s1"] == 4
    elif scoring == "advanced":
        assert doubled > 0 and ended["scores"]["s1"] == 2 * doubled
        assert ended["winners"] == ["s1"]
    elif more.get("house_loser_takes"):
        assert ended["reason"] == "cannot_turn_up"
        assert ended["winners"] == ["s1"] and ended["tie"] is False  # decisive (R-DECK40-6)
    else:
        assert ended["tie"] is True and ended["winners"] == ["s1", "s2"]  # as written
    for bot in bots.values():
        final = hidden_keys_absent(bot, table, ("piles", "common"))
        assert final["phase"] == "ended"


# -- a restart mid-claim ----------------------------------------------------------------------


def test_kill_9_mid_claim_pauses_the_pocket_game_and_a_player_resumes_it(tmp_path):
    """The shell submits pocket's RECOVERY_COMMAND (`pause_game`) after a restart with a live
    answer window: nobody is excluded for the time the server was down (R-POCKET-3)."""
    from server_process import ServerProcess
    from wsclients import AutobahnClient

    process = ServerProcess(tmp_path / "pocket-crash").start()
    try:
        director = AutobahnClient(process.url)
        director.hello(process.token("director", name="d"))
        options = {"seats": seats(2), "seed": 1, "size": 3, "answer_seconds": 1}
        created = director.request("create_table", table="pk", game="pocket", options=options)
        assert created["type"] == "table_created", created
        s1 = AutobahnClient(process.url)
        s1.hello(process.token("player", table="pk", seat="s1"))
        send(s1, "pk", "start_game")
        claimed = send(s1, "pk", "claim")["seq"]
        process.kill()  # the 1 s answer window is live
        assert s1.wait_closed() == 1006

        process.start()
        s2 = AutobahnClient(process.url)
        s2.hello(process.token("player", table="pk", seat="s2"))
        view = s2.request("join", table="pk")["view"]
        assert view["paused"] and view["pause_cause"] == "server_restart"
        assert view["deadlines"] == [] and view["card"]["claimer"] == "s1"
        resumed = send(s2, "pk", "resume_game")
        resumed_at = next_of(s2, "GameResumed")["data"]["at"]
        late = next_of(s2, "PlayerExcluded")  # the window runs again, in full
        assert late["seq"] > resumed["seq"] > claimed
        assert late["data"]["reason"] == "late" and late["data"]["at"] - resumed_at >= 1_000_000
    finally:
        process.kill()
