"""`t24 tjugoett`: sit at a Tjugoett table (a player's seat, the dealer's seat, the proctor's
chair or a spectator's), or let the bot play the seat (`--bot`).

How it works: a `TableLink` (the same self-healing connection as `t24 play`) joins the table
and calls this listener. Each pushed event is printed as one line (`screen.event_line`);
after live events the app asks the server for a fresh view (a `join` resync with the last
seq seen, so no push is lost or repeated) and draws the table from it
(`screen.screen_lines`). The keys a viewer may press come from the view's `your_commands`:
the client knows no rule. Typed lines: `d` draw, `s` stand, `n` next round, `e` end the
table, `q` quit. It exits 0 when the table ends or on `q`.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from twisted.internet import stdio
from twisted.protocols.basic import LineReceiver

from clients.reference_cli import exit_codes
from clients.reference_cli.connect_options import (
    ConnectError,
    add_connect_arguments,
    resolve_target,
)
from clients.reference_cli.connection import TableLink, close_then_stop, refusal_words
from clients.reference_cli.games.tjugoett.bot import TjugoettBot
from clients.reference_cli.games.tjugoett.screen import KEYS, event_line, names, screen_lines
from clients.reference_cli.table_app import run_reactor
from clients.reference_cli.table_commands import start_logging
from clients.reference_cli.terminal import write_out

EPILOG = """\
examples:
  t24 tjugoett --tokens var/kort --seat s1          play seat s1 (d = draw, s = stand)
  t24 tjugoett --tokens var/kort --seat dl          deal, at a table with a person dealer
  t24 tjugoett --tokens var/kort --seat s2 --bot    let the bot play seat s2
  t24 tjugoett --tokens var/kort --proctor          start rounds (n) and end the table (e)
  t24 tjugoett --tokens var/kort --watch            watch as a spectator
"""
REFRESH_DELAY = 0.05  # seconds: a burst of pushes is drawn once


class TjugoettApp:
    """The listener of one `t24 tjugoett` connection (see module doc)."""

    def __init__(self, reactor: Any, out: Callable[[str], None], bot: TjugoettBot | None) -> None:
        self.reactor = reactor
        self.out = out
        self.bot = bot
        self.link: Any = None
        self.view: dict[str, Any] | None = None
        self.seq = 0
        self.fed_seq = 0  # the last event printed (a resync may push some again)
        self.early_keys: list[str] = []  # typed before the first view arrived
        self.refresh_call: Any = None
        self.exit_code: int | None = None
        self.final_message = ""

    # -- the link ----------------------------------------------------------------------------

    def link_status(self, status: str) -> None:
        self.out(f"· {status}")

    def link_welcome(self, welcome: dict[str, Any]) -> None:
        if self.bot is None:
            return
        if welcome.get("role") != "player":
            self.link_fatal("wrong_role", f"the bot needs a player token, not a {welcome['role']}")
        self.bot.seat = str(welcome.get("seat") or "")

    def link_snapshot(self, snapshot: dict[str, Any], after_seq: int | None = None) -> None:
        self.show(snapshot)

    def link_event(self, push: dict[str, Any]) -> None:
        if push["seq"] <= self.fed_seq:
            return  # pushed again by a resync join
        self.fed_seq = push["seq"]
        named = names(self.view) if self.view else {}
        line = event_line(push["event_type"], push["data"], named)
        if line:
            self.out(line)
        if push["seq"] <= self.seq:
            return  # catch-up: the snapshot already shows it
        if self.bot is not None:
            self.bot_moves(self.bot.on_event(push["event_type"], push["data"]))
        if push["event_type"] == "TableEnded":
            self.stop(exit_codes.OK)
            return
        if self.refresh_call is None or not self.refresh_call.active():
            self.refresh_call = self.reactor.callLater(REFRESH_DELAY, self.refresh)

    def link_fatal(self, code: str, message: str) -> None:
        self.final_message = message
        self.stop(exit_codes.UNREACHABLE if code == "unreachable" else exit_codes.REFUSED)

    # -- the screen --------------------------------------------------------------------------

    def show(self, snapshot: dict[str, Any]) -> None:
        """Draw the table from a snapshot; the bot looks at it too."""
        self.view, self.seq = snapshot["view"], snapshot["seq"]
        self.out("")
        for line in screen_lines(self.view, str(snapshot.get("table", ""))):
            self.out(line)
        if self.view["phase"] == "table_over":
            self.stop(exit_codes.OK)
            return
        early, self.early_keys = self.early_keys, []
        for text in early:
            self.key(text)
        if self.bot is not None:
            self.bot.dealer = self.view.get("your_role") == "dealer"
            self.bot_moves(self.bot.on_view(self.view))

    def refresh(self) -> None:
        """Ask for a fresh view (a resync join: no push lost or repeated)."""
        link = self.link
        if link is None or not link.ready or self.exit_code is not None:
            return
        after = link.session.last_seq.get(link.table)
        deferred = link.request("join", table=link.table, after_seq=after)
        deferred.addCallbacks(self.show, lambda failure: None)

    # -- moves -------------------------------------------------------------------------------

    def bot_moves(self, move: str | None) -> None:
        if move is not None:
            self.send(move)

    def send(self, name: str) -> None:
        if self.link is None or self.exit_code is not None:
            return
        deferred = self.link.command(name, {})
        deferred.addErrback(
            lambda failure: self.out(f"{name} refused: {refusal_words(failure.value)}")
        )

    def key(self, text: str) -> None:
        """A typed line: the key of one of the viewer's open commands, `q` or `h`."""
        text = text.strip().lower()
        if text in ("q", "quit"):
            self.stop(exit_codes.OK)
            return
        if self.view is None:
            self.early_keys.append(text)  # answered once the table is drawn
            return
        open_commands = self.view.get("your_commands", []) if self.view else []
        for name in open_commands:
            if name in KEYS and KEYS[name][0] == text:
                self.send(name)
                return
        if text:
            offered = ", ".join(f"{KEYS[n][0]} = {KEYS[n][1]}" for n in open_commands if n in KEYS)
            self.out(f"not now ({offered or 'nothing to do now'}; q = quit)")

    def stop(self, code: int) -> None:
        if self.exit_code is not None:
            return
        self.exit_code = code
        if self.refresh_call is not None and self.refresh_call.active():
            self.refresh_call.cancel()
        close_then_stop(self.link, self.reactor)


class _Keys(LineReceiver):
    """Typed lines to `TjugoettApp.key`."""

    delimiter = b"\n"

    def __init__(self, app: TjugoettApp) -> None:
        self.app = app

    def lineReceived(self, line: bytes) -> None:  # noqa: N802 - Twisted's name
        self.app.key(line.decode("utf-8", "replace"))

    def connectionLost(self, reason: Any = None) -> None:  # noqa: N802 - Twisted's name
        pass  # stdin closed (e.g. `< /dev/null`): keep watching until the table ends


def run_tjugoett(args: argparse.Namespace, reactor: Any = None) -> int:
    """Sit at the table until it ends (0), `q` (0), a fatal refusal (3/4) or Ctrl-C (130)."""
    role = "spectator" if args.watch else "proctor" if args.proctor else "player"
    try:
        target = resolve_target(args, role)
    except ConnectError as error:
        print(f"t24 tjugoett: error: {error}", file=sys.stderr)
        return exit_codes.BAD_INPUT
    if reactor is None:
        from twisted.internet import reactor
    start_logging(args.log)
    bot = TjugoettBot("", stand_at=args.stand_at) if args.bot else None
    app = TjugoettApp(reactor, lambda line: write_out(line + "\n"), bot)
    app.link = TableLink(
        target.url, target.token, reactor=reactor, listener=app, table=target.table
    )
    if bot is None:
        stdio.StandardIO(_Keys(app), reactor=reactor)
    run_reactor(reactor, app.stop, app.link.start)
    if app.final_message:
        print(f"t24 tjugoett: {app.final_message}", file=sys.stderr)
    return app.exit_code if app.exit_code is not None else exit_codes.INTERRUPTED


def add_parsers(subparsers: argparse._SubParsersAction) -> None:
    """Register `tjugoett`."""
    parser = subparsers.add_parser(
        "tjugoett",
        help="sit at a Tjugoett table: play, deal, proctor or watch (docs/games/tjugoett.md)",
        description="t24 tjugoett: a seat (player or person dealer), the proctor's chair or a "
        "spectator's at a Tjugoett table. Keys come from the server's view: d draw, s stand, "
        "n next round, e end the table, q quit (each followed by Enter).",
        epilog=EPILOG + "\n" + exit_codes.EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_connect_arguments(parser, seat=True)
    chair = parser.add_mutually_exclusive_group()
    chair.add_argument("--watch", action="store_true", help="watch as a spectator")
    chair.add_argument("--proctor", action="store_true", help="sit as the proctor")
    chair.add_argument("--bot", action="store_true", help="let the bot play the seat")
    parser.add_argument(
        "--stand-at", type=int, default=15, metavar="N", help="the bot stands at N (default 15)"
    )
    parser.add_argument("--log", metavar="FILE", help="append the client's debug log to FILE")
    parser.set_defaults(func=run_tjugoett)
