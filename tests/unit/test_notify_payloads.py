"""The `t24_events` notification of a PostgreSQL group commit (issue 32): one payload per
commit naming every stream written, split only past PostgreSQL's payload limit, and read
back by other nodes' feeds while the writing node's own feed drops it unread."""

from __future__ import annotations

from server.eventlog.notices import (
    NOTIFY_PAYLOAD_BYTES,
    notify_payloads,
    parse_notify_payload,
)


def test_a_commit_of_many_streams_is_one_payload_read_back_whole_by_another_node():
    heads = [(f"table/t{i}", i + 1) for i in range(100)] + [("table/with space", 7)]
    (payload,) = notify_payloads("t24", "node-a", heads)
    assert parse_notify_payload(payload, "t24", "node-b") == heads


def test_the_writing_node_and_other_schemas_drop_it():
    (payload,) = notify_payloads("t24", "node-a", [("table/t1", 3)])
    assert parse_notify_payload(payload, "t24", "node-a") is None
    assert parse_notify_payload(payload, "other", "node-b") is None


def test_a_commit_past_the_payload_limit_is_split_and_nothing_is_lost():
    heads = [(f"table/{'x' * 200}-{i}", i) for i in range(200)]  # about 42,000 bytes
    payloads = notify_payloads("t24", "node-a", heads)
    assert len(payloads) > 1
    assert all(len(p.encode()) <= NOTIFY_PAYLOAD_BYTES for p in payloads)
    read = [pair for p in payloads for pair in parse_notify_payload(p, "t24", "node-b") or []]
    assert read == heads


def test_a_payload_of_the_old_one_line_format_is_ignored_not_misread():
    assert parse_notify_payload("t24 table/t1 3", "t24", "node-b") is None
