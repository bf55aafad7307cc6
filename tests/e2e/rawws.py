"""A minimal blocking WebSocket client on a plain socket, for abuse tests.

Why not Autobahn or `websockets`: an abuse test must control what the client does not do
(never read, drip the handshake byte by byte, flood without parsing the replies), and its
own reactor must not be the bottleneck it measures. `RawClient` does the opening handshake,
sends masked binary frames, and reads whole messages (or discards bytes unread).
"""

from __future__ import annotations

import base64
import os
import socket
import struct
import time
from typing import Any

import msgpack

from protocol.messages import SUBPROTOCOL, WS_PATH


class RawClosed(Exception):
    """The server closed the connection (a close frame, or the socket ended)."""

    def __init__(self, code: int | None) -> None:
        super().__init__(f"closed with {code}")
        self.code = code


def handshake_bytes(port: int) -> bytes:
    """The HTTP upgrade request a WebSocket client sends."""
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET {WS_PATH} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"Sec-WebSocket-Protocol: {SUBPROTOCOL}\r\n\r\n"
    ).encode()


def frame(payload: bytes, opcode: int = 0x2) -> bytes:
    """One masked, final client frame."""
    mask = os.urandom(4)
    size = len(payload)
    if size < 126:
        header = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
    elif size < 65536:
        header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
    else:
        header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return header + mask + masked


class RawClient:
    """One WebSocket connection on a blocking socket (see module doc)."""

    def __init__(
        self,
        port: int,
        timeout: float = 10.0,
        receive_buffer: int | None = None,
        source: str | None = None,
    ):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if source is not None:  # another loopback address (127.0.0.2, ...): another source
            self.sock.bind((source, 0))
        if receive_buffer is not None:  # a small window: a client that does not read fills it
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.settimeout(timeout)
        self.sock.connect(("127.0.0.1", port))
        self.sock.sendall(handshake_bytes(port))
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RawClosed(None)
            self.buffer += chunk
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        self.status = int(head.split(b" ", 2)[1])
        if self.status != 101:
            raise RawClosed(self.status)
        self.next_id = 0

    def send(self, kind: str, **fields: Any) -> int:
        """Send one request map; its id."""
        self.next_id += 1
        self.sock.sendall(frame(msgpack.packb({"type": kind, "id": self.next_id, **fields})))
        return self.next_id

    def _read(self, size: int) -> bytes:
        while len(self.buffer) < size:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RawClosed(None)
            self.buffer += chunk
        data, self.buffer = self.buffer[:size], self.buffer[size:]
        return data

    def recv(self) -> dict[str, Any]:
        """The next message (a decoded map); `RawClosed` on a close frame or EOF."""
        while True:
            first, second = self._read(2)
            size = second & 0x7F
            if size == 126:
                (size,) = struct.unpack("!H", self._read(2))
            elif size == 127:
                (size,) = struct.unpack("!Q", self._read(8))
            payload = self._read(size)
            opcode = first & 0x0F
            if opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else None
                raise RawClosed(code)
            if opcode in (0x1, 0x2):
                return msgpack.unpackb(payload)
            # pings and pongs are skipped

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a request and wait for its reply (pushes are skipped)."""
        request_id = self.send(kind, **fields)
        while True:
            message = self.recv()
            if message.get("id") == request_id and message.get("type") != "event":
                return message

    def round_trip(self) -> float:
        """Seconds from a `ping` to its `pong`."""
        started = time.perf_counter()
        reply = self.request("ping")
        assert reply["type"] == "pong", reply
        return time.perf_counter() - started

    def discard(self) -> int:
        """Read and drop whatever has arrived (without waiting); bytes read, -1 at EOF."""
        self.sock.setblocking(False)
        total = 0
        try:
            while True:
                chunk = self.sock.recv(1 << 20)
                if not chunk:
                    return -1
                total += len(chunk)
        except (BlockingIOError, InterruptedError):
            return total
        except OSError:
            return -1
        finally:
            self.sock.setblocking(True)

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass
