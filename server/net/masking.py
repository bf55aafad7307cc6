"""Unmasking a client's frames (RFC 6455, 5.3) with Python integers, not Autobahn's cffi masker.

What it keeps: `IntMasker`, a masker with Autobahn's interface (`pointer`, `reset`,
`process`), and `install()`, which makes Autobahn's frame parser create it for every masked
frame (`autobahn.websocket.protocol.create_xor_masker`).

Why (issue 32): every frame a client sends is masked, and Autobahn built an NVX (cffi) masker
for each: a library import, two cffi allocations, a finaliser and a copy in and out, about
30 us for a command-sized frame on this machine, 5% of the server's CPU per command flat out.
XOR of the payload and the repeated key as two Python integers is one C loop each way: about
5 us for the same frame, and it stays linear for the largest frame a client may send
(`max_message_bytes`, 64 KiB).

`process` may be called several times per frame (a frame split over reads): the key is
rotated by how far the frame has been unmasked (`pointer`), as RFC 6455 indexes it.
"""

from __future__ import annotations

from typing import Any


class IntMasker:
    """XOR with a 4-byte key, for Autobahn's frame parser (see the module doc)."""

    __slots__ = ("_mask", "_ptr")

    def __init__(self, mask: bytes) -> None:
        self._mask = bytes(mask)
        self._ptr = 0

    def pointer(self) -> int:
        return self._ptr

    def reset(self) -> None:
        self._ptr = 0

    def process(self, data: Any) -> bytes:
        size = len(data)
        if not size:
            return b""
        offset = self._ptr & 3
        key = self._mask[offset:] + self._mask[:offset] if offset else self._mask
        stream = (key * ((size >> 2) + 1))[:size]
        self._ptr += size
        masked = int.from_bytes(data, "little") ^ int.from_bytes(stream, "little")
        return masked.to_bytes(size, "little")


def create_xor_masker(mask: bytes, length: int | None = None) -> IntMasker:
    """Autobahn's factory's signature: one `IntMasker` whatever the frame's length."""
    return IntMasker(mask)


def install() -> None:
    """Make Autobahn's protocol use `create_xor_masker` (this process, once, idempotent)."""
    from autobahn.websocket import protocol

    protocol.create_xor_masker = create_xor_masker  # type: ignore[attr-defined]
