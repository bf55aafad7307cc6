"""The `ratings` query's recount off the reactor's long turns (server/runtime/ratings_query.py,
issue 32): the fold runs in slices of the reactor's turns, so another table's command is
answered between them; the questions asked while the log is being read share the next read;
a log that only grew after the last fold goes on from it, anything else is folded afresh;
and every answer is the one `rate_log` gives for the store's streams."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_log_ratings_properties import random_log
from test_net import say
from test_net_ratings import PRACTICE, T0
from test_net_view_at import ViewAtCase, connected
from twisted.internet.defer import fail
from twisted.internet.task import Clock
from twisted.python.failure import Failure

from protocol.messages import TABLE_STREAM_PREFIX
from server.analysis.log_ratings import rate_log
from server.eventlog.envelope import NewEvent
from server.eventlog.memory import MemoryStore
from server.eventlog.store import StoreUnavailable
from server.games.base import Actor
from server.runtime import ratings_query
from server.runtime.ratings_query import cache_of
from server.runtime.slices import Slices

TABLES = 40
STUDENTS = [f"Student {n}" for n in range(12)]


class TickingClock(Clock):
    """A clock whose time moves by `cost` each time it is read: `Slices` reads it before and
    after each piece of work, so each piece takes `cost` of the turn's slice."""

    cost = 0.002

    def __init__(self) -> None:
        super().__init__()
        self.ticks = 0

    def seconds(self) -> float:
        self.ticks += 1
        return super().seconds() + self.ticks * self.cost


def next_turn(clock: Clock) -> None:
    """One reactor turn: the calls due now run; what they schedule waits for the next one."""
    due, clock.calls = list(clock.calls), []
    for call in due:
        call.func(*call.args, **call.kw)


def messages(wire, kind):
    """The messages of this type the wire got since it was last read (it is read out)."""
    return [m for m in wire.messages() if m["type"] == kind]


class RecountTests(ViewAtCase):
    def setUp(self):
        super().setUp()
        self.turns = TickingClock()
        cache = cache_of(self.hub.store)
        cache.slices = Slices(self.turns, slice_s=0.005)  # three pieces a turn
        self.cache = cache

    def given_games(self, count=TABLES, first=0, at=T0):
        """`count` pocket games of four students each, ended one a second from `at`."""
        for n in range(first, first + count):
            names = [STUDENTS[(n * 5 + k) % len(STUDENTS)] for k in range(4)]
            seats = [{"seat": f"s{k}", "name": name} for k, name in enumerate(names)]
            scores = {f"s{k}": (n + k * 3) % 7 for k in range(4)}
            ended = {"at": at + n * 1_000_000, "reason": "stack_used_up", "scores": scores}
            events = [
                NewEvent("TableCreated", {"game": "pocket", "options": {"seats": seats}}),
                NewEvent("GameEnded", ended),
            ]
            self.successResultOf(self.hub.store.append(f"table/g{n}", 0, events))

    def expected(self, name):
        """`rate_log` over the store's table streams, for the student of this name."""
        store = self.hub.store
        names = self.successResultOf(store.streams(TABLE_STREAM_PREFIX))
        streams = {n: self.successResultOf(store.load(n)) for n in names}
        return rate_log(streams).student(name).as_data()

    def ask(self, session, wire, name, request_id):
        say(session, "query", id=request_id, table="pr", name="ratings", args={"name": name})

    def run_turns(self, wire, answers, limit=1000):
        """Reactor turns until `answers` answers have come: the answers, and how many
        turns it took."""
        got = []
        for turn in range(limit):
            got += messages(wire, "answer")
            if len(got) >= answers:
                return got, turn
            next_turn(self.turns)
        raise AssertionError("the recount never ended")

    def test_the_recount_runs_in_slices_and_another_table_plays_meanwhile(self):
        self.given_games()
        director, wire = connected(self.hub, self.clock, "director")
        say(director, "create_table", id=10, table="pr", game="practice", options=PRACTICE)
        ada, ada_wire = connected(self.hub, self.clock, "player", table="pr", seat="s1")
        wire.messages()
        self.ask(director, wire, STUDENTS[0], 11)
        assert messages(wire, "answer") == []  # not folded in this turn
        say(ada, "command", id=20, table="pr", name="next_card")  # the table plays meanwhile
        assert [m["type"] for m in ada_wire.messages()] == ["accepted"]
        (answer,), turns = self.run_turns(wire, 1)
        # 40 tables parsed, then 40 results folded `FOLD_STEPS` a piece, three pieces a turn
        assert turns >= TABLES // 3
        assert answer["result"] == self.expected(STUDENTS[0])
        seated = ({(n * 5 + k) % len(STUDENTS) for k in range(4)} for n in range(TABLES))
        played = [seats for seats in seated if 0 in seats]
        assert answer["result"]["tables"] == len(played) > 1

    def test_questions_asked_during_a_read_share_the_next_one(self):
        self.given_games()
        director, wire = connected(self.hub, self.clock, "director")
        say(director, "create_table", id=10, table="pr", game="practice", options=PRACTICE)
        wire.messages()
        self.ask(director, wire, STUDENTS[0], 11)  # the first read begins
        for n, name in enumerate(STUDENTS[1:], 12):  # a grade's pages, asking meanwhile
            self.ask(director, wire, name, n)
        got, _turns = self.run_turns(wire, len(STUDENTS))
        answers = {m["id"]: m["result"] for m in got}
        assert (self.cache.runs, self.cache.recounts) == (2, 1)  # the second folds nothing
        for n, name in enumerate(STUDENTS, 11):
            assert answers[n] == self.expected(name), name

    def test_a_log_that_only_grew_is_folded_on_and_one_that_changed_before_is_folded_afresh(
        self,
    ):
        self.given_games()
        director, wire = connected(self.hub, self.clock, "director")
        say(director, "create_table", id=10, table="pr", game="practice", options=PRACTICE)
        wire.messages()
        self.ask(director, wire, STUDENTS[0], 11)
        self.run_turns(wire, 1)
        assert self.cache.recounts == 1
        self.given_games(count=3, first=TABLES)  # three games end after the last one folded
        wire.messages()
        self.ask(director, wire, STUDENTS[0], 12)
        (answer,), turns = self.run_turns(wire, 1)
        assert answer["result"] == self.expected(STUDENTS[0])
        assert self.cache.recounts == 1 and turns < 4  # gone on with the three results
        self.given_games(count=1, first=TABLES + 3, at=T0 - 10**9)  # one that ended before
        wire.messages()
        self.ask(director, wire, STUDENTS[0], 13)
        (answer,), _turns = self.run_turns(wire, 1)
        assert answer["result"] == self.expected(STUDENTS[0])
        assert self.cache.recounts == 2  # folded afresh: it comes first in the log's order

    def test_a_store_that_fails_fails_every_question_waiting_and_the_next_one_reads_again(
        self,
    ):
        self.given_games(count=3)
        director, wire = connected(self.hub, self.clock, "director")
        say(director, "create_table", id=10, table="pr", game="practice", options=PRACTICE)
        wire.messages()
        store, load = self.hub.store, self.hub.store.load
        store.load = lambda stream: fail(StoreUnavailable("the store is down"))
        self.ask(director, wire, STUDENTS[0], 11)
        self.ask(director, wire, STUDENTS[1], 12)  # waits for the next read, which fails too
        for _ in range(20):
            next_turn(self.turns)
        errors = messages(wire, "error")
        assert sorted((e["id"], e["code"]) for e in errors) == [
            (11, "unavailable"),
            (12, "unavailable"),
        ]
        assert self.flushLoggedErrors(StoreUnavailable)  # logged server side
        assert self.cache.runs == 2
        store.load = load
        self.ask(director, wire, STUDENTS[0], 13)
        (answer,), _turns = self.run_turns(wire, 1)
        assert answer["result"] == self.expected(STUDENTS[0])


def test_a_fold_piece_is_a_few_steps():
    assert 0 < ratings_query.FOLD_STEPS <= 64


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_log_read_as_it_grows_is_rated_as_the_whole_log_each_time(seed):
    """The random logs of test_log_ratings_properties.py (24 Challenge rounds, some signed,
    and practices), appended to a store a few events of a table at a time in a random
    interleaving: after each append, the ratings read (folded on or afresh) are `rate_log`'s
    of the store's streams then."""
    rng = random.Random(seed)
    store = MemoryStore()
    left = {}
    for stream, (game, options, events) in random_log(seed).items():
        created = NewEvent("TableCreated", {"game": game, "options": options})
        proctor = Actor("proctor", "p1")
        left[stream] = [created] + [NewEvent(e.type, dict(e.data), proctor) for e in events]
    seqs = dict.fromkeys(left, 0)
    clock = Clock()
    while left:
        stream = rng.choice(sorted(left))
        taken = rng.randint(1, 12)
        part, left[stream] = left[stream][:taken], left[stream][taken:]
        recorded = successful(store.append(stream, seqs[stream], part))
        seqs[stream] = recorded[-1].seq
        if not left[stream]:
            del left[stream]
        rated, _cache, _read = successful(ratings_query.read_log(store, clock))
        streams = {name: successful(store.load(name)) for name in seqs if seqs[name]}
        assert rated == rate_log(streams)


def successful(d):
    """The result of a Deferred that has fired (a memory store's, on a test's clock)."""
    found = []
    d.addBoth(found.append)
    (result,) = found
    if isinstance(result, Failure):
        result.raiseException()
    return result
