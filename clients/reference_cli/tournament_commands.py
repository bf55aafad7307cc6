"""`t24 tournament ...`: the director's commands for a tournament (docs/tournament.md).

Each subcommand connects with a director token, sends one or a few requests and exits:
0 done, 3 refused (the server's code and words are printed, e.g. `tie_break_pending`), 4 no
server. A tournament is the stream `tournament/<id>`: `create` is a `create_table` of game
`tournament` with that id, every other subcommand a `command` to it, `standings` a `join`
whose snapshot is rendered as one table per grade. `simulate` (tournament_sim.py) runs a
whole tournament on a server process of its own with bots.

What a command did is said in words with counts ("7 students imported (4 in 4th, 3 in
5th)", tournament_words.py), read from the tournament's views before and after it (two
`view_at` queries); `--json` prints the server's reply instead. `import` reads the file as
a spreadsheet saves it (`read_roster`): UTF-8 with or without a byte order mark, else
Windows-1252 (Excel's "CSV" in Western Europe), said on stderr; the server reads the rest
(`,` or `;`, CRLF; server/tournament/roster.py).

It speaks `protocol/` only: the standings come computed in the tournament's view.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from twisted.internet.defer import inlineCallbacks

from clients.reference_cli import exit_codes
from clients.reference_cli.admin_commands import AdminInputError, run_one_shot
from clients.reference_cli.connect_options import (
    ConnectError,
    add_connect_arguments,
    resolve_target,
)
from clients.reference_cli.connection import ServerRefused, TableLink, refusal_words
from clients.reference_cli.tournament_day_commands import DAY_EXAMPLES, add_day_parsers
from clients.reference_cli.tournament_words import (
    WORDS,
    command_words,
    created_words,
    nothing_to_do,
)
from clients.reference_cli.words import COMMON, error_line, os_error_words

PREFIX = "tournament/"
# The director's token as `make run` (t24-server --demo) writes it.
TOKENS = "var/demo-tokens/director.json"

EPILOG = f"""\
examples (a server started by `make run`; its director's token is {TOKENS}):
  t24 tournament --tokens {TOKENS} create --id spring --name "Spring Challenge" \\
      --date "$(date +%F)" --grades 4th,5th,6th --seed 24
  t24 tournament --tokens {TOKENS} create --id practice --name "Practice" \\
      --date "$(date +%F)" --grades 4th --seed 7 --cards-per-round 6
  t24 tournament --tokens {TOKENS} import --id spring students.csv
  t24 tournament --tokens {TOKENS} close-registration --id spring
  t24 tournament --tokens {TOKENS} seat --id spring --round 1
  t24 tournament --tokens {TOKENS} start-round --id spring --round 1
  t24 tournament --tokens {TOKENS} standings --id spring
  t24 tournament simulate --students 20 --grades 3 --seed 7 --store sqlite:///var/sim.sqlite --fast

students.csv: a header naming the columns name, school, grade (any order), then one student
a line; `,` or `;` between columns, as Excel saves it (CSV UTF-8 or CSV), CRLF or LF.
"""


_T = f"t24 tournament --tokens {TOKENS}"
SUB_EXAMPLES = {
    "create": f'{_T} create --id spring --name "Spring" --date "$(date +%F)" --grades 4th,5th '
    f'--seed 24\n  {_T} create --id drill --name "Drill" --date 2026-03-14 --grades 4th '
    "--seed 7 --cards-per-round 6",
    "register": f"{_T} register --id spring --name Ada --school Hill --grade 4th",
    "import": f"{_T} import --id spring var/students.csv",
    "withdraw": f"{_T} withdraw --id spring p7",
    "merge": f'{_T} merge --id spring --grades 4th,5th --section "4th & 5th"',
    "close-registration": f"{_T} close-registration --id spring",
    "seat": f"{_T} seat --id spring --round 1",
    "start-round": f"{_T} start-round --id spring --round 1",
    "close-round": f"{_T} close-round --id spring --round 1",
    "advance": f"{_T} advance --id spring --round 2",
    "reopen-round": f"{_T} reopen-round --id spring --round 2",
    "swap": f"{_T} swap --id spring --round 2 p3 p9",
    "proctor": f'{_T} proctor --id spring --table r1.s1.t01 --name "Grace Hopper"',
    "standings": f"{_T} standings --id spring",
    "simulate": "t24 tournament simulate --students 20 --grades 3 --seed 7 --fast",
    **DAY_EXAMPLES,  # the day's subcommands (tournament_day_commands.py)
}

# The choices of --rules and --edition: server.puzzles.round_decks' DOCUMENTS and
# OFFICIAL_EDITIONS (a test keeps them equal; not imported, so `t24 --help` stays light).
RULES_DOCUMENTS = ("official", "guidelines", "special_instructions")
OFFICIAL_EDITIONS = ("single-digits", "double-digits")


def stream_of(tournament_id: str) -> str:
    return tournament_id if tournament_id.startswith(PREFIX) else PREFIX + tournament_id


# The tournament's own options that have a flag of their own: a `--table-option` naming one
# is pointed at its flag (the server would refuse it as no table option).
OWN_FLAGS = {
    "cards_per_round": "--cards-per-round",
    "tie_break_seconds": "--tie-break-seconds",
    "advance_count": "--advance-count",
}


def table_option_pairs(pairs: list[str]) -> dict[str, Any]:
    """`--table-option key=value` pairs: numbers become numbers."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise AdminInputError(COMMON.say("admin.table_option_pair", pair=repr(pair)))
        if key in OWN_FLAGS:
            raise AdminInputError(
                WORDS.say("cli.own_option", option=key, flag=OWN_FLAGS[key], value=value)
            )
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


def create_options(args: argparse.Namespace) -> dict[str, Any]:
    grades = [g.strip() for g in args.grades.split(",") if g.strip()]
    options = {
        "name": args.name,
        "date": args.date,
        "grades": grades,
        "deck_seed": args.seed,
        "rules": args.rules,
        **({"edition": args.edition} if args.edition else {}),
        "per_table_shuffle": args.per_table_shuffle,
        "tie_break_seconds": args.tie_break_seconds,
        "table_options": table_option_pairs(args.table_option or []),
    }
    if args.cards_per_round is not None:  # left out: the tournament's own default (48)
        options["cards_per_round"] = args.cards_per_round
    if args.advance_count is not None:  # left out: the tournament's own default (16)
        options["advance_count"] = args.advance_count
    return options


WINDOWS_1252 = "cp1252"  # what Excel's plain "CSV" is in Western Europe


def read_roster(path: str) -> tuple[str, str]:
    """(the CSV's text, a note for the director or ""): UTF-8 (a byte order mark is the
    server's to drop), else Windows-1252, else refused naming the first byte that is
    neither."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise AdminInputError(
            COMMON.say("cli.cannot_read", path=path, error=os_error_words(error))
        ) from None
    try:
        return data.decode("utf-8"), ""
    except UnicodeDecodeError as not_utf8:
        try:
            text = data.decode(WINDOWS_1252)
        except UnicodeDecodeError:
            line = data[: not_utf8.start].count(b"\n") + 1
            byte = f"{data[not_utf8.start]:#04x}"
            raise AdminInputError(
                WORDS.say("cli.roster_encoding", path=path, line=line, byte=byte)
            ) from None
        note = WORDS.say("cli.roster_windows_1252", path=path)
        return text, note


def command_args(args: argparse.Namespace) -> tuple[str, dict[str, Any]]:
    """The tournament command a subcommand sends, and its arguments."""
    sub = args.tournament_command
    if sub == "register":
        return "register", {"name": args.name, "school": args.school, "grade": args.grade}
    if sub == "import":
        text, _note = read_roster(args.file)
        return "import_students", {"csv": text}
    if sub == "withdraw":
        return "withdraw", {"student": args.student}
    if sub == "merge":
        grades = [g.strip() for g in args.grades.split(",") if g.strip()]
        return "merge_grades", {"grades": grades, "section": args.section}
    if sub == "close-registration":
        return "close_registration", {}
    if sub == "swap":
        return "swap_seats", {"round": args.round, "a": args.a, "b": args.b}
    names = {
        "seat": "seat_round",
        "start-round": "start_round",
        "close-round": "close_round",
        "advance": "advance",
        "reopen-round": "reopen_round",
    }
    return names[sub], {"round": args.round}


@inlineCallbacks
def create(link: TableLink, welcome: dict[str, Any], args: argparse.Namespace) -> Any:
    options = create_options(args)
    reply = yield link.request(
        "create_table", game="tournament", options=options, table=stream_of(args.id)
    )
    tournament = reply["table"][len(PREFIX) :]
    print(json.dumps(reply) if args.json else created_words(tournament, options))
    return exit_codes.OK


@inlineCallbacks
def views_around(link: TableLink, stream: str, reply: dict[str, Any]) -> Any:
    """The tournament's views just before and just after an accepted command."""
    seq, events = reply["seq"], reply["events"]
    answers = []
    for at in (seq - events, seq):
        answer = yield link.request("query", table=stream, name="view_at", args={"seq": at})
        answers.append(answer["result"]["view"])
    return answers


@inlineCallbacks
def send(link: TableLink, welcome: dict[str, Any], args: argparse.Namespace) -> Any:
    name, command = command_args(args)
    if args.tournament_command == "import":
        _text, note = read_roster(args.file)
        if note:
            print(note, file=sys.stderr)
    stream = stream_of(args.id)
    reply = yield link.request("command", table=stream, name=name, args=command)
    if args.json:
        print(json.dumps(reply))
    elif not reply["events"]:
        print(nothing_to_do())
    else:
        try:
            before, after = yield views_around(link, stream, reply)
        except ServerRefused as refused:  # done all the same: say so, and why no details
            print(WORDS.say("cli.done_no_details", why=refusal_words(refused, WORDS)))
        else:
            print(command_words(name, command, before, after))
    return exit_codes.OK


@inlineCallbacks
def assign_proctor(link: TableLink, welcome: dict[str, Any], args: argparse.Namespace) -> Any:
    """assign_proctor, then a proctor token bound to the table (printed)."""
    command = {"table": args.table, "name": args.name}
    if args.initials:
        command["initials"] = args.initials
    stream = stream_of(args.id)
    yield link.request("command", table=stream, name="assign_proctor", args=command)
    hub_table = f"{stream[len(PREFIX) :]}.{args.table}"
    issued = yield link.request("issue_token", role="proctor", table=hub_table, name=args.name)
    print(
        json.dumps({"table": hub_table, "token": issued["token"]}) if args.json else issued["token"]
    )
    return exit_codes.OK


@inlineCallbacks
def standings(link: TableLink, welcome: dict[str, Any], args: argparse.Namespace) -> Any:
    from clients.reference_cli.tournament_render import render_standings  # only here: ~20 ms

    reply = yield link.request("join", table=stream_of(args.id))
    view = reply["view"]
    print(json.dumps(view["standings"]) if args.json else render_standings(view))
    return exit_codes.OK


def run_tournament_command(args: argparse.Namespace, reactor: Any = None) -> int:
    command = f"t24 tournament {args.tournament_command}"
    try:
        target = resolve_target(args, "director")
        if args.tournament_command == "create":
            create_options(args)
        elif args.work is send:
            command_args(args)
    except (ConnectError, AdminInputError) as error:
        print(error_line(command, error), file=sys.stderr)
        return exit_codes.BAD_INPUT
    return run_one_shot(command, target, args, reactor, refusals=WORDS)


def run_simulate(args: argparse.Namespace) -> int:
    from clients.reference_cli.tournament_sim import simulate

    return simulate(args)


def add_parsers(subparsers: argparse._SubParsersAction) -> None:
    """Register `tournament` and its subcommands."""
    formatter = argparse.RawDescriptionHelpFormatter
    parser = subparsers.add_parser(
        "tournament",
        help="run a tournament: create, register, import, seat, start-round, standings, ...",
        description="t24 tournament: the director's commands (docs/tournament.md).",
        epilog=EPILOG + "\n" + exit_codes.EXIT_CODES_HELP,
        formatter_class=formatter,
    )
    add_connect_arguments(parser, table=False)
    parser.add_argument("--json", action="store_true", help="print the answer as JSON")
    parser.add_argument("--retries", type=int, default=2, metavar="N", help="default: 2")
    parser.add_argument("--log", metavar="FILE", help="append the client's debug log to FILE")
    commands = parser.add_subparsers(dest="tournament_command", metavar="SUBCOMMAND", required=True)

    def sub(name: str, work, help_: str) -> argparse.ArgumentParser:
        example = SUB_EXAMPLES[name]
        p = commands.add_parser(
            name,
            help=help_,
            description=help_,
            epilog=f"examples:\n  {example}\n",
            formatter_class=formatter,
        )
        p.set_defaults(func=run_tournament_command, work=work)
        if name != "simulate":
            p.add_argument("--id", required=True, help="the tournament id (without tournament/)")
            # The connection flags after the subcommand too, as `t24 admin` takes them.
            add_connect_arguments(p, table=False, repeated=True)
        return p

    p = sub("create", create, "create a tournament")
    p.add_argument("--name", required=True)
    p.add_argument("--date", required=True, help="YYYY-MM-DD")
    p.add_argument("--grades", required=True, help="comma-separated grades or sections")
    p.add_argument("--seed", type=int, required=True, help="the deck seed (R-DECK-1)")
    p.add_argument(
        "--rules",
        choices=RULES_DOCUMENTS,
        default="official",
        help="the rules document (R-DECK-5): the cards and sides of each round",
    )
    p.add_argument(
        "--edition",
        choices=OFFICIAL_EDITIONS,
        help="the Official Rules' 96-card deck (default: single-digits)",
    )
    p.add_argument("--per-table-shuffle", action="store_true")
    p.add_argument("--tie-break-seconds", type=int, default=300)
    p.add_argument(
        "--cards-per-round",
        type=int,
        metavar="N",
        help="cards a round: 48 by the rules (R-ROUND-1); 4..48 for a practice tournament",
    )
    p.add_argument(
        "--advance-count",
        type=int,
        metavar="N",
        help="how many of each grade go to the semi-finals: 16 by the rules (R-ROUND-3); 3..16",
    )
    p.add_argument(
        "--table-option",
        action="append",
        metavar="KEY=VALUE",
        help="passed on to every table: pattern_seconds, solution_seconds, no_touch_seconds, "
        "stumped_cards, mode, auto_proctor, auto_reveal_seconds",
    )
    p = sub("register", send, "register one student")
    p.add_argument("--name", required=True)
    p.add_argument("--school", required=True)
    p.add_argument("--grade", required=True)
    p = sub("import", send, "import a CSV of students (name,school,grade; `,` or `;`)")
    p.add_argument("file")
    p = sub("withdraw", send, "withdraw a student")
    p.add_argument("student")
    p = sub("merge", send, "merge grades into one section")
    p.add_argument("--grades", required=True)
    p.add_argument("--section", required=True)
    sub("close-registration", send, "close registration")
    for name, help_ in (
        ("seat", "seat a round"),
        ("start-round", "start a round: its tables are created and started"),
        ("close-round", "close a round (every table's result is final)"),
        ("advance", "advance after round 2, 3 or 4"),
        ("reopen-round", "reopen an advanced round (a late ruling)"),
    ):
        sub(name, send, help_).add_argument("--round", type=int, required=True)
    p = sub("swap", send, "swap two students' seats before the round starts")
    p.add_argument("--round", type=int, required=True)
    p.add_argument("a")
    p.add_argument("b")
    p = sub("proctor", assign_proctor, "assign a proctor to a table and print their token")
    p.add_argument("--table", required=True, help="the table's name, e.g. r1.s1.t01")
    p.add_argument("--name", required=True)
    p.add_argument("--initials")
    sub("standings", standings, "print the standings, one table per grade")
    add_day_parsers(sub)  # preview, rename, begin, mark, sign, links, bundle
    p = sub("simulate", None, "run a whole tournament with bots on a server of its own")
    p.set_defaults(func=run_simulate)
    p.add_argument("--students", type=int, default=20, help="students per grade")
    p.add_argument("--grades", type=int, default=3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--store", default=None, help="store URL (default: SQLite in a temp dir)")
    p.add_argument("--fast", action="store_true", help="short timers, bots at full speed")
    p.add_argument("--cards", type=int, default=48, help="cards a round (R-ROUND-1: 48)")
    p.add_argument("--rules", choices=RULES_DOCUMENTS, default="official", help="R-DECK-5")
    p.add_argument("--edition", choices=OFFICIAL_EDITIONS, help="the Official Rules' deck")
    p.add_argument(
        "--tie-break-seconds", type=int, help="a tie-break's length (default 300; 5 with --fast)"
    )
    p.add_argument("--force-tie", metavar="GRADE", help="end GRADE's round 1-2 tables at once")
    p.add_argument("--protest", action="store_true", help="an upheld protest after round 2")
    p.add_argument(
        "--bundle",
        metavar="DIR",
        help="write the officials' bundle to DIR, signed with a key made for the run (deleted "
        "when it ends); its public half is printed: signing key: HEX",
    )
    p.add_argument("--json", dest="json", action="store_true", help="print a JSON summary")
