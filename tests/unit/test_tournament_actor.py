"""The tournament's shell (its process manager, server/tournament/process.py, run by
server/runtime/process_actor.py) with the memory store and a
task.Clock: it creates and starts its tables through the hub, learns their results from their
events only, and comes back after a restart."""

from __future__ import annotations

import pytest
from shell_testcase import ShellTestCase
from tournament_support import csv_of, tournament_options
from twisted.internet import defer
from twisted.internet.defer import Deferred
from twisted.internet.task import Clock

from server.eventlog.backends import open_store
from server.games.base import Actor, Command
from server.runtime.hub import Hub, InvalidOptions
from server.runtime.process_actor import ProcessActor

T0 = 1_700_000_000.0
DIRECTOR = Actor("director", "d")
PROCTOR = Actor("proctor", "p")
TID = "tournament/spring"


def make_clock():
    c = Clock()
    c.advance(T0)
    return c


def make_store(clock):
    return open_store("memory:", clock=clock.seconds)


class TournamentActorCase(ShellTestCase):
    """A task.Clock at T0 and a memory store on it."""

    def setUp(self):
        super().setUp()
        self.clock = make_clock()
        self.store = make_store(self.clock)


def result_of(d: defer.Deferred):
    results = []
    d.addBoth(results.append)
    assert results, "the Deferred has not fired"
    if hasattr(results[0], "raiseException"):
        results[0].raiseException()
    return results[0]


def command(actor, name, who=DIRECTOR, **args):
    return result_of(actor.submit(Command(name, args, who), int(actor.clock.seconds() * 1e6)))


def new_tournament(hub) -> ProcessActor:
    options = tournament_options(grades=["4th"], table_options={"auto_proctor": 1})
    actor = result_of(hub.create_table(TID, "tournament", options, DIRECTOR))
    rows = [(f"S{i}", "Hill", "4th") for i in range(7)]
    command(actor, "import_students", csv=csv_of(rows))
    command(actor, "close_registration")
    command(actor, "seat_round", round=1)
    return actor


class TournamentActorTests(TournamentActorCase):
    def test_a_tournament_id_is_tournament_slash_id_and_only_a_tournament_has_one(self):
        store, clock = self.store, self.clock
        hub = Hub(store, clock)
        options = tournament_options()
        with pytest.raises(InvalidOptions):
            result_of(hub.create_table("spring", "tournament", options, DIRECTOR))
        with pytest.raises(InvalidOptions):
            result_of(hub.create_table("tournament/x", "challenge", {}, DIRECTOR))
        with pytest.raises(InvalidOptions):  # its tables' ids would pass 64 characters
            result_of(hub.create_table("tournament/" + "x" * 41, "tournament", options, DIRECTOR))
        actor = result_of(hub.create_table(TID, "tournament", options, DIRECTOR))
        assert isinstance(actor, ProcessActor) and actor.stream == TID

    def test_start_round_creates_and_starts_every_table_of_the_round(self):
        store, clock = self.store, self.clock
        hub = Hub(store, clock)
        actor = new_tournament(hub)
        command(actor, "start_round", round=1)
        names = [t.table for t in actor.state.round(1).tables]
        assert len(names) == 2
        for name in names:
            table = hub.actors[f"spring.{name}"]
            assert table.events[0].data["game"] == "challenge"
            assert table.state.started  # its round was started by the tournament
            assert [s.seat for s in table.state.seats] == list(
                next(t for t in actor.state.round(1).tables if t.table == name).students
            )

    def test_results_are_learnt_from_the_tables_events_and_the_round_closes(self):
        store, clock = self.store, self.clock
        hub = Hub(store, clock)
        actor = new_tournament(hub)
        command(actor, "start_round", round=1)
        for t in actor.state.round(1).tables:
            table = hub.actors[f"spring.{t.table}"]
            command(table, "end_round", PROCTOR)
            assert t.table not in actor.state.results  # not final until signed (R-ROUND-7)
            command(table, "sign_score_card", PROCTOR, initials="GH")
            assert t.table in actor.state.results
            assert actor.state.results[t.table].seq == table.seq
        assert [e.type for e in command(actor, "close_round", round=1)] == ["RoundClosed"]

    def test_after_a_restart_the_tournament_finds_its_tables_and_records_results_it_missed(self):
        store, clock = self.store, self.clock
        hub = Hub(store, clock)
        actor = new_tournament(hub)
        command(actor, "start_round", round=1)
        first = actor.state.round(1).tables[0].table
        actor.close()  # the server goes down before it hears the table end
        command(hub.actors[f"spring.{first}"], "end_round", PROCTOR)
        command(hub.actors[f"spring.{first}"], "sign_score_card", PROCTOR, initials="GH")
        assert first not in actor.state.results
        again = Hub(store, clock)
        result_of(again.load_all())
        tournament = again.actors[TID]
        assert isinstance(tournament, ProcessActor)
        assert first in tournament.state.results


class RecordingOffload:
    """The hub's worker (server/runtime/offload.py) as a record of the decks asked for; each
    request's Deferred fires when the test says (`finish`)."""

    def __init__(self) -> None:
        self.asked: list[tuple] = []
        self.pending: list[Deferred] = []

    def draw_decks(self, keys) -> Deferred:
        self.asked += list(keys)
        d: Deferred = Deferred()
        self.pending.append(d)
        return d

    def finish(self) -> None:
        pending, self.pending = self.pending, []
        for d in pending:
            d.callback(None)

    def shutdown(self) -> None:
        pass


class TournamentOnNodesTests(TournamentActorCase):
    def test_a_table_recorded_unstarted_is_started_when_the_tournament_comes_back(self):
        """A version that started its tables in a second append, stopped between the two, left
        a table with its `TableCreated` only: the tournament starts it when it comes back."""
        store, clock = self.store, self.clock
        from server.eventlog.envelope import NewEvent

        hub = Hub(store, clock)
        actor = new_tournament(hub)
        command(actor, "start_round", round=1)
        name = f"spring.{actor.state.round(1).tables[0].table}"
        old = open_store("memory:", clock=clock.seconds)  # the log that version left
        for stream, keep in ((TID, None), (f"table/{name}", 1)):
            recorded = result_of(store.read(stream))[:keep]
            copies = [NewEvent(e.type, e.data, e.actor, e.causation) for e in recorded]
            result_of(old.append(stream, 0, copies))
        again = Hub(old, clock)
        result_of(again.load_all())
        events = [e.type for e in result_of(old.read(f"table/{name}"))]
        assert events == ["TableCreated", "RoundStarted"] and again.actors[name].state.started
        again.actors[TID].close()  # a table started already is not sent start_round again
        third = Hub(old, clock)
        result_of(third.load_all())
        assert third.metrics.value("t24_commands_total", outcome="refused") == 0

    def test_the_deck_halves_are_drawn_ahead_in_the_worker_once_each(self):
        """A Double Digits half takes the solver about 2 s: drawn on the reactor at round 3 it
        stalled the node past a short lease (docs/operations.md); on a thread it still held
        the GIL the reactor needs (issue 32): the hub's worker process draws them."""
        from server.tournament.decks import tie_break_seed

        offload = RecordingOffload()
        hub = Hub(open_store("memory:", clock=self.clock.seconds), self.clock, offload=offload)
        options = tournament_options(grades=["4th"], table_options={"auto_proctor": 1})
        actor = result_of(hub.create_table(TID, "tournament", options, DIRECTOR))
        seed, tie = actor.state.options.deck_seed, tie_break_seed(actor.state.options.deck_seed, 1)
        # the Official Rules: one edition's 96-card deck, its two halves (R-DECK-5)
        expected = [("single-digits", seed, 1), ("single-digits", seed, 2)]
        expected += [("single-digits", tie, 1), ("single-digits", tie, 2)]
        assert offload.asked == expected
        # commands wait for the draws, in their order, each with its own arrival time
        rows = [(f"S{i}", "Hill", "4th") for i in range(7)]
        imported = actor.submit(
            Command("import_students", {"csv": csv_of(rows)}, DIRECTOR), int(T0 * 1e6)
        )
        closed = actor.submit(Command("close_registration", {}, DIRECTOR), int(T0 * 1e6) + 5)
        assert not imported.called and not closed.called and actor.seq == 1
        offload.finish()
        assert [len(result_of(d)) > 0 for d in (imported, closed)] == [True, True]
        assert actor.events[-1].data["at"] == int(T0 * 1e6) + 5  # its arrival, not the draw's end
        command(actor, "seat_round", round=1)
        command(actor, "start_round", round=1)  # nothing new to draw: nothing asked again
        assert offload.asked == expected


class Recorder:
    def __init__(self, viewer: Actor) -> None:
        self.viewer = viewer
        self.messages: list[dict] = []

    def push(self, push) -> None:
        self.messages.append(push.message)


class StandingsAndRestartTests(TournamentActorCase):
    def test_standings_are_pushed_live_to_spectators_of_the_tournament(self):
        """R-ROUND-7: a spectator joined to tournament/<id> gets each new result as an event and
        the standings in the view pushed after it; never the round's cards (hidden)."""
        store, clock = self.store, self.clock
        hub = Hub(store, clock)
        actor = new_tournament(hub)
        spectator = Recorder(Actor("spectator", "parent"))
        joined = actor.subscribe(spectator)
        command(actor, "start_round", round=1)
        first = actor.state.round(1).tables[0]
        command(hub.actors[f"spring.{first.table}"], "end_round", PROCTOR)
        command(hub.actors[f"spring.{first.table}"], "sign_score_card", PROCTOR, initials="GH")
        events = [m for m in spectator.messages if m["type"] == "event"]
        assert [m["event_type"] for m in events] == ["RoundStarted", "TableResultRecorded"]
        assert "deck" not in events[0]["data"]
        from protocol.views import apply_view_message

        snapshot = actor.subscribe(
            Recorder(Actor("spectator", "late"))
        )  # (its view, for the check)
        view = joined.view
        for message in events:  # each append's last event push carries the view after it
            if "view" in message or "patch" in message:
                view = apply_view_message(view, message)
        assert view["standings"] == snapshot.view["standings"] != joined.view["standings"]
        rows = view["standings"]["4th"]["qualifying"]
        assert {row["student"] for row in rows if row["r1"] is not None} == set(first.students)

    def test_after_a_restart_a_round_started_before_its_tables_existed_gets_them(self):
        """The server stopped right after recording `RoundStarted`: at start-up the tournament
        creates the tables it had not created yet, and starts them."""
        store, clock = self.store, self.clock
        from tournament_support import Tourney

        from server.eventlog.envelope import NewEvent

        t = Tourney(tournament_options(grades=["4th"], table_options={"auto_proctor": 1}))
        t.register_many(7)
        t.do("close_registration")
        t.do("seat_round", round=1)
        t.do("start_round", round=1)
        created = NewEvent("TableCreated", {"game": "tournament", "options": t.raw_options})
        events = [created, *(NewEvent(e.type, dict(e.data)) for e in t.events)]
        result_of(store.append(TID, 0, events))
        hub = Hub(store, clock)
        result_of(hub.load_all())
        for table in t.state.round(1).tables:
            assert hub.actors[f"spring.{table.table}"].state.started


def _end_and_sign(table, adjustments=None):
    """End a table's round, uphold one protest per adjustment (R-ROUND-8), sign (R-ROUND-7)."""
    if table.state.phase != "ended":
        command(table, "end_round", PROCTOR)
    for number, (seat, delta) in enumerate((adjustments or {}).items(), start=1):
        command(table, "file_protest", PROCTOR, seat=seat, seqs=[2], reason="a card was missed")
        correction = {"kind": "adjust_score", "seat": seat, "delta": delta, "why": "upheld"}
        command(
            table,
            "rule_protest",
            PROCTOR,
            protest=number,
            upheld=True,
            ruling_text="upheld",
            corrections=[correction],
        )
    command(table, "sign_score_card", PROCTOR, initials="GH")


class ReopenedRoundTests(TournamentActorCase):
    def test_r_round_8_a_ruling_after_advance_counts_only_once_the_director_reopens(self):
        store, clock = self.store, self.clock
        hub = Hub(store, clock)
        options = tournament_options(grades=["4th"], advance_count=3)
        actor = result_of(hub.create_table(TID, "tournament", options, DIRECTOR))
        rows = [(f"S{i}", "Hill", "4th") for i in range(4)]
        command(actor, "import_students", csv=csv_of(rows))
        command(actor, "close_registration")
        command(actor, "seat_round", round=1)
        command(actor, "start_round", round=1)
        table = hub.actors[f"spring.{actor.state.round(1).tables[0].table}"]
        _end_and_sign(table, {"p1": 3, "p2": 2, "p3": 1})
        command(actor, "close_round", round=1)
        command(actor, "seat_round", round=2)
        command(actor, "start_round", round=2)
        table = hub.actors[f"spring.{actor.state.round(2).tables[0].table}"]
        _end_and_sign(table)
        command(actor, "close_round", round=2)
        advanced = command(actor, "advance", round=2)[0].data["advancing"]["4th"]
        assert sorted(advanced) == ["p1", "p2", "p3"]
        # A late protest: the director reopens the table's card, the proctor upholds it.
        command(table, "reopen_score_card", DIRECTOR, reason="a late protest")
        number = len(table.state.protests) + 1
        command(table, "file_protest", PROCTOR, seat="p4", seqs=[2], reason="a card was missed")
        correction = {"kind": "adjust_score", "seat": "p4", "delta": 5, "why": "upheld"}
        command(
            table,
            "rule_protest",
            PROCTOR,
            protest=number,
            upheld=True,
            ruling_text="upheld",
            corrections=[correction],
        )
        command(table, "sign_score_card", PROCTOR, initials="GH")
        name = actor.state.round(2).tables[0].table
        assert actor.state.results[name].scores["p4"] == 0  # refused: round 2 is advanced
        command(actor, "reopen_round", round=2)
        assert actor.state.results[name].scores["p4"] == 5  # read again from the table's events
        advanced = command(actor, "advance", round=2)[0].data["advancing"]["4th"]
        assert sorted(advanced) == ["p1", "p2", "p4"]
