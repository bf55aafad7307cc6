"""The shell and the signed score card (R-ROUND-7): a 24 Challenge table is over, listed
`over`, evictable and its head logged (`table_over`) when the proctor signs, not at
`RoundEnded`; a director's reopening puts it back in play and a new signature logs again."""

from __future__ import annotations

from shell_testcase import ShellTestCase
from test_runtime import DIRECTOR, PROCTOR, new_table, run
from twisted.internet.task import Clock
from twisted.logger import globalLogPublisher

from server.eventlog.backends import open_store
from server.runtime.hub import Hub

T0 = 1_700_000_000.0


def make_clock():
    c = Clock()
    c.advance(T0)
    return c


def over_lines(events):
    return [e for e in events if e.get("event") == "table_over"]


class HearingTests(ShellTestCase):
    def setUp(self):
        super().setUp()
        self.clock = make_clock()
        self.logged: list[dict] = []  # the log events emitted during the test
        globalLogPublisher.addObserver(self.logged.append)
        self.addCleanup(globalLogPublisher.removeObserver, self.logged.append)

    def test_the_table_is_over_when_signed_and_again_after_a_reopening(self):
        clock, logged = self.clock, self.logged
        hub = Hub(open_store("memory:", clock=clock.seconds), clock, evict_after=60)
        actor = new_table(hub)
        run(actor, clock, PROCTOR, "start_round")
        run(actor, clock, PROCTOR, "end_round")
        assert not actor.is_over() and over_lines(logged) == []
        assert hub.tables()[0]["over"] is False
        clock.advance(120)
        assert hub.evict_quiet_tables() == [] and hub.evict_quiet_tables() == []  # not finished
        signed = run(actor, clock, PROCTOR, "sign_score_card", initials="PK")
        assert actor.is_over() and hub.tables()[0]["over"] is True
        (line,) = over_lines(logged)
        assert line["seq"] == signed[-1].seq == actor.seq
        run(actor, clock, DIRECTOR, "reopen_score_card", reason="a late protest")
        assert not actor.is_over() and hub.tables()[0]["over"] is False
        run(actor, clock, PROCTOR, "sign_score_card", initials="PK")
        assert [line["seq"] for line in over_lines(logged)] == [signed[-1].seq, actor.seq]
        assert hub.evict_quiet_tables() == []  # the first sweep to see it quiet
        clock.advance(60)
        assert hub.evict_quiet_tables() == ["t1"]
