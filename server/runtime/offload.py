"""CPU-heavy pure work off the reactor: a worker process draws the decks a table will need.

What it keeps: one process pool (`ProcessPoolExecutor`, one worker, started on first use
with `spawn`, at a lower CPU priority, ending with the server however it ends: deck_worker.py,
the worker's start, without Twisted) and the decks it is drawing (so two tables that need the
same deck wait for one draw).

Why a process and not a thread (issue 32): a pocket table without a fixed stack draws it in
`decide` (`editions.tournament_deck`: a Double Digits half is 96 solver calls, 0.3-0.7 s of
CPU), and a tournament's round start draws its round's deck; on the reactor every table of
the node waited that long. A thread does not help: a CPU-bound thread holds the GIL, and the
reactor, which gives it up at every socket send and every poll, waits up to the GIL's switch
interval (5 ms) to take it back each time, so a turn of a hundred sends takes half a second.
A process has its own interpreter; at `nice` +10 it also yields the core to the reactor
when both want it.

How the result reaches the game, which stays pure: the worker runs the same pure function
(`editions.draw_deck`) and the reactor installs the deck in the function the game calls
(`tournament_deck.remember`), before the command that draws it is decided: the hub waits for
a new table's decks before it records the table (`Hub.create_table`, the game's optional
`decks_drawn`), the tournament draws the decks of its next rounds as soon as it knows them
(`ProcessActor._warm_decks`). Whatever was not drawn ahead (a deck evicted from the cache,
a worker that failed) is drawn by the game itself, as before: slower, never wrong.

`NoOffload` draws nothing ahead: the game draws what it needs when it decides, on the
calling thread, as it always could (the unit tests' `task.Clock` has no threads to hand a
result back with, and they need no process).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Protocol

from twisted.internet.defer import Deferred, DeferredList, succeed
from twisted.internet.interfaces import IReactorFromThreads
from twisted.logger import Logger

from server.puzzles.editions import TournamentCard, draw_deck, tournament_deck
from server.runtime.deck_worker import worker_start

log = Logger(namespace="t24.offload")

DeckKey = tuple[str, int, int]  # (edition, seed, half): `editions.tournament_deck`'s arguments


class Offload(Protocol):
    """Where the hub has the decks a new table will draw drawn first (see the module doc)."""

    def draw_decks(self, keys: Iterable[DeckKey]) -> Deferred[None]:
        """Fires with None (never an error) once every deck is drawn, or will be by the game."""
        ...

    def shutdown(self) -> None:
        """Stop drawing; the draws waited for fire."""
        ...


class NoOffload:
    """Draws nothing ahead (tests on a `task.Clock`; see the module doc)."""

    def draw_decks(self, keys: Iterable[DeckKey]) -> Deferred[None]:
        return succeed(None)

    def shutdown(self) -> None:
        pass


class ProcessOffload:
    """The worker process of one server (see the module doc)."""

    def __init__(self, reactor: IReactorFromThreads) -> None:
        self.reactor = reactor
        self._pool: ProcessPoolExecutor | None = None
        self._drawing: dict[DeckKey, Deferred[None]] = {}
        self._closed = False

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=worker_start,
                initargs=(os.getpid(),),
            )
        return self._pool

    def draw_decks(self, keys: Iterable[DeckKey]) -> Deferred[None]:
        """Fires (with None, never an error) once every deck is in `tournament_deck`'s cache,
        or could not be drawn in the worker (then the game draws it when it needs it)."""
        waits = [wait for key in dict.fromkeys(keys) if (wait := self._draw(key)) is not None]
        if not waits:
            return succeed(None)
        return DeferredList(waits, consumeErrors=True).addCallback(lambda _: None)

    def _draw(self, key: DeckKey) -> Deferred[None] | None:
        if tournament_deck.cached(*key):
            return None
        drawing = self._drawing.get(key)
        if drawing is None:
            if self._closed:
                return None
            drawing = self._drawing[key] = Deferred()
            try:
                future = self._executor().submit(draw_deck, *key)
            except Exception as error:  # a broken pool: the game draws it itself
                self._drawn(key, None, error)
            else:
                future.add_done_callback(
                    lambda done: self.reactor.callFromThread(self._finished, key, done)
                )
        waiter: Deferred[None] = Deferred()

        def release(result: object) -> object:
            waiter.callback(None)
            return result

        drawing.addBoth(release)
        return waiter

    def _finished(self, key: DeckKey, done: Future[tuple[TournamentCard, ...]]) -> None:
        try:
            cards = done.result()
        except BaseException as error:  # noqa: BLE001 - a cancelled or failed draw alike
            self._drawn(key, None, error)
        else:
            self._drawn(key, cards, None)

    def _drawn(
        self, key: DeckKey, cards: tuple[TournamentCard, ...] | None, error: BaseException | None
    ) -> None:
        if cards is not None:
            tournament_deck.remember(*key, cards)
        elif not self._closed:
            log.warn("deck {key} not drawn in the worker: {why}", key=key, why=repr(error))
        drawing = self._drawing.pop(key, None)
        if drawing is not None:
            drawing.callback(None)

    def shutdown(self) -> None:
        """Stop the worker (a draw in progress is abandoned; its waiters fire)."""
        self._closed = True
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        for key in list(self._drawing):
            self._drawn(key, None, None)
