"""The table as it stood after any recorded event, as the asking viewer saw it: `view_at`.

What it keeps: the one query every table answers whatever its game (docs/protocol.md,
`query`): `view_at {seq}` -> the viewer's view of the state right after event `seq`, the
deadlines that were live then and the event's time. It is what lets a client without game
rules (the web client's replay page) redraw a table at each step, as `t24 replay` does
offline with `server.audit.replay`.

Why it cannot leak: the state after `seq` is the fold the live table made (the game's own
`initial_state` and `evolve` over the same recorded events), and the answer is that state's
`view(state, viewer)` for the connection's own viewer: exactly the snapshot a join at that
moment would have been given. A card placed but not yet revealed is face down for a player,
a Tjugoett dealer does not see a live turn's cards, whatever happened since.

Why the work is bounded (issue 18: charge by the work a request causes): a table keeps the
state after every `every`-th event (`CHECKPOINT_EVERY` at first), folded once, the first
time a step that far is asked for, and the states of its last `RECENT_ANSWERS` answers (a
replay page steps one seq at a time: each step folds one event). An answer folds from the
nearest kept state before it, and reports how many events it folded (`folded`, the
checkpoints it built included), so the session charges the request bucket for them as it
charges a join's catch-up. States are immutable (frozen dataclasses), so a checkpoint is a
reference, and they live as long as the table's actor.

Why the memory is bounded too: a live table holds only its recent events (table_actor.py),
so the events of an older step are read from the store (the answer is then a Deferred that
fires after the read), and a checkpoint per 50 events for a table's whole life would grow
with its log like the events did. A table keeps at most `MAX_CHECKPOINTS`: past it, the
spacing doubles and every other checkpoint is dropped, so a long table's answers fold up to
`every - 1` events (and are charged for them) while its memory stays flat. Why not drop
them when the table goes quiet instead: a finished table is exactly what a replay steps
through, and it stays in memory until evicted (`evict_after`), when its checkpoints go with it.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from twisted.internet.defer import Deferred, succeed

from server.eventlog.envelope import RecordedEvent
from server.games.base import Actor, Event, Game, RuleViolation
from server.runtime.views import live_deadlines

if TYPE_CHECKING:
    from server.runtime.table_actor import TableActor

VIEW_AT = "view_at"  # the query's name: answered by the shell, never by a game
# The shell's two other queries (analysis_query.py, ratings_query.py) are named here, beside
# view_at, so the session tells them apart without importing their modules (the analysis,
# openskill), which the first such query imports, not every server's start (issue 29)
ANALYSIS = "analysis"
RATINGS = "ratings"
CHECKPOINT_EVERY = 50  # events between two kept states of a table, at first
MAX_CHECKPOINTS = 32  # kept states of one table, at most: past it the spacing doubles
RECENT_ANSWERS = 4  # the states of a table's last answers, kept for the next step


@dataclass(frozen=True)
class ViewAt:
    """One answer: the seq it is about, the `answer` message's `result`, and the cost."""

    seq: int
    result: dict[str, Any]
    folded: int  # `evolve` calls made for this answer (the session charges for them)


Kept = tuple[Any, int]  # a state after some seq, and that event's time (the answer's `at`)


class Checkpoints:
    """Kept states of one table (see module doc): after seq 1, 1 + K, 1 + 2K, ... (K =
    `every`, doubled whenever there are more than `MAX_CHECKPOINTS`), and after the seqs of
    its last `RECENT_ANSWERS` answers."""

    def __init__(self, game: Game, options: Mapping[str, Any], created_at: int) -> None:
        self.game = game
        self.every = CHECKPOINT_EVERY
        self.states: dict[int, Kept] = {1: (game.initial_state(options), created_at)}
        self.recent: OrderedDict[int, Kept] = OrderedDict()

    def nearest(self, seq: int) -> tuple[int, Kept]:
        """The kept state with the greatest seq at most `seq`: (its seq, (state, at))."""
        best = max(s for s in (*self.states, *self.recent) if s <= seq)
        return best, self.recent.get(best) or self.states[best]

    def fold(self, base: int, kept: Kept, events: Sequence[RecordedEvent]) -> tuple[Kept, int]:
        """Fold `events` (the ones right after seq `base`) into the state kept after `base`,
        keeping the checkpoints met on the way and the result as a recent answer:
        ((the state after the last event, its time), how many events were folded)."""
        state, at = kept
        seq = base
        for event in events:
            if event.seq != seq + 1:
                raise ValueError(f"view_at: seq {event.seq} after {seq}")
            state = self.game.evolve(state, Event(event.type, event.data))
            seq, at = event.seq, event.data.get("at", event.at)
            if (seq - 1) % self.every == 0 and seq not in self.states:
                self.states[seq] = (state, at)
                self._thin()
        self.recent[seq] = (state, at)
        self.recent.move_to_end(seq)
        while len(self.recent) > RECENT_ANSWERS:
            self.recent.popitem(last=False)
        return (state, at), len(events)

    def _thin(self) -> None:
        while len(self.states) > MAX_CHECKPOINTS:
            self.every *= 2
            self.states = {s: kept for s, kept in self.states.items() if (s - 1) % self.every == 0}


# Per table actor (a live table or a replica): dropped with the actor.
_checkpoints: WeakKeyDictionary[TableActor, Checkpoints] = WeakKeyDictionary()


def asked_seq(args: Any, last: int) -> int:
    """The `seq` argument of a `view_at` query, checked: a map `{seq}` with an int seq from 1
    to the table's `last` seq. Refusals are the protocol's codes (docs/protocol.md)."""
    if not isinstance(args, Mapping) or set(args) != {"seq"}:
        raise RuleViolation("bad_message", "view_at: args are exactly {seq}")
    seq = args["seq"]
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise RuleViolation("bad_message", "view_at: `seq` must be a non-negative int")
    if not 1 <= seq <= last:
        raise RuleViolation("bad_seq", f"view_at: the table has seqs 1..{last}, not {seq}")
    return seq


def view_at(actor: TableActor, args: Any, viewer: Actor) -> Deferred[ViewAt]:
    """The answer to `view_at` on `actor` (a `TableActor`) for `viewer` (see module doc): a
    Deferred of a `ViewAt`, fired at once unless older events are read from the store.
    Raises the protocol's RuleViolation for bad arguments."""
    seq = asked_seq(args, actor.seq)
    game = actor.game
    if seq == actor.seq:  # the table now: nothing to fold
        last = actor.events[-1]
        return succeed(answer(game, viewer, seq, (actor.state, last.data.get("at", last.at)), 0))
    checkpoints = _checkpoints.get(actor)
    if checkpoints is None or checkpoints.game is not game:
        created = actor.last_events["TableCreated"]
        at = created.data.get("at", created.at)
        checkpoints = _checkpoints[actor] = Checkpoints(game, actor.options, at)
    base, kept = checkpoints.nearest(seq)

    def fold(events: Sequence[RecordedEvent]) -> ViewAt:
        found, folded = checkpoints.fold(base, kept, events)
        return answer(game, viewer, seq, found, folded)

    first = actor.first_seq
    if base == seq or base + 1 >= first:  # every event to fold (if any) is in memory
        return succeed(fold(actor.events[base + 1 - first : seq + 1 - first]))
    return actor.store.read(actor.stream, after_seq=base, limit=seq - base).addCallback(fold)


def answer(game: Game, viewer: Actor, seq: int, kept: Kept, folded: int) -> ViewAt:
    """The `ViewAt` of the state after `seq` (and that event's time) for `viewer`."""
    state, at = kept
    result = {
        "view": game.view(state, viewer),
        "deadlines": live_deadlines(game, state),
        # the game's time of the event when it records one (as `t24 replay` times it)
        "at": at,
    }
    return ViewAt(seq, result, folded)
