"""The interactive shell, the bot driver, the admin and replay commands, without a server.

A fake link records the commands the shell sends and lets the test answer them; the table
pushes are produced by the real game (challenge_tables) and redacted for the viewer, so the
shell sees exactly what a server would send. End-to-end runs are in tests/e2e/test_cli_*.py.
"""

from __future__ import annotations

import ast
import json
import os
import random
import stat
from argparse import Namespace
from pathlib import Path

import pytest
from challenge_tables import ANSWERS, PROCTOR, SPECTATOR, T0, S, Table, player
from shell_testcase import ShellTestCase
from twisted.internet.defer import Deferred, fail, succeed
from twisted.internet.task import Clock

from clients.reference_cli import admin_commands, cli, exit_codes, replay_commands
from clients.reference_cli.bot_commands import BotApp, bot_targets
from clients.reference_cli.connect_options import ConnectError, resolve_target
from clients.reference_cli.connection import ServerRefused
from clients.reference_cli.games.challenge.play_input import PlayInput
from clients.reference_cli.render import render
from clients.reference_cli.screen import LiveScreen, make_console
from clients.reference_cli.styling import strip_ansi
from clients.reference_cli.table_app import (
    FullScreen,
    PlainOutput,
    ServerClock,
    TableApp,
    watch_controls,
)
from clients.reference_cli.table_commands import controls_for
from protocol.token_files import person_files, write_token_files
from protocol.views import view_change
from server.eventlog.backends import open_blocking_store
from server.eventlog.envelope import NewEvent
from server.games import challenge
from server.games.base import Event

ROOT = Path(__file__).resolve().parents[2]


class FakeReactor(Clock):
    running = True

    def stop(self):
        self.running = False


class FakeLink:
    def __init__(self):
        self.sent: list[tuple[str, dict, Deferred]] = []
        self.closed = False
        self.started = False

    def start(self):
        self.started = True

    def command(self, name, args=None):
        deferred = Deferred()
        self.sent.append((name, args or {}, deferred))
        return deferred

    def close(self):
        self.closed = True
        return succeed(None)


class Feed:
    """A table run by the real game, pushed to one viewer like the server does: the events,
    then the view change and the live deadlines (server/runtime/views.py)."""

    def __init__(self, table: Table, viewer):
        self.table, self.viewer, self.pushed = table, viewer, 0
        self.events = [
            Event("TableCreated", {"game": "challenge", "options": table.raw_options, "at": T0}),
            *table.events,
        ]
        self.held = None
        self.seen = 0  # the seq the client's view is at (snapshot or last append)

    def deadlines(self):
        return [
            {"key": d.key, "command": d.command.name, "at": d.at}
            for d in challenge.deadlines(self.table.state)
        ]

    def snapshot(self):
        self.held = challenge.view(self.table.state, self.viewer)
        self.seen = len(self.events)
        return {
            "type": "snapshot",
            "id": 2,
            "table": "t1",
            "game": "challenge",
            "seq": len(self.events),
            "view": self.held,
            "deadlines": self.deadlines(),
            "server_time": self.table.now,
        }

    def view_fields(self):
        """What the last event push of an append carries: the view change, the deadlines."""
        view = challenge.view(self.table.state, self.viewer)
        body = view_change(self.held, view)
        self.held = view
        return {**body, "deadlines": self.deadlines()}

    def send_all(self, app, start=0):
        """Push events `start + 1 ..` as one append (the last one carries the view)."""
        for seq, event in enumerate(self.events[start:], start=start + 1):
            seen = challenge.event_view(event, self.viewer)
            push = {
                "type": "event",
                "table": "t1",
                "seq": seq,
                "event_type": seen.type,
                "data": dict(seen.data),
                "at": seen.data.get("at", T0),
            }
            if seq == len(self.events) and seq > self.seen:  # a live append, not history
                push.update(self.view_fields())
            app.link_event(push)
        self.pushed = self.seen = len(self.events)

    def catch_up(self, app):
        """New events of `table` since the last call, pushed in order."""
        self.events = [self.events[0], *self.table.events]
        self.send_all(app, start=self.pushed)


def make_app(kind="play", output=None, allowed=("player",)):
    reactor, link, lines = FakeReactor(), FakeLink(), []
    app = TableApp(
        reactor=reactor,
        controls=controls_for(kind),
        output=output or PlainOutput(lines.append),
        role="player",
        allowed_roles=allowed,
    )
    app.link = link
    return app, link, lines, reactor


def welcome(app, seat="s1", role="player"):
    app.link_welcome({"type": "welcome", "role": role, "seat": seat, "table": "t1"})


class ShellPlayTests(ShellTestCase):
    def test_a_player_plays_a_card_through_the_shell(self):
        table = Table.started()
        app, link, lines, _reactor = make_app()
        app.keys("t")  # typed before the join: kept until the table is known
        welcome(app)
        feed = Feed(table, player("s1"))
        app.link_snapshot(feed.snapshot(), 0)
        feed.send_all(app)
        assert link.sent == []  # "t" with no card in play: not a touch
        assert "there is no card to touch" in "".join(lines)
        table.next_card()
        feed.catch_up(app)
        assert "card c1 (play 1) revealed: 1 1 1 8" in "".join(lines)
        app.keys(" ")
        name, args, reply = link.sent[-1]
        assert (name, args) == ("touch_card", {"fingertips": 1})
        table.do("touch_card", player("s1"))
        feed.catch_up(app)
        reply.callback({"type": "accepted"})
        _numbers, _dots, pattern, steps = ANSWERS["c1"]
        app.keys(pattern + "\r")
        assert link.sent[-1][:2] == ("declare_pattern", {"pattern": pattern})
        table.do("declare_pattern", player("s1"), pattern=pattern)
        feed.catch_up(app)
        link.sent[-1][2].callback({"type": "accepted"})
        app.keys("\r".join(steps) + "\r")
        app.keys("\r")
        assert link.sent[-1][:2] == ("fix_solution", {"steps": steps})
        table.do("fix_solution", player("s1"), steps=steps)
        feed.catch_up(app)
        link.sent[-1][2].callback({"type": "accepted"})
        assert "Ada won card c1 (play 1) (+1 point)" in "".join(lines)
        assert app.model.view["scores"]["s1"] == 1
        assert app.controls.state.mode == "idle"
        # A refusal is shown in words, never as a traceback.
        table.next_card()
        feed.catch_up(app)
        app.keys("s")
        link.sent[-1][2].errback(ServerRefused("table_paused", "the table is paused"))
        assert "stumped refused: the table is paused" in "".join(lines)
        app.keys("q")
        assert app.exit_code == exit_codes.OK and link.closed

    def test_a_protest_picks_the_disputed_event_from_the_numbered_feed(self):
        """Issue 27 (R-ROUND-8): every feed line shows its number; on the protest line ↑ and
        ↓ pick an event (marked ▶ on the screen), and Enter files the protest against it."""
        table = Table.started()
        table.next_card()
        app, link, _lines, _reactor = make_app()
        welcome(app)
        feed = Feed(table, player("s1"))
        app.link_snapshot(feed.snapshot(), 0)
        feed.send_all(app)
        seqs = [line.seq for line in app.feed]
        screen = render(app.frame(), T0, 100, 40)
        assert any(f"#{seqs[-1]}" in line and "revealed" in line for line in screen)
        app.keys("p")
        assert app.frame().picked is None and "↑ ↓ pick" in app.frame().keys
        app.keys("\x1b[A\x1b[A\x1b[A\x1b[B")  # three older, one newer: the second newest
        assert app.frame().picked == seqs[-2] and app.frame().prompt == f"protest #{seqs[-2]}> ▌"
        marked = [line for line in render(app.frame(), T0, 100, 40) if line.startswith("▶ #")]
        assert len(marked) == 1 and f"#{seqs[-2]}" in marked[0]
        app.keys("I was not ready\r")
        assert link.sent[-1][:2] == (
            "file_protest",
            {"seqs": [seqs[-2]], "reason": "I was not ready"},
        )
        assert app.controls.state.mode == "idle" and app.frame().picked is None

    def test_losing_the_race_says_who_was_first(self):
        table = Table.started()
        table.next_card()
        app, link, lines, _ = make_app()
        welcome(app)
        feed = Feed(table, player("s1"))
        app.link_snapshot(feed.snapshot(), 0)
        feed.send_all(app)
        app.keys(" 3")
        table.do("touch_card", player("s2"))
        table.do("touch_card", player("s1"))
        feed.catch_up(app)
        assert "Bo touched first (R-PLAY-2)" in "".join(lines)
        assert app.controls.state.mode == "idle"

    def test_the_proctor_shell_and_the_watcher(self):
        table = Table.started(mode="proctored")
        app, link, lines, _ = make_app("proctor", allowed=("proctor", "director"))
        welcome(app, seat=None, role="proctor")
        feed = Feed(table, PROCTOR)
        app.link_snapshot(feed.snapshot(), 0)
        app.keys("place\rtouch 2 5\rflag 2 nonsense\r")
        assert [entry[:2] for entry in link.sent] == [
            ("place_card", {}),
            ("touch_card", {"seat": "s2", "fingertips": 5}),
        ]
        assert "a flag needs one cause" in "".join(lines)
        watcher, _link, _lines, _ = make_app("watch", allowed=None)
        welcome(watcher, seat=None, role="spectator")
        watcher.end_of_input()  # stdin closing does not stop a watcher
        assert watcher.exit_code is None
        watcher.keys("x")
        assert watcher.exit_code is None and watch_controls().state.prompt() == ""
        app.end_of_input()  # ...but ends a scripted proctor, once its replies are in
        assert app.exit_code is None
        link.sent[0][2].callback({"type": "accepted"})
        assert app.exit_code is None
        link.sent[1][2].errback(ServerRefused("round_not_started", "not started"))
        assert app.exit_code == exit_codes.NEGATIVE  # a refusal: a script can tell

    def test_a_script_typed_before_the_join_runs_then_ends(self):
        table = Table.started()
        app, link, _lines, _ = make_app("proctor", allowed=("proctor", "director"))
        app.keys("place\n")
        app.end_of_input()
        assert app.exit_code is None and link.sent == []
        welcome(app, seat=None, role="proctor")
        app.link_snapshot(Feed(table, PROCTOR).snapshot(), 0)
        assert [entry[0] for entry in link.sent] == ["place_card"]
        link.sent[0][2].callback({"type": "accepted"})
        assert app.exit_code == exit_codes.OK

    def test_a_wrong_role_or_a_fatal_refusal_ends_with_code_3_and_words(self):
        app, link, _lines, _ = make_app("proctor", allowed=("proctor", "director"))
        welcome(app, role="player")
        assert app.exit_code == exit_codes.REFUSED
        assert app.final_message == "this is a player token; this view needs proctor or director"
        app, link, _lines, _ = make_app()
        app.link_fatal("unreachable", "ws://x: cannot connect")
        assert app.exit_code == exit_codes.UNREACHABLE
        app.keys("q")  # nothing more happens once stopped
        assert link.sent == []

    def test_a_lone_q_before_the_join_leaves(self):
        app, _link, _lines, _ = make_app()
        app.keys("q")
        assert app.exit_code == exit_codes.OK


class Written(list):
    """What a console wrote: one entry per write (rich writes a redraw at once)."""

    def write(self, text: str) -> int:
        self.append(text)
        return len(text)

    def flush(self) -> None:
        return None

    def __bool__(self) -> bool:  # rich takes a false `file` for "use sys.stdout"
        return True


def full_screen(width: int = 80, height: int = 30) -> tuple[FullScreen, Written]:
    """A full screen drawn by rich into a list instead of a terminal."""
    written = Written()
    console = make_console(False, written, width=width, height=height)
    return FullScreen(written.append, screen=LiveScreen(console)), written


class FullScreenTests(ShellTestCase):
    def test_full_screen_redraws_only_when_the_frame_changes(self):
        table = Table.started()
        screen, written = full_screen()
        app, _link, _lines, reactor = make_app(output=screen)
        reactor.advance(T0 / 1e6 - reactor.seconds())
        app.start()
        assert written[0].startswith("\x1b[?1049h")
        welcome(app)
        feed = Feed(table, player("s1"))
        app.link_snapshot(feed.snapshot(), 0)
        count = len(written)
        app.refresh()
        app.refresh()
        assert len(written) == count  # nothing changed
        app.keys("t")  # a notice: the frame changes
        assert len(written) == count + 1 and "there is no card to touch" in written[-1]
        screen.screen.console.size = (100, 30)
        app.refresh()
        assert len(written) == count + 2  # a resize redraws, at the new width
        assert "─" * 100 in written[-1] and "─" * 101 not in written[-1]
        screen.stop()
        assert written[-1].endswith("\x1b[?1049l")
        app.stop(exit_codes.OK)
        assert not reactor.running

    def test_the_server_clock_corrects_a_wrong_local_clock(self):
        clock = ServerClock()
        assert clock.now_us(1_000) == 1_000
        clock.observe(server_at_us=10_000_000, local_us=15_003_000)  # local is 5 s ahead
        clock.observe(server_at_us=11_000_000, local_us=16_001_000)
        assert clock.now_us(20_000_000) == 15_000_000 - 1_000


# -- the bot driver ----------------------------------------------------------------------------


def a_bot(skill="perfect", reactor=None, write=lambda text: None, closed=None) -> BotApp:
    """A bot of seed 1 at human pace on a `FakeLink`, its lines to `write`."""
    bot = BotApp(
        reactor=reactor or FakeReactor(),
        skill=skill,
        rng=random.Random(1),
        time_scale=1.0,
        output=PlainOutput(write),
        closed=closed,
    )
    bot.link = FakeLink()
    return bot


class TheBotDriverTests(ShellTestCase):
    def test_the_bot_plans_on_each_change_and_leaves_at_the_round_end(self):
        table = Table.started(cards=["c1"])
        reactor, lines = FakeReactor(), []
        bot = a_bot(reactor=reactor, write=lines.append)
        link = bot.link
        bot.link_welcome({"role": "player", "seat": "s2"})
        feed = Feed(table, player("s2"))
        bot.link_snapshot(feed.snapshot(), 0)
        feed.send_all(bot)
        table.next_card()
        feed.catch_up(bot)
        reactor.advance(0.2)
        assert link.sent[-1][:2] == ("touch_card", {"fingertips": 1})
        table.do("touch_card", player("s2"))
        feed.catch_up(bot)
        reactor.advance(1)
        assert [entry[0] for entry in link.sent] == [
            "touch_card",
            "declare_pattern",
            "state_steps",
            "fix_solution",
        ]
        link.sent[-1][2].errback(ServerRefused("too_late", "too late", "R-PLAY-5"))
        assert (
            "Bo: fix solution refused: too late: the time for this answer ran out (R-PLAY-5)"
            in "".join(lines)
        )
        table.do("end_round")
        feed.catch_up(bot)
        assert bot.exit_code == exit_codes.OK and link.closed

    def test_a_bot_drops_its_plan_when_the_table_moves_on(self):
        table = Table.started()
        table.next_card()
        reactor = FakeReactor()
        bot = a_bot(reactor=reactor)
        link = bot.link
        bot.link_welcome({"role": "player", "seat": "s2"})
        feed = Feed(table, player("s2"))
        bot.link_snapshot(feed.snapshot(), 0)
        table.do("touch_card", player("s1"))  # someone else is faster
        feed.catch_up(bot)
        reactor.advance(1)
        assert link.sent == []

    def test_a_bot_refuses_other_roles_and_proctored_tables(self):
        bot = a_bot("human")
        bot.link_welcome({"role": "proctor", "seat": None})
        assert bot.exit_code == exit_codes.REFUSED and "player token" in bot.final_message
        bot = a_bot("human")
        bot.link_welcome({"role": "player", "seat": "s1"})
        bot.link_snapshot(Feed(Table.started(mode="proctored"), player("s1")).snapshot(), 0)
        assert bot.exit_code == exit_codes.REFUSED and "proctored" in bot.final_message

    def test_each_seat_named_gets_a_bot_and_a_bot_that_stops_tells_its_process(self):
        """`t24 bot --tokens DIR --seat s1 --seat bo`: a target per seat, in order; several
        seats from one token are refused (every bot would play the same seat)."""
        directory = self.tmp_path / "first"
        seats = [{"seat": "s1", "name": "Ada", "token": "T1"}, {"seat": "s2", "name": "Bo"}]
        seats[1]["token"] = "T2"
        write_token_files(directory, person_files("ws://h:1/ws", "first", "P", "S", seats))
        parsed = cli.build_parser().parse_args(
            ["bot", "--tokens", str(directory), "--seat", "s1", "--seat", "bo"]
        )
        assert parsed.seat == ["s1", "bo"]
        targets = bot_targets(parsed, {})
        assert [(t.token, t.table) for t in targets] == [("T1", "first"), ("T2", "first")]
        assert [t.token for t in bot_targets(args(tokens=str(directory / "s2.json")), {})] == ["T2"]
        twice = [  # one token for two seats; the same seat named twice
            (["--url", "ws://h:1/ws", "--seat", "s1", "--seat", "s2"], {"T24_TOKEN": "T9"}),
            (["--tokens", str(directory), "--seat", "s1", "--seat", "ada"], {}),
        ]
        for flags, environ in twice:
            with pytest.raises(ConnectError, match="tokens file"):
                bot_targets(cli.build_parser().parse_args(["bot", *flags]), environ)
        closed: list[str] = []
        bot = a_bot(closed=lambda: closed.append("closed"))
        bot.stop(exit_codes.OK)
        assert closed == ["closed"] and bot.link.closed


# -- where to connect --------------------------------------------------------------------------


def args(**values):
    base = {"url": None, "token": None, "tokens": None, "table": None, "seat": None}
    return Namespace(**{**base, **values})


class WhereToConnectTests(ShellTestCase):
    def test_flags_then_environment_then_the_tokens_file(self):
        tmp_path, monkeypatch = self.tmp_path, self.monkeypatch
        monkeypatch.chdir(tmp_path)
        tokens = tmp_path / "tokens.json"
        tokens.write_text(
            json.dumps(
                {
                    "url": "ws://h:1/ws",
                    "table": "demo",
                    "proctor": "P",
                    "seats": [{"seat": "s1", "token": "S1"}, {"seat": "s2", "token": "S2"}],
                }
            )
        )
        target = resolve_target(args(tokens=str(tokens), seat="s1"), "player", {})
        assert (target.url, target.token, target.table) == ("ws://h:1/ws", "S1", "demo")
        assert resolve_target(args(tokens=str(tokens)), "proctor", {}).token == "P"
        env = {"T24_URL": "ws://e/ws", "T24_TOKEN": "E"}
        from_env = resolve_target(args(tokens=str(tokens)), "player", env)
        assert (from_env.url, from_env.token) == ("ws://e/ws", "E")
        from_flags = resolve_target(args(url="ws://f/ws", token="F"), "player", env)
        assert (from_flags.url, from_flags.token) == ("ws://f/ws", "F")
        bad = [
            (args(tokens=str(tokens)), "player", "--seat"),
            (args(tokens=str(tokens), seat="s7"), "player", "no seat 's7'"),
            (args(tokens=str(tokens)), "director", "no director token"),
            (args(tokens=str(tmp_path / "missing.json")), "player", "cannot read"),
            (args(token="T"), "player", "no server URL"),
            (args(url="ws://x/ws"), "player", "no token"),
            (args(url="http://x", token="T"), "player", "ws://"),
        ]
        for namespace, role, words in bad:
            with pytest.raises(ConnectError, match=words):
                resolve_target(namespace, role, {})
        (tmp_path / "junk.json").write_text("[1")
        with pytest.raises(ConnectError, match="not JSON"):
            resolve_target(args(tokens=str(tmp_path / "junk.json")), "player", {})
        (tmp_path / "list.json").write_text("[1]")
        with pytest.raises(ConnectError, match="map"):
            resolve_target(args(tokens=str(tmp_path / "list.json")), "player", {})
        # Any token may watch: a file without a spectator's gives its holder's own.
        assert resolve_target(args(tokens=str(tokens)), "spectator", {}).token == "P"
        # The demo's directory is the default when it exists.
        write_token_files(
            tmp_path / "var" / "demo-tokens",
            person_files("ws://h:1/ws", "demo", "P", "S", [{"seat": "s1", "token": "S1"}]),
        )
        assert resolve_target(args(), "proctor", {}).token == "P"

    def test_a_tokens_directory_gives_each_person_only_their_own_file(self):
        """Issue 17: one file per person; a seat named as the proctor names it; 0600 files."""
        tmp_path = self.tmp_path
        seats = [
            {"seat": "s1", "name": "Ada", "token": "T1"},
            {"seat": "s2", "name": "Bo", "token": "T2"},
            {"seat": "proctor", "name": "Odd", "token": "T3"},
        ]
        directory = tmp_path / "first"
        write_token_files(directory, person_files("ws://h:1/ws", "first", "P", "S", seats))
        names = sorted(path.name for path in directory.iterdir())
        assert names == ["proctor.json", "s1.json", "s2.json", "seat-3.json", "spectator.json"]
        assert stat.S_IMODE(directory.stat().st_mode) == 0o700
        for name in names:
            assert stat.S_IMODE((directory / name).stat().st_mode) == 0o600
        holders = {name: json.loads((directory / name).read_text()) for name in names}
        assert set(holders["s1.json"]) == {"url", "table", "seats"}
        assert [entry["token"] for entry in holders["s1.json"]["seats"]] == ["T1"]
        assert set(holders["proctor.json"]) == {"url", "table", "proctor"}
        assert not any("director" in data for data in holders.values())
        for seat in ("s2", "2", "bo", "Bo"):
            assert (
                resolve_target(args(tokens=str(directory), seat=seat), "player", {}).token == "T2"
            )
        assert resolve_target(args(tokens=str(directory), seat="odd"), "player", {}).token == "T3"
        # A one-seat file needs no --seat; it holds no other token.
        one = str(directory / "s1.json")
        assert resolve_target(args(tokens=one), "player", {}).token == "T1"
        assert resolve_target(args(tokens=one, seat="1"), "player", {}).token == "T1"
        assert resolve_target(args(tokens=one), "spectator", {}).token == "T1"
        for role in ("proctor", "director"):
            with pytest.raises(ConnectError, match=f"no {role} token"):
                resolve_target(args(tokens=one), role, {})
        with pytest.raises(ConnectError, match="no director token"):
            resolve_target(args(tokens=str(directory)), "director", {})
        # Issue 27: any token may watch, a director's file too (docs/cli.md).
        director = tmp_path / "director.json"
        director.write_text(json.dumps({"url": "ws://h:1/ws", "table": "t", "director": "D"}))
        assert resolve_target(args(tokens=str(director)), "spectator", {}).token == "D"
        with pytest.raises(ConnectError, match="--seat"):
            resolve_target(args(tokens=str(directory)), "player", {})
        with pytest.raises(ConnectError, match="no seat 'cy'"):
            resolve_target(args(tokens=str(directory), seat="cy"), "player", {})

    def test_admin_takes_its_connection_flags_before_or_after_the_subcommand(self):
        parser = cli.build_parser()
        for argv in (
            ["admin", "list-tables", "--url", "ws://x/ws", "--token", "T", "--json"],
            ["admin", "--url", "ws://x/ws", "--token", "T", "--json", "list-tables"],
        ):
            parsed = parser.parse_args(argv)
            assert (parsed.url, parsed.token, parsed.json, parsed.retries) == (
                "ws://x/ws",
                "T",
                True,
                2,
            )
        parsed = parser.parse_args(
            ["admin", "--url", "ws://x/ws", "issue-token", "--role", "director"]
        )
        assert (parsed.url, parsed.token) == ("ws://x/ws", None)
        for argv in (
            ["tournament", "standings", "--id", "t", "--url", "ws://x/ws", "--token", "T"],
            ["tournament", "--url", "ws://x/ws", "--token", "T", "standings", "--id", "t"],
        ):
            parsed = parser.parse_args(argv)
            assert (parsed.url, parsed.token, parsed.id) == ("ws://x/ws", "T", "t")

    def test_create_table_refuses_a_tokens_file_name(self):
        capsys = self.capsys
        argv = [
            "admin",
            "--url",
            "ws://x/ws",
            "--token",
            "T",
            "create-table",
            "--tokens-out",
            "a.json",
        ]
        assert cli.main(argv) == exit_codes.BAD_INPUT
        assert "--tokens-out names a directory" in capsys.readouterr().err

    def test_networked_commands_exit_2_without_a_target(self):
        tmp_path, monkeypatch, capsys = self.tmp_path, self.monkeypatch, self.capsys
        monkeypatch.chdir(tmp_path)
        for name in ("T24_URL", "T24_TOKEN"):
            monkeypatch.delenv(name, raising=False)
        for argv in (["play"], ["proctor"], ["watch"], ["bot"], ["admin", "list-tables"]):
            assert cli.main(argv) == exit_codes.BAD_INPUT
            assert "no server URL" in capsys.readouterr().err
        code = cli.main(["bot", "--url", "ws://x/ws", "--token", "t", "--time-scale", "0"])
        assert code == exit_codes.BAD_INPUT

    def test_every_command_has_help_with_examples_and_exit_codes(self):
        capsys = self.capsys
        for name in ("play", "proctor", "watch", "bot", "admin", "replay"):
            with pytest.raises(SystemExit) as done:
                cli.main([name, "--help"])
            assert done.value.code == 0
            text = capsys.readouterr().out
            assert "examples:" in text and "exit codes:" in text, name


# The commands that read a store on this machine (docs/cli.md): they may use server/. Every
# other module of the package is networked, or shared by networked commands.
LOCAL_MODULES = frozenset(
    {
        "puzzle_commands",
        "log_commands",
        "replay_commands",
        "audit_commands",
        "analyse_commands",
        "analysis_render",  # `t24 analyse`'s drawing of server.analysis' results
        "ratings_render",  # `t24 analyse --ratings`' drawing of server.analysis' ratings
    }
)
# `t24`'s dispatcher: it registers every command, the local ones too, and imports no server/.
DISPATCHER_MODULES = frozenset({"cli", "__main__"})
PACKAGE = "clients.reference_cli"


def imported_modules(path: Path) -> list[str]:
    """Every name the source at `path` imports, at its top or inside a function, in full
    (`from server.eventlog import store` is `server.eventlog.store`)."""
    tree = ast.parse(path.read_text())
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from . import x, from .x import y
                base = ".".join([PACKAGE, base]).rstrip(".")
            found += [f"{base}.{alias.name}" for alias in node.names]
    return found


def networked_modules() -> list[str]:
    """Every module of the package but the local commands (derived: a new one is included)."""
    package = ROOT / "clients/reference_cli"
    names = sorted(  # the game parts too: games/challenge/bot.py is `games.challenge.bot`
        ".".join(path.relative_to(package).with_suffix("").parts)
        for path in package.glob("**/*.py")
    )
    assert LOCAL_MODULES <= set(names), "a local module was renamed: update LOCAL_MODULES"
    return [name for name in names if name not in LOCAL_MODULES]


class ImportCheckTests(ShellTestCase):
    def test_networked_modules_never_import_the_server(self):
        """R: networked commands speak protocol/ only; server/puzzles (pure arithmetic of 24) is
        the one library they may use, for bots and decks. Nor may they reach server/ through a
        local command's module (only the dispatcher, cli.py, registers those)."""
        networked = networked_modules()
        assert {
            "connection",
            "table_app",
            "games.challenge.play_input",
            "games.challenge.bot",
            "admin_commands",
        } <= set(networked)
        for name in networked:
            path = ROOT / "clients/reference_cli" / (name.replace(".", "/") + ".py")
            for module in imported_modules(path):
                if module.split(".")[0] == "server":
                    assert module.startswith("server.puzzles."), (name, module)
                if module.startswith(f"{PACKAGE}.") and name not in DISPATCHER_MODULES:
                    local = module.removeprefix(f"{PACKAGE}.").split(".")[0]
                    assert local not in LOCAL_MODULES, (name, module)

    def test_the_import_check_sees_server_imports_anywhere_in_a_module(self):
        """The check above reads imports inside functions too, and relative ones."""
        tmp_path = self.tmp_path
        probe = tmp_path / "probe.py"
        probe.write_text(
            "import os\n"
            "def later():\n"
            "    from server.eventlog import store\n"
            "from . import log_commands\n"
        )
        found = imported_modules(probe)
        assert sorted(found) == sorted(["os", "server.eventlog.store", f"{PACKAGE}.log_commands"])


# -- admin -------------------------------------------------------------------------------------


def admin_args(**values):
    base = {
        "side": None,
        "rules": None,
        "deck_file": None,
        "edition": "single-digits",
        "seed": 0,
        "cards": None,
        "seats": "3",
        "round": 1,
        "mode": "networked",
        "stumped_cards": None,
        "flag_limit": None,
        "options": None,
        "pattern_seconds": None,
        "solution_seconds": None,
        "no_touch_seconds": None,
        "auto_proctor": None,
        "auto_reveal_seconds": None,
    }
    return Namespace(**{**base, **values})


def test_create_table_without_an_edition_plays_the_tournaments_round_deck_R_DECK_5():
    """`t24 admin create-table --round N` deals what a tournament with that seed plays in
    round N (server.puzzles.round_decks): the Official Rules' one 96-card deck, its second
    half in rounds 3-4, on the round's side; `--edition double-digits` that edition's deck."""
    from server.puzzles.round_decks import round_deck

    for number in (1, 2, 3, 4):
        deck = admin_commands.table_options(admin_args(edition=None, round=number, seed=7))["deck"]
        assert deck == round_deck(7, "official", number)
    third = admin_commands.table_options(admin_args(edition=None, round=3, seed=7))["deck"]
    assert all(max(card["numbers"]) <= 9 for card in third)  # R-DECK-2: Single Digits
    assert third[0]["card_id"] == "SD-49"  # "the second half of the 96 card deck"
    double = admin_args(edition="double-digits", round=3, seed=7)
    assert admin_commands.table_options(double)["deck"] == round_deck(
        7, "official", 3, edition="double-digits"
    )
    white = admin_commands.table_options(admin_args(edition=None, round=3, side="white"))
    assert white["deck"] == round_deck(0, "official", 3, "white")
    for number in (1, 2, 3, 4):  # --rules guidelines: round 2 is Double Digits, red
        guided = admin_args(edition=None, round=number, seed=7, rules="guidelines")
        assert admin_commands.table_options(guided)["deck"] == round_deck(7, "guidelines", number)


def test_create_table_sets_aside_stumped_cards_under_the_guidelines_R_PLAY_7():
    """`--rules guidelines` tables set a stumped card aside ("set that card aside in a
    separate pile"); the Official Rules replay it at the end; `--stumped-cards` decides."""
    guided = admin_commands.table_options(admin_args(edition=None, rules="guidelines"))
    assert guided["stumped_cards"] == "set_aside"
    assert admin_commands.table_options(admin_args(edition=None))["stumped_cards"] == (
        "replay_at_end"
    )
    chosen = admin_args(edition=None, rules="guidelines", stumped_cards="replay_at_end")
    assert admin_commands.table_options(chosen)["stumped_cards"] == "replay_at_end"


def test_the_cli_offers_every_rules_document_and_official_edition_R_DECK_5():
    """The `--rules` and `--edition` choices are `round_decks`' (kept as literals so
    `t24 --help` does not import the puzzles)."""
    from clients.reference_cli import tournament_commands
    from server.puzzles.round_decks import DOCUMENTS, OFFICIAL_EDITIONS

    assert tournament_commands.RULES_DOCUMENTS == DOCUMENTS
    assert tournament_commands.OFFICIAL_EDITIONS == OFFICIAL_EDITIONS
    created = tournament_commands.create_options(
        Namespace(
            name="Spring",
            date="2026-03-14",
            grades="4th",
            seed=3,
            rules="official",
            edition="double-digits",
            per_table_shuffle=False,
            tie_break_seconds=300,
            cards_per_round=None,
            advance_count=None,
            table_option=None,
        )
    )
    assert (created["rules"], created["edition"]) == ("official", "double-digits")
    for document in DOCUMENTS:
        parsed = cli.build_parser().parse_args(["admin", "create-table", "--rules", document])
        assert parsed.rules == document


def test_a_pocket_table_takes_its_size_with_or_without_an_edition():
    """`--cards` sizes a pocket stack whether `--edition` is given or left to the game's
    default (a regression: the size once followed the edition's flag)."""
    base = {"game": "pocket", "seats": "s1:Ada", "seed": 6, "options": None, "option": None}
    plain = admin_commands.table_options(admin_args(**base, edition=None, cards=1))
    assert plain["size"] == 1 and "edition" not in plain
    named = admin_commands.table_options(admin_args(**base, edition="double-digits", cards=2))
    assert (named["size"], named["edition"]) == (2, "double-digits")


class AdminTests(ShellTestCase):
    def test_table_options_from_flags_are_valid_for_the_game(self):
        tmp_path = self.tmp_path
        options = admin_commands.table_options(
            admin_args(
                seats="s1:Ada,s2:Bo,s3",
                cards=5,
                auto_proctor=0.5,
                pattern_seconds=2,
                flag_limit=2,
                options='{"stumped_cards": "replay_at_end"}',
            )
        )
        assert options["seats"] == [
            {"seat": "s1", "name": "Ada"},
            {"seat": "s2", "name": "Bo"},
            {"seat": "s3", "name": ""},
        ]
        assert len(options["deck"]) == 5 and options["auto_proctor"] == 0.5
        read = challenge.initial_state(options).options
        assert (read.pattern_us, read.flag_limit, read.stumped_cards) == (2 * S, 2, "replay_at_end")
        # R-DECK-5: red in round 1, white in round 2, unless --side says otherwise.
        red = admin_commands.table_options(admin_args(cards=1))["deck"][0]
        white = admin_commands.table_options(admin_args(cards=1, round=2))["deck"][0]
        assert red["card_id"] == white["card_id"] and red["numbers"] != white["numbers"]
        # `t24 deck --json` output, or a plain list, as --deck-file.
        deck_file = tmp_path / "deck.json"
        deck_file.write_text(
            json.dumps(
                {
                    "cards": [
                        {
                            "card_id": "x",
                            "red": {"numbers": [1, 2, 3, 4], "dots": 1},
                            "white": {"numbers": [3, 3, 8, 8], "dots": 3},
                        }
                    ]
                }
            )
        )
        deck = admin_commands.table_options(admin_args(deck_file=str(deck_file), side="white"))[
            "deck"
        ]
        assert deck == [{"card_id": "x", "numbers": [3, 3, 8, 8], "dots": 3}]
        deck_file.write_text(json.dumps([{"card_id": "y", "numbers": [1, 1, 1, 8], "dots": 1}]))
        assert (
            admin_commands.table_options(admin_args(deck_file=str(deck_file)))["deck"][0]["card_id"]
            == "y"
        )
        for bad, words in [
            (admin_args(cards=0), "at least 1"),
            (admin_args(options="{"), "not JSON"),
            (admin_args(options="[1]"), "JSON map"),
            (admin_args(seats="s1,,s2"), "empty seat"),
            (admin_args(edition="cards"), "--edition"),
            (admin_args(deck_file=str(tmp_path / "none.json")), "--deck-file"),
        ]:
            with pytest.raises(admin_commands.AdminInputError, match=words):
                admin_commands.table_options(bad)
        deck_file.write_text('{"cards": 3}')
        with pytest.raises(admin_commands.AdminInputError, match="list of cards"):
            admin_commands.table_options(admin_args(deck_file=str(deck_file)))

    def test_the_one_shot_runner_maps_failures_to_exit_codes(self):
        reactor = FakeReactor()

        def shot_with(error):
            shot = admin_commands.OneShot(
                reactor, lambda link, welcome, a: fail(error), Namespace()
            )
            shot.link = FakeLink()
            shot.link_welcome({})
            return shot

        assert shot_with(ServerRefused("table_exists", "taken")).exit_code == exit_codes.REFUSED
        assert shot_with(admin_commands.AdminInputError("x")).exit_code == exit_codes.BAD_INPUT
        from clients.reference_cli.connection import LinkLost

        assert shot_with(LinkLost("gone")).exit_code == exit_codes.UNREACHABLE
        assert shot_with(RuntimeError("?")).message.startswith("unexpected failure")
        shot = admin_commands.OneShot(reactor, lambda link, welcome, a: exit_codes.OK, Namespace())
        shot.link = FakeLink()
        shot.link_status("x"), shot.link_event({}), shot.link_snapshot({})
        shot.link_fatal("unauthorized", "bad token")
        assert shot.exit_code == exit_codes.REFUSED and shot.message == "bad token"
        runs = []  # welcomed again after a `moved` (the link resends the request): one run
        again = admin_commands.OneShot(reactor, lambda k, w, a: runs.append(w) or Deferred(), None)
        again.link = FakeLink()
        again.link_welcome({"n": 1})
        again.link_welcome({"n": 2})
        assert runs == [{"n": 1}]


# -- replay ------------------------------------------------------------------------------------


def recorded_store(tmp_path) -> str:
    """A SQLite store holding one table round played by the real game."""
    table = Table.started(seats=3, cards=["c1", "c2", "c3"])
    table.next_card()
    table.advance(2.31)
    table.do("touch_card", player("s2"), fingertips=2)
    table.do("declare_pattern", player("s2"), pattern=ANSWERS["c1"][2])
    table.do("fix_solution", player("s2"), steps=ANSWERS["c1"][3])
    table.next_card()
    table.do("touch_card", player("s3"))
    table.do("declare_pattern", player("s3"), pattern="3 × 8")
    table.do("fix_solution", player("s3"), steps=["1 + 1 = 2", "2 + 1 = 3", "3 + 8 = 11"])
    url = f"sqlite:///{tmp_path / 'round.sqlite'}"
    store = open_blocking_store(url)
    created = NewEvent("TableCreated", {"game": "challenge", "options": table.raw_options})
    store.append("table/r1", 0, [created, *(NewEvent(e.type, dict(e.data)) for e in table.events)])
    store.close()
    return url


class ReplayTests(ShellTestCase):
    def test_replay_prints_each_event_with_the_table_and_the_time_since_the_reveal(self):
        tmp_path, capsys = self.tmp_path, self.capsys
        url = recorded_store(tmp_path)
        assert cli.main(["replay", "--store", url, "r1", "--print", "--color", "never"]) == 0
        out = capsys.readouterr().out
        assert "+2.31s  Bo touched (2 fingertips)" in out
        assert (
            "Bo won card c1 (play 1) (+1 point)" in out
            and "penalty flag for Cy: incorrect solution" in out
        )
        assert "play 1 · card c1: 1 1 1 8 ●○○ revealed, held by Bo" in out
        # --to stops at a seq, and the table shown is the table as it stood then.
        assert cli.main(["replay", "--store", url, "table/r1", "--to", "5", "--print"]) == 0
        out = capsys.readouterr().out
        assert "#5 " in out and "#6 " not in out and "Bo holds the card (+2.31 s)" in out
        assert "pattern due in 3.0 s · solution due in 15.0 s" in out  # as it stood at seq 5

    def test_replay_json_lines(self):
        tmp_path, capsys = self.tmp_path, self.capsys
        url = recorded_store(tmp_path)
        assert cli.main(["replay", "--store", url, "r1", "--json", "--to", "6"]) == 0
        records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert [r["seq"] for r in records] == [1, 2, 3, 4, 5, 6]
        touched = records[4]
        assert touched["type"] == "CardTouched" and touched["since_reveal_s"] == pytest.approx(2.31)
        assert (
            touched["table"]["toucher"] == "s2" and touched["table"]["deck"]
        )  # the auditor's view
        assert records[5]["table"]["pattern"] == ANSWERS["c1"][2]

    def test_replay_refuses_what_it_cannot_replay(self):
        tmp_path, capsys = self.tmp_path, self.capsys
        url = recorded_store(tmp_path)
        cases = [
            (["--store", url, "nope"], "no stream 'table/nope'", "tables: table/r1"),
            (["--store", url, "r1", "--to", "99"], "the stream has seqs 1..", ""),
            (
                ["--store", f"sqlite:///{tmp_path / 'absent.sqlite'}", "r1"],
                "no SQLite event log",
                "",
            ),
            (["--store", "mysql://x", "r1"], "unknown store URL", ""),
        ]
        for argv, words, more in cases:
            assert cli.main(["replay", *argv]) == exit_codes.BAD_INPUT
            err = capsys.readouterr().err
            assert words in err and more in err
        store = open_blocking_store(url)
        store.append("table/odd", 0, [NewEvent("Something", {})])
        store.close()
        assert cli.main(["replay", "--store", url, "odd"]) == exit_codes.BAD_INPUT
        assert "does not start with TableCreated" in capsys.readouterr().err

    def test_a_broken_chain_is_replayed_up_to_its_last_good_event_and_exits_1(self):
        tmp_path, capsys = self.tmp_path, self.capsys
        import sqlite3

        url = recorded_store(tmp_path)
        with sqlite3.connect(tmp_path / "round.sqlite") as db:
            tables = [
                row[0] for row in db.execute("select name from sqlite_master where type='table'")
            ]
            events = next(name for name in tables if "event" in name)
            columns = [row[1] for row in db.execute(f"pragma table_info({events})")]
            hash_column = "hash" if "hash" in columns else next(c for c in columns if "hash" in c)
            db.execute(f"update {events} set {hash_column} = zeroblob(32) where seq = 7")
        assert cli.main(["replay", "--store", url, "r1", "--print"]) == exit_codes.NEGATIVE
        captured = capsys.readouterr()
        assert "BROKEN table/r1 at seq 7" in captured.err
        assert "#6 " in captured.out and "#7 " not in captured.out

    def test_an_audit_export_is_checked_and_replayed_with_no_store(self):
        tmp_path, capsys = self.tmp_path, self.capsys
        url = recorded_store(tmp_path)
        export = tmp_path / "r1.t24export"
        assert cli.main(["log", "export", "--store", url, "r1", "--out", str(export)]) == 2
        assert "no stream 'r1'" in capsys.readouterr().err  # a stream name, not a table id
        assert cli.main(["log", "export", "--store", url, "table/r1", "--out", str(export)]) == 0
        assert capsys.readouterr().err.startswith("exported 17 events of table/r1: ok table/r1")
        assert cli.main(["log", "export", "--store", url, "table/r1", "--out", str(export)]) == 2
        assert "cannot write" in capsys.readouterr().err  # an export is never overwritten
        (tmp_path / "round.sqlite").unlink()  # from here on, the file is all there is
        assert cli.main(["log", "check-export", str(export)]) == 0
        out = capsys.readouterr().out.splitlines()
        assert out[0].startswith("ok table/r1 17 events head ") and out[1].startswith("exported at")
        assert cli.main(["replay", "--export", str(export), "--print", "--color", "never"]) == 0
        assert "+2.31s  Bo touched (2 fingertips)" in capsys.readouterr().out

        lines = export.read_text().splitlines()
        record = json.loads(lines[7])
        record["event"]["actor"] = {"role": "proctor", "id": "someone else"}
        export.write_text("\n".join([*lines[:7], json.dumps(record), *lines[8:]]) + "\n")
        assert cli.main(["log", "check-export", str(export)]) == exit_codes.NEGATIVE
        assert "BROKEN table/r1 at seq 7: the readable copy" in capsys.readouterr().out
        assert cli.main(["replay", "--export", str(export), "--print"]) == exit_codes.NEGATIVE
        captured = capsys.readouterr()
        assert "#6 " in captured.out and "#7 " not in captured.out

        export.write_text("hello\n")
        assert cli.main(["log", "check-export", str(export)]) == exit_codes.BAD_INPUT
        assert "is not an export: line 1: not JSON" in capsys.readouterr().err
        assert cli.main(["replay", "--export", str(export)]) == exit_codes.BAD_INPUT
        assert "not JSON" in capsys.readouterr().err
        assert cli.main(["log", "check-export", str(tmp_path / "absent")]) == exit_codes.BAD_INPUT
        assert "cannot read" in capsys.readouterr().err
        assert cli.main(["replay"]) == exit_codes.BAD_INPUT
        assert "name the table's stream" in capsys.readouterr().err

    def test_check_export_holds_the_file_to_a_head_kept_outside_the_database(self):
        tmp_path, capsys = self.tmp_path, self.capsys
        url = recorded_store(tmp_path)
        export = tmp_path / "r1.t24export"
        assert cli.main(["log", "export", "--store", url, "table/r1", "--out", str(export)]) == 0
        capsys.readouterr()
        store = open_blocking_store(url, create=False)
        events = store.read("table/r1")
        store.close()
        head, earlier = events[-1].hash.hex(), events[9].hash.hex()
        assert cli.main(["log", "check-export", str(export), "--head", head[:16].upper()]) == 0
        assert f"trusted head {head[:16]} is seq 17: the last event" in capsys.readouterr().out
        assert cli.main(["log", "check-export", str(export), "--head", earlier]) == 0
        assert "is seq 10: 7 later events are not covered by it" in capsys.readouterr().out

        # A file rewritten consistently (here: another store's round under the same name)
        # verifies on its own; only the trusted head shows it is not the recorded chain.
        other_dir = tmp_path / "other"
        other_dir.mkdir()
        forged = tmp_path / "forged.t24export"
        other = recorded_store(other_dir)  # the same round, recorded at other moments
        store = open_blocking_store(other, create=False)
        store.append("table/r1", 17, [NewEvent("Note", {"text": "an extra event"})])
        store.close()
        assert cli.main(["log", "export", "--store", other, "table/r1", "--out", str(forged)]) == 0
        capsys.readouterr()
        assert cli.main(["log", "check-export", str(forged)]) == 0
        capsys.readouterr()
        assert cli.main(["log", "check-export", str(forged), "--head", head]) == exit_codes.NEGATIVE
        assert f"BROKEN table/r1: the trusted head {head} is not in this chain" in (
            capsys.readouterr().out
        )
        for bad in ("abc", "z" * 16, "0" * 65):
            assert cli.main(["log", "check-export", str(export), "--head", bad]) == 2
            assert "16 to 64 hex digits" in capsys.readouterr().err

    def test_the_replay_keys(self):
        seqs = [1, 2, 3, 10, 11]
        assert replay_commands.replay_key(0, None, "n", seqs) == (1, None, False)
        assert replay_commands.replay_key(4, None, " ", seqs) == (4, None, False)
        assert replay_commands.replay_key(2, None, "\x1b[D", seqs) == (1, None, False)
        assert replay_commands.replay_key(0, None, "p", seqs) == (0, None, False)
        assert replay_commands.replay_key(2, None, "z", seqs) == (4, None, False)
        assert replay_commands.replay_key(2, None, "a", seqs) == (0, None, False)
        assert replay_commands.replay_key(2, None, "g", seqs) == (2, "", False)
        assert replay_commands.replay_key(2, "1", "0", seqs) == (2, "10", False)
        assert replay_commands.replay_key(2, "10", "\r", seqs) == (3, None, False)
        assert replay_commands.replay_key(2, "9", "\r", seqs) == (3, None, False)  # the nearest
        assert replay_commands.replay_key(2, "10", "\x7f", seqs) == (2, "1", False)
        assert replay_commands.replay_key(2, "10", "\x1b", seqs) == (2, None, False)
        assert replay_commands.replay_key(2, "1", "x", seqs) == (2, "1", False)
        assert replay_commands.replay_key(2, None, "q", seqs) == (2, None, True)
        assert replay_commands.replay_key(2, None, "?", seqs) == (2, None, False)
        assert replay_commands.stream_name("first") == "table/first"
        assert replay_commands.stream_name("table/x") == "table/x"

    def test_spectators_never_see_a_cupped_card_in_the_shell(self):
        table = Table.started()
        table.do("place_card")
        app, _link, lines, _ = make_app("watch", allowed=None)
        welcome(app, seat=None, role="spectator")
        feed = Feed(table, SPECTATOR)
        app.link_snapshot(feed.snapshot(), 0)
        feed.send_all(app)
        assert "1 1 1 8" not in "".join(lines) and "a card (play 1) placed, cupped" in "".join(
            lines
        )

    def test_ctrl_c_and_a_closed_pipe_exit_without_a_traceback(self):
        monkeypatch, capsys = self.monkeypatch, self.capsys

        def interrupted(args):
            raise KeyboardInterrupt

        def closed(args):
            raise BrokenPipeError

        assert cli.run_command(interrupted, Namespace()) == exit_codes.INTERRUPTED
        redirected = []
        monkeypatch.setattr(cli.os, "dup2", lambda *fds: redirected.append(fds))
        monkeypatch.setattr(cli.sys, "stdout", open(os.devnull, "w"))  # noqa: SIM115
        assert cli.run_command(closed, Namespace()) == exit_codes.PIPE_CLOSED
        assert redirected  # stdout now goes nowhere: no second error at exit
        monkeypatch.undo()
        assert cli.main([]) == exit_codes.BAD_INPUT  # no command: the help, exit 2
        assert "examples:" in capsys.readouterr().out

    def test_presence_stale_notices_and_the_feed_scroll_in_the_shell(self):
        """Issue 17: an empty seat shows; a notice said while the link was down goes once it is
        up again; PgUp/PgDn scroll the feed back and forth whatever is being typed."""
        table = Table.started()
        for _ in range(6):
            table.next_card()
            table.win("s2")
        screen, written = full_screen()
        app, _link, _lines, reactor = make_app(output=screen)
        reactor.advance(T0 / 1e6 - reactor.seconds())
        app.start()
        welcome(app)
        feed = Feed(table, player("s1"))
        app.link_snapshot(feed.snapshot(), 0)
        feed.send_all(app)
        app.link_presence({"type": "presence", "table": "t1", "seats": ["s1"], "proctor": True})
        assert "not connected" in written[-1] and "proctor connected" in written[-1]
        app.link_status("disconnected (1006); reconnecting in 0.5 s")
        assert "not connected" not in written[-1]  # unknown while the link is down
        app.show_notice("not connected to the server right now; reconnecting", True)
        app.link_status("connected")
        assert "reconnecting" not in strip_ansi(written[-1])
        app.show_notice("touch refused", True)  # said while connected: it stays
        app.link_status("connected")
        assert "touch refused" in written[-1]
        latest = "Bo won card c6 (play 6) (+3 points)"
        assert latest in written[-1]
        app.keys("\x1b[5~")  # PgUp
        assert latest not in written[-1] and "newer below" in written[-1]
        app.keys("\x1b[6~")  # PgDn
        assert latest in written[-1]
        assert app.controls.state == PlayInput()  # the keys typed nothing

    def test_a_plain_view_prints_the_results_when_the_round_ends(self):
        table = Table.started()
        table.next_card()
        table.win("s2")
        table.do("end_round", PROCTOR)
        app, _link, lines, _reactor = make_app()
        welcome(app)
        feed = Feed(table, player("s1"))
        app.link_snapshot(feed.snapshot(), 0)
        feed.send_all(app)
        out = "".join(lines)
        assert "round over: the proctor ended it\nBo wins with 1 point\n" in out
        assert "1.  Bo " in out

    def test_replay_opens_at_the_first_event_and_says_when_it_is_at_the_last(self):
        tmp_path, monkeypatch = self.tmp_path, self.monkeypatch
        url = recorded_store(tmp_path)
        opened = []

        def interactive(steps, index, style):
            opened.append((index, steps))

        monkeypatch.setattr(replay_commands, "interactive", interactive)
        monkeypatch.setattr("sys.stdin.isatty", lambda: True, raising=False)
        monkeypatch.setattr("sys.stdout.isatty", lambda: True, raising=False)
        assert cli.main(["replay", "--store", url, "r1"]) == 0
        assert cli.main(["replay", "--store", url, "r1", "--to", "5"]) == 0
        assert [index for index, _steps in opened] == [0, 4]  # `n` steps on from the first
        steps = opened[0][1]
        assert replay_commands.frame_for(steps, 0, None).status == f"event 1 of {steps[-1].seq}"
        last = replay_commands.frame_for(steps, len(steps) - 1, None)
        assert last.keys.startswith("the last event")
