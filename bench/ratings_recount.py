"""Benchmark: does the `ratings` query's recount hold the reactor? (issue 32)

    .venv/bin/python bench/ratings_recount.py [--tables N] [--cards C]

Writes a SQLite store of a tournament's end (N pocket tables of four students among 2,000,
each ended with its scores; N/5 practice tables of C cards each), then, on the real reactor,
asks the ratings across the log as the `ratings` query does (server/runtime/ratings_query.py:
the store's reader threads, the fold in slices) twice in one process:
1. one turn: the fold in one reactor turn (a slice without end), as before issue 32's change;
2. slices: the fold in slices of the reactor's turns (`Slices`, 5 ms), as the server does;
then, in slices again, one more table's result after the last fold (a score card signed).
Meanwhile a probe is due every millisecond: its lateness is how long another table's command
would have waited for the reactor. Reported for each: the read's wall time, the probe's
lateness p99 and max (ms; on a busy machine this is mostly other processes' turns), the
reactor thread's CPU between two probes p99 and max (ms: how long the reactor worked without
a break), the longest garbage collection meanwhile, and whether the answers are the same.
Nothing is written to the docs: docs/performance.md ("The ratings recount") quotes one run.
"""

from __future__ import annotations

import argparse
import gc
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from twisted.internet import reactor, task  # noqa: E402
from twisted.internet.defer import Deferred, ensureDeferred  # noqa: E402

from protocol.messages import table_stream  # noqa: E402
from server.eventlog.backends import open_blocking_store, open_store  # noqa: E402
from server.eventlog.envelope import NewEvent  # noqa: E402
from server.runtime.ratings_query import LogCache  # noqa: E402
from server.runtime.slices import Slices  # noqa: E402

T0 = 1_700_000_000_000_000
STUDENTS = 2000


def write_log(url: str, tables: int, cards: int) -> None:
    """The store's log: `tables` pocket games, `tables // 5` practice tables."""
    store = open_blocking_store(url)
    rng = random.Random(24)
    at = T0
    for n in range(tables):
        names = rng.sample(range(STUDENTS), 4)
        seats = [{"seat": f"s{k}", "name": f"Student {s}"} for k, s in enumerate(names)]
        at += 1000
        scores = {f"s{k}": rng.randint(0, 12) for k in range(4)}
        store.append(
            table_stream(f"g{n}"),
            0,
            [
                NewEvent("TableCreated", {"game": "pocket", "options": {"seats": seats}}),
                NewEvent("GameEnded", {"at": at, "reason": "stack_used_up", "scores": scores}),
            ],
        )
    for n in range(tables // 5):
        seats = [{"seat": "s1", "name": f"Student {rng.randrange(STUDENTS)}"}]
        events = [NewEvent("TableCreated", {"game": "practice", "options": {"seats": seats}})]
        for number in range(cards):
            at += 1000
            card = {"seat": "s1", "number": number, "score": rng.uniform(0.5, 3.5)}
            events.append(NewEvent("CardDealt", {"at": at, **card}))
            solved = {"seat": "s1", "number": number, "solved": rng.random() < 0.6}
            events.append(
                NewEvent("RatingUpdated", {"at": at, "card_id": f"c{number % 300}", **solved})
            )
        store.append(table_stream(f"p{n}"), 0, events)
    store.close()


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p * len(ordered)))] if ordered else 0.0


Measured = tuple[float, list[float], list[float], Any, float]


class Collections:
    """The longest garbage collection since `reset` (ms of the collecting thread's CPU, as
    the probe's stretches): a full collection walks every object the process holds, the
    ratings cache's too, on whatever thread allocates, so it is reported beside the
    stretches it may be part of."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._started = 0.0
        gc.callbacks.append(self._seen)

    def _seen(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.thread_time()
        else:
            self.longest = max(self.longest, (time.thread_time() - self._started) * 1000)

    def reset(self) -> None:
        self.longest = 0.0


COLLECTIONS = Collections()


async def measure(store: Any, cache: LogCache, slice_s: float) -> Measured:
    """One read of the ratings with the fold's slice `slice_s`: its wall time, the probe's
    lateness (ms), the reactor thread's CPU between two probes (ms: robust to a machine
    whose other processes take the core meanwhile), the ratings."""
    late: list[float] = []
    held: list[float] = []
    due = [time.perf_counter() + 0.001, time.thread_time()]

    def probe() -> None:
        now, cpu = time.perf_counter(), time.thread_time()
        late.append(max(0.0, now - due[0]) * 1000)
        held.append((cpu - due[1]) * 1000)
        due[0], due[1] = now + 0.001, cpu

    COLLECTIONS.reset()
    probing = task.LoopingCall(probe)
    probing.start(0.001, now=False)
    cache.slices = Slices(reactor, slice_s=slice_s)
    started = time.perf_counter()
    rated, _cache, _read = await cache.ask(store, reactor)
    took = time.perf_counter() - started
    probe()  # the stretch that ended with the answer
    probing.stop()
    return took, late, held, rated, COLLECTIONS.longest


def report(label: str, measured: Measured) -> str:
    took, late, held, _rated, collection = measured
    return (
        f"{label:>9}: {took:6.2f} s; probe late p99 {percentile(late, 0.99):6.1f} ms, "
        f"max {max(late, default=0):6.1f} ms; reactor CPU between probes p99 "
        f"{percentile(held, 0.99):6.1f} ms, max {max(held, default=0):6.1f} ms; "
        f"longest garbage collection, CPU {collection:6.1f} ms"
    )


async def main(tables: int, cards: int) -> None:
    folder = Path(tempfile.mkdtemp(prefix="t24-ratings-bench-"))
    url = f"sqlite:///{folder}/log.sqlite"
    started = time.perf_counter()
    write_log(url, tables, cards)
    print(
        f"log: {tables} pocket tables, {tables // 5} practice tables of {cards} cards "
        f"(written in {time.perf_counter() - started:.1f} s)"
    )
    store = open_store(url, reactor=reactor)
    answers = []
    for label, slice_s in (("one turn", float("inf")), ("slices", 0.005)):
        measured = await measure(store, LogCache(), slice_s)
        answers.append(measured[3])
        print(report(label, measured), f"({len(measured[3].students)} students)")
    print(f"same answers: {answers[0] == answers[1]}")
    cache = LogCache()
    await measure(store, cache, 0.005)
    seats = [{"seat": f"s{k}", "name": f"Student {k}"} for k in range(4)]
    signed = {"at": T0 + 10**12, "reason": "stack_used_up", "scores": {"s0": 3, "s1": 1}}
    await store.append(
        table_stream("last"),
        0,
        [
            NewEvent("TableCreated", {"game": "pocket", "options": {"seats": seats}}),
            NewEvent("GameEnded", signed),
        ],
    )
    measured = await measure(store, cache, 0.005)
    print(report("signed", measured), f"(folds afresh: {cache.recounts})")
    await store.close()
    shutil.rmtree(folder, ignore_errors=True)


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=2500)
    parser.add_argument("--cards", type=int, default=40)
    args = parser.parse_args()
    done: Deferred[None] = ensureDeferred(main(args.tables, args.cards))
    done.addErrback(lambda failure: print(failure.getTraceback(), file=sys.stderr))
    done.addBoth(lambda _: reactor.stop())
    reactor.run()


if __name__ == "__main__":
    run()
