"""The student's page and the pocket page played by keyboard and mouse in a real browser
against a real `t24-server` (issue 13): no foul by accident, the live countdowns, the verdict
that names the first failing step, and keyboard play that flows from card to card.

Headless Debian Chromium driven by Playwright (tests/e2e/web_browser.py); the proctor and the
other seats are raw WebSocket clients (`connect`). Each step waits for what it expects with a
timeout, never a fixed sleep.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from cli_pty import answer
from web_browser import WAIT, Pages, send, sent_requests

from server.puzzles.solver import solve

pytestmark = pytest.mark.e2e

_ids = itertools.count(1)
SEATS = [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}]
DECK = [
    {"card_id": "c1", "numbers": [1, 2, 3, 4], "dots": 1},
    {"card_id": "c2", "numbers": [3, 3, 8, 8], "dots": 3},
]


def create(server, connect, game: str, options: dict[str, Any]) -> str:
    director = connect(server.token("director", name="dir"))
    table = f"webkeys-{game}-{next(_ids)}"
    reply = director.request("create_table", table=table, game=game, options=options)
    assert reply["type"] == "table_created", reply
    return table


def joined(client, table: str) -> Any:
    assert client.request("join", table=table)["type"] == "snapshot"
    return client


def round_trip(page) -> None:
    """A ping over the page's own connection, answered: every request the page sent before
    it has reached the server (one socket keeps the order)."""
    page.evaluate("() => window.t24.request('ping')")


def test_no_touch_before_the_reveal_then_the_countdowns_and_the_verdict_naming_the_step(
    server, connect, pages: Pages
):
    """'No way to foul by accident': the space bar and a click on the touch button before
    the reveal (between cards, then with the card placed face down) send nothing and record
    no touch and no flag (a touch then would be R-FLAG-1's `touched_before_reveal`). After
    the reveal the space bar touches; `#countdowns` shows the pattern deadline, then the
    solution's; a wrong step is judged and `#result` shows the verdict naming the step."""
    # long deadlines: a loaded machine must not run out of time while the test types
    seats = [*SEATS, {"seat": "s3", "name": "Cy"}]  # a 24 Challenge table seats 3 or 4
    options = {"seats": seats, "deck": DECK, "pattern_seconds": 60, "solution_seconds": 120}
    table = create(server, connect, "challenge", options)
    proctor = joined(connect(server.token("proctor", name="p", table=table)), table)
    ada = pages.open(server.http, server.token("player", table=table, seat="s1"), watch=True)
    ada.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
    send(proctor, table, "start_round")
    ada.locator("#feed li", has_text="Round 1 started").wait_for(timeout=WAIT)
    ada.locator("body").press("Space")  # between cards
    send(proctor, table, "place_card")
    ada.locator(".card.down").wait_for(timeout=WAIT)
    assert ada.locator("#touch").is_disabled()
    ada.locator("body").press("Space")  # the card face down
    ada.locator("#touch").click(force=True)  # a click on the disabled button
    round_trip(ada)
    send(proctor, table, "reveal_card")
    events = [proctor.event("CardPlaced"), proctor.event("CardRevealed")]
    assert events[1]["seq"] == events[0]["seq"] + 1  # nothing between: no touch, no flag
    sent = sent_requests(ada)
    assert [m["type"] for m in sent if m.get("type") in ("hello", "ping")] == ["hello", "ping"]
    assert not [m for m in sent if m.get("type") == "command"], sent  # watched, and none sent
    assert "touched_before_reveal" not in str(proctor.events())

    ada.locator(".card.up").wait_for(timeout=WAIT)
    ada.locator("#touch:enabled").wait_for(timeout=WAIT)
    ada.locator("body").press("Space")
    touched = proctor.event("CardTouched")["data"]
    assert touched["seat"] == "s1" and touched["fingertips"] == 1  # one fingertip, no flag
    countdown = ada.locator('#countdowns li[data-command="pattern_deadline"]')
    countdown.wait_for(timeout=WAIT)
    assert "Pattern due in" in countdown.inner_text()
    ada.locator("#pattern:focus").wait_for(timeout=WAIT)
    ada.keyboard.type("4 * 6")
    ada.keyboard.press("Enter")
    ada.locator('#countdowns li[data-command="solution_deadline"]').wait_for(timeout=WAIT)
    assert "Solution due in" in ada.inner_text("#countdowns")
    # the page moves the focus to step 1 once the pattern is accepted: the countdown may be
    # drawn (the push) before that reply is read, so wait for the focus before typing
    ada.locator("#step-1:focus").wait_for(timeout=WAIT)
    for step in ["1 + 2 = 4", "4 + 2 = 6", "4 * 6 = 24"]:  # step 1 is wrong: 1 + 2 makes 3
        ada.keyboard.type(step)
        ada.keyboard.press("Enter")
    ada.locator("#fix:focus").wait_for(timeout=WAIT)
    ada.keyboard.press("Enter")
    judged = proctor.event("SolutionJudged")["data"]
    assert not judged["ok"] and judged["message"].startswith("step 1: 1 + 2 makes 3")
    verdict = ada.locator('#result [data-event="SolutionJudged"]')
    verdict.wait_for(timeout=WAIT)
    assert "step 1: 1 + 2 makes 3, not 4" in verdict.inner_text()
    ada.locator('#result [data-event="FlagIssued"]').wait_for(timeout=WAIT)  # then the flag
    assert "step 1: 1 + 2 makes 3" in ada.inner_text("#result")
    pages.shot(ada, "student-verdict")


def test_pocket_keyboard_play_flows_from_a_won_card_to_the_next_claim(
    server, connect, pages: Pages
):
    """After winning a card by keyboard (space claims, the answer, Enter) the cursor leaves
    the answer field when the next card turns up, so the space bar claims that card too
    instead of typing a space into the field."""
    stack = [
        {"card_id": "p1", "numbers": [1, 2, 3, 4], "dots": 1},
        {"card_id": "p2", "numbers": [3, 3, 8, 8], "dots": 2},
    ]
    table = create(server, connect, "pocket", {"seats": SEATS, "stack": stack})
    bo = joined(connect(server.token("player", table=table, seat="s2")), table)
    ada = pages.open(server.http, server.token("player", table=table, seat="s1"))
    ada.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
    ada.click("#start")
    for number, numbers in [(1, [1, 2, 3, 4]), (2, [3, 3, 8, 8])]:
        ada.locator(f'.card.up[data-number="{number}"]').wait_for(timeout=WAIT)
        ada.keyboard.press("Space")  # "I got it!"
        claimed = bo.event("ClaimMade")["data"]
        assert claimed["seat"] == "s1" and claimed["number"] == number
        ada.locator("#answer:focus").wait_for(timeout=WAIT)
        ada.keyboard.type(solve(numbers)[0].ascii_expression)
        ada.keyboard.press("Enter")
        ada.locator("#result", has_text=f"You won card {number}").wait_for(timeout=WAIT)
    assert bo.event("GameEnded")["data"]["winners"] == ["s1"]
    assert ada.locator("#answer").input_value() == ""


def keyboard_attempt(page, pattern: str, steps: list[str]) -> None:
    """Touch with the space bar, then the pattern, the three steps and "Equals 24", by
    keyboard only, waiting for the focus the page moves before each typing."""
    page.keyboard.press("Space")
    page.locator("#pattern:focus").wait_for(timeout=WAIT)
    page.keyboard.type(pattern)
    page.keyboard.press("Enter")
    page.locator("#step-1:focus").wait_for(timeout=WAIT)
    for step in steps:
        page.keyboard.type(step)
        page.keyboard.press("Enter")
    page.locator("#fix:focus").wait_for(timeout=WAIT)
    page.keyboard.press("Enter")


def tab_to(page, key: str, selector: str) -> None:
    """Press Tab (or Shift+Tab) until `selector` has the focus, as a keyboard user does."""
    for _ in range(40):
        if page.locator(f"{selector}:focus").count():
            return
        page.keyboard.press(key)
    pytest.fail(f"{key} never reached {selector}")


def test_challenge_keyboard_play_flows_from_card_to_card_after_a_flag_and_a_win(
    server, connect, pages: Pages
):
    """Keyboard only (no click) through three cards of a 24 Challenge table. Card 1 is
    flagged (a wrong step, fixed by Enter on "Equals 24", which the flag then disables) and
    goes back under the deck (R-FLAG-2); card 2 is won the same way; card 1 comes round
    again and is won. Each revealed card puts the focus on the touch button, so the space
    bar touches it wherever the last attempt left the focus; but a focus the student moved
    (Tab to a link) stays where it is, and Shift+Tab goes back to the touch button."""
    seats = [*SEATS, {"seat": "s3", "name": "Cy"}]
    options = {"seats": seats, "deck": DECK, "pattern_seconds": 60, "solution_seconds": 120}
    options["no_touch_seconds"] = 120  # a loaded machine must not set a card aside
    table = create(server, connect, "challenge", options)
    proctor = joined(connect(server.token("proctor", name="p", table=table)), table)
    ada = pages.open(server.http, server.token("player", table=table, seat="s1"))
    ada.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
    send(proctor, table, "start_round")
    wrong = ("4 * 6", ["1 + 2 = 4", "4 + 2 = 6", "4 * 6 = 24"])  # step 1: 1 + 2 makes 3
    replay = 'a[href*="page=replay"]'  # the feed's link to the replay page
    for card, attempt, on_a_link in [(DECK[0], wrong, 0), (DECK[1], None, 0), (DECK[0], None, 1)]:
        if on_a_link:  # the student tabs to a link of the page: the reveal leaves it there
            tab_to(ada, "Tab", replay)
        send(proctor, table, "place_card")
        send(proctor, table, "reveal_card")
        numbers = " ".join(map(str, card["numbers"]))
        ada.locator(f'.card.up[data-numbers="{numbers}"]').wait_for(timeout=WAIT)
        if on_a_link:
            ada.locator("#touch:enabled").wait_for(timeout=WAIT)  # drawn: the focus stayed
            assert ada.locator(f"{replay}:focus").count() == 1
            tab_to(ada, "Shift+Tab", "#touch")
        # the card to touch takes the focus: after an attempt it leaves the disabled "Equals 24"
        ada.locator("#touch:enabled:focus").wait_for(timeout=WAIT)
        keyboard_attempt(ada, *(attempt or answer(card["numbers"])))
        if attempt:
            flag = proctor.event("FlagIssued")
            assert flag["data"]["seat"] == "s1", flag
            assert proctor.event("CardReturnedToDeck")["data"]["card_id"] == card["card_id"]
            ada.locator(f'#feed li.flag[data-seq="{flag["seq"]}"]').wait_for(timeout=WAIT)
            ada.locator('#result [data-event="FlagIssued"]').wait_for(timeout=WAIT)
            ada.locator(".card.empty").wait_for(timeout=WAIT)
        else:
            won = proctor.event("CardWon")
            assert won["data"]["seat"] == "s1", won
            assert won["data"]["card_id"] == card["card_id"], won
            ada.locator(f'#feed li.won[data-seq="{won["seq"]}"]').wait_for(timeout=WAIT)
            ada.locator("#result", has_text="won the card").wait_for(timeout=WAIT)
    ada.locator('tr[data-seat="s1"] td.score[data-score="4"]').wait_for(timeout=WAIT)
    assert "⚑ 1" in ada.inner_text('tr[data-seat="s1"] td.flags')
    touches = [e["data"]["seat"] for e in proctor.events() if e["event_type"] == "CardTouched"]
    assert touches == ["s1", "s1", "s1"], touches
    pages.shot(ada, "student-three-cards-by-keyboard")
