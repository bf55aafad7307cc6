"""A live table keeps its last events in memory, not its whole log (issue 18: the soak's RSS
grew with every table's log): a join or a `view_at` from further back reads the older part
from the store, with no gap and no duplicate (server/runtime/table_actor.py)."""

from __future__ import annotations

import toygame
from shell_testcase import ShellTestCase
from test_net import TOY_OPTIONS, make_session, say, token
from twisted.internet.defer import Deferred
from twisted.internet.task import Clock

from server.eventlog.store import open_store
from server.games.base import Actor, Command
from server.net.requests import CATCH_UP_READS
from server.runtime.hub import Hub
from server.runtime.table_actor import MEMORY_EVENTS, TRIM_STEP, now_us
from server.runtime.view_at import view_at

T0 = 1_700_000_000.0
PROCTOR = Actor("proctor", "p")


class HeldReads:
    """A store whose reads wait until `release()` (the appends go through at once)."""

    def __init__(self, store) -> None:
        self.store = store
        self.held: list[tuple[Deferred, tuple, dict]] = []

    def read(self, *args, **kwargs):
        d: Deferred = Deferred()
        self.held.append((d, args, kwargs))
        return d

    def release(self) -> None:
        held, self.held = self.held, []
        for d, args, kwargs in held:
            self.store.read(*args, **kwargs).chainDeferred(d)

    def __getattr__(self, name):
        return getattr(self.store, name)


class EventWindowTests(ShellTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.clock = Clock()
        self.clock.advance(T0)
        self.store = open_store("memory:", clock=self.clock.seconds)
        self.hub = Hub(self.store, self.clock, games={toygame.NAME: toygame})
        self.actor = self.play(MEMORY_EVENTS + 2 * TRIM_STEP)

    def play(self, events: int):
        """Given: toy table t with `events` events or one more (a start, then pauses and
        resumes)."""
        director, wire = self.connected("director")
        say(director, "create_table", id=2, table="t", game="toy", options=TOY_OPTIONS)
        assert wire.messages()[0]["type"] == "table_created"
        actor = self.hub.actors["t"]
        self.submit(actor, "start")
        while actor.seq < events:
            self.submit(actor, "pause")
            self.submit(actor, "resume")
        return actor

    def submit(self, actor, name: str) -> None:
        actor.submit(Command(name, {}, PROCTOR), now_us(self.clock))

    def connected(self, role: str, **claims):
        session, wire = make_session(self.hub, self.clock, rate_burst=10_000, rate_per_second=1)
        say(session, "hello", id=1, token=token(role, **claims))
        assert wire.messages()[0]["type"] == "welcome"
        return session, wire

    def test_only_the_last_events_stay_in_memory(self):
        actor = self.actor
        assert MEMORY_EVENTS <= len(actor.events) <= MEMORY_EVENTS + TRIM_STEP
        assert actor.events[-1].seq == actor.seq and actor.events[0].seq > 1
        assert [e.seq for e in actor.events] == list(range(actor.events[0].seq, actor.seq + 1))

    def test_a_join_from_the_start_gets_every_event_once_in_order(self):
        spectator, wire = self.connected("spectator", name="s")
        for after_seq in (0, self.actor.events[0].seq - 2, self.actor.seq - 3):
            say(spectator, "join", id=5, table="t", after_seq=after_seq)
            snapshot, *pushes = wire.messages()
            assert snapshot["type"] == "snapshot" and snapshot["seq"] == self.actor.seq
            seqs = [push["seq"] for push in pushes]
            assert seqs == list(range(after_seq + 1, self.actor.seq + 1)), after_seq
        self.submit(self.actor, "pause")  # and the live pushes follow on
        assert [push["seq"] for push in wire.messages()] == [self.actor.seq]

    def test_the_catch_up_read_from_the_store_is_redacted_like_the_rest(self):
        player, wire = self.connected("player", table="t", seat="s1")
        say(player, "join", id=5, table="t", after_seq=0)
        _snapshot, created, *_rest = wire.messages()
        assert created["event_type"] == "TableCreated"
        assert "secret" not in str(created["data"])  # the toy's secret stays hidden

    def test_view_at_an_old_step_reads_the_log_from_the_store(self):
        auditor, wire = self.connected("auditor", name="a")
        say(auditor, "query", id=7, table="t", name="view_at", args={"seq": 2})
        (answer,) = wire.messages()
        assert answer["type"] == "answer" and answer["seq"] == 2
        full = self.store.read("table/t")
        log: list = []
        full.addCallback(log.extend)
        expected = view_at(self.actor, {"seq": 2}, Actor("auditor", "a"), log)
        assert answer["result"] == expected.result

    def test_a_table_that_outruns_the_catch_up_reads_answers_unavailable(self):
        held = HeldReads(self.store)
        self.actor.store = held
        spectator, wire = self.connected("spectator", name="s")
        say(spectator, "join", id=5, table="t", after_seq=0)
        for _ in range(CATCH_UP_READS):  # each read answered after a trim's worth more
            while len(self.actor.events) <= MEMORY_EVENTS + TRIM_STEP - 2:
                self.submit(self.actor, "pause")
                self.submit(self.actor, "resume")
            self.submit(self.actor, "pause")
            self.submit(self.actor, "resume")
            assert wire.messages() == []  # nothing sent while its catch-up is not read
            held.release()
        (refusal,) = [m for m in wire.messages() if m["type"] == "error"]
        assert refusal["id"] == 5 and refusal["code"] == "unavailable"
        say(spectator, "join", id=6, table="t", after_seq=self.actor.seq - 1)  # still usable
        assert [m["type"] for m in wire.messages()] == ["snapshot", "event"]
