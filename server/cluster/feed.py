"""Cross-node pushes: PostgreSQL `LISTEN/NOTIFY` tells a node that another node's table grew.

Why: a spectator of many tables (a scoreboard, a tournament's standings) should not need a
connection to every node. A node serves such a viewer a read-only *replica* of a table
another node owns (`Hub.replica`), and keeps it current from the store: every fenced group
commit also runs `pg_notify('t24_events', ...)` in its transaction (sent on commit only),
one payload naming the schema, the node and each stream written with the seq it reached
(server/eventlog/postgres.py, `notify_payloads`), and this feed's own connection LISTENs.
It drops its own node's payloads unread (a node never holds a replica of a table it
serves: `Replicas.retire`) and hands each other one to the reactor once. The payload says
only which stream reached which seq; the events themselves are read from the store after
the replica's seq, so a notification lost (a reconnect, a full queue) is made good by the
next one: catch-up by seq, never by trusting the payload. For the same reason every
(re)connection of the LISTEN calls `on_listening`, so the hub catches every replica up by
seq: whatever was committed while the feed was not listening is read then.

The feed also LISTENs on `t24_handoff` (server/cluster/leases.py, `LeaseBook.hand_off`):
payload `<schema> <node>`, a lease handed to that node, which takes it at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from twisted.logger import Logger

from server.cluster.leases import HANDOFF_CHANNEL
from server.eventlog.notices import parse_notify_payload

CHANNEL = "t24_events"

log = Logger(namespace="t24.feed")


class NotifyFeed:
    """One LISTEN connection on a thread of its own; calls `on_event(stream, seq)` on the
    reactor thread for every stream another node's commit wrote (its own are dropped here)."""

    def __init__(
        self,
        conninfo: str,
        schema: str,
        reactor: Any,
        on_event: Callable[[str, int], None],
        on_handoff: Callable[[str], None] | None = None,
        on_listening: Callable[[], None] | None = None,
        node: str = "",
    ) -> None:
        self.conninfo = conninfo
        self.node = node  # this node's id: its own commits' notifications are dropped
        self.schema = schema
        self.reactor = reactor
        self.on_event = on_event
        self.on_handoff = on_handoff
        self.on_listening = on_listening
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="t24-feed", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()

    def _run(self) -> None:
        import psycopg  # here: a server on SQLite never starts a feed (server/cluster/leases.py)

        while not self._stopping.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    connection.execute(f"LISTEN {HANDOFF_CHANNEL}")
                    if self.on_listening is not None:  # catch up what was missed meanwhile
                        self.reactor.callFromThread(self.on_listening)
                    while not self._stopping.is_set():
                        for notify in connection.notifies(timeout=0.5, stop_after=1000):
                            if notify.channel == HANDOFF_CHANNEL:
                                self._handed(notify.payload)
                            else:
                                self._deliver(notify.payload)
            except psycopg.Error as error:
                log.warn("notify feed: {why}; reconnecting", why=str(error))
                self._stopping.wait(1.0)

    def _handed(self, payload: str) -> None:
        schema, _, node = payload.partition(" ")
        if schema == self.schema and node and self.on_handoff is not None:
            self.reactor.callFromThread(self.on_handoff, node)

    def _deliver(self, payload: str) -> None:
        """One commit's notification (`notify_payloads`): one hop to the reactor for all of
        its streams, none for this node's own commits."""
        pairs = parse_notify_payload(payload, self.schema, self.node)
        if pairs:
            self.reactor.callFromThread(self._on_events, pairs)

    def _on_events(self, pairs: list[tuple[str, int]]) -> None:
        for stream, seq in pairs:
            self.on_event(stream, seq)
