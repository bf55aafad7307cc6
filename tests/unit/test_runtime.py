"""The shell around a Decider: TableActor and Hub with the memory store and a task.Clock.

Given/when/then over what subscribers receive and what the log holds. A `GatedStore` wraps the
real memory store and holds each append's result until the test releases it, to show that
nothing is published before an append is durable and that commands queue in arrival order.
"""

from __future__ import annotations

import pytest
import toygame
from shell_testcase import ShellTestCase
from twisted.internet import defer
from twisted.internet.task import Clock

from protocol.codec import decode
from server.eventlog.backends import open_store
from server.eventlog.store import ConcurrencyError, StoreClosed, StoreUnavailable
from server.games import challenge
from server.games.base import SERVER_ACTOR, Actor, Command, Event, RuleViolation
from server.metrics import COMMAND_OUTCOMES
from server.runtime.hub import Hub, InvalidOptions, TableExists, UnknownGame, UnknownTable
from server.runtime.redaction import fail_closed, redactor_for
from server.runtime.table_actor import BadSeq, TableClosed

T0 = 1_700_000_000.0
PROCTOR = Actor("proctor", "p1")
DIRECTOR = Actor("director", "d")
S1, S2 = Actor("player", "s1"), Actor("player", "s2")
SPECTATOR = Actor("spectator", "watcher")

DECK = [
    {"card_id": 1, "numbers": [1, 2, 3, 4], "dots": 1},
    {"card_id": 2, "numbers": [3, 3, 8, 8], "dots": 3},
    {"card_id": 3, "numbers": [2, 2, 6, 6], "dots": 2},
]
OPTIONS = {
    "seats": [{"seat": f"s{i}", "name": f"Student {i}"} for i in range(1, 5)],
    "deck": DECK,
}


class Recorder:
    """A subscriber that keeps every push it receives."""

    def __init__(self, viewer: Actor) -> None:
        self.viewer = viewer
        self.messages: list[dict] = []
        self.frames: list[bytes] = []

    def push(self, push):
        self.messages.append(push.message)
        self.frames.append(push.frame)

    def types(self):
        return [m["event_type"] for m in self.messages]


class GatedStore:
    """The real memory store, with each append's result held until `release()`."""

    def __init__(self, store) -> None:
        self.store = store
        self.held: list[tuple[defer.Deferred, object]] = []
        self.gated = False

    def append(self, stream, expected_seq, events):
        real = self.store.append(stream, expected_seq, events)
        if not self.gated:
            return real
        d = defer.Deferred()
        real.addBoth(lambda result: self.held.append((d, result)))
        return d

    def release(self):
        """Complete the appends held so far (not those they lead to)."""
        held, self.held = self.held, []
        for d, result in held:
            d.callback(result)  # a Failure result errbacks

    def __getattr__(self, name):
        return getattr(self.store, name)


def make_clock():
    c = Clock()
    c.advance(T0)
    return c


def make_store(clock):
    return GatedStore(open_store("memory:", clock=clock.seconds))


def make_hub(store, clock):
    return Hub(store, clock)


class RuntimeCase(ShellTestCase):
    """A hub on a gated memory store, driven by a task.Clock at T0."""

    def setUp(self):
        super().setUp()
        self.clock = make_clock()
        self.store = make_store(self.clock)
        self.hub = make_hub(self.store, self.clock)


def result_of(d: defer.Deferred):
    """The result of an already-fired Deferred (raises its failure)."""
    results = []
    d.addBoth(results.append)
    assert results, "the Deferred has not fired"
    outcome = results[0]
    if hasattr(outcome, "raiseException"):
        outcome.raiseException()
    return outcome


def us(clock) -> int:
    return int(clock.seconds() * 1_000_000)


def new_table(hub, options=None, table="t1"):
    return result_of(hub.create_table(table, "challenge", options or OPTIONS, DIRECTOR))


def run(actor, clock, actor_, name, **args):
    return result_of(actor.submit(Command(name, args, actor_), us(clock)))


def to_revealed(actor, clock):
    run(actor, clock, PROCTOR, "start_round")
    run(actor, clock, PROCTOR, "place_card")
    run(actor, clock, PROCTOR, "reveal_card")


# -- creating and loading ------------------------------------------------------------------


class CreatingAndLoadingTests(RuntimeCase):
    def test_create_table_records_table_created_first(self):
        hub, store = self.hub, self.store
        actor = new_table(hub)
        events = result_of(store.read("table/t1"))
        assert [(e.seq, e.type) for e in events] == [(1, "TableCreated")]
        assert events[0].data == {"game": "challenge", "options": OPTIONS}
        assert events[0].actor == {"role": "director", "id": "d"}
        assert actor.seq == 1 and hub.tables() == [
            {"table": "t1", "game": "challenge", "seq": 1, "over": False}
        ]

    def test_create_table_refusals_record_nothing(self):
        hub, store = self.hub, self.store
        new_table(hub)
        with pytest.raises(TableExists):
            new_table(hub)
        with pytest.raises(InvalidOptions):
            result_of(hub.create_table("t2", "challenge", {"seats": []}, DIRECTOR))
        with pytest.raises(InvalidOptions):  # not recordable: a set is not msgpack data
            result_of(hub.create_table("t3", "challenge", {**OPTIONS, "x": {1, 2}}, DIRECTOR))
        with pytest.raises(UnknownGame):
            result_of(hub.create_table("t4", "chess", OPTIONS, DIRECTOR))
        assert result_of(store.streams("table/")) == ["table/t1"]

    def test_table_created_by_another_hub_exists_refusal(self):
        store, clock = self.store, self.clock
        result_of(Hub(store, clock).create_table("t1", "challenge", OPTIONS, DIRECTOR))
        with pytest.raises(TableExists):
            result_of(Hub(store, clock).create_table("t1", "challenge", OPTIONS, DIRECTOR))

    def test_server_picks_an_id_when_none_is_given(self):
        hub = self.hub
        actor = result_of(hub.create_table(None, "challenge", OPTIONS, DIRECTOR))
        assert actor.table.startswith("t-") and hub.actors[actor.table] is actor

    def test_get_unknown_table_fails(self):
        hub = self.hub
        with pytest.raises(UnknownTable):
            result_of(hub.get("nope"))


# -- commands: decide -> append -> evolve -> publish -> reschedule -------------------------


class CommandTests(RuntimeCase):
    def test_a_full_card_won_is_published_to_every_viewer_redacted(self):
        hub, clock = self.hub, self.clock
        actor = new_table(hub)
        proctor, s2, spectator = Recorder(PROCTOR), Recorder(S2), Recorder(SPECTATOR)
        for sub in (proctor, s2, spectator):
            actor.subscribe(sub)
        to_revealed(actor, clock)
        run(actor, clock, S1, "touch_card")
        run(actor, clock, S1, "declare_pattern", pattern="4*6")
        recorded = run(actor, clock, S1, "fix_solution", steps=["1+2=3", "3+3=6", "4*6=24"])
        assert [e.type for e in recorded] == ["SolutionFixed", "SolutionJudged", "CardWon"]
        assert actor.view(S1)["scores"]["s1"] == 1
        expected = [
            "RoundStarted",
            "CardPlaced",
            "CardRevealed",
            "CardTouched",
            "PatternDeclared",
            "SolutionFixed",
            "SolutionJudged",
            "CardWon",
        ]
        for sub in (proctor, s2, spectator):
            assert sub.types() == expected
            assert [m["seq"] for m in sub.messages] == list(range(2, 10))
        # R-PLAY-1: the placed card's numbers are hidden from players and spectators, not proctors
        placed = {sub.viewer.role: sub.messages[1]["data"] for sub in (proctor, s2, spectator)}
        assert placed["proctor"]["numbers"] == [1, 2, 3, 4]
        assert "numbers" not in placed["player"] and "numbers" not in placed["spectator"]
        assert isinstance(spectator.messages[0]["data"]["deck"], int)  # deck order hidden
        assert proctor.messages[0]["data"]["deck"] == [1, 2, 3]

    def test_a_refused_command_fails_with_the_rule_and_publishes_nothing(self):
        hub, clock = self.hub, self.clock
        actor = new_table(hub)
        watcher = Recorder(SPECTATOR)
        actor.subscribe(watcher)
        with pytest.raises(RuleViolation) as info:
            run(actor, clock, S1, "touch_card")
        assert info.value.code == "round_not_started" and info.value.rule == "R-ROUND-1"
        with pytest.raises(RuleViolation) as info:
            run(actor, clock, SPECTATOR, "start_round")
        assert info.value.code == "not_allowed"
        assert watcher.messages == [] and actor.seq == 1

    def test_nothing_is_published_before_the_append_is_durable(self):
        hub, store, clock = self.hub, self.store, self.clock
        actor = new_table(hub)
        watcher = Recorder(SPECTATOR)
        actor.subscribe(watcher)
        store.gated = True
        d = actor.submit(Command("start_round", {}, PROCTOR), us(clock))
        assert not d.called and watcher.messages == [] and actor.seq == 1
        store.release()
        assert result_of(d)[0].type == "RoundStarted"
        assert watcher.types() == ["RoundStarted"] and actor.seq == 2

    def test_commands_are_decided_one_at_a_time_in_arrival_order(self):
        """R-PLAY-2: two touches in flight together: the first to arrive holds the card, the
        second is recorded and refused; each touch records its own arrival time."""
        hub, store, clock = self.hub, self.store, self.clock
        actor = new_table(hub)
        to_revealed(actor, clock)
        store.gated = True
        first_at = us(clock) + 1000
        second_at = first_at + 250
        d1 = actor.submit(Command("touch_card", {}, S2), first_at)
        d2 = actor.submit(Command("touch_card", {}, S1), second_at)
        assert len(store.held) == 1  # the second waits for the first append
        store.release()
        assert len(store.held) == 1
        store.release()
        first, second = result_of(d1), result_of(d2)
        assert (first[0].type, first[0].data["seat"], first[0].data["at"]) == (
            "CardTouched",
            "s2",
            first_at,
        )
        assert (second[0].type, second[0].data["seat"], second[0].data["at"]) == (
            "TouchRefused",
            "s1",
            second_at,
        )

    def test_commands_queued_behind_an_append_go_in_one_append_and_wait_for_it(self):
        hub, store, clock = self.hub, self.store, self.clock
        actor = new_table(hub)
        watcher = Recorder(SPECTATOR)
        actor.subscribe(watcher)
        store.gated = True
        d_start = actor.submit(Command("start_round", {}, PROCTOR), us(clock))
        d_place = actor.submit(Command("place_card", {}, PROCTOR), us(clock))
        d_again = actor.submit(Command("place_card", {}, PROCTOR), us(clock))  # refused
        d_reveal = actor.submit(Command("reveal_card", {}, PROCTOR), us(clock))
        store.release()  # start_round is durable; the three queued ones are decided together
        assert [m["event_type"] for m in watcher.messages] == ["RoundStarted"]
        assert len(store.held) == 1 and not d_again.called  # the refusal waits for the append
        store.release()
        assert [e.type for e in result_of(d_place)] == ["CardPlaced"]
        assert [e.type for e in result_of(d_reveal)] == ["CardRevealed"]
        with pytest.raises(RuleViolation) as info:
            result_of(d_again)
        assert info.value.code == "card_in_play"
        assert result_of(d_start)[0].seq == 2 and actor.seq == 4
        assert watcher.types() == ["RoundStarted", "CardPlaced", "CardRevealed"]

    def test_a_failed_batch_fails_every_command_in_it(self):
        hub, store, clock = self.hub, self.store, self.clock
        actor = new_table(hub)
        store.gated = True
        d_start = actor.submit(Command("start_round", {}, PROCTOR), us(clock))
        d_place = actor.submit(Command("place_card", {}, PROCTOR), us(clock))
        d_again = actor.submit(Command("place_card", {}, PROCTOR), us(clock))
        result_of(store.store.close())  # start_round's append is done (held); the next fails
        store.release()
        assert not d_place.called
        store.release()
        with pytest.raises(StoreClosed):
            result_of(d_place)
        with pytest.raises(StoreClosed):  # judged on events that never became durable
            result_of(d_again)
        assert result_of(d_start)[0].type == "RoundStarted" and actor.seq == 2
        assert self.flushLoggedErrors(StoreClosed)  # logged with its traceback, server side

    def test_a_long_queue_on_a_synchronous_store_does_not_recurse(self):
        hub, clock = self.hub, self.clock
        actor = new_table(hub)
        to_revealed(actor, clock)
        ds = [actor.submit(Command("declare_stumped", {}, S1), us(clock)) for _ in range(3000)]
        outcomes = result_of(defer.DeferredList(ds, consumeErrors=True))
        assert outcomes[0][1][0].type == "StumpedDeclared"
        assert all(not ok and ok_value.check(RuleViolation) for ok, ok_value in outcomes[1:])

    def test_store_failure_fails_the_command_and_changes_nothing(self):
        hub, store, clock = self.hub, self.store, self.clock
        actor = new_table(hub)
        watcher = Recorder(PROCTOR)
        actor.subscribe(watcher)
        result_of(store.store.close())
        with pytest.raises(StoreClosed):
            run(actor, clock, PROCTOR, "start_round")
        assert actor.seq == 1 and watcher.messages == [] and actor.view(PROCTOR)["phase"] == "setup"

        # -- deadlines -----------------------------------------------------------------------------
        assert self.flushLoggedErrors(StoreClosed)  # logged with its traceback, server side

    def test_pattern_deadline_fires_from_the_clock_and_flags(self):
        """R-PLAY-4 / R-FLAG-1: no pattern within 3 s of the touch: a flag, card back to deck."""
        hub, clock = self.hub, self.clock
        actor = new_table(hub)
        watcher = Recorder(PROCTOR)
        actor.subscribe(watcher)
        to_revealed(actor, clock)
        touched = run(actor, clock, S1, "touch_card")[0]
        assert sorted(k.split(":")[0] for k in actor.timers()) == ["pattern", "solution"]
        clock.advance(2.999)
        assert watcher.types()[-1] == "CardTouched"
        clock.advance(0.001)
        assert watcher.types()[-3:] == ["CardTouched", "FlagIssued", "CardReturnedToDeck"]
        flag = next(m for m in watcher.messages if m["event_type"] == "FlagIssued")
        assert flag["data"]["cause"] == "no_pattern" and flag["data"]["seat"] == "s1"
        assert flag["data"]["at"] == touched.data["at"] + 3_000_000
        assert actor.timers() == {}  # between cards, no auto_proctor: nothing live

    def test_answered_pattern_cancels_its_deadline_and_stale_deadline_is_dropped(self):
        hub, clock = self.hub, self.clock
        actor = new_table(hub)
        to_revealed(actor, clock)
        run(actor, clock, S1, "touch_card")
        stale_key = next(k for k in actor.timers() if k.startswith("pattern"))
        run(actor, clock, S1, "declare_pattern", pattern="4*6")
        assert [k.split(":")[0] for k in actor.timers()] == ["solution"]
        seq = actor.seq
        d = actor.submit(
            Command("pattern_deadline", {"key": stale_key}, SERVER_ACTOR), us(clock), "x", True
        )
        with pytest.raises(RuleViolation) as info:
            result_of(d)
        assert info.value.code == "stale_deadline" and actor.seq == seq


class FailingAppends:
    """The hub's store, whose appends fail (StoreUnavailable) while `down` is set."""

    def __init__(self, store) -> None:
        self.store = store
        self.down = False

    def append(self, stream, expected_seq, events):
        if self.down:
            return defer.fail(StoreUnavailable("the database went away"))
        return self.store.append(stream, expected_seq, events)

    def __getattr__(self, name):
        return getattr(self.store, name)


class FailingAppendTests(RuntimeCase):
    def test_a_deadline_the_store_failed_is_retried_with_backoff_not_refused(self):
        """Issue 18: a store error is not the game's refusal: the deadline fires again."""
        store, clock = self.store, self.clock
        flaky = FailingAppends(store)
        hub = Hub(flaky, clock)
        actor = new_table(hub, {**OPTIONS, "auto_proctor": 2})
        watcher = Recorder(S1)
        actor.subscribe(watcher)
        run(actor, clock, PROCTOR, "start_round")
        flaky.down = True
        clock.advance(2)  # the place deadline: its append fails
        assert actor.store_failures == 1 and hub.store_failing() == ["t1"]
        clock.advance(0.25)  # retried after 0.25 s, then 0.5 s: still down
        assert actor.store_failures == 2
        flaky.down = False
        clock.advance(0.5)
        assert watcher.types()[-1] == "CardPlaced" and hub.store_failing() == []
        assert actor.store_failures == 0
        assert self.flushLoggedErrors(StoreUnavailable)

    def test_a_store_that_stays_down_pauses_the_table_once_it_answers(self):
        store, clock = self.store, self.clock
        flaky = FailingAppends(store)
        hub = Hub(flaky, clock)
        actor = new_table(hub, {**OPTIONS, "auto_proctor": 2})
        watcher = Recorder(S1)
        actor.subscribe(watcher)
        run(actor, clock, PROCTOR, "start_round")
        flaky.down = True
        clock.advance(2)
        for delay in (0.25, 0.5, 1.0, 2.0):  # attempts 2 and 3, then the pause (attempt 4, 5)
            clock.advance(delay)
        assert actor.store_failures == 5 and watcher.types()[-1] == "RoundStarted"
        flaky.down = False
        clock.advance(4.0)  # the next attempt is the pause, not the placing
        assert watcher.types()[-1] == "TablePaused"
        assert watcher.messages[-1]["data"]["cause"] == "store_failure"
        assert actor.timers() == {} and hub.store_failing() == []
        clock.advance(60)  # paused: nothing fires until the proctor resumes
        assert watcher.types()[-1] == "TablePaused"
        run(actor, clock, PROCTOR, "resume_table")
        clock.advance(2)
        assert watcher.types()[-1] == "CardPlaced"
        assert self.flushLoggedErrors(StoreUnavailable)

    def test_auto_proctor_places_and_reveals_on_its_own(self):
        hub, clock = self.hub, self.clock
        actor = new_table(hub, {**OPTIONS, "auto_proctor": 2, "auto_reveal_seconds": 1})
        watcher = Recorder(S1)
        actor.subscribe(watcher)
        run(actor, clock, PROCTOR, "start_round")
        clock.advance(2)
        assert watcher.types()[-1] == "CardPlaced"
        clock.advance(1)
        assert watcher.types()[-1] == "CardRevealed"
        clock.advance(15)  # R-PLAY-7: nobody touched within 15 s
        assert "CardStumped" in watcher.types()


# -- subscribing and resuming --------------------------------------------------------------


class SubscribingAndResumingTests(RuntimeCase):
    def test_join_with_after_seq_gets_exactly_the_missed_events_then_live_ones(self):
        hub, clock = self.hub, self.clock
        actor = new_table(hub)
        to_revealed(actor, clock)  # seqs 2, 3, 4
        late = Recorder(S2)
        snapshot = actor.subscribe(late, after_seq=2)
        assert snapshot.seq == 4 and snapshot.view["phase"] == "revealed"
        assert [p.message["seq"] for p in snapshot.catch_up] == [3, 4]
        run(actor, clock, S1, "touch_card")
        assert [m["seq"] for m in late.messages] == [5]
        fresh = Recorder(S2)
        assert actor.subscribe(fresh).catch_up == []
        assert actor.subscribe(Recorder(S2), after_seq=0).catch_up[0].message["event_type"] == (
            "TableCreated"
        )
        with pytest.raises(BadSeq):
            actor.subscribe(Recorder(S2), after_seq=99)

    def test_catch_up_is_redacted_like_live_pushes(self):
        hub, clock = self.hub, self.clock
        actor = new_table(hub)
        run(actor, clock, PROCTOR, "start_round")
        run(actor, clock, PROCTOR, "place_card")
        pushes = [p.message for p in actor.subscribe(Recorder(S1), after_seq=0).catch_up]
        assert pushes[0]["data"]["options"]["deck"] == 3  # TableCreated: deck hidden
        assert "numbers" not in pushes[2]["data"]  # CardPlaced

    def test_a_catch_up_is_built_once_and_shared_by_equal_redactions(self):
        """Issue 18 (join amplification): re-joins reuse the pushes, and two spectators whose
        redaction is the same share each push (so the transport frames it once)."""
        hub, clock = self.hub, self.clock
        actor = new_table(hub)
        run(actor, clock, PROCTOR, "start_round")
        run(actor, clock, PROCTOR, "place_card")
        first = actor.subscribe(Recorder(SPECTATOR), after_seq=0).catch_up
        again = actor.subscribe(Recorder(SPECTATOR), after_seq=1).catch_up
        other = actor.subscribe(Recorder(Actor("spectator", "other")), after_seq=0).catch_up
        proctor = actor.subscribe(Recorder(PROCTOR), after_seq=0).catch_up
        assert [p.message["seq"] for p in first] == [1, 2, 3]
        assert all(a is b for a, b in zip(first[1:], again, strict=True))
        assert all(a is b for a, b in zip(first, other, strict=True))
        assert proctor[2] is not first[2]  # the proctor sees the placed card's numbers
        assert "numbers" in proctor[2].message["data"] and "numbers" not in first[2].message["data"]
        run(actor, clock, PROCTOR, "reveal_card")  # a live event extends the cache on next join
        assert [p.message["seq"] for p in actor.subscribe(Recorder(SPECTATOR), 2).catch_up] == [
            3,
            4,
        ]

    def test_unsubscribed_viewers_receive_nothing(self):
        hub, clock = self.hub, self.clock
        actor = new_table(hub)
        watcher = Recorder(S1)
        actor.subscribe(watcher)
        actor.unsubscribe(watcher)
        actor.unsubscribe(watcher)  # harmless twice
        run(actor, clock, PROCTOR, "start_round")
        assert watcher.messages == []

    def test_the_audience_follows_subscriptions_between_publications(self):
        hub, clock = self.hub, self.clock
        actor = new_table(hub)
        early, late, twin = Recorder(S1), Recorder(S2), Recorder(S1)
        actor.subscribe(early)
        run(actor, clock, PROCTOR, "start_round")
        actor.subscribe(late)
        actor.subscribe(twin)
        run(actor, clock, PROCTOR, "place_card")
        actor.unsubscribe(early)
        run(actor, clock, PROCTOR, "reveal_card")
        assert early.types() == ["RoundStarted", "CardPlaced"]
        assert late.types() == twin.types() == ["CardPlaced", "CardRevealed"]

    def test_each_distinct_redaction_is_encoded_once_and_shared(self):
        hub, clock = self.hub, self.clock
        actor = new_table(hub)
        proctor, s1, s2 = Recorder(PROCTOR), Recorder(S1), Recorder(S2)
        twin = Recorder(S2)  # a second connection of the same viewer
        for sub in (proctor, s1, s2, twin):
            actor.subscribe(sub)
        to_revealed(actor, clock)
        # RoundStarted and CardPlaced hide the deck and the card from players: two encodings,
        # one for the proctor and one shared by every player; CardRevealed is the same for all.
        for index in (0, 1):
            assert s1.frames[index] is s2.frames[index] is twin.frames[index]
            assert proctor.frames[index] is not s1.frames[index]
            assert proctor.frames[index] != s1.frames[index]
        assert proctor.frames[2] is s1.frames[2] is s2.frames[2]
        for sub in (proctor, s1, s2, twin):  # the shared bytes are the message each one was given
            assert [decode(frame) for frame in sub.frames] == sub.messages

    def test_a_broken_subscriber_does_not_starve_the_others(self):
        hub, clock = self.hub, self.clock
        actor = new_table(hub)

        class Broken(Recorder):
            def push(self, push):
                raise RuntimeError("socket gone")

        good = Recorder(S1)
        actor.subscribe(Broken(S2))
        actor.subscribe(good)
        run(actor, clock, PROCTOR, "start_round")
        assert good.types() == ["RoundStarted"]

        # -- concurrency, recovery, shutdown -------------------------------------------------------
        assert self.flushLoggedErrors(RuntimeError)  # logged with its traceback, server side

    def test_a_concurrent_writer_is_caught_up_and_the_command_decided_again(self):
        store, clock = self.store, self.clock
        ours = new_table(Hub(store, clock))
        run(ours, clock, PROCTOR, "start_round")  # seq 2
        theirs = result_of(Hub(store, clock).get("t1"))  # no live timer: no recovery pause
        run(theirs, clock, PROCTOR, "place_card")  # seq 3: another process extended the stream
        watcher = Recorder(PROCTOR)
        ours.subscribe(watcher)
        recorded = run(ours, clock, PROCTOR, "issue_flag", seat="s3", cause="too_many_fingertips")
        assert recorded[0].seq == 4 and recorded[0].type == "FlagIssued"
        # decided again on the caught-up state: the placed card goes back to the deck (R-FLAG-2)
        assert [e.type for e in recorded] == ["FlagIssued", "CardReturnedToDeck"]
        assert [m["seq"] for m in watcher.messages] == [3, 4, 5]  # no gap, no duplicate

    def test_a_writer_that_keeps_losing_gives_up_with_a_conflict(self):
        store, clock = self.store, self.clock
        ours = new_table(Hub(store, clock))
        run(ours, clock, PROCTOR, "start_round")
        theirs = result_of(Hub(store, clock).get("t1"))
        real_read = store.store.read

        seats = iter(["s4", "s2", "s1"])

        def extend():
            run(theirs, clock, PROCTOR, "issue_flag", seat=next(seats), cause="too_many_fingertips")

        def read_then_extend(stream, after_seq=0, limit=None):
            d = real_read(stream, after_seq, limit)
            extend()
            return d

        extend()
        store.read = read_then_extend
        with pytest.raises(ConcurrencyError):
            run(ours, clock, PROCTOR, "issue_flag", seat="s3", cause="too_many_fingertips")
        assert ours.metrics.value("t24_commands_total", outcome="failed") == 1

    def test_restart_mid_card_pauses_the_table_and_resume_restarts_the_windows(self):
        store, clock = self.store, self.clock
        actor = new_table(Hub(store, clock))
        to_revealed(actor, clock)
        run(actor, clock, S1, "touch_card")
        actor.close()  # the process dies: its timers die with it
        clock.advance(60)  # the server is down for a minute
        restarted = Hub(store, clock)
        assert result_of(restarted.load_all()) == 1
        table = restarted.actors["t1"]
        assert table.events[-1].type == "TablePaused"
        assert table.events[-1].data["cause"] == "server_restart"
        assert table.timers() == {} and table.view(PROCTOR)["paused"]
        assert not [e for e in table.events if e.type == "FlagIssued"]  # nobody flagged
        run(table, clock, PROCTOR, "resume_table")
        assert sorted(table.timers().values()) == [us(clock) + 3_000_000, us(clock) + 15_000_000]

    def test_restart_of_a_table_without_live_timers_changes_nothing(self):
        store, clock = self.store, self.clock
        actor = new_table(Hub(store, clock))
        new_table(Hub(store, clock), table="t2")
        run(actor, clock, PROCTOR, "start_round")
        run(actor, clock, PROCTOR, "place_card")  # no auto_proctor: waiting for the proctor
        actor.close()
        restarted = Hub(store, clock)
        assert result_of(restarted.load_all()) == 2
        assert restarted.actors["t2"].seq == 1  # not started
        table = restarted.actors["t1"]
        assert table.events[-1].type == "CardPlaced" and not table.view(PROCTOR)["paused"]
        assert run(table, clock, PROCTOR, "reveal_card")[0].type == "CardRevealed"

    def test_restart_of_an_auto_proctor_table_between_cards_pauses_it(self):
        store, clock = self.store, self.clock
        actor = new_table(Hub(store, clock), {**OPTIONS, "auto_proctor": 5})
        run(actor, clock, PROCTOR, "start_round")  # the "place" timer is live
        actor.close()
        clock.advance(60)
        restarted = Hub(store, clock)
        result_of(restarted.load_all())
        table = restarted.actors["t1"]
        assert table.events[-1].type == "TablePaused" and table.timers() == {}
        clock.advance(10)
        assert table.events[-1].type == "TablePaused"  # nothing placed while paused

    def test_shutdown_waits_for_the_in_flight_append_then_refuses(self):
        hub, store, clock = self.hub, self.store, self.clock
        actor = new_table(hub)
        store.gated = True
        d = actor.submit(Command("start_round", {}, PROCTOR), us(clock))
        done = hub.shutdown()
        assert not done.called
        store.release()
        result_of(done)
        assert result_of(d)[0].type == "RoundStarted"
        with pytest.raises(TableClosed):
            run(actor, clock, PROCTOR, "pause")
        with pytest.raises(TableClosed):
            new_table(hub, table="t2")

    def test_shutdown_lets_commands_queued_behind_the_append_finish_on_an_open_store(self):
        hub, store, clock = self.hub, self.store, self.clock
        actor = new_table(hub)
        store.gated = True
        first = actor.submit(Command("start_round", {}, PROCTOR), us(clock))  # in flight
        queued = actor.submit(Command("place_card", {}, PROCTOR), us(clock))  # waits behind it
        done = hub.shutdown()
        store.release()  # the first append completes; the queued command goes to the store
        assert result_of(first)[0].type == "RoundStarted" and not done.called
        store.release()
        assert result_of(queued)[0].type == "CardPlaced"
        result_of(done)
        assert [e.type for e in result_of(store.read("table/t1"))][-2:] == [
            "RoundStarted",
            "CardPlaced",
        ]  # the hub never closes the store: its owner does, after this

    def test_shutdown_waits_for_a_table_being_created_which_then_takes_no_commands(self):
        hub, store, clock = self.hub, self.store, self.clock
        store.gated = True
        created = hub.create_table("t2", "challenge", OPTIONS, DIRECTOR)
        done = hub.shutdown()
        assert not done.called
        store.release()
        actor = result_of(created)  # recorded and answered before the shutdown completes
        result_of(done)
        with pytest.raises(TableClosed):
            run(actor, clock, PROCTOR, "start_round")

    def test_a_table_loaded_during_shutdown_takes_no_commands(self):
        store, clock = self.store, self.clock
        new_table(Hub(store, clock))  # another process's table
        hub = Hub(store, clock)
        result_of(hub.shutdown())
        actor = result_of(hub.get("t1"))  # still readable (a join), but closed
        with pytest.raises(TableClosed):
            run(actor, clock, PROCTOR, "start_round")


# -- failures inside the game ---------------------------------------------------------------


TOY_OPTIONS = {"seats": [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}], "secret": 42}


class BrokenGame:
    """The toy game (tests/toygame) whose decide raises a bug for `explode`."""

    NAME = "broken"

    def __getattr__(self, name):
        return getattr(toygame, name)

    @staticmethod
    def decide(state, command, now):
        if command.name == "explode":
            raise ZeroDivisionError("bug")
        return toygame.decide(state, command, now)


class FailuresInsideTheGameTests(RuntimeCase):
    def test_a_bug_in_decide_fails_that_command_only(self):
        store, clock = self.store, self.clock
        hub = Hub(store, clock, games={"broken": BrokenGame()})
        actor = result_of(hub.create_table("b", "broken", TOY_OPTIONS, DIRECTOR))
        with pytest.raises(ZeroDivisionError):
            run(actor, clock, PROCTOR, "explode")
        assert run(actor, clock, PROCTOR, "start")[0].type == "Started"
        outcomes = {o: hub.metrics.value("t24_commands_total", outcome=o) for o in COMMAND_OUTCOMES}
        assert outcomes == {"failed": 1, "accepted": 1, "refused": 0}
        assert self.flushLoggedErrors(ZeroDivisionError)  # logged with its traceback, server side

    def test_a_game_without_event_view_fails_closed(self):
        event = Event("Secret", {"at": 5, "numbers": [1, 2, 3, 4]})
        assert fail_closed(event, Actor("player", "s1")).data == {"at": 5}
        assert fail_closed(event, Actor("auditor", "a")).data == event.data
        assert redactor_for(object()) is fail_closed
        assert redactor_for(challenge) is challenge.event_view


class EvolveBugGame(BrokenGame):
    """The toy game whose evolve raises on `Started` (a bug found only after recording)."""

    NAME = "evolve_bug"

    @staticmethod
    def evolve(state, event):
        if event.type == "Started":
            raise KeyError("bug")
        return toygame.evolve(state, event)


class EvolveBugTests(RuntimeCase):
    def test_a_bug_in_evolve_after_the_append_says_the_command_was_recorded(self):
        store, clock = self.store, self.clock
        from server.net.errors import RECORDED_BUT_BROKEN_MESSAGE, error_for
        from server.runtime.table_actor import TableBroken

        hub = Hub(store, clock, games={"evolve_bug": EvolveBugGame()})
        actor = result_of(hub.create_table("e", "evolve_bug", TOY_OPTIONS, DIRECTOR))
        failures = []
        actor.submit(Command("start", {}, PROCTOR), us(clock)).addErrback(failures.append)
        assert failures and failures[0].check(TableBroken)
        assert isinstance(failures[0].value.__cause__, KeyError)
        # the event is in the log (the message must not say "nothing was written")
        recorded = result_of(store.read("table/e"))
        assert [event.type for event in recorded] == ["TableCreated", "Started"]
        assert error_for(failures[0]) == ("internal", RECORDED_BUT_BROKEN_MESSAGE, None)
        assert "nothing was written" not in RECORDED_BUT_BROKEN_MESSAGE
        with pytest.raises(TableClosed):
            run(actor, clock, PROCTOR, "pause")
        assert self.flushLoggedErrors(KeyError, TableBroken)  # logged with its traceback


# -- evicting finished tables --------------------------------------------------------------


def finished_table(hub, clock, table="t1"):
    actor = new_table(hub, table=table)
    run(actor, clock, PROCTOR, "start_round")
    run(actor, clock, PROCTOR, "end_round")
    assert not actor.is_over()  # protests are heard until the score card is signed
    run(actor, clock, PROCTOR, "sign_score_card", initials="PK")
    assert actor.is_over()
    return actor


class EvictionTests(RuntimeCase):
    def test_a_quiet_finished_table_is_evicted_listed_and_replayed_on_demand(self):
        store, clock = self.store, self.clock
        hub = Hub(store, clock, evict_after=600)
        hub.start_evicting()
        finished = finished_table(hub, clock)
        playing = new_table(hub, table="t2")
        run(playing, clock, PROCTOR, "start_round")
        clock.pump([60] * 10)  # sweeps every 60 s: t1 is quiet from the first one on
        assert set(hub.actors) == {"t1", "t2"}  # quiet, but not for long enough yet
        clock.advance(60)  # this sweep has seen t1 quiet for 600 s
        assert set(hub.actors) == {"t2"}  # a table in play is never evicted
        assert finished.closed
        assert hub.tables() == [
            {"table": "t1", "game": "challenge", "seq": finished.seq, "over": True},
            {"table": "t2", "game": "challenge", "seq": playing.seq, "over": False},
        ]
        again = result_of(hub.get("t1"))  # a join or a command replays it from the log
        assert again is not finished and again.seq == finished.seq
        assert again.state == finished.state
        assert "t1" not in hub.retired and hub.tables()[0]["seq"] == finished.seq

    def test_a_watched_table_stays_until_its_last_viewer_left_long_enough(self):
        store, clock = self.store, self.clock
        hub = Hub(store, clock, evict_after=10)
        hub.start_evicting()
        actor = finished_table(hub, clock)
        viewer = Recorder(SPECTATOR)
        actor.subscribe(viewer)
        clock.pump([5] * 10)
        assert "t1" in hub.actors
        actor.unsubscribe(viewer)
        clock.advance(5)  # the first sweep to see it quiet starts its clock
        assert "t1" in hub.actors
        clock.pump([5, 5])
        assert "t1" not in hub.actors and hub.retired["t1"]["over"] is True

    def test_eviction_is_off_without_evict_after_and_stops_on_shutdown(self):
        store, clock = self.store, self.clock
        never = Hub(store, clock)
        never.start_evicting()
        finished_table(never, clock)
        clock.advance(10**6)
        assert "t1" in never.actors
        hub = Hub(store, clock, evict_after=10)
        hub.start_evicting()
        result_of(hub.shutdown())
        assert clock.getDelayedCalls() == []  # the sweeper stopped with the hub

    def test_at_start_up_a_finished_table_is_left_on_disk_until_joined(self):
        store, clock = self.store, self.clock
        before = Hub(store, clock)
        finished = finished_table(before, clock)
        playing = new_table(before, table="t2")
        run(playing, clock, PROCTOR, "start_round")

        after = Hub(store, clock, evict_after=600)  # the next start of the server
        assert result_of(after.load_all()) == 1  # only the table in play is replayed
        assert set(after.actors) == {"t2"}
        assert after.tables()[0] == {"table": "t1", "game": "challenge", "seq": 4, "over": True}
        assert finished.seq == 4
        joined = result_of(after.get("t1"))
        assert joined.state == finished.state and "t1" not in after.retired

        without_eviction = Hub(store, clock)
        assert result_of(without_eviction.load_all()) == 2
        assert set(without_eviction.actors) == {"t1", "t2"}


# -- the shell with the toy game (tests/toygame): nothing of the 24 Challenge assumed -------


class NoRecoveryToy:
    """The toy game declaring no recovery command (its timers simply run on)."""

    NAME = "toy_no_recovery"
    RECOVERY_COMMAND = None

    def __getattr__(self, name):
        return getattr(toygame, name)


def toy_hub(store, clock):
    return Hub(store, clock, games={"toy": toygame, NoRecoveryToy.NAME: NoRecoveryToy()})


class ToyGameTests(RuntimeCase):
    def test_a_restart_submits_the_games_own_recovery_command(self):
        """Recovery is the game's: the toy's `pause` (cause server_restart), not a challenge
        name."""
        store, clock = self.store, self.clock
        actor = result_of(toy_hub(store, clock).create_table("t", "toy", TOY_OPTIONS, DIRECTOR))
        run(actor, clock, PROCTOR, "start")
        assert list(actor.timers()) == [toygame.deadlines(actor.state)[0].key]
        actor.close()  # the server stops
        restarted = result_of(toy_hub(store, clock).get("t"))
        assert [event.type for event in restarted.events[-1:]] == ["Paused"]
        assert restarted.events[-1].data["cause"] == "server_restart"
        assert restarted.events[-1].actor == SERVER_ACTOR.as_dict()
        assert restarted.timers() == {}

    def test_a_game_without_recovery_command_keeps_its_timers_after_a_restart(self):
        store, clock = self.store, self.clock
        hub = toy_hub(store, clock)
        actor = result_of(hub.create_table("n", NoRecoveryToy.NAME, TOY_OPTIONS, DIRECTOR))
        run(actor, clock, PROCTOR, "start")
        timers = actor.timers()
        actor.close()  # the server stops
        restarted = result_of(toy_hub(store, clock).get("n"))
        assert restarted.seq == actor.seq  # nothing submitted
        assert restarted.timers() == timers
        clock.advance(10)  # the turn runs out: the server skips the seat, as before the restart
        assert restarted.events[-1].type == "TurnSkipped"
