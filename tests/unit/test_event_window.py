"""A live table holds a window of recent events, not its log (issue 18, the soak's RSS).

server/runtime/table_actor.py keeps at most `RECENT_EVENTS` events in memory; a join from
further back registers at once and takes the older pushes a page at a time
(server/runtime/catch_up.py, issue 33) from the hub's shared cache of encoded chunks
(server/runtime/pushes.py, `PushChunks`), reading from the store the chunks it lacks. These
tests run a real memory store under a task.Clock, with a table many times longer than the
window, and compare every catch-up with the store: the whole seq list, no gap, no
duplicate, even when appends land while the first page is read or between two pages.
`view_at` of old steps equals the replay, with its checkpoints bounded.
"""

from __future__ import annotations

from shell_testcase import ShellTestCase
from test_runtime import OPTIONS, PROCTOR, SPECTATOR, Recorder, make_clock, result_of, us
from twisted.internet import defer

from protocol.codec import decode
from server.eventlog.backends import open_store
from server.eventlog.store import StoreUnavailable
from server.games import challenge
from server.games.base import Actor, Command, Event
from server.runtime import view_at as view_at_module
from server.runtime.catch_up import PAGE_CHUNKS, CatchUp
from server.runtime.hub import Hub
from server.runtime.pushes import (
    CHUNK_EVENTS,
    TABLE_SHARE,
    PushChunks,
    StoredPush,
    event_message,
)
from server.runtime.redaction import redacted_data
from server.runtime.table_actor import RECENT_EVENTS

DIRECTOR = Actor("director", "d")
OTHER_SPECTATOR = Actor("spectator", "another")  # the same redaction group
LONG = 700  # events of the long table: almost three windows


class CountingStore:
    """The real memory store; counts reads, and holds them while `hold` is set (each read's
    result waits in `held` until `release()`, as a thread-pool store's would)."""

    def __init__(self, store) -> None:
        self.store = store
        self.reads: list[tuple[int, int | None]] = []
        self.hold = False
        self.held: list[tuple[defer.Deferred, object]] = []
        self.on_read = None  # called before each read (a table moving on meanwhile)
        self.fail_after = None  # reads that succeed before every later one fails

    def read(self, stream, after_seq=0, limit=None):
        self.reads.append((after_seq, limit))
        if self.on_read is not None:
            self.on_read()
        if self.fail_after is not None and len(self.reads) > self.fail_after:
            return defer.fail(StoreUnavailable("the store went away"))
        real = self.store.read(stream, after_seq, limit)
        if not self.hold:
            return real
        d = defer.Deferred()
        real.addBoth(lambda result: self.held.append((d, result)))
        return d

    def release(self) -> None:
        held, self.held = self.held, []
        for d, result in held:
            d.callback(result)

    def __getattr__(self, name):
        return getattr(self.store, name)


def pause_resume(actor, clock, count: int) -> None:
    """`count` more events (pause and resume), one append each."""
    for n in range(count):
        name = "resume_table" if actor.state.paused else "pause_table"
        args = {} if name == "resume_table" else {"cause": "tea"}
        result_of(actor.submit(Command(name, args, PROCTOR), us(clock)))
        assert len(actor.events) <= RECENT_EVENTS, n


def expected(store, actor, viewer, after_seq: int) -> list[dict]:
    """The catch-up messages of every event after `after_seq`, from the store."""
    events = result_of(store.store.read(actor.stream, after_seq))
    return [
        event_message(
            actor.table,
            event,
            redacted_data(actor.redact, Event(event.type, event.data), viewer),
        )
        for event in events
    ]


def catch_up_pushes(snapshot) -> list:
    """The whole catch-up, page after page (the older part first, as it is sent)."""
    catch_up, pushes = CatchUp(snapshot.older, snapshot.catch_up), []
    while (page := catch_up.next_page()) is not None:
        pushes += result_of(page) if isinstance(page, defer.Deferred) else page
    return pushes


def catch_up_messages(snapshot) -> list[dict]:
    """Each catch-up push as its client decodes it (the frame is what is sent)."""
    return [decode(push.frame) for push in catch_up_pushes(snapshot)]


class WindowCase(ShellTestCase):
    """A hub on a counting memory store, with one table `long` of `LONG` events."""

    def setUp(self):
        super().setUp()
        self.clock = make_clock()
        self.store = CountingStore(open_store("memory:", clock=self.clock.seconds))
        self.hub = Hub(self.store, self.clock)
        self.actor = result_of(self.hub.create_table("long", "challenge", OPTIONS, DIRECTOR))
        result_of(self.actor.submit(Command("start_round", {}, PROCTOR), us(self.clock)))
        pause_resume(self.actor, self.clock, LONG - self.actor.seq)

    def join(self, viewer: Actor, after_seq: int | None):
        subscriber = Recorder(viewer)
        return subscriber, result_of(self.actor.join(subscriber, after_seq))


class WindowTests(WindowCase):
    def test_a_table_holds_at_most_its_window_whatever_its_length(self):
        actor = self.actor
        assert actor.seq == LONG and len(actor.events) <= RECENT_EVENTS
        assert (actor.first_seq - 1) % CHUNK_EVENTS == 0  # the window starts after a chunk
        assert [e.seq for e in actor.events] == list(range(actor.first_seq, LONG + 1))
        # what a tournament reads (the table's start, long out of the window) is kept
        assert actor.last_events["RoundStarted"].seq == 2
        assert actor.last_events["TableCreated"].seq == 1
        reloaded = result_of(Hub(self.store, self.clock).get("long"))  # a restart: the same
        assert [e.seq for e in reloaded.events] == [e.seq for e in actor.events]
        assert reloaded.state == actor.state

    def test_joins_from_0_and_from_inside_and_outside_the_window_get_exactly_the_log(self):
        actor, store = self.actor, self.store
        first = actor.first_seq
        for after_seq in (0, 1, 63, 64, 65, 300, first - 2, first - 1, first, LONG - 1, LONG):
            for viewer in (SPECTATOR, PROCTOR):
                _subscriber, snapshot = self.join(viewer, after_seq)
                assert snapshot.missed == LONG - after_seq  # what the join is charged by
                got = catch_up_messages(snapshot)
                assert got == expected(store, actor, viewer, after_seq), (after_seq, viewer)
                assert snapshot.seq == LONG
        # a join without after_seq: nothing to catch up
        assert self.join(SPECTATOR, None)[1].catch_up == []
        # a negative after_seq (the protocol says int) asks for the whole log, as 0 does
        whole = catch_up_messages(self.join(SPECTATOR, -5)[1])
        assert whole == expected(store, actor, SPECTATOR, 0)

    def test_a_storm_from_seq_0_reads_the_store_once_per_page_and_redaction_group(self):
        store = self.store
        chunks = (self.actor.first_seq - 1) // CHUNK_EVENTS
        pages = -(-chunks // PAGE_CHUNKS)
        assert pages > 1  # the older part takes several pages
        catch_up_pushes(self.join(SPECTATOR, 0)[1])
        assert [limit for _after, limit in store.reads] == [
            min(PAGE_CHUNKS, chunks - page * PAGE_CHUNKS) * CHUNK_EVENTS for page in range(pages)
        ]  # one read a page, each page once
        reads = len(store.reads)
        for viewer in (SPECTATOR, OTHER_SPECTATOR, Actor("player", "s1")):  # one group
            catch_up_pushes(self.join(viewer, 0)[1])
        assert len(store.reads) == reads  # served from the cache
        catch_up_pushes(self.join(PROCTOR, 0)[1])  # the full-view group: its own chunks
        assert len(store.reads) == reads + pages
        whole = catch_up_pushes(self.join(PROCTOR, 0)[1])
        assert all(isinstance(p, StoredPush) for p in whole[:CHUNK_EVENTS])

    def test_a_far_back_join_holds_one_page_before_it_is_sent(self):
        """Only the first page is read before the registration; the next one is read when
        the previous one is sent (a catch-up never holds the older part whole)."""
        store = self.store
        _subscriber, snapshot = self.join(SPECTATOR, 0)
        assert len(store.reads) == 1 and snapshot.catch_up[0].message["seq"] > 64
        catch_up = CatchUp(snapshot.older, snapshot.catch_up)
        first = catch_up.next_page()
        assert [p.message["seq"] for p in first] == list(range(1, PAGE_CHUNKS * 64 + 1))
        assert len(store.reads) == 1
        second = result_of(catch_up.next_page())
        assert len(store.reads) == 2 and second[0].message["seq"] == PAGE_CHUNKS * 64 + 1

    def test_appends_while_the_first_page_is_read_leave_no_gap(self):
        """The first page is read while the table moves on by less than a chunk, then by
        several (its window slides past the page read): the catch-up plus the live pushes
        are exactly the store's seqs, then live ones follow."""
        actor, store, clock = self.actor, self.store, self.clock
        for viewer, moved in ((SPECTATOR, 3), (PROCTOR, 3 * CHUNK_EVENTS + 7)):
            subscriber = Recorder(viewer)
            store.hold = True
            d = actor.join(subscriber, 0)
            store.hold = False
            first = actor.first_seq
            pause_resume(actor, clock, moved)  # the table moves on during the read
            assert (actor.first_seq != first) == (moved > CHUNK_EVENTS)
            store.release()
            snapshot = result_of(d)
            assert snapshot.seq == actor.seq
            pause_resume(actor, clock, 3)  # live pushes after the registration
            seqs = [m["seq"] for m in catch_up_messages(snapshot)]
            seqs += [m["seq"] for m in subscriber.messages]
            stored = [e.seq for e in result_of(store.store.read(actor.stream))]
            assert seqs == stored, moved  # every seq once, in order
            actor.unsubscribe(subscriber)

    def test_a_table_that_moves_on_between_every_page_leaves_no_gap(self):
        """The window slides by more than a page while each page is read: the catch-up is
        the range fixed at the registration, the live pushes the rest, nothing twice."""
        actor, store, clock = self.actor, self.store, self.clock
        subscriber = Recorder(SPECTATOR)
        snapshot = result_of(actor.join(subscriber, 0))
        registered = actor.seq

        def move_on():  # each read is overtaken by more than a page of events
            store.on_read = None
            pause_resume(actor, clock, PAGE_CHUNKS * CHUNK_EVENTS + 1)
            store.on_read = move_on

        store.on_read = move_on
        pushes = catch_up_pushes(snapshot)
        store.on_read = None
        assert actor.first_seq > registered  # the whole catch-up is out of the window now
        seqs = [p.message["seq"] for p in pushes]
        assert seqs == list(range(1, registered + 1))
        seqs += [m["seq"] for m in subscriber.messages]
        assert seqs == [e.seq for e in result_of(store.store.read(actor.stream))]

    def test_a_store_that_fails_on_the_first_page_registers_nothing(self):
        actor, store = self.actor, self.store
        subscriber = Recorder(SPECTATOR)
        store.fail_after = 0
        failures = []
        actor.join(subscriber, 0).addErrback(failures.append)
        assert failures and failures[0].check(StoreUnavailable)
        assert subscriber not in actor.subscribers
        assert actor.joining == 0  # it may be evicted again once quiet

    def test_view_at_old_steps_equals_the_replay_and_keeps_few_checkpoints(self):
        actor, store = self.actor, self.store
        events = result_of(store.store.read(actor.stream))
        states = [challenge.initial_state(events[0].data["options"])]
        for event in events[1:]:
            states.append(challenge.evolve(states[-1], Event(event.type, event.data)))
        original = view_at_module.MAX_CHECKPOINTS
        view_at_module.MAX_CHECKPOINTS = 4
        self.addCleanup(setattr, view_at_module, "MAX_CHECKPOINTS", original)
        first = actor.first_seq
        for seq in (LONG - 1, 2, 51, 300, 301, 302, first - 1, first, 600, 1):
            for viewer in (SPECTATOR, PROCTOR):
                found = result_of(view_at_module.view_at(actor, {"seq": seq}, viewer))
                assert found.result["view"] == challenge.view(states[seq - 1], viewer), seq
                event = events[seq - 1]
                assert found.result["at"] == event.data.get("at", event.at)
        kept = view_at_module._checkpoints[actor]
        assert len(kept.states) <= 4 and len(kept.recent) <= view_at_module.RECENT_ANSWERS
        assert kept.every > view_at_module.CHECKPOINT_EVERY  # thinned as the table grew
        # stepping forward one seq at a time folds one event a step
        result_of(view_at_module.view_at(actor, {"seq": 403}, SPECTATOR))
        steps = [view_at_module.view_at(actor, {"seq": s}, SPECTATOR) for s in (404, 405, 406)]
        assert [result_of(d).folded for d in steps] == [1, 1, 1]


class FinishedTableTests(WindowCase):
    def test_a_quiet_finished_table_keeps_only_its_last_partial_chunk_until_evicted(self):
        """From the first sweep that finds it finished and unwatched, a table keeps its state
        and `last_events`, and of its events only those after its last whole chunk (issue
        33: the windows of tables waiting for eviction were the soak's memory); a join
        from any seq still gets exactly the log, the older part from the store."""
        actor, store, clock, hub = self.actor, self.store, self.clock, self.hub
        result_of(actor.submit(Command("end_round", {}, PROCTOR), us(clock)))
        watcher = Recorder(SPECTATOR)
        actor.subscribe(watcher)
        result_of(actor.submit(Command("sign_score_card", {"initials": "GH"}, PROCTOR), us(clock)))
        assert actor.is_over()
        state, last = actor.state, dict(actor.last_events)
        hub.evict_after = 600
        hub.evict_quiet_tables()  # watched: not quiet, its window stays
        assert len(actor.events) > CHUNK_EVENTS
        actor.unsubscribe(watcher)
        hub.evict_quiet_tables()  # the first sweep to find it quiet
        assert "long" in hub.actors  # not evicted yet
        assert [e.seq for e in actor.events] == list(
            range(actor.seq // CHUNK_EVENTS * CHUNK_EVENTS + 1, actor.seq + 1)
        )
        assert actor.state is state and actor.last_events == last
        for after_seq in (0, 100, actor.first_seq - 1, actor.seq - 1, actor.seq):
            _subscriber, snapshot = self.join(SPECTATOR, after_seq)
            assert catch_up_messages(snapshot) == expected(store, actor, SPECTATOR, after_seq)
            actor.unsubscribe(_subscriber)


class TournamentOnALongTableTests(WindowCase):
    def test_a_long_tables_result_and_start_are_read_from_its_last_events(self):
        """The tournament reads a table's result from its last signed event, and whether it
        was started from its last `RoundStarted`, not from a whole log in memory."""
        from server.runtime.process_actor import ProcessActor
        from server.tournament import process as tournament_process

        actor = self.actor
        assert actor.first_seq > 2  # RoundStarted left the window long ago
        result_of(actor.submit(Command("end_round", {}, PROCTOR), us(self.clock)))
        signed = result_of(
            actor.submit(Command("sign_score_card", {"initials": "GH"}, PROCTOR), us(self.clock))
        )
        started = []
        actor.submit = lambda *args, **kwargs: started.append(args)  # must not be called
        tournament = ProcessActor.__new__(ProcessActor)
        tournament.process = tournament_process  # the pure half: what it reads of a table
        assert ProcessActor._start_if_needed(tournament, actor) is actor and started == []
        from server.tournament.results import SIGNED, table_result

        whole = result_of(self.store.store.read(actor.stream))
        assert table_result([actor.last_events[SIGNED]]) == table_result(whole)
        assert table_result(whole)["seq"] == signed[-1].seq


class PushChunksTests(ShellTestCase):
    def test_the_cache_honours_its_byte_bound_and_evicts_the_least_recently_used(self):
        def chunk(n: int) -> list[StoredPush]:
            return [StoredPush(bytes([n]) * 100) for _ in range(4)]

        size = sum(2 * len(p.frame) for p in chunk(0)) + 4 * 160  # as `put` counts it
        cache = PushChunks(max_bytes=TABLE_SHARE * size)  # a chunk a table, TABLE_SHARE in all
        for n in range(TABLE_SHARE):  # one chunk of each table
            cache.put((f"t{n}", "g", n), chunk(n))
        assert len(cache) == TABLE_SHARE and cache.bytes == TABLE_SHARE * size
        assert cache.get(("t0", "g", 0)) is not None  # 0 is now the most recently used
        cache.put(("t9", "g", 9), chunk(9))  # over the bound: the least recently used (1) goes
        assert cache.get(("t1", "g", 1)) is None
        kept = [cache.get((f"t{n}", "g", n)) is not None for n in (0, 2, 3, 9)]
        assert kept == [True] * 4
        assert cache.bytes == TABLE_SHARE * size <= cache.max_bytes
        cache.put(("t2", "g", 2), chunk(2))  # put again: counted once
        assert cache.bytes == TABLE_SHARE * size
        huge = PushChunks(max_bytes=size - 1)  # a chunk larger than the bound is not kept
        huge.put(("t", "g", 0), chunk(0))
        assert len(huge) == 0 and huge.bytes == 0
        none = PushChunks(max_bytes=0)  # catch_up_cache_bytes 0: no cache
        none.put(("t", "g", 0), chunk(0))
        assert len(none) == 0

    def test_one_table_takes_at_most_its_share_of_the_cache(self):
        """A replay of one long table keeps a quarter of the bound at most (issue 33); the
        other tables' chunks are still kept, and its own chunks count down as they go."""

        def chunk(n: int) -> list[StoredPush]:
            return [StoredPush(bytes([n]) * 100) for _ in range(4)]

        size = sum(2 * len(p.frame) for p in chunk(0)) + 4 * 160
        cache = PushChunks(max_bytes=TABLE_SHARE * 2 * size)  # two chunks a table
        for n in range(5):
            cache.put(("long", "g", n), chunk(n))
        assert cache.table_bytes("long") == 2 * size and cache.bytes == 2 * size
        assert [cache.get(("long", "g", n)) is not None for n in range(5)] == [True] * 2 + [
            False
        ] * 3
        for table in ("a", "b", "c"):
            cache.put((table, "g", 0), chunk(0))
        assert cache.bytes == 5 * size and cache.get(("a", "g", 0)) is not None
        cache.put(("long", "g", 0), chunk(0))  # again: counted once, still within its share
        assert cache.table_bytes("long") == 2 * size
        big = PushChunks(max_bytes=TABLE_SHARE * size)  # one chunk a table: fill the bound
        for table in range(TABLE_SHARE + 1):
            big.put((f"t{table}", "g", 0), chunk(0))
        assert big.bytes == TABLE_SHARE * size  # the least recently used table's went
        assert big.get(("t0", "g", 0)) is None and big.table_bytes("t0") == 0

    def test_a_stored_push_holds_its_frame_only(self):
        push = StoredPush(b"\x81\xa4type\xa5event")
        assert push.message == {"type": "event"} and push.wire is None
        assert not hasattr(push, "__dict__")


class SessionJoinTests(WindowCase):
    """A far-back join through a real `Session` (server/net/requests.py)."""

    def spectator(self, **config):
        from test_net import make_session, say, token

        session, wire = make_session(self.hub, self.clock, **config)
        say(session, "hello", id=1, token=token("spectator", name="w"))
        assert wire.messages()[0]["type"] == "welcome"
        return session, wire, say

    def test_a_far_back_join_is_sent_whole_and_charged_by_its_catch_up(self):
        session, wire, say = self.spectator(rate_burst=30, rate_per_second=1)
        say(session, "join", id=2, table="long", after_seq=0)
        messages = wire.messages()
        assert messages[0]["type"] == "snapshot" and messages[0]["seq"] == LONG
        assert [m["seq"] for m in messages[1:]] == list(range(1, LONG + 1))
        # hello 1, the join 1 and 700 // 50 = 14 more: 14 of the burst of 30 are left
        for n in range(14):
            say(session, "ping", id=10 + n)
        assert [m["type"] for m in wire.messages()] == ["pong"] * 14
        say(session, "ping", id=99)
        assert wire.messages()[0]["code"] == "rate_limited"

    def test_a_connection_that_closes_while_its_older_pushes_are_read_is_not_registered(self):
        session, wire, say = self.spectator()
        self.store.hold = True
        say(session, "join", id=2, table="long", after_seq=0)
        session.connection_lost()
        self.store.hold = False
        self.store.release()
        assert session not in self.actor.subscribers and wire.messages() == []
        assert self.actor.joining == 0

    def test_a_store_failure_on_the_first_page_is_answered_unavailable(self):
        session, wire, say = self.spectator()
        self.store.fail_after = 0
        say(session, "join", id=2, table="long", after_seq=0)
        [refusal] = [m for m in wire.messages() if m.get("id") == 2]
        assert refusal["type"] == "error" and refusal["code"] == "unavailable", refusal
        assert session not in self.actor.subscribers and "long" not in session.joined
        assert wire.closed == []
        assert self.flushLoggedErrors(StoreUnavailable)  # logged server side

    def test_a_store_failure_on_a_later_page_breaks_the_session_with_1011(self):
        """The client got its snapshot and part of its catch-up: it must join again (1011,
        docs/protocol.md), never go on with a gap."""
        session, wire, say = self.spectator()
        self.store.fail_after = 1
        say(session, "join", id=2, table="long", after_seq=0)
        messages = wire.messages()
        assert messages[0]["type"] == "snapshot"
        seqs = [m["seq"] for m in messages[1:]]
        assert seqs == list(range(1, PAGE_CHUNKS * CHUNK_EVENTS + 1))  # the first page only
        assert [code for code, _ in wire.closed] == [1011]
        assert session not in self.actor.subscribers and session.joined == {}
        assert self.flushLoggedErrors(StoreUnavailable)
