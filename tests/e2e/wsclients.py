"""Blocking WebSocket test clients: Autobahn (Twisted, reactor in a thread) and `websockets`.

Why a reactor thread: the tests are plain pytest functions that wait with timeouts; the
Autobahn client needs a running reactor. `reactor_thread()` starts the global reactor in a
daemon thread without signal handlers, and every client call is marshalled onto it; after each
module `stop_reactor_thread()` hands the reactor back, stopped and clean, to the trial tests.
Received frames are decoded with `protocol.client.ClientSession`, which also checks that
event pushes arrive with no gap and no duplicate (it raises `SequenceGap`).

Every wait has a timeout (`TIMEOUT`), never a fixed sleep.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Any

from autobahn.twisted.websocket import (
    WebSocketClientFactory,
    WebSocketClientProtocol,
    connectWS,
)
from server_process import TIMEOUT
from twisted.internet import reactor
from twisted.internet.defer import Deferred
from twisted.internet.task import deferLater
from twisted.internet.threads import blockingCallFromThread

from protocol.client import ClientSession
from protocol.messages import SUBPROTOCOL

_started = threading.Lock()
_thread: threading.Thread | None = None


def reactor_thread() -> None:
    """Run the global reactor in a daemon thread (until `stop_reactor_thread`)."""
    global _thread
    with _started:
        if _thread is None:
            _thread = threading.Thread(
                target=reactor.run, kwargs={"installSignalHandlers": False}, daemon=True
            )
            _thread.start()


def stop_reactor_thread() -> None:
    """Close what the clients left open, stop the reactor thread, and drop what is left.

    Why: the in-process tests in the same pytest process are trial TestCases
    (tests/shell_testcase.py), which run the global reactor on the main thread and fail a test
    that leaves it dirty. So the end-to-end tests hand it back stopped and clean. `crash`
    (not `stop`) lets a later `reactor_thread()` or trial run it again.
    """
    global _thread
    with _started:
        if _thread is None:
            return
        blockingCallFromThread(reactor, _close_connections)
        reactor.callFromThread(reactor.crash)
        _thread.join(TIMEOUT)
        if _thread.is_alive():
            raise RuntimeError("the reactor thread did not stop")
        _thread = None
        reactor.removeAll()  # anything that is not a connection (none is expected)
        for call in reactor.getDelayedCalls():  # the closed clients' Autobahn timers
            call.cancel()


def _close_connections() -> Deferred:
    """Abort the connections the tests left open (the server sees them end, and stops
    counting them); fires a moment later, once they are gone."""
    for selectable in set(reactor.getReaders()) | set(reactor.getWriters()):
        if hasattr(selectable, "abortConnection"):
            selectable.abortConnection()
    return deferLater(reactor, 0.05, lambda: None)


class Closed(Exception):
    """The connection closed while a message was awaited."""


class HandshakeRefused(Exception):
    """The server refused the opening handshake (the reason holds the HTTP status)."""


class _Protocol(WebSocketClientProtocol):
    def onOpen(self) -> None:
        self.factory.owner._opened(self)

    def onMessage(self, payload: bytes, isBinary: bool) -> None:
        self.factory.owner._inbox.put(("frame", payload, isBinary))

    def onClose(self, wasClean: bool, code: int | None, reason: str | None) -> None:
        self.factory.owner._closed(code, reason, self.remoteCloseCode)


class AutobahnClient:
    """A blocking t24 client over Autobahn's Twisted WebSocket client."""

    def __init__(self, url: str, subprotocols: tuple[str, ...] = (SUBPROTOCOL,), origin=None):
        reactor_thread()
        self.session = ClientSession()
        self._inbox: queue.Queue = queue.Queue()
        self._open = threading.Event()
        self.protocol: _Protocol | None = None
        self.close_code: int | None = None
        self.close_reason: str | None = None
        self.backlog: list[dict[str, Any]] = []

        def connect() -> None:
            factory = WebSocketClientFactory(url, protocols=list(subprotocols), origin=origin)
            factory.protocol = _Protocol
            factory.owner = self
            # Autobahn's own timers give up first, so a refusal is told with its reason
            factory.setProtocolOptions(autoPingInterval=0, openHandshakeTimeout=TIMEOUT / 2)
            connectWS(factory, timeout=TIMEOUT / 2)

        reactor.callFromThread(connect)
        if not self._open.wait(TIMEOUT) or self.protocol is None:
            raise HandshakeRefused(self.close_reason or "no handshake within the timeout")

    # -- reactor-thread callbacks -------------------------------------------------------------

    def _opened(self, protocol: _Protocol) -> None:
        self.protocol = protocol
        self._open.set()

    def _closed(self, code: int | None, reason: str | None, remote_code: int | None) -> None:
        self.close_code = remote_code if remote_code is not None else code
        self.close_reason = reason
        self._inbox.put(("closed", None, None))
        self._open.set()

    # -- sending ------------------------------------------------------------------------------

    def send_raw(self, payload: bytes, binary: bool = True) -> None:
        """Send one WebSocket message as it is (binary or text)."""
        assert self.protocol is not None
        blockingCallFromThread(reactor, self.protocol.sendMessage, payload, binary)

    def send(self, kind: str, **fields: Any) -> int:
        """Send a request built and checked by `protocol`; its id."""
        request_id, frame = self.session.request(kind, **fields)
        self.send_raw(frame)
        return request_id

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a request and wait for its reply (event pushes meanwhile go to the backlog)."""
        request_id = self.send(kind, **fields)
        return self.wait_for(lambda m: m.get("id") == request_id and m["type"] != "event")

    def hello(self, token: str) -> dict[str, Any]:
        reply = self.request("hello", token=token)
        assert reply["type"] == "welcome", reply
        return reply

    # -- receiving ----------------------------------------------------------------------------

    def recv(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message (from the backlog first); `Closed` if the connection closes."""
        if self.backlog:
            return self.backlog.pop(0)
        try:
            kind, payload, _binary = self._inbox.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError("no message within the timeout") from None
        if kind == "closed":
            self._inbox.put(("closed", None, None))  # keep reporting it
            raise Closed(f"closed with {self.close_code}: {self.close_reason}")
        return self.session.receive(payload)

    def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = TIMEOUT
    ) -> dict[str, Any]:
        """The first message matching `predicate`; the others stay in the backlog, in order."""
        skipped = []
        kept, self.backlog = self.backlog, []
        try:
            for index, message in enumerate(kept):
                if predicate(message):
                    skipped.extend(kept[index + 1 :])  # the later ones stay, in order
                    return message
                skipped.append(message)
            deadline = threading.Event()
            timer = threading.Timer(timeout, deadline.set)
            timer.start()
            try:
                while not deadline.is_set():
                    message = self.recv(timeout=timeout)
                    if predicate(message):
                        return message
                    skipped.append(message)
            finally:
                timer.cancel()
            raise TimeoutError("no matching message within the timeout")
        finally:
            self.backlog = skipped + self.backlog

    def event(self, event_type: str, timeout: float = TIMEOUT) -> dict[str, Any]:
        """Wait for the push of an event of this type."""
        return self.wait_for(
            lambda m: m["type"] == "event" and m["event_type"] == event_type, timeout
        )

    def events(self) -> list[dict[str, Any]]:
        """The event pushes in the backlog (removed from it)."""
        pushes = [m for m in self.backlog if m["type"] == "event"]
        self.backlog = [m for m in self.backlog if m["type"] != "event"]
        return pushes

    def wait_closed(self, timeout: float = TIMEOUT) -> int | None:
        """Wait until the server closes the connection; the close code it sent."""
        try:
            while True:
                self.recv(timeout)
        except Closed:
            return self.close_code

    def close(self) -> None:
        if self.protocol is not None and self.close_code is None:
            reactor.callFromThread(self.protocol.sendClose, 1000)
