"""A join's catch-up, produced a page at a time (issues 18 and 33).

What it does: a live table holds only its recent events (`TableActor.events`, a window of
`RECENT_EVENTS`, table_actor.py). A join registers in one reactor turn with its snapshot,
whatever its `after_seq`: the pushes of the events in the window are taken from memory then
(`Snapshot.catch_up`), so no live push falls between (no gap, no duplicate). The events
before the window are `OlderPushes`: a range of seqs fixed at the registration, sent first,
read a page (`PAGE_CHUNKS` chunks) at a time as the connection's output drains
(server/net/output.py), each chunk from the hub's shared cache of encoded chunks
(`PushChunks`, pushes.py) or, when not cached, from the store (one read a page).
`CatchUp` is the two parts in order, for the sender.

Why pages, not the whole range at once: a catch-up of thousands of events, encoded in one go,
was more than a client may leave unread (`max_unread_bytes`), so every client was dropped
before its snapshot (issue 33: 727,919 bytes for 1,006 events), and its encoded frames were
all in memory at once. A page is read only when the connection has sent the previous one, so
a catch-up holds one page, however long the table and however slow its client.

Why a recorded event can be read later: it never changes, and every seq up to the table's
seq at the registration is durable; the window may slide meanwhile without harm. The first
page is read before the registration, so that a store that fails at once is answered
`unavailable` with nothing joined (the actor counts the joins under way, `joining`, so that
it is not dropped from memory meanwhile); a later page that cannot be read breaks the
connection (1011, docs/protocol.md), as a push that cannot be sent does.

Why apart from the actor: this is a read path with its own pace; the actor's own order
(decide, append, apply, publish) does not depend on it.
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING, TypeVar

from twisted.internet.defer import Deferred, fail, succeed

from server.eventlog.envelope import RecordedEvent
from server.games.base import Actor
from server.runtime.pushes import CHUNK_EVENTS, Push, Subscriber, stored_pushes

if TYPE_CHECKING:
    from server.runtime.table_actor import Snapshot, TableActor

T = TypeVar("T")
PAGE_CHUNKS = 4  # chunks of older events read (and held by a catch-up) at a time


def join_table(
    actor: TableActor, subscriber: Subscriber, after_seq: int | None, presence: bool
) -> Deferred[Snapshot]:
    """`actor.subscribe`, with the first page of the older events read first when the
    catch-up starts before the window (module doc): a Deferred of the `Snapshot`. It fails
    with `BadSeq` or the store's error (nothing registered in every failure case). A
    negative `after_seq` asks for the whole log, as 0 does."""
    if after_seq is not None and after_seq < 0:
        after_seq = 0
    if after_seq is None or after_seq + 1 >= actor.first_seq or after_seq > actor.seq:
        try:
            return succeed(actor.subscribe(subscriber, after_seq, presence))
        except Exception:
            return fail()
    older = OlderPushes(actor, subscriber.viewer, after_seq)
    actor.joining += 1

    def done(result: T) -> T:
        actor.joining -= 1
        return result

    d = older.prefetch().addCallback(
        lambda _: actor.subscribe(subscriber, after_seq, presence, older)
    )
    return d.addBoth(done)


class OlderPushes:
    """The pushes of a join's events before its table's window, a page at a time.

    `after_seq` is the last seq the client saw; `upto` the last seq before the window when
    the join registered (set by `TableActor.subscribe`, a chunk's end). Only the page being
    sent is held (module doc).
    """

    def __init__(self, actor: TableActor, viewer: Actor, after_seq: int) -> None:
        self.actor = actor
        self.viewer = viewer
        self.after_seq = after_seq
        self.upto: int | None = None  # set at the registration
        self.sent_upto = after_seq  # the last seq of the pages handed out so far
        self._ready: list[Push] | None = None  # the page read before the registration

    @property
    def count(self) -> int:
        """How many events this part of the catch-up holds (once registered)."""
        assert self.upto is not None, "not registered yet"
        return self.upto - self.after_seq

    def prefetch(self) -> Deferred[None]:
        """Read the first page now, before the registration (module doc)."""
        upto = self.actor.first_seq - 1
        d = self._read(min(upto, self._page_end(self.after_seq)))

        def keep(pushes: list[Push]) -> None:
            self._ready = pushes

        return d.addCallback(keep)

    def next_page(self) -> list[Push] | Deferred[list[Push]] | None:
        """The next page's pushes (a Deferred when the store is read), or None when the
        range is sent."""
        assert self.upto is not None, "not registered yet"
        if self._ready is not None:
            page, self._ready = self._ready, None  # the window only slides forward: all
            self.sent_upto += len(page)
            return page
        if self.sent_upto >= self.upto:
            return None
        end = min(self.upto, self._page_end(self.sent_upto))
        d = self._read(end)

        def advance(pushes: list[Push]) -> list[Push]:
            self.sent_upto = end
            return pushes

        return d.addCallback(advance)

    @staticmethod
    def _page_end(after: int) -> int:
        return (after // CHUNK_EVENTS + PAGE_CHUNKS) * CHUNK_EVENTS

    def _read(self, upto: int) -> Deferred[list[Push]]:
        """The pushes of the events after `sent_upto` to `upto` (a chunk's end)."""
        return older_pushes(self.actor, self.viewer, self.sent_upto, upto)


class CatchUp:
    """A join's catch-up in order: the older pushes, a page at a time, then `recent` (the
    pushes taken from memory at the registration, and a presence push if asked)."""

    def __init__(self, older: OlderPushes | None, recent: list[Push]) -> None:
        self.older = older
        self.recent: list[Push] | None = recent

    def next_page(self) -> list[Push] | Deferred[list[Push]] | None:
        """The next pushes to send (a Deferred when they are read first), None at the end."""
        if self.older is not None:
            page = self.older.next_page()
            if page is not None:
                return page
            self.older = None
        recent, self.recent = self.recent, None
        return recent


def older_pushes(
    actor: TableActor, viewer: Actor, after_seq: int, upto: int
) -> Deferred[list[Push]]:
    """The catch-up pushes of events `after_seq + 1` to `upto` (before the window, so `upto`
    ends a chunk) for `viewer`: from the shared chunk cache, reading (once, in one read) and
    caching the chunks it does not hold."""
    size = CHUNK_EVENTS
    assert upto % size == 0, f"{actor.table}: the window starts after {upto}"
    numbers = range(after_seq // size, upto // size)
    group = actor.redaction_group(viewer)
    found = {n: actor.chunks.get((actor.table, group, n)) for n in numbers}
    missing = [n for n, pushes in found.items() if pushes is None]

    def assemble() -> list[Push]:
        pushes: list[Push] = list(chain.from_iterable(found[n] or () for n in numbers))
        skip = after_seq - numbers[0] * size
        if skip:
            del pushes[:skip]
        return pushes

    if not missing:
        return succeed(assemble())
    low = missing[0]

    def read(events: list[RecordedEvent]) -> list[Push]:
        for n in missing:
            part = events[(n - low) * size : (n - low + 1) * size]
            if len(part) != size or part[0].seq != n * size + 1:
                raise ValueError(f"{actor.stream}: the store returned a short chunk {n}")
            pushes = stored_pushes(actor.table, actor.redact, part, viewer)
            found[n] = tuple(pushes)
            actor.chunks.put((actor.table, group, n), pushes)
        return assemble()

    d = actor.store.read(actor.stream, after_seq=low * size, limit=(missing[-1] - low + 1) * size)
    return d.addCallback(read)
