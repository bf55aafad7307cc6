"""The bulk lane of the threaded stores (server/eventlog/threaded.py, issue 32): a round
start's 500 `TableCreated` appends share each commit with the live tables' appends only up to
`BULK_BYTES_PER_COMMIT`, so those commits stay small; every append still gets its own
outcome, a bulk one too. On real SQLite files, the test's own thread running what the store
hands back (`ThreadReturns`)."""

from __future__ import annotations

from eventlog_backends import START, ThreadReturns
from shell_testcase import ShellTestCase
from twisted.internet import defer, task

from server.eventlog.backends import open_store
from server.eventlog.envelope import NewEvent
from server.eventlog.store import ConcurrencyError
from server.eventlog.threaded import BULK_BYTES_PER_COMMIT

ACTOR = {"role": "server", "id": "server"}


def event(size: int) -> NewEvent:
    return NewEvent("TableCreated", {"options": {"deck": "x" * size}}, actor=ACTOR)


class BulkLaneTests(ShellTestCase):
    def setUp(self) -> None:
        super().setUp()
        clock = task.Clock()
        clock.advance(START)
        self.returns = ThreadReturns()
        url = f"sqlite:///{self.tmp_path / 'events.sqlite'}"
        self.store = open_store(url, clock=clock.seconds, reactor=self.returns)
        self.addCleanup(lambda: self.returns.wait(self.store.close()))
        self.commits: list[list[str]] = []
        engine = self.store.engine
        append_batch = engine.append_batch

        def recording(requests):
            self.commits.append([request.stream for request in requests])
            return append_batch(requests)

        engine.append_batch = recording

    def test_each_commit_takes_every_live_append_and_a_bounded_share_of_the_bulk(self):
        store = self.store
        size = BULK_BYTES_PER_COMMIT // 4  # four bulk appends fill a commit's share
        first = store.append("live/0", 0, [event(10)])  # in flight: the others queue
        bulk = [store.append_bulk(f"bulk/{n}", 0, [event(size)]) for n in range(10)]
        live = [store.append(f"live/{n}", 0, [event(10)]) for n in range(1, 4)]
        self.returns.wait(defer.gatherResults([first, *bulk, *live]))
        # the next commit: every live append queued, then the bulk share: three fit under
        # the bound with their data's few extra bytes, the fourth would pass it
        bulk_names = [f"bulk/{n}" for n in range(10)]
        assert self.commits == [
            ["live/0"],
            ["live/1", "live/2", "live/3", *bulk_names[0:3]],
            bulk_names[3:6],
            bulk_names[6:9],
            bulk_names[9:],
        ]

    def test_a_bulk_append_gets_its_own_outcome(self):
        store = self.store
        self.returns.wait(store.append_bulk("bulk/1", 0, [event(10)]))
        again = store.append_bulk("bulk/1", 0, [event(10)])
        with self.assertRaises(ConcurrencyError):
            self.returns.wait(again)

    def test_a_bulk_append_larger_than_the_share_is_committed_alone(self):
        store = self.store
        first = store.append("live/0", 0, [event(10)])
        big = [
            store.append_bulk(f"bulk/{n}", 0, [event(2 * BULK_BYTES_PER_COMMIT)]) for n in (1, 2)
        ]
        self.returns.wait(defer.gatherResults([first, *big]))
        assert self.commits[1:] == [["bulk/1"], ["bulk/2"]]
