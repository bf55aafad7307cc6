"""`t24 casual`: play (or watch, or let a bot play) a casual table: `pocket` or `deck40`.

A thin client in plain lines: it draws the view the server sends (the snapshot, then the
view the last event push of each append carries, `protocol.views`) with the game's part
under `clients/reference_cli/games/<game>/` (`screen.render_lines`), prints each event as a
sentence of the game's words (`describe_event`, `words.py`), and sends what the player types
(`screen.parse_line`: an answer, `c`, `s`, `n 7H`, `start`, ...) for the card or set that
was on screen when the line's first key was typed (`CasualApp`). No rule is judged here: the
server refuses what it must, and the refusal is printed in the game's words. With `--bot`
the game's `brain.next_move` plays the seat (the solver's answers), so `t24 casual --bot` is
the casual games' bot. It exits 0 when the game ends.

Why a command of its own: typing a whole answer line fits these games better than the keys of
`t24 play` (which plays them too, with the same typed lines, full screen). Tjugoett, one key a
move, is played with `t24 play`.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import importlib.util
import pkgutil
import sys
from collections.abc import Callable
from functools import cache
from types import ModuleType
from typing import Any

from clients.reference_cli import exit_codes
from clients.reference_cli.connect_options import (
    ConnectError,
    add_connect_arguments,
    resolve_target,
)
from clients.reference_cli.connection import TableLink, close_then_stop, refusal_words
from clients.reference_cli.games import PART_MODULES, GamePart, part_for
from clients.reference_cli.keyboard import CTRL_D, ENTER, edit_line, split_keys
from clients.reference_cli.table_app import run_reactor, start_logging
from clients.reference_cli.terminal import StdinReader, cbreak, write_out
from clients.reference_cli.words import COMMON, error_line, table_language
from protocol.views import apply_view_message


@cache
def casual_parts() -> dict[str, tuple[ModuleType, ModuleType]]:
    """Game name -> (screen, brain): the games played in typed lines, found by their part's
    folder: a part with a `screen.py` (`render_lines(view, now_us)`, `parse_line(line,
    view)`) and a `brain.py` (`next_move(view, me)`) is one (docs/cli.md, "Per-game parts")."""
    found: dict[str, tuple[ModuleType, ModuleType]] = {}
    for name, module in PART_MODULES.items():
        spec = importlib.util.find_spec(module)
        where = list(spec.submodule_search_locations or []) if spec is not None else []
        if {"screen", "brain"} <= {sub.name for sub in pkgutil.iter_modules(where)}:
            screen = importlib.import_module(f"{module}.screen")
            found[name] = (screen, importlib.import_module(f"{module}.brain"))
    return found


EPILOG = """\
typed lines:
  pocket   an answer claims and answers at once: for 2 3 4 5 (t24 solve 2 3 4 5) (5+3-2)*4
           c claim "I got it" first · s stumped · start · resume (after a pause) · q quit
  deck40   "24!" with a solution: for 4 1 8 7 (t24 solve 4 1 8 7) (8-4)*(7-1)
           n [card] no solution, returning that card (e.g. n 7H) · start · q quit

An answer is for the card (set) on screen when you began typing it: if someone wins that card
first, it is refused ("not judged: ..."), never judged on the next card.
Tjugoett is played with t24 play (one key a move).

examples:
  t24 casual --tokens var/pocket1/s1.json
  t24 casual --tokens var/cards1/s2.json --bot --delay 1
  t24 casual --tokens var/cards1/spectator.json
"""


PROMPT = "> "
ERASE_LINE = "\r\x1b[K"  # back to the start of the line and clear it (the prompt line)


class CasualApp:
    """One seat (or a watcher) at a casual table: see the module doc.

    On a terminal (`echo`: the keys come one by one, cbreak mode) the app edits the line
    itself, keeps it on the last line under what it prints, and remembers the view that was
    on screen when the line's first key was typed: Enter sends the line for THAT card or set
    (`parse_line(line, view)`), so a card won by someone else while the player types is
    refused `stale_set` (said in words), never judged on the next card. Piped lines (no
    terminal) are each for the view on screen when the line arrives."""

    def __init__(
        self,
        reactor: Any,
        write: Callable[[str], None],
        bot: bool = False,
        delay: float = 0.3,
        echo: bool = False,
    ) -> None:
        self.reactor = reactor
        self.out = write
        self.bot = bot
        self.delay = delay
        self.echo = echo
        self.link: Any = None
        self.table: str | None = None
        self.game: str | None = None
        self.view: dict[str, Any] | None = None
        self.shown: list[str] = []
        self.typed = ""
        self.line = ""  # the line being typed, on a terminal
        self.line_view: dict[str, Any] | None = None  # the view when its first key came
        self.planned: Any = None
        self.exit_code: int | None = None
        self.message = ""
        self.in_flight = 0
        self.quitting = False
        self.view_seq = 0

    def write(self, text: str) -> None:
        """Print `text` (whole lines); on a terminal the line being typed stays under it."""
        if self.echo:
            self.out(ERASE_LINE + text + PROMPT + self.line)
        else:
            self.out(text)

    @property
    def part(self) -> GamePart:
        return part_for(str(self.game or ""))

    # -- the link's listener ------------------------------------------------------------------

    def link_status(self, status: str) -> None:
        if status == "connecting" and self.link is not None:
            status = COMMON.say("status.connecting_to", url=self.link.url)
        if status != "authenticating":
            self.write(f"· {status}\n")

    def link_welcome(self, welcome: dict[str, Any]) -> None:
        return None

    def link_snapshot(self, snapshot: dict[str, Any], after_seq: int | None = None) -> None:
        self.table, self.game = snapshot["table"], snapshot.get("game")
        self.view_seq = snapshot["seq"]
        if self.game not in casual_parts():
            self.message = (
                f"t24 casual plays {', '.join(casual_parts())}; table {self.table} is {self.game}"
                + (" (t24 play plays it)" if self.game in PART_MODULES else "")
            )
            self.stop(exit_codes.BAD_INPUT)
            return
        self.shown = []
        self.view_changed(snapshot["view"])
        self.keys("")  # lines typed before the join are sent now

    def link_event(self, push: dict[str, Any]) -> None:
        data = push.get("data", {})
        names = self.part.seat_names(self.view or {})
        self.write(f"· {self.part.describe_event(push['event_type'], data, names)}\n")
        # The last push of an append carries the viewer's new view (whole or a patch); the
        # catch-up pushes before the snapshot's seq are history, already in the snapshot.
        if ("view" in push or "patch" in push) and push["seq"] > self.view_seq:
            self.view_seq = push["seq"]
            self.view_changed(apply_view_message(self.view, push))

    def link_fatal(self, code: str, message: str) -> None:
        self.message = message
        self.stop(exit_codes.UNREACHABLE if code == "unreachable" else exit_codes.REFUSED)

    # -- drawing and playing ------------------------------------------------------------------

    def view_changed(self, view: dict[str, Any]) -> None:
        self.view = view
        table_language(view.get("lang"))  # the table's language unless the person chose one
        screen, brain = casual_parts()[str(self.game)]
        lines = screen.render_lines(view, view.get("clock", 0))
        if lines != self.shown:
            self.shown = lines
            self.write("\n".join(lines) + "\n")
        if view.get("phase") == "ended":
            self.stop(exit_codes.OK)
        elif self.bot and view.get("you"):
            self.plan(brain.next_move(view, view["you"]))

    def plan(self, move: tuple[str, dict[str, Any]] | None) -> None:
        if self.planned is not None and self.planned.active():
            self.planned.cancel()
        self.planned = None
        if move is not None:
            self.planned = self.reactor.callLater(self.delay, self.send, *move)

    def send(self, name: str, args: dict[str, Any]) -> None:
        """Send one command; the feed shows what it did, a refusal is said in words."""
        if self.link is None or self.table is None:
            return
        deferred = self.link.request("command", table=self.table, name=name, args=args)
        deferred.addErrback(
            lambda failure: self.write(f"! {refusal_words(failure.value, self.part.words)}\n")
        )
        self.in_flight += 1
        deferred.addBoth(self.replied)

    def replied(self, result: Any) -> Any:
        self.in_flight -= 1
        if self.quitting and not self.in_flight:
            self.stop(exit_codes.OK)
        return result

    def keys(self, text: str) -> None:
        """Typed input: keys one by one on a terminal (`echo`), else whole lines."""
        if self.echo:
            for key in split_keys(text):
                self.key(key)
            return
        self.typed += text
        while self.game in casual_parts() and "\n" in self.typed:
            line, self.typed = self.typed.split("\n", 1)
            self.enter(line, self.view)

    def key(self, key: str) -> None:
        """One key on a terminal: edit the line, Enter sends it for the view on screen when
        its typing began, Ctrl-D on an empty line leaves."""
        if key in ENTER:
            line, view = self.line, self.line_view or self.view
            self.line, self.line_view = "", None
            self.out(ERASE_LINE + PROMPT + line + "\n")
            if self.game in casual_parts():
                self.enter(line, view)
            else:  # typed before the join: kept, sent once the table is known
                self.typed += line + "\n"
            self.out(PROMPT + self.line)
            return
        if key == CTRL_D and not self.line:
            self.quit()
            return
        edited = edit_line(self.line, key)
        if edited is None:
            return  # an arrow or another key that does not edit
        if not self.line and edited:
            self.line_view = self.view  # the first key: the answer is for this card or set
        self.line = edited
        if not edited:
            self.line_view = None
        self.out(ERASE_LINE + PROMPT + self.line)

    def enter(self, line: str, view: dict[str, Any] | None) -> None:
        """A whole line, typed at `view`: quit, or the command it makes."""
        if line.strip().lower() in ("q", "quit"):
            self.quit()
            return
        command = casual_parts()[str(self.game)][0].parse_line(line, view)
        if command is not None:
            self.send(*command)

    def quit(self) -> None:
        self.quitting = True
        if not self.in_flight:
            self.stop(exit_codes.OK)

    def end_of_input(self) -> None:
        if not self.bot:
            if self.echo:
                self.quit()
                return
            self.typed += "\nq\n"  # the last line counts even without its newline
            self.keys("")

    def stop(self, code: int) -> None:
        if self.exit_code is not None:
            return
        self.exit_code = code
        if self.echo:
            self.out(ERASE_LINE)
        if self.planned is not None and self.planned.active():
            self.planned.cancel()
        close_then_stop(self.link, self.reactor)


def run_casual(args: argparse.Namespace, reactor: Any = None) -> int:
    """Run `t24 casual` until the game ends, the user quits, or a fatal refusal."""
    try:
        target = resolve_target(args, "player")
    except ConnectError as error:
        print(error_line("t24 casual", error), file=sys.stderr)
        return exit_codes.BAD_INPUT
    if reactor is None:
        from twisted.internet import reactor
    start_logging(args.log)
    echo = not args.bot and sys.stdin.isatty()
    app = CasualApp(reactor, write_out, bot=args.bot, delay=args.delay, echo=echo)
    app.link = TableLink(
        target.url, target.token, reactor=reactor, listener=app, table=target.table
    )

    def begin() -> None:
        if not args.bot:
            reactor.addReader(StdinReader(app.keys, app.end_of_input))
        app.link.start()

    mode = cbreak(sys.stdin.fileno()) if echo else contextlib.nullcontext()
    with mode:
        run_reactor(reactor, app.stop, begin)
    if app.message:
        print(f"t24 casual: {app.message}", file=sys.stderr)
    return app.exit_code if app.exit_code is not None else exit_codes.INTERRUPTED


def add_parsers(subparsers: argparse._SubParsersAction) -> None:
    """Register `casual`."""
    parser = subparsers.add_parser(
        "casual",
        help="play or watch a casual table (pocket, deck40) in typed lines, or let a bot play "
        "a seat (Tjugoett: t24 play)",
        description="t24 casual: a casual table (docs/games/pocket.md, docs/games/deck40.md) "
        "in plain lines, drawn from the views the server sends.",
        epilog=EPILOG + "\n" + exit_codes.EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_connect_arguments(parser, seat=True)
    parser.add_argument("--bot", action="store_true", help="a bot plays the seat (the solver)")
    parser.add_argument(
        "--delay", type=float, default=0.3, metavar="SECONDS", help="the bot's reaction time"
    )
    parser.add_argument("--log", metavar="FILE", help="append the client's debug log to FILE")
    parser.set_defaults(func=run_casual)
