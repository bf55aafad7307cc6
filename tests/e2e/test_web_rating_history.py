"""A student's rating over all their tables on their page, in a real browser against a real
`t24-server` (issue 31; js/rating_history.js, the `ratings` query).

Ada practises three cards (raw client: two solved, one given up), then plays a 24 Challenge
round at another table and wins both its cards. Her round page shows the history plot of
her rating from the log: the three practice cards; when the proctor signs the score card the
page reads it again and the round's result is the fourth step, her rating now its last
point. Her practice page (a casual game's page) draws the same history, and again after her
fourth card. Screenshots at 1280 and 390 px (kept with `T24_SCREENSHOTS=DIR`), every element
within the viewport. Each step waits for what the page shows, never a fixed sleep.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from web_browser import WAIT, Pages, layout_problems, send, unlabelled_controls

from server.puzzles.card_facts import facts

pytestmark = pytest.mark.e2e

# A student is known across tables by her name (server/analysis/log_ratings.py): on the shared
# server other modules seat an "Ada" at rated tables too, so hers is a name no other test uses.
ADA = "Ada Lindqvist"
SEATS = [{"seat": f"s{i}", "name": name} for i, name in enumerate([ADA, "Bo", "Cy", "Di"], 1)]
DECK = [
    {"card_id": "c1", "numbers": [2, 2, 2, 3], "dots": 2},
    {"card_id": "c2", "numbers": [1, 1, 1, 8], "dots": 1},
]


def practise(server, connect, director) -> Any:
    """Ada's first three practice cards at table rh-practice (of four): solved, solved,
    given up. Returns her raw client there."""
    options = {"seats": [{"seat": "s1", "name": ADA}], "cards": 4, "answer_seconds": 60}
    reply = director.request("create_table", table="rh-practice", game="practice", options=options)
    assert reply["type"] == "table_created", reply
    ada = connect(server.token("player", table="rh-practice", seat="s1"))
    assert ada.request("join", table="rh-practice")["type"] == "snapshot"
    for solved in (True, True, False):
        send(ada, "rh-practice", "next_card")
        dealt = ada.event("CardDealt")
        if solved:
            solution = facts(tuple(dealt["data"]["numbers"])).solutions[0]
            send(ada, "rh-practice", "touch")
            send(ada, "rh-practice", "answer", pattern=solution["pattern"], steps=solution["steps"])
        else:
            send(ada, "rh-practice", "give_up")
        ada.event("RatingUpdated")
    return ada


def win(client, table: str, numbers: tuple[int, ...]) -> None:
    solution = facts(numbers).solutions[0]
    send(client, table, "touch_card")
    send(client, table, "declare_pattern", pattern=solution["pattern"])
    send(client, table, "fix_solution", steps=solution["steps"])


def test_the_students_page_draws_her_rating_over_practice_and_a_signed_round(
    server, connect, pages: Pages
):
    director = connect(server.token("director", name="dir"))
    ada_practising = practise(server, connect, director)
    table = "rh-round"
    options = {"seats": SEATS, "deck": DECK}
    assert director.request("create_table", table=table, options=options)["type"] == "table_created"
    proctor = connect(server.token("proctor", table=table))
    assert proctor.request("join", table=table)["type"] == "snapshot"
    ada = connect(server.token("player", table=table, seat="s1"))
    send(proctor, table, "start_round")
    for card in DECK:
        send(proctor, table, "place_card")
        send(proctor, table, "reveal_card")
        win(ada, table, tuple(card["numbers"]))
    proctor.event("RoundEnded")  # the deck is played out

    token = server.token("player", table=table, seat="s1")
    page = pages.open(server.http, token, width=1280)
    plot = page.locator("#rating-history-plot svg.rating-history-plot")
    plot.wait_for(timeout=WAIT)
    page.locator("#rating-now[data-steps='3']").wait_for(timeout=WAIT)
    assert page.locator("circle.step.practice").count() == 3
    assert page.locator("circle.step.practice.missed").count() == 1
    assert page.locator("circle.step.result").count() == 0  # not signed: no result yet

    send(proctor, table, "sign_score_card", initials="PK")  # the page reads it again
    page.locator("#rating-now[data-steps='4']").wait_for(timeout=WAIT)
    result = page.locator("circle.step.result")
    assert result.count() == 1 and result.get_attribute("data-table") == table
    # her rating now is the plot's last point, and the round (she won it) raised it
    mus = [
        float(m)
        for m in page.eval_on_selector_all("circle.step", "cs => cs.map(c => c.dataset.mu)")
    ]
    now = float(page.locator("#rating-now").get_attribute("data-mu"))
    assert now == mus[-1] > mus[-2]
    assert f"{ADA}: " in page.locator("#rating-now").inner_text()
    assert "from 2 tables" in page.locator("#rating-now").inner_text()
    assert "1st of 4" in page.locator("circle.step.result title").text_content()
    assert unlabelled_controls(page) == []
    assert layout_problems(page) == []
    page.locator("#rating-history").scroll_into_view_if_needed()
    pages.shot(page, "rating-history-1280")

    phone = pages.open(server.http, token, width=390, beside=page)  # a tab of her browser
    pages.done(page)  # each page closed once looked at: it would tick on beside the next
    phone.locator("#rating-now[data-steps='4']").wait_for(timeout=WAIT)
    assert layout_problems(phone) == []
    box = phone.locator("#rating-history-plot svg").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
    pages.shot(phone, "rating-history-390")
    if os.environ.get("T24_SCREENSHOTS"):  # the plot alone, to look at
        plot_shot = pages.shots / "rating-history-390-plot.png"
        phone.locator("#rating-history").screenshot(path=str(plot_shot))

    # her practice page (a casual game's page) draws the same history under the practice
    token = server.token("player", table="rh-practice", seat="s1")
    practice = pages.open(server.http, token, beside=phone)
    pages.done(phone)
    practice.locator("#rating-now[data-steps='4']").wait_for(timeout=WAIT)
    assert practice.locator("#rating-history-plot circle.step").count() == 4
    assert float(practice.locator("#rating-now").get_attribute("data-mu")) == now
    assert layout_problems(practice) == []
    # a fourth card, given up: the page reads her rating again as it moves
    send(ada_practising, "rh-practice", "next_card")
    send(ada_practising, "rh-practice", "give_up")
    practice.locator("#rating-now[data-steps='5']").wait_for(timeout=WAIT)
    assert float(practice.locator("#rating-now").get_attribute("data-mu")) < now
    pages.shot(practice, "rating-history-practice-1280")
