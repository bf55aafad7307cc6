"""The client's self-healing connection (clients/reference_cli/connection.py), frame by frame.

A fake transport stands in for Autobahn and `task.Clock` for time, so every path is driven
exactly: hello, the first join with `after_seq=0`, pushes, a drop and the resume with the
last seq, the backoff, a gap, refusals that end the link, and requests with their replies.
The real sockets are exercised by tests/e2e/test_cli_*.py.
"""

from __future__ import annotations

import pytest
from shell_testcase import ShellTestCase
from twisted.internet.task import Clock

from clients.reference_cli.connection import (
    Backoff,
    LinkLost,
    NotConnected,
    ServerRefused,
    TableLink,
    refusal_words,
)
from clients.reference_cli.games.challenge.words import WORDS as CHALLENGE_WORDS
from clients.reference_cli.words import set_language
from protocol.codec import decode, encode
from protocol.words import catalogue


class FakeProto:
    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.closed: int | None = None
        self.dropped = False

    def sendMessage(self, frame: bytes, isBinary: bool) -> None:  # noqa: N802, N803
        assert isBinary
        self.sent.append(decode(frame))

    def sendClose(self, code: int) -> None:  # noqa: N802
        self.closed = code

    def dropConnection(self, abort: bool = False) -> None:  # noqa: N802
        self.dropped = True


class Listener:
    def __init__(self) -> None:
        self.log: list[tuple] = []

    def link_status(self, status):
        self.log.append(("status", status))

    def link_welcome(self, welcome):
        self.log.append(("welcome", welcome["role"]))

    def link_snapshot(self, snapshot, after_seq):
        self.log.append(("snapshot", snapshot["seq"], after_seq))

    def link_event(self, push):
        self.log.append(("event", push["seq"]))

    def link_fatal(self, code, message):
        self.log.append(("fatal", code, message))

    def kinds(self):
        return [entry[0] for entry in self.log]


def make(**options):
    clock, listener, connects = Clock(), Listener(), []
    link = TableLink(
        "ws://x/ws",
        "tok",
        reactor=clock,
        listener=listener,
        rand=lambda: 0.5,
        connector=connects.append,
        **options,
    )
    return link, clock, listener, connects


def open_link(link: TableLink) -> FakeProto:
    proto = FakeProto()
    link._opened(proto)
    return proto


def reply(link, proto, **message):
    link._frame(proto, encode(message), True)


def welcome(link, proto, table="t1", role="player"):
    hello = proto.sent[-1]
    assert hello["type"] == "hello" and hello["token"] == "tok"
    reply(
        link,
        proto,
        type="welcome",
        id=hello["id"],
        role=role,
        identity={"role": role, "id": "s1"},
        table=table,
        seat="s1",
        server="x",
        protocol=1,
        limits={},
    )


def snapshot(link, proto, seq):
    join = proto.sent[-1]
    assert join["type"] == "join"
    reply(
        link,
        proto,
        type="snapshot",
        id=join["id"],
        table=join["table"],
        game="challenge",
        seq=seq,
        view={},
    )
    return join


def push(link, proto, seq, table="t1"):
    reply(link, proto, type="event", table=table, seq=seq, event_type="X", data={}, at=1)


class LinkTests(ShellTestCase):
    def test_backoff_doubles_up_to_the_cap_with_jitter_and_resets(self):
        backoff = Backoff(initial=0.25, factor=2, maximum=2, jitter=0.2)
        assert [backoff.next_delay(0.5) for _ in range(5)] == [0.25, 0.5, 1.0, 2.0, 2.0]
        assert backoff.next_delay(0.0) == pytest.approx(1.6) and backoff.next_delay(0.999) < 2.4
        backoff.reset()
        assert backoff.next_delay(0.5) == 0.25

    def test_join_from_the_start_then_resume_after_the_last_seq_seen(self):
        link, clock, listener, connects = make()
        link.start()
        assert connects == [link]
        proto = open_link(link)
        welcome(link, proto)
        first = snapshot(link, proto, seq=5)
        assert first["after_seq"] == 0  # the whole history comes as catch-up pushes
        for seq in range(1, 8):
            push(link, proto, seq)
        assert ("snapshot", 5, 0) in listener.log and link.ready
        # The server goes away: a reconnect is scheduled with backoff, then resumes after 7.
        link._closed(proto, 1001, "going away")
        assert not link.ready and "reconnecting in 0.2 s" in listener.log[-1][1]
        clock.advance(0.25)
        assert connects == [link, link]
        proto = open_link(link)
        welcome(link, proto)
        again = snapshot(link, proto, seq=9)
        assert again["after_seq"] == 7
        push(link, proto, 8)
        assert listener.log[-1] == ("event", 8)
        assert link.backoff.failures == 0  # a snapshot resets the backoff

    def test_a_gap_in_the_pushes_drops_the_connection_to_resume(self):
        link, _clock, listener, _ = make()
        link.start()
        proto = open_link(link)
        welcome(link, proto)
        snapshot(link, proto, seq=3)
        push(link, proto, 1)
        push(link, proto, 3)  # 2 is missing
        assert proto.dropped and "expected seq 2, got 3" in listener.log[-1][1]
        assert ("event", 3) not in listener.log

    def test_refused_tokens_and_tables_end_the_link(self):
        link, clock, listener, connects = make()
        link.start()
        proto = open_link(link)
        reply(
            link,
            proto,
            type="error",
            id=proto.sent[-1]["id"],
            code="unauthorized",
            message="token expired",
        )
        assert listener.log[-1] == (
            "fatal",
            "unauthorized",
            "the server refused the token: token expired",
        )
        assert proto.closed == 1000
        link._closed(proto, 1000, None)
        clock.advance(60)
        assert len(connects) == 1  # no reconnect after a fatal refusal

        link, _clock, listener, _ = make(table="nope")
        link.start()
        proto = open_link(link)
        welcome(link, proto)
        join = proto.sent[-1]
        assert join["table"] == "nope"
        reply(
            link, proto, type="error", id=join["id"], code="unknown_table", message="no table nope"
        )
        assert listener.log[-1][:2] == ("fatal", "unknown_table")

    def test_a_token_without_a_table_needs_one(self):
        link, _clock, listener, _ = make()
        link.start()
        proto = open_link(link)
        welcome(link, proto, table=None, role="director")
        assert listener.log[-1][:2] == ("fatal", "no_table")

    def test_a_log_shorter_than_what_we_saw_starts_over(self):
        link, _clock, listener, _ = make()
        link.session.last_seq["t1"] = 40
        link.start()
        proto = open_link(link)
        welcome(link, proto)
        join = proto.sent[-1]
        assert join["after_seq"] == 40
        reply(link, proto, type="error", id=join["id"], code="bad_seq", message="beyond")
        assert proto.sent[-1]["type"] == "join" and proto.sent[-1]["after_seq"] == 0

    def test_other_join_refusals_reconnect(self):
        link, _clock, _listener, _ = make()
        link.start()
        proto = open_link(link)
        welcome(link, proto)
        reply(
            link, proto, type="error", id=proto.sent[-1]["id"], code="rate_limited", message="slow"
        )
        assert proto.dropped

    def test_requests_get_replies_refusals_and_losses(self):
        link, _clock, listener, _ = make()
        assert isinstance(failure_of(link.command("touch_card")), NotConnected)
        link.start()
        proto = open_link(link)
        welcome(link, proto)
        snapshot(link, proto, seq=1)
        done = []
        link.command("touch_card", {"fingertips": 1}).addCallback(done.append)
        sent = proto.sent[-1]
        assert (sent["name"], sent["args"], sent["table"]) == (
            "touch_card",
            {"fingertips": 1},
            "t1",
        )
        reply(link, proto, type="accepted", id=sent["id"], table="t1", seq=2, events=1)
        assert done[0]["type"] == "accepted"
        refused = link.command("declare_pattern", {"pattern": "3x"})
        reply(
            link,
            proto,
            type="error",
            id=proto.sent[-1]["id"],
            code="bad_pattern",
            message="cannot read 3x",
            rule="R-PUZ-3",
        )
        error = failure_of(refused)
        assert isinstance(error, ServerRefused)
        assert refusal_words(error) == "cannot read 3x (R-PUZ-3)"  # no game: the server's words
        assert refusal_words(error, CHALLENGE_WORDS) == (  # the game's words for its code
            "the pattern cannot be read: write it as two values and an operation, e.g. 3*8 "
            "(R-PUZ-3)"
        )
        lost = link.command("fix_solution")
        link._closed(proto, None, None)
        lost_error = failure_of(lost)
        assert isinstance(lost_error, LinkLost) and "dropped" in refusal_words(lost_error)
        assert refusal_words(ValueError("x")) == "request failed: x"
        # A malformed request is refused before it is sent.
        link2, *_ = make()
        link2.start()
        proto2 = open_link(link2)
        welcome(link2, proto2)
        snapshot(link2, proto2, seq=1)
        assert isinstance(failure_of(link2.request("join", table="bad table")), ServerRefused)
        # Unreadable frames and stray errors are reported, not raised.
        link2._frame(proto2, b"\xc1", True)
        reply(link2, proto2, type="error", id=None, code="bad_message", message="what")
        assert "bad_message" in link2.listener.log[-1][1]


def failure_of(deferred):
    failures = []
    deferred.addErrback(lambda failure: failures.append(failure.value))
    assert failures, "the request did not fail"
    return failures[0]


class LinkLifecycleTests(ShellTestCase):
    def test_a_server_that_cannot_be_reached_is_named_in_the_status(self):
        link, _clock, listener, _connects = make()
        link.start()
        link._failed("connection refused")
        status = listener.log[-1][1]
        assert status.startswith("cannot connect to ws://x/ws (is the server running?);")
        assert "reconnecting in" in status

    def test_retries_give_up_as_unreachable(self):
        link, clock, listener, connects = make(retries=2)
        link.start()
        link._failed("connection refused")
        clock.advance(1)
        link._failed("connection refused")
        clock.advance(1)
        link._failed("connection refused")
        assert listener.log[-1] == (
            "fatal",
            "unreachable",
            "ws://x/ws: cannot connect: connection refused",
        )
        assert len(connects) == 3

    def test_a_refused_token_is_said_in_the_person_s_language(self):
        set_language("nb")
        try:
            link, _clock, listener, _connects = make()
            link.start()
            proto = open_link(link)
            reply(link, proto, type="error", id=proto.sent[-1]["id"], code="unauthorized",
                  message="token expired")  # fmt: skip
        finally:
            set_language("en")
        words = catalogue("nb")
        why = words.say("common", "refusal.unauthorized")
        said = words.say("common", "status.token_refused", why=why)
        assert listener.log[-1] == ("fatal", "unauthorized", said)
        assert said.startswith("serveren godtok ikke nøkkelen")

    def test_giving_up_is_said_in_the_person_s_language(self):
        set_language("sv")
        try:
            link, clock, listener, _connects = make(retries=0)
            link.start()
            link._failed("connection refused")
        finally:
            set_language("en")
        said = catalogue("sv").say("common", "status.cannot_connect", url="ws://x/ws")
        assert listener.log[-1] == ("fatal", "unreachable", said)
        assert "connection refused" not in said

    def test_close_says_goodbye_and_stops_reconnecting(self):
        link, clock, _listener, connects = make()
        link.start()
        proto = open_link(link)
        welcome(link, proto)
        closed = []
        link.close().addCallback(closed.append)
        assert proto.closed == 1000 and not closed
        link._closed(proto, 1000, None)
        assert closed == [None]
        clock.advance(30)
        assert len(connects) == 1
        # A server that never answers the close handshake is dropped after 2 s.
        link, clock, _listener, _ = make()
        link.start()
        proto = open_link(link)
        done = []
        link.close().addCallback(done.append)
        clock.advance(2.1)
        assert proto.dropped and done == [None]
        # Closing while disconnected: nothing to wait for, and a pending reconnect is cancelled.
        link, clock, _listener, connects = make()
        link.start()
        link._failed("refused")
        assert link.close().called
        clock.advance(30)
        assert len(connects) == 1

    def test_late_frames_and_closes_of_an_old_connection_are_ignored(self):
        link, _clock, listener, _ = make()
        link.start()
        old = open_link(link)
        new = open_link(link)
        link._frame(old, encode({"type": "pong", "id": 1}), True)
        link._closed(old, 1006, "late")
        assert link.proto is new
        assert listener.kinds().count("status") == 3  # connecting, authenticating twice

    def test_a_moved_reply_reconnects_to_the_node_it_names_and_resumes(self):
        """Issue 16: a table served by another node is followed there, resuming by after_seq."""
        link, clock, listener, connects = make()
        link.start()
        proto = open_link(link)
        welcome(link, proto)
        snapshot(link, proto, seq=2)
        push(link, proto, 1)
        push(link, proto, 2)
        link._closed(proto, 1012, "table t1 moved to another node")
        clock.advance(0.25)
        proto = open_link(link)
        welcome(link, proto)
        join = proto.sent[-1]
        reply(link, proto, type="moved", id=join["id"], table="t1", url="ws://node-b/ws")
        assert link.url == "ws://node-b/ws" and proto.dropped
        assert "served by ws://node-b/ws" in listener.log[-1][1]
        link._closed(proto, 1006, "")
        clock.advance(0.5)
        assert len(connects) == 3  # reconnecting, now to node b
        proto = open_link(link)
        welcome(link, proto)
        assert snapshot(link, proto, seq=3)["after_seq"] == 2  # no gap, no duplicate

    def test_a_moved_node_that_cannot_be_reached_sends_the_link_back_to_its_given_url(self):
        """Issue 16: the owner a `moved` named died; the URL given answers for the new owner."""
        link, clock, listener, connects = make()
        link.start()
        proto = open_link(link)
        welcome(link, proto)
        snapshot(link, proto, seq=2)
        push(link, proto, 1)
        push(link, proto, 2)
        link._closed(proto, 1012, "table t1 moved to another node")
        clock.advance(0.25)
        proto = open_link(link)
        welcome(link, proto)
        reply(link, proto, type="moved", id=proto.sent[-1]["id"], table="t1", url="ws://dead/ws")
        link._closed(proto, 1006, "")
        clock.advance(0.5)
        assert link.url == "ws://dead/ws" and len(connects) == 3
        link._failed("connection refused")  # the node it was sent to is gone
        assert link.url == "ws://x/ws" and "back to ws://x/ws" in listener.log[-2][1]
        clock.advance(1.0)
        proto = open_link(link)
        welcome(link, proto)
        assert snapshot(link, proto, seq=3)["after_seq"] == 2  # resumed: no gap, no duplicate

    def test_a_request_answered_moved_is_asked_again_at_the_node_it_names(self):
        """Issue 16: `moved` means nothing was done; the caller gets the serving node's reply."""
        link, clock, _listener, connects = make(join=False)
        link.start()
        proto = open_link(link)
        welcome(link, proto)
        outcome = []
        link.request("command", table="t1", name="touch_card", args={}).addBoth(outcome.append)
        sent = proto.sent[-1]
        reply(link, proto, type="moved", id=sent["id"], table="t1", url="ws://node-b/ws")
        assert outcome == [] and link.url == "ws://node-b/ws" and proto.dropped
        link._closed(proto, 1006, "")
        clock.advance(0.5)
        assert len(connects) == 2  # to node b
        proto = open_link(link)
        welcome(link, proto)
        again = proto.sent[-1]
        assert {k: again[k] for k in ("type", "table", "name")} == {
            "type": "command",
            "table": "t1",
            "name": "touch_card",
        }
        reply(link, proto, type="accepted", id=again["id"], seq=7, events=1)
        assert outcome[0]["type"] == "accepted" and outcome[0]["seq"] == 7

    def test_a_moved_request_fails_when_the_link_gives_up_before_asking_again(self):
        link, clock, _listener, _connects = make(join=False, retries=1)
        link.start()
        proto = open_link(link)
        welcome(link, proto)
        outcome = []
        link.request("command", table="t1", name="touch_card", args={}).addErrback(outcome.append)
        reply(link, proto, type="moved", id=proto.sent[-1]["id"], table="t1", url="ws://b/ws")
        link._closed(proto, 1006, "")
        clock.advance(0.5)
        link._failed("connection refused")  # node b is gone, and that was the one retry
        assert isinstance(outcome[0].value, LinkLost)


def test_a_busy_process_waits_longer_for_its_pong(monkeypatch):
    """A terminal's link gives up on a silent server after PING_TIMEOUT; the processes that
    play many seats on one reactor (simulate, the tournament's bots) wait BUSY_PING_TIMEOUT, as
    their own work can hold the reactor past a short timeout (connection.py)."""
    from clients.reference_cli import connection

    opened: list = []
    monkeypatch.setattr(connection, "connectWS", lambda factory, timeout: opened.append(factory))
    for timeout in (connection.PING_TIMEOUT, connection.BUSY_PING_TIMEOUT):
        link = TableLink(
            "ws://127.0.0.1:1/ws", "tok", reactor=Clock(), listener=Listener(), ping_timeout=timeout
        )
        connection.autobahn_connect(link)
        assert opened[-1].autoPingTimeout == timeout
    assert TableLink("ws://x/ws", "t", reactor=Clock(), listener=Listener()).ping_timeout == 5.0
    assert connection.BUSY_PING_TIMEOUT > 10 * connection.PING_TIMEOUT
