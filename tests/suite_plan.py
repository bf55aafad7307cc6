"""How `make test` spreads the suite over three workers (pytest-xdist; docs/testing.md, "Suite
time"): `pytest -n 3 --dist loadfile --no-loadscope-reorder`.

- **A file is one unit of work**, run whole by one worker in its order (`--dist loadfile`):
  the module-scoped fixtures (a node pair, a twin server, a built wheel) start once, and the
  e2e tests' Autobahn reactor thread is handed back after each module as in one process
  (tests/e2e/conftest.py). Not `--dist loadgroup` with an `xdist_group` mark per file, as
  before: with pytest 9.2 xdist 3.8 drops the groups without a word (it writes the group
  into a node id pytest no longer reads: pytest-xdist issue 1386), and each test was dealt
  alone, a module's fixtures started once on each worker.
- **Slowest first** (`SLOWEST_FIRST`, measured): a long file started last would keep one
  worker busy while the other has nothing left; the many small files at the end even the
  two out. xdist's own reordering (by the number of tests in a unit) is off.
- **After the longest, the waiting files spread among the computing ones** (`spread_out`):
  past the first `LONG_FILES` of `SLOWEST_FIRST`, the end-to-end files (tests/e2e/) mostly
  wait (a lease to run out, a timeout, a server to start); one after another, they had all
  three workers waiting at once while the cores idled (35-40 core-seconds of a 205 s run,
  2026-12-04). Spread among the in-process files, whose CPU is their own, a worker computes
  while another waits. Each kind keeps its order (the rest of `SLOWEST_FIRST`, then
  collection order); the last fifth of the in-process files, quick ones, stay the end that
  evens the workers out.
- **The whole-tournament run** (tests/e2e/tournament_run.py) is started by the controller
  once a worker has collected the tests, not by each worker (`ControllerPlan`).

Without `-n` (`pytest tests/unit/test_x.py`) none of this applies: one process, the files in
collection order, the tournament run started by that process.

Shared by the workers, and made safe for it: ports (every server listens on port 0 and says
which in its ready file), files (each worker has its own `tmp_path` folder, under the
controller's), PostgreSQL (one fresh schema per test, named with a random id:
tests/postgres_schemas.py), the environment and module state (a process each).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

TOURNAMENT_RUN = "t24_tournament_run"  # workerinput key: the controller's run's folder

# The files that take longest, longest first: each file's seconds (setup, call and teardown
# of its tests, summed) in a whole two-worker run on the shared machine at load 5-19 (median
# 8), 2026-12-02 17:27-17:48 UTC (docs/testing.md, "Suite time"). Files not named here
# follow them (each under 12 s there), spread as `plan_order` says. Kept, though the files
# got faster since: this order mixes the browser files (each worker's own Chromium) with the files
# whose CPU is their own, and on three workers it measured faster than the quiet run's
# order of 2026-12-03 (260 s against 281 s: that one started the browser files together,
# three Chromiums rendering at once, the director's test 48 -> 84 s). But for the two files
# that read the whole-tournament run (`READ_THE_RUN`): they come after the first ten, when
# the run (20-40 s of wall time on a quiet machine, started with the session) is over, so
# no worker waits for it (first in collection order, test_audit_report_browser.py waited
# 86 s of a loaded run). Last, the install tests, which `make test` leaves out (`make
# test-install` runs them: the two longest first, side by side).
SLOWEST_FIRST: tuple[str, ...] = (
    "tests/e2e/test_web_director.py",  # 249 (a whole tournament of bots; one process a round now)
    "tests/e2e/test_web_client.py",  # 154
    "tests/e2e/test_adding_a_game.py",  # 82 (a copy of the tree, its suites in children)
    "tests/contract/test_game_contract.py",  # 76
    "tests/unit/test_tournament_properties.py",  # 65
    "tests/e2e/test_cli_casual.py",  # 63
    "tests/e2e/test_cli_round.py",  # 51
    "tests/e2e/test_tournament_cli.py",  # 47
    "tests/e2e/test_web_languages.py",  # 45
    "tests/e2e/test_web_casual.py",  # 38
    "tests/e2e/test_tournament_e2e.py",  # 70 (with its wait for the run)
    "tests/e2e/test_audit_report_browser.py",  # 53 (with its wait for the run)
    "tests/e2e/test_web_screens.py",  # 34
    "tests/contract/test_argument_shapes.py",  # 33
    "tests/contract/test_view_at.py",  # 32
    "tests/unit/test_words_languages.py",  # 32
    "tests/e2e/test_cluster_listing.py",  # 31
    "tests/e2e/test_server_lifecycle.py",  # 31
    "tests/e2e/test_casual_bots.py",  # 30
    "tests/unit/test_tjugoett_properties.py",  # 27
    "tests/unit/test_trial_checks.py",  # 27
    "tests/e2e/test_cli_play.py",  # 27
    "tests/e2e/test_cluster_tournament.py",  # 25
    "tests/e2e/test_demo_rerun.py",  # 21
    "tests/e2e/test_cluster_failover.py",  # 20
    "tests/e2e/test_web_practice.py",  # 19
    "tests/contract/test_store_processes.py",  # 18
    "tests/e2e/test_tournament_day_cli.py",  # 18
    "tests/e2e/test_web_moved.py",  # 18
    "tests/contract/test_no_secret_leaks.py",  # 17
    "tests/e2e/test_cluster_play.py",  # 17
    "tests/unit/test_web_build.py",  # 16
    "tests/e2e/test_cli_languages.py",  # 16
    "tests/e2e/test_web_director_day.py",  # 16
    "tests/e2e/test_server_abuse.py",  # 16
    "tests/contract/test_store_contract.py",  # 16
    "tests/e2e/test_long_catch_up.py",  # 14
    "tests/e2e/test_casual_games.py",  # 14
    "tests/e2e/test_tjugoett_server.py",  # 14
    "tests/unit/test_session_fuzz.py",  # 14
    "tests/e2e/test_web_board.py",  # 14
    "tests/unit/test_round_decks.py",  # 13
    "tests/unit/test_tournament_edges.py",  # 12
    # `make test-install` only (marked `install`)
    "tests/e2e/test_server_install.py",  # 101
    "tests/e2e/test_pipx_install.py",  # 82
    "tests/e2e/test_installed_package.py",  # 63
)

READ_THE_RUN = ("tests/e2e/test_audit_report_browser.py", "tests/e2e/test_tournament_e2e.py")


# The first files of SLOWEST_FIRST (38 s and more), which start the run in their order.
LONG_FILES = 12
# The share of the in-process files left after the last waiting file (`spread_out`).
TAIL_SHARE = 0.2


def plan_order(items: list[pytest.Item], root: Path) -> None:
    """Put `items` in the order described above (the module doc); `--dist loadfile` deals
    each file whole."""
    files = list(dict.fromkeys(file_of(item, root) for item in items))
    present = set(files)
    longest = [name for name in SLOWEST_FIRST[:LONG_FILES] if name in present]
    named = [name for name in SLOWEST_FIRST[LONG_FILES:] if name in present]
    rest = named + [name for name in files if name not in SLOWEST_FIRST]
    waiting = [name for name in rest if name.startswith("tests/e2e/")]
    computing = [name for name in rest if not name.startswith("tests/e2e/")]
    place = {name: index for index, name in enumerate(longest + spread_out(waiting, computing))}
    # stable: a file's tests keep their order
    items.sort(key=lambda item: place[file_of(item, root)])


def spread_out(waiting: list[str], computing: list[str]) -> list[str]:
    """`waiting` evenly among the first (1 - TAIL_SHARE) of `computing`, each list in its own
    order: `computing`'s last files come after every waiting one."""
    if not computing:
        return waiting
    span = len(computing) * (1 - TAIL_SHARE)
    order: list[str] = []
    placed = 0
    for index, name in enumerate(computing):
        while placed < len(waiting) and placed * span / len(waiting) <= index:
            order.append(waiting[placed])
            placed += 1
        order.append(name)
    return order + waiting[placed:]


def file_of(item: pytest.Item, root: Path) -> str:
    return item.path.relative_to(root).as_posix()


class ControllerPlan:
    """The controller's part (registered by tests/conftest.py on `-n`): the tournament run."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.directory: Path | None = None
        self.simulation: Any = None

    def pytest_configure_node(self, node: Any) -> None:
        """Tell each worker where the run writes (it may not be started: see below)."""
        if self.directory is None:
            self.directory = self.config._tmp_path_factory.mktemp("tournament")  # type: ignore[attr-defined]
        node.workerinput[TOURNAMENT_RUN] = str(self.directory)

    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """Start the run when the first worker's collection holds a test that reads it."""
        from e2e import tournament_run

        if self.simulation is not None or self.directory is None:
            return
        if any(Path(nodeid.split("::")[0]).name in tournament_run.MODULES for nodeid in ids):
            self.simulation = tournament_run.Simulation(self.directory)
            self.simulation.announce_exit()

    def pytest_sessionfinish(self) -> None:
        if self.simulation is not None:
            self.simulation.stop()
