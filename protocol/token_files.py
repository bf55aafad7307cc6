"""Tokens files: one file per person, each holding only the token its holder may use.

Why a file per person: a table's tokens are credentials of different power (a proctor's
token runs the table, a director's creates tables). A single file handed to every student
handed them all; a directory of per-person files lets each person get exactly theirs.

A tokens directory (written by `t24 admin create-table --tokens-out DIR` and by the demo,
`t24-server --demo`) holds:

- `proctor.json`: `{url, table, proctor}`;
- one file per seat, `s1.json` (the seat id when it is a plain file name, else
  `seat-N.json`): `{url, table, seats: [{seat, name, number, token}]}`;
- `spectator.json`: `{url, table, spectator}`;
- `director.json`: `{url, table, director}`, only in the demo's directory (the operator's
  own; `create-table` never writes the director's token: its caller already has it).

The keys are those of the single tokens file clients always read, so a per-person file is
read by the same code. The directory is mode 0700 and every file 0600. This module is the
one place for the layout; the server (demo) and the client (`create-table`) both use it.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

ROLE_FILES = ("director", "proctor", "spectator")
_PLAIN_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


def seat_file_name(seat: str, number: int) -> str:
    """`s1.json` for seat `s1`; `seat-N.json` when the id is not a plain, free file name."""
    if _PLAIN_NAME.match(seat) and seat not in ROLE_FILES:
        return f"{seat}.json"
    return f"seat-{number}.json"


def person_files(
    url: str,
    table: str,
    proctor: str,
    spectator: str,
    seats: Sequence[Mapping[str, Any]],
    director: str | None = None,
) -> dict[str, dict[str, Any]]:
    """File name -> payload, one per person. `seats`: `{seat, name, token}` in table order."""
    files: dict[str, dict[str, Any]] = {
        "proctor.json": {"url": url, "table": table, "proctor": proctor},
        "spectator.json": {"url": url, "table": table, "spectator": spectator},
    }
    if director is not None:
        files["director.json"] = {"url": url, "table": table, "director": director}
    for number, seat in enumerate(seats, start=1):
        seat_id = str(seat["seat"])
        entry: dict[str, Any] = {
            "seat": seat_id,
            "name": str(seat.get("name") or ""),
            "number": number,
            "token": str(seat["token"]),
        }
        files[seat_file_name(seat_id, number)] = {
            "url": url,
            "table": table,
            "seats": [entry],
        }
    return files


def write_token_files(directory: str | os.PathLike[str], files: Mapping[str, Any]) -> Path:
    """Write each file atomically with mode 0600 into `directory` (made, mode 0700)."""
    target = Path(directory)
    target.mkdir(parents=True, exist_ok=True)
    os.chmod(target, 0o700)
    for name, payload in files.items():
        path = target / name
        temp = path.with_name(path.name + ".tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as handle:
            json.dump(payload, handle, indent=2)
            handle.write("\n")
        os.replace(temp, path)
    return target
