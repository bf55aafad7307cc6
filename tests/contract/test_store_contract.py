"""The EventStore contract, run against every backend (memory, SQLite, PostgreSQL).

Each test states one promise of `server/eventlog/store.py` and checks it through the
Deferred API the shell uses; tampering tests change rows behind the store's back.
"""

from __future__ import annotations

import pytest
from eventlog_backends import BackendCase, open_backend

from server.eventlog.engine import StreamHead
from server.eventlog.envelope import (
    MAX_APPEND_EVENTS,
    MAX_DATA_BYTES,
    InvalidEvent,
    NewEvent,
    chain_hash,
    encode_body,
    genesis_hash,
)
from server.eventlog.store import (
    ConcurrencyError,
    CorruptStream,
    StoreClosed,
    Upcasters,
)

PLAYER = {"role": "player", "id": "seat-1"}


def touched(n: int) -> NewEvent:
    return NewEvent("CardTouched", {"card": n, "seat": 1}, actor=PLAYER, causation=f"c-1:r-{n}")


def append(backend, store, stream, expected, events):
    return backend.wait(store.append(stream, expected, events))


class StoreContract:
    """The promises of every store (run per store by the classes at the end)."""

    def test_append_stamps_seq_time_and_chain_and_read_returns_the_same(self):
        backend = self.backend
        store = backend.open()
        first = append(backend, store, "table/t1", 0, [touched(1), touched(2)])
        backend.clock.advance(2.5)
        second = append(backend, store, "table/t1", 2, [touched(3)])
        recorded = first + second
        assert [e.seq for e in recorded] == [1, 2, 3]
        assert [e.at for e in recorded] == [1_700_000_000_000_000] * 2 + [1_700_000_002_500_000]
        assert recorded[0].prev_hash == genesis_hash("table/t1")
        assert [e.prev_hash for e in recorded[1:]] == [e.hash for e in recorded[:-1]]
        assert recorded[2].actor == PLAYER and recorded[2].causation == "c-1:r-3"
        assert recorded[2].data == {"card": 3, "seat": 1} and recorded[2].schema == 1
        body = encode_body("table/t1", 3, recorded[2].at, touched(3))
        assert recorded[2].hash == chain_hash(recorded[1].hash, body)
        assert backend.wait(store.read("table/t1")) == recorded
        assert backend.wait(store.load("table/t1")) == recorded
        assert backend.wait(store.last_seq("table/t1")) == 3

    def test_read_after_seq_and_limit(self):
        backend = self.backend
        store = backend.open()
        append(backend, store, "s", 0, [touched(n) for n in range(1, 6)])
        assert [e.seq for e in backend.wait(store.read("s", after_seq=3))] == [4, 5]
        assert [e.seq for e in backend.wait(store.read("s", 1, limit=2))] == [2, 3]
        assert backend.wait(store.read("s", after_seq=5)) == []
        assert backend.wait(store.read("nothing-here")) == []
        assert backend.wait(store.load("nothing-here")) == []
        assert backend.wait(store.last_seq("nothing-here")) == 0
        with pytest.raises(InvalidEvent, match="after_seq"):
            backend.wait(store.read("s", after_seq=-1))
        with pytest.raises(InvalidEvent, match="limit"):
            backend.wait(store.read("s", limit=0))

    def test_stale_or_future_expected_seq_fails_with_the_actual_seq_and_writes_nothing(self):
        backend = self.backend
        store = backend.open()
        append(backend, store, "s", 0, [touched(1), touched(2)])
        for expected in (0, 1, 3, 99):
            with pytest.raises(ConcurrencyError) as caught:
                append(backend, store, "s", expected, [touched(9)])
            assert (caught.value.expected_seq, caught.value.actual_seq) == (expected, 2)
        with pytest.raises(ConcurrencyError) as caught:
            append(backend, store, "new", 1, [touched(1)])
        assert caught.value.actual_seq == 0
        assert [e.seq for e in backend.wait(store.read("s"))] == [1, 2]
        assert backend.wait(store.streams()) == ["s"]

    def test_two_appends_racing_for_one_seq_one_wins_one_fails(self):
        backend = self.backend
        store = backend.open()
        append(backend, store, "s", 0, [touched(1)])
        first = store.append("s", 1, [touched(2)])
        second = store.append("s", 1, [touched(3)])
        assert [e.data["card"] for e in backend.wait(first)] == [2]
        with pytest.raises(ConcurrencyError) as caught:
            backend.wait(second)
        assert caught.value.actual_seq == 2
        assert backend.wait(store.verify("s")).ok

    def test_concurrent_appends_to_many_streams_each_get_their_own_result(self):
        backend = self.backend
        store = backend.open()
        pending = [store.append(f"table/{n:03d}", 0, [touched(n)]) for n in range(60)]
        pending.append(store.append("table/007", 0, [touched(99)]))  # loses to the first one
        pending.append(store.append("table/007", 1, [touched(98)]))  # chains on the first one
        for n, deferred in enumerate(pending[:60]):
            [event] = backend.wait(deferred)
            assert (event.stream, event.seq, event.data["card"]) == (f"table/{n:03d}", 1, n)
        with pytest.raises(ConcurrencyError):
            backend.wait(pending[60])
        assert backend.wait(pending[61])[0].seq == 2
        assert len(backend.wait(store.streams("table/"))) == 60

    def test_group_commit_commits_appends_that_wait_together(self):
        backend = self.backend
        if backend.kind == "memory":
            pytest.skip("the memory store commits each append at once: no writer to wait for")
        store = backend.open()
        batches = []
        real = store.engine.append_batch

        def counting(requests):
            batches.append(len(requests))
            return real(requests)

        store.engine.append_batch = counting
        pending = [store.append(f"s{n}", 0, [touched(n)]) for n in range(50)]
        for deferred in pending:
            backend.wait(deferred)
        # The first append finds the writer idle; the 49 that queued behind it share one commit.
        assert batches == [1, 49]

    def test_at_never_goes_backwards_within_a_stream(self):
        backend = self.backend
        store = backend.open()
        backend.clock.advance(10)
        [first] = append(backend, store, "s", 0, [touched(1)])
        backend.clock.rightNow -= 5  # the clock steps back (NTP, another node)
        [second] = append(backend, store, "s", 1, [touched(2)])
        [other] = append(backend, store, "t", 0, [touched(1)])
        assert second.at == first.at == 1_700_000_010_000_000
        assert other.at == 1_700_000_005_000_000
        assert backend.wait(store.verify("s")).ok

    def test_empty_appends_and_bad_arguments_are_refused_and_change_nothing(self):
        backend = self.backend
        store = backend.open()
        append(backend, store, "s", 0, [touched(1)])
        refused = [
            ("s", 1, [], "at least one event"),
            ("s", 1, touched(2), "list of NewEvent"),
            ("s", 1, [{"type": "CardTouched"}], "not a NewEvent"),
            ("s", 1, [touched(2)] * (MAX_APPEND_EVENTS + 1), "limit is 1000"),
            ("", 0, [touched(1)], "must not be empty"),
            ("bad\nname", 0, [touched(1)], "control characters"),
            ("x" * 257, 0, [touched(1)], "limit is 256"),
            (7, 0, [touched(1)], "must be a str"),
            ("s", -1, [touched(2)], "expected_seq"),
            ("s", True, [touched(2)], "expected_seq"),
            ("s", "1", [touched(2)], "expected_seq"),
        ]
        for stream, expected, events, message in refused:
            with pytest.raises(InvalidEvent, match=message):
                append(backend, store, stream, expected, events)
        assert backend.wait(store.streams()) == ["s"]
        assert backend.wait(store.last_seq("s")) == 1

    def test_oversized_and_unpackable_events_never_reach_the_store(self):
        backend = self.backend
        store = backend.open()
        with pytest.raises(InvalidEvent, match="limit is 1048576"):
            NewEvent("Big", {"blob": b"x" * MAX_DATA_BYTES})
        with pytest.raises(InvalidEvent, match="not msgpack-able"):
            NewEvent("Bad", {"when": object()})
        big = [NewEvent("Big", {"blob": b"x" * 900_000}) for _ in range(10)]
        with pytest.raises(InvalidEvent, match="bytes of data in one append"):
            append(backend, store, "s", 0, big)
        assert backend.wait(store.streams()) == []

    def test_large_payload_just_under_the_limit_round_trips(self):
        backend = self.backend
        store = backend.open()
        blob = bytes(range(256)) * ((MAX_DATA_BYTES - 64) // 256)
        event = NewEvent("Big", {"blob": blob, "text": "é" * 10})
        assert len(event.data_bytes) <= MAX_DATA_BYTES
        [recorded] = append(backend, store, "big", 0, [event])
        [read] = backend.wait(store.load("big"))
        assert read == recorded and read.data["blob"] == blob
        assert backend.wait(store.verify("big")).ok

    def test_unicode_stream_names_and_prefixes(self):
        backend = self.backend
        store = backend.open()
        names = ["table/日本/ラウンド-1/🂡", "table/日本/b", "table/ä", "tablé", "table/a%_"]
        for name in names:
            append(backend, store, name, 0, [touched(1)])
        assert backend.wait(store.streams()) == sorted(names)
        assert backend.wait(store.streams("table/日本/")) == sorted(names[:2])
        assert backend.wait(store.streams("table/a%")) == ["table/a%_"]  # no LIKE wildcards
        assert backend.wait(store.streams("table/a_")) == []
        assert backend.wait(store.read(names[0]))[0].stream == names[0]
        assert backend.wait(store.verify(names[0])).ok

    def test_verify_reports_a_good_stream(self):
        backend = self.backend
        store = backend.open()
        events = append(backend, store, "s", 0, [touched(n) for n in range(1, 5)])
        report = backend.wait(store.verify("s"))
        assert (report.ok, report.events, report.last_seq, report.head_hash) == (
            True,
            4,
            4,
            events[-1].hash,
        )
        assert report.broken_seq is None and report.describe().startswith("ok s 4 events")
        empty = backend.wait(store.verify("never"))
        assert empty.ok and empty.events == 0 and empty.head_hash == genesis_hash("never")


def tamper(backend, stream: str, seq: int, **columns: bytes) -> None:
    if backend.kind == "memory":
        rows = backend.stores[0].engine.rows[stream]
        old = dict(zip(("seq", "body", "prev_hash", "hash"), rows[seq - 1], strict=True))
        old.update(columns)
        rows[seq - 1] = (old["seq"], old["body"], old["prev_hash"], old["hash"])
        return
    assignments = ", ".join(f"{name} = ?" for name in columns)
    backend.execute(
        f"UPDATE events SET {assignments} WHERE stream = ? AND seq = ?",
        (*columns.values(), stream, seq),
    )


def delete(backend, stream: str, seq: int) -> None:
    if backend.kind == "memory":
        del backend.stores[0].engine.rows[stream][seq - 1]
    else:
        backend.execute("DELETE FROM events WHERE stream = ? AND seq = ?", (stream, seq))


def tamper_head(backend, stream: str, **columns) -> None:
    if backend.kind == "memory":
        engine = backend.stores[0].engine
        engine.heads[stream] = engine.heads[stream].__class__(
            **{**engine.heads[stream].__dict__, **columns}
        )
        return
    assignments = ", ".join(f"{name} = ?" for name in columns)
    backend.execute(
        f"UPDATE streams SET {assignments} WHERE stream = ?", (*columns.values(), stream)
    )


def forge(event, body: bytes) -> dict[str, bytes]:
    """Replace an event's body and fix its hash, as a careful forger would."""
    return {"body": body, "hash": chain_hash(event.prev_hash, body)}


class TamperingContract:
    """What verify and load find in a tampered log, on every store."""

    def test_verify_and_load_find_the_first_broken_seq(self):
        for damage, broken_seq, reason in [
            ("body", 3, "hash does not match the recorded bytes"),
            ("rechained body", 4, "prev_hash is not the hash of seq 3"),
            ("prev_hash", 3, "prev_hash is not the hash of seq 2"),
            ("missing middle", 3, "event 3 is missing (next recorded: 4)"),
            ("missing tail", 5, "the stream head records last seq 5"),
            ("other stream", 3, "envelope names 'other' seq 3"),
            ("time backwards", 3, "is earlier than the previous event's"),
            ("not an envelope", 3, "recorded bytes are not a version-1 event envelope"),
            ("head behind", 5, "events after the stream head's seq 4"),
            ("head hash", 5, "the stream head's hash differs from the chain's last hash"),
        ]:
            backend = open_backend(self, self.kind)  # a fresh store for each damage
            store = backend.open()
            events = []
            for n in range(1, 6):  # one append per event, a second apart
                events += append(backend, store, "s", n - 1, [touched(n)])
                backend.clock.advance(1)
            event = events[2]
            forged = encode_body(
                "s", 3, event.at, NewEvent("CardTouched", {"card": 99}, actor=PLAYER)
            )
            if damage == "body":
                tamper(backend, "s", 3, body=forged)
            elif damage == "rechained body":
                tamper(backend, "s", 3, **forge(event, forged))
            elif damage == "prev_hash":
                tamper(backend, "s", 3, prev_hash=bytes(32))
            elif damage == "missing middle":
                delete(backend, "s", 3)
            elif damage == "missing tail":
                delete(backend, "s", 5)
            elif damage == "other stream":
                tamper(
                    backend, "s", 3, **forge(event, encode_body("other", 3, event.at, touched(3)))
                )
            elif damage == "time backwards":
                tamper(
                    backend, "s", 3, **forge(event, encode_body("s", 3, events[0].at, touched(3)))
                )
            elif damage == "not an envelope":
                tamper(backend, "s", 3, **forge(event, b"\x93\x01\x02\x03"))
            elif damage == "head behind":
                tamper_head(backend, "s", last_seq=4, last_hash=events[3].hash)
            else:
                tamper_head(backend, "s", last_hash=bytes(32))
            report = backend.wait(store.verify("s"))
            assert (report.ok, report.broken_seq) == (False, broken_seq)
            assert reason in report.reason
            assert report.events == report.last_seq == broken_seq - 1  # the valid prefix
            prefix_head = events[broken_seq - 2].hash
            if damage == "rechained body":  # the forged seq 3 links fine to seq 2
                prefix_head = forge(event, forged)["hash"]
            assert report.head_hash == prefix_head
            assert f"at seq {broken_seq}" in report.describe()
            if damage != "prev_hash":  # load checks the chain of contents, not the redundant column
                with pytest.raises(CorruptStream) as caught:
                    backend.wait(store.load("s"))
                assert caught.value.report == report

    def test_verify_refuses_non_canonical_bytes_even_with_a_valid_hash(self):
        backend = self.backend
        import msgpack

        store = backend.open()
        [event] = append(backend, store, "s", 0, [touched(1)])
        # Same fields, but the data map's keys in the wrong order: hashes fine, not canonical.
        odd = msgpack.packb(
            [
                1,
                "s",
                1,
                event.type,
                1,
                event.at,
                event.actor,
                event.causation,
                {"seat": 1, "card": 1},
            ]
        )
        tamper(backend, "s", 1, body=odd, hash=chain_hash(event.prev_hash, odd))
        if backend.kind == "memory":
            engine = backend.stores[0].engine
            engine.heads["s"] = StreamHead(1, chain_hash(event.prev_hash, odd), event.at)
        else:
            backend.execute("UPDATE streams SET last_hash = ?", (chain_hash(event.prev_hash, odd),))
        report = backend.wait(store.verify("s"))
        assert (report.ok, report.broken_seq, report.reason) == (
            False,
            1,
            "recorded bytes are not in canonical form",
        )
        assert backend.wait(store.load("s"))[0].data == {"seat": 1, "card": 1}

    def test_upcasters_lift_old_events_on_read_without_rewriting_them(self):
        backend = self.backend
        store = backend.open()
        old = NewEvent("CardTouched", {"card": 4}, schema=1)
        append(backend, store, "s", 0, [old, NewEvent("Other", {"x": 1})])
        upcasters = Upcasters()
        upcasters.register("CardTouched", 1, lambda data: {**data, "seat": None})
        upcasters.register("CardTouched", 2, lambda data: {**data, "lag_us": 0})
        lifted = backend.open(upcasters)
        for events in (backend.wait(lifted.read("s")), backend.wait(lifted.load("s"))):
            assert (events[0].schema, events[0].data) == (3, {"card": 4, "seat": None, "lag_us": 0})
            assert events[1].data == {"x": 1} and events[1].schema == 1
        assert backend.wait(lifted.verify("s")).ok  # the recorded bytes are untouched
        plain = 3 if backend.kind == "memory" else 1  # the memory store shares one engine
        assert backend.wait(store.read("s"))[0].schema == plain

    def test_closed_store_refuses_everything_and_close_is_idempotent(self):
        backend = self.backend
        store = backend.open()
        append(backend, store, "s", 0, [touched(1)])
        backend.wait(store.close())
        backend.wait(store.close())
        for call in (
            lambda: store.append("s", 1, [touched(2)]),
            lambda: store.read("s"),
            lambda: store.load("s"),
            lambda: store.last_seq("s"),
            lambda: store.streams(),
            lambda: store.verify("s"),
        ):
            with pytest.raises(StoreClosed):
                backend.wait(call())

    def test_close_waits_for_appends_already_accepted(self):
        backend = self.backend
        store = backend.open()
        pending = [store.append(f"s{n}", 0, [touched(n)]) for n in range(20)]
        closing = store.close()
        backend.wait(closing)
        assert all(backend.wait(d)[0].seq == 1 for d in pending)
        if backend.kind != "memory":  # durable: a new store on the same database sees them all
            assert len(backend.blocking().streams()) == 20

    def test_blocking_engine_keeps_the_same_contract(self):
        backend = self.backend
        engine = backend.blocking()
        events = engine.append("s", 0, [touched(1), touched(2)])
        assert engine.read("s") == events == engine.load("s")
        assert engine.last_seq("s") == 2 and engine.streams() == ["s"]
        with pytest.raises(ConcurrencyError):
            engine.append("s", 0, [touched(3)])
        with pytest.raises(InvalidEvent):
            engine.append("s", 2, [])
        assert engine.verify("s").ok

    def test_two_stores_on_one_database_see_each_others_appends(self):
        backend = self.backend
        first, second = backend.open(), backend.open()
        append(backend, first, "s", 0, [touched(1)])
        append(backend, second, "s", 1, [touched(2)])
        with pytest.raises(ConcurrencyError) as caught:  # the writer's cached head is stale
            append(backend, first, "s", 1, [touched(3)])
        assert caught.value.actual_seq == 2
        assert append(backend, first, "s", 2, [touched(3)])[0].seq == 3
        assert [e.seq for e in backend.wait(second.load("s"))] == [1, 2, 3]

    def test_at_is_the_clock_to_the_microsecond(self):
        backend = self.backend
        store = backend.open()
        backend.clock.advance(0.000001)  # not exactly representable in binary
        [event] = append(backend, store, "s", 0, [touched(1)])
        assert event.at == 1_700_000_000_000_001


class MemoryStoreContract(StoreContract, TamperingContract, BackendCase):
    kind = "memory"


class SQLiteStoreContract(StoreContract, TamperingContract, BackendCase):
    kind = "sqlite"


class PostgresStoreContract(StoreContract, TamperingContract, BackendCase):
    kind = "postgres"
