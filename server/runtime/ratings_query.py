"""The `ratings` query: a student's rating across the whole log and its history (tournament
rounds, casual tables, practice; `server.analysis.log_ratings`, issue 31), answered by the
shell for the asking viewer, never recorded.

Why the shell and not the game: the rating is a fold over every table's stream in the store,
which no game's `query` sees (it gets its own table's state). Who is who across tables is the
seat's name (docs/analysis.md, "A student's rating across the log"): a player asks with `{}`
and is answered for the name their seat has at the table they ask on; a proctor, the
director or an auditor names the student (`{"name": N}`).

What is kept between two questions (`LogCache`, one per store): each table stream's
occurrences (what moves a rating, `log_ratings.occurrences`, in the log's time order) and its
seats' names, each tournament's students' names now (a renamed student stays one), with the
stream's last seq they were read at, and the last fold (`RatingsFold`) with the reads it
folded. A read of the log asks the store for the table streams and their last seqs, reads
again only the streams that grew (a page opened by every student of a grade at the end of a
round reads the log once), and then: answers with the last fold if nothing grew; goes on
with the last fold if the log only grew after its last step (a score card signed, a card
tried: the common case, a few steps); folds afresh otherwise (the first question, a score
card reopened, a student renamed, a result recorded before the last step).

Why off the reactor's long turns (issue 32, "nothing CPU-heavy on the reactor"): a fold step
is 70 to 300 us (openskill's arithmetic), and the log of a 2,000-student tournament's end is
some 100,000 steps: 8 to 12 s, which used to run in one reactor turn at every question after
the log grew, while every table of the node waited. Now:
- the store is read through its own threads (`ThreadedStore`'s readers), at most
  `READS_AT_ONCE` reads at a time, so their results come back to the reactor a few at a
  time, and other tables' reads (a join's catch-up, a table loaded) are not queued behind
  thousands;
- every piece of pure work runs in slices of the reactor's turns (server/runtime/slices.py,
  5 ms a turn): each stream read turned into its occurrences, the fold `FOLD_STEPS` steps a
  piece, the students' and cards' ratings `BUILD_STEPS` a piece: another table's command
  waits at most about a slice, while the recount takes as many turns as it needs;
- the questions asked while a read is under way wait for the next read, which all of them
  share (a grade's pages asking at once after a signing: one read, not one each), and which
  starts only when the one under way is over: an answer is never older than its question.
Why slices and not the deck worker's process (server/runtime/offload.py): the fold is many
cheap steps over state kept between questions (the streams' occurrences, the last fold); in
a process that state would be sent each time (pickling 100,000 occurrences costs the
reactor 0.8 s, a tenth of the fold, and unpickling the answer as much again) or kept in a
worker that also draws the decks (a recount would hold the deck draws behind it). Not a
thread: a CPU-bound thread holds the GIL (offload.py's doc). Under a test's `task.Clock`,
which does not move while work runs, every piece runs at once, as before.

Why the work is charged: the events read (only those of the streams that grew) are charged
like a join's catch-up, one request more per 50 events (`ViewAt.folded`), to the question
that began the read; the questions that share it are charged nothing more.
"""

from __future__ import annotations

import heapq
import weakref
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from twisted.internet.defer import (
    Deferred,
    DeferredSemaphore,
    FirstError,
    fail,
    gatherResults,
    succeed,
)
from twisted.internet.interfaces import IReactorTime
from twisted.python.failure import Failure

from protocol.messages import TABLE_STREAM_PREFIX, TOURNAMENT_PREFIX
from server.analysis.log_ratings import (
    LogRatings,
    Occurrence,
    RatingsFold,
    StudentRatings,
    identity,
    occurrences,
    tournament_names,
)
from server.eventlog.envelope import RecordedEvent
from server.games.base import Actor, RuleViolation
from server.ratings import Rating
from server.runtime.hub import InvalidOptions
from server.runtime.slices import Slices
from server.runtime.view_at import RATINGS as RATINGS  # the query's name
from server.runtime.view_at import ViewAt

OFFICIALS = frozenset({"proctor", "director", "auditor"})
MAX_NAME = 64
READS_AT_ONCE = 8  # store reads one read of the log keeps in flight (module doc)
FOLD_STEPS = 8  # occurrences folded a slice item: 1 to 3 ms (120 to 300 us a step)
BUILD_STEPS = 64  # students or cards built a slice item, about 1 ms
Folded = tuple[LogRatings, "LogCache", int]  # the ratings, the cache, the events read


def _seat_names(events: Sequence[RecordedEvent]) -> dict[str, str]:
    """seat -> the name it was created with, at the table whose events these are."""
    if not events or events[0].type != "TableCreated":
        return {}
    options = events[0].data.get("options")
    seats = options.get("seats") if isinstance(options, Mapping) else None
    names = {}
    for entry in seats if isinstance(seats, list | tuple) else ():
        if isinstance(entry, Mapping) and isinstance(entry.get("seat"), str):
            names[entry["seat"]] = str(entry.get("name") or "")
    return names


@dataclass
class Read:
    """One stream as last read: its last seq then, and for a table what moves a rating (in
    the log's time order) and its seats' names, for a tournament its students' names now."""

    seq: int
    occurrences: list[Occurrence]
    seats: dict[str, str]
    students: dict[str, str] = field(default_factory=dict)


def _first_error(failure: Failure) -> Failure:
    """A read's own failure, not `gatherResults`' wrapper of it (`error_for` maps it)."""
    return failure.value.subFailure if isinstance(failure.value, FirstError) else failure


class LogCache:
    """What a store's ratings questions keep between them, and the one recount under way
    (see the module doc)."""

    def __init__(self) -> None:
        self.streams: dict[str, Read] = {}
        self.fold: RatingsFold | None = None
        self.folded: dict[str, Read] = {}  # the reads `fold` has folded, by stream
        self.recounts = 0  # folds begun afresh (a fold gone on from where it was is not one)
        self.runs = 0  # reads of the log (questions asked together share one)
        self._asking: list[Deferred[Folded]] = []
        self._busy = False
        self.slices: Slices | None = None  # on the first question's clock

    def ask(self, store: Any, clock: IReactorTime) -> Deferred[Folded]:
        """The ratings across the store's log as it is now, or later: a question asked while
        a read is under way waits for the next read, which every question asked meanwhile
        shares (see the module doc)."""
        if self.slices is None:
            self.slices = Slices(clock)
        asked: Deferred[Folded] = Deferred()
        self._asking.append(asked)
        if not self._busy:
            self._next(store)
        return asked

    def _next(self, store: Any) -> None:
        waiting, self._asking = self._asking, []
        self._busy = True
        self.runs += 1

        def answer(result: Folded | Failure) -> None:
            self._busy = False
            for n, asked in enumerate(waiting):
                if isinstance(result, Failure):
                    asked.errback(result)
                else:  # the read is charged to the first question only, as it always was
                    asked.callback(result if n == 0 else (result[0], result[1], 0))
            if self._asking and not self._busy:
                self._next(store)

        self._read(store).addBoth(answer)

    def _read(self, store: Any) -> Deferred[Folded]:
        """Read the streams that grew, then fold (module doc)."""
        assert self.slices is not None
        slices, reads = self.slices, DeferredSemaphore(READS_AT_ONCE)
        read_events = [0]

        def seqs(names: list[str]) -> Deferred[tuple[list[str], list[int]]]:
            found = [reads.run(store.last_seq, name) for name in names]
            return gatherResults(found, consumeErrors=True).addCallback(lambda s: (names, s))

        def load(listed: tuple[list[str], list[int]]) -> Deferred[list[str]]:
            names, last_seqs = listed
            grown = [
                name
                for name, seq in zip(names, last_seqs, strict=True)
                if name not in self.streams or self.streams[name].seq != seq
            ]

            def keep(events: list[RecordedEvent], name: str) -> Deferred[None]:
                read_events[0] += len(events)
                return slices.run(lambda: self._keep(name, events))

            loads = [reads.run(store.load, name).addCallback(keep, name) for name in grown]
            return gatherResults(loads, consumeErrors=True).addCallback(lambda _: names)

        def fold(names: list[str]) -> Deferred[Folded]:
            rated = self._rated([name for name in names if name in self.streams])
            return rated.addCallback(lambda found: (found, self, read_events[0]))

        listed = gatherResults(
            [store.streams(TABLE_STREAM_PREFIX), store.streams(TOURNAMENT_PREFIX)],
            consumeErrors=True,
        )
        d = listed.addCallback(lambda both: both[0] + both[1]).addCallback(seqs)
        return d.addCallback(load).addCallback(fold).addErrback(_first_error)

    def _keep(self, name: str, events: list[RecordedEvent]) -> None:
        """One stream read: what moves a rating in it, sorted once, here."""
        seq = events[-1].seq if events else 0
        if name.startswith(TOURNAMENT_PREFIX):
            self.streams[name] = Read(seq, [], {}, tournament_names(events))
        else:
            found = sorted(occurrences(name, events), key=lambda o: o.order)
            self.streams[name] = Read(seq, found, _seat_names(events))

    def _rated(self, names: list[str]) -> Deferred[LogRatings]:
        """The fold of these streams' occurrences: the last one if none of them changed; the
        last one gone on with what came after it if the log only grew after it; else a fold
        afresh (`recounts`). The steps run in slices (module doc)."""
        reads = {name: self.streams[name] for name in names}
        renamed = {
            name.removeprefix(TOURNAMENT_PREFIX): read.students
            for name, read in reads.items()
            if name.startswith(TOURNAMENT_PREFIX)
        }
        fold, folded = self.fold, self.folded
        if fold is not None and folded.keys() == reads.keys():
            if all(folded[name] is read for name, read in reads.items()):
                return succeed(fold.ratings())
        tails = None if fold is None or fold.renamed != renamed else _after(fold, folded, reads)
        if fold is None or tails is None:
            fold, tails = RatingsFold(renamed), [read.occurrences for read in reads.values()]
            self.recounts += 1
        self.fold, self.folded = None, {}  # until this fold is whole
        steps = heapq.merge(*tails, key=lambda o: o.order)
        done = _in_slices(self.slices, fold, steps)

        def whole(rated: LogRatings) -> LogRatings:
            self.fold, self.folded = fold, reads
            return rated

        return done.addCallback(whole)


def _after(
    fold: RatingsFold, folded: Mapping[str, Read], reads: Mapping[str, Read]
) -> list[list[Occurrence]] | None:
    """What each stream has after what `fold` folded of it, if every stream folded is still
    read, has still what was folded of it, and has nothing new before the fold's last step
    (a score card signed, a card tried); else None (a card reopened, a stream gone, a clock
    that went back: a fold afresh)."""
    if not folded.keys() <= reads.keys():
        return None
    tails = []
    for name, read in reads.items():
        before = folded.get(name)
        if before is read:
            continue
        old = before.occurrences if before is not None else []
        new = read.occurrences
        if new[: len(old)] != old:
            return None
        tail = new[len(old) :]
        if tail and fold.last is not None and tail[0].order <= fold.last:
            return None
        tails.append(tail)
    return tails


def _in_slices(
    slices: Slices | None, fold: RatingsFold, steps: Iterator[Occurrence]
) -> Deferred[LogRatings]:
    """`fold` taken through `steps`, `FOLD_STEPS` a slice item, then its ratings built,
    `BUILD_STEPS` students or cards an item: one item after the other, each when the one
    before has run (a failure fails the whole, and nothing after it runs)."""
    assert slices is not None
    left = [True]  # steps may be left
    built = [False]  # every student and card moved is built

    def step() -> None:
        taken = 0
        for occurred in islice(steps, FOLD_STEPS):
            fold.add(occurred)
            taken += 1
        left[0] = taken == FOLD_STEPS

    def build() -> None:
        built[0] = fold.build(BUILD_STEPS)

    def pieces() -> Iterator[Callable[[], None]]:
        while left[0]:
            yield step
        while not built[0]:
            yield build

    return _one_by_one(slices, pieces()).addCallback(lambda _: fold.ratings())


def _one_by_one(slices: Slices, pieces: Iterator[Callable[[], None]]) -> Deferred[None]:
    """Each piece a slice item, the next one once it has run: in a loop while they run at
    once (a test's clock, a turn with time left), from the callback when one waits for a
    later turn, so that no stack grows with the number of pieces."""
    done: Deferred[None] = Deferred()

    def go() -> None:
        for piece in pieces:
            now = [True, False]  # [running this call, fired during it]

            def fired(outcome: object, now: list[bool] = now) -> None:
                if isinstance(outcome, Failure):
                    done.errback(outcome)
                elif now[0]:
                    now[1] = True
                else:
                    go()

            slices.run(piece).addBoth(fired)
            now[0] = False
            if not now[1]:
                return  # failed (done has fired), or waits: `fired` goes on
        done.callback(None)

    go()
    return done


_CACHES: weakref.WeakKeyDictionary[Any, LogCache] = weakref.WeakKeyDictionary()


def cache_of(store: Any) -> LogCache:
    """The store's cache (kept while the store lives; a store that cannot be referred to
    weakly gets a fresh one each time: slower, never wrong)."""
    try:
        cache = _CACHES.get(store)
        if cache is None:
            cache = _CACHES[store] = LogCache()
    except TypeError:
        return LogCache()
    return cache


def _who(args: Any, viewer: Actor) -> str | None:
    """The name asked for (None: the asking player's own seat's, found in the log)."""
    if not isinstance(args, Mapping):
        raise RuleViolation("bad_message", "ratings: args are a map")
    if viewer.role == "player":
        if args:
            raise RuleViolation("bad_message", "ratings: a student asks with {} for their own")
        return None
    if viewer.role not in OFFICIALS:
        raise RuleViolation("forbidden", "ratings: for the students and their coaches")
    name = args.get("name")
    if set(args) != {"name"} or not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
        raise RuleViolation("bad_message", "ratings: args are {name}, a student's name")
    if not identity(name):
        raise RuleViolation("bad_message", "ratings: a student's name is not blank")
    return name


def answer_data(found: StudentRatings | None, name: str) -> dict[str, Any]:
    """The answer's `result`: the student's rating and history, or a new rating and none."""
    if found is not None:
        return found.as_data()
    rating = Rating()
    return {
        "key": identity(name),
        "name": name,
        "rating": {**rating.as_data(), "provisional": rating.provisional},
        "tables": 0,
        "history": [],
    }


def read_log(store: Any, clock: IReactorTime) -> Deferred[Folded]:
    """The ratings across the store's log: a Deferred of `(LogRatings, the cache, events
    read)`, reading again only the streams that grew since the last time, folding in slices
    of `clock`'s reactor turns, one read for the questions asked together (the module doc)."""
    return cache_of(store).ask(store, clock)


def ratings(actor: Any, args: Any, viewer: Actor) -> Deferred[ViewAt]:
    """The answer to `ratings` on `actor` (a `TableActor`) for `viewer`: a Deferred of a
    `ViewAt` whose result is the student's rating as data. Raises the protocol's
    RuleViolation."""
    asked = _who(args, viewer)
    last = actor.seq

    def answer(read: Folded) -> ViewAt:
        rated, cache, folded = read
        name = asked
        if name is None:
            here = cache.streams.get(actor.stream)
            name = here.seats.get(str(viewer.id)) if here is not None else None
            if not name or not identity(name):
                raise RuleViolation("forbidden", "ratings: this seat has no name to be rated by")
        return ViewAt(last, answer_data(rated.student(name), name), folded)

    return read_log(actor.store, actor.clock).addCallback(answer)


def _log_options(rated: LogRatings, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options a game's `LOG_RATINGS_OPTION` stands for: each seat's rating across the
    log (by its name; a rating the creator gave wins) and every card the log has moved."""
    given = options.get("ratings")
    ratings = {}
    seats = options.get("seats")
    for entry in seats if isinstance(seats, list | tuple) else ():
        if isinstance(entry, Mapping) and isinstance(entry.get("seat"), str):
            found = rated.student(str(entry.get("name") or "")) if entry.get("name") else None
            if found is not None:
                ratings[entry["seat"]] = found.rating.as_data()
    if isinstance(given, Mapping):
        ratings.update(given)
    cards = {card.card: card.rating.as_data() for card in rated.cards.values() if card.rated}
    return {"ratings": ratings, "card_ratings": cards}


def with_log_ratings(store: Any, clock: IReactorTime, game: Any, options: Any) -> Deferred[Any]:
    """`options` for a new table of `game` with the log's ratings in place of the game's
    `LOG_RATINGS_OPTION` (practice's `from_log`): true fills `ratings` and `card_ratings`
    from the store's log (`_log_options`), false drops it; anything else is refused as the
    game refuses options (`InvalidOptions`). What is filled is recorded in `TableCreated`,
    so a replay reads the same numbers, never the log again."""
    name = getattr(game, "LOG_RATINGS_OPTION", None)
    if name is None or not isinstance(options, Mapping) or name not in options:
        return succeed(options)
    value = options[name]
    rest = {key: value for key, value in options.items() if key != name}
    if value is False:
        return succeed(rest)
    if value is not True:
        return fail(InvalidOptions(f"option {name!r}: true or false, not {value!r}"))
    d = read_log(store, clock)
    return d.addCallback(lambda read: {**rest, **_log_options(read[0], rest)})
