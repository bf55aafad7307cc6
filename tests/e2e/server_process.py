"""A real `t24-server` child process on a free loopback port, with its own SQLite file.

Reusable by every end-to-end test (the CLI tests too): `ServerProcess(tmp_dir, *flags)`
starts `python -m server` (forked by the tests' fork server, forkserver.py, but a cluster's
node) with `--port 0` and a `--ready-file`, and waits for that file (the server writes it
once it listens), never sleeping a fixed time. The process's logs go to a
file in `tmp_dir` (`log_text()`), shown when a test fails. `signer()` reads the server's
secret so tests can mint tokens of any role; `metrics()` scrapes and parses `/metrics`;
`kill()` is SIGKILL, `terminate()` SIGTERM, `start()` again reuses the same store and secret
(a restart).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from forkserver import python_command
from prometheus_client.parser import text_string_to_metric_families

from server.net.tokens import TokenSigner, load_or_create_secret

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 30.0
# A wait's ceiling, in seconds, for a server's log line and the WebSocket clients' messages
# (wsclients.py): each wait ends at what it waits for, so a green run never waits it out;
# generous, as CI's loaded machine stalled about 10 s once (2026-12-04: a browser's 15 s
# wait ran out).
TIMEOUT = 20.0


class ServerProcess:
    """One `t24-server` child process (see module doc)."""

    def __init__(
        self,
        tmp_dir: Path,
        *flags: str,
        store: str | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        self.dir = Path(tmp_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.store = store or f"sqlite:///{self.dir / 't24.sqlite'}"
        self.secret_file = self.dir / "t24.secret"
        self.ready_file = self.dir / "ready.json"
        self.log_file = self.dir / "server.log"
        self.flags = list(flags)
        self.extra_env = dict(env or {})  # e.g. T24_WORDS_DIR (a test's toy language)
        # The process started: the server itself, or the fork server's launcher standing for
        # it (forkserver.py), which passes signals on and exits as the server exits.
        self.process: subprocess.Popen | None = None
        self.pid = 0  # the server's own pid, from its ready file (/proc, SIGSTOP, its children)
        self.url = ""
        self.port = 0
        self.returncode: int | None = None

    def start(self, *extra: str) -> ServerProcess:
        """Start the process and wait until it listens (its ready file appears)."""
        self.spawn(*extra)
        return self.wait_ready()

    def spawn(self, *extra: str) -> None:
        """Start the process without waiting for it (`wait_ready`; `start_together`)."""
        self.ready_file.unlink(missing_ok=True)
        self.pid = 0
        args = (
            "-m",
            "server",
            "--store",
            self.store,
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--secret-file",
            str(self.secret_file),
            "--ready-file",
            str(self.ready_file),
            "--log-level",
            "debug",
            *self.flags,
            *extra,
        )
        # A cluster's nodes start as plain processes, each with a hash seed of its own: the
        # fork server's children share one (forkserver.py), and nodes must not agree by
        # chance on what a real cluster's would not.
        plain = "--node-id" in args
        command = [sys.executable, *args] if plain else python_command(*args)
        log = open(self.log_file, "a")  # noqa: SIM115 - the child keeps it open
        env = {k: v for k, v in os.environ.items() if not k.startswith("T24_")}
        env.update(self.extra_env)
        self.process = subprocess.Popen(
            command, cwd=self.dir, stdout=log, stderr=subprocess.STDOUT, env=env
        )
        log.close()

    def wait_ready(self) -> ServerProcess:
        """Wait until the spawned process listens (its ready file appears)."""
        assert self.process is not None
        deadline = time.monotonic() + START_TIMEOUT
        while not self.ready_file.exists():
            if self.process.poll() is not None:
                raise RuntimeError(f"t24-server exited early:\n{self.log_text()}")
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"t24-server did not start:\n{self.log_text()}")
            time.sleep(0.02)
        ready = json.loads(self.ready_file.read_text())
        self.url, self.port, self.pid = ready["url"], ready["port"], ready["pid"]
        return self

    @property
    def http(self) -> str:
        """The http:// base URL of the same port (/healthz, /metrics)."""
        return f"http://127.0.0.1:{self.port}"

    def signer(self) -> TokenSigner:
        """A signer with the server's secret, to mint tokens of any role in tests."""
        return TokenSigner(load_or_create_secret(self.secret_file))

    def token(self, role: str, **claims: object) -> str:
        """A fresh token (12 h) signed with the server's secret."""
        return self.signer().issue(role, now=time.time(), **claims)[0]

    def get(self, path: str, timeout: float = 5.0) -> tuple[int, bytes, dict[str, str]]:
        """GET a path on the server's port: (status, body, headers)."""
        try:
            with urllib.request.urlopen(self.http + path, timeout=timeout) as response:
                return response.status, response.read(), dict(response.headers)
        except urllib.error.HTTPError as error:
            return error.code, error.read(), dict(error.headers)

    def metrics(self) -> dict[str, float]:
        """`GET /metrics`, parsed by prometheus_client's own parser (so the exposition is
        valid as Prometheus reads it): sample -> value, a labelled sample keyed
        `name{label=value,...}` (labels sorted), e.g. `t24_commands_total{outcome=accepted}`."""
        status, body, _headers = self.get("/metrics")
        assert status == 200, status
        scraped: dict[str, float] = {}
        for family in text_string_to_metric_families(body.decode("utf-8")):
            for sample in family.samples:
                labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
                scraped[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
        return scraped

    def wait(self, timeout: float = 15.0) -> int:
        """Wait for the process to exit; its exit code."""
        assert self.process is not None
        self.returncode = self.process.wait(timeout=timeout)
        return self.returncode

    def send_term(self) -> None:
        """SIGTERM (graceful stop), without waiting for the exit."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)

    def terminate(self, timeout: float = 15.0) -> int:
        """SIGTERM (graceful stop) and wait for the exit code."""
        self.send_term()
        return self.wait(timeout)

    def wait_log(self, text: str, timeout: float = TIMEOUT) -> None:
        """Wait until the server's log holds `text` (a log line the test waits for)."""
        deadline = time.monotonic() + timeout
        while text not in self.log_text():
            if time.monotonic() > deadline:
                raise TimeoutError(f"{text!r} not in the server log:\n{self.log_text()[-3000:]}")
            time.sleep(0.01)

    def kill(self) -> None:
        """SIGKILL: the process dies mid-whatever, as in a crash. Sent to the server itself
        when it has said its pid, so that once the launcher has exited (after the server
        was reaped) nothing of the server is left."""
        if self.process is not None and self.process.poll() is None:
            if self.pid:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.pid, signal.SIGKILL)
            else:
                self.process.kill()
            self.process.wait(timeout=10)

    def rss_bytes(self) -> int:
        """The server's resident set size now, in bytes (its own pid's /proc)."""
        assert self.pid, "the server has not said its pid (not started)"
        status = Path(f"/proc/{self.pid}/status").read_text()
        line = next(line for line in status.splitlines() if line.startswith("VmRSS:"))
        return int(line.split()[1]) * 1024

    def cpu_seconds(self) -> float:
        """The server's CPU time so far (user and system), in seconds."""
        assert self.pid, "the server has not said its pid (not started)"
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def log_text(self) -> str:
        return self.log_file.read_text() if self.log_file.exists() else ""


def start_together(*processes: ServerProcess) -> tuple[ServerProcess, ...]:
    """Start several processes (a cluster's nodes) at once and wait until each listens: a
    start is mostly the interpreter's imports, so the nodes' starts overlap instead of adding
    up. Their secret files are created first, here: nodes sharing one must not race to write
    it (a node that lost the race would read it half written)."""
    for process in processes:
        load_or_create_secret(process.secret_file)
    for process in processes:
        process.spawn()
    try:
        for process in processes:
            process.wait_ready()
    except BaseException:
        for process in processes:
            process.kill()
        raise
    return processes
