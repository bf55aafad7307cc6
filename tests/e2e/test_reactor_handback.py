"""The Autobahn clients' reactor thread hands the global reactor back stopped and clean, so the
in-process trial TestCases that run after the end-to-end tests, in the same pytest process,
can run it themselves and find nothing of the clients on it (tests/e2e/wsclients.py)."""

from __future__ import annotations

from twisted.internet import reactor
from twisted.internet.threads import blockingCallFromThread
from wsclients import reactor_thread, stop_reactor_thread


def test_the_reactor_thread_stops_and_leaves_the_reactor_clean_and_restartable():
    for _round in range(2):  # started again after a stop, as the next module does
        reactor_thread()
        assert blockingCallFromThread(reactor, lambda: reactor.running) is True
        left = blockingCallFromThread(reactor, reactor.callLater, 60, lambda: None)
        stop_reactor_thread()
        assert not reactor.running
        assert not left.active()  # what the clients left is dropped with the thread
        assert reactor.getDelayedCalls() == []
        assert set(reactor.getReaders()) <= set(reactor._internalReaders)
    stop_reactor_thread()  # a second stop is harmless
