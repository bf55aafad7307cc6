"""The screens of `t24 play/proctor/watch/replay` as pure functions: view + time -> lines."""

from __future__ import annotations

from dataclasses import replace

from challenge_tables import PROCTOR, SPECTATOR, T0, S, Table, player

from clients.reference_cli.games.challenge.event_words import card_label
from clients.reference_cli.games.challenge.render import big_numbers, cards_left, dots_text
from clients.reference_cli.render import Frame, compact, render, seconds_left
from clients.reference_cli.styling import Style, color_enabled, strip_ansi
from clients.reference_cli.table_model import FeedLine, TableModel
from server.games import challenge

COLOR = Style(color=True)


def model_of(table: Table, viewer) -> TableModel:
    """What a client holds: the view and the live deadlines the server pushed."""
    deadlines = [
        {"key": d.key, "command": d.command.name, "at": d.at}
        for d in challenge.deadlines(table.state)
    ]
    view = challenge.view(table.state, viewer)
    return TableModel("t1", "challenge", len(table.events) + 1, view, deadlines)


def text(lines: list[str]) -> str:
    return "\n".join(strip_ansi(line) for line in lines)


def seat_rows(screen: str) -> dict[str, str]:
    """The side panel's rows by seat place (`1`..): `▶ 1        Ada    0  0/3`."""
    return {line[2]: line for line in screen.splitlines() if line[2:3].isdigit() and line[3] == " "}


def test_a_revealed_card_in_large_digits_with_countdowns():
    table = Table.started()
    table.next_card()  # c1: 1 1 1 8, one dot
    table.advance(1.5)
    table.do("touch_card", player("s2"), fingertips=2)
    model = model_of(table, player("s1"))
    now = table.now + int(1.2 * S)
    screen = text(render(Frame(model, role="player", me="s1", status="connected"), now, 90, 40))
    assert "play 1 · card c1 · 1 1 1 8 · ●○○" in screen
    assert big_numbers([1, 1, 1, 8])[0] in screen
    assert "Bo holds the card (+1.50 s)" in screen
    assert "pattern due in 1.8 s · solution due in 13.8 s" in screen  # R-PLAY-4, R-PLAY-5
    assert "you: Ada " in screen and "connected" in screen
    assert "▶ 1        Ada" in screen


def test_a_cupped_card_shows_no_numbers_to_a_player_but_does_to_the_proctor():
    table = Table.started()
    table.do("place_card")
    for_player = text(render(Frame(model_of(table, player("s1")), role="player"), table.now))
    assert "play 1 · a card · hidden" in for_player and "1 1 1 8" not in for_player
    assert "░░░" in for_player and "touching now draws a flag" in for_player
    for_proctor = text(render(Frame(model_of(table, PROCTOR), role="proctor"), table.now))
    assert "play 1 · card c1 · 1 1 1 8" in for_proctor
    # The student's hint is for students: not for the proctor, nor a replay's auditor.
    assert "touching now draws a flag" not in for_proctor
    for_auditor = text(render(Frame(model_of(table, PROCTOR), role="auditor"), table.now))
    assert "touching now draws a flag" not in for_auditor


def test_scores_flags_disqualification_pause_and_the_end():
    table = Table.started(flag_limit=1)
    table.next_card()
    table.win("s1")
    table.next_card()
    table.do("touch_card", player("s3"), fingertips=4)  # R-PLAY-3: flag, DQ at limit 1
    table.do("pause_table", PROCTOR, cause="tea")
    screen = text(render(Frame(model_of(table, SPECTATOR)), table.now, 100))
    assert "1        Ada                  1  0/1" in screen
    assert "3        Cy                   0  1/1  DISQUALIFIED" in screen
    assert "PAUSED (tea)" in screen
    table.do("end_round", PROCTOR)
    screen = text(render(Frame(model_of(table, SPECTATOR)), table.now, 100))
    assert "round over: the proctor ended it" in screen
    # The results screen (issue 17): ranked, the winner, flags of the limit, DQ last.
    assert "Ada wins with 1 point" in screen
    results = [line for line in screen.splitlines() if line[2:4] in ("1.", "2.", "– ")]
    assert [line.split()[0] for line in results] == ["1.", "2.", "2.", "–"]
    assert results[0].split()[1] == "Ada" and results[0].endswith("winner")
    assert results[-1].split()[1] == "Cy" and results[-1].endswith("disqualified")


def test_setup_stumped_so_far_and_the_next_card_countdown():
    table = Table(Table.started().raw_options)
    assert "waiting for the proctor" in text(render(Frame(model_of(table, SPECTATOR)), T0))
    table = Table.started(auto_proctor=2)
    screen = text(render(Frame(model_of(table, SPECTATOR)), T0 + S // 2))
    assert "no card in play · 10 cards left" in screen and "next card in 1.5 s" in screen
    assert cards_left({"cards_left": 1}) == "1 card left"  # issue 17: not "1 cards left"
    table.advance(2).do("place_card")
    table.do("reveal_card")
    table.do("declare_stumped", player("s4"))
    screen = text(render(Frame(model_of(table, SPECTATOR)), table.now))
    assert "stumped so far: Di\n" in screen and "touch window closes in 15.0 s" in screen


def test_the_feed_notice_prompt_and_height():
    table = Table.started()
    feed = [FeedLine(seq, T0, None, f"event {seq}") for seq in range(1, 100)]
    frame = Frame(
        model_of(table, SPECTATOR),
        feed=feed,
        notice="pattern refused",
        notice_is_error=True,
        keys="[q] quit",
        prompt="pattern> 3▌",
    )
    lines = render(frame, T0, 80, 30, COLOR)
    assert len(lines) <= 30
    plain = [strip_ansi(line) for line in lines]
    assert plain[-1] == "pattern> 3▌" and plain[-2] == "[q] quit"
    assert "pattern refused" in plain[-3] and "\x1b[31m" in lines[-3]  # errors in red
    assert "event 99" in text(lines) and "event 50" not in text(lines)
    assert "PgUp: older events" in text(lines)
    assert "joining the table" in text(render(Frame(None, status="connecting"), T0))
    # Scrolled back 40 lines (PgUp): older events, and the rule says how to come back.
    back = text(render(replace(frame, feed_back=40), T0, 80, 30))
    assert "event 59" in back and "event 99" not in back and "40 newer below" in back
    # A multi-line notice (the proctor's `help`) is laid out as lines, each in the frame.
    helped = render(replace(frame, notice="commands:\n  start\n  place"), T0, 80, 30)
    assert [strip_ansi(line) for line in helped[-5:-2]] == ["commands:", "  start", "  place"]


def test_colour_is_off_with_no_color_and_never_changes_the_text():
    table = Table.started()
    table.next_card()
    frame = Frame(model_of(table, SPECTATOR), status="connected")
    coloured = render(frame, table.now, 80, 30, COLOR)
    plain = render(frame, table.now, 80, 30, Style(color=False))
    assert any("\x1b[" in line for line in coloured)
    assert not any("\x1b[" in line for line in plain)
    assert [strip_ansi(line) for line in coloured] == plain
    # https://no-color.org: NO_COLOR (non-empty) wins over a terminal and over --color always.
    assert not color_enabled("always", None, {"NO_COLOR": "1"})
    assert color_enabled("always", None, {"NO_COLOR": ""})
    assert not color_enabled("never", None, {})

    class Tty:
        def isatty(self):
            return True

    assert color_enabled("auto", Tty(), {}) and not color_enabled("auto", Tty(), {"NO_COLOR": "x"})
    assert not color_enabled("auto", None, {})


def test_small_pieces():
    assert dots_text(2) == "●●○" and dots_text(7) == "" and dots_text(None) == ""
    assert seconds_left(T0 + 2_400_000, T0) == "2.4 s"
    assert seconds_left(T0, T0 + 5) == "0.0 s"  # the server fires deadlines, not the client
    assert big_numbers([12, 3, 4, 5])[2].startswith(" █  ███")


def test_the_compact_table_of_replay():
    table = Table.started()
    table.next_card()
    table.do("touch_card", player("s2"))
    table.do("declare_pattern", player("s2"), pattern="3 × 8")
    lines = text(compact(model_of(table, PROCTOR)))
    assert "play 1 · card c1: 1 1 1 8 ●○○ revealed, held by Bo, pattern 3 × 8" in lines
    assert "scores: Ada 0, Bo 0, Cy 0, Di 0 · 9 cards left" in lines
    table.do("fix_solution", player("s2"), steps=["1 + 1 = 2", "2 + 1 = 3", "3 + 8 = 11"])
    table.do("pause_table", PROCTOR)
    lines = text(compact(model_of(table, PROCTOR)))
    assert "between cards, no card in play" in lines and "Bo 0 ⚑1" in lines and "PAUSED" in lines


def test_a_long_status_gets_a_line_of_its_own():
    table = Table.started()
    status = "disconnected (1006); reconnecting in 4.0 s"
    lines = render(Frame(model_of(table, SPECTATOR), status=status), T0, 60)
    assert lines[0].startswith("t24 · table t1") and status not in lines[0]
    assert lines[1].endswith(status) and len(lines[1]) == 60
    short = render(Frame(model_of(table, SPECTATOR), status="connected"), T0, 60)
    assert short[0].endswith("connected") and len(short[0]) == 60


def test_a_short_terminal_keeps_the_line_being_typed():
    table = Table.started()
    table.next_card()
    frame = Frame(model_of(table, SPECTATOR), keys="[q] quit", prompt="pattern> 3▌", notice="!")
    lines = render(frame, table.now, 80, 12)
    assert len(lines) == 12 and lines[-1] == "pattern> 3▌" and lines[0].startswith("t24")


def test_presence_marks_the_empty_seats_and_says_who_runs_the_table():
    """Issue 17: who is connected, as the server pushed it (not a table event)."""
    table = Table.started()
    model = model_of(table, player("s1"))
    presence = {"type": "presence", "table": "t1", "seats": ["s1", "s2"], "proctor": False}
    screen = text(render(Frame(model, me="s1", presence={**presence, "watchers": 2}), T0, 80))
    rows = seat_rows(screen)
    assert "not connected" in rows["3"] and "not connected" in rows["4"]
    assert "not connected" not in rows["2"]
    assert "no proctor connected · 2 watching" in screen
    unknown = text(render(Frame(model, me="s1"), T0, 80))  # before the server said
    assert "not connected" not in unknown and "proctor connected" not in unknown


def test_the_proctor_sees_each_connected_seats_lag():
    """Issue 19: the lag the server measures per seat (`presence.lag`) is shown to the
    proctor, stale estimates as unknown; a student's own screen does not show it."""
    table = Table.started()
    presence = {
        "type": "presence",
        "table": "t1",
        "seats": ["s1", "s2", "s3"],
        "proctor": True,
        "watchers": 0,
        "lag": {
            "s1": {"delay_ms": 41, "jitter_ms": 3, "samples": 16, "stale": False},
            "s2": {"delay_ms": None, "jitter_ms": None, "samples": 0, "stale": True},
        },
    }
    screen = text(render(Frame(model_of(table, PROCTOR), presence=presence), T0, 100))
    rows = seat_rows(screen)
    assert "lag 41 ms ±3" in rows["1"]
    assert "lag unknown" in rows["2"]
    assert " lag " not in rows["3"] and "not connected" in rows["4"]
    student = text(render(Frame(model_of(table, player("s1")), me="s1", presence=presence), T0))
    assert "lag 41" not in student and "lag unknown" not in student


def test_a_returned_card_keeps_its_name_and_the_plays_are_counted_apart():
    """Issue 17: 8 6 8 6 showed as card 2, then 5: a card is named by its id (kept when it
    goes back under the deck, R-FLAG-2), a play by the table's count."""
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    table.do("touch_card", player("s2"), fingertips=4)  # R-PLAY-3: a flag; c1 goes back
    names = []
    for _ in range(2):
        table.next_card()
        screen = text(render(Frame(model_of(table, player("s1")), me="s1"), table.now))
        names.append(next(line for line in screen.splitlines() if line.startswith("play ")))
        table.win("s1")
    assert names[0].startswith("play 2 · card c2") and names[1].startswith("play 3 · card c1")
    assert card_label({"card_id": "c1", "play": 3}) == "card c1 (play 3)"
    assert card_label({"play": 3}) == "a card (play 3)" and card_label({}) == "a card"


def test_a_server_that_cannot_be_reached_is_named_with_a_hint_before_the_join():
    """Issue 27: full-screen `t24 play` with the server down says which URL it tries and asks
    whether the server runs, on lines of their own (never cut off at the right)."""
    status = (
        "cannot connect to ws://127.0.0.1:8024/ws (is the server running?); reconnecting in 6.5 s"
    )
    lines = render(Frame(None, status=status), T0, 60, 20)
    assert "joining the table…" in lines
    assert "cannot connect to ws://127.0.0.1:8024/ws (is the server running?)" in lines
    assert "reconnecting in 6.5 s" in lines
