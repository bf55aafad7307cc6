"""The process a test starts in place of `python -m MODULE ARGS`: it has the fork server
(forkserver.py) fork a child that runs MODULE, and stands for that child until it exits.

Usage: `python -S -I fork_launcher.py SOCKET -m MODULE ARGS...`. What it keeps, so that a
test drives it as it drove `python -m MODULE` (subprocess, pexpect):
- the child gets this process's standard input, output and error (the same pipes, log
  file or pseudo-terminal), working directory and environment;
- the signals this process can catch (SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCONT, SIGWINCH,
  SIGUSR1/2) are passed on to the child; SIGKILL cannot be caught: the fork server kills the
  child when this process's connection closes;
- this process ends as the child ended: its exit code, or killed by the same signal.

Standard library only and started with `-S -I` (no site, no environment): about 15 ms of
CPU, where `python -m server` costs ~0.4 s of imports.
"""

import array
import json
import os
import signal
import socket
import sys

FORWARDED = (
    signal.SIGTERM,
    signal.SIGINT,
    signal.SIGHUP,
    signal.SIGQUIT,
    signal.SIGCONT,
    signal.SIGWINCH,
    signal.SIGUSR1,
    signal.SIGUSR2,
)


def main() -> None:
    path, python_args = sys.argv[1], sys.argv[2:]
    child = {"pid": 0, "pending": []}

    def forward(signum, _frame):
        if child["pid"]:
            try:
                os.kill(child["pid"], signum)
            except ProcessLookupError:
                pass
        else:
            child["pending"].append(signum)

    for signum in FORWARDED:
        signal.signal(signum, forward)
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    connection.connect(path)
    request = json.dumps(
        {"args": python_args, "cwd": os.getcwd(), "env": dict(os.environ)}
    ).encode()
    fds = array.array("i", [0, 1, 2])
    header = len(request).to_bytes(4, "big")
    connection.sendmsg([header + request], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, fds)])
    replies = connection.makefile("r")
    for line in replies:
        word, number = line.split()
        if word == "pid":
            child["pid"] = int(number)
            for signum in child["pending"]:
                forward(signum, None)
        elif word == "exit":
            sys.exit(int(number))
        elif word == "signal":
            signum = int(number)
            if signum not in (signal.SIGKILL, signal.SIGSTOP):
                signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            sys.exit(128 + signum)  # a signal whose default is to be ignored
    sys.exit(f"fork_launcher: the fork server closed the connection ({path})")


if __name__ == "__main__":
    main()
