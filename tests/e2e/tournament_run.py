"""The one `t24 tournament simulate` run of tests/e2e/test_tournament_e2e.py, started in the
background when the test session starts (tests/e2e/conftest.py, `pytest_collection_finish`).

Why in the background: the run is a whole tournament, 3 grades x 20 students played by bots
on a server process of its own, and takes 20-40 s of wall time of which most is waiting (the
bots' timers, the tie-breaks' clocks), about 10 s of CPU. Started with the session, it runs
beside the tests that come first and is over long before its own tests' turn; the suite no
longer waits for it. It shares nothing with the other tests: its own server process, its own
SQLite file, its own port. Its tests are unchanged: they read its summary and bundle.
`pytest tests/e2e/test_tournament_e2e.py` alone starts it the same way, and waits for it.

On several workers (`make test`, pytest-xdist) the controller starts it, once, when the first
worker has collected the tests (tests/suite_plan.py), and writes its exit code to a file when
it ends; the workers whose tests read it wait for that file (`FinishedElsewhere`). A worker
cannot start it: the worker that did might end its share of the tests, and kill the run,
while another still waits for it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from server.games import challenge

PROTESTS = "file_protest" in challenge.COMMANDS  # issue 10 (protests and rulings)
ROOT = Path(__file__).resolve().parents[2]  # the run's working directory, as the tests' own
MODULES = ("test_tournament_e2e.py", "test_audit_report_browser.py")  # the tests that read it
TIMEOUT = 600.0  # seconds, from the start: the simulation's own rounds time out at 600 s each


def simulate_args(bundle: Path) -> list[str]:
    """The run's arguments: 20 students a grade (16 advance, R-ROUND-3), a forced tie in G1,
    an upheld protest; 6 cards a round (the rules' 48 are not what is tested here: fewer
    cards make shorter rounds, and the tie-breaks are timed by `--tie-break-seconds`)."""
    args = ["tournament", "simulate", "--students", "20", "--grades", "3", "--seed", "11"]
    args += ["--fast", "--cards", "6", "--tie-break-seconds", "3"]
    args += ["--force-tie", "G1", "--bundle", str(bundle), "--json"]
    if PROTESTS:
        args.append("--protest")
    return args


def special_instructions_args(bundle: Path) -> list[str]:
    """A small run under the Official Rules' Special Instructions (R-DECK-5): one grade of
    eight, four cards a round; what is tested is which cards each round deals, and that the
    tables play the mix's Variables cards."""
    # seed 3: Variables cards among the first four of rounds 3 and 4
    args = ["tournament", "simulate", "--students", "8", "--grades", "1", "--seed", "3"]
    args += ["--fast", "--cards", "4", "--tie-break-seconds", "3"]
    args += ["--rules", "special_instructions", "--bundle", str(bundle), "--json"]
    return args


class Simulation:
    """The child process of one `t24 tournament simulate` run and its output files (the
    arguments: `simulate_args` unless `arguments` says otherwise)."""

    def __init__(self, directory: Path, arguments: Any = simulate_args) -> None:
        self.directory = directory
        self.bundle = directory / "bundle"
        self.stdout = directory / "simulate.out"
        self.stderr = directory / "simulate.err"
        command = [sys.executable, "-m", "clients.reference_cli", *arguments(self.bundle)]
        with open(self.stdout, "w") as out, open(self.stderr, "w") as err:
            self.process = subprocess.Popen(command, stdout=out, stderr=err, cwd=ROOT)
        self.started = time.monotonic()

    def result(self) -> tuple[dict[str, Any], Path]:
        """Wait for the run to end; its JSON summary and its bundle directory."""
        left = max(1.0, TIMEOUT - (time.monotonic() - self.started))
        returncode = self.process.wait(timeout=left)
        assert returncode == 0, self.stderr.read_text()
        return json.loads(self.stdout.read_text().strip().splitlines()[-1]), self.bundle

    def stop(self) -> None:
        """Kill the run if it is still going (a session that ends early)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def announce_exit(self) -> None:
        """Write the run's exit code to `exit_code_file(directory)` when it ends, from a
        thread: for the other processes that read the run (`FinishedElsewhere`)."""

        def wait() -> None:
            returncode = self.process.wait()
            partial = exit_code_file(self.directory).with_suffix(".partial")
            partial.write_text(str(returncode))
            partial.rename(exit_code_file(self.directory))  # whole, or not there at all

        threading.Thread(target=wait, name="tournament-run-exit", daemon=True).start()


def exit_code_file(directory: Path) -> Path:
    return directory / "exit_code"


class FinishedElsewhere:
    """A run another process started in `directory` (on several workers: the controller's):
    `result()` waits for its exit code file, then reads the same outputs as `Simulation`."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.bundle = directory / "bundle"
        self.stdout = directory / "simulate.out"
        self.stderr = directory / "simulate.err"
        self.started = time.monotonic()

    def result(self) -> tuple[dict[str, Any], Path]:
        """Wait for the run to end; its JSON summary and its bundle directory."""
        exit_code = exit_code_file(self.directory)
        deadline = self.started + TIMEOUT
        while not exit_code.exists():
            assert time.monotonic() < deadline, f"the run in {self.directory} did not end"
            time.sleep(0.1)
        assert exit_code.read_text() == "0", self.stderr.read_text()
        return json.loads(self.stdout.read_text().strip().splitlines()[-1]), self.bundle
