"""Replaying a recorded table to any point (server/audit/replay.py), on a real SQLite file.

A protest (R-ROUND-8) is settled by replaying the log: the table after seq N must be exactly
what the live table was after its N-th event, and nothing after a broken link is shown.
"""

from __future__ import annotations

import sqlite3

import pytest
from challenge_tables import PROCTOR, Table, options

from server.audit.replay import ReplayError, fold_table, replay_table
from server.eventlog.envelope import NewEvent
from server.eventlog.store import open_blocking_store
from server.games.base import Actor

STREAM = "table/protest"


@pytest.fixture
def recorded(tmp_path):
    """A round of three cards played live; each event stored as the shell stores it."""
    table = Table.started(seats=4, cards=["c1", "c2", "c3"])
    live_states = [None, table.state]  # after seq 1 (TableCreated) and seq 2 (RoundStarted)
    table.next_card()
    table.win("s2")
    table.next_card()
    table.advance(16).fire("no_touch_deadline")
    table.next_card()
    table.do("touch_card", Actor("player", "s3"))
    table.advance(4).fire("pattern_deadline")
    url = f"sqlite:///{tmp_path / 'log.sqlite'}"
    store = open_blocking_store(url)
    new = [NewEvent("TableCreated", {"game": "challenge", "options": table.raw_options})]
    new += [NewEvent(event.type, dict(event.data), PROCTOR) for event in table.events]
    store.append(STREAM, 0, new)
    return store, table, url, live_states


def test_every_moment_is_the_live_state_after_that_event(recorded):
    store, table, _url, _ = recorded
    replayed = replay_table(store, STREAM)
    assert replayed.report.ok and replayed.game == "challenge"
    assert [m.seq for m in replayed.moments] == list(range(1, len(table.events) + 2))
    assert replayed.moments[-1].state == table.state
    assert replayed.moments[-1].view["scores"] == {"s1": 0, "s2": 1, "s3": 0, "s4": 0}
    # The moment a flag was issued, as an official asks for it by seq.
    flag = next(m for m in replayed.moments if m.type == "FlagIssued")
    assert flag.data["cause"] == "no_pattern" and flag.data["seat"] == "s3"
    assert replayed.at_seq(flag.seq).view["seats"][2]["flags"] == 1
    assert replayed.at_seq(flag.seq - 1).view["seats"][2]["flags"] == 0


def test_a_broken_chain_replays_only_up_to_its_last_good_event(recorded, tmp_path):
    store, table, url, _ = recorded
    store.close()
    connection = sqlite3.connect(url[len("sqlite:///") :])
    connection.execute("UPDATE events SET body = CAST(body || x'00' AS BLOB) WHERE seq = 5")
    connection.commit()
    connection.close()
    store = open_blocking_store(url, create=False)
    replayed = replay_table(store, STREAM)
    assert not replayed.report.ok and replayed.report.broken_seq == 5
    assert [m.seq for m in replayed.moments] == [1, 2, 3, 4]
    with pytest.raises(ReplayError, match="has seqs 1..4, not 5"):
        replayed.at_seq(5)


def test_what_cannot_be_replayed_is_a_replay_error(recorded):
    store, _table, _url, _ = recorded
    with pytest.raises(ReplayError, match="no stream 'table/nope' \\(tables: table/protest\\)"):
        replay_table(store, "table/nope")
    store.append("misc", 0, [NewEvent("Something")])
    with pytest.raises(ReplayError, match="not a table"):
        replay_table(store, "misc")
    store.append("table/odd", 0, [NewEvent("TableCreated", {"game": "chess", "options": {}})])
    with pytest.raises(ReplayError, match="unknown game 'chess'"):
        replay_table(store, "table/odd")


def test_a_players_replay_hides_what_players_could_not_see():
    table = Table(options(seats=3, cards=["c1", "c2"]))
    table.do("start_round")
    table.do("place_card")

    class Recorded:
        def __init__(self, seq, type_, data):
            self.seq, self.type, self.data = seq, type_, data
            self.at, self.actor = data.get("at", 0), {"role": "proctor", "id": "p1"}

    created = Recorded(1, "TableCreated", {"game": "challenge", "options": table.raw_options})
    events = [created] + [Recorded(i + 2, e.type, e.data) for i, e in enumerate(table.events)]
    _game, as_player = fold_table(events, Actor("player", "s1"))
    _game, as_auditor = fold_table(events)
    assert as_player[-1].view["card"]["numbers"] is None
    assert as_auditor[-1].view["card"]["numbers"] == [1, 1, 1, 8]
