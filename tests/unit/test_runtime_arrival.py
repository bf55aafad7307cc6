"""The shell's part of the wait for the students (docs/rules.md decision 30): the table actor
begins play when the last seat joins, never before, and a person can begin it earlier.

A hub on the memory store driven by a task.Clock: `auto_proctor` would place the first card
3 s after the round starts; with `wait_for_students` no card is placed while a seat is not
joined, however long, and the placing comes 3 s after the last seat joined.
"""

from __future__ import annotations

from test_runtime import DIRECTOR, OPTIONS, PROCTOR, Recorder, RuntimeCase, new_table, run

from server.games.base import Actor

WAITING = {**OPTIONS, "auto_proctor": 3, "wait_for_students": True}
SEATS = ("s1", "s2", "s3", "s4")


class ArrivalTests(RuntimeCase):
    def started(self):
        actor = new_table(self.hub, WAITING)
        run(actor, self.clock, DIRECTOR, "start_round")
        return actor

    def join(self, actor, seat):
        recorder = Recorder(Actor("player", seat))
        actor.subscribe(recorder)
        self.clock.advance(0)  # the presence command goes out a turn after the join
        return recorder

    def types(self, actor):
        return [event.type for event in actor.events]

    def test_no_card_is_placed_while_a_seat_of_the_table_is_not_connected(self):
        actor = self.started()
        for seat in SEATS[:3]:
            self.join(actor, seat)
        self.clock.advance(600)  # ten minutes: auto_proctor would have played cards
        assert "CardPlaced" not in self.types(actor)
        assert actor.timers() == {}
        assert actor.state.waiting

    def test_play_begins_when_the_last_seat_joins_and_the_first_card_comes_after(self):
        actor = self.started()
        for seat in SEATS[:3]:
            self.join(actor, seat)
        self.clock.advance(60)
        last = self.join(actor, "s4")
        began = actor.last_events["PlayBegan"]
        assert began.data["by"] == "students"
        assert began.data["connected"] == list(SEATS)
        assert began.actor == {"role": "server", "id": "server"}
        assert "PlayBegan" in last.types()  # the last student sees play begin
        assert "CardPlaced" not in self.types(actor)
        self.clock.advance(3)
        assert "CardPlaced" in self.types(actor)

    def test_a_seat_marked_absent_is_not_waited_for(self):
        actor = self.started()
        for seat in SEATS[:3]:
            self.join(actor, seat)
        assert actor.state.waiting
        run(actor, self.clock, DIRECTOR, "mark_seat", seat="s4", mark="absent")
        assert not actor.state.waiting  # the mark was the last thing missing
        assert actor.last_events["PlayBegan"].data["attendance"] == {"s4": "absent"}

    def test_a_student_who_leaves_before_the_last_arrives_holds_the_table(self):
        actor = self.started()
        joined = [self.join(actor, seat) for seat in SEATS[:3]]
        actor.unsubscribe(joined[0])
        self.join(actor, "s4")
        assert actor.state.waiting  # s1 is gone again
        self.join(actor, "s1")
        assert not actor.state.waiting

    def test_a_person_begins_play_whoever_is_connected(self):
        actor = self.started()
        run(actor, self.clock, PROCTOR, "begin_play")
        assert actor.last_events["PlayBegan"].data["by"] == "proctor"
        self.clock.advance(3)
        assert "CardPlaced" in self.types(actor)

    def test_a_table_without_the_option_never_sends_a_presence_command(self):
        actor = new_table(self.hub, {**OPTIONS, "auto_proctor": 3})
        for seat in SEATS:
            self.join(actor, seat)
        assert self.types(actor) == ["TableCreated"]  # nothing began a round not started
        run(actor, self.clock, DIRECTOR, "start_round")
        assert "PlayBegan" not in self.types(actor)
