"""A whole tournament run from the director's console only (issue 26): real Chromium, a real
server, bots at the seats started with the links printed on the slips.

Two grades of eight students, six cards a round, four of each grade to the semi-final (one
semi-final table a grade: its winner is champion, docs/tournament.md decision 5). The
director creates the tournament, previews a roster with a bad row, imports the good one,
adds, renames and withdraws a student, closes registration; seats, swaps and prints each
round (a page per table, a slip per student: each slip's link, the address its QR code
holds, gives a seat's token to `t24 bot`, one process playing every seat of the round
with `--seat` for each), starts it; each table begins once all its students are
connected (docs/rules.md decision 30); a protest is upheld at a table of round 1 from its
console; the director signs every table's score card from the board (the tables are
auto-proctored: no proctor signs); the round is closed and advanced; a semi-final ended at
once (no bot at it) makes its four students tie for champion, so a tie-break is played
(more may follow from the bots' own ties); the champions are announced on the board and printed as
certificates; the officials' bundle is downloaded and `t24 audit verify` passes on it with
the key the console showed.

Every page of the console is looked at 1280, 768 and 390 px wide (screenshots taken only
with T24_SCREENSHOTS set, kept there): nothing runs off the screen or out of its box
(tests/e2e/layout_check.js), no control is unlabelled. Each step waits for what it expects,
never a fixed sleep.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest
from forkserver import t24_command
from server_process import ServerProcess
from web_browser import Pages, layout_problems, unlabelled_controls

from server.net.links import qr_data_uri

pytestmark = pytest.mark.e2e

WAIT = 60_000  # ms: a round of bots on a loaded machine
TIME_SCALE = 0.25  # the perfect bots' 0.2 s before each move, 0.05 s: still one after another
ROOT = Path(__file__).resolve().parents[2]
WIDTHS = (1280, 768, 390)
TID = "cup"
GRADES = ("4th", "5th")
NAMES = ["Ada", "Bo", "Cy", "Di", "Eli", "Fay", "Gus", "Hal"]
NAMES += ["Ida", "Jo", "Kim", "Lu", "Max", "Ned", "Oda", "Pia"]


def roster(bad: bool = False) -> str:
    rows = [(name, "Hill" if i % 2 else "Dale", GRADES[i // 8]) for i, name in enumerate(NAMES)]
    lines = ["name;school;grade", *(";".join(row) for row in rows)]
    if bad:
        lines.insert(2, "Zed;Hill;9th")  # line 3: a grade the tournament does not have
    # as a spreadsheet in Europe saves it: a byte order mark, `;`, Windows line endings
    return "\ufeff" + "\r\n".join(lines) + "\r\n"


def settle(page: Any) -> None:
    """Two animation frames: the layout after a resize or a redraw is done."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def look(pages: Pages, page: Any, name: str) -> None:
    """The page at each width: nothing off the screen or out of its box, every control
    labelled; with T24_SCREENSHOTS set, a screenshot of each (to look at: nothing reads
    them, and a full page's picture at each width costs Chromium a second or more a look)."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        settle(page)
        assert layout_problems(page) == [], (name, width, layout_problems(page))
        if os.environ.get("T24_SCREENSHOTS"):
            pages.shot(page, f"{name}-{width}")
    assert unlabelled_controls(page) == [], name
    page.set_viewport_size({"width": 1280, "height": 900})
    settle(page)


class Bots:
    """One `t24 bot` process per batch of slips (a round's, a tie-break's): each slip's link
    (its QR code's address) gives a seat's token, the batch's tokens file holds them all
    (0600, as `t24 admin create-table --tokens-out` writes them), and the process plays each
    seat (`--seat` again for each) until every one's round ends. One process, not one per
    seat: each costs about half a second of CPU to start."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.running: list[subprocess.Popen] = []
        self.count = 0

    def start(self, links: dict[str, str]) -> None:
        """A bot at each student's seat, `links`: student's name -> their slip's link."""
        self.count += 1
        urls = set()
        seats = []
        for name, link in links.items():
            http, _, token = link.partition("/#token=")
            urls.add(http.replace("http://", "ws://", 1) + "/ws")
            seats.append({"name": name, "token": token})
        (url,) = urls  # every slip points at the one server
        tokens = self.directory / f"bots-{self.count}.json"
        tokens.touch(mode=0o600)
        tokens.write_text(json.dumps({"url": url, "seats": seats}))
        log = open(self.directory / f"bots-{self.count}.log", "w")  # noqa: SIM115
        command = t24_command("bot", "--tokens", str(tokens))
        command += [flag for seat in seats for flag in ("--seat", seat["name"])]
        command += ["--skill", "perfect", "--seed", str(self.count * 100)]
        command += ["--time-scale", str(TIME_SCALE)]
        env = {k: v for k, v in os.environ.items() if not k.startswith("T24_")}  # the file's
        self.running.append(subprocess.Popen(command, env=env, stdout=log, stderr=log, cwd=ROOT))
        log.close()

    def wait(self, timeout: float = 180) -> None:
        for process in self.running:
            assert process.wait(timeout=timeout) == 0, "a bot failed (see bots-*.log)"
        self.running.clear()

    def stop(self) -> None:
        for process in self.running:
            if process.poll() is None:
                process.kill()
                process.wait(timeout=10)


@pytest.fixture
def director_run(tmp_path):
    process = ServerProcess(tmp_path / "srv").start()
    bots = Bots(tmp_path)
    yield process, bots
    bots.stop()
    if process.running():
        process.terminate()


def reloaded(page: Any, action: Any) -> None:
    """Do `action`, which changes the address's fragment, and wait for the page it loads
    (the web client starts afresh on a new fragment, js/main.js)."""
    page.evaluate("() => { window.t24OldPage = true; }")
    action()
    page.wait_for_function(
        "() => !window.t24OldPage && document.readyState === 'complete'", timeout=WAIT
    )


def say(page: Any, text: str) -> None:
    page.locator("#message", has_text=text).wait_for(timeout=WAIT)


def open_step(page: Any, step: str) -> None:
    reloaded(page, lambda: page.click(f"#step-{step}"))
    page.locator(f'main[data-step="{step}"]').wait_for(timeout=WAIT)


def printed_pages(page: Any) -> int:
    """How many pages the page prints on (Chromium's print to PDF, A4, print CSS)."""
    return len(re.findall(rb"/Type\s*/Page[^s]", page.pdf(format="A4")))


def print_slips(
    pages: Pages, page: Any, link_id: str, name: str | None, pdf_pages: int = 0
) -> dict[str, str]:
    """Open a printed plan; each student's name -> their slip's link (what its QR holds).
    `pdf_pages`: the sheets printed (Chromium's print to PDF, A4) are that many pages: a
    page per table for its proctor, a page of slips per table."""
    reloaded(page, lambda: page.click(link_id))
    page.locator("#sheets[data-ready]").wait_for(timeout=WAIT)
    slips = page.eval_on_selector_all(
        ".slip",
        "slips => slips.map(s => [s.dataset.student, s.querySelector('a.qr').href,"
        " s.querySelector('a.qr img').getAttribute('src')])",
    )
    assert slips
    for _student, href, src in slips:
        assert src == qr_data_uri(href)  # the code printed holds exactly this link
    proctors = page.eval_on_selector_all(".proctor-qr a.qr", "links => links.map(a => a.href)")
    assert len(proctors) == page.locator(".proctor-sheet").count()
    assert "t24v1." not in page.inner_text("body")  # no token as text on paper
    if pdf_pages:
        assert printed_pages(page) == pdf_pages
    if name:
        look(pages, page, name)
    reloaded(page, page.go_back)
    return {student: href for student, href, _src in slips}


def seat_print_start(pages, page, bots, number, look_as=None, skip_table=None) -> None:
    """Seat round `number`, print its plan, start it, and bots at every seat but those of
    the plan's table number `skip_table` (0 the first)."""
    page.locator("#seat-round").wait_for(timeout=WAIT)
    page.click("#seat-round")
    say(page, "The round is seated.")
    page.locator("#plan table").first.wait_for(timeout=WAIT)
    skip: list[str] = []
    if skip_table is not None:
        rows = page.locator("#plan table.plan-table").nth(skip_table).locator("tr[data-student]")
        skip = [rows.nth(i).locator("th").inner_text() for i in range(rows.count())]
        assert skip  # the table's students, seated: the plan is drawn
    links = print_slips(pages, page, "#print-plan", look_as and f"{look_as}-print")
    assert set(skip) <= set(links), (skip, sorted(links))
    page.locator("#start-round").wait_for(timeout=WAIT)
    if look_as:
        look(pages, page, f"{look_as}-seating")
    reloaded(page, lambda: page.click("#start-round"))
    page.locator('main[data-step="board"]').wait_for(timeout=WAIT)
    page.locator(".table-card").first.wait_for(timeout=WAIT)
    bots.start({student: link for student, link in links.items() if student not in skip})


def sign_every_table(page: Any) -> None:
    """The director signs each ended table's score card from the board (R-ROUND-7)."""
    cards = page.locator(".table-card")
    for index in range(cards.count()):
        card = cards.nth(index)
        hub = card.get_attribute("data-table")
        state = card.get_attribute("data-state")
        if state == "signed":
            continue
        page.locator(f'.table-card[data-table="{hub}"][data-state="ended"]').wait_for(timeout=WAIT)
        page.click(f'[data-sign="{hub}"]')
        page.locator(f'.table-card[data-table="{hub}"][data-state="signed"]').wait_for(timeout=WAIT)


def advance(pages, page, bots, number, looked: list[str]) -> None:
    """Advance round `number`, playing every tie-break the tournament seats first."""
    played: set[str] = set()
    while True:
        page.evaluate("() => { document.getElementById('message').textContent = ''; }")
        page.click("#advance-round")
        page.wait_for_function(
            "() => document.getElementById('message').textContent.trim() !== ''", timeout=WAIT
        )
        message = page.locator("#message")
        text = message.inner_text()
        if "advanced" in text:
            return
        assert "tie" in text.lower(), text
        ties = page.locator(".tie-break")
        ties.first.wait_for(timeout=WAIT)
        seated = [ties.nth(i).get_attribute("data-tie") for i in range(ties.count())]
        fresh = [tie for tie in seated if tie not in played]
        assert fresh, f"advance refused, yet no tie-break is left to play: {text}"
        for tie in fresh:  # every tie-break seated: their bots play them side by side
            played.add(tie)
            links = print_slips(pages, page, f'.tie-break[data-tie="{tie}"] a', None)
            page.locator(f'.tie-break[data-tie="{tie}"] .table-card').first.wait_for(timeout=WAIT)
            bots.start(links)
        if "tie-breaks" not in looked:
            looked.append("tie-breaks")
            page.locator('.tie-break .table-card[data-state="playing"]').first.wait_for(
                timeout=WAIT
            )
            look(pages, page, "board-tie-break")
        bots.wait()
        sign_every_table(page)


def protest_upheld(pages: Pages, token: str, http: str, hub: str) -> None:
    """At the table's console the director files a protest in their own name and upholds
    it with a point for the first student (R-ROUND-8)."""
    console = pages.open(http, token, width=1280, page="console", table=hub)
    console.locator('#protest-events input[type="checkbox"]').first.wait_for(timeout=WAIT)
    console.locator('#protest-events input[type="checkbox"]').first.check()
    console.fill("#protest-reason", "a card was won but not counted")
    console.click("#file-protest")
    console.locator('#protests li[data-protest="1"]').wait_for(timeout=WAIT)
    console.select_option("#correction-kind", "adjust_score")
    console.fill("#correction-delta", "1")
    console.fill("#correction-why", "the card was won")
    console.click("#add-correction")
    console.fill("#ruling", "upheld: the card was won")
    console.get_by_role("button", name="Uphold protest 1").click()
    console.locator('#protests li[data-protest="1"]', has_text="upheld").wait_for(timeout=WAIT)
    console.close()


def test_a_whole_tournament_from_the_director_s_console_only(director_run, pages, tmp_path):
    server, bots = director_run
    token = server.token("director", name="director")
    page = pages.open(server.http, token, width=1280)
    looked: list[str] = []

    # -- the console's home: create a tournament (a refusal first, in words) ------------
    page.locator("#create-form").wait_for(timeout=WAIT)
    look(pages, page, "home")
    page.fill("#new-id", TID)
    page.fill("#new-name", "Spring Cup")
    page.fill("#new-grades", ", ".join(GRADES))
    page.fill("#new-cards", "60")
    page.fill("#new-auto", "0.2")
    page.click("details summary")
    page.fill("#new-reveal", "0.1")
    page.fill("#new-tie-seconds", "6")
    page.fill("#new-advance", "4")
    page.click("#create")
    say(page, "cards_per_round")  # the server's refusal, in words, nothing recorded
    page.fill("#new-cards", "6")  # a practice event: six cards a round
    reloaded(page, lambda: page.click("#create"))

    # -- registration --------------------------------------------------------------------
    page.locator('main[data-step="registration"]').wait_for(timeout=WAIT)
    files = tmp_path / "files"
    files.mkdir()
    (files / "bad.csv").write_text(roster(bad=True), encoding="utf-8")
    (files / "roster.csv").write_text(roster(), encoding="utf-8")
    page.set_input_files("#roster-file", str(files / "bad.csv"))
    problems = page.locator("#preview-problems li")
    problems.first.wait_for(timeout=WAIT)
    assert problems.count() == 1 and "line 3" in problems.first.inner_text()
    assert page.is_disabled("#import")  # nothing can be imported while a row is bad
    page.set_input_files("#roster-file", str(files / "roster.csv"))
    page.locator("#preview table.preview tbody tr").first.wait_for(timeout=WAIT)
    assert page.locator("#preview table.preview tbody tr").count() == 16
    look(pages, page, "registration-preview")
    page.click("#import")
    page.locator('#roster tr[data-student="p16"]').wait_for(timeout=WAIT)
    page.fill("#add-name", "Extra")
    page.fill("#add-school", "Hill")
    page.select_option("#add-grade", "4th")
    page.click("#add")
    page.locator('#roster tr[data-student="p17"]').wait_for(timeout=WAIT)
    page.select_option("#change-student", "p1")
    page.fill("#new-student-name", "Ada Lovelace")
    page.click("#rename")
    page.locator('#roster tr[data-student="p1"] th', has_text="Ada Lovelace").wait_for(timeout=WAIT)
    page.select_option("#change-student", "p17")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#withdraw")
    page.locator('#roster tr.withdrawn[data-student="p17"]').wait_for(timeout=WAIT)
    look(pages, page, "registration")
    page.click("#close-registration")
    say(page, "Registration is closed.")

    # -- round 1: seat, swap, print, start; a protest upheld; signed by the director ------
    open_step(page, "seating")
    page.click("#seat-round")
    say(page, "The round is seated.")
    first, second = (
        page.locator("#plan table.plan-table").nth(0),
        page.locator("#plan table.plan-table").nth(1),
    )
    a = first.locator("tr[data-student]").first.get_attribute("data-student")
    b = second.locator("tr[data-student]").first.get_attribute("data-student")
    page.select_option("#swap-a", a)
    page.select_option("#swap-b", b)
    page.click("#swap")
    say(page, "changed seats")
    assert second.locator(f'tr[data-student="{a}"]').count() == 1
    links = print_slips(pages, page, "#print-plan", "round-1-print", pdf_pages=8)
    assert len(links) == 16 and "Ada Lovelace" in links
    look(pages, page, "seating")
    reloaded(page, lambda: page.click("#start-round"))
    page.locator(".table-card").first.wait_for(timeout=WAIT)
    waiting = page.locator('.table-card[data-state="waiting"]')
    waiting.first.wait_for(timeout=WAIT)  # no card before its students are there
    assert "0 of 4 here" in waiting.first.inner_text()
    look(pages, page, "board-waiting")
    bots.start(links)
    page.locator('.table-card[data-state="playing"]').first.wait_for(timeout=WAIT)
    look(pages, page, "board-playing")
    bots.wait()
    protested = f"{TID}.r1.s1.t01"
    page.locator(f'.table-card[data-table="{protested}"][data-state="ended"]').wait_for(
        timeout=WAIT
    )
    page.fill("#initials", "TD")
    protest_upheld(pages, token, server.http, protested)
    assert page.locator(".table-card.attention").count() >= 1  # to sign: it stands out
    look(pages, page, "board-to-sign")
    sign_every_table(page)
    page.click("#close-round")
    say(page, "The round is closed.")

    # -- round 2 -------------------------------------------------------------------------
    reloaded(page, lambda: page.click("#seat-next"))
    page.locator('main[data-step="seating"]').wait_for(timeout=WAIT)
    seat_print_start(pages, page, bots, 2)
    bots.wait()
    sign_every_table(page)
    page.click("#close-round")
    say(page, "The round is closed.")
    advance(pages, page, bots, 2, looked)

    # -- round 3, the semi-finals: 4th's ended at once, a tie for champion ------------------
    reloaded(page, lambda: page.click("#seat-next"))
    page.locator('main[data-step="seating"]').wait_for(timeout=WAIT)
    seat_print_start(pages, page, bots, 3, skip_table=0)  # 4th's: no bot, ended at once
    tied = f"{TID}.r3.s1.t01"
    console = pages.open(server.http, token, width=1280, page="console", table=tied)
    console.locator("#end:not([disabled])").wait_for(timeout=WAIT)
    console.once("dialog", lambda dialog: dialog.accept())
    console.click("#end")
    console.locator("#final:not([hidden])").wait_for(timeout=WAIT)
    console.close()
    bots.wait()
    sign_every_table(page)
    page.click("#close-round")
    say(page, "The round is closed.")
    advance(pages, page, bots, 3, looked)
    assert "tie-breaks" in looked  # at least the semi-final's tie was played off

    # -- the champions, the certificates, the bundle --------------------------------------
    champions = page.locator("#day-champions li")
    champions.first.wait_for(timeout=WAIT)
    assert champions.count() == 2
    look(pages, page, "board-champions")
    open_step(page, "results")
    page.locator("#champions li[data-section]").first.wait_for(timeout=WAIT)
    names = page.locator("#champions li").all_inner_texts()
    assert len(names) == 2 and all(n.startswith(GRADES) for n in names)
    reloaded(page, lambda: page.click("#print-certificates"))
    page.locator("#sheets[data-ready]").wait_for(timeout=WAIT)
    assert page.locator(".certificate").count() == 2
    assert printed_pages(page) == 2  # a page per champion
    look(pages, page, "certificates")
    reloaded(page, page.go_back)
    page.locator("#download-bundle").wait_for(timeout=WAIT)
    with page.expect_download(timeout=WAIT) as download:
        page.click("#download-bundle")
    archive = tmp_path / "bundle.zip"
    download.value.save_as(archive)
    key = page.locator("#bundle-key").inner_text().strip()
    look(pages, page, "results")
    with zipfile.ZipFile(archive) as opened:
        opened.extractall(tmp_path / "officials")
    bundle = tmp_path / "officials" / f"{TID}-bundle"
    verified = subprocess.run(
        t24_command("audit", "verify", str(bundle)) + ["--key", key],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "OK" in verified.stdout
    check_the_tables_in_the_bundle(bundle)


def check_the_tables_in_the_bundle(bundle: Path) -> None:
    """What the officials can read in the bundle: at every table no card was placed before
    play began (the semi-final ended at once never began), and the bots' tables began by
    themselves, every seat connected (decision 30); every score card was signed by the
    director; the protest was upheld."""
    upheld = 0
    for export in sorted((bundle / "streams").glob("table__*.jsonl")):
        events = [json.loads(line)["event"] for line in export.read_text().splitlines()[1:]]
        types = [event["type"] for event in events]
        began = types.index("PlayBegan") if "PlayBegan" in types else len(types)  # or ended
        assert "CardPlaced" not in types[:began], export.name
        signed = [event for event in events if event["type"] == "ScoreCardSigned"]
        assert signed and all(event["data"]["by"] == "director" for event in signed)
        upheld += sum(1 for e in events if e["type"] == "ProtestRuled" and e["data"]["upheld"])
        start = events[began]["data"] if began < len(types) else {}
        if "CardPlaced" in types:  # played by bots: it began when the last one connected
            assert start["by"] == "students", export.name
            seats = next(e for e in events if e["type"] == "RoundStarted")["data"]["seats"]
            assert start["connected"] == sorted(seat["seat"] for seat in seats), export.name
    assert upheld == 1
