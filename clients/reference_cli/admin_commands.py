"""`t24 admin create-table | issue-token | list-tables`: the director's one-shot requests.

Each subcommand connects (`TableLink` without a join), sends its requests once the server
said `welcome`, prints the answer and exits: 0 done, 3 refused (the server's words are
printed, e.g. `table_exists`), 4 no server. It speaks `protocol/` only. The one local step
is building a deck: the round's cards (`server.puzzles.round_decks`, the table of R-DECK-5 a
tournament reads too) or an edition's (`--edition`), with `server.puzzles.editions`, the same
pure generator `t24 deck` prints (the arithmetic of 24, not the server's runtime).

`create-table --tokens-out DIR` also signs a token for the proctor, every seat and a
spectator, and writes one file per person into DIR (`protocol.token_files`: `proctor.json`,
`s1.json`, ..., `spectator.json`, mode 0600 in a 0700 directory), so each person is handed
only their own token; the director's is never written (its caller already has it).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from twisted.internet.defer import Deferred, inlineCallbacks, maybeDeferred

from clients.reference_cli import exit_codes
from clients.reference_cli.connect_options import (
    ConnectError,
    add_connect_arguments,
    resolve_target,
)
from clients.reference_cli.connection import (
    Backoff,
    LinkLost,
    ServerRefused,
    TableLink,
    close_then_stop,
    director_refusal,
)
from clients.reference_cli.games import PART_MODULES
from clients.reference_cli.table_app import run_reactor, start_logging
from clients.reference_cli.words import COMMON, Table, error_line
from protocol.token_files import person_files, write_token_files

SIDES = ("red", "white")
TIMING_OPTIONS = (
    ("pattern_seconds", "R-PLAY-4, default 3"),
    ("solution_seconds", "R-PLAY-5, default 15"),
    ("no_touch_seconds", "R-PLAY-7, default 15"),
    ("auto_proctor", "place the next card this many seconds after one is resolved"),
    ("auto_reveal_seconds", "with auto_proctor: reveal this long after placing, default 1"),
)

EPILOG = """\
examples:
  t24 admin list-tables --tokens var/demo-tokens/director.json
  t24 admin create-table --table first --seats s1:Ada,s2:Bo,s3:Cy --cards 8 \\
      --tokens-out var/first          # var/first/proctor.json, s1.json, ..., spectator.json
  T24_TOKEN="$(cat director-token)" t24 admin create-table --url ws://127.0.0.1:8024/ws \\
      --seats 4 --edition double-digits --seed 7 --round 2 --mode proctored --flag-limit 2
  t24 admin create-table --game pocket --seats 3 --cards 12 --option answer_seconds=20 \\
      --tokens-out var/pocket
  t24 admin create-table --game deck40 --seats 2 --option scoring=advanced \\
      --option target_points=10 --tokens-out var/deck40
  t24 admin issue-token --role player --table first --seat s1
"""


class AdminInputError(ValueError):
    """Arguments the subcommand cannot use (exit code 2)."""


# -- building the table options ---------------------------------------------------------------


def parse_seats(text: str) -> list[dict[str, str]]:
    """`3` -> s1..s3 named "Seat 1".."Seat 3"; `s1:Ada,s2:Bo,s3` -> those seats and names."""
    text = text.strip()
    if text.isdigit():
        return [
            {"seat": f"s{i}", "name": COMMON.say("admin.seat_name", number=i)}
            for i in range(1, int(text) + 1)
        ]
    seats = []
    for item in text.split(","):
        seat, _, name = item.strip().partition(":")
        if not seat:
            raise AdminInputError(COMMON.say("admin.empty_seat", seats=repr(text)))
        seats.append({"seat": seat.strip(), "name": name.strip()})
    return seats


def deck_from_edition(edition: str, seed: int, side: str) -> list[dict[str, Any]]:
    """The `deck` option: an edition's 48 double-sided cards (the half of the 96-card deck
    that edition is, R-DECK-1/2), played on `side` (R-DECK-5)."""
    from server.puzzles import editions

    if edition not in editions.EDITIONS:
        raise AdminInputError(
            COMMON.say("admin.edition_choices", editions=", ".join(editions.EDITIONS))
        )
    return [
        {"card_id": card.card_id, **card.side(side).as_dict()}
        for card in editions.tournament_deck(edition, seed)
    ]


def deck_from_file(path: str, side: str) -> list[dict[str, Any]]:
    """A deck from JSON: a list of `{card_id, numbers, dots}`, or `t24 deck --json` output."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, json.JSONDecodeError) as error:
        raise AdminInputError(COMMON.say("admin.deck_file", path=path, error=error)) from None
    cards = data.get("cards") if isinstance(data, dict) else data
    if not isinstance(cards, list):
        raise AdminInputError(COMMON.say("admin.deck_file_not_cards", path=path))
    deck = []
    for card in cards:
        if isinstance(card, dict) and side in card and "numbers" not in card:
            deck.append({"card_id": card.get("card_id"), **card[side]})
        else:
            deck.append(card)
    return deck


def option_pairs(pairs: list[str] | None) -> dict[str, Any]:
    """`--option NAME=VALUE` flags: VALUE is read as JSON (`3`, `true`, `[1, 2]`), else text."""
    options: dict[str, Any] = {}
    for pair in pairs or ():
        name, sep, text = pair.partition("=")
        if not sep or not name.strip():
            raise AdminInputError(COMMON.say("admin.option_pair", pair=repr(pair)))
        try:
            options[name.strip()] = json.loads(text)
        except json.JSONDecodeError:
            options[name.strip()] = text
    return options


def casual_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options of a game other than the 24 Challenge (pocket, deck40, tjugoett): the
    seats, the shuffle's seed when --seed is given, for pocket the edition and the stack
    size (--cards).

    Why no seed otherwise: the server draws a fresh secret one for a table created without
    it and records it in `TableCreated` (the games' `SEED_OPTION`, server/runtime/hub.py), so
    every client gets a new shuffle at every table without drawing seeds of its own.
    """
    options: dict[str, Any] = {"seats": parse_seats(args.seats)}
    if args.seed is not None:
        options["seed"] = args.seed
    if args.game == "pocket":
        if args.edition is not None:  # else the game's default edition
            options["edition"] = args.edition
        if args.cards is not None:
            options["size"] = args.cards
    if args.game == "practice" and args.cards is not None:
        options["cards"] = args.cards  # cards each student plays
    return options


def table_options(args: argparse.Namespace) -> dict[str, Any]:
    """The `create_table` options from the flags (the server checks them again)."""
    if getattr(args, "game", "challenge") != "challenge":
        options = casual_options(args)
        options.update(_json_options(args.options))
        options.update(option_pairs(getattr(args, "option", None)))
        return options
    from server.puzzles import round_decks

    # R-DECK-5 under --rules (the one table, shared with the tournament): the round's cards
    # (Official Rules: the first half of the --edition's 96-card deck in rounds 1-2, the
    # second in 3-4; Single Digits unless named) on the round's side; --side chooses
    # otherwise, and an --edition the document does not choose plays that edition's first 48.
    rules = args.rules or round_decks.DOCUMENTS[0]
    side = args.side or round_decks.round_plan(rules, args.round).side
    if args.deck_file:
        deck = deck_from_file(args.deck_file, side)
    elif args.edition in round_decks.edition_choices(rules):
        deck = round_decks.round_deck(args.seed or 0, rules, args.round, side, args.edition)
    else:
        deck = deck_from_edition(args.edition, args.seed or 0, side)
    if args.cards is not None:
        if args.cards < 1:
            raise AdminInputError(COMMON.say("admin.cards_at_least_one"))
        deck = deck[: args.cards]
    options: dict[str, Any] = {
        "seats": parse_seats(args.seats),
        "deck": deck,
        "round": args.round,
        "mode": args.mode,
    }
    for name, _doc in TIMING_OPTIONS:
        value = getattr(args, name)
        if value is not None:
            options[name] = value
    # R-PLAY-7: the --rules document's policy for a stumped card unless --stumped-cards says
    options["stumped_cards"] = args.stumped_cards or round_decks.stumped_cards(rules)
    if args.flag_limit is not None:
        options["flag_limit"] = args.flag_limit
    options.update(_json_options(args.options))
    options.update(option_pairs(getattr(args, "option", None)))
    return options


def _json_options(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    try:
        extra = json.loads(text)
    except json.JSONDecodeError as error:
        raise AdminInputError(COMMON.say("admin.options_not_json", error=error)) from None
    if not isinstance(extra, dict):
        raise AdminInputError(COMMON.say("admin.options_not_a_map"))
    return extra


def check_tokens_out(path: str | None) -> None:
    """`--tokens-out` names a directory: one file per person (a `.json` name is a slip)."""
    if path and path.endswith(".json"):
        raise AdminInputError(COMMON.say("admin.tokens_out_directory", example=path[:-5]))


# -- the three requests ------------------------------------------------------------------------


@inlineCallbacks
def create_table(link: TableLink, welcome: dict[str, Any], args: argparse.Namespace) -> Any:
    """create_table, then (with --tokens-out) one token per role and seat."""
    options = table_options(args)
    reply = yield link.request("create_table", game=args.game, options=options, table=args.table)
    table = reply["table"]
    result: dict[str, Any] = {"table": table, "seq": reply["seq"]}
    if args.tokens_out:
        tokens: dict[str, str] = {}
        for role in ("proctor", "spectator"):
            issued = yield link.request("issue_token", role=role, table=table, name=role)
            tokens[role] = issued["token"]
        seats = []
        dealer = options.get("dealer")  # a Tjugoett table's person dealer has a seat too
        dealer_seats = [dealer] if isinstance(dealer, dict) and "seat" in dealer else []
        for seat in [*options["seats"], *dealer_seats]:
            issued = yield link.request(
                "issue_token", role="player", table=table, seat=seat["seat"]
            )
            seats.append({**seat, "token": issued["token"]})
        files = person_files(link.url, table, tokens["proctor"], tokens["spectator"], seats)
        write_token_files(args.tokens_out, files)
        result["tokens_dir"] = args.tokens_out
        result["tokens_files"] = sorted(files)
    if args.json:
        print(json.dumps(result))
    else:
        seats = COMMON.say("admin.seats", len(options["seats"]))
        deck = options.get("deck")
        if isinstance(deck, list):
            cards = COMMON.say("admin.cards", len(deck))
            print(
                COMMON.say(
                    "admin.created.cards", table=table, game=args.game, seats=seats, cards=cards
                )
            )
        else:
            print(COMMON.say("admin.created", table=table, game=args.game, seats=seats))
        if args.tokens_out:
            print(COMMON.say("admin.tokens_written", directory=args.tokens_out))
            print("  " + "  ".join(sorted(files)))
    return exit_codes.OK


@inlineCallbacks
def issue_token(link: TableLink, welcome: dict[str, Any], args: argparse.Namespace) -> Any:
    """issue_token: prints the token alone (for `$(...)`), or JSON."""
    reply = yield link.request(
        "issue_token",
        role=args.role,
        table=args.table,
        seat=args.seat,
        name=args.name,
        ttl_seconds=args.ttl_seconds,
    )
    if args.json:
        print(
            json.dumps({key: reply[key] for key in ("token", "role", "table", "seat", "expires")})
        )
    else:
        print(reply["token"])
    return exit_codes.OK


@inlineCallbacks
def list_tables(link: TableLink, welcome: dict[str, Any], args: argparse.Namespace) -> Any:
    """list_tables: one line per table (id, game, last seq, over or live)."""
    reply = yield link.request("list_tables")
    tables = list(reply["tables"])
    while reply.get("next"):  # the server answers a page at a time
        reply = yield link.request("list_tables", after=reply["next"])
        tables += reply["tables"]
    if args.json:
        print(json.dumps(tables))
        return exit_codes.OK
    if not tables:
        print(COMMON.say("admin.no_tables"))
    for info in tables:
        line = COMMON.say(
            "admin.table_line",
            table=f"{info.get('table'):24}",
            game=f"{info.get('game', '?'):10}",
            seq=f"{info.get('seq', 0):<6}",
            state=COMMON.say("admin.table.over" if info.get("over") else "admin.table.live"),
        )
        print(line)
    return exit_codes.OK


# -- running one request ---------------------------------------------------------------------

Work = Callable[[TableLink, dict[str, Any], argparse.Namespace], Deferred]


class OneShot:
    """A link listener that runs `work` once welcomed, then stops with its exit code."""

    def __init__(
        self, reactor: Any, work: Work, args: argparse.Namespace, refusals: Table = COMMON
    ) -> None:
        self.reactor = reactor
        self.refusals = refusals  # whose `refusal.<code>` words a refusal (the tournament's)
        self.work = work
        self.args = args
        self.link: Any = None
        self.exit_code: int | None = None
        self.message = ""
        self.started = False  # `work` runs once, on the first welcome

    def link_status(self, status: str) -> None:
        return None

    def link_snapshot(self, snapshot: dict[str, Any], after_seq: int | None = None) -> None:
        return None

    def link_event(self, push: dict[str, Any]) -> None:
        return None

    def link_welcome(self, welcome: dict[str, Any]) -> None:
        if self.started:  # welcomed again after a `moved`: the link resends what it must
            return
        self.started = True
        deferred = maybeDeferred(self.work, self.link, welcome, self.args)
        deferred.addCallbacks(self.stop, self.failed)

    def failed(self, failure: Any) -> None:
        error = failure.value
        if isinstance(error, ServerRefused):
            words = director_refusal(error, self.refusals)
            self.message, code = COMMON.say("admin.refused", words=words), exit_codes.REFUSED
        elif isinstance(error, AdminInputError):
            self.message, code = str(error), exit_codes.BAD_INPUT
        elif isinstance(error, LinkLost):
            self.message, code = error.words(), exit_codes.UNREACHABLE
        else:
            self.message = COMMON.say("admin.unexpected", error=repr(error))
            code = exit_codes.UNREACHABLE
        self.stop(code)

    def link_fatal(self, code: str, message: str) -> None:
        self.message = message
        self.stop(exit_codes.UNREACHABLE if code == "unreachable" else exit_codes.REFUSED)

    def stop(self, code: int) -> None:
        if self.exit_code is not None:
            return
        self.exit_code = code
        close_then_stop(self.link, self.reactor)


def run_admin(args: argparse.Namespace, reactor: Any = None) -> int:
    """Run the chosen admin subcommand once."""
    command = f"t24 admin {args.admin_command}"
    try:
        target = resolve_target(args, "director")
        if args.admin_command == "create-table":
            table_options(args)  # refuse bad flags before connecting
            check_tokens_out(args.tokens_out)
    except (ConnectError, AdminInputError) as error:
        print(error_line(command, error), file=sys.stderr)
        return exit_codes.BAD_INPUT
    return run_one_shot(command, target, args, reactor)


def run_one_shot(
    command: str,
    target: Any,
    args: argparse.Namespace,
    reactor: Any = None,
    refusals: Table = COMMON,
) -> int:
    """Connect to `target` without joining, run `args.work` once and exit with its code (the
    director's one-shot commands: `t24 admin ...`, `t24 tournament ...`)."""
    if reactor is None:
        from twisted.internet import reactor
    start_logging(args.log)
    shot = OneShot(reactor, args.work, args, refusals)
    shot.link = TableLink(
        target.url,
        target.token,
        reactor=reactor,
        listener=shot,
        join=False,
        retries=args.retries,
        backoff=Backoff(initial=0.2, maximum=1.0),
    )
    run_reactor(reactor, shot.stop, shot.link.start)
    if shot.message:
        print(f"{command}: {shot.message}", file=sys.stderr)
    return shot.exit_code if shot.exit_code is not None else exit_codes.INTERRUPTED


def add_admin_arguments(parser: argparse.ArgumentParser, repeated: bool = False) -> None:
    """The flags of every admin subcommand: accepted before the subcommand and after it
    (`t24 admin list-tables --url ... --token ...`), as every other command takes them."""
    keep = {"default": argparse.SUPPRESS} if repeated else {}
    add_connect_arguments(parser, table=False, repeated=repeated)
    parser.add_argument("--json", action="store_true", help="print the answer as JSON", **keep)
    parser.add_argument(
        "--retries",
        type=int,
        metavar="N",
        help="reconnect attempts (default: 2)",
        **(keep or {"default": 2}),
    )
    parser.add_argument(
        "--log", metavar="FILE", help="append the client's debug log to FILE", **keep
    )


GAME_NAMES = ", ".join(PART_MODULES)  # the games `--game` takes, one list (games/__init__.py)


def add_parsers(subparsers: argparse._SubParsersAction) -> None:
    """Register `admin` and its three subcommands."""
    formatter = argparse.RawDescriptionHelpFormatter
    admin = subparsers.add_parser(
        "admin",
        help="director requests: create-table, issue-token, list-tables",
        description="t24 admin: the director's one-shot requests (a director token; "
        "list-tables works with any token).",
        epilog=EPILOG + "\n" + exit_codes.EXIT_CODES_HELP,
        formatter_class=formatter,
    )
    add_admin_arguments(admin)
    commands = admin.add_subparsers(dest="admin_command", metavar="SUBCOMMAND", required=True)

    create = commands.add_parser(
        "create-table",
        help="create a table of any game (24 Challenge by default)",
        description=f"Create a table of any game: {GAME_NAMES}.\n"
        "Its options: docs/rules.md (challenge), docs/games/GAME.md (the others), given\n"
        "with --option or --options. A 24 Challenge deck is an edition's 48 cards on the\n"
        "round's side (R-DECK-5), or --deck-file.",
        epilog=EPILOG,
        formatter_class=formatter,
    )
    create.add_argument("--table", help="the new table's id (default: the server picks one)")
    create.add_argument(
        "--game", default="challenge", help=f"the game: {GAME_NAMES} (default: challenge)"
    )
    create.add_argument(
        "--seats", default="4", help="a count, or s1:Ada,s2:Bo,... (challenge: 3 or 4)"
    )
    create.add_argument(
        "--edition",
        help="deck edition (challenge: the Official Rules' 96-card deck, default "
        "single-digits, R-DECK-5; pocket: single-digits)",
    )
    create.add_argument(
        "--seed",
        type=int,
        help="deck seed (challenge: default 0; the other games: drawn by the server)",
    )
    create.add_argument("--side", choices=SIDES, help="card side (default: R-DECK-5's)")
    create.add_argument(
        "--rules",
        choices=("official", "guidelines", "special_instructions"),
        help="the rules document the round's cards and side follow (R-DECK-5; default official)",
    )
    create.add_argument("--deck-file", metavar="FILE", help="a deck as JSON instead")
    create.add_argument("--cards", type=int, metavar="N", help="play only the first N cards")
    create.add_argument("--round", type=int, default=1, choices=(1, 2, 3, 4))
    create.add_argument("--mode", choices=("networked", "proctored"), default="networked")
    for name, doc in TIMING_OPTIONS:
        flag = "--" + name.replace("_", "-")
        create.add_argument(flag, dest=name, type=float, metavar="SECONDS", help=doc)
    create.add_argument(
        "--stumped-cards",
        choices=("set_aside", "replay_at_end"),
        help="R-PLAY-7 (default: the --rules document's: official replay_at_end, "
        "guidelines set_aside)",
    )
    create.add_argument("--flag-limit", type=int, help="flags that disqualify (R-FLAG-3)")
    create.add_argument("--options", metavar="JSON", help="more options as a JSON map")
    create.add_argument(
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help="one more option (VALUE as JSON, else text); repeatable",
    )
    create.add_argument(
        "--tokens-out",
        metavar="DIR",
        help="write the new table's tokens into DIR, one file per person",
    )
    add_admin_arguments(create, repeated=True)
    create.set_defaults(func=run_admin, work=create_table)

    issue = commands.add_parser(
        "issue-token",
        help="sign a token for someone",
        description="Sign a token: players need --table and --seat, proctors --table.",
        epilog=EPILOG,
        formatter_class=formatter,
    )
    issue.add_argument(
        "--role", required=True, choices=("director", "proctor", "player", "spectator", "auditor")
    )
    issue.add_argument("--table", help="the table it is valid for (players, proctors)")
    issue.add_argument("--seat", help="the seat (players)")
    issue.add_argument("--name", help="who it is for (not players)")
    issue.add_argument("--ttl-seconds", type=int, help="lifetime (default 12 h)")
    add_admin_arguments(issue, repeated=True)
    issue.set_defaults(func=run_admin, work=issue_token)

    listing = commands.add_parser(
        "list-tables",
        help="the tables this token may see",
        epilog=EPILOG,
        formatter_class=formatter,
    )
    add_admin_arguments(listing, repeated=True)
    listing.set_defaults(func=run_admin, work=list_tables, table=None)
