"""The catch-up cache (server/runtime/pushes.py, issue 18): a join's pushes are built for
what it asks, once, shared by equal redactions, and forgotten with the viewers who asked."""

from __future__ import annotations

from shell_testcase import ShellTestCase

from server.eventlog.envelope import RecordedEvent
from server.games.base import Actor, Event
from server.runtime.pushes import CATCH_UP_VIEWERS, EncodedEvents

SPECTATOR = Actor("spectator", "a")
OTHER = Actor("spectator", "b")  # another name, the same redaction


def log(count: int) -> list[RecordedEvent]:
    return [
        RecordedEvent("table/t", seq, "Tick", {"n": seq}, seq, {}, "", 1, b"", b"")
        for seq in range(1, count + 1)
    ]


class CountingView:
    """A game's `event_view` that counts the redactions it makes (the work a catch-up does)."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, event: Event, viewer: Actor) -> Event:
        self.calls += 1
        return event


class CatchUpCacheTests(ShellTestCase):
    """The catch-up cache (module doc)."""

    def test_a_reconnect_near_the_head_builds_only_its_own_events(self):
        view, events = CountingView(), log(100)
        cache = EncodedEvents("t", view)
        recent = cache.catch_up(events, SPECTATOR, 98)
        assert [push.message["seq"] for push in recent] == [99, 100] and view.calls == 2
        whole = cache.catch_up(events, SPECTATOR, 0)  # further back: the 98 missing ones only
        assert [push.message["seq"] for push in whole] == list(range(1, 101)) and view.calls == 100
        assert whole[-2:] == recent and all(a is b for a, b in zip(whole[-2:], recent, strict=True))
        again = cache.catch_up(events + log(101)[100:], SPECTATOR, 50)  # one live event since
        assert [push.message["seq"] for push in again] == list(range(51, 102)) and view.calls == 101
        assert all(a is b for a, b in zip(again[:-1], whole[50:], strict=True))

    def test_equal_redactions_share_their_pushes(self):
        view, events = CountingView(), log(10)
        cache = EncodedEvents("t", view)
        first = cache.catch_up(events, SPECTATOR, 0)
        other = cache.catch_up(events, OTHER, 0)
        assert all(a is b for a, b in zip(first, other, strict=True))  # one frame for both

    def test_pushes_are_forgotten_with_the_viewers_who_asked_for_them(self):
        view, events = CountingView(), log(20)
        cache = EncodedEvents("t", view)
        cache.catch_up(events, SPECTATOR, 0)  # asks for all 20
        for n in range(CATCH_UP_VIEWERS):  # then as many others, each for the last 2 only
            cache.catch_up(events, Actor("player", f"s{n}"), 18)
        # SPECTATOR was the least recent and is gone, and with it the pushes of events 1-18
        calls = view.calls
        cache.catch_up(events, Actor("player", "s0"), 0)
        assert view.calls == calls + 18
