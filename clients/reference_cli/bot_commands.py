"""`t24 bot`: a seat played by a program (`perfect`, `human` or `random`).

The driver (this module, the same for every game) is a `LinkListener`: it keeps the table
model current from the snapshot and the view pushes, and whenever the game's bot brain
(the part's `bot`, games/<game>/: for the 24 Challenge games/challenge/bot.py) says the
situation changed (phase, card, toucher, pause) it cancels what it had planned and
schedules the new plan on the reactor. Each move is an ordinary `command` of the
player's own token, so the server judges it exactly as a person's (R-PLAY-2: arrival order
decides who touched first). It prints the table's events and its own moves, one per line,
and exits 0 when the round ends. Used by `make run` demos, tests and load benchmarks.

Several `--seat`s of a tokens file: one `BotApp` per seat in the one process (one reactor,
a link each), each line prefixed with its seat as given; the process exits when every
seat's round is over, 0 only if each bot's code is 0. Why: a test or a demo that fills a
round's seats starts one process, not one per seat (each costs about half a second of CPU).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Mapping
from typing import Any

from clients.reference_cli import exit_codes
from clients.reference_cli.connect_options import (
    ConnectError,
    Target,
    add_connect_arguments,
    resolve_target,
)
from clients.reference_cli.connection import TableLink, close_then_stop, refusal_words
from clients.reference_cli.games.challenge.bot import SKILLS
from clients.reference_cli.styling import Style, add_color_argument, color_enabled
from clients.reference_cli.table_app import PlainOutput, run_reactor, start_logging
from clients.reference_cli.table_model import TableModel, apply_push, from_snapshot
from clients.reference_cli.terminal import write_out
from clients.reference_cli.words import COMMON, command_words, error_line, role_words

EPILOG = """\
skills:
  perfect  touches at once and always answers right (the solver's simplest solution)
  human    waits as long as people need for the card (difficulty model), sometimes errs
  random   touches at random with 1-5 fingertips and answers nonsense: flags on purpose

examples:
  t24 bot --tokens var/demo-tokens/s3.json --skill human
  t24 bot --url ws://127.0.0.1:8024/ws --token t24v1.eyJyb2xl... --skill perfect --seed 7
  t24 bot --tokens var/first/s4.json --skill perfect --time-scale 0.2
  t24 bot --tokens var/first --seat s3 --seat s4 --skill human   (two seats, one process)
"""


class BotApp:
    """One bot at one seat (see module doc)."""

    def __init__(
        self,
        *,
        reactor: Any,
        skill: str,
        rng: random.Random,
        time_scale: float,
        output: PlainOutput,
        closed: Callable[[], None] | None = None,
    ) -> None:
        self.reactor = reactor
        self.closed = closed  # called once its link is closed; None: stop the reactor
        self.skill = skill
        self.rng = rng
        self.time_scale = time_scale
        self.output = output
        self.link: Any = None
        self.me: str | None = None
        self.model: TableModel | None = None
        self.key: tuple | None = None
        self.timers: list[Any] = []
        self.exit_code: int | None = None
        self.final_message = ""

    # -- the link ----------------------------------------------------------------------------

    def link_status(self, status: str) -> None:
        self.output.status(status)

    def link_welcome(self, welcome: dict[str, Any]) -> None:
        self.me = welcome.get("seat")
        if welcome.get("role") != "player" or not self.me:
            role = role_words(str(welcome.get("role")))
            self.link_fatal("wrong_role", COMMON.say("bot.needs_player", role=role))

    def link_snapshot(self, snapshot: dict[str, Any], after_seq: int | None = None) -> None:
        self.model = from_snapshot(snapshot, self.model, after_seq)
        self.key = None
        self.situation_changed()

    def link_event(self, push: dict[str, Any]) -> None:
        if self.model is None:
            return
        live = push["seq"] > self.model.seq
        self.model, line = apply_push(self.model, push)
        self.output.feed_line(line, live)
        if live:  # the append's last event moved the view: replan if the situation changed
            self.situation_changed()

    def link_fatal(self, code: str, message: str) -> None:
        self.final_message = message
        self.stop(exit_codes.UNREACHABLE if code == "unreachable" else exit_codes.REFUSED)

    # -- playing -----------------------------------------------------------------------------

    def situation_changed(self) -> None:
        """Replan when what matters changed; leave when the round is over."""
        if self.model is None or self.me is None or self.exit_code is not None:
            return
        model, part = self.model, self.model.part
        view = model.view
        if part.finished(view):
            who = model.seat_names().get(self.me, self.me)
            self.output.notice(COMMON.say("bot.round_over", who=who), False)
            self.stop(exit_codes.OK)
            return
        refusal = part.bot_refusal(view)
        if part.bot is None or refusal is not None:
            why = refusal or COMMON.say("bot.cannot_play", game=model.game)
            self.link_fatal("unplayable", why)
            return
        key, actions = part.bot(
            view,
            self.me,
            model.deadlines,
            model.server_time,
            self.skill,
            self.rng,
            self.time_scale,
        )
        if key == self.key:
            return
        self.cancel()
        self.key = key
        for action in actions:
            self.timers.append(self.reactor.callLater(action.delay, self.act, action, self.key))

    def cancel(self) -> None:
        for timer in self.timers:
            if timer.active():
                timer.cancel()
        self.timers = []

    def act(self, action: Any, key: Any) -> None:
        """Send one planned move, unless the table moved on since it was planned."""
        if key != self.key or self.link is None or self.exit_code is not None:
            return
        table = self.model.part.words if self.model is not None else {}
        who = self.model.seat_names().get(self.me, self.me) if self.model is not None else self.me
        move = command_words(table, action.name)
        self.output.notice(COMMON.say("bot.move", who=who, move=move, why=action.why), False)
        deferred = self.link.command(action.name, dict(action.args))

        def refused(failure: Any) -> None:
            words = refusal_words(failure.value, table)
            self.output.notice(COMMON.say("bot.move_refused", who=who, move=move, why=words), True)

        deferred.addErrback(refused)

    def stop(self, code: int) -> None:
        if self.exit_code is not None:
            return
        self.exit_code = code
        self.cancel()
        if self.closed is None:
            close_then_stop(self.link, self.reactor)
        elif self.link is None:
            self.closed()
        else:
            closed = self.closed
            self.link.close().addBoth(lambda _: closed())


def prefixed(prefix: str) -> Callable[[str], None]:
    """`write_out` with `prefix` before each line: whose line it is, when several bots share
    the process's output."""

    def write(text: str) -> None:
        write_out("".join(f"{prefix}{line}\n" for line in text.splitlines()))

    return write


def bot_targets(args: argparse.Namespace, environ: Mapping[str, str] | None = None) -> list[Target]:
    """Where each bot connects: one `Target` per `--seat` (none given: the one seat of the
    token or file). Several seats must name different seats of a tokens file: a `--token`
    (or T24_TOKEN) is one seat's, so it would give every bot the same seat."""
    seats = args.seat or [None]
    targets: list[Target] = [
        resolve_target(argparse.Namespace(**{**vars(args), "seat": seat}), "player", environ)
        for seat in seats
    ]
    if len({target.token for target in targets}) < len(targets):
        raise ConnectError(COMMON.say("bot.seats_need_file"))
    return targets


def run_bot(args: argparse.Namespace, reactor: Any = None) -> int:
    """Play each seat until its round ends (exit 0), a fatal refusal (3/4) or Ctrl-C (130)."""
    try:
        targets = bot_targets(args)
    except ConnectError as error:
        print(error_line("t24 bot", error), file=sys.stderr)
        return exit_codes.BAD_INPUT
    if args.time_scale <= 0:
        print(error_line("t24 bot", COMMON.say("bot.time_scale")), file=sys.stderr)
        return exit_codes.BAD_INPUT
    if reactor is None:
        from twisted.internet import reactor
    start_logging(args.log)
    style = Style(color_enabled(args.color, sys.stdout))
    apps: list[BotApp] = []
    links_closed = 0

    def closed() -> None:  # the last bot's link is closed: the process is done
        nonlocal links_closed
        links_closed += 1
        if links_closed == len(apps) and reactor.running:
            reactor.stop()

    for index, target in enumerate(targets):
        write = write_out if len(targets) == 1 else prefixed(f"[{args.seat[index]}] ")
        app = BotApp(
            reactor=reactor,
            skill=args.skill,
            rng=random.Random(None if args.seed is None else args.seed + index),
            time_scale=args.time_scale,
            output=PlainOutput(write, style),
            closed=closed,
        )
        app.link = TableLink(
            target.url,
            target.token,
            reactor=reactor,
            listener=app,
            table=target.table,
            retries=args.retries,
        )
        apps.append(app)

    def stop_all(code: int) -> None:
        for app in apps:
            app.stop(code)

    def start_all() -> None:
        for app in apps:
            app.link.start()

    run_reactor(reactor, stop_all, start_all)
    for app in apps:
        if app.final_message:
            print(f"t24 bot: {app.final_message}", file=sys.stderr)
    codes = [app.exit_code for app in apps]
    if None in codes:
        return exit_codes.INTERRUPTED
    return next((code for code in codes if code != exit_codes.OK), exit_codes.OK)


def add_parsers(subparsers: argparse._SubParsersAction) -> None:
    """Register `bot`."""
    parser = subparsers.add_parser(
        "bot",
        help="play a seat automatically (perfect, human or random)",
        description="t24 bot: play a seat of a networked table automatically until the round "
        "ends. Reconnects by itself and resumes from the last event it saw.",
        epilog=EPILOG + "\n" + exit_codes.EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_connect_arguments(parser, seat=True, seats=True)
    parser.add_argument("--skill", choices=SKILLS, default="human", help="default: human")
    parser.add_argument(
        "--seed",
        type=int,
        help="seed of the bot's choices (default: random); the next --seat's is N+1, and so on",
    )
    parser.add_argument(
        "--time-scale",
        type=float,
        default=1.0,
        metavar="X",
        help="multiply every wait by X (0.1: ten times faster; answers stay in the windows)",
    )
    parser.add_argument(
        "--retries", type=int, metavar="N", help="give up (exit 4) after N failed reconnects"
    )
    parser.add_argument("--log", metavar="FILE", help="append the client's debug log to FILE")
    add_color_argument(parser)
    parser.set_defaults(func=run_bot)
