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
state after every `CHECKPOINT_EVERY`-th event, folded once, the first time a step that far
is asked for. An answer folds at most `CHECKPOINT_EVERY - 1` events from the nearest
checkpoint, and reports how many it folded (`folded`, the checkpoints it built included), so
the session charges the request bucket for them as it charges a join's catch-up. Stepping
through a long table costs its fold once, not once per step. States are immutable (frozen
dataclasses), so a checkpoint is a reference, and it lives as long as the table's actor.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from server.eventlog.envelope import RecordedEvent
from server.games.base import Actor, Event, RuleViolation
from server.runtime.views import live_deadlines

VIEW_AT = "view_at"  # the query's name: answered by the shell, never by a game
CHECKPOINT_EVERY = 50  # events between two kept states of a table


@dataclass(frozen=True)
class ViewAt:
    """One answer: the seq it is about, the `answer` message's `result`, and the cost."""

    seq: int
    result: dict[str, Any]
    folded: int  # `evolve` calls made for this answer (the session charges for them)


class Checkpoints:
    """The states of one table after seq 1, 1 + K, 1 + 2K, ... (K = `CHECKPOINT_EVERY`),
    folded from its recorded events the first time they are needed."""

    def __init__(self, game: Any, options: Mapping[str, Any]) -> None:
        self.game = game
        self.states: list[Any] = [game.initial_state(options)]  # [i]: after seq 1 + i * K

    def state_after(self, events: Sequence[RecordedEvent], seq: int) -> tuple[Any, int]:
        """(the state right after event `seq`, how many events were folded to get it).

        `events` are the table's recorded events from seq 1 (`TableActor.events`)."""
        folded = 0
        wanted = (seq - 1) // CHECKPOINT_EVERY
        while len(self.states) <= wanted:  # extend the checkpoints up to the one wanted
            state = self.states[-1]
            start = 1 + (len(self.states) - 1) * CHECKPOINT_EVERY
            for recorded in events[start : start + CHECKPOINT_EVERY]:
                state = self.game.evolve(state, Event(recorded.type, recorded.data))
            folded += CHECKPOINT_EVERY
            self.states.append(state)
        state = self.states[wanted]
        start = 1 + wanted * CHECKPOINT_EVERY  # the index after the checkpoint's event
        for recorded in events[start:seq]:
            state = self.game.evolve(state, Event(recorded.type, recorded.data))
            folded += 1
        return state, folded


# Per table actor (a live table or a replica): dropped with the actor.
_checkpoints: WeakKeyDictionary[Any, Checkpoints] = WeakKeyDictionary()


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


def view_at(actor: Any, args: Any, viewer: Actor) -> ViewAt:
    """The answer to `view_at` on `actor` (a `TableActor`) for `viewer` (see module doc)."""
    seq = asked_seq(args, actor.seq)
    game = actor.game
    if seq == actor.seq:  # the table now: nothing to fold
        state, folded = actor.state, 0
    else:
        checkpoints = _checkpoints.get(actor)
        if checkpoints is None or checkpoints.game is not game:
            checkpoints = _checkpoints[actor] = Checkpoints(game, actor.options)
        state, folded = checkpoints.state_after(actor.events, seq)
    event = actor.events[seq - 1]
    result = {
        "view": game.view(state, viewer),
        "deadlines": live_deadlines(game, state),
        # the game's time of the event when it records one (as `t24 replay` times it)
        "at": event.data.get("at", event.at),
    }
    return ViewAt(seq, result, folded)
