"""Bulk work a slice of reactor time per turn (server/runtime/slices.py, issue 32): what
fits runs at once, the rest waits for the next turns, each a slice, in order."""

from __future__ import annotations

from twisted.internet.task import Clock

from server.runtime.slices import Slices


class BusyClock(Clock):
    """A clock whose time moves by `cost` seconds while each piece of work runs (`busy`),
    without running the calls that fall due (the reactor runs them in its next turn)."""

    cost = 0.002

    def __init__(self) -> None:
        super().__init__()
        self.spent = 0.0

    def busy(self) -> None:
        self.spent += self.cost

    def seconds(self) -> float:
        return super().seconds() + self.spent


def next_turn(clock: Clock) -> None:
    """One reactor turn: the calls due now run; what they schedule waits for the next one
    (`Clock.advance` would run those too)."""
    due, clock.calls = list(clock.calls), []
    for call in due:
        call.func(*call.args, **call.kw)


def test_work_beyond_a_turns_slice_runs_in_the_next_turns_in_order():
    clock = BusyClock()
    slices = Slices(clock, slice_s=0.005)
    ran: list[int] = []

    def work(n: int):
        def run() -> int:
            ran.append(n)
            clock.busy()  # this piece's reactor time
            return n

        return run

    done = [slices.run(work(n)) for n in range(7)]
    assert ran == [0, 1, 2]  # at once while the turn's 5 ms last (the last one overran)
    next_turn(clock)  # a fresh slice
    assert ran == [0, 1, 2, 3, 4, 5]
    next_turn(clock)
    assert ran == [0, 1, 2, 3, 4, 5, 6]
    results: list[int] = []
    for d in done:
        d.addCallback(results.append)
    assert results == list(range(7))
    next_turn(clock)  # the turn after the last resets the slice and leaves nothing behind
    assert clock.getDelayedCalls() == []


def test_a_clock_that_does_not_move_runs_everything_at_once():
    clock = Clock()
    slices = Slices(clock, slice_s=0.005)
    ran: list[int] = []
    for n in range(50):
        slices.run(lambda n=n: ran.append(n))
    assert ran == list(range(50))


def test_cancel_drops_what_waits():
    clock = BusyClock()
    slices = Slices(clock, slice_s=0.001)
    ran: list[int] = []

    def run(n: int) -> None:
        ran.append(n)
        clock.busy()

    for n in range(3):
        slices.run(lambda n=n: run(n))
    slices.cancel()
    clock.advance(1)
    assert ran == [0]
    assert clock.getDelayedCalls() == []
