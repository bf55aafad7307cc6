"""What runs in the deck worker process (offload.py), once, as it starts: its priority and its
end with the server.

Why a module of its own, without Twisted: the worker is started with `spawn`, a fresh
Python that imports the module of its initializer. In offload.py that was Twisted's
Deferreds and logger, 60 ms of CPU the worker never uses, at every start (every server that
draws a deck, issue 29); here it is the standard library alone, and `editions.draw_deck`
brings the solver the worker runs.
"""

from __future__ import annotations

import os
import signal
import threading
import time

WORKER_NICENESS = 10  # the worker yields the core to the reactor when both want it
PARENT_CHECK_S = 1.0  # how often the worker checks that its server is alive


def worker_start(server_pid: int) -> None:
    """In the worker, once: a lower CPU priority than the server's reactor, and an end with
    the server's.

    Why the end: a server stopped by SIGTERM shuts its pool down, but one killed (`kill -9`,
    a crash, an out-of-memory kill) left its worker, and the worker its resource tracker,
    running for ever (found: dozens after the failover tests and benchmarks). On Linux the
    kernel sends the worker SIGKILL when the server goes (`PR_SET_PDEATHSIG`); everywhere a
    thread checks every `PARENT_CHECK_S` that the server is still its parent."""
    try:
        os.nice(WORKER_NICENESS)
    except OSError:  # not allowed here: the worker runs at the server's priority
        pass
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the thread below does it
        pass
    if os.getppid() != server_pid:  # it went before the line above took effect
        os._exit(0)
    threading.Thread(target=_end_with, args=(server_pid,), daemon=True).start()


def _end_with(server_pid: int) -> None:
    while os.getppid() == server_pid:
        time.sleep(PARENT_CHECK_S)
    os._exit(0)
