"""`t24 play`, `t24 proctor`, `t24 watch`: the interactive views of one table.

Each is a `TableApp` (table_app.py) with its own input handler, from the game's part
(games/<game>/: for the 24 Challenge `play_input` for a student's seat, `proctor_input` for
the proctor's command line), nothing but `q` to watch.
On a terminal they draw full screen; with `--plain`, or when stdin/stdout are not
terminals, they print one line per event and read typed lines (scripts, logs).
Networked commands use `protocol/` only, through `connection.TableLink`.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import Any

from clients.reference_cli import exit_codes
from clients.reference_cli.connect_options import (
    ConnectError,
    add_connect_arguments,
    resolve_target,
)
from clients.reference_cli.connection import TableLink
from clients.reference_cli.games import part_for
from clients.reference_cli.games.challenge import play_input, proctor_input
from clients.reference_cli.keyboard import Controls
from clients.reference_cli.render import results_lines
from clients.reference_cli.screen import LiveScreen, make_console
from clients.reference_cli.styling import Style, add_color_argument, color_enabled
from clients.reference_cli.table_app import (
    FullScreen,
    PlainOutput,
    TableApp,
    run_reactor,
    start_logging,
    watch_controls,
)
from clients.reference_cli.terminal import (
    StdinReader,
    cbreak,
    is_terminal,
    write_out,
)
from clients.reference_cli.words import error_line
from protocol.words import FALLBACK

# The game whose keys a view starts with (the help below describes them); the snapshot names
# the table's game and the app switches to that game's keys if it differs.
DEFAULT_GAME = "challenge"
TOKEN_ROLE = {"play": "player", "proctor": "proctor", "watch": "spectator"}
ALLOWED_ROLES: dict[str, tuple[str, ...] | None] = {
    "play": ("player",),
    "proctor": ("proctor", "director"),
    "watch": None,
}

PLAY_EPILOG = f"""\
keys:
  space / t      touch the card (R-PLAY-2); a digit alone never touches
  f, then 1-5    touch with that many fingertips (more than 3 draws a flag, R-PLAY-3)
  then type      the pattern (the last step), e.g. {", ".join(play_input.PATTERN_EXAMPLES)},
                 and Enter (within 3 s of the touch, R-PLAY-4)
  then           three steps, one per line (one operation each, R-PUZ-2), Enter after
                 each; for {" ".join(map(str, play_input.EXAMPLE_CARD))} with the pattern \
{play_input.EXAMPLE_PATTERN} they may be
                 {", then ".join(play_input.EXAMPLE_STEPS)}
  1, 2, 3        once all three are in: retype that step (the new text replaces it;
                 Enter on an empty line keeps it; editable until fixed)
  Enter          fix the solution: it is judged (within 15 s of the touch, R-PLAY-5)
  s              stumped (R-PLAY-7)         q  quit (Ctrl-D too)
  p              protest (R-ROUND-8): ↑ ↓ pick the disputed event in the feed (each line
                 shows its number, #12), type why, Enter files it; or type the numbers
                 first: 12,13 why. PgUp / PgDn scroll the feed.
  Lines typed before the server answers are kept: the steps may follow the pattern at once.

examples:
  t24 play --tokens var/demo-tokens/s1.json
  t24 play --url ws://127.0.0.1:8024/ws --token t24v1.eyJyb2xl...
  T24_URL=ws://127.0.0.1:8024/ws T24_TOKEN=t24v1.eyJyb2xl... t24 play
"""

PROCTOR_EPILOG = (
    "commands typed at the proctor> prompt (Enter sends):\n"
    + "\n".join(proctor_input.help_lines(FALLBACK))  # --help stays English (translating.md)
    + """

examples:
  t24 proctor --tokens var/demo-tokens/proctor.json
  t24 proctor --url ws://127.0.0.1:8024/ws --token t24v1.eyJyb2xl...
  printf 'start\\nplace\\nreveal\\n' | t24 proctor --tokens var/first/proctor.json --plain
"""
)

WATCH_EPILOG = """\
examples:
  t24 watch --tokens var/demo-tokens/spectator.json
  t24 watch --url ws://127.0.0.1:8024/ws --token t24v1.eyJyb2xl... --plain > round.log
"""


def controls_for(kind: str, game: str = DEFAULT_GAME) -> Controls:
    """The input handler of each view, from the game's part (games/); the app takes the
    snapshot's game's own once it knows it (`TableApp._controls_for_game`)."""
    if kind == "watch":
        return watch_controls()
    controls = part_for(game).controls(kind)
    return controls if controls is not None else watch_controls()


def run_view(args: argparse.Namespace, kind: str, reactor: Any = None) -> int:
    """Run one interactive view until the user quits, a fatal refusal, or Ctrl-C."""
    try:
        target = resolve_target(args, TOKEN_ROLE[kind])
    except ConnectError as error:
        print(error_line(f"t24 {kind}", error), file=sys.stderr)
        return exit_codes.BAD_INPUT
    if reactor is None:
        from twisted.internet import reactor
    start_logging(args.log)
    interactive = is_terminal() and not args.plain
    style = Style(color_enabled(args.color, sys.stdout))
    if interactive:
        screen = LiveScreen(make_console(style.color))
        output: FullScreen | PlainOutput = FullScreen(write_out, style, screen=screen)
    else:
        output = PlainOutput(write_out, style)
    app = TableApp(
        reactor=reactor,
        controls=controls_for(kind),
        output=output,
        role=TOKEN_ROLE[kind],
        allowed_roles=ALLOWED_ROLES[kind],
        kind=kind,
    )
    app.link = TableLink(
        target.url,
        target.token,
        reactor=reactor,
        listener=app,
        table=target.table,
        retries=args.retries,
        presence=True,
    )
    reads_input = kind != "watch" or interactive

    def begin() -> None:
        if reads_input:
            reactor.addReader(StdinReader(app.keys, app.end_of_input))
        app.start()

    mode = cbreak(sys.stdin.fileno()) if interactive else contextlib.nullcontext()
    with mode:
        try:
            run_reactor(reactor, app.stop, begin)
        finally:
            output.stop()
    if interactive and app.model is not None and app.model.part.finished(app.model.view):
        # The screen is gone: leave the results on the terminal (a plain view printed them).
        print("\n".join(results_lines(app.model, style)))
    if app.final_message:
        print(f"t24 {kind}: {app.final_message}", file=sys.stderr)
    return app.exit_code if app.exit_code is not None else exit_codes.INTERRUPTED


def _add_view_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--plain",
        action="store_true",
        help="print one line per event and read typed lines (default when not on a terminal)",
    )
    parser.add_argument(
        "--retries",
        type=int,
        metavar="N",
        help="give up (exit 4) after N failed reconnects in a row (default: never give up)",
    )
    parser.add_argument("--log", metavar="FILE", help="append the client's debug log to FILE")
    add_color_argument(parser)


def add_parsers(subparsers: argparse._SubParsersAction) -> None:
    """Register `play`, `proctor` and `watch`."""
    formatter = argparse.RawDescriptionHelpFormatter
    specs = (
        (
            "play",
            "play a seat at a table: the card in large digits, touch, pattern, steps, fix",
            PLAY_EPILOG,
            True,
        ),
        (
            "proctor",
            "run a table: place and reveal cards, record touches and answers, flags, rulings",
            PROCTOR_EPILOG,
            False,
        ),
        ("watch", "the live scoreboard of a table (spectator)", WATCH_EPILOG, False),
    )
    for name, summary, epilog, seat in specs:
        parser = subparsers.add_parser(
            name,
            help=summary,
            description=f"t24 {name}: {summary}. Reconnects by itself after a drop and "
            "resumes from the last event it saw.",
            epilog=epilog + "\n" + exit_codes.EXIT_CODES_HELP,
            formatter_class=formatter,
        )
        add_connect_arguments(parser, seat=seat)
        _add_view_options(parser)
        parser.set_defaults(func=lambda args, kind=name: run_view(args, kind))
