"""The server's Ed25519 signing key: what an officials' bundle manifest is signed with.

What it keeps: one private key per server in a file of its own (`var/t24-signing.key` by
default, mode 0600, the raw 32 bytes in hex), created on first use; its public key is what
`t24-server key` prints and what officials pin when they run `t24 audit verify --key`. The
signature is Ed25519 from the `cryptography` package (a well-kept library, not our own
arithmetic).

Why not the token secret: tokens are signed with a shared HMAC secret (anyone who can check
one can make one); a bundle must be checkable by people who must not be able to forge it.
"""

from __future__ import annotations

import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

DEFAULT_KEY_FILE = "var/t24-signing.key"


class SigningKeyError(Exception):
    """The key file cannot be read or holds no key."""


def load_or_create_signing_key(path: str | os.PathLike[str]) -> Ed25519PrivateKey:
    """The private key in `path`, created (mode 0600) when the file does not exist."""
    file = Path(path)
    if not file.exists():
        file.parent.mkdir(parents=True, exist_ok=True)
        key = Ed25519PrivateKey.generate()
        raw = key.private_bytes_raw()
        descriptor = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as out:
            out.write(raw.hex() + "\n")
        return key
    try:
        text = file.read_text().strip()
        return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(text))
    except (OSError, ValueError) as error:
        raise SigningKeyError(f"{file}: not an Ed25519 key file ({error})") from None


def public_key_hex(key: Ed25519PrivateKey) -> str:
    """The public key as 64 hex digits (what `t24-server key` prints)."""
    return key.public_key().public_bytes_raw().hex()


def sign(key: Ed25519PrivateKey, data: bytes) -> str:
    """The signature of `data`, as hex (Ed25519 is deterministic: same data, same bytes)."""
    return key.sign(data).hex()


def signature_ok(public_hex: str, data: bytes, signature_hex: str) -> bool:
    """Whether `signature_hex` is the signature of `data` by the key `public_hex`."""
    try:
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex))
        public.verify(bytes.fromhex(signature_hex), data)
    except (ValueError, TypeError, InvalidSignature):
        return False
    return True
