"""The Autobahn clients' reactor thread hands the global reactor back stopped and clean, so the
in-process trial TestCases that run after the end-to-end tests, in the same pytest process,
can run it themselves and find nothing of the clients on it (tests/e2e/wsclients.py)."""

from __future__ import annotations

import threading
from functools import partial

from twisted.internet import protocol, reactor
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.internet.threads import blockingCallFromThread
from wsclients import reactor_thread, stop_reactor_thread


class Ends(protocol.Protocol):
    """A protocol that says when its connection ended."""

    def __init__(self, ended: threading.Event) -> None:
        self.ended = ended

    def connectionLost(self, reason):  # noqa: N802 - Twisted's name
        self.ended.set()


def test_the_reactor_thread_stops_and_leaves_the_reactor_clean_and_restartable():
    for _round in range(2):  # started again after a stop, as the next module does
        reactor_thread()
        assert blockingCallFromThread(reactor, lambda: reactor.running) is True
        left = blockingCallFromThread(reactor, reactor.callLater, 60, lambda: None)
        server_end, client_end = threading.Event(), threading.Event()
        port = blockingCallFromThread(
            reactor,
            reactor.listenTCP,
            0,
            protocol.Factory.forProtocol(partial(Ends, server_end)),
            interface="127.0.0.1",
        )
        endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", port.getHost().port)
        blockingCallFromThread(reactor, connectProtocol, endpoint, Ends(client_end))
        blockingCallFromThread(reactor, port.stopListening)
        stop_reactor_thread()  # the connection is left open, as a test may leave a client
        assert not reactor.running
        assert server_end.is_set() and client_end.is_set()  # closed, both ends told
        assert not left.active()  # what the clients left is dropped with the thread
        assert reactor.getDelayedCalls() == []
        assert set(reactor.getReaders()) <= set(reactor._internalReaders)
        assert reactor.getWriters() == []
    stop_reactor_thread()  # a second stop is harmless
