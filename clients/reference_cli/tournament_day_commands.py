"""`t24 tournament` for the day itself: what the director's console does, from a terminal.

The web console (clients/web/public/js/director/) and these subcommands send the same
requests (docs/tournament.md, "The director's console"):

| subcommand | sends |
|---|---|
| `preview --id ID FILE.csv` | `preview_import`: who `import` would register, or each bad row |
| `rename --id ID STUDENT NAME` | `rename_student` |
| `begin --id ID (--table NAME \\| --round N)` | `begin_play` at a table, or at a round's |
| `mark --id ID --table NAME STUDENT present\\|absent` | `mark_seat` |
| `sign --id ID --table NAME --initials TD` | `sign_score_card`, as the director (R-ROUND-7) |
| `links --id ID (--round N \\| --tie-break K) [--out FILE]` | `table_links` for each table |
| `bundle --id ID --out DIR` | `GET /bundle` with the director's token: the officials' bundle |

`NAME` is the tournament's name of a table (`r1.s1.t01`, `tb1.t1`); the table itself is
`ID.NAME`. `links` prints each person's link to a terminal only (a link holds a token); with
`--out FILE` it writes them, QR codes included, to FILE (mode 0600).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import urllib.error
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

from twisted.internet.defer import inlineCallbacks

from clients.reference_cli import exit_codes
from clients.reference_cli.admin_commands import AdminInputError
from clients.reference_cli.connection import ServerRefused
from clients.reference_cli.words import COMMON, Vocabulary, error_line, os_error_words

WORDS = Vocabulary("tournament")

PREFIX = "tournament/"
MARKS = ("present", "absent")
_T = "t24 tournament --tokens var/demo-tokens/director.json"
DAY_EXAMPLES = {
    "preview": f"{_T} preview --id spring var/students.csv",
    "rename": f'{_T} rename --id spring p3 "Ada Lovelace"',
    "begin": f"{_T} begin --id spring --round 1",
    "mark": f"{_T} mark --id spring --table r1.s1.t01 p3 absent",
    "sign": f"{_T} sign --id spring --table r1.s1.t01 --initials TD",
    "links": f"{_T} links --id spring --round 1 --out var/spring-r1-links.json",
    "bundle": f"{_T} bundle --id spring --out var/spring-bundle",
}


def _tid(args: argparse.Namespace) -> str:
    return str(args.id).removeprefix(PREFIX)


def _table(args: argparse.Namespace) -> str:
    return f"{_tid(args)}.{args.table}"


@inlineCallbacks
def _view(link: Any, args: argparse.Namespace) -> Any:
    reply = yield link.request("join", table=PREFIX + _tid(args))
    yield link.request("leave", table=PREFIX + _tid(args))
    return reply["view"]


@inlineCallbacks
def preview(link: Any, welcome: dict[str, Any], args: argparse.Namespace) -> Any:
    try:
        text = Path(args.file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        why = os_error_words(error) if isinstance(error, OSError) else error
        raise AdminInputError(COMMON.say("cli.cannot_read", path=args.file, error=why)) from None
    reply = yield link.request(
        "query", table=PREFIX + _tid(args), name="preview_import", args={"csv": text}
    )
    answer = reply["result"]
    if args.json:
        print(json.dumps(answer))
    elif answer["problems"]:
        print(WORDS.say("cli.preview.problems", len(answer["problems"])))
        for problem in answer["problems"]:
            print(f"  {problem}")
    else:
        print(WORDS.say("cli.preview.students", answer["rows"]))
        for student in answer["students"]:
            who = f"{student['name']}, {student['school']}, {student['grade']}"
            print(f"  {student['student']}: {who}")
    return exit_codes.REFUSED if answer["problems"] else exit_codes.OK


@inlineCallbacks
def rename(link: Any, welcome: dict[str, Any], args: argparse.Namespace) -> Any:
    command = {"student": args.student, "name": args.name}
    yield link.request("command", table=PREFIX + _tid(args), name="rename_student", args=command)
    print(WORDS.say("cli.renamed", student=args.student, name=args.name.strip()))
    return exit_codes.OK


@inlineCallbacks
def begin(link: Any, welcome: dict[str, Any], args: argparse.Namespace) -> Any:
    """`begin_play` at one table, or at every table of a round that still waits."""
    if args.table:
        names = [args.table]
    else:
        view = yield _view(link, args)
        round_ = next(r for r in view["rounds"] if r["round"] == args.round)
        if not round_["started"]:
            raise AdminInputError(WORDS.say("cli.round_not_started", round=args.round))
        names = [table["table"] for table in round_["tables"]]
    begun = 0
    for name in names:
        try:
            yield link.request("command", table=f"{_tid(args)}.{name}", name="begin_play")
            begun += 1
            print(WORDS.say("cli.play_begins", table=name))
        except ServerRefused as refused:
            if refused.code != "play_begun" or args.table:
                raise
            print(WORDS.say("cli.playing_already", table=name))
    return exit_codes.OK


@inlineCallbacks
def mark(link: Any, welcome: dict[str, Any], args: argparse.Namespace) -> Any:
    command = {"seat": args.student, "mark": args.mark}
    yield link.request("command", table=_table(args), name="mark_seat", args=command)
    marked = WORDS.say(f"cli.mark.{args.mark}")
    print(WORDS.say("cli.marked", student=args.student, mark=marked, table=args.table))
    return exit_codes.OK


@inlineCallbacks
def sign(link: Any, welcome: dict[str, Any], args: argparse.Namespace) -> Any:
    command = {"initials": args.initials}
    yield link.request("command", table=_table(args), name="sign_score_card", args=command)
    print(WORDS.say("cli.signed", table=args.table, initials=args.initials))
    return exit_codes.OK


@inlineCallbacks
def links(link: Any, welcome: dict[str, Any], args: argparse.Namespace) -> Any:
    """`table_links` of every table of a round or tie-break (see the module doc)."""
    if args.out is None and not sys.stdout.isatty():
        raise AdminInputError(WORDS.say("cli.links_to_terminal"))
    view = yield _view(link, args)
    if args.tie_break:
        found = [t for t in view["tie_breaks"] if t["number"] == args.tie_break]
    else:
        found = [r for r in view["rounds"] if r["round"] == args.round]
    tables = [table["table"] for part in found for table in part["tables"]]
    if not tables:
        raise AdminInputError(WORDS.say("cli.links_none_seated"))
    sheets = []
    for name in tables:
        reply = yield link.request("table_links", tournament=_tid(args), table=name)
        sheets.append({k: v for k, v in reply.items() if k not in ("type", "id")})
    if args.out:
        descriptor = os.open(args.out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w") as out:
            json.dump(sheets, out, indent=1)
        print(WORDS.say("cli.links_written", len(sheets), path=args.out))
        return exit_codes.OK
    for sheet in sheets:
        print(WORDS.say("cli.links.table", table=sheet["table"], section=sheet["section"]))
        proctor = sheet["proctor"]
        print("  " + WORDS.say("cli.links.proctor", name=proctor["name"], url=proctor["url"]))
        for seat in sheet["seats"]:
            print(f"  {seat['name']}: {seat['url']}")
    return exit_codes.OK


def bundle_url(ws_url: str, tournament: str) -> str:
    """The `/bundle` address on the server `ws_url` names."""
    scheme, _, rest = ws_url.partition("://")
    host = rest.split("/", 1)[0]
    http = "https" if scheme == "wss" else "http"
    return f"{http}://{host}/bundle?tournament={tournament}"


def download_bundle(ws_url: str, token: str, tournament: str, out: Path) -> tuple[int, str]:
    """Fetch the bundle and unpack it into `out` (which must not exist); (files, key)."""
    if out.exists():
        raise AdminInputError(WORDS.say("cli.bundle_exists", path=out))
    request = urllib.request.Request(
        bundle_url(ws_url, tournament), headers={"Authorization": f"Bearer {token}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            data, key = answer.read(), answer.headers.get("X-T24-Signing-Key", "")
    except urllib.error.HTTPError as error:
        words = error.read().decode("utf-8", "replace").strip()
        raise AdminInputError(
            WORDS.say("cli.bundle_refused", status=error.code, words=words)
        ) from None
    except OSError as error:
        raise ConnectionError(WORDS.say("cli.bundle_unreachable", error=error)) from None
    folder = f"{tournament}-bundle/"
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = [name for name in archive.namelist() if not name.endswith("/")]
        if not all(name.startswith(folder) and ".." not in name for name in names):
            raise AdminInputError(WORDS.say("cli.bundle_not_ours"))
        out.mkdir(parents=True)
        for name in names:
            target = out / name[len(folder) :]
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(archive.read(name))
    return len(names), key


def run_bundle(args: argparse.Namespace) -> int:
    """`bundle`: plain HTTP, no WebSocket (the console's download, from a terminal)."""
    from clients.reference_cli.connect_options import ConnectError, resolve_target

    command = "t24 tournament bundle"
    try:
        target = resolve_target(args, "director")
        count, key = download_bundle(target.url, target.token, _tid(args), Path(args.out))
    except (ConnectError, AdminInputError) as error:
        print(error_line(command, error), file=sys.stderr)
        return exit_codes.BAD_INPUT
    except ConnectionError as error:
        print(f"{command}: {error}", file=sys.stderr)
        return exit_codes.UNREACHABLE
    print(WORDS.say("cli.bundle_written", count, path=args.out))
    print(WORDS.say("cli.bundle_key", signing_key=key))
    print(WORDS.say("cli.bundle_check", command=f"t24 audit verify {args.out} --key {key}"))
    return exit_codes.OK


def add_day_parsers(sub: Any) -> None:
    """Register the day's subcommands with `t24 tournament`'s `sub(name, work, help)`."""
    p = sub("preview", preview, "show what an import would register, each bad row by line")
    p.add_argument("file")
    p = sub("rename", rename, "rename a student (a typo in the roster)")
    p.add_argument("student", help="the student's id, e.g. p3")
    p.add_argument("name")
    p = sub("begin", begin, "begin play at a table (or every table of a round) now")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--table", help="the table's name, e.g. r1.s1.t01")
    where.add_argument("--round", type=int)
    p = sub("mark", mark, "mark a student present or absent while their table waits")
    p.add_argument("--table", required=True, help="the table's name, e.g. r1.s1.t01")
    p.add_argument("student")
    p.add_argument("mark", choices=MARKS)
    p = sub("sign", sign, "sign a table's score card as the director (R-ROUND-7)")
    p.add_argument("--table", required=True, help="the table's name, e.g. r1.s1.t01")
    p.add_argument("--initials", required=True)
    p = sub("links", links, "the printed links of a round's tables (QR codes with --out)")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--round", type=int)
    which.add_argument("--tie-break", type=int, dest="tie_break")
    p.add_argument("--out", help="write them (JSON, QR codes included, mode 0600) to this file")
    p = sub("bundle", None, "download the officials' bundle over HTTP into a new directory")
    p.set_defaults(func=run_bundle)
    p.add_argument("--out", required=True, help="a directory that does not exist yet")
