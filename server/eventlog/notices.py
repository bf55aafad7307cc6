"""The `t24_events` notification of a PostgreSQL group commit: its payloads, written and read.

What it keeps: the payload format, in one place for the writer (server/eventlog/postgres.py,
inside the append's transaction) and the reader (server/cluster/feed.py, a node's LISTEN
connection). No psycopg here: the format is plain text, tested without a database.

Format: `<schema>` NL `<node>` NL then one line `<stream> <seq>` per stream the commit wrote
(the seq it reached). Lines, because a stream name holds no control character
(`envelope.check_stream`) but may hold spaces, so each line is split at its last space.
"""

from __future__ import annotations

from collections.abc import Sequence

# One NOTIFY payload at most (PostgreSQL refuses 8,000 bytes or more); a commit's heads that
# do not fit go in several.
NOTIFY_PAYLOAD_BYTES = 7_900


def notify_payloads(schema: str, node: str, heads: Sequence[tuple[str, int]]) -> list[str]:
    """The `t24_events` payloads of one commit: `<schema>`, `<node>`, then one line
    `<stream> <seq>` per stream written, as few payloads as fit (issue 32).

    Why one per commit and not one per stream: every payload is a notification PostgreSQL
    queues for every listening node and each node's feed hands to its reactor; a group
    commit of a hundred tables cost a hundred of each. Lines, because a stream name holds no
    control character (`check_stream`) but may hold spaces; the node, so that a node's feed
    drops its own commits unread (server/cluster/feed.py)."""
    header = f"{schema}\n{node}"
    payloads: list[str] = []
    lines: list[str] = []
    size = len(header.encode())
    for stream, seq in heads:
        line = f"{stream} {seq}"
        grown = len(line.encode()) + 1
        if lines and size + grown > NOTIFY_PAYLOAD_BYTES:
            payloads.append("\n".join([header, *lines]))
            lines, size = [], len(header.encode())
        lines.append(line)
        size += grown
    if lines:
        payloads.append("\n".join([header, *lines]))
    return payloads


def parse_notify_payload(payload: str, schema: str, own_node: str) -> list[tuple[str, int]] | None:
    """The (stream, seq) pairs of a `t24_events` payload (`notify_payloads`), or None when it
    is another schema's or this node's own (its replicas never copy its own tables)."""
    header_schema, _, rest = payload.partition("\n")
    node, _, body = rest.partition("\n")
    if header_schema != schema or (own_node and node == own_node):
        return None
    pairs = []
    for line in body.split("\n"):
        stream, _, seq = line.rpartition(" ")
        if stream and seq.isdigit():
            pairs.append((stream, int(seq)))
    return pairs
