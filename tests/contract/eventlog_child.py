"""A child process for the multi-process store tests, running the real reactor.

    eventlog_child.py crash URL STREAMS   append forever to STREAMS streams at once; print
                                          "<stream> <seq>" after each acknowledged append
    eventlog_child.py race URL STREAM COUNT NAME
                                          wait for "go" on stdin, then append COUNT events to
                                          STREAM, re-reading the last seq after each
                                          ConcurrencyError; print "done <conflicts>"

Both print "ready" once the store is open. Lines are flushed at once: the parent treats a
printed seq as acknowledged, so it must never print before the append's Deferred fired.
"""

from __future__ import annotations

import random
import sys

from twisted.internet import defer, task

from server.eventlog.backends import open_store
from server.eventlog.envelope import NewEvent
from server.eventlog.store import ConcurrencyError


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


@defer.inlineCallbacks
def crash(url: str, streams: int):
    store = open_store(url)
    names = [f"crash/{n}" for n in range(streams)]
    say("ready")

    @defer.inlineCallbacks
    def writer(name: str):
        seq = yield store.last_seq(name)
        while True:
            size = random.randint(1, 3)  # several events per append: all or nothing
            events = [
                NewEvent("Tick", {"n": seq + k + 1, "pad": "x" * random.randint(0, 2000)})
                for k in range(size)
            ]
            recorded = yield store.append(name, seq, events)
            seq = recorded[-1].seq
            say(f"{name} {seq}")

    yield defer.gatherResults([writer(name) for name in names], consumeErrors=True)


@defer.inlineCallbacks
def race(url: str, stream: str, count: int, name: str):
    store = open_store(url)
    say("ready")
    sys.stdin.readline()  # "go": both children start together
    conflicts = 0
    for n in range(count):
        while True:
            seq = yield store.last_seq(stream)
            try:
                yield store.append(stream, seq, [NewEvent("Raced", {"writer": name, "n": n})])
                break
            except ConcurrencyError:
                conflicts += 1
    yield store.close()
    say(f"done {conflicts}")


def main(_reactor, mode: str, *args: str) -> defer.Deferred:
    if mode == "crash":
        return crash(args[0], int(args[1]))
    return race(args[0], args[1], int(args[2]), args[3])


if __name__ == "__main__":
    task.react(main, sys.argv[1:])
