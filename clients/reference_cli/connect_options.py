"""Where a networked command finds its server URL and token: flags, environment, tokens file.

Order (the first that gives a value wins), for the URL and the token separately:
1. `--url URL` / `--token TOKEN`;
2. the environment: `T24_URL` / `T24_TOKEN` (keeps tokens out of `ps` and shell history);
3. a tokens file, `--tokens FILE`, or `var/demo-tokens.json` when it exists: the file
   `t24-server --demo` (`make run`) writes, and `t24 admin create-table --tokens-out`
   writes for a new table. It holds `url`, `table`, `director`, `proctor`, `spectator` and
   `seats: [{seat, token}]`; each command takes the token of its role (`t24 play --seat s2`
   takes seat s2's).
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_TOKENS_FILE = "var/demo-tokens.json"


class ConnectError(ValueError):
    """The command cannot tell where to connect or with which token (exit code 2)."""


@dataclass(frozen=True)
class Target:
    """Where to connect and as whom."""

    url: str
    token: str
    table: str | None = None


def add_connect_arguments(
    parser: argparse.ArgumentParser, seat: bool = False, table: bool = True
) -> None:
    """The shared `--url`, `--token`, `--tokens` (and `--table`, `--seat`) options."""
    group = parser.add_argument_group("connection (flags, then T24_URL/T24_TOKEN, then a file)")
    group.add_argument("--url", help="server WebSocket URL, e.g. ws://127.0.0.1:8024/ws")
    group.add_argument("--token", help="your signed token (or set T24_TOKEN)")
    group.add_argument(
        "--tokens",
        metavar="FILE",
        help=f"a tokens file (default: {DEFAULT_TOKENS_FILE} when it exists)",
    )
    if table:
        group.add_argument("--table", help="table id (default: the table the token is bound to)")
    if seat:
        group.add_argument("--seat", help="with a tokens file: the seat to play, e.g. s1")


def read_tokens_file(path: str) -> dict[str, Any]:
    """The tokens file as a map; `ConnectError` when it is missing or not JSON."""
    try:
        data = json.loads(Path(path).read_text())
    except OSError as error:
        raise ConnectError(f"cannot read the tokens file {path}: {error.strerror}") from None
    except json.JSONDecodeError as error:
        raise ConnectError(f"the tokens file {path} is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise ConnectError(f"the tokens file {path} does not hold a map")
    return data


def token_from_file(data: Mapping[str, Any], role: str, seat: str | None, path: str) -> str:
    """The token of `role` (a seat's for players) in a tokens file."""
    if role == "player":
        seats = data.get("seats") or []
        known = ", ".join(str(entry.get("seat")) for entry in seats)
        if not seat:
            raise ConnectError(f"name your seat with --seat (in {path}: {known})")
        for entry in seats:
            if entry.get("seat") == seat:
                return str(entry.get("token"))
        raise ConnectError(f"no seat {seat!r} in {path} (seats: {known})")
    token = data.get(role)
    if not isinstance(token, str):
        raise ConnectError(f"{path} holds no {role} token")
    return token


def resolve_target(
    args: argparse.Namespace, role: str, environ: Mapping[str, str] | None = None
) -> Target:
    """URL, token and table for a command acting as `role` (see module doc)."""
    environ = os.environ if environ is None else environ
    url = args.url or environ.get("T24_URL")
    token = args.token or environ.get("T24_TOKEN")
    table = getattr(args, "table", None)
    path = args.tokens or (DEFAULT_TOKENS_FILE if os.path.exists(DEFAULT_TOKENS_FILE) else None)
    if (not url or not token) and path:
        data = read_tokens_file(path)
        url = url or data.get("url")
        if not token:
            token = token_from_file(data, role, getattr(args, "seat", None), path)
            table = table or data.get("table")
    if not url:
        raise ConnectError("no server URL: pass --url, set T24_URL, or use --tokens FILE")
    if not token:
        raise ConnectError("no token: pass --token, set T24_TOKEN, or use --tokens FILE")
    if not url.startswith(("ws://", "wss://")):
        raise ConnectError(f"the URL must start with ws:// or wss://, not {url!r}")
    return Target(url=url, token=token, table=table)
