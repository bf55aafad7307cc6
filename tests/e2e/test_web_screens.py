"""Every screen a person reads (issue 27), in a real browser at a phone's, a tablet's and a
laptop's width (390, 768 and 1280 px), with Double Digits cards (21 16 8 21 once read
"2116 8 21") and a long name: nothing wider than the screen, no card number running into
another (measured from the elements' boxes, `web_browser.layout_problems`), and a screenshot
of each page at each width (kept under `T24_SCREENSHOTS` when it is set).

Also what each page says: the student's end screen (the winner, the ranking, the student's own
place, names and not seat ids), a stale message cleared by the next card, the hint for a digit
typed before touching; the console's replies styled apart, its buttons disabled when their
command cannot apply (its table of phases compared with the server's), a protest whose event
is ticked in a numbered list and a ruling whose corrections are picked from lists; the
scoreboard of one table across the screen and its projector mode.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from cli_pty import answer
from web_browser import WAIT, Pages, card_gaps, layout_problems, unlabelled_controls

from server.games.challenge import COMMANDS, TIMER
from server.games.challenge.options import tournament_table_deck

pytestmark = pytest.mark.e2e

WIDTHS = (390, 768, 1280)
LONG = "Maximilian Alexander Østergaard-Johannessen"
SEATS = [{"seat": "s1", "name": LONG}, {"seat": "s2", "name": "Bo"}, {"seat": "s3", "name": "Cy"}]
# Double Digits (R-DECK-2): the cards the user test read wrong, and one more; no card of 2
# dots, which a table of three would set aside (R-DECK-4)
DOUBLE = [
    {"card_id": "d1", "numbers": [21, 16, 8, 21], "dots": 3},
    {"card_id": "d2", "numbers": [20, 19, 12, 9], "dots": 3},
    {"card_id": "d3", "numbers": [13, 17, 19, 23], "dots": 1},
]
SLOW = {"pattern_seconds": 60, "solution_seconds": 120, "no_touch_seconds": 120}
ROUND_BUTTONS = ("start", "place", "reveal", "pause-table", "resume", "end")
SEAT_BUTTONS = ("touch-for", "override", "stumped-for", "slap", "declare-for", "steps-record")
SEAT_BUTTONS += ("fix-for", "flag")
_ids = itertools.count(1)


def accepted(client, table: str, name: str, **args: Any) -> dict[str, Any]:
    reply = client.request("command", table=table, name=name, args=args)
    assert reply["type"] == "accepted", reply
    return reply


def at_each_width(pages: Pages, page, name: str) -> None:
    """At 390, 768 and 1280 px: nothing wider than the screen, no card number into another,
    a screenshot each (`name-WIDTH.png`)."""
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate(
            "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
        )
        assert layout_problems(page) == [], (name, width)
        assert all(gap >= 4 for gap in card_gaps(page)), (name, width, card_gaps(page))
        pages.shot(page, f"{name}-{width}")


def table_with(connect, server, options: dict[str, Any]) -> str:
    director = connect(server.token("director", name="dir"))
    table = f"screens-{next(_ids)}"
    created = director.request("create_table", table=table, options=options)
    assert created["type"] == "table_created", created
    return table


def joined(client, table: str):
    assert client.request("join", table=table)["type"] == "snapshot"
    return client


def win(client, table: str, numbers: list[int], seat: str | None = None) -> None:
    """A raw client (a player, or the proctor for `seat`) touches and solves the card."""
    who = {"seat": seat} if seat else {}
    pattern, steps = answer(numbers)
    accepted(client, table, "touch_card", fingertips=1, **who)
    accepted(client, table, "declare_pattern", pattern=pattern, **who)
    accepted(client, table, "fix_solution", steps=steps, **who)


def test_the_student_page_reads_right_at_every_width_to_the_end_of_the_round(
    server, connect, pages: Pages
):
    """Double Digits cards at 390, 768 and 1280 px; a digit before touching gets a hint; a
    refusal about one card is gone when the next is placed; the end screen names the winner,
    ranks everyone and tells the student their own place, by name, never by seat id."""
    table = table_with(connect, server, {"seats": SEATS, "deck": DOUBLE, **SLOW})
    proctor = joined(connect(server.token("proctor", name="p", table=table)), table)
    bo = joined(connect(server.token("player", table=table, seat="s2")), table)
    student = pages.open(server.http, server.token("player", table=table, seat="s1"), width=390)
    student.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
    student.locator("#who", has_text=f"You are {LONG}.").wait_for(timeout=WAIT)
    accepted(proctor, table, "start_round")
    accepted(proctor, table, "place_card")
    accepted(proctor, table, "reveal_card")
    student.locator('.card.up[data-numbers="21 16 8 21"]').wait_for(timeout=WAIT)
    assert student.locator(".card.up .number").all_inner_texts() == ["21", "16", "8", "21"]
    student.locator("#touch:enabled:focus").wait_for(timeout=WAIT)
    student.keyboard.press("2")  # before touching: nothing is sent, the page says why
    student.locator("#hint", has_text="A digit alone does not touch the card").wait_for(
        timeout=WAIT
    )
    at_each_width(pages, student, "student-card")

    student.keyboard.press("Space")
    student.locator("#pattern:focus").wait_for(timeout=WAIT)
    assert student.inner_text("#hint") == ""  # touched: the hint is done
    student.keyboard.type("hello")
    student.keyboard.press("Enter")
    student.locator("#message", has_text="The pattern cannot be read").wait_for(timeout=WAIT)
    accepted(proctor, table, "issue_flag", seat="s1", cause="no_pattern")
    proctor.event("CardReturnedToDeck")
    student.locator('#result [data-event="FlagIssued"]').wait_for(timeout=WAIT)
    assert "The pattern cannot be read" in student.inner_text("#message")  # still this card's
    accepted(proctor, table, "place_card")  # a new card: the old message goes
    student.locator(".card.down").wait_for(timeout=WAIT)
    student.locator("#message:empty").wait_for(state="attached", timeout=WAIT)
    assert student.inner_text("#result") == ""
    accepted(proctor, table, "reveal_card")
    student.locator('.card.up[data-numbers="20 19 12 9"]').wait_for(timeout=WAIT)
    win(bo, table, [20, 19, 12, 9])  # Bo wins 3 points
    student.locator('tr[data-seat="s2"] td.score[data-score="3"]').wait_for(timeout=WAIT)
    accepted(proctor, table, "place_card")
    accepted(proctor, table, "reveal_card")
    student.locator('.card.up[data-numbers="13 17 19 23"]').wait_for(timeout=WAIT)
    student.locator("#touch:enabled:focus").wait_for(timeout=WAIT)
    pattern, steps = answer([13, 17, 19, 23])
    student.keyboard.press("Space")
    student.locator("#pattern:focus").wait_for(timeout=WAIT)
    student.keyboard.type(pattern)
    student.keyboard.press("Enter")
    student.locator("#step-1:focus").wait_for(timeout=WAIT)
    for step in steps:
        student.keyboard.type(step)
        student.keyboard.press("Enter")
    student.locator("#fix:focus").wait_for(timeout=WAIT)
    student.keyboard.press("Enter")
    student.locator("#result", has_text="won the card").wait_for(timeout=WAIT)
    accepted(proctor, table, "end_round")

    final = student.locator("#final:visible")
    final.wait_for(timeout=WAIT)
    assert student.inner_text("#final .winner-line") == "Bo wins with 3 points."
    assert student.inner_text("#own-result") == "You finished 2nd of 3 with 1 point."
    rows = student.locator("#final table.ranking tbody tr")
    assert [rows.nth(i).get_attribute("data-seat") for i in range(3)] == ["s2", "s1", "s3"]
    assert [rows.nth(i).get_attribute("data-place") for i in range(3)] == ["1", "2", "3"]
    assert LONG in rows.nth(1).inner_text()
    for shown in ("#final", "#who", "#seats", "#feed"):
        text = student.inner_text(shown)
        assert not any(f"({seat})" in text or f"seat {seat}" in text for seat in ("s1", "s2", "s3"))
    assert unlabelled_controls(student) == []
    at_each_width(pages, student, "student-end")

    # a protest from the student page: the flag ticked in the numbered list of events
    flag = proctor.event("FlagIssued")
    student.click("#protest-details summary")
    choice = student.locator(f'#protest-events li[data-seq="{flag["seq"]}"]')
    assert choice.inner_text().startswith(f"{flag['seq']}.")
    choice.locator("input").check()
    student.fill("#protest-reason", "I was about to say it")
    student.click("#file-protest")
    filed = proctor.event("ProtestFiled")["data"]
    assert (filed["by"], filed["seqs"], filed["reason"]) == (
        "s1",
        [flag["seq"]],
        "I was about to say it",
    )
    student.locator("#message", has_text="The protest is filed").wait_for(timeout=WAIT)
    assert student.locator("#protest-events input:checked").count() == 0

    # the replay of the card the user test read as "201912 9"
    shown = next(
        e
        for e in proctor.events()
        if e["event_type"] == "CardRevealed" and e["data"]["numbers"] == [20, 19, 12, 9]
    )
    replay = pages.open(
        server.http,
        server.token("player", table=table, seat="s1"),
        width=390,
        page="replay",
        table=table,
        beside=student,  # another tab of her browser (web_browser.py `Pages.open`)
    )
    pages.done(student)  # it would tick on beside the replay (web_browser.py `Pages.done`)
    replay.locator("#slider:enabled").wait_for(timeout=WAIT)
    replay.locator("#slider").fill(str(shown["seq"]))
    replay.locator(
        f'#step[data-seq="{shown["seq"]}"] .card.up[data-numbers="20 19 12 9"]'
    ).wait_for(timeout=WAIT)
    at_each_width(pages, replay, "replay-student")


def test_the_console_disables_what_cannot_apply_and_rules_by_picking(server, connect, pages: Pages):
    """The console at every width; a command done and one refused styled apart (and neither
    stretched down the page); before the round only Start, after it no round or seat button;
    a protest filed by ticking the disputed flag in the numbered list, a ruling whose
    corrections are picked (the flag of the protesting student, a card revealed and not won)."""
    seats = [*SEATS, {"seat": "s4", "name": "Di"}]
    options = {"seats": seats, "deck": DOUBLE, "mode": "proctored", **SLOW}
    table = table_with(connect, server, options)
    watcher = joined(connect(server.token("spectator", name="w", table=table)), table)
    console = pages.open(
        server.http, server.token("director", name="d"), width=1280, page="console", table=table
    )
    console.on("dialog", lambda dialog: dialog.accept())
    console.locator('#seats tr[data-seat="s4"]').wait_for(timeout=WAIT)
    console.locator("#start:enabled").wait_for(timeout=WAIT)
    for button in (*ROUND_BUTTONS[1:], *SEAT_BUTTONS, "sign", "file-protest", "reopen"):
        assert console.locator(f"#{button}").is_disabled(), button

    def click(button: str, event: str, seat: str | None = None) -> dict:
        if seat is not None:
            console.select_option("#seat", seat)
        console.click(f"#{button}")
        push = watcher.event(event)
        console.locator(f'#feed li[data-seq="{push["seq"]}"]').wait_for(timeout=WAIT)
        return push

    click("start", "RoundStarted")
    message = console.locator("#message")
    message.filter(has_text="The round has started.").wait_for(timeout=WAIT)
    assert message.get_attribute("data-kind") == "ok"
    done_style = message.evaluate("e => getComputedStyle(e).backgroundColor")
    assert message.bounding_box()["height"] < 80  # one line, not the feed's height
    click("place", "CardPlaced")
    click("reveal", "CardRevealed")
    console.locator('.card.up[data-numbers="21 16 8 21"]').wait_for(timeout=WAIT)
    at_each_width(pages, console, "console-card")
    console.set_viewport_size({"width": 1280, "height": 900})
    click("touch-for", "CardTouched", "s1")
    console.click("#touch-for")  # s1 again: refused
    message.filter(has_text="touch on this card is recorded already").wait_for(timeout=WAIT)
    assert message.get_attribute("data-kind") == "error"
    assert message.evaluate("e => getComputedStyle(e).backgroundColor") != done_style
    pattern, steps = answer([21, 16, 8, 21])
    console.fill("#pattern-for", pattern)
    click("declare-for", "PatternDeclared")
    console.fill("#steps-for", "; ".join(steps))
    click("steps-record", "StepsStated")
    assert click("fix-for", "CardWon")["data"]["seat"] == "s1"
    click("place", "CardPlaced")
    click("reveal", "CardRevealed")
    console.select_option("#cause", "no_pattern")
    flag = click("flag", "FlagIssued", "s2")
    click("end", "RoundEnded")

    # after the round: no round or seat command applies; the score card and protests do
    console.locator("#final:visible .winner-line", has_text=f"{LONG} wins with 3 points").wait_for(
        timeout=WAIT
    )
    for button in (*ROUND_BUTTONS, *SEAT_BUTTONS):
        assert console.locator(f"#{button}").is_disabled(), button
    assert console.locator("#sign").is_enabled() and console.locator("#file-protest").is_enabled()

    # a protest for Bo, its event ticked in the numbered list of the table's events
    console.select_option("#protest-for", "s2")
    choice = console.locator(f'#protest-events li[data-seq="{flag["seq"]}"]')
    assert (
        choice.inner_text().startswith(f"{flag['seq']}.")
        and "Penalty flag for Bo" in choice.inner_text()
    )
    choice.locator("input").check()
    console.fill("#protest-reason", "I was still thinking")
    filed = click("file-protest", "ProtestFiled")["data"]
    assert (filed["by"], filed["seqs"]) == ("s2", [flag["seq"]]), filed
    assert console.locator("#sign").is_disabled()  # a protest is open

    # the corrections, picked: Bo's flag, and card 20 19 12 9 (revealed, never won) for Cy
    console.select_option("#correction-kind", "rescind_flag")
    console.select_option("#correction-seat", "s2")
    flags = console.locator("#correction-flag option").all_inner_texts()
    assert flags == [f"Event {flag['seq']}: no pattern within the time (R-PLAY-4)"], flags
    console.click("#add-correction")
    console.select_option("#correction-kind", "award_card")
    console.select_option("#correction-seat", "s3")
    cards = console.locator("#correction-card option")
    assert cards.all_inner_texts() == ["20 19 12 9"]  # 21 16 8 21 is won
    console.click("#add-correction")
    assert console.locator("#corrections li").all_inner_texts() == [
        f"Rescind Bo's flag of event {flag['seq']}. Remove correction 1",
        "Award the card 20 19 12 9 to Cy. Remove correction 2",
    ]
    console.click("#preview")
    console.locator("#preview-result", has_text="Cy score 0 → 3").wait_for(timeout=WAIT)
    console.fill("#ruling", "the flag came too early")
    console.click('button:has-text("Uphold protest 1")')
    rescinded = watcher.event("FlagRescinded")["data"]
    assert (rescinded["seat"], rescinded["flag"]) == ("s2", flag["seq"])
    awarded = watcher.event("CardAwarded")["data"]
    assert (awarded["seat"], awarded["card"]) == ("s3", "d2")
    console.locator("#corrections li").first.wait_for(state="detached", timeout=WAIT)
    console.fill("#initials", "DK")
    click("sign", "ScoreCardSigned")
    console.locator("#reopen:enabled").wait_for(timeout=WAIT)
    assert console.locator("#sign").is_disabled() and console.locator("#file-protest").is_disabled()
    assert unlabelled_controls(console) == []
    at_each_width(pages, console, "console-end")

    # the console's table of phases is the server's (commands.js)
    copied = console.evaluate(
        """async () => { const m = await import("/js/commands.js");
        return { phases: m.COMMAND_PHASES, paused: m.WHILE_PAUSED, waiting: m.WHILE_WAITING }; }"""
    )
    sent_by_people = {name for name, rule in COMMANDS.items() if rule.roles != TIMER}
    assert set(copied["phases"]) == sent_by_people
    for name in sent_by_people:
        assert set(copied["phases"][name]) == set(COMMANDS[name].phases), name
        assert (name in copied["paused"]) == ("paused" in COMMANDS[name].passes), name
        assert (name in copied["waiting"]) == ("waiting" in COMMANDS[name].passes), name


THREE_DIGITS = """(width) => import("/js/draw.js").then(({ drawCard }) => {
    const box = document.createElement("section");
    box.id = "three-digits";
    box.style.width = width;
    box.style.maxWidth = "100%";
    box.style.boxSizing = "border-box";
    box.append(drawCard({ card: { play: 9, numbers: [100, 999, 7, 24], dots: 2 } }));
    document.body.append(box);
})"""


def test_the_boards_the_scoreboard_its_projector_mode_and_the_replay_fit_every_width(
    own_server, pages: Pages
):
    """The director's board (a round-3 Double Digits table beside a tournament's standings
    of long names), one table's scoreboard across the screen, its projector mode (by the
    URL and by its button) and the replay of a Double Digits card, each at every width."""
    process, client = own_server
    director = client(process.token("director", name="dir"))
    deck = tournament_table_deck("double-digits", 24, 3)
    table = "round3"
    options = {"seats": SEATS, "deck": deck, "round": 3, **SLOW}
    created = director.request("create_table", table=table, options=options)
    assert created["type"] == "table_created", created
    stream = "tournament/cup"
    cup = {"name": "Cup", "date": "2026-03-14", "grades": ["4th"], "deck_seed": 24}
    created = director.request("create_table", table=stream, game="tournament", options=cup)
    assert created["type"] == "table_created", created
    names = [LONG, "Ada Lovelace-Byron", "Bo", "Cy Young", "Di"]
    csv = "name,school,grade\n" + "".join(f"{n},Hillcrest Elementary,4th\n" for n in names)
    accepted(director, stream, "import_students", csv=csv)
    proctor = client(process.token("proctor", name="p", table=table))
    accepted(proctor, table, "start_round")
    accepted(proctor, table, "place_card")
    revealed = accepted(proctor, table, "reveal_card")
    numbers = " ".join(map(str, deck[0]["numbers"]))
    assert any(n >= 10 for n in deck[0]["numbers"])  # a Double Digits card

    director = process.token("director", name="dir")
    board = pages.open(process.http, director, width=1280, page="board")
    board.locator(f'[data-table="{table}"] .card.up[data-numbers="{numbers}"]').wait_for(
        timeout=WAIT
    )
    standings = board.locator(f'[data-table="{stream}"] table.standings')
    standings.wait_for(timeout=WAIT)
    assert standings.locator("tbody tr").count() == len(names)
    main = board.locator("#tables").bounding_box()
    panel = board.locator(f'[data-table="{stream}"]').bounding_box()
    assert panel["width"] > 0.95 * main["width"]  # the standings across the whole board
    board.evaluate(THREE_DIGITS, "22rem")  # numbers of three digits, in a board panel's width
    at_each_width(pages, board, "board")
    headings = standings.locator("thead th").all_inner_texts()
    assert headings == ["Rank", "Student", "R1", "R2", "Total", "Advances"]

    one = pages.open(
        process.http,
        process.token("director", name="dir"),
        width=1280,
        page="board",
        table=table,
        beside=board,  # each page a tab of the first one's browser (web_browser.py)
    )
    pages.done(board)  # each page closed once looked at: it would tick on beside the next
    card = one.locator(f'[data-table="{table}"] .card.up')
    card.wait_for(timeout=WAIT)
    assert one.locator(f'[data-table="{table}"]').bounding_box()["width"] > 1200  # not 300 px
    at_each_width(pages, one, "scoreboard")

    # projector mode: by its button (the URL says so, to share), then by the URL
    one.set_viewport_size({"width": 1280, "height": 900})
    one.click("#projector")
    one.wait_for_function("() => document.documentElement.classList.contains('projector')")
    assert "projector=1" in one.url
    at_each_width(pages, one, "projector-by-button")
    one.click("#projector")
    one.wait_for_function("() => !document.documentElement.classList.contains('projector')")
    assert "projector" not in one.url
    projector = pages.open(
        process.http,
        process.token("spectator", name="room", table=table),
        width=1280,
        page="board",
        table=table,
        projector="1",
        beside=one,
    )
    pages.done(one)
    projector.locator(f'[data-table="{table}"] .card.up').wait_for(timeout=WAIT)
    sizes = projector.evaluate(
        """() => { const size = (selector) =>
            parseFloat(getComputedStyle(document.querySelector(selector)).fontSize);
        return { number: size(".card .digits"), score: size("td.score"),
            name: size("tbody th") }; }"""
    )
    assert sizes["number"] >= 70 and sizes["score"] >= 45 and sizes["name"] >= 30, sizes
    assert projector.locator(".board-table .feed").is_hidden()
    at_each_width(pages, projector, "projector")

    replay = pages.open(
        process.http,
        process.token("spectator", name="w", table=table),
        width=1280,
        page="replay",
        table=table,
        beside=projector,
    )
    pages.done(projector)
    replay.locator("#position", has_text=f"of {revealed['seq']}").wait_for(timeout=WAIT)
    replay.keyboard.press("End")
    replay.locator(
        f'#step[data-seq="{revealed["seq"]}"] .card.up[data-numbers="{numbers}"]'
    ).wait_for(timeout=WAIT)
    at_each_width(pages, replay, "replay")
