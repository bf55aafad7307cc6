"""Where a networked command finds its server URL and token: flags, environment, tokens file.

Order (the first that gives a value wins), for the URL and the token separately:
1. `--url URL` / `--token TOKEN`;
2. the environment: `T24_URL` / `T24_TOKEN` (keeps tokens out of `ps` and shell history);
3. tokens: `--tokens PATH`, or the demo's `var/demo-tokens/` when it exists. PATH is one
   person's file (`var/first/s1.json`) or a directory of them (`var/first`), the layout of
   `protocol.token_files`: `t24-server --demo` (`make run`) and `t24 admin create-table
   --tokens-out DIR` write it. A file holds `url`, `table` and the token(s) of its holder
   (`proctor`, `spectator`, `director`, or `seats: [{seat, name, number, token}]`); each
   command takes the token of its role. `--seat` names a seat by id (`s2`), number at the
   table (`2`) or name (`bo`), as the proctor does; a one-seat file needs no `--seat`.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from clients.reference_cli.words import COMMON, os_error_words, role_words

DEFAULT_TOKENS = "var/demo-tokens"


class ConnectError(ValueError):
    """The command cannot tell where to connect or with which token (exit code 2)."""


@dataclass(frozen=True)
class Target:
    """Where to connect and as whom."""

    url: str
    token: str
    table: str | None = None


def add_connect_arguments(
    parser: argparse.ArgumentParser,
    seat: bool = False,
    table: bool = True,
    repeated: bool = False,
    seats: bool = False,
) -> None:
    """The shared `--url`, `--token`, `--tokens` (and `--table`, `--seat`) options.

    `seats`: `--seat` may be given more than once (`t24 bot`: a bot at each), a list.

    `repeated`: the same flags again on a sub-subcommand (`t24 admin list-tables --url ...`),
    defaulting to "absent" so that a flag given before the subcommand is kept.
    """
    keep = {"default": argparse.SUPPRESS} if repeated else {}
    group = parser.add_argument_group("connection (flags, then T24_URL/T24_TOKEN, then a file)")
    group.add_argument("--url", help="server WebSocket URL, e.g. ws://127.0.0.1:8024/ws", **keep)
    group.add_argument("--token", help="your signed token (or set T24_TOKEN)", **keep)
    group.add_argument(
        "--tokens",
        metavar="PATH",
        help=f"your tokens file, or a directory of them (default: {DEFAULT_TOKENS}/ when it "
        "exists)",
        **keep,
    )
    if table:
        group.add_argument(
            "--table", help="table id (default: the table the token is bound to)", **keep
        )
    if seat:
        if seats:
            group.add_argument(
                "--seat",
                action="append",
                help="with tokens: a seat to play, by id, number or name (s1, 1, ada); "
                "again for each more seat",
                **keep,
            )
        else:
            group.add_argument(
                "--seat",
                help="with tokens: the seat to play, by id, number or name (s1, 1, ada)",
                **keep,
            )


def read_tokens_file(path: str) -> dict[str, Any]:
    """The tokens file as a map; `ConnectError` when it is missing or not JSON."""
    try:
        data = json.loads(Path(path).read_text())
    except OSError as error:
        raise ConnectError(
            COMMON.say("connect.cannot_read", path=path, error=os_error_words(error))
        ) from None
    except json.JSONDecodeError as error:
        raise ConnectError(COMMON.say("connect.not_json", path=path, error=error)) from None
    if not isinstance(data, dict):
        raise ConnectError(COMMON.say("connect.not_a_map", path=path))
    return data


def seat_matches(entry: Mapping[str, Any], wanted: str) -> bool:
    """A seat named as the proctor names one: its id, its number at the table, its name."""
    wanted = wanted.strip().casefold()
    names = {str(entry.get("seat", "")).casefold(), str(entry.get("name") or "").casefold()}
    if entry.get("number") is not None:
        names.add(str(entry["number"]))
    return wanted in names - {""}


# The tokens a spectator's command (`watch`) takes, in this order: any token may watch.
WATCH_TOKENS = ("spectator", "proctor", "director")


def token_from_file(data: Mapping[str, Any], role: str, seat: str | None, path: str) -> str:
    """The token of `role` (a seat's for players) in a tokens file.

    Any token may watch (docs/cli.md), so a spectator's command takes the file's own token
    when it holds no spectator's (`WATCH_TOKENS` in order, then a one-seat file's): a
    student watches with their seat's file, a director with the director's.
    """
    seats = [
        {**entry, "number": entry.get("number", number)}
        for number, entry in enumerate(data.get("seats") or [], start=1)
    ]
    if role == "player":
        known = ", ".join(str(entry.get("seat")) for entry in seats) or COMMON.say(
            "connect.no_seats"
        )
        if not seat:
            if len(seats) == 1:
                return str(seats[0].get("token"))
            raise ConnectError(COMMON.say("connect.name_your_seat", where=path, known=known))
        for entry in seats:
            if seat_matches(entry, seat):
                return str(entry.get("token"))
        raise ConnectError(COMMON.say("connect.no_seat", seat=repr(seat), path=path, known=known))
    token = data.get(role)
    if role == "spectator" and not isinstance(token, str):
        held = [data.get(name) for name in WATCH_TOKENS if isinstance(data.get(name), str)]
        token = held[0] if held else (seats[0].get("token") if len(seats) == 1 else None)
    if not isinstance(token, str):
        raise ConnectError(COMMON.say("connect.no_token_in_file", path=path, role=role_words(role)))
    return token


def tokens_from_directory(directory: str, role: str, seat: str | None) -> tuple[dict, str]:
    """The file of a tokens directory that holds `role`'s token (a seat's: by --seat)."""
    base = Path(directory)
    if role != "player":
        for name in WATCH_TOKENS if role == "spectator" else (role,):
            path = base / f"{name}.json"
            if path.exists():
                return read_tokens_file(str(path)), str(path)
        raise ConnectError(
            COMMON.say(
                "connect.no_token_in_directory",
                directory=directory,
                role=role_words(role),
                file=f"{role}.json",
            )
        )
    seat_files = []
    for path in sorted(base.glob("*.json")):
        data = read_tokens_file(str(path))
        if data.get("seats"):
            seat_files.append((data, str(path)))
    if not seat_files:
        raise ConnectError(COMMON.say("connect.no_seat_tokens", directory=directory))
    if not seat:
        known = ", ".join(Path(path).name for _data, path in seat_files)
        raise ConnectError(COMMON.say("connect.name_your_seat", where=directory, known=known))
    for data, path in seat_files:
        if any(seat_matches(entry, seat) for entry in data["seats"]):
            return data, path
    raise ConnectError(
        COMMON.say("connect.no_seat_in_directory", seat=repr(seat), directory=directory)
    )


def resolve_target(
    args: argparse.Namespace, role: str, environ: Mapping[str, str] | None = None
) -> Target:
    """URL, token and table for a command acting as `role` (see module doc)."""
    environ = os.environ if environ is None else environ
    url = args.url or environ.get("T24_URL")
    token = args.token or environ.get("T24_TOKEN")
    table = getattr(args, "table", None)
    path = args.tokens or (DEFAULT_TOKENS if os.path.isdir(DEFAULT_TOKENS) else None)
    if (not url or not token) and path:
        seat = getattr(args, "seat", None)
        if os.path.isdir(path):
            data, path = tokens_from_directory(path, role, seat)
        else:
            data = read_tokens_file(path)
        url = url or data.get("url")
        if not token:
            token = token_from_file(data, role, seat, path)
            table = table or data.get("table")
    if not url:
        raise ConnectError(COMMON.say("connect.no_url"))
    if not token:
        raise ConnectError(COMMON.say("connect.no_token"))
    if not url.startswith(("ws://", "wss://")):
        raise ConnectError(COMMON.say("connect.bad_url", url=repr(url)))
    return Target(url=url, token=token, table=table)
