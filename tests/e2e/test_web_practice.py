"""Practice at the right level in a real browser against a real `t24-server` (issue 31).

Ada practises 20 cards on the practice page (js/games/practice.js) with a bot-driven pattern
of answers: every card rated below `LEVEL` she solves quickly (the solver stands in for her
head); a harder card she answers wrong or lets run out. Her rating rises from 1500 and then
settles near the level the pattern implies; the history plot draws every card; the misses
list the hard cards she missed with their solutions. Screenshots at 1280 and 390 px (kept
with `T24_SCREENSHOTS=DIR`). Each step waits for what the page shows, never a fixed sleep.
"""

from __future__ import annotations

import pytest
from web_browser import WAIT, Pages, unlabelled_controls

from server.puzzles.card_facts import facts

pytestmark = pytest.mark.e2e

LEVEL = 1750  # the pattern solves every card rated below this, and no card above
CARDS = 20
WRONG = ("3*8", ["1+1", "2+1", "3*8"])


def test_a_student_practises_20_cards_and_the_rating_settles_at_her_level(
    server, connect, pages: Pages
):
    director = connect(server.token("director", name="dir"))
    options = {
        "seats": [{"seat": "s1", "name": "Ada"}],
        "cards": CARDS,
        "touch_seconds": 1.5,  # the page touches an easy card at once; a hard one runs out
        "answer_seconds": 15,
    }
    reply = director.request("create_table", table="web-practice", game="practice", options=options)
    assert reply["type"] == "table_created", reply
    token = server.token("player", table="web-practice", seat="s1")
    ada = pages.open(server.http, token, width=1280)
    ada.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
    ratings, missed_hard = [1500.0], []
    for number in range(1, CARDS + 1):
        ada.locator("#next:not([disabled])").wait_for(timeout=WAIT)
        ada.locator("body").press("n")  # the page's key for the next card
        card = ada.locator(f'.card.up[data-number="{number}"]')
        card.wait_for(timeout=WAIT)
        numbers = [int(n) for n in card.get_attribute("data-numbers").split()]
        rating = float(card.get_attribute("data-card-rating"))
        if rating < LEVEL:
            ada.locator("body").press("Space")  # touch
            ada.locator("#pattern:focus").wait_for(timeout=WAIT)
            solution = facts(numbers).solutions[0]
            pattern, steps = solution["pattern"], solution["steps"]
        elif number % 2:  # a hard card: wrong
            ada.locator("body").press("Space")
            ada.locator("#pattern:focus").wait_for(timeout=WAIT)
            pattern, steps = WRONG
        else:  # a hard card: too slow (the touch window runs out)
            pattern = steps = None
        if pattern is not None:
            ada.fill("#pattern", pattern)
            for index, step in enumerate(steps, 1):
                ada.fill(f"#step-{index}", step)
            ada.press("#step-3", "Enter")
        result = ada.locator(f'#last [data-number="{number}"]')
        result.wait_for(timeout=WAIT)
        expected = "solved" if rating < LEVEL else ("wrong" if number % 2 else "no_touch")
        assert result.get_attribute("data-result") == expected, (number, numbers, rating)
        if expected != "solved":
            missed_hard.append((" ".join(map(str, sorted(numbers))), numbers))
            # the miss is shown at once, with the card's solutions
            first = facts(numbers).solutions[0]["expression"]
            ada.locator("#last .solutions li", has_text=first).wait_for(timeout=WAIT)
        ada.locator(f'#history-plot circle.card[data-number="{number}"]').wait_for(timeout=WAIT)
        ratings.append(float(ada.locator("#rating").get_attribute("data-mu")))
        if number == 6:
            pages.shot(ada, "practice-during-1280")

    # the rating rose from 1500, then settled near the level the pattern implies
    assert max(ratings[:8]) > 1500 + 150, ratings
    assert all(abs(mu - LEVEL) < 200 for mu in ratings[-6:]), ratings
    assert missed_hard, "the pattern missed no card: nothing hard was dealt"
    # the analysis lists every hard card she missed, with its solutions
    listed = ada.locator("#missed-cards > li")
    assert listed.count() == len(missed_hard)
    for card_id, numbers in missed_hard:
        item = ada.locator(f'#missed-cards > li[data-card-id="{card_id}"]')
        assert float(item.get_attribute("data-card-rating")) >= LEVEL
        assert facts(numbers).solutions[0]["expression"] in item.inner_text()
    ada.locator("#end-result", has_text="The practice is over").wait_for(timeout=WAIT)
    assert ada.locator("#history-plot circle.card").count() == CARDS
    assert unlabelled_controls(ada) == []
    pages.shot(ada, "practice-over-1280")

    phone = pages.open(server.http, token, width=390, beside=ada)  # a tab of her browser
    pages.done(ada)
    phone.locator("#missed-cards > li").first.wait_for(timeout=WAIT)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    pages.shot(phone, "practice-over-390")
