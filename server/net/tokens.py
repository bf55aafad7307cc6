"""Signed tokens: who a connection is (role, identity, table, seat) and until when.

What it keeps: the token format, the rules of each role's claims, and the server secret file.

    t24v1.<base64url(JSON claims)>.<base64url(HMAC-SHA256(secret, "t24v1." + claims part))>

Claims: `role`, `name` (the identity id; a player's is its seat), `table` (bound table or
null), `seat` (players), `iat` and `exp` (Unix seconds). The claims are readable by anyone
(they are not secret); only the server can make a valid signature. A token is refused
(`TokenError`, sent as `unauthorized`) when it is malformed, forged (bad signature), expired,
or its claims break the role rules below.

| role | table | seat | may |
|---|---|---|---|
| director | none | none | everything: create tables, issue tokens, join any table, commands |
| proctor | one | none | join its table, proctor commands on it |
| player | one | one | join its table, commands as its seat only |
| spectator | one or none (any) | none | join (its table), read only |
| auditor | none | none | join any table read only (sees what the game shows auditors) |

The secret is 32 random bytes (hex) in a file created with mode 0600 on first start; a file
that group or others can read is refused, as ssh refuses a readable private key.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

from protocol.messages import ROLES, TABLE_ID_PATTERN
from server.games.base import Actor

PREFIX = "t24v1"
DEFAULT_TTL_SECONDS = 12 * 3600
MAX_TTL_SECONDS = 400 * 24 * 3600


class TokenError(Exception):
    """A token the server refuses; the message says why (sent back as `unauthorized`)."""


class SecretFileError(Exception):
    """The secret file is unusable (unreadable, too short, or readable by others)."""


@dataclass(frozen=True)
class Claims:
    """What a verified token says: the role, the identity, the bound table and seat, expiry."""

    role: str
    name: str
    table: str | None = None
    seat: str | None = None
    issued: int = 0
    expires: int = 0

    @property
    def actor(self) -> Actor:
        """The actor the games and the event log record for this token."""
        seat = self.seat if self.role == "player" else None  # a player token names one
        return Actor(self.role, seat if seat is not None else self.name)

    def may_see(self, table: str) -> bool:
        """Whether this token may join (read) `table`."""
        return self.table is None or self.table == table


def check_claims(claims: Claims) -> None:
    """Raise `TokenError` unless the claims follow the role rules (table above).

    Why at issue and at verify time: a director cannot mint a nonsensical token, and a token
    made by an older server with looser rules is still refused.
    """
    if claims.role not in ROLES:
        raise TokenError(f"unknown role {claims.role!r}")
    if not claims.name or len(claims.name) > 64:
        raise TokenError("a token needs a name of 1 to 64 characters")
    if claims.table is not None and not re.fullmatch(TABLE_ID_PATTERN, claims.table):
        raise TokenError("malformed table id")
    if claims.role in ("proctor", "player") and claims.table is None:
        raise TokenError(f"a {claims.role} token must name its table")
    if claims.role in ("director", "auditor") and claims.table is not None:
        raise TokenError(f"a {claims.role} token is not bound to a table")
    if claims.role == "player":
        if not claims.seat or len(claims.seat) > 64:
            raise TokenError("a player token must name its seat")
    elif claims.seat is not None:
        raise TokenError("only player tokens name a seat")


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class TokenSigner:
    """Issues and verifies tokens with one server secret (HMAC-SHA256)."""

    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("the token secret must be at least 16 bytes")
        self._secret = secret

    def _mac(self, body: str) -> str:
        return _b64(hmac.new(self._secret, body.encode("ascii"), hashlib.sha256).digest())

    def issue(
        self,
        role: str,
        *,
        now: float,
        name: str | None = None,
        table: str | None = None,
        seat: str | None = None,
        ttl_seconds: int = DEFAULT_TTL_SECONDS,
    ) -> tuple[str, Claims]:
        """Sign a token; return it with its claims. Raises `TokenError` on bad claims."""
        if not 1 <= ttl_seconds <= MAX_TTL_SECONDS:
            raise TokenError(f"ttl_seconds must be between 1 and {MAX_TTL_SECONDS}")
        issued = int(now)
        claims = Claims(
            role=role,
            name=name or seat or role,
            table=table,
            seat=seat,
            issued=issued,
            expires=issued + ttl_seconds,
        )
        check_claims(claims)
        payload = {
            "role": claims.role,
            "name": claims.name,
            "table": claims.table,
            "seat": claims.seat,
            "iat": claims.issued,
            "exp": claims.expires,
        }
        body = PREFIX + "." + _b64(json.dumps(payload, separators=(",", ":")).encode("utf-8"))
        return body + "." + self._mac(body), claims

    def verify(self, token: str, now: float) -> Claims:
        """The claims of a valid, unexpired token, or `TokenError` saying what is wrong."""
        # Only the base64url alphabet and dots are valid; anything else (non-ASCII text
        # included, which hmac and the ASCII encoding would choke on) is malformed.
        if not token.isascii():
            raise TokenError("malformed token")
        parts = token.split(".")
        if len(parts) != 3 or parts[0] != PREFIX:
            raise TokenError("malformed token")
        body = parts[0] + "." + parts[1]
        if not hmac.compare_digest(self._mac(body), parts[2]):
            raise TokenError("bad token signature")
        try:
            payload = json.loads(_unb64(parts[1]))
            claims = Claims(
                role=payload["role"],
                name=payload["name"],
                table=payload["table"],
                seat=payload["seat"],
                issued=int(payload["iat"]),
                expires=int(payload["exp"]),
            )
        except (ValueError, KeyError, TypeError, binascii.Error) as exc:
            raise TokenError("malformed token claims") from exc
        check_claims(claims)
        if now >= claims.expires:
            raise TokenError("token expired")
        return claims


def load_or_create_secret(path: str | os.PathLike[str]) -> bytes:
    """Read the server secret, creating it (mode 0600, 32 random bytes) on first start.

    Why refuse a readable file: anyone who reads the secret can sign a director token.
    """
    path = Path(path)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process created it first: read theirs
        else:
            with os.fdopen(fd, "w") as handle:
                handle.write(secrets.token_hex(32) + "\n")
    mode = path.stat().st_mode
    if mode & 0o077:
        raise SecretFileError(
            f"{path} is readable by group or others (mode {mode & 0o777:o}); run: chmod 600 {path}"
        )
    try:
        secret = bytes.fromhex(path.read_text().strip())
    except (OSError, ValueError) as exc:
        raise SecretFileError(f"{path}: not a hex secret ({exc})") from exc
    if len(secret) < 16:
        raise SecretFileError(f"{path}: the secret must be at least 16 bytes")
    return secret
