"""The t24 wire protocol, shared by the server and every client (no Twisted import).

`protocol.codec` turns frames into plain maps under hard limits; `protocol.messages` lists
every message, error code and close code, and checks maps against that list;
`protocol.client` is a sans-I/O helper for clients (request ids, resume points). The prose
version, with examples checked by a test, is docs/protocol.md.
"""

from protocol.codec import DEFAULT_LIMITS, CodecError, Limits, decode, encode
from protocol.messages import (
    CLOSE_CODES,
    ERROR_CODES,
    PROTOCOL_VERSION,
    SUBPROTOCOL,
    WS_PATH,
    ProtocolError,
    Request,
    make,
    parse_request,
    validate_message,
)

__all__ = [
    "CLOSE_CODES",
    "DEFAULT_LIMITS",
    "ERROR_CODES",
    "PROTOCOL_VERSION",
    "SUBPROTOCOL",
    "WS_PATH",
    "CodecError",
    "Limits",
    "ProtocolError",
    "Request",
    "decode",
    "encode",
    "make",
    "parse_request",
    "validate_message",
]
