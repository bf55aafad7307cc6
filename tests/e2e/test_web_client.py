"""The web client in a real browser against a real `t24-server` process (issue 13).

Headless Debian Chromium driven by Playwright (tests/e2e/web_browser.py). Each test waits for
what it expects on the page with a timeout, never a fixed sleep; screenshots go to tmp_path.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from cli_pty import answer, start_round
from server_process import ServerProcess
from web_browser import WAIT, Pages, feed_seqs, unlabelled_controls
from wsclients import AutobahnClient

SEATS3 = [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}, {"seat": "s3", "name": "Cy"}]


def test_the_server_serves_the_client_at_the_root_beside_ws(server):
    status, body, headers = server.get("/")
    assert status == 200 and b'<script type="module" src="js/main.js">' in body
    assert headers["Content-Type"].startswith("text/html")
    status, body, headers = server.get("/vendor/msgpack/index.mjs")
    assert status == 200 and headers["Content-Type"].startswith("text/javascript")
    assert server.get("/js/")[0] == 404  # no directory listing
    assert server.get("/nothing-here.js")[0] == 404
    assert server.get("/healthz")[0] == 200  # the other paths are still the server's


# Two cards: the first for the page's play, the second for what comes after it.
TWO_CARDS = [("a", [1, 2, 3, 4], 1), ("b", [3, 3, 8, 8], 3)]
# The server places and reveals each card 0.2 s after the last (a table with no proctor).
AUTO = {"auto_proctor": 0.2, "auto_reveal_seconds": 0.2}


def create_table(
    server, table: str, numbers: list[int] | None = None, cards=(), **options: Any
) -> None:
    """A table of three seats (Ada, Bo, Cy) and a one-card deck of `numbers`, or the deck
    of `cards` ((id, numbers, dots) each), created by a director's request: these tests
    test the page, not `t24 admin create-table` (the CLI's tests do), and a process costs
    a second of a loaded machine's time."""
    director = AutobahnClient(server.url)
    try:
        director.hello(server.token("director", name="director"))
        cards = cards or [("a", numbers, 1)]
        deck = [{"card_id": card, "numbers": nums, "dots": dots} for card, nums, dots in cards]
        options = {"seats": SEATS3, "deck": deck, **options}
        created = director.request("create_table", table=table, options=options)
        assert created["type"] == "table_created", created
    finally:
        director.close()


def player(server, table: str, seat: str) -> str:
    return server.token("player", table=table, seat=seat)


def fits_the_width(page, width: int) -> bool:
    """Nothing makes the page scroll sideways (a tablet's 768 px, a phone's 390 px)."""
    return page.evaluate("document.documentElement.scrollWidth") <= width


def controls_off_the_page(page, width: int) -> list[str]:
    """The controls drawn (not hidden) that reach past the page's left or right edge at
    this width: each must be whole on screen, never half cut off or scrolled to."""
    return page.evaluate(
        """(width) => [...document.querySelectorAll("button, input, select, textarea, a")]
            .filter((e) => e.getClientRects().length)
            .filter((e) => {
                const r = e.getBoundingClientRect();
                return r.left < 0 || r.right > width || r.width === 0;
            })
            .map((e) => `${e.tagName} ${e.id || e.textContent.slice(0, 40)}`)""",
        width,
    )


def revealed_numbers(page) -> list[int]:
    card = page.locator(".card.up")
    card.wait_for(timeout=WAIT)
    return [int(n) for n in card.get_attribute("data-numbers").split()]


def test_a_student_wins_a_card_in_the_browser_while_a_bot_plays_and_the_board_shows_it(
    server, cli, pages: Pages
):
    """R-PLAY-2/4/5 from the browser, keyboard only: touch with the space bar, the pattern,
    three steps, fix; the spectator's scoreboard shows the score change; a CLI bot plays
    seat s2."""
    create_table(server, "webwin", cards=TWO_CARDS, **AUTO)
    student = pages.open(server.http, player(server, "webwin", "s1"))
    board = pages.open(
        server.http, server.token("spectator", name="w", table="webwin"), beside=student
    )
    score = board.locator('[data-table="webwin"] tr[data-seat="s1"] td.score')
    score.wait_for(timeout=WAIT)
    assert score.inner_text() == "0"
    start_round(server, "webwin")

    numbers = revealed_numbers(student)
    pattern, steps = answer(numbers)
    # Keyboard only: space touches (one fingertip), the pattern field takes the focus,
    # Enter moves through the three steps, states them and focuses "Equals 24".
    student.keyboard.press("Space")
    student.locator("#pattern:focus").wait_for(timeout=WAIT)
    # The bot joins now, the card hers: it starts while she types, and touches the next
    # card as soon as it is revealed (its perfect pace, 0.2 s; it once started first at ten
    # times that, to leave her the first card, and the next card waited for it 2 s).
    bot = cli.spawn(
        "bot",
        *("--url", server.url, "--token", player(server, "webwin", "s2")),
        *("--skill", "perfect", "--time-scale", "1"),
    )
    student.keyboard.type(pattern)
    student.keyboard.press("Enter")
    student.locator("#step-1:focus").wait_for(timeout=WAIT)
    for step in steps:
        student.keyboard.type(step)
        student.keyboard.press("Enter")
    student.locator("#fix:focus").wait_for(timeout=WAIT)
    student.keyboard.press("Enter")
    student.locator("#result", has_text="won the card").wait_for(timeout=WAIT)
    pages.shot(student, "student-won")
    board.locator('[data-table="webwin"] tr[data-seat="s1"] td.score[data-score="1"]').wait_for(
        timeout=WAIT
    )
    pages.shot(board, "board-after-win")
    # the bot plays the next card on its own seat
    bot.expect("connected")
    student.locator("#feed li", has_text="Bo touched").first.wait_for(timeout=WAIT)

    board.get_by_role("link", name="Replay webwin").click()  # the same token, another page
    replay = board
    replay.locator("#position", has_text="Event 1 of").wait_for(timeout=WAIT)
    replay.click("#last")
    replay.locator("#position", has_text="in the feed").wait_for(timeout=WAIT)
    for _ in range(30):  # back past the bot's plays (it may have won the next card)
        replay.click("#previous")
        if "Ada won card" in replay.inner_text("#sentence"):
            break
    assert "Ada won card" in replay.inner_text("#sentence")


def test_a_wrong_solution_draws_the_flag_on_screen(server, pages: Pages):
    """R-PLAY-5: an incorrect fixed solution is flagged (R-FLAG-1), and the page shows it."""
    create_table(server, "webflag", cards=TWO_CARDS, **AUTO)
    student = pages.open(server.http, player(server, "webflag", "s1"), width=768)
    student.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
    start_round(server, "webflag")
    revealed_numbers(student)
    student.click("#touch")
    student.locator("#pattern:enabled").wait_for(timeout=WAIT)
    student.fill("#pattern", "4 * 6")
    student.click("#declare")
    student.fill("#step-1", "1 + 1 = 2")
    student.fill("#step-2", "2 + 2 = 4")
    student.fill("#step-3", "4 * 6 = 24")
    student.click("#fix")
    student.locator("#feed li.flag", has_text="incorrect solution").wait_for(timeout=WAIT)
    student.locator('tr[data-seat="s1"] td.flags', has_text="⚑ 1").wait_for(timeout=WAIT)
    assert fits_the_width(student, 768)
    pages.shot(student, "student-flagged-768")

    # R-ROUND-8 from the console: a protest naming the flag (ticked in the numbered list),
    # previewed, upheld with a correction that rescinds it (the flag picked from the student's
    # standing flags); the student's page shows the flag gone.
    flag = student.locator("#feed li.flag").first.get_attribute("data-seq")
    console = pages.open(
        server.http, server.token("proctor", name="p", table="webflag"), beside=student
    )
    console.locator(f'#protest-events li[data-seq="{flag}"] input:enabled').check()
    console.fill("#protest-reason", "the steps were right")
    console.click("#file-protest")
    console.locator("#protests li", has_text="open").wait_for(timeout=WAIT)
    console.select_option("#correction-kind", "rescind_flag")
    console.select_option("#correction-seat", "s1")
    console.select_option("#correction-flag", flag)
    console.click("#add-correction")
    console.click("#preview")
    console.locator("#preview-result", has_text="Ada score 0 → 0, flags 1 → 0").wait_for(
        timeout=WAIT
    )
    console.get_by_role("button", name="Uphold protest 1").click()
    console.locator("#protests li", has_text="upheld").wait_for(timeout=WAIT)
    student.locator('tr[data-seat="s1"] td.flags', has_text="0 of").wait_for(timeout=WAIT)


def test_an_expired_token_shows_a_clear_message(server, pages: Pages):
    expired = server.signer().issue(
        "player", now=time.time() - 3600, ttl_seconds=60, table="webflag", seat="s1"
    )[0]
    page = pages.open(server.http, expired)
    page.locator("#fatal", has_text="expired").wait_for(timeout=WAIT)
    pages.shot(page, "expired")


# The token's lives tried in turn (seconds): the page must load and say hello before the
# token expires, or the test is not about a token that expires *while the page is open*.
# 3 s leave a quiet machine 2 s to spare; a loaded one that loaded the page too late (the
# page then says "expired" without having connected) gets a longer life, up to 20 s.
EXPIRY_TTLS = (3, 8, 20)


def test_a_token_that_expires_while_the_page_is_open_shows_a_clear_message(server, pages: Pages):
    """The server ends the session at the token's expiry (an `unauthorized` error, close
    1008): the page stops reconnecting and says the link expired."""
    create_table(server, "webexpiry", [1, 2, 3, 4])
    for ttl in EXPIRY_TTLS:
        short = server.signer().issue(
            "player", now=time.time(), ttl_seconds=ttl, table="webexpiry", seat="s1"
        )[0]
        page = pages.open(server.http, short)
        # whichever comes first: connected (the case tested), or refused at the hello
        page.locator('#status:has-text("Connected"), #fatal').first.wait_for(
            timeout=WAIT + ttl * 1000
        )
        connected_first = page.locator("#fatal").count() == 0
        page.locator("#fatal", has_text="expired").wait_for(timeout=WAIT)
        if connected_first:
            return
    pytest.fail(f"the page never connected before its token expired (lives {EXPIRY_TTLS} s)")


def test_a_link_without_a_token_says_so(server, pages: Pages):
    page = pages.open(server.http, "")
    page.locator("#fatal", has_text="no token").wait_for(timeout=WAIT)


def test_a_server_restart_shows_the_pause_and_the_console_resumes(tmp_path, pages: Pages):
    """Server restart: the student page shows the lost connection, then the table paused
    (`server_restart`); the proctor resumes from the console and the card goes on. The
    page's feed, resumed by `after_seq`, has no event missing and none twice."""
    process = ServerProcess(tmp_path / "srv").start()
    try:
        create_table(process, "webrestart", cards=TWO_CARDS, **AUTO)
        token = player(process, "webrestart", "s1")
        student = pages.open(process.http, token, width=390)  # a phone
        student.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
        start_round(process, "webrestart")
        revealed_numbers(student)
        student.locator("#feed li", has_text="revealed").wait_for(timeout=WAIT)
        before = feed_seqs(student)
        port = process.port
        process.terminate()
        student.locator("#pause", has_text="Connection lost").wait_for(timeout=WAIT)
        process.start("--port", str(port))  # same port, same store
        student.locator("#pause", has_text="server restart").wait_for(timeout=WAIT)
        assert student.locator("#touch").is_disabled()
        assert fits_the_width(student, 390)
        pages.shot(student, "student-paused-phone")
        proctor = process.token("proctor", name="p", table="webrestart")
        console = pages.open(process.http, proctor, beside=student)
        console.locator("#pause", has_text="server restart").wait_for(timeout=WAIT)
        console.click("#resume")
        resumed = student.locator("#feed li", has_text="Resumed")
        resumed.wait_for(timeout=WAIT)
        student.locator("#touch:enabled").wait_for(timeout=WAIT)
        assert "Paused" not in student.inner_text("#pause")
        # the page rejoined with after_seq = the last seq it saw: its feed holds every event
        # once, none missed over the restart and none drawn twice, as a fresh page's feed
        last = int(resumed.get_attribute("data-seq"))
        seen = feed_seqs(student)
        assert len(seen) == len(set(seen)), seen
        assert sorted(seen) == list(range(1, max(seen) + 1)), seen
        assert set(before) < set(seen) and last in seen, (before, seen)
        console.locator(f'#feed li[data-seq="{last}"]').wait_for(timeout=WAIT)
        fresh = feed_seqs(console)
        assert [s for s in seen if s <= last] == [s for s in fresh if s <= last], (seen, fresh)
        paused = student.locator("#feed li", has_text="paused (the server restarted)")
        assert max(before) < int(paused.get_attribute("data-seq")) < last
    finally:
        if process.running():
            process.terminate()


@pytest.fixture(scope="module")
def labels_table(server) -> str:
    """One table for the three pages the label test opens (they only read it)."""
    create_table(server, "weblabels", [1, 2, 3, 4])
    return "weblabels"


@pytest.mark.parametrize("person", ["s1", "proctor", "spectator"])
def test_every_control_of_the_student_page_the_console_and_the_board_has_a_label(
    server, labels_table, pages: Pages, person
):
    if person == "s1":
        token = server.token("player", table=labels_table, seat="s1")
    else:
        token = server.token(person, table=labels_table, name=person)
    page = pages.open(server.http, token)
    page.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
    page.locator("table.seats").wait_for(timeout=WAIT)
    tree = page.locator("body").aria_snapshot()
    if person != "spectator":  # the scoreboard has links only
        assert "button" in tree and "textbox" in tree, tree
    assert unlabelled_controls(page) == [], tree
    pages.shot(page, f"labels-{person}")


@pytest.fixture(scope="module")
def mid_card_table(server) -> str:
    """A table where the pages show their most controls: the card revealed, a protest open
    (only read by the tests that use it)."""
    table = "webmidcard"
    create_table(server, table, [1, 2, 3, 4], no_touch_seconds=3600)  # the card stays up
    proctor = AutobahnClient(server.url)
    try:
        proctor.hello(server.token("proctor", name="p", table=table))
        for name in ("start_round", "place_card", "reveal_card"):
            reply = proctor.request("command", table=table, name=name, args={})
            assert reply["type"] == "accepted", reply
        args = {"seqs": [reply["seq"]], "reason": "the card was shown early"}
        filed = proctor.request("command", table=table, name="file_protest", args=args)
        assert filed["type"] == "accepted", filed
    finally:
        proctor.close()
    return table


def open_console(pages: Pages, server, table: str, beside: Any) -> Any:
    """The director's console of `table`, drawn with its open protest."""
    token = server.token("director", name="director")
    console = pages.open(server.http, token, page="console", table=table, beside=beside)
    console.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
    console.get_by_role("button", name="Uphold protest 1").wait_for(timeout=WAIT)
    return console


def open_links_board(pages: Pages, server, table: str, beside: Any) -> Any:
    """The director's scoreboard of `table`, with the links made for its people."""
    token = server.token("director", name="director")
    board = pages.open(server.http, token, page="board", table=table, beside=beside)
    board.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
    board.click(f'[data-links="{table}"]')
    board.locator(f'[data-table="{table}"] a[data-person="spectator"]').wait_for(timeout=WAIT)
    return board


def test_every_control_is_labelled_mid_card_with_a_protest_open_and_the_director_s_links(
    server, mid_card_table, pages: Pages
):
    """The label check where the pages show their most controls: the student page with
    the card revealed (the touch enabled), the director's console with an open protest
    (its uphold and reject buttons) and the reopening, and the director's scoreboard with
    its buttons and the links it made for the people of the table. Then the console and
    the scoreboard fit a tablet and a phone (the same pages narrowed: each page opened is a
    second of Chromium's CPU, and these opened four more)."""
    table = mid_card_table

    student = pages.open(server.http, server.token("player", table=table, seat="s1"))
    student.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
    student.locator("#touch:enabled").wait_for(timeout=WAIT)
    assert unlabelled_controls(student) == [], student.locator("body").aria_snapshot()

    console = open_console(pages, server, table, beside=student)
    assert console.locator("#reopen").count() == 1  # the director's
    assert unlabelled_controls(console) == [], console.locator("body").aria_snapshot()

    board = open_links_board(pages, server, table, beside=student)
    tree = board.locator("body").aria_snapshot()
    assert f'button "Links for the people of {table}"' in tree, tree
    assert f'link "Console of {table}"' in tree and 'link "http' in tree, tree
    assert unlabelled_controls(board) == [], tree
    pages.shot(board, "labels-director-board")

    the_console_and_the_scoreboard_fit_a_tablet_and_a_phone(pages, console, board)


def narrowed(page, width: int) -> None:
    """The page at `width` px, laid out again."""
    page.set_viewport_size({"width": width, "height": 900})
    page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )


def the_console_and_the_scoreboard_fit_a_tablet_and_a_phone(pages: Pages, console, board) -> None:
    """The console with its most controls (mid-card, a protest open, the director's
    reopening) and the director's scoreboard with the links it made (each holds a long
    token) scroll only down at a tablet's 768 px and a phone's 390 px: nothing wider than
    the page, every control whole on it."""
    console.locator(".card.up").wait_for(timeout=WAIT)
    for width in (768, 390):
        narrowed(console, width)
        scroll = console.evaluate("document.documentElement.scrollWidth")
        assert fits_the_width(console, width), (width, scroll)
        assert controls_off_the_page(console, width) == [], width
        pages.shot(console, f"console-{width}")

        narrowed(board, width)
        assert fits_the_width(board, width), board.evaluate("document.documentElement.scrollWidth")
        assert controls_off_the_page(board, width) == [], width
        pages.shot(board, f"board-links-{width}")


def test_the_director_makes_links_and_the_console_runs_a_proctored_card(server, pages):
    """The director's scoreboard issues a link per person (`issue_token`); on a proctored
    table the proctor's console starts, places, reveals and records a seat's touch, pattern
    and steps (R-PLAY-2/4/5), and the seat wins the card."""
    create_table(server, "webproctored", [1, 2, 3, 4], mode="proctored")
    director = pages.open(  # the board of one table (the shared server has many)
        server.http, server.token("director", name="director"), page="board", table="webproctored"
    )
    director.locator('[data-table="webproctored"] tr[data-seat="s1"]').wait_for(timeout=WAIT)
    director.click('[data-links="webproctored"]')
    link = director.locator('[data-table="webproctored"] a[data-person="proctor"]')
    link.wait_for(timeout=WAIT)
    assert "#token=t24v1." in link.get_attribute("href")
    proctor = link.get_attribute("href").split("#token=")[1]
    console = pages.open(server.http, proctor, beside=director)
    console.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
    console.click("#start")
    console.locator("#feed li", has_text="Round 1 started").wait_for(timeout=WAIT)
    console.click("#place")
    console.locator(".card.up").wait_for(timeout=WAIT)  # the proctor sees the cupped card
    console.click("#reveal")
    console.locator("#feed li", has_text="revealed").wait_for(timeout=WAIT)
    pattern, steps = answer([1, 2, 3, 4])
    console.select_option("#seat", "s1")
    console.click("#touch-for")
    console.locator("#feed li", has_text="Ada touched").wait_for(timeout=WAIT)
    console.fill("#pattern-for", pattern)
    console.click("#declare-for")
    console.locator("#feed li", has_text="declared the pattern").wait_for(timeout=WAIT)
    console.fill("#steps-for", "; ".join(steps))
    console.click("#steps-record")
    console.locator("#feed li", has_text="stated").wait_for(timeout=WAIT)
    console.click("#fix-for")
    console.locator("#feed li.won", has_text="Ada won card").wait_for(timeout=WAIT)
    director.locator(
        '[data-table="webproctored"] tr[data-seat="s1"] td.score[data-score="1"]'
    ).wait_for(timeout=WAIT)
    console.click("#sign")  # no initials: refused, and the refusal is shown in words
    console.locator("#message", has_text="missing something").wait_for(timeout=WAIT)
    # R-ROUND-8: a protest, heard and ruled from the console; then the signature (R-ROUND-7)
    console.locator('#protest-events li[data-seq="8"] input').check()
    console.fill("#protest-reason", "the steps were read wrong")
    console.click("#file-protest")
    console.locator("#protests li", has_text="open").wait_for(timeout=WAIT)
    console.fill("#ruling", "the steps were read right")
    console.get_by_role("button", name="Reject protest 1").click()
    console.locator("#protests li", has_text="rejected").wait_for(timeout=WAIT)
    console.fill("#initials", "PK")
    console.click("#sign")
    console.locator("#signed", has_text="Signed by PK").wait_for(timeout=WAIT)
    pages.shot(console, "console-proctored")


def test_the_label_check_finds_unlabelled_controls(pages: Pages):
    """The check above is not vacuous: a bare input, an empty button, a select and a slider
    without a label are found, and so are the ones the page hides now (a `hidden` part, a
    closed `<details>`), which it leaves hidden."""
    page = pages.browser.new_page()
    try:
        page.set_content(
            "<button></button><input><label>Name <input></label>"
            "<button>Go</button><select></select>"
            '<label for="r">Event</label><input id="r" type="range"><input type="range">'
            "<div hidden><button></button><button>Shown later</button></div>"
            "<details><summary>More</summary><input></details>"
        )
        found = unlabelled_controls(page)
        shown_only = unlabelled_controls(page, hidden=False)
        still_hidden = page.locator("body").aria_snapshot()
    finally:
        page.close()
    assert len(found) == 6 and len(shown_only) == 4, (found, shown_only)
    assert [line.split()[1].rstrip(":") for line in found].count("slider") == 1, found
    assert "Shown later" not in still_hidden and "- textbox" not in still_hidden.split("More")[1]


def test_the_browser_applies_view_pushes_as_protocol_views_does(page_without_a_token):
    """wire.js's `applyViewMessage` is the JavaScript twin of
    `protocol.views.apply_view_message`: the same views from the same messages."""
    from protocol.views import apply_view_message, view_change

    before = {"phase": "revealed", "toucher": None, "touches": [], "seats": [{"seat": "s1"}]}
    after = {"phase": "solving", "toucher": "s1", "touches": ["s1"], "seats": [{"seat": "s1"}]}
    smaller = {"phase": "between_cards"}
    messages = [
        (before, view_change(before, after)),  # a patch
        (before, view_change(before, smaller)),  # keys unset, or the whole view
        (None, view_change(None, after)),  # a whole view
        (before, {"patch": {"set": {"new": 1}, "unset": ["seats"]}}),
    ]
    page = page_without_a_token()
    drawn = page.evaluate(
        """async (cases) => {
            const { applyViewMessage } = await import("/js/wire.js");
            return cases.map(([view, message]) => applyViewMessage(view, message));
        }""",
        [list(case) for case in messages],
    )
    assert drawn == [apply_view_message(view, message) for view, message in messages]
