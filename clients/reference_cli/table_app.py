"""The interactive shell shared by `t24 play`, `t24 proctor` and `t24 watch`.

What it keeps: the table model (`table_model`: the view and deadlines the server pushes), the
feed of events in words, the connection status, the last notice, and the typing state of the
view's input handler (the game's part, `games/<game>/`: for the 24 Challenge `play_input`,
`proctor_input`; watching for a game with no keys). It is the `LinkListener` of a
`TableLink`, so pushes, snapshots and reconnects arrive here, and it turns keys into
commands through the handler. The game is the snapshot's: the first snapshot of a game
other than the one the handler was made for brings that game's handler.

How it shows things: `FullScreen` draws the lines of the pure `render.render` with `rich`
(`screen.LiveScreen`: the alternate screen, lines cut with `…`, never spilling into the
next row) whenever the frame changes, checked ten times a second from the reactor so
countdowns move; `PlainOutput` prints one line per event instead (stdout is not a terminal,
or `--plain`), which scripts and logs can read. Both honour NO_COLOR (`styling`).

Time on screen is server time: `ServerClock` estimates the offset between this machine's
clock and the server's from the pushes (the smallest `local arrival - at` of recent pushes),
so the 3 s and 15 s countdowns (R-PLAY-4/5) are right even on a machine whose clock is off.
"""

from __future__ import annotations

import signal
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from twisted.internet.task import LoopingCall

from clients.reference_cli import exit_codes
from clients.reference_cli.connection import close_then_stop, refusal_words
from clients.reference_cli.games import part_for
from clients.reference_cli.keyboard import CTRL_D, Ask, Controls, Notice, Quit, Send, split_keys
from clients.reference_cli.render import Frame, compact, render, results_lines
from clients.reference_cli.styling import Style, strip_ansi
from clients.reference_cli.table_model import (
    FeedLine,
    TableModel,
    apply_push,
    from_snapshot,
)
from clients.reference_cli.words import COMMON, either, role_words, status_words

if TYPE_CHECKING:
    from clients.reference_cli.screen import LiveScreen

FEED_KEEP = 500
REDRAW_SECONDS = 0.1
PAGE_UP, PAGE_DOWN = "\x1b[5~", "\x1b[6~"
ARROW_UP, ARROW_DOWN = ("\x1b[A", "\x1bOA"), ("\x1b[B", "\x1bOB")
PICK_CONTEXT = 2  # newer feed lines kept in sight under the picked one
FEED_PAGE = 10  # feed lines per PgUp / PgDn


class ServerClock:
    """Server time from local time: local minus the smallest recent push delay (see doc)."""

    def __init__(self, window: int = 64) -> None:
        self.delays: deque[int] = deque(maxlen=window)

    def observe(self, server_at_us: int, local_us: int) -> None:
        """A live push recorded at `server_at_us` arrived at `local_us`."""
        self.delays.append(local_us - server_at_us)

    def now_us(self, local_us: int) -> int:
        """The server's clock now, as well as it can be told."""
        return local_us - (min(self.delays) if self.delays else 0)


@dataclass(frozen=True)
class WatchState:
    """Watching has nothing to type: `q` leaves."""

    def prompt(self) -> str:
        return ""

    def keys_help(self, view: Mapping[str, Any] | None) -> str:
        return COMMON.say("keys.watch")


def watch_controls() -> Controls:
    """The spectator's keys: only `q` (and Ctrl-D)."""

    def press(state: WatchState, key: str, view: Any) -> tuple[WatchState, list]:
        return state, [Quit()] if key in ("q", CTRL_D) else []

    return Controls(
        WatchState(),
        press,
        lambda state, tag, error, code=None: (state, []),
        lambda state, view, me: state,
        quit_on_eof=False,
    )


@dataclass
class Output:
    """Where the app shows itself (full screen or plain lines); see the two subclasses."""

    write: Callable[[str], None]
    style: Style = field(default_factory=Style)

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def refresh(self, app: TableApp) -> None: ...

    def feed_line(self, line: FeedLine, live: bool) -> None: ...

    def notice(self, text: str, error: bool) -> None: ...

    def status(self, text: str) -> None: ...

    def snapshot(self, model: TableModel) -> None: ...

    def round_over(self, model: TableModel) -> None:
        """The round ended (the full screen shows the results in place of the card)."""


def _live_screen() -> LiveScreen:
    """The terminal's alternate screen. `rich` is imported here, by the views that draw full
    screen only: `t24 bot`, `t24 admin` and the plain views never load it."""
    from clients.reference_cli.screen import LiveScreen, make_console

    return LiveScreen(make_console(False))


@dataclass
class FullScreen(Output):
    """The alternate screen, drawn by `rich` when the frame changes (`screen.LiveScreen`)."""

    screen: LiveScreen = field(default_factory=_live_screen)

    def start(self) -> None:
        self.screen.start()

    def stop(self) -> None:
        self.screen.stop()

    def refresh(self, app: TableApp) -> None:
        width, height = self.screen.size()
        self.screen.show(render(app.frame(), app.server_now(), width, height, self.style))


@dataclass
class PlainOutput(Output):
    """One printed line per event, notice and status change (scripts, logs, pipes)."""

    last_status: str = ""

    def feed_line(self, line: FeedLine, live: bool) -> None:
        self.write(f"#{line.seq:<4} {line.stamp()}  {line.text}\n")

    def notice(self, text: str, error: bool) -> None:
        mark = "! " if error else ""
        paint = self.style.red if error else (lambda text: text)
        self.write("".join(paint(f"{mark}{part}") + "\n" for part in text.splitlines()))

    def status(self, text: str) -> None:
        if text != self.last_status:
            self.last_status = text
            self.write(self.style.dim(f"-- {status_words(text)}") + "\n")

    def snapshot(self, model: TableModel) -> None:
        self.write("\n".join(strip_ansi(line) for line in compact(model, self.style)) + "\n")

    def round_over(self, model: TableModel) -> None:
        self.write("\n".join(results_lines(model, self.style)) + "\n")


class TableApp:
    """One interactive view of one table (see module doc)."""

    def __init__(
        self,
        *,
        reactor: Any,
        controls: Controls,
        output: Output,
        role: str,
        allowed_roles: tuple[str, ...] | None = None,
        kind: str = "watch",
    ) -> None:
        self.reactor = reactor
        self.controls = controls
        self.kind = kind  # play | proctor | watch: which of the game's handlers to use
        self.output = output
        self.role = role
        self.allowed_roles = allowed_roles
        self.me: str | None = None
        self.model: TableModel | None = None
        self.feed: deque[FeedLine] = deque(maxlen=FEED_KEEP)
        self.status = "connecting"
        self.presence: dict[str, Any] | None = None
        self.feed_back = 0
        self.notice_text = ""
        self.notice_error = False
        self.notice_status = ""  # the link status when the notice was shown
        self.exit_code: int | None = None
        self.final_message = ""
        self.pending_keys = ""
        self.input_ended = False
        self.in_flight = 0
        self.refusals = 0
        self.link: Any = None
        self.clock = ServerClock()
        self._ticker: LoopingCall | None = None

    # -- running -----------------------------------------------------------------------------

    def start(self) -> None:
        """Show the screen and connect (called once the reactor runs)."""
        self.output.start()
        if isinstance(self.output, FullScreen):
            self._ticker = LoopingCall(self.refresh)
            self._ticker.clock = self.reactor
            self._ticker.start(REDRAW_SECONDS, now=True)
        self.link.start()

    def stop(self, code: int) -> None:
        """Leave with `code`: say goodbye to the server, then stop the reactor."""
        if self.exit_code is not None:
            return
        self.exit_code = code
        if self._ticker is not None and self._ticker.running:
            self._ticker.stop()
        close_then_stop(self.link, self.reactor)

    def server_now(self) -> int:
        return self.clock.now_us(int(self.reactor.seconds() * 1_000_000))

    def frame(self) -> Frame:
        """What `render` needs now."""
        view = self.model.view if self.model else None
        state = self.controls.state
        return Frame(
            model=self.model,
            role=self.role,
            me=self.me,
            status=self.status,
            feed=tuple(self.feed),
            notice=self.notice_text,
            notice_is_error=self.notice_error,
            keys=state.keys_help(view),
            prompt=state.prompt(),
            presence=self.presence,
            feed_back=self.feed_back,
            picked=self.controls.picked(state) if self.controls.picking(state) else None,
        )

    def refresh(self) -> None:
        self.output.refresh(self)

    # -- the link ----------------------------------------------------------------------------

    def link_status(self, status: str) -> None:
        self.status = status
        if status == "connected" and self.notice_text and self.notice_status != "connected":
            # Said while the link was down ("not connected ... reconnecting"): stale now.
            self.notice_text, self.notice_error = "", False
        if status != "connected":
            self.presence = None  # who is connected is unknown until the server says again
        self.output.status(status)
        self.refresh()

    def link_presence(self, presence: dict[str, Any]) -> None:
        self.presence = presence
        self.refresh()

    def link_welcome(self, welcome: dict[str, Any]) -> None:
        self.role = welcome.get("role", self.role)
        self.me = welcome.get("seat")
        if self.allowed_roles is not None and self.role not in self.allowed_roles:
            wanted = either([role_words(role) for role in self.allowed_roles])
            role = role_words(str(self.role))
            self.link_fatal("wrong_role", COMMON.say("view.wrong_role", role=role, wanted=wanted))

    def link_snapshot(self, snapshot: dict[str, Any], after_seq: int | None = None) -> None:
        self.model = from_snapshot(snapshot, self.model, after_seq)
        self._controls_for_game(self.model.game)
        self.output.snapshot(self.model)
        self._reconcile()
        self.refresh()
        if self.pending_keys:
            typed, self.pending_keys = self.pending_keys, ""
            self.keys(typed)
        self._maybe_finish()

    def link_event(self, push: dict[str, Any]) -> None:
        if self.model is None:
            return
        live = push["seq"] > self.model.seq
        if live:
            self.clock.observe(push.get("at", 0), int(self.reactor.seconds() * 1_000_000))
        self.model, line = apply_push(self.model, push)
        self.feed.append(line)
        if self.feed_back:
            self.feed_back += 1  # a scrolled-back feed stays where the reader is
        self.output.feed_line(line, live)
        model = self.model
        if line.seq == model.seq and model.part.finished(model.view):  # the game's last event
            self.output.round_over(model)
        self._reconcile()
        self.refresh()

    def _controls_for_game(self, game: str) -> None:
        """The game's own keys, when the handler was made for another game (or for none:
        the game's part has no keys for this view, so it watches)."""
        if self.kind == "watch" or self.controls.game == game:
            return
        controls = part_for(game).controls(self.kind)
        self.controls = controls if controls is not None else watch_controls()

    def link_fatal(self, code: str, message: str) -> None:
        """A refusal no retry cures: leave; the message is printed once the screen is left."""
        self.final_message = message
        exit_code = exit_codes.UNREACHABLE if code == "unreachable" else exit_codes.REFUSED
        self.stop(exit_code)

    # -- keys --------------------------------------------------------------------------------

    def keys(self, text: str) -> None:
        """Typed input (already decoded); each key goes through the input handler.

        Keys typed before the table is joined wait for it (a script may type ahead), except
        a lone `q` or Ctrl-D, which leave at once."""
        if self.model is None:
            if text.strip() in ("q", CTRL_D) and not self.pending_keys:
                self.stop(exit_codes.OK)
            else:
                self.pending_keys += text
            return
        for key in split_keys(text):
            if self.exit_code is not None:
                return
            if key in (PAGE_UP, PAGE_DOWN):  # scroll the feed, whatever is being typed
                step = FEED_PAGE if key == PAGE_UP else -FEED_PAGE
                self.feed_back = max(0, min(len(self.feed) - 1, self.feed_back + step))
                continue
            if key in ARROW_UP + ARROW_DOWN and self.controls.picking(self.controls.state):
                self.move_pick(-1 if key in ARROW_UP else 1)
                continue
            view = self.model.view if self.model else None
            self.controls.state, effects = self.controls.press(self.controls.state, key, view)
            self.run_effects(effects)
        self.refresh()

    def move_pick(self, step: int) -> None:
        """Move the feed's picked event one older (-1) or newer (+1); past the newest, none
        is picked. The feed scrolls to keep the pick in sight."""
        seqs = [line.seq for line in self.feed]
        current = self.controls.picked(self.controls.state)
        index = seqs.index(current) if current in seqs else len(seqs)
        index = max(0, min(len(seqs), index + step))
        seq = seqs[index] if index < len(seqs) else None
        self.controls.state = self.controls.pick(self.controls.state, seq)
        self.feed_back = max(0, len(seqs) - 1 - index - PICK_CONTEXT) if seq is not None else 0

    def end_of_input(self) -> None:
        """Standard input closed (a script ran out): leave once every typed command has its
        reply, unless the view only watches. Exit 1 if the server refused any of them."""
        if self.controls.quit_on_eof:
            self.input_ended = True
            self._maybe_finish()

    def _maybe_finish(self) -> None:
        if self.input_ended and self.model is not None and not self.pending_keys:
            if self.in_flight == 0:
                self.stop(exit_codes.NEGATIVE if self.refusals else exit_codes.OK)

    def run_effects(self, effects: list) -> None:
        for effect in effects:
            if isinstance(effect, Quit):
                self.stop(exit_codes.OK)
            elif isinstance(effect, Notice):
                self.show_notice(effect.text, effect.error)
            elif isinstance(effect, Send):
                self.send(effect)
            elif isinstance(effect, Ask):
                self.ask(effect)

    def send(self, effect: Send) -> None:
        if self.link is None:
            return
        self.show_notice("")
        self.in_flight += 1
        deferred = self.link.command(effect.name, dict(effect.args))

        def accepted(reply: dict[str, Any]) -> None:
            self._replied(effect.tag, None, None)

        def refused(failure: Any) -> None:
            error = failure.value
            self._replied(effect.tag, self.refusal_words(error), getattr(error, "code", None))

        deferred.addCallbacks(accepted, refused)

    def ask(self, effect: Ask) -> None:
        """A query (R-ROUND-8's preview): the answer is shown as a notice, nothing is recorded.
        It counts as a request in flight, so a scripted proctor waits for the answer."""
        if self.link is None:
            return
        self.in_flight += 1
        deferred = self.link.request(
            "query", table=self.link.table, name=effect.name, args=dict(effect.args)
        )

        def answered(reply: dict[str, Any]) -> None:
            part = part_for(self.model.game) if self.model is not None else part_for("")
            names = part.seat_names(self.model.view) if self.model is not None else {}
            self.show_notice(part.describe_answer(effect.name, reply.get("result", {}), names))
            self._replied(effect.tag, None, None)

        def refused(failure: Any) -> None:
            error = failure.value
            self._replied(effect.tag, self.refusal_words(error), getattr(error, "code", None))

        deferred.addCallbacks(answered, refused)

    def refusal_words(self, error: BaseException) -> str:
        """A refused request in the table's game's words (its part's table)."""
        words = self.model.part.words if self.model is not None else None
        return refusal_words(error, words)

    def _replied(self, tag: str, error: str | None, code: str | None) -> None:
        self.in_flight -= 1
        self.refusals += error is not None
        state, effects = self.controls.replied(self.controls.state, tag, error, code)
        self.controls.state = state
        self.run_effects(effects)
        self._reconcile()
        self.refresh()
        self._maybe_finish()

    def show_notice(self, text: str, error: bool = False) -> None:
        self.notice_text, self.notice_error = text, error
        self.notice_status = self.status
        if text:
            self.output.notice(text, error)

    def _reconcile(self) -> None:
        view = self.model.view if self.model else None
        before = self.controls.state
        after = self.controls.reconcile(before, view, self.me)
        self.controls.state = after
        if self.controls.lost_notice is not None and view is not None:
            why = self.controls.lost_notice(before, after, view)
            if why:
                self.show_notice(why)


def start_logging(path: str | None) -> None:
    """Twisted's and Autobahn's log go to `path`, or nowhere (never onto the screen)."""
    from twisted.logger import globalLogBeginner, textFileLogObserver

    observers = [textFileLogObserver(open(path, "a"))] if path else []  # noqa: SIM115
    globalLogBeginner.beginLoggingTo(observers, redirectStandardIO=False)


def run_reactor(reactor: Any, stop: Callable[[int], None], begin: Callable[[], None]) -> None:
    """Run the reactor until `stop(code)` stops it; Ctrl-C and SIGTERM go through `stop` too.

    Why our own handlers: Twisted's would stop the reactor under the app, which would then
    report a dropped connection and exit with no code; ours say goodbye to the server
    (close 1000) and exit 130 or 143.
    """

    def started() -> None:
        for signum, code in (
            (signal.SIGINT, exit_codes.INTERRUPTED),
            (signal.SIGTERM, exit_codes.TERMINATED),
        ):
            signal.signal(signum, lambda *_args, code=code: reactor.callFromThread(stop, code))
        begin()

    reactor.callWhenRunning(started)
    reactor.run()
