"""A connection's ordered output (server/net/output.py, issue 33): a join's catch-up is
streamed a slice at a time while the transport takes it, a page read only when the previous
one is sent, and whatever is sent meanwhile follows it, in order, within the unread bound."""

from __future__ import annotations

from shell_testcase import ShellTestCase
from twisted.internet import defer

from server.net.output import OrderedOutput
from server.runtime.pushes import Push


def push(seq: int, size: int = 100) -> Push:
    return Push({"seq": seq}, bytes([seq % 256]) * size)


class Pages:
    """A catch-up whose pages are given: lists, or Deferreds fired by the test (a store
    read); counts the pages asked for."""

    def __init__(self, *pages) -> None:
        self.pages = list(pages)
        self.asked = 0

    def next_page(self):
        if not self.pages:
            return None
        self.asked += 1
        return self.pages.pop(0)


class Transport:
    """What the output wrote, in order (`("frame", bytes)`, `("push", seq)`, `("pushes",
    [seq, ...])`), and a buffer that fills (`full`) until the test drains it."""

    def __init__(self) -> None:
        self.written: list[tuple[str, object]] = []
        self.full = False
        self.fills = False  # each write fills the buffer

    def write(self, kind: str, what: object) -> None:
        self.written.append((kind, what))
        self.full = self.full or self.fills

    def output(self, **options) -> OrderedOutput:
        return OrderedOutput(
            send_frame=lambda frame: self.write("frame", frame),
            send_push=lambda p: self.write("push", p.message["seq"]),
            send_pushes=lambda ps: self.write("pushes", [p.message["seq"] for p in ps]),
            full=lambda: self.full,
            **options,
        )

    def seqs(self) -> list[int]:
        """Every event seq written, in order (single pushes and slices)."""
        out: list[int] = []
        for kind, what in self.written:
            if kind == "push":
                out.append(what)  # type: ignore[arg-type]
            elif kind == "pushes":
                out.extend(what)  # type: ignore[arg-type]
        return out


class OrderedOutputTests(ShellTestCase):
    def test_what_is_sent_during_a_stream_follows_it_in_order(self):
        transport = Transport()
        output = transport.output()
        later = defer.Deferred()  # the second page: a store read under way
        pages = Pages([push(1), push(2)], later, [push(5)])
        output.catch_up(b"snapshot", pages)
        assert transport.written == [("frame", b"snapshot"), ("pushes", [1, 2])]
        assert output.streaming
        output.push(push(6))  # a live push of the table, and a reply, meanwhile
        output.frame(b"reply")
        assert transport.written[-1] == ("pushes", [1, 2]) and output.queued == 105
        later.callback([push(3), push(4)])
        assert transport.seqs() == [1, 2, 3, 4, 5, 6]
        assert transport.written[-1] == ("frame", b"reply")
        assert not output.streaming and output.queued == 0
        output.frame(b"after")  # nothing streamed: straight to the transport
        assert transport.written[-1] == ("frame", b"after")

    def test_a_full_transport_holds_the_stream_until_it_drains(self):
        """Slices of at most `slice_bytes` (whole frames); none while the buffer is full; a
        page is asked for only when the previous one is written."""
        transport = Transport()
        output = transport.output(slice_bytes=250)
        pages = Pages([push(n) for n in range(1, 8)], [push(n) for n in range(8, 11)])
        transport.full = True  # the client has not read what it got before
        output.catch_up(b"snapshot", pages)
        assert transport.written == [("frame", b"snapshot")] and pages.asked == 0
        transport.fills = True
        for _ in range(3):
            transport.full = False
            output.drained()
        slices = [what for _kind, what in transport.written[1:]]
        assert slices == [[1, 2, 3], [4, 5, 6], [7]]
        assert pages.asked == 1  # the second page is not read yet
        transport.full = False
        output.drained()
        assert transport.written[-1] == ("pushes", [8, 9, 10]) and pages.asked == 2
        assert output.streaming  # the end is known at the next slice
        transport.full = False
        output.drained()
        assert not output.streaming and len(transport.written) == 5

    def test_output_queued_behind_a_stream_past_the_limit_overflows_once(self):
        transport = Transport()
        overflows = []
        output = transport.output(limit=250, overflow=overflows.append)
        transport.full = True
        output.catch_up(b"snapshot", Pages([push(1)]))
        output.push(push(2))
        output.push(push(3))
        assert overflows == []
        output.push(push(4))  # 300 bytes queued: past the 250 allowed
        assert overflows == [300] and output.stopped
        output.push(push(5))
        transport.full = False
        output.drained()
        assert overflows == [300] and transport.written == [("frame", b"snapshot")]

    def test_a_page_that_cannot_be_read_stops_the_output_and_is_told(self):
        transport = Transport()
        failed = []
        output = transport.output(failed=failed.append)
        broken = defer.Deferred()
        output.catch_up(b"snapshot", Pages([push(1)], broken, [push(3)]))
        output.frame(b"reply")
        broken.errback(ConnectionError("the store went away"))
        assert len(failed) == 1 and failed[0].check(ConnectionError)
        assert transport.seqs() == [1] and output.stopped  # nothing after the gap
        output.frame(b"more")
        assert transport.written[-1] == ("pushes", [1])

    def test_a_stopped_output_sends_nothing_more(self):
        transport = Transport()
        output = transport.output()
        pending = defer.Deferred()
        output.catch_up(b"snapshot", Pages(pending))
        output.push(push(9))
        output.stop()
        pending.callback([push(1)])
        output.drained()
        output.frame(b"late")
        assert transport.written == [("frame", b"snapshot")] and output.queued == 0

    def test_catch_ups_queued_behind_each_other_are_sent_in_join_order(self):
        """A resync while the first catch-up streams: its snapshot and catch-up follow the
        first one and the live pushes sent between them (one write's order)."""
        transport = Transport()
        output = transport.output()
        first = defer.Deferred()
        output.catch_up(b"snapshot-1", Pages(first))
        output.push(push(3))
        output.catch_up(b"snapshot-2", Pages([push(2), push(3)]))
        output.push(push(4))
        first.callback([push(1), push(2)])
        assert transport.written == [
            ("frame", b"snapshot-1"),
            ("pushes", [1, 2]),
            ("push", 3),
            ("frame", b"snapshot-2"),
            ("pushes", [2, 3]),
            ("push", 4),
        ]
