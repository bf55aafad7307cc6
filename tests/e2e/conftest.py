"""End-to-end fixtures: one shared `t24-server` process per test session, clients, tokens.

The whole-tournament run of tests/e2e/test_tournament_e2e.py starts when the session starts
and runs beside the tests before it (tests/e2e/tournament_run.py says why).

`server` is shared by every test that does not need a process of its own (restarts, kills
and tight connection limits start their own `ServerProcess`). Its limits are tightened so
that the limit tests are quick: a 1 s hello timeout, a small rate limit, and no abuse
cool-down (every test connects from the same address). Not its handshake deadline: the
browser's keep-alive HTTP connections live until it (server/net/limits.py), and at 1 s a
page's modules were fetched on connections closing under them, one hiccup of a loaded
machine from a page that never connected (CI, 2026-12-04); the 1 s deadline is tested on
test_server_refusals.py's `guarded` server.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import suite_plan
import tournament_run
from cli_pty import T24Cli
from server_process import ServerProcess
from web_browser import (  # noqa: F401 - the web client's fixtures
    browser,
    browser_pool,
    page_without_a_token,
    pages,
)
from wsclients import AutobahnClient, stop_reactor_thread

SHARED_FLAGS = (
    "--hello-timeout",
    "1",
    "--rate-per-second",
    "20",
    "--rate-burst",
    "40",
    "--abuse-strikes",
    "20",
    "--max-message-bytes",
    "16384",
    "--abuse-cooldown",  # every test connects from 127.0.0.1: one flood test must not lock
    "0",  # the others out (the cool-down is tested by test_server_floods.py)
)


SIMULATION = pytest.StashKey[tournament_run.Simulation]()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the whole-tournament run now if its tests are to run (tests/e2e/tournament_run.py);
    on several workers the controller does (tests/suite_plan.py), not each worker."""
    if session.config.option.collectonly or hasattr(session.config, "workerinput"):
        return
    if any(item.path.name in tournament_run.MODULES for item in session.items):
        directory = session.config._tmp_path_factory.mktemp("tournament")
        session.config.stash[SIMULATION] = tournament_run.Simulation(directory)


def pytest_sessionfinish(session: pytest.Session) -> None:
    simulation = session.config.stash.get(SIMULATION, None)
    if simulation is not None:
        simulation.stop()


@pytest.fixture(scope="session")
def tournament_simulation(request, tmp_path_factory):
    """The run started with the session (by this process, or on several workers by the
    controller), or (when it was not) one started now."""
    started = request.config.stash.get(SIMULATION, None)
    elsewhere = getattr(request.config, "workerinput", {}).get(suite_plan.TOURNAMENT_RUN)
    if elsewhere is not None:
        return tournament_run.FinishedElsewhere(Path(elsewhere))
    return started or tournament_run.Simulation(tmp_path_factory.mktemp("tournament"))


@pytest.fixture(scope="module", autouse=True)
def reactor_handed_back():
    """After each module, stop the Autobahn clients' reactor thread (started on demand): the
    in-process tests are trial TestCases that run the global reactor themselves."""
    yield
    stop_reactor_thread()


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """The shared server process (SQLite in a temp dir)."""
    process = ServerProcess(tmp_path_factory.mktemp("shared-server"), *SHARED_FLAGS).start()
    yield process
    if process.running():
        process.terminate()


@pytest.fixture
def connect(server):
    """`connect(token=None, url=None, **options)`: an Autobahn client, closed after the test."""
    clients: list[AutobahnClient] = []

    def make(token: str | None = None, url: str | None = None, **options) -> AutobahnClient:
        client = AutobahnClient(url or server.url, **options)
        clients.append(client)
        if token is not None:
            client.hello(token)
        return client

    yield make
    for client in clients:
        client.close()


@pytest.fixture
def own_server(tmp_path):
    """(process, client): a server of this test's own, for a board or a count that must see
    only this test's tables; `client(token)` is an Autobahn client said hello, closed after."""
    process = ServerProcess(tmp_path / "srv").start()
    clients: list[AutobahnClient] = []

    def client(token: str) -> AutobahnClient:
        made = AutobahnClient(process.url)
        clients.append(made)
        made.hello(token)
        return made

    yield process, client
    for made in clients:
        made.close()
    if process.running():
        process.terminate()


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Attach the shared server's log to a failing e2e test's report."""
    outcome = yield
    report = outcome.get_result()
    if report.failed and "server" in item.fixturenames:
        process = item.funcargs.get("server")
        if process is not None:
            report.sections.append(("t24-server log (tail)", process.log_text()[-6000:]))


@pytest.fixture
def cli(tmp_path):
    """Runs `t24` commands in pseudo-terminals; their logs are printed when a test fails."""
    runner = T24Cli(tmp_path)
    yield runner
    runner.close()
    print(runner.logs())  # shown only when the test fails
