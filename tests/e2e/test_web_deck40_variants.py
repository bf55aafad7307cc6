"""The deck40 page (clients/web/public/js/games/deck40.js) in a real browser for the layouts
and scorings test_web_casual.py does not play (issue 14): the common pile of three players
(R-DECK40-5), the advanced scoring (R-DECK40-3/6, our decision 3: the caller who finds a
solution himself scores 1) and the card version with the house option (R-DECK40-6: the loser
takes the four cards, "Cards left" at the end).

Headless Debian Chromium (tests/e2e/web_browser.py) against the shared `t24-server`; the other
seats are raw WebSocket clients (`connect`) whose pushes are the server's word: each check
compares what the page draws (cards, piles, points, the feed's sentences, the result) with
the events those clients were pushed and the views the server sends them. Waits are for what
is expected, with a timeout.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from web_browser import WAIT, Pages, seat_client, send, unlabelled_controls

from server.games.deck40.options import CARD_NAMES
from server.puzzles.solver import solve

pytestmark = pytest.mark.e2e

_ids = itertools.count(1)
NAMES = {"s1": "Ada", "s2": "Bo", "s3": "Cy"}
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def seats(count: int) -> list[dict[str, str]]:
    return [{"seat": f"s{n}", "name": NAMES[f"s{n}"]} for n in range(1, count + 1)]


def deck_starting(*top: str) -> list[str]:
    """A shuffle: these cards on top, then the rest of the 40 in their usual order."""
    return [*top, *(card for card in CARD_NAMES if card not in top)]


def create(server, connect, options: dict[str, Any]) -> tuple[str, Any]:
    director = connect(server.token("director", name="dir"))
    table = f"web-deck40v-{next(_ids)}"
    reply = director.request("create_table", table=table, game="deck40", options=options)
    assert reply["type"] == "table_created", reply
    return table, director


def server_view(client, table: str) -> dict[str, Any]:
    """The view the server gives this client now (a fresh join's snapshot)."""
    snapshot = client.request("join", table=table)
    assert snapshot["type"] == "snapshot", snapshot
    return snapshot["view"]


def open_seat(pages: Pages, server, table: str, seat: str, width: int = 1024) -> Any:
    page = pages.open(server.http, server.token("player", table=table, seat=seat), width=width)
    page.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
    return page


def who(seat: str) -> str:
    """A seat as the page names it: the player's name, never the seat id."""
    return NAMES[seat]


def card_text(name: str) -> str:
    """The page's (and the feed's) card: `A♠`, `10♥`."""
    return name[:-1] + SUITS[name[-1]]


def page_cards(page) -> list[dict[str, str]]:
    """The face-up cards the page draws, in order: name, rank and whose pile."""
    return page.locator(".playing-card[data-rank]").evaluate_all(
        "cs => cs.map(c => ({card: c.dataset.card, rank: c.dataset.rank, seat: c.dataset.seat}))"
    )


def drawn_as_the_server_says(page, cards: list[dict[str, Any]]) -> None:
    """The page's four cards are the server's (name, rank, the pile it came from)."""
    assert page_cards(page) == [
        {"card": c["card"], "rank": str(c["rank"]), "seat": c["seat"] or ""} for c in cards
    ]


def seat_cells(page, seat: str) -> dict[str, int]:
    row = page.locator(f'#seats tr[data-seat="{seat}"]')
    return {
        "score": int(row.locator("td.score").get_attribute("data-score")),
        "won": int(row.locator("td.won").get_attribute("data-won")),
        "pile": int(row.locator("td.pile").get_attribute("data-pile")),
    }


def seats_drawn_as_the_server_says(page, view: dict[str, Any]) -> None:
    for seat in view["seats"]:
        expected = {"score": seat["score"], "won": len(seat["won"]), "pile": seat["pile"]}
        assert seat_cells(page, seat["seat"]) == expected, seat["seat"]


def feed_has(page, text: str) -> None:
    page.locator("#feed li", has_text=text).first.wait_for(timeout=WAIT)


# -- the common pile ---------------------------------------------------------------------------


def test_three_players_play_from_the_common_pile(server, connect, pages: Pages):
    """R-DECK40-5: with three players the dealer (the server) turns up four from one common
    pile: no card is anyone's, nobody chooses a card to give back, an agreed "no solution"
    puts the first two under the pile and turns up two new ones."""
    deck = deck_starting("AC", "AD", "AH", "AS", "3C", "8C", "4H", "6H", "2S", "9D")
    table, director = create(server, connect, {"seats": seats(3), "deck": deck})
    bo = seat_client(server, connect, table, "s2")
    cy = seat_client(server, connect, table, "s3")
    ada = open_seat(pages, server, table, "s1")
    assert "Layout: one common pile." in ada.inner_text("#scoring")
    ada.click("#start")
    ada.locator("#set-number", has_text="Set 1").wait_for(timeout=WAIT)

    started = bo.event("GameStarted")["data"]
    assert started["layout"] == "common_pile" and started["piles"] == {}
    assert started["common"] == 40  # a count for a player: the order stays hidden
    turned = bo.event("CardsTurnedUp")["data"]
    assert [c["card"] for c in turned["cards"]] == ["AC", "AD", "AH", "AS"]
    drawn_as_the_server_says(ada, turned["cards"])
    label = ada.locator('.playing-card[data-card="AH"]').get_attribute("aria-label")
    assert label == "ace of hearts"  # from nobody's pile
    assert ada.locator(".playing-cards .owner").count() == 0
    view = server_view(bo, table)
    ada.locator("#set-state", has_text=f"Common pile: {view['common_pile']} cards.").wait_for(
        timeout=WAIT
    )
    assert view["common_pile"] == 36
    seats_drawn_as_the_server_says(ada, view)
    assert ada.locator("#returns-line").is_hidden()  # the dealer returns, not the players

    ada.click("#no-solution")
    ada.locator("#no-solution-callers", has_text=who("s1")).wait_for(timeout=WAIT)
    called = bo.event("NoSolutionCalled")["data"]
    assert called["seat"] == "s1" and called["returns"] is None
    send(bo, table, "call_no_solution")
    send(cy, table, "call_no_solution")
    returned = bo.event("CardsReturned")["data"]
    assert returned["returns"] == [{"card": "AC", "seat": None}, {"card": "AD", "seat": None}]
    feed_has(ada, "Everyone says set 1 has no solution.")
    feed_has(ada, "Back under the piles: A♣  A♦.")
    more = bo.event("CardsTurnedUp")["data"]
    assert [c["card"] for c in more["cards"]] == ["3C", "8C"]
    ada.locator("#set-number", has_text="Set 2").wait_for(timeout=WAIT)
    now_up = [c for c in turned["cards"] if c["card"] in ("AH", "AS")] + more["cards"]
    ada.locator('.playing-card[data-card="8C"]').wait_for(timeout=WAIT)
    drawn_as_the_server_says(ada, now_up)  # the two left on the table, then the two new
    feed_has(ada, "Set 2: 3♣  8♣.")
    assert server_view(cy, table)["common_pile"] == 36  # two under the pile, two off the top

    expression = solve([c["rank"] for c in now_up])[0].ascii_expression
    send(cy, table, "call_24", expression=expression)
    won = bo.event("RoundWon")["data"]
    assert won["seat"] == "s3" and won["points"] == 1 and won["taken_by"] is None
    feed_has(ada, f"{who('s3')} takes set 2: 1 point.")
    ada.locator("#set-number", has_text="Set 3").wait_for(timeout=WAIT)
    third = bo.event("CardsTurnedUp")["data"]["cards"]
    ada.locator(f'.playing-card[data-card="{third[0]["card"]}"]').wait_for(timeout=WAIT)
    drawn_as_the_server_says(ada, third)
    view = server_view(bo, table)
    assert view["common_pile"] == 32
    ada.locator("#set-state", has_text="Common pile: 32 cards.").wait_for(timeout=WAIT)
    seats_drawn_as_the_server_says(ada, view)
    assert seat_cells(ada, "s3") == {"score": 1, "won": 4, "pile": 0}

    send(director, table, "end_game")
    ended = bo.event("GameEnded")["data"]
    assert ended["winners"] == ["s3"] and ended["reason"] == "ended_by_director"
    result = ada.locator('#end-result [data-tie="false"]')
    result.wait_for(timeout=WAIT)
    assert "The game is over (ended by the director)." in result.inner_text()
    assert who("s3") in result.inner_text()
    assert "Cards left" not in ada.inner_text("#end-result")  # points decide, not cards
    assert unlabelled_controls(ada) == []


# -- the advanced scoring ----------------------------------------------------------------------


def test_advanced_scoring_shows_two_points_after_another_players_no_solution(
    server, connect, pages: Pages
):
    """R-DECK40-3/6, advanced: Ada calls "no solution" on set 1 and then finds one herself:
    1 point (our decision 3); on set 2 Bo calls "no solution" and Ada's "24!" scores 2. The
    page's words for the version, the points, the feed and the result follow the events."""
    # dealt one at a time: Ada 3C 8C | 4H 6H, Bo AC AD | 2S AS (set 1: 3 8 1 1, set 2: 4 6 2 1)
    deck = deck_starting("3C", "AC", "8C", "AD", "4H", "2S", "6H", "AS")
    options = {"seats": seats(2), "deck": deck, "scoring": "advanced", "target_points": 3}
    table, _ = create(server, connect, options)
    bo = seat_client(server, connect, table, "s2")
    ada = open_seat(pages, server, table, "s1", width=768)
    scoring = ada.inner_text("#scoring")
    assert scoring.startswith(
        'Advanced scoring: a right "24!" scores 1 point, 2 when another player had called'
        ' "no solution" on these cards.'
    )
    assert "Play to 3 points." in scoring
    ada.click("#start")
    ada.locator("#set-number", has_text="Set 1").wait_for(timeout=WAIT)
    first = bo.event("CardsTurnedUp")["data"]["cards"]
    drawn_as_the_server_says(ada, first)
    assert [c["seat"] for c in first] == ["s1", "s1", "s2", "s2"]
    assert ada.locator('.playing-card[data-card="8C"]').get_attribute("aria-label") == (
        "8 of clubs, from Ada's pile"
    )

    ada.click("#no-solution")  # her own call: then she finds one herself
    ada.locator("#you-state", has_text='You called "no solution".').wait_for(timeout=WAIT)
    assert bo.event("NoSolutionCalled")["data"]["returns"] == "3C"  # the default, her first
    ada.fill("#solution", solve([c["rank"] for c in first])[0].ascii_expression)
    ada.click("#call-24")
    won = bo.event("RoundWon")["data"]
    assert (won["seat"], won["points"], won["after_no_solution"]) == ("s1", 1, False)
    ada.locator("#result", has_text="You take the four cards (1 point).").wait_for(timeout=WAIT)
    feed_has(ada, f"{who('s1')} takes set 1: 1 point.")

    ada.locator("#set-number", has_text="Set 2").wait_for(timeout=WAIT)
    second = bo.event("CardsTurnedUp")["data"]["cards"]
    ada.locator(f'.playing-card[data-card="{second[0]["card"]}"]').wait_for(timeout=WAIT)
    drawn_as_the_server_says(ada, second)
    send(bo, table, "call_no_solution")
    ada.locator("#no-solution-callers", has_text=who("s2")).wait_for(timeout=WAIT)
    ada.fill("#solution", solve([c["rank"] for c in second])[0].ascii_expression)
    ada.press("#solution", "Enter")
    won = bo.event("RoundWon")["data"]
    assert (won["seat"], won["points"], won["after_no_solution"]) == ("s1", 2, True)
    ada.locator("#result", has_text="You take the four cards (2 points).").wait_for(timeout=WAIT)
    feed_has(ada, f"{who('s1')} takes set 2: 2 points.")

    ended = bo.event("GameEnded")["data"]
    assert ended["reason"] == "target_points" and ended["scores"] == {"s1": 3, "s2": 0}
    result = ada.locator('#end-result [data-tie="false"]')
    result.wait_for(timeout=WAIT)
    assert "The game is over (played to the target points)." in result.inner_text()
    assert who("s1") in result.inner_text()
    seats_drawn_as_the_server_says(ada, server_view(bo, table))
    assert seat_cells(ada, "s1")["score"] == 3
    assert unlabelled_controls(ada) == []


# -- the card version with the house option ---------------------------------------------------


def test_card_version_with_the_house_option_the_loser_takes_the_cards(
    server, connect, pages: Pages
):
    """R-DECK40-6, card version with `house_loser_takes`: each set Ada wins goes under Bo's
    pile (`taken_by`), the piles the page shows are the server's, and when the director ends
    the game the page shows the cards left and the fewest as the winner."""
    deck = deck_starting("3C", "AC", "8C", "AD", "4H", "2S", "6H", "AS")
    options = {"seats": seats(2), "deck": deck, "scoring": "cards", "house_loser_takes": True}
    table, director = create(server, connect, options)
    bo = seat_client(server, connect, table, "s2")
    ada = open_seat(pages, server, table, "s1", width=390)
    scoring = ada.inner_text("#scoring")
    assert "Card version: no points; when a player runs out of cards" in scoring
    assert "House option: the loser of each set takes the four cards." in scoring
    ada.click("#start")

    for number, piles in ((1, {"s1": 16, "s2": 20}), (2, {"s1": 14, "s2": 22})):
        ada.locator("#set-number", has_text=f"Set {number}").wait_for(timeout=WAIT)
        cards = bo.event("CardsTurnedUp")["data"]["cards"]
        ada.locator(f'.playing-card[data-card="{cards[0]["card"]}"]').wait_for(timeout=WAIT)
        drawn_as_the_server_says(ada, cards)
        ada.fill("#solution", solve([c["rank"] for c in cards])[0].ascii_expression)
        ada.click("#call-24")
        won = bo.event("RoundWon")["data"]
        assert (won["seat"], won["points"], won["taken_by"]) == ("s1", 0, "s2")
        assert won["cards"] == [c["card"] for c in cards]
        feed_has(ada, f"{who('s1')} solves set {number}: {who('s2')} takes the four cards.")
        ada.locator("#result", has_text="You take the four cards.").wait_for(timeout=WAIT)
        ada.locator("#set-number", has_text=f"Set {number + 1}").wait_for(timeout=WAIT)
        view = server_view(bo, table)
        assert view["cards_left"] == piles  # the next set is up: two from each pile
        ada.locator(f'#seats tr[data-seat="s2"] td.pile[data-pile="{piles["s2"]}"]').wait_for(
            timeout=WAIT
        )
        seats_drawn_as_the_server_says(ada, view)
        assert seat_cells(ada, "s1")["won"] == 0  # the loser took them: nobody keeps cards

    send(director, table, "end_game")
    ended = bo.event("GameEnded")["data"]
    assert ended["scoring"] == "cards" and ended["cards_left"] == {"s1": 14, "s2": 22}
    assert ended["winners"] == ["s1"] and ended["tie"] is False
    result = ada.locator('#end-result [data-tie="false"]')
    result.wait_for(timeout=WAIT)
    assert who("s1") in result.inner_text()
    cards_left = ", ".join(f"{who(seat)} {n}" for seat, n in ended["cards_left"].items())
    assert f"Cards left: {cards_left}." in ada.inner_text("#end-result")
    assert cards_left == "Ada 14, Bo 22"
    assert unlabelled_controls(ada) == []
    assert ada.evaluate("document.documentElement.scrollWidth") <= 390
