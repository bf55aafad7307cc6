"""Work done a slice of reactor time per turn, so that it never holds the reactor for long.

What it keeps: the callables waiting for a turn with time left, and the reactor time spent
since the current turn's slice began.

Why (issue 32): some work arrives in bulk and is cheap one by one but long together: a
round start creates 500 tables, about 4 ms of the reactor each; done as their store reads
came back, a few dozen landed in one reactor turn, and every other table's command waited
behind them. Here each callable runs at once while the turn has time left (`slice_s`), the
rest wait for the next turns, a slice each, so another table's command waits at most about
one slice (plus the one callable that overran it).

The slice is measured on the clock the shell is given: a test's `task.Clock` does not move
while the work runs, so under it everything runs at once, as before.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from twisted.internet.defer import Deferred, maybeDeferred
from twisted.internet.interfaces import IDelayedCall, IReactorTime

SLICE_S = 0.005  # reactor seconds per turn for bulk work


class Slices:
    """Callables run within a slice of each reactor turn (see the module doc)."""

    def __init__(self, clock: IReactorTime, slice_s: float = SLICE_S) -> None:
        self.clock = clock
        self.slice_s = slice_s
        self._waiting: deque[tuple[Callable[[], object], Deferred[Any]]] = deque()
        self._spent = 0.0  # seconds of this turn's slice used
        self._next_turn: IDelayedCall | None = None

    def run(self, work: Callable[[], object]) -> Deferred[Any]:
        """Run `work` now if this turn's slice has time left, else in a later turn; the
        Deferred fires with its result (or its failure; a Deferred's once it fires)."""
        done: Deferred[Any] = Deferred()
        if self._waiting or self._spent >= self.slice_s:
            self._waiting.append((work, done))
        else:
            self._run(work, done)
        self._schedule()
        return done

    def _run(self, work: Callable[[], object], done: Deferred[Any]) -> None:
        started = self.clock.seconds()
        result = maybeDeferred(work)
        self._spent += self.clock.seconds() - started
        result.chainDeferred(done)

    def _schedule(self) -> None:
        if self._next_turn is None and (self._waiting or self._spent > 0):
            self._next_turn = self.clock.callLater(0, self._turn)

    def _turn(self) -> None:
        """A new turn: a fresh slice for what waits."""
        self._next_turn = None
        self._spent = 0.0
        while self._waiting and self._spent < self.slice_s:
            work, done = self._waiting.popleft()
            self._run(work, done)
        self._schedule()

    def cancel(self) -> None:
        """Drop what waits (its Deferreds never fire) and the next turn's call."""
        self._waiting.clear()
        if self._next_turn is not None and self._next_turn.active():
            self._next_turn.cancel()
        self._next_turn = None
