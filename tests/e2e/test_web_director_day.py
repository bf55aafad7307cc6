"""The end of a tournament day on the director's board (issue 26), quickly: a tie-break for
the champion counted down on the board, the champion announced there and on a certificate,
and the bundle checked as README.md says. Real Chromium, a real server of the test's own.

The rounds before are scripted over the protocol (the whole day through the console, with
bots, is tests/e2e/test_web_director.py, about a minute): four students of one grade, all of
whom advance; every table ended at once and signed, so the semi-final ends 0-0-0-0 and its
four students tie for champion (R-ROUND-6). On the board the director marks two of them
(one absent, one present) and begins the tie-break: its card shows the cards played and its
time counting down (and on the room's scoreboard of the table, in projector mode); it is
looked at 1280, 768 and 390 px wide and in projector mode
(tests/e2e/layout_check.js: nothing off the screen or out of its box). A card won there by
one student makes them champion; the director signs as director from the board and
advances; the champion is on the board and on the one page the certificates print on; the
downloaded bundle is unzipped and checked with README's own lines.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from cli_pty import answer
from forkserver import t24_command
from test_web_director import ROOT, look, printed_pages, reloaded, say, settle
from web_browser import WAIT, Pages, layout_problems
from wsclients import AutobahnClient

pytestmark = pytest.mark.e2e

TID = "cup"  # README's bundle is `cup-bundle`
STREAM = f"tournament/{TID}"
TIE = f"{TID}.tb1.t1"
NAMES = ["Ada", "Bo", "Cy", "Di"]
TIE_SECONDS = 90  # long enough to look at the board three times; the round is ended by hand


def accepted(client: AutobahnClient, table: str, name: str, **args: Any) -> dict[str, Any]:
    reply = client.request("command", table=table, name=name, args=args)
    assert reply["type"] == "accepted", (name, reply)
    return reply


def opened(client: AutobahnClient, table: str) -> dict[str, Any]:
    """Join `table` once the tournament has created it (just after the push that started
    its round): its snapshot."""
    deadline = time.monotonic() + WAIT / 1000
    while True:
        reply = client.request("join", table=table)
        if reply["type"] == "snapshot":
            return reply
        assert reply.get("code") == "unknown_table", reply
        assert time.monotonic() < deadline, f"{table} was never created"
        time.sleep(0.1)


def play_round_at_once(director: AutobahnClient, watcher: AutobahnClient, number: int) -> None:
    """Seat and start round `number`; end its one table at once, sign it, close the round
    (and advance it after rounds 2 and 3)."""
    accepted(director, STREAM, "seat_round", round=number)
    accepted(director, STREAM, "start_round", round=number)
    table = f"{TID}.r{number}.s1.t01"
    opened(watcher, table)
    accepted(director, table, "end_round")
    accepted(director, table, "sign_score_card", initials="TD")
    recorded = watcher.event("TableResultRecorded")
    assert recorded["table"] == STREAM, recorded
    accepted(director, STREAM, "close_round", round=number)
    if number == 2:
        accepted(director, STREAM, "advance", round=number)


def time_shown(clock: Any) -> tuple[int, str]:
    """A countdown's seconds and its words, read in one step: read one after the other, a
    tick between the two reads made them disagree by a second (it failed so once)."""
    seconds, text = clock.evaluate("e => [e.dataset.seconds, e.innerText]")
    return int(seconds), text


def test_a_tie_break_for_the_champion_on_the_board_then_the_certificate_and_the_bundle(
    own_server, pages: Pages, tmp_path: Path
):
    server, client = own_server
    director = client(server.token("director", name="director"))
    options = {
        "name": "Spring Cup",
        "date": time.strftime("%Y-%m-%d"),
        "grades": ["4th"],
        "deck_seed": 7,
        "cards_per_round": 4,
        "advance_count": 4,
        "tie_break_seconds": TIE_SECONDS,
        "table_options": {"pattern_seconds": 60, "solution_seconds": 120},
    }
    made = director.request("create_table", table=STREAM, game="tournament", options=options)
    assert made["type"] == "table_created", made
    csv = "name,school,grade\n" + "".join(f"{name},Hill,4th\n" for name in NAMES)
    accepted(director, STREAM, "import_students", csv=csv)
    accepted(director, STREAM, "close_registration")
    watcher = client(server.token("director", name="watcher"))
    assert watcher.request("join", table=STREAM)["type"] == "snapshot"
    for number in (1, 2, 3):
        play_round_at_once(director, watcher, number)
    seated = watcher.event("TieBreakSeated")["data"]  # the semi-final's 0-0-0-0
    assert seated["round"] == 3, seated

    token = server.token("director", name="director")
    board = pages.open(server.http, token, width=1280, page="director", tournament=TID)
    board.locator('main[data-step="board"]').wait_for(timeout=WAIT)
    tie = board.locator(f'.tie-break .table-card[data-table="{TIE}"]')
    board.locator(f'.table-card[data-table="{TIE}"][data-state="waiting"]').wait_for(timeout=WAIT)
    assert "0 of 4 here" in tie.inner_text()
    assert board.locator(f'[data-time="{TIE}"]').count() == 0  # its time runs from play's start
    assert board.locator(".tie-break a", has_text="Print tie-break 1").count() == 1
    # checking in by hand: Bo is absent (not waited for), Cy is here though not connected
    for seat, mark in (("p2", "absent"), ("p3", "present")):
        tie.locator(f'tr[data-seat="{seat}"] button[data-mark="{mark}"]').click()
        tie.locator(f'tr[data-seat="{seat}"][data-mark="{mark}"]').wait_for(timeout=WAIT)
    assert "2 of 4 here" in tie.locator(".table-state").inner_text()
    assert tie.get_attribute("data-state") == "waiting"  # Ada and Di are awaited still
    board.click(f'[data-begin="{TIE}"]')

    # playing: the cards played and the time left, counted down each second in place
    board.locator(f'.table-card[data-table="{TIE}"][data-state="playing"]').wait_for(timeout=WAIT)
    assert "A timed round: 0 cards played" in tie.locator(".table-state").inner_text()
    shown = board.locator(f'[data-time="{TIE}"]')
    shown.wait_for(timeout=WAIT)
    first, text = time_shown(shown)
    assert 0 < first <= TIE_SECONDS, first
    assert text == f"{first} s left"
    button = tie.locator("[data-begin], [data-sign]")
    assert button.count() == 0  # nothing to press while it plays
    board.wait_for_function(
        "([hub, first]) => Number(document.querySelector(`[data-time='${hub}']`).dataset.seconds)"
        " < first",
        arg=[TIE, first],
        timeout=WAIT,
    )
    now, text = time_shown(shown)
    assert text == f"{now} s left"
    look(pages, board, "board-tie-break-timed")
    board.click("#projector")
    board.wait_for_function("() => document.documentElement.classList.contains('projector')")
    big = shown.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert big >= 30, big  # read from the back of the room
    look(pages, board, "board-tie-break-projector")
    board.click("#projector")
    board.wait_for_function("() => !document.documentElement.classList.contains('projector')")
    # the room's projector: the tie-break's scoreboard counts its time down too
    room = pages.open(
        server.http,
        server.token("spectator", name="room", table=TIE),
        page="board",
        table=TIE,
        projector="1",
    )
    clock = room.locator(f'.round-time[data-time="{TIE}"]')
    clock.wait_for(timeout=WAIT)
    shown_then, text = time_shown(clock)
    assert text == f"The round ends in {shown_then} s"
    room.wait_for_function(
        "([hub, then]) => Number(document.querySelector(`.round-time[data-time='${hub}']`)"
        ".dataset.seconds) < then",
        arg=[TIE, shown_then],
        timeout=WAIT,
    )
    look(pages, room, "scoreboard-tie-break-projector")

    # Ada wins a card at the tie-break: she is the champion
    ada = client(server.token("player", table=TIE, seat="p1"))
    assert ada.request("join", table=TIE)["type"] == "snapshot"
    accepted(director, TIE, "place_card")
    accepted(director, TIE, "reveal_card")
    numbers = ada.event("CardRevealed")["data"]["numbers"]
    pattern, steps = answer(numbers)
    accepted(ada, TIE, "touch_card", fingertips=1)
    accepted(ada, TIE, "declare_pattern", pattern=pattern)
    accepted(ada, TIE, "fix_solution", steps=steps)
    won = f'.table-card[data-table="{TIE}"] tr[data-seat="p1"] td.score:not([data-score="0"])'
    board.locator(won).wait_for(timeout=WAIT)
    accepted(director, TIE, "end_round")
    board.locator(f'.table-card[data-table="{TIE}"][data-state="ended"]').wait_for(timeout=WAIT)
    assert board.locator(f'[data-time="{TIE}"]').count() == 0  # over: no time left to show
    board.fill("#initials", "TD")
    board.click(f'[data-sign="{TIE}"]')
    board.locator(f'.table-card[data-table="{TIE}"][data-state="signed"]').wait_for(timeout=WAIT)
    assert "Signed by TD (the director)" in tie.inner_text()
    watcher.event("TableResultRecorded")  # the tie-break's result reaches the tournament
    board.click("#advance-round")
    say(board, "The round is advanced.")
    champion = board.locator('#day-champions li[data-section="4th"]')
    champion.wait_for(timeout=WAIT)
    assert champion.get_attribute("data-student") == "p1"
    assert champion.inner_text() == "4th: Ada (Hill)"
    # the day is over: the board stays at the round played last, not an empty round 4
    assert board.inner_text("#board-heading") == "Round 3: the tables"
    rounds = board.locator("#rounds a").all_inner_texts()
    assert rounds == ["Round 1", "Round 2", "Round 3"], rounds  # no round 4 to play
    assert tie.get_attribute("data-state") == "signed"
    look(pages, board, "board-champion")

    # the certificate: one page, the champion by name
    reloaded(board, lambda: board.click("#step-results"))
    board.locator("#print-certificates").wait_for(timeout=WAIT)
    reloaded(board, lambda: board.click("#print-certificates"))
    board.locator("#sheets[data-ready]").wait_for(timeout=WAIT)
    certificate = board.locator(".certificate")
    assert certificate.count() == 1 and "Ada" in certificate.inner_text()
    assert printed_pages(board) == 1
    look(pages, board, "certificate")
    reloaded(board, board.go_back)

    # the bundle, checked as README.md says: unzip it, then its verify line with the key shown
    board.locator("#download-bundle").wait_for(timeout=WAIT)
    with board.expect_download(timeout=WAIT) as download:
        board.click("#download-bundle")
    assert download.value.suggested_filename == f"{TID}-bundle.zip"
    key = board.locator("#bundle-key").inner_text().strip()
    assert re.fullmatch(r"[0-9a-f]{64}", key), key
    settle(board)
    assert layout_problems(board) == []
    folder = tmp_path / "officials"
    folder.mkdir()
    download.value.save_as(folder / f"{TID}-bundle.zip")
    for line in readme_bundle_lines():
        command = line.replace(".venv/bin/t24", shlex.join(t24_command()))
        command = command.replace("KEY", key)
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=folder,
            env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, (command, done.stdout, done.stderr)
    assert "OK: " in done.stdout and f"signed by {key}" in done.stdout


def readme_bundle_lines() -> list[str]:
    """README's commands for the bundle the console downloads (its "Run a tournament", step
    5): unzip it, then verify it."""
    text = (ROOT / "README.md").read_text()
    step = text.split("5. **Results**", 1)[1].split("\n\n", 1)[0]
    commands = re.findall(r"`([^`]*(?:unzip|audit verify)[^`]*)`", step)
    assert [c.split()[0] for c in commands] == ["unzip", ".venv/bin/t24"], commands
    return commands
