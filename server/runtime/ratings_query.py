"""The `ratings` query: a student's rating across the whole log and its history (tournament
rounds, casual tables, practice; `server.analysis.log_ratings`, issue 31), answered by the
shell for the asking viewer, never recorded.

Why the shell and not the game: the rating is a fold over every table's stream in the store,
which no game's `query` sees (it gets its own table's state). Who is who across tables is the
seat's name (docs/analysis.md, "A student's rating across the log"): a player asks with `{}`
and is answered for the name their seat has at the table they ask on; a proctor, the
director or an auditor names the student (`{"name": N}`).

What is kept between two questions (`LogCache`, one per store): each table stream's
occurrences (what moves a rating, `log_ratings.occurrences`) and its seats' names, each
tournament's students' names now (a renamed student stays one), with the stream's last seq
they were read at, and the last fold with the seqs it folded. A question
asks the store for the table streams and their last seqs, reads again only the streams that
grew (a page opened by every student of a grade at the end of a round reads the log once),
and folds again only when one did. Why: the answer is a fold over every table of the store;
read and folded afresh for each of a grade's students it would read the whole log as many
times.

Why the work is charged: the events read (only those of the streams that grew) are charged
like a join's catch-up, one request more per 50 events (`ViewAt.folded`).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from twisted.internet.defer import Deferred, fail, gatherResults, succeed

from protocol.messages import TABLE_STREAM_PREFIX, TOURNAMENT_PREFIX
from server.analysis.log_ratings import (
    LogRatings,
    Occurrence,
    StudentRatings,
    identity,
    occurrences,
    rate_occurrences,
    tournament_names,
)
from server.eventlog.envelope import RecordedEvent
from server.games.base import Actor, RuleViolation
from server.ratings import Rating
from server.runtime.hub import InvalidOptions
from server.runtime.view_at import ViewAt

RATINGS = "ratings"  # the query's name: answered by the shell, never by a game
OFFICIALS = frozenset({"proctor", "director", "auditor"})
MAX_NAME = 64


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
    """One stream as last read: its last seq then, and for a table what moves a rating and
    its seats' names, for a tournament its students' names now."""

    seq: int
    occurrences: list[Occurrence]
    seats: dict[str, str]
    students: dict[str, str] = field(default_factory=dict)


@dataclass
class LogCache:
    """What a store's ratings questions keep between them (see the module doc)."""

    streams: dict[str, Read] = field(default_factory=dict)
    folded: tuple[tuple[tuple[str, int], ...], LogRatings] | None = None

    def rated(self, names: Sequence[str]) -> LogRatings:
        """The fold of these streams' occurrences, again only if one of them grew."""
        key = tuple((name, self.streams[name].seq) for name in names)
        if self.folded is None or self.folded[0] != key:
            found = (o for name in names for o in self.streams[name].occurrences)
            renamed = {
                name.removeprefix(TOURNAMENT_PREFIX): self.streams[name].students
                for name in names
                if name.startswith(TOURNAMENT_PREFIX)
            }
            self.folded = (key, rate_occurrences(found, renamed))
        return self.folded[1]


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


Folded = tuple[LogRatings, "LogCache", int]  # the ratings, the cache, the events read


def read_log(store: Any) -> Deferred[Folded]:
    """The ratings across the store's log: a Deferred of `(LogRatings, the cache, events
    read)`, reading again only the streams that grew since the last time (the module doc)."""
    cache = cache_of(store)

    def seqs(names: list[str]) -> Deferred[tuple[list[str], list[int]]]:
        reads = [store.last_seq(name) for name in names]
        return gatherResults(reads).addCallback(lambda found: (names, found))

    def load(
        listed: tuple[list[str], list[int]],
    ) -> Deferred[tuple[list[str], dict[str, list[RecordedEvent]]]]:
        names, last_seqs = listed
        grown = [
            name
            for name, seq in zip(names, last_seqs, strict=True)
            if name not in cache.streams or cache.streams[name].seq != seq
        ]
        reads = [store.load(name) for name in grown]
        return gatherResults(reads).addCallback(
            lambda found: (names, dict(zip(grown, found, strict=True)))
        )

    def fold(read: tuple[list[str], dict[str, list[RecordedEvent]]]) -> Folded:
        names, loaded = read
        for name, events in loaded.items():
            seq = events[-1].seq if events else 0
            if name.startswith(TOURNAMENT_PREFIX):
                cache.streams[name] = Read(seq, [], {}, tournament_names(events))
            else:
                cache.streams[name] = Read(seq, occurrences(name, events), _seat_names(events))
        rated = cache.rated([n for n in names if n in cache.streams])
        return rated, cache, sum(len(events) for events in loaded.values())

    listed = gatherResults([store.streams(TABLE_STREAM_PREFIX), store.streams(TOURNAMENT_PREFIX)])
    d = listed.addCallback(lambda both: both[0] + both[1])
    return d.addCallback(seqs).addCallback(load).addCallback(fold)


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

    return read_log(actor.store).addCallback(answer)


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


def with_log_ratings(store: Any, game: Any, options: Any) -> Deferred[Any]:
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
    return read_log(store).addCallback(lambda read: {**rest, **_log_options(read[0], rest)})
