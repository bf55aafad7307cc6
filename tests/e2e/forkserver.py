"""A fork server for the end-to-end tests' `t24-server` and `t24` processes: one process
per test process that has imported what they import, and forks a child for each start.

Why: a `python -m server` or `python -m clients.reference_cli` start spends ~0.3 s of its
~0.4 s of CPU importing Twisted, Autobahn and t24, and the suite starts ~250 of them
(docs/testing.md, "Suite time"). A child forked from a process that has imported them
starts in milliseconds and is otherwise the same program: the module runs as `__main__`
(`runpy`, as `-m` does) with the test's arguments, working directory, environment and
standard streams, in a process of its own with its own pid, sockets, reactor and store.

How a test uses it: `python_command("-m", "server", ...)` is the command line to start (in
place of `[sys.executable, "-m", "server", ...]`), for subprocess or pexpect as before. It
runs fork_launcher.py, a small process that hands its streams, directory and environment to
this server over a Unix socket, passes signals on to the child and exits as the child
exits (fork_launcher.py's doc). The server starts with the first such command of a test
process and ends with it.

What differs from a fresh interpreter, and where it matters:
- the child's hash seed is the fork server's, the same for every child of one test process:
  processes that must not agree by chance (a cluster's nodes, `--node-id`) start as plain
  processes (`ServerProcess.spawn`);
- what Python reads from the environment only at its own start (PYTHONHASHSEED,
  PYTHONWARNINGS, -X options) is the fork server's; t24 reads its settings when it runs;
- `T24_TESTS_FORK=0` turns it off: every command is a plain `python` again.

The preloaded modules must not install a reactor or start a thread: a forked epoll or
thread would be shared by every child (checked at start and before each fork).
"""

from __future__ import annotations

import array
import atexit
import gc
import io
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER = Path(__file__).with_name("fork_launcher.py")
# What every forked process imports: the server's entry point (Twisted, Autobahn, the whole
# server), the CLI's and its connection (Autobahn's client). A command's own module (the
# table's screen, the tournament's commands) is imported by the child, as `t24` does.
PRELOAD = ("server.__main__", "clients.reference_cli.cli", "clients.reference_cli.connection")
START_TIMEOUT = 30.0
STREAMS = 3  # standard input, output and error, handed over by the launcher

_lock = threading.Lock()
_server: subprocess.Popen | None = None
_path = ""


def enabled() -> bool:
    return os.environ.get("T24_TESTS_FORK", "1") != "0"


def python_command(*args: str) -> list[str]:
    """The command line that runs `python ARGS` (`-m MODULE ...`): through the fork server
    when it is enabled, else the plain interpreter."""
    if not enabled():
        return [sys.executable, *args]
    return [sys.executable, "-S", "-I", str(LAUNCHER), socket_path(), *args]


def t24_command(*args: str) -> list[str]:
    """`t24 ARGS` as the tests start it: `python -m clients.reference_cli ARGS`."""
    return python_command("-m", "clients.reference_cli", *args)


def socket_path() -> str:
    """The fork server's socket, started on the first call of this process."""
    global _server, _path
    with _lock:
        if _server is not None and _server.poll() is None:
            return _path
        folder = tempfile.mkdtemp(prefix="t24-fork-")
        path = os.path.join(folder, "fork.sock")
        env = {k: v for k, v in os.environ.items() if not k.startswith("T24_")}
        env["PYTHONPATH"] = str(ROOT)
        server = subprocess.Popen(
            [sys.executable, __file__, path], stdin=subprocess.PIPE, cwd=ROOT, env=env
        )
        deadline = time.monotonic() + START_TIMEOUT
        while not os.path.exists(path):
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                raise RuntimeError(f"the tests' fork server did not start (exit {server.poll()})")
            time.sleep(0.01)
        if _server is None:
            atexit.register(_stop)
        _server, _path = server, path
        return path


def _stop() -> None:
    if _server is not None and _server.poll() is None:
        assert _server.stdin is not None
        _server.stdin.close()  # the server exits at the end of its standard input
        try:
            _server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            _server.kill()
    shutil.rmtree(os.path.dirname(_path), ignore_errors=True)


# -- the fork server's own process ----------------------------------------------------------


def preload() -> None:
    for name in PRELOAD:
        __import__(name)
    assert "twisted.internet.reactor" not in sys.modules, "a preloaded module installs a reactor"
    gc.collect()
    gc.freeze()  # the children's collections walk only what they create


def receive(connection: socket.socket) -> tuple[dict, list[int]] | None:
    """One request: a 4-byte length, a JSON object ({args, cwd, env}), the three streams."""
    data, ancillary, _flags, _address = connection.recvmsg(
        1 << 16, socket.CMSG_SPACE(STREAMS * array.array("i").itemsize)
    )
    fds = array.array("i")
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
    if len(data) < 4 or len(fds) != STREAMS:
        for fd in fds:
            os.close(fd)
        return None
    length = int.from_bytes(data[:4], "big")
    body = data[4:]
    while len(body) < length:
        more = connection.recv(length - len(body))
        if not more:
            break
        body += more
    return json.loads(body), list(fds)


def serve(path: str) -> tuple[dict, list[int]]:
    """Accept requests until standard input ends; returns only in a forked child (its
    request and streams)."""
    preload()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path + ".new")
    listener.listen(64)
    os.rename(path + ".new", path)  # whoever sees the path can connect
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_read, False)
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda _signum, _frame: None)
    children: dict[int, socket.socket] = {}  # pid -> its launcher's connection
    watched: dict[int, int] = {}  # a live launcher's connection (fd) -> its child's pid
    while True:
        readable, _, _ = select.select([listener, wake_read, 0, *watched], [], [])
        for ready in readable:
            if ready is listener:
                connection, _address = listener.accept()
                request = receive(connection)
                if request is None:
                    connection.close()
                    continue
                assert threading.active_count() == 1, "the fork server must not start threads"
                pid = os.fork()
                if pid == 0:
                    signal.set_wakeup_fd(-1)
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    for fd in (wake_read, wake_write):
                        os.close(fd)
                    listener.close()
                    for other in children.values():
                        other.close()
                    connection.close()
                    return request
                for fd in request[1]:
                    os.close(fd)
                connection.sendall(f"pid {pid}\n".encode())
                children[pid] = connection
                watched[connection.fileno()] = pid
            elif ready == wake_read:
                while True:
                    try:
                        if not os.read(wake_read, 512):
                            break
                    except BlockingIOError:
                        break
                reap(children, watched)
            elif ready == 0:
                if not os.read(0, 512):  # the test process has ended or let go of us
                    sys.exit(0)
            else:  # a launcher's connection ends only when the launcher went (SIGKILL)
                pid = watched[ready]
                if children[pid].recv(64):
                    continue
                del watched[ready]  # its child goes too:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass


def reap(children: dict[int, socket.socket], watched: dict[int, int]) -> None:
    """Tell each ended child's launcher how it ended."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        connection = children.pop(pid, None)
        if connection is None:
            continue
        watched.pop(connection.fileno(), None)
        if os.WIFSIGNALED(status):
            ended = f"signal {os.WTERMSIG(status)}\n"
        else:
            ended = f"exit {os.waitstatus_to_exitcode(status)}\n"
        try:
            connection.sendall(ended.encode())
        except OSError:
            pass
        connection.close()


def _stream(fd: int, encoding: str, errors: str, line_buffering: bool) -> io.TextIOWrapper:
    """A standard stream as CPython's create_stdio makes it: standard input buffered, the
    output streams unbuffered (`write_through`) under PYTHONUNBUFFERED, else buffered and
    flushed at each line on a terminal and on standard error."""
    if fd == 0:
        return io.TextIOWrapper(
            open(0, "rb", closefd=False), encoding=encoding, errors=errors, newline="\n"
        )
    unbuffered = bool(os.environ.get("PYTHONUNBUFFERED"))
    return io.TextIOWrapper(
        open(fd, "wb", buffering=0 if unbuffered else -1, closefd=False),  # noqa: SIM115
        encoding=encoding,
        errors=errors,
        newline="\n",
        line_buffering=line_buffering and not unbuffered,
        write_through=unbuffered,
    )


def run_child(request: dict, streams: list[int]) -> None:
    """In the child: become `python ARGS` as the launcher was asked to start it."""
    encoding, errors = sys.stdout.encoding, sys.stdout.errors
    for target, fd in enumerate(streams):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    # Standard streams as the interpreter makes them at its start, for the child's
    # environment (PYTHONUNBUFFERED) and streams (a terminal).
    sys.stdin = sys.__stdin__ = _stream(0, encoding, errors, False)
    sys.stdout = sys.__stdout__ = _stream(1, encoding, errors, os.isatty(1))
    sys.stderr = sys.__stderr__ = _stream(2, encoding, "backslashreplace", True)
    args = request["args"]
    if len(args) < 2 or args[0] != "-m":
        sys.exit(f"forkserver: only `-m MODULE ARGS` is run, not {args!r}")
    module = args[1]
    sys.argv = [module, *args[2:]]
    sys.path.insert(0, request["cwd"])  # as `python -m` puts the working directory first
    import runpy

    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    sys.path.pop(0)  # this file's folder: the children's imports are t24's, as `-m` finds them
    run_child(*serve(sys.argv[1]))
