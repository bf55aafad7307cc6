"""A flood of pings from a process of its own: `python flooder.py PORT CONNECTIONS SECONDS`.

Why a process: the flood's client threads must not share a GIL with the test's prober, or
the test measures its own threads instead of the server. Each connection sends pings flat
out (pre-built frames), drops the replies and reconnects when the server closes it (5 times
a second while refused: a connection flood is the firewall's business, and a tighter loop
would only burn this shared machine's CPU in the flooder itself). Prints
the number of frames sent. The flood comes from 127.0.0.2, another loopback address than the
prober's, as an attacker is another host than the players.
"""

from __future__ import annotations

import resource
import socket
import sys
import threading
import time

import msgpack
from rawws import RawClient, RawClosed, frame

SOURCE = "127.0.0.2"  # not the prober's address


def flood(port: int, stop: threading.Event, sent: list[int], live: set[socket.socket]) -> None:
    blob = b"".join(frame(msgpack.packb({"type": "ping", "id": n})) for n in range(50))
    while not stop.is_set():
        try:
            client = RawClient(port, source=SOURCE)
            client.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 65536)
        except (OSError, RawClosed):
            time.sleep(0.2)  # refused (cooling down): try again, 5 times a second
            continue
        live.add(client.sock)
        try:
            while not stop.is_set():
                client.sock.sendall(blob)
                sent[0] += 50
                if client.discard() < 0:
                    break
        except OSError:
            pass
        finally:
            live.discard(client.sock)
            client.close()


def main() -> None:
    port, connections, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    stop = threading.Event()
    sent = [0]
    live: set[socket.socket] = set()
    threads = [
        threading.Thread(target=flood, args=(port, stop, sent, live), daemon=True)
        for _ in range(connections)
    ]
    for thread in threads:
        thread.start()
    time.sleep(seconds)
    stop.set()
    # A thread may be blocked in `sendall` while the server is busy with the other
    # connections (the flood's very point): shutting its socket down ends that wait now,
    # where the socket's 10 s timeout would hold the flood's end (and the test) seconds longer.
    for sock in list(live):
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
    for thread in threads:
        thread.join(timeout=10)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"cpu {usage.ru_utime + usage.ru_stime:.2f}", sent[0], flush=True)


if __name__ == "__main__":
    main()
