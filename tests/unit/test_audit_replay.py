"""Replaying a recorded table to any point (server/audit/replay.py) and audit exports
(server/audit/export.py), on a real SQLite file.

A protest (R-ROUND-8) is settled by replaying the log: the table after seq N must be exactly
what the live table was after its N-th event, and nothing after a broken link is shown. An
export is checked from the file alone: no edit of it may pass unnoticed.
"""

from __future__ import annotations

import base64
import json
import sqlite3

import pytest
from challenge_tables import PROCTOR, Table, options
from hypothesis import given, settings
from hypothesis import strategies as st

from server.audit.export import ExportError, check_export, export_stream
from server.audit.replay import ReplayError, fold_table, replay_export, replay_table
from server.eventlog.backends import open_blocking_store
from server.eventlog.envelope import NewEvent
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


def break_seq_5(store, url):
    """Append a byte to the recorded body of seq 5 behind the store's back; reopen it."""
    store.close()
    connection = sqlite3.connect(url[len("sqlite:///") :])
    connection.execute("UPDATE events SET body = CAST(body || x'00' AS BLOB) WHERE seq = 5")
    connection.commit()
    connection.close()
    return open_blocking_store(url, create=False)


def test_a_broken_chain_replays_only_up_to_its_last_good_event(recorded, tmp_path):
    store, table, url, _ = recorded
    store = break_seq_5(store, url)
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


# -- audit exports -------------------------------------------------------------------------

EXPORTED_AT = 1_800_000_000_000_000


def exported(store) -> list[str]:
    return list(export_stream(store, STREAM, EXPORTED_AT).lines)


def test_an_export_checks_from_the_file_alone_and_replays_like_the_store(recorded):
    store, table, _url, _ = recorded
    lines = exported(store)
    header = json.loads(lines[0])
    report = store.verify(STREAM)
    assert header["stream"] == STREAM and header["events"] == len(lines) - 1 == report.events
    assert header["head"]["last_hash"] == report.head_hash.hex()
    assert header["store_audit"] == report.describe()
    assert header["exported_at"] == "2027-01-15T08:00:00.000000Z"
    checked = check_export(lines)
    assert checked.report == report  # the same verdict as `t24 log verify` on the store
    assert list(checked.events) == store.read(STREAM)
    from_file, from_store = replay_export(checked), replay_table(store, STREAM)
    assert [m.state for m in from_file.moments] == [m.state for m in from_store.moments]
    assert from_file.moments[-1].state == table.state
    first = json.loads(lines[1])
    assert first["event"]["type"] == "TableCreated" and first["seq"] == 1


def test_a_broken_stream_exports_as_recorded_and_the_file_shows_the_same_break(recorded):
    store, _table, url, _ = recorded
    store = break_seq_5(store, url)
    lines = exported(store)
    assert json.loads(lines[0])["store_audit"].startswith("BROKEN table/protest at seq 5")
    checked = check_export(lines)
    assert checked.report == store.verify(STREAM)
    assert [event.seq for event in checked.events] == [1, 2, 3, 4]
    assert [m.seq for m in replay_export(checked).moments] == [1, 2, 3, 4]


def edit(lines: list[str], index: int, change) -> list[str]:
    record = json.loads(lines[index])
    change(record)
    return [*lines[:index], json.dumps(record), *lines[index + 1 :]]


def set_body(record, body: bytes) -> None:
    record["body"] = base64.b64encode(body).decode()


@pytest.mark.parametrize(
    ("index", "change", "broken_seq", "reason"),
    [
        (3, lambda r: set_body(r, base64.b64decode(r["body"]) + b"\0"), 3, "hash does not match"),
        (3, lambda r: r["event"]["data"].update(seat="s9"), 3, "readable copy"),
        (4, lambda r: r.update(prev_hash="00" * 32), 4, "prev_hash is not"),
        (0, lambda r: r["head"].update(last_hash="00" * 32), None, "head's hash differs"),
        (0, lambda r: r["head"].update(last_seq=r["head"]["last_seq"] + 1), None, "head records"),
    ],
)
def test_every_kind_of_edit_is_found(recorded, index, change, broken_seq, reason):
    store, _table, _url, _ = recorded
    report = check_export(edit(exported(store), index, change)).report
    assert not report.ok and reason in report.reason
    assert broken_seq is None or report.broken_seq == broken_seq


def test_dropped_or_swapped_lines_are_found(recorded):
    store, _table, _url, _ = recorded
    lines = exported(store)
    header = json.loads(lines[0])
    header["events"] -= 1
    truncated = [json.dumps(header), *lines[1:-1]]
    assert "head records last seq" in check_export(truncated).report.reason
    swapped = [lines[0], lines[1], lines[3], lines[2], *lines[4:]]
    assert check_export(swapped).report.broken_seq == 2
    with pytest.raises(ExportError, match="announces"):
        check_export(lines[:-1])


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([], "not JSON"),
        (["not json"], "line 1: not JSON"),
        (["[1, 2]"], "not a JSON object"),
        (['{"format": "t24-event-export", "version": 2}'], "version 1"),
        (['{"format": "t24-event-export", "version": 1, "stream": ""}'], "line 1"),
    ],
)
def test_what_is_not_an_export_is_an_export_error(lines, message):
    with pytest.raises(ExportError, match=message):
        check_export(lines)


def test_a_header_naming_another_genesis_is_an_export_error(recorded):
    store, _table, _url, _ = recorded
    lines = edit(exported(store), 0, lambda header: header.update(genesis="00" * 32))
    with pytest.raises(ExportError, match="line 1: 'genesis' is not the genesis hash"):
        check_export(lines)


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("seq", "2", "'seq' is a whole number"),
        ("body", "***", "base64"),
        ("hash", "xyz", "64 hex digits"),
        ("hash", "ab " * 21 + "a", "64 hex digits"),
        ("prev_hash", None, "64 hex digits"),
    ],
)
def test_a_damaged_event_line_is_an_export_error_with_its_line(recorded, field, value, message):
    store, _table, _url, _ = recorded
    lines = edit(exported(store), 2, lambda record: record.update({field: value}))
    with pytest.raises(ExportError, match=f"line 3: .*{message}"):
        check_export(lines)


def test_an_empty_stream_cannot_be_exported(recorded):
    store, _table, _url, _ = recorded
    with pytest.raises(ExportError, match="no stream 'table/nope'"):
        export_stream(store, "table/nope", EXPORTED_AT)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_no_single_byte_of_a_recorded_body_can_change_unnoticed(recorded_once, data):
    lines = recorded_once
    index = data.draw(st.integers(1, len(lines) - 1), label="line")
    body = bytearray(base64.b64decode(json.loads(lines[index])["body"]))
    position = data.draw(st.integers(0, len(body) - 1), label="byte")
    body[position] ^= data.draw(st.integers(1, 255), label="xor")
    report = check_export(edit(lines, index, lambda r: set_body(r, bytes(body)))).report
    assert not report.ok and report.broken_seq == index


@pytest.fixture(scope="module")
def recorded_once(tmp_path_factory):
    """One export for the property test (hypothesis runs many examples on one fixture)."""
    table = Table.started(seats=3, cards=["c1", "c2"])
    table.next_card()
    table.win("s1")
    url = f"sqlite:///{tmp_path_factory.mktemp('export') / 'log.sqlite'}"
    store = open_blocking_store(url)
    new = [NewEvent("TableCreated", {"game": "challenge", "options": table.raw_options})]
    store.append(STREAM, 0, new + [NewEvent(e.type, dict(e.data), PROCTOR) for e in table.events])
    lines = exported(store)
    store.close()
    return lines
