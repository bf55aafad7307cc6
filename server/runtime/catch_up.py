"""A join's catch-up from before its table's window of recent events (issue 18).

What it does: a live table holds only its recent events (`TableActor.events`, a window of
`RECENT_EVENTS`, table_actor.py). A join with an `after_seq` before that window needs the
older events' pushes: `join_table` takes them from the hub's shared cache of encoded chunks
(`PushChunks`, pushes.py), reads from the store only the chunks not cached (one read), and
then calls `TableActor.subscribe` with them, which takes the rest from memory and registers
in the same reactor turn: no live push falls between (no gap, no duplicate).

Why the window may slide meanwhile, and what then: the read is asynchronous, and the table
goes on appending. If its window moved past what was read, the slid part is read too, at
most `OLDER_READS` times; a table that outruns its join that often answers `unavailable`
(`CatchUpOutrun`), with nothing registered. A recorded event never changes, so only the
part still in memory must be taken in the turn of the registration.

Why apart from the actor: this is a read path with its own retries; the actor's own order
(decide, append, apply, publish) does not depend on it. The actor counts the joins under
way (`joining`) so that it is not dropped from memory while one waits for the store.
"""

from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING, Any

from twisted.internet.defer import Deferred, fail, succeed

from server.eventlog.envelope import RecordedEvent
from server.games.base import Actor
from server.runtime.pushes import CHUNK_EVENTS, Push, Subscriber, stored_pushes

if TYPE_CHECKING:
    from server.runtime.table_actor import TableActor

OLDER_READS = 4  # store reads a join's catch-up may take while its table's window slides


class CatchUpOutrun(Exception):
    """A join's catch-up from the store was outrun by its table `OLDER_READS` times in a row
    (its window slid past each read before it completed): answered `unavailable`."""


def join_table(
    actor: TableActor, subscriber: Subscriber, after_seq: int | None, presence: bool
) -> Deferred:
    """`actor.subscribe`, with the older pushes taken first when the catch-up starts before
    the window (module doc): a Deferred of the `Snapshot`. It fails with `BadSeq`, or
    `CatchUpOutrun`, or the store's error (nothing registered in every failure case).
    A negative `after_seq` asks for the whole log, as 0 does."""
    if after_seq is not None and after_seq < 0:
        after_seq = 0
    if after_seq is None or after_seq + 1 >= actor.first_seq or after_seq > actor.seq:
        try:
            return succeed(actor.subscribe(subscriber, after_seq, presence))
        except Exception:
            return fail()
    start = after_seq
    older: list[Push] = []
    actor.joining += 1

    def read_from(reach: int, reads: int) -> Deferred:
        d = older_pushes(actor, subscriber.viewer, reach, actor.first_seq - 1)

        def got(pushes: list[Push]) -> Any:
            nonlocal older
            if older:
                older.extend(pushes)
            else:
                older = pushes  # built for this join: no copy
            if reach + len(pushes) + 1 < actor.first_seq:  # the window slid meanwhile
                if reads >= OLDER_READS:
                    raise CatchUpOutrun(f"{actor.table} outran a catch-up {reads} times")
                return read_from(reach + len(pushes), reads + 1)
            return actor.subscribe(subscriber, start, presence, older)

        return d.addCallback(got)

    def done(result: Any) -> Any:
        actor.joining -= 1
        return result

    return read_from(start, 1).addBoth(done)


def older_pushes(actor: TableActor, viewer: Actor, after_seq: int, upto: int) -> Deferred:
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
