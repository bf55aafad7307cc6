"""Bytes <-> message maps: msgpack with hard limits, shared by the server and every client.

What it keeps: one frame is one msgpack map whose values are plain data only (nil, bool, int,
float, str, bin, arrays, maps with str keys). Anything else is refused *before* it reaches the
message layer, with a stable error code from `protocol.messages.ERROR_CODES`:

- `bad_encoding`: not msgpack, truncated, trailing bytes, invalid UTF-8, extension types;
- `too_complex`: a value nested deeper than `Limits.max_depth`, or a string, binary, array or
  map longer than the per-item limits (which bound the work of decoding one frame);
- `too_large`: a frame over `Limits.max_message_bytes` (the server's Autobahn options reject
  those first with close code 1009; the codec checks again so it is safe on its own);
- `bad_message`: the top level is not a map.

How it works: `msgpack.unpackb` applies the per-item length limits while decoding (so a
4-byte header announcing a 4 GiB array allocates nothing), then one iterative walk checks the
depth and the value types (iterative, so a hostile nesting cannot exhaust the Python stack).
No Twisted import: the reference client uses this module as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgpack


@dataclass(frozen=True)
class Limits:
    """The size and shape bounds one decoded frame must respect (defaults are the server's)."""

    max_message_bytes: int = 64 * 1024
    max_depth: int = 16
    max_str_len: int = 16 * 1024
    max_bin_len: int = 16 * 1024
    max_array_len: int = 4096
    max_map_len: int = 1024

    def as_dict(self) -> dict[str, int]:
        """The limits as the plain map the server announces in `welcome`."""
        return {
            "max_message_bytes": self.max_message_bytes,
            "max_depth": self.max_depth,
            "max_str_len": self.max_str_len,
            "max_array_len": self.max_array_len,
            "max_map_len": self.max_map_len,
        }


DEFAULT_LIMITS = Limits()
# What a client accepts from the server: larger (a `tables` list or a long catch-up view is
# not bounded by the request limits) but still bounded.
SERVER_MESSAGE_LIMITS = Limits(
    max_message_bytes=16 * 1024 * 1024,
    max_depth=32,
    max_str_len=1024 * 1024,
    max_bin_len=1024 * 1024,
    max_array_len=1_000_000,
    max_map_len=1_000_000,
)


class CodecError(Exception):
    """A frame the codec refuses; `code` is one of `protocol.messages.ERROR_CODES`."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


_SCALARS = (type(None), bool, int, float, str, bytes)
_SCALAR_TYPES = frozenset(_SCALARS)


def _refuse_ext(code: int, data: bytes) -> Any:
    raise CodecError("bad_encoding", f"msgpack extension type {code} is not allowed")


def check_plain(value: Any, max_depth: int) -> None:
    """Refuse anything but plain msgpack data nested at most `max_depth` deep.

    Why: the message layer, the games and the event log all assume plain values; a Timestamp or
    an ExtType that slipped through would fail much later, far from the bad frame.

    How: an iterative walk (a hostile nesting cannot exhaust the Python stack) that tests the
    exact types msgpack returns (dict, list, the scalars) first, so a decoded frame, which
    holds nothing else, never pays for the abstract `Mapping` check; any other type takes
    the general path. Scalars are accepted at any depth, containers up to `max_depth`.
    """
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        kind = type(item)
        if kind in _SCALAR_TYPES:
            continue
        if kind is not dict and kind is not list and isinstance(item, _SCALARS):
            continue  # a subclass of a scalar type: plain, at any depth
        if depth > max_depth:
            raise CodecError("too_complex", f"values nest deeper than {max_depth} levels")
        if kind is dict:
            for key, child in item.items():
                if type(key) is not str and not isinstance(key, str):
                    raise CodecError("bad_encoding", "map keys must be strings")
                if type(child) not in _SCALAR_TYPES:
                    stack.append((child, depth + 1))
        elif kind is list:
            stack.extend((child, depth + 1) for child in item if type(child) not in _SCALAR_TYPES)
        elif isinstance(item, list | tuple):
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, Mapping):
            for key, child in item.items():
                if not isinstance(key, str):
                    raise CodecError("bad_encoding", "map keys must be strings")
                stack.append((child, depth + 1))
        else:
            raise CodecError("bad_encoding", f"{type(item).__name__} values are not allowed")


def decode(data: bytes, limits: Limits = DEFAULT_LIMITS) -> dict[str, Any]:
    """Decode one frame into a plain map, or raise `CodecError` with a stable code.

    Why the limits here and not only in the transport: the codec is the one place every byte
    from the network passes through, on the server and in clients alike.
    """
    if not isinstance(data, bytes | bytearray | memoryview):
        raise CodecError("bad_encoding", "a frame must be bytes")
    if len(data) > limits.max_message_bytes:
        raise CodecError(
            "too_large", f"frame of {len(data)} bytes exceeds {limits.max_message_bytes}"
        )
    try:
        value = msgpack.unpackb(
            data,
            raw=False,
            strict_map_key=True,
            use_list=True,
            max_str_len=limits.max_str_len,
            max_bin_len=limits.max_bin_len,
            max_array_len=limits.max_array_len,
            max_map_len=limits.max_map_len,
            ext_hook=_refuse_ext,
        )
    except CodecError:
        raise
    except msgpack.exceptions.StackError as exc:
        raise CodecError("too_complex", "values nest too deeply") from exc
    except ValueError as exc:
        text = str(exc)
        if "exceeds max_" in text:
            raise CodecError("too_complex", text) from exc
        if "strict_map_key" in text:
            raise CodecError("bad_encoding", "map keys must be strings") from exc
        raise CodecError("bad_encoding", f"not a msgpack value: {text}") from exc
    except Exception as exc:  # msgpack raises a few other types on garbage input
        raise CodecError("bad_encoding", f"not a msgpack value: {exc}") from exc
    if not isinstance(value, dict):
        raise CodecError("bad_message", "a frame must hold one msgpack map")
    check_plain(value, limits.max_depth)
    return value


def encode(message: Mapping[str, Any]) -> bytes:
    """Encode one message map as the bytes of one binary frame (str as str, bytes as bin)."""
    frame: bytes = msgpack.packb(message, use_bin_type=True)
    return frame
