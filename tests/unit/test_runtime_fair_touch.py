"""The shell runs the compensated first touch (R-PLAY-2, issue 19) on a `task.Clock`: each
touch carries its connection's delay, the grant deadline fires when the arbitration window
closes, and the pattern window (R-PLAY-4) runs from the grant."""

from __future__ import annotations

from shell_testcase import ShellTestCase
from twisted.internet.task import Clock

from server.eventlog.backends import open_store
from server.games.base import Actor, Command
from server.runtime.hub import Hub

T0 = 1_700_000_000.0
PROCTOR, DIRECTOR = Actor("proctor", "p1"), Actor("director", "d")
DECK = [{"card_id": i, "numbers": [1, 2, 3, 4], "dots": 1} for i in range(1, 4)]
OPTIONS = {
    "seats": [{"seat": f"s{i}", "name": ""} for i in range(1, 4)],
    "deck": DECK,
    "touch_compensation": True,
    "max_credit_ms": 100,
}


def fired(d):
    out: list = []
    d.addBoth(out.append)
    assert out, "not fired"
    if hasattr(out[0], "raiseException"):
        out[0].raiseException()
    return out[0]


class FairTouchTests(ShellTestCase):
    def test_the_grant_fires_from_the_clock_and_the_windows_run_from_it_r_play_2(self):
        clock = Clock()
        clock.advance(T0)
        hub = Hub(open_store("memory:", clock=clock.seconds), clock)
        actor = fired(hub.create_table("t1", "challenge", OPTIONS, DIRECTOR))
        for name in ("start_round", "place_card", "reveal_card"):
            fired(actor.submit(Command(name, {}, PROCTOR), int(clock.seconds() * 1e6)))
        clock.advance(1)

        def touch(seat: str, delay_ms: int) -> None:
            command = Command("touch_card", {}, Actor("player", seat), delay_us=delay_ms * 1000)
            fired(actor.submit(command, int(round(clock.seconds() * 1e6))))

        touch("s1", 0)
        clock.advance(0.020)
        touch("s2", 50)  # 30 ms earlier once its lag is credited
        assert [key.split(":")[0] for key in actor.timers()] == ["grant"]
        clock.advance(0.049)
        assert actor.state.card.toucher is None  # the window is still open
        clock.advance(0.002)  # earliest compensated (-30 ms) + 100 ms = 70 ms after s1's arrival
        assert actor.state.card.toucher == "s2"
        granted = actor.events[-1]
        assert granted.type == "FirstTouchGranted" and granted.data["first_by_arrival"] == "s1"
        assert sorted(key.split(":")[0] for key in actor.timers()) == ["pattern", "solution"]
        assert actor.timers()[next(k for k in actor.timers() if k.startswith("pattern"))] == (
            granted.data["at"] + 3_000_000
        )
