"""The `ratings` query: a student's rating across the whole log and its history (tournament
rounds, casual tables, practice; `server.analysis.log_ratings`, issue 31), answered by the
shell for the asking viewer, never recorded.

Why the shell and not the game: the rating is a fold over every table's stream in the store,
which no game's `query` sees (it gets its own table's state). Who is who across tables is the
seat's name (docs/analysis.md, "A student's rating across the log"): a player asks with `{}`
and is answered for the name their seat has at the table they ask on; a proctor, the
director or an auditor names the student (`{"name": N}`).

Why the work is charged: the answer reads and folds every table's events, so the session
charges it like a join's catch-up, one request more per 50 events (`ViewAt.folded`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from twisted.internet.defer import Deferred, gatherResults

from protocol.messages import TABLE_STREAM_PREFIX
from server.analysis.log_ratings import StudentRatings, identity, rate_log
from server.eventlog.envelope import RecordedEvent
from server.games.base import Actor, RuleViolation
from server.ratings import Rating
from server.runtime.view_at import ViewAt

RATINGS = "ratings"  # the query's name: answered by the shell, never by a game
OFFICIALS = frozenset({"proctor", "director", "auditor"})
MAX_NAME = 64


def _seat_name(events: Sequence[RecordedEvent], seat: str) -> str | None:
    """The name `seat` was created with at the table whose events these are."""
    if not events or events[0].type != "TableCreated":
        return None
    options = events[0].data.get("options")
    seats = options.get("seats") if isinstance(options, Mapping) else None
    for entry in seats if isinstance(seats, list | tuple) else ():
        if isinstance(entry, Mapping) and entry.get("seat") == seat:
            return str(entry.get("name") or "")
    return None


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


def ratings(actor: Any, args: Any, viewer: Actor) -> Deferred:
    """The answer to `ratings` on `actor` (a `TableActor`) for `viewer`: a Deferred of a
    `ViewAt` whose result is the student's rating as data. Raises the protocol's
    RuleViolation."""
    asked = _who(args, viewer)
    last = actor.seq

    def load(names: list[str]) -> Deferred:
        reads = [actor.store.load(name) for name in names]
        return gatherResults(reads).addCallback(lambda found: dict(zip(names, found, strict=True)))

    def answer(streams: dict[str, list[RecordedEvent]]) -> ViewAt:
        name = asked
        if name is None:
            name = _seat_name(streams.get(actor.stream, []), str(viewer.id))
            if not name or not identity(name):
                raise RuleViolation("forbidden", "ratings: this seat has no name to be rated by")
        found = rate_log(streams).student(name)
        folded = sum(len(events) for events in streams.values())
        return ViewAt(last, answer_data(found, name), folded)

    d = actor.store.streams(TABLE_STREAM_PREFIX)
    return d.addCallback(load).addCallback(answer)
