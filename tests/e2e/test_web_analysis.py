"""The analysis after a round in a real browser against a real `t24-server` (issue 31).

A 24 Challenge round is played by raw clients (the proctor places and reveals, Ada and Bo
answer): Ada solves the hard 2 2 2 3, Bo the easy 1 1 1 8, Bo answers 3 3 8 8 wrong (a
flag) and nobody touches it again (stumped). Ada's own analysis page (`page=analysis`, the
`analysis` query) shows her touches against the cards' difficulty (an SVG plot), the easy card
below her level she missed with its solution, and the table's timeline; the proctor's page
shows every card and every student, Bo's wrong answer and flag with the solutions he could
have used. Both pages looked at 390, 768 and 1280 px (tests/e2e/layout_check.js; screenshots
kept with `T24_SCREENSHOTS=DIR`).
"""

from __future__ import annotations

import pytest
from test_web_screens import at_each_width
from web_browser import WAIT, Pages, send, unlabelled_controls

from server.puzzles.card_facts import facts

pytestmark = pytest.mark.e2e

SEATS = [{"seat": f"s{i}", "name": name} for i, name in enumerate(["Ada", "Bo", "Cy", "Di"], 1)]
DECK = [
    {"card_id": "c1", "numbers": [2, 2, 2, 3], "dots": 2},
    {"card_id": "c2", "numbers": [1, 1, 1, 8], "dots": 1},
    {"card_id": "c3", "numbers": [3, 3, 8, 8], "dots": 3},
]
ANSWERS = {
    "c1": ("8 × 3", ["2 × 2 = 4", "4 × 2 = 8", "8 × 3 = 24"]),
    "c2": ("3 × 8", ["1 + 1 = 2", "2 + 1 = 3", "3 × 8 = 24"]),
}
WRONG = ("3 × 8", ["3 + 3 = 6", "8 + 8 = 16", "6 + 16 = 22"])


def answer(client, table: str, pattern: str, steps: list[str]) -> None:
    send(client, table, "touch_card")
    send(client, table, "declare_pattern", pattern=pattern)
    send(client, table, "fix_solution", steps=steps)


def test_a_student_and_a_proctor_read_the_round_after_it(server, connect, pages: Pages):
    table = "web-analysis"
    director = connect(server.token("director", name="dir"))
    options = {"seats": SEATS, "deck": DECK, "stumped_cards": "set_aside", "no_touch_seconds": 1}
    reply = director.request("create_table", table=table, options=options)
    assert reply["type"] == "table_created", reply
    proctor = connect(server.token("proctor", table=table))
    assert proctor.request("join", table=table)["type"] == "snapshot"
    ada, bo = (connect(server.token("player", table=table, seat=s)) for s in ("s1", "s2"))
    send(proctor, table, "start_round")
    for card_id, client in (("c1", ada), ("c2", bo)):
        send(proctor, table, "place_card")
        send(proctor, table, "reveal_card")
        answer(client, table, *ANSWERS[card_id])
    send(proctor, table, "place_card")
    send(proctor, table, "reveal_card")
    answer(bo, table, *WRONG)  # a flag; 3 3 8 8 goes back to the deck (R-FLAG-2)
    send(proctor, table, "place_card")
    send(proctor, table, "reveal_card")
    proctor.event("RoundEnded")  # stumped after 1 s: the deck is empty

    token = server.token("player", table=table, seat="s1")
    page = pages.open(server.http, token, width=1280, page="analysis")
    own = page.locator('.student-analysis[data-seat="s1"]')
    own.wait_for(timeout=WAIT)
    assert page.locator(".student-analysis").count() == 1  # her own report only
    assert page.locator(".touch-plot circle.touch").count() == 1  # her one touch, on c1
    missed = page.locator('.missed li[data-card-id="c2"]')  # easier than c1, won by Bo
    assert "won by Bo" in missed.inner_text()
    assert facts((1, 1, 1, 8)).solutions[0]["expression"] in missed.inner_text()
    assert page.locator(".timeline-plot rect.play").count() == 4  # c1, c2, c3, c3 again
    assert unlabelled_controls(page) == []
    pages.shot(page, "analysis-student-1280")
    at_each_width(pages, page, "analysis-student")  # nothing off the screen, no field squeezed

    phone = pages.open(server.http, token, width=390, page="analysis", beside=page)  # a tab
    pages.done(page)  # each page closed once looked at: it would tick on beside the next
    phone.locator('.student-analysis[data-seat="s1"]').wait_for(timeout=WAIT)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    pages.shot(phone, "analysis-student-390")

    proctor = server.token("proctor", table=table)
    officials = pages.open(
        server.http, proctor, width=1280, page="analysis", table=table, beside=phone
    )
    pages.done(phone)
    officials.locator('.student-analysis[data-seat="s2"]').wait_for(timeout=WAIT)
    assert officials.locator(".student-analysis").count() == 4
    rows = officials.locator("table tr[data-card-id]")
    assert rows.count() == 3
    assert "stumped" in officials.locator('tr[data-card-id="c3"]').inner_text()
    bo_part = officials.locator('.student-analysis[data-seat="s2"]')
    assert bo_part.locator('.flags li[data-cause="incorrect_solution"]').count() == 1
    three = facts((3, 3, 8, 8)).solutions[0]["expression"]
    assert three in bo_part.locator('.wrong li[data-card-id="c3"]').inner_text()
    assert officials.locator(".touch-plot circle.touch").count() == 3  # Ada, Bo, Bo
    pages.shot(officials, "analysis-proctor-1280")
    at_each_width(pages, officials, "analysis-proctor")


def test_the_director_reads_each_grades_students_on_one_page(server, connect, pages: Pages):
    """A tournament's analysis per grade (`page=analysis&table=tournament/<id>`): a section
    per grade with a row per student (its figures: tests/unit/test_analysis_grades.py); the
    plot of level against time to touch waits for a table played."""
    director = connect(server.token("director", name="dir"))
    options = {"name": "Web", "date": "2026-03-14", "grades": ["4th", "5th"], "deck_seed": 2}
    reply = director.request(
        "create_table", table="tournament/webtour", game="tournament", options=options
    )
    assert reply["type"] == "table_created", reply
    csv = "name,school,grade\nAda,Hill,4th\nBo,Hill,4th\nCy,Dale,5th\n"
    send(director, "tournament/webtour", "import_students", csv=csv)
    page = pages.open(
        server.http,
        server.token("director", name="dir"),
        width=1280,
        page="analysis",
        table="tournament/webtour",
    )
    page.locator('.grade-analysis[data-grade="5th"]').wait_for(timeout=WAIT)
    fourth = page.locator('.grade-analysis[data-grade="4th"]')
    assert fourth.locator("tr[data-student]").count() == 2
    assert "Ada (Hill)" in fourth.inner_text()
    assert page.locator(".grade-plot").count() == 0  # nobody has played yet: no plot
    assert unlabelled_controls(page) == []
    pages.shot(page, "analysis-grades-1280")
