"""The Tjugoett bot (clients/reference_cli/games/tjugoett/bot.py) plays whole tables in memory:
it sees each event exactly as the server pushes it to its seat (`event_view`), and every
command it sends must be accepted by the real `decide`."""

from __future__ import annotations

import pytest
from tjugoett_tables import DEALER_SEAT, DIRECTOR, Table, options, player

from clients.reference_cli.games.tjugoett.bot import TjugoettBot
from server.games import tjugoett
from server.games.base import Actor, Event


def _play(table: Table, bots: dict[str, TjugoettBot], rounds: int) -> None:
    """Rounds played by the bots (the server dealer's deadlines fire as the shell fires them)."""
    pending: list[Event] = list(table.events)
    for _ in range(2000):
        if table.state.phase == "between_rounds":
            if table.state.round == rounds:
                break
            pending += table.do("start_round", DIRECTOR)
            continue
        moves = []
        for event in pending:
            for seat, bot in bots.items():
                seen = tjugoett.event_view(event, player(seat))
                move = bot.on_event(seen.type, seen.data)
                if move is not None:
                    moves.append((seat, move))
        pending = []
        assert len(moves) <= 1, moves  # one seat acts at a time
        if moves:
            seat, move = moves[0]
            pending += table.do(move, Actor("player", seat))
        else:
            assert table.state.phase == "dealer_turn", table.state.phase
            assert table.state.options.dealer is None  # a person dealer's bot always moves
            pending += table.fire("dealer_play")
    assert table.state.phase == "between_rounds" and table.state.round == rounds


@pytest.mark.parametrize("seed", ["bot-seed-0001", "bot-seed-0002", "bot-seed-0003"])
def test_three_bots_play_rounds_against_the_server_dealer(seed):
    table = Table(options(players=3, seed=seed))
    bots = {seat: TjugoettBot(seat) for seat in ("s1", "s2", "s3")}
    _play(table, bots, rounds=5)
    tally = table.state.tally_data()
    assert sum(tally[seat]["won"] + tally[seat]["lost"] for seat in bots) == 15


def test_a_bot_deals_at_a_person_dealer_table():
    table = Table(options(players=2, person_dealer=True, seed="bot-seed-0004"))
    bots = {seat: TjugoettBot(seat) for seat in ("s1", "s2")}
    bots[DEALER_SEAT] = TjugoettBot(DEALER_SEAT, stand_at=17, dealer=True)
    _play(table, bots, rounds=4)
    assert (
        table.state.tally_data()["dealer"]["won"] + table.state.tally_data()["dealer"]["lost"] == 8
    )


def test_the_bot_stands_at_its_threshold_and_leaves_settled_hands_alone():
    bot = TjugoettBot("s1", stand_at=15)
    assert bot.on_event("CardDealt", {"seat": "s1", "cards": 1, "sum": 9}) is None  # opening
    assert bot.on_event("TurnStarted", {"seat": "s1"}) is None
    assert bot.on_event("CardDealt", {"seat": "s1", "cards": 2, "sum": 12}) == "draw_card"
    assert bot.on_event("CardDealt", {"seat": "s1", "cards": 3, "sum": 16}) == "stand"
    assert bot.on_event("CardDealt", {"seat": "s1", "cards": 3, "sum": 21}) is None
    assert bot.on_event("CardDealt", {"seat": "s1", "cards": 5, "sum": 14}) is None
    assert bot.on_event("CardDealt", {"seat": "s2", "cards": 2, "sum": None}) is None
    bot.on_event("TurnSettled", {"seat": "s1"})
    assert bot.on_event("CardDealt", {"seat": "s1", "cards": 2, "sum": 12}) is None
