"""The tests' fork server (forkserver.py) starts a child that behaves as `python -m MODULE`
would: its arguments, working directory, environment and streams, its exit code, the
signals sent to its launcher, a terminal, and no child left when the launcher is killed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pexpect
import pytest
from forkserver import ROOT, enabled, python_command

PROBE = """
import json, os, signal, sys, time
if sys.argv[1:2] == ["wait"]:
    signal.signal(signal.SIGTERM, lambda *_: (os.write(1, b"term\\n"), os._exit(7)))
print(json.dumps({
    "argv": sys.argv[1:],
    "cwd": os.getcwd(),
    "path": sys.path[:2],
    "probe": os.environ.get("PROBE"),
    "tty": sys.stdout.isatty(),
    "buffering": [sys.stdout.line_buffering, sys.stdout.write_through],
    "pid": os.getpid(),
    "main": __name__,
    "reactor": "twisted.internet.reactor" in sys.modules,
}), flush=True)
if sys.argv[1:2] == ["exit"]:
    sys.exit(int(sys.argv[2]))
if sys.argv[1:2] == ["echo"]:
    print("read:", sys.stdin.readline().strip(), flush=True)
if sys.argv[1:2] == ["wait"]:
    while True:
        time.sleep(0.05)
"""


@pytest.fixture
def probe(tmp_path):
    (tmp_path / "probe_module.py").write_text(PROBE)
    return tmp_path


def buffering(tty: bool) -> list[bool]:
    """(line_buffering, write_through) of a fresh interpreter's standard output."""
    if os.environ.get("PYTHONUNBUFFERED"):
        return [False, True]
    return [tty, False]


def run(folder, *args, **options):
    return subprocess.run(
        python_command("-m", "probe_module", *args),
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=20,
        **options,
    )


def test_the_child_runs_the_module_as_main_with_the_launchers_arguments_folder_and_env(probe):
    done = run(probe, "exit", "3", env={**os.environ, "PROBE": "yes"})
    said = json.loads(done.stdout)
    assert done.returncode == 3, done.stderr
    assert said["argv"] == ["exit", "3"] and said["cwd"] == str(probe)
    if enabled():  # the folder first, as `-m` puts it, then the tree the fork server imports
        assert said["path"] == [str(probe), str(ROOT)]
    assert said["probe"] == "yes" and said["main"] == "__main__"
    assert said["tty"] is False and said["buffering"] == buffering(tty=False)
    assert said["reactor"] is False  # the fork server installed none for its children


def test_the_child_reads_the_launchers_standard_input(probe):
    done = run(probe, "echo", input="hello\n")
    assert done.stdout.splitlines()[-1] == "read: hello", done


def test_a_signal_to_the_launcher_reaches_the_child_and_the_exit_is_the_childs(probe):
    child = subprocess.Popen(
        python_command("-m", "probe_module", "wait"), cwd=probe, stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    said = json.loads(child.stdout.readline())
    assert (said["pid"] != child.pid) == enabled()  # a launcher stands for a forked child
    child.send_signal(signal.SIGTERM)
    assert child.wait(timeout=20) == 7
    assert child.stdout.read() == "term\n"


def test_a_child_killed_by_a_signal_ends_its_launcher_by_the_same_signal(probe):
    child = subprocess.Popen(
        python_command("-m", "probe_module", "wait"), cwd=probe, stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    pid = json.loads(child.stdout.readline())["pid"]
    os.kill(pid, signal.SIGKILL)
    assert child.wait(timeout=20) == -signal.SIGKILL


def test_a_killed_launcher_takes_its_child_with_it(probe):
    child = subprocess.Popen(
        python_command("-m", "probe_module", "wait"), cwd=probe, stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None
    pid = json.loads(child.stdout.readline())["pid"]
    child.kill()
    child.wait(timeout=20)
    deadline = time.monotonic() + 20
    while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not os.path.exists(f"/proc/{pid}")  # killed and reaped by the fork server


def test_in_a_terminal_the_child_writes_to_it_as_an_interpreter_would(probe):
    command = python_command("-m", "probe_module", "echo")
    child = pexpect.spawn(command[0], command[1:], cwd=str(probe), encoding="utf-8", timeout=20)
    child.expect(r"\{.*\}")
    said = json.loads(child.match.group(0))
    assert said["tty"] is True and said["buffering"] == buffering(tty=True)
    child.sendline("typed")
    child.expect("read: typed")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.skipif(not enabled(), reason="T24_TESTS_FORK=0: no fork server")
def test_a_request_that_is_not_minus_m_is_refused(probe):
    done = subprocess.run(
        python_command("-c", "print(1)"), capture_output=True, text=True, timeout=20
    )
    assert done.returncode == 1 and "only `-m MODULE ARGS`" in done.stderr


def test_turned_off_the_command_is_the_plain_interpreter(monkeypatch):
    monkeypatch.setenv("T24_TESTS_FORK", "0")
    assert python_command("-m", "server") == [sys.executable, "-m", "server"]
