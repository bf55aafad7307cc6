"""The casual games played in a real browser against a real `t24-server` (issues 14, 15).

Headless Debian Chromium driven by Playwright (tests/e2e/web_browser.py); another seat is a
raw WebSocket client (`connect`), the director's raw client creates the table. Each step
waits for what it expects on the page with a timeout, never a fixed sleep; screenshots go to
tmp_path. The page draws only what the server's views and pushes say (js/games/).
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from server_process import ServerProcess
from web_browser import WAIT, Pages, seat_client, send, sent_requests, unlabelled_controls

from server.games.deck40.options import CARD_NAMES
from server.games.tjugoett.cards import DECK
from server.puzzles.solver import solve

pytestmark = pytest.mark.e2e

_ids = itertools.count(1)
SEATS = [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}]


def create(server, connect, game: str, options: dict[str, Any]) -> tuple[str, Any]:
    """A fresh table of `game` (created by a director's raw client): (table, director)."""
    director = connect(server.token("director", name="dir"))
    table = f"web-{game}-{next(_ids)}"
    reply = director.request("create_table", table=table, game=game, options=options)
    assert reply["type"] == "table_created", reply
    return table, director


def open_seat(
    pages: Pages, server, table: str, seat: str, width: int = 1024, watch: bool = False
) -> Any:
    """A seat's page, connected; with `watch`, what it sends is kept (`sent_requests`)."""
    token = server.token("player", table=table, seat=seat)
    page = pages.open(server.http, token, width=width, watch=watch)
    page.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
    return page


def fits_the_width(page, width: int) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= width


def solution_for(numbers: list[int]) -> str:
    """A right answer, typed as a player would (the solver stands in for his head)."""
    return solve(numbers)[0].ascii_expression


# -- pocket -----------------------------------------------------------------------------------


def test_pocket_a_student_claims_and_wins_a_card_and_a_wrong_answer_shows_the_exclusion(
    server, connect, pages: Pages
):
    """R-POCKET-2/3/5 in the browser (a phone's width, keyboard only for the claim): Bo (a raw
    client) answers card 1 wrong and is out of it; Ada claims with the space bar, sees the
    server's answer countdown and wins the card; on card 2 Ada's wrong answer shows her
    exclusion, Bo wins it, and the end shows the 2-2 tie as a tie."""
    stack = [
        {"card_id": "p1", "numbers": [1, 2, 3, 4], "dots": 2},
        {"card_id": "p2", "numbers": [3, 3, 8, 8], "dots": 2},
    ]
    table, _ = create(server, connect, "pocket", {"seats": SEATS, "stack": stack})
    bo = seat_client(server, connect, table, "s2")
    ada = open_seat(pages, server, table, "s1", width=390, watch=True)
    assert ada.locator("#claim").is_disabled()  # no card up yet
    ada.click("#start")
    card = ada.locator('.card.up[data-number="1"]')
    card.wait_for(timeout=WAIT)
    numbers = [int(n) for n in card.get_attribute("data-numbers").split()]

    send(bo, table, "answer", expression="1 + 1")  # wrong: Bo is out of card 1 only
    ada.locator("#excluded", has_text="Bo").wait_for(timeout=WAIT)
    ada.locator("#card-results li.out", has_text="wrong").first.wait_for(timeout=WAIT)

    ada.locator("body").press("Space")  # "I got it"
    ada.locator("#answer:focus").wait_for(timeout=WAIT)
    countdown = ada.locator('#countdowns li[data-command="answer_deadline"]')
    countdown.wait_for(timeout=WAIT)
    assert "Answer due in" in countdown.inner_text()
    ada.locator("#claimer", has_text="Ada").wait_for(timeout=WAIT)
    ada.keyboard.type(solution_for(numbers))
    ada.keyboard.press("Enter")
    ada.locator("#result", has_text="You won card 1: 2 points").wait_for(timeout=WAIT)
    ada.locator('tr[data-seat="s1"] td.score[data-score="2"]').wait_for(timeout=WAIT)
    pages.shot(ada, "pocket-won-phone")

    ada.locator('.card.up[data-number="2"]').wait_for(timeout=WAIT)
    ada.fill("#answer", "3 + 3 + 8 + 8")  # an answer without a claim claims and answers
    ada.press("#answer", "Enter")
    ada.locator("#you-state", has_text="You are out of this card").wait_for(timeout=WAIT)
    ada.locator("#excluded", has_text="Ada").wait_for(timeout=WAIT)
    ada.locator("#feed li.flag", has_text="Ada is out of card 2").wait_for(timeout=WAIT)
    assert ada.locator("#claim").is_disabled() and ada.locator("#answer").is_disabled()
    assert unlabelled_controls(ada) == []
    pages.shot(ada, "pocket-excluded-phone")

    send(bo, table, "answer", expression=solution_for([3, 3, 8, 8]))
    tie = ada.locator('#end-result [data-tie="true"]')
    tie.wait_for(timeout=WAIT)
    assert "A tie between Ada and Bo" in tie.inner_text()
    assert fits_the_width(ada, 390)
    # each claim and answer named the card on her screen: one that crossed the next card
    # would be refused (stale_set), never judged on it (docs/games/pocket.md)
    plays = [
        (frame["name"], frame["args"].get("set"))
        for frame in sent_requests(ada)  # what the page asked the server
        if frame.get("type") == "command" and frame["name"] in ("claim", "answer")
    ]
    assert plays == [("claim", 1), ("answer", 1), ("answer", 2)]


def test_pocket_stumped_by_all_makes_a_bonus_card_and_the_director_pauses_and_ends(
    server, connect, pages: Pages
):
    """R-POCKET-4/5: Ada (in the browser) and Bo (a raw client) are stumped: the card waits
    as a bonus card. The director (with the table) gets the same page with pause, resume
    and end, not a player's controls; the end shows the unclaimed bonus card; the
    scoreboard draws the table, not raw data; every control has a label."""
    table, _ = create(server, connect, "pocket", {"seats": SEATS, "size": 3, "seed": 5})
    bo = seat_client(server, connect, table, "s2")
    ada = open_seat(pages, server, table, "s1")
    director = pages.open(
        server.http, server.token("director", name="dir"), table=table, beside=ada
    )
    director.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
    assert director.locator("#claim").is_hidden()  # a player's control, not the director's
    director.click("#start")
    ada.locator('.card.up[data-number="1"]').wait_for(timeout=WAIT)
    ada.click("#stumped")
    ada.locator("#stumped-list", has_text="Ada").wait_for(timeout=WAIT)
    assert ada.locator("#stumped").is_disabled()
    send(bo, table, "declare_stumped")
    ada.locator("#bonus", has_text="Bonus cards waiting: 1").wait_for(timeout=WAIT)
    ada.locator('.card.up[data-number="2"]').wait_for(timeout=WAIT)

    director.click("#pause-game")
    ada.locator("#pause", has_text="Paused (by the director)").wait_for(timeout=WAIT)
    assert ada.locator("#claim").is_disabled()
    ada.click("#resume")  # any player may resume (docs/games/pocket.md, decision 6)
    director.locator("#feed li", has_text="The game goes on").wait_for(timeout=WAIT)
    assert unlabelled_controls(director) == []
    board = pages.open(
        server.http, server.token("spectator", name="watcher", table=table), width=768, beside=ada
    )
    section = board.locator(f'[data-table="{table}"]')
    section.locator(".card.up").wait_for(timeout=WAIT)
    section.locator('tr[data-seat="s1"] td.score[data-score="0"]').wait_for(timeout=WAIT)
    assert section.locator("pre").count() == 0
    assert unlabelled_controls(board) == []
    assert fits_the_width(board, 768)
    pages.shot(board, "pocket-board-768")
    director.on("dialog", lambda dialog: dialog.accept())  # "End the game now?"
    director.click("#end")
    ada.locator("#end-result", has_text="Bonus cards left unclaimed: 1").wait_for(timeout=WAIT)
    assert "ended by the director" in ada.inner_text("#end-result")


def test_pocket_a_server_restart_shows_the_pause_and_a_player_resumes(
    tmp_path, connect, pages: Pages
):
    """The page reconnects on its own after a restart and shows the game paused by the
    server (`server_restart`: a live stumped timer, docs/games/pocket.md decision 6); a
    player resumes it from the page and the card is playable again."""
    process = ServerProcess(tmp_path / "srv").start()
    try:
        director = connect(process.token("director", name="dir"), url=process.url)
        options = {"seats": SEATS, "size": 2, "seed": 1, "stumped_seconds": 60}
        reply = director.request("create_table", table="webpocket", game="pocket", options=options)
        assert reply["type"] == "table_created", reply
        ada = open_seat(pages, process, "webpocket", "s1", width=390)
        ada.click("#start")
        ada.locator('.card.up[data-number="1"]').wait_for(timeout=WAIT)
        ada.locator('#countdowns li[data-command="stumped_deadline"]').wait_for(timeout=WAIT)
        port = process.port
        process.terminate()
        ada.locator("#pause", has_text="Connection lost").wait_for(timeout=WAIT)
        process.start("--port", str(port))  # same port, same store
        ada.locator("#pause", has_text="Paused (the server restarted)").wait_for(timeout=WAIT)
        assert ada.locator("#claim").is_disabled()
        ada.click("#resume")
        ada.locator("#feed li", has_text="The game goes on").wait_for(timeout=WAIT)
        ada.locator("#claim:enabled").wait_for(timeout=WAIT)
        assert "Paused" not in ada.inner_text("#pause")
    finally:
        if process.running():
            process.terminate()


# -- deck40 -----------------------------------------------------------------------------------


def test_deck40_no_solution_agreed_then_a_right_24_takes_the_four_cards(
    server, connect, pages: Pages
):
    """R-DECK40-1..4/6 in the browser at a tablet's width: four aces up; Ada calls "no
    solution" giving back the card she chose, Bo (a raw client) agrees; the new set has a
    solution, Ada's "24!" takes the four cards and reaches the target: she wins."""
    # dealt one at a time: Ada's pile AC AH 3C 2D ..., Bo's AD AS 8C 2H ...
    first = ["AC", "AD", "AH", "AS", "3C", "8C", "2D", "2H"]
    deck = first + [card for card in CARD_NAMES if card not in first]
    options = {"seats": SEATS, "deck": deck, "scoring": "simple", "target_points": 1}
    table, _ = create(server, connect, "deck40", options)
    bo = seat_client(server, connect, table, "s2")
    ada = open_seat(pages, server, table, "s1", width=768, watch=True)
    ada.click("#start")
    cards = ada.locator(".playing-card[data-rank]")
    ada.locator("#set-number", has_text="Set 1").wait_for(timeout=WAIT)
    assert sorted(cards.evaluate_all("cs => cs.map(c => c.dataset.card)")) == sorted(first[:4])
    assert "Simple scoring" in ada.inner_text("#scoring")
    assert ada.locator('.playing-card[data-card="AH"]').get_attribute("aria-label") == (
        "ace of hearts, from Ada's pile"
    )
    ada.select_option("#returns", "AH")  # her choice: the second of her cards
    ada.click("#no-solution")
    ada.locator("#no-solution-callers", has_text="Ada").wait_for(timeout=WAIT)
    assert ada.locator("#no-solution").is_disabled()
    send(bo, table, "call_no_solution")
    ada.locator("#feed li", has_text="Everyone says set 1 has no solution").wait_for(timeout=WAIT)
    ada.locator("#feed li", has_text="Back under the piles: A♥").wait_for(timeout=WAIT)
    ada.locator("#set-number", has_text="Set 2").wait_for(timeout=WAIT)
    assert ada.locator('.playing-card[data-card="AH"]').count() == 0
    ranks = [int(rank) for rank in cards.evaluate_all("cs => cs.map(c => c.dataset.rank)")]
    assert sorted(ranks) == [1, 1, 3, 8]

    ada.fill("#solution", "1 + 1 + 3 + 8")  # wrong first: Bo may still call
    ada.press("#solution", "Enter")
    ada.locator("#you-state", has_text="You are out of these four cards").wait_for(timeout=WAIT)
    send(bo, table, "call_no_solution")
    ada.locator("#set-number", has_text="Set 3").wait_for(timeout=WAIT)
    ranks = [int(rank) for rank in cards.evaluate_all("cs => cs.map(c => c.dataset.rank)")]
    assert sorted(ranks) == [2, 2, 3, 8]  # each gave back his first card, turned up a new one
    ada.fill("#solution", solution_for(ranks))
    ada.click("#call-24")
    ada.locator("#result", has_text="You take the four cards (1 point)").wait_for(timeout=WAIT)
    ada.locator('tr[data-seat="s1"] td.won[data-won="4"]').wait_for(timeout=WAIT)
    won = ada.locator('#end-result [data-tie="false"]')
    won.wait_for(timeout=WAIT)
    assert "Ada won" in won.inner_text()
    # every call named the set on her screen: one that crossed a deal would be refused
    # (stale_set), never judged on cards she had not seen (docs/games/deck40.md)
    calls = [
        (frame["name"], frame["args"].get("set"))
        for frame in sent_requests(ada)  # what the page asked the server
        if frame.get("type") == "command" and frame["name"].startswith("call_")
    ]
    assert calls == [("call_no_solution", 1), ("call_24", 2), ("call_24", 3)]
    assert unlabelled_controls(ada) == []
    assert fits_the_width(ada, 768)
    pages.shot(ada, "deck40-won-768")


# -- Tjugoett ---------------------------------------------------------------------------------


def stacked(*top: str) -> list[str]:
    """A round's order: these cards on top, then the rest of the deck."""
    return [*top, *(card for card in DECK if card not in top)]


def test_tjugoett_a_player_draws_and_stands_against_the_server_dealer(
    server, connect, pages: Pages
):
    """R-21-4..19 in the browser: Ada draws (the D key) and stands (the button) against the
    server's dealer, sees the dealer bust, her win and the tally; Bo's hidden card never
    reaches her page while his turn is still to come or live (R-21-19, `turn_over`)."""
    options = {"seats": SEATS, "seed": "web-casual-test-seed", "dealer_seconds": 0.05}
    table, director = create(server, connect, "tjugoett", options)
    bo = seat_client(server, connect, table, "s2")
    ada = open_seat(pages, server, table, "s1")
    assert ada.locator("#start-round").is_hidden()  # the officials' control
    # Ada 10H, Bo 9C; Ada's turn starts with 2D (12), she draws 5D (17) and stands; the
    # dealer draws 10S 6C (16), then 8C: bust (R-21-4/6/10/11/14/17)
    order = stacked("10H", "9C", "2D", "5D", "10S", "6C", "8C")
    send(director, table, "start_round", order=order)
    ada.locator("#my-turn", has_text="Your turn").wait_for(timeout=WAIT)
    ada.locator("#my-sum", has_text="Your sum: 12").wait_for(timeout=WAIT)
    ada.locator("#draw:focus").wait_for(timeout=WAIT)
    bo_hand = ada.locator('li.seat-hand[data-seat="s2"]')
    assert bo_hand.locator(".playing-card.back").count() == 1
    assert ada.locator('[data-card="9C"]').count() == 0 and "9♣" not in ada.inner_text("body")

    ada.locator("body").press("d")
    ada.locator("#my-sum", has_text="Your sum: 17").wait_for(timeout=WAIT)
    ada.click("#stand")
    ada.locator("#result", has_text="You win: the dealer is bust").wait_for(timeout=WAIT)
    mine = ada.locator('#hands li[data-seat="s1"]')
    assert mine.locator(".outcome").inner_text() == ("Ada wins: the dealer is bust with 24.")
    assert mine.locator(".dealer-cards").get_attribute("data-cards") == "10S 6C 8C"
    ada.locator('#tally tr[data-seat="s1"] td.won[data-won="1"]').wait_for(timeout=WAIT)
    ada.locator('#tally tr[data-seat="dealer"] td.lost[data-lost="1"]').wait_for(timeout=WAIT)
    pages.shot(ada, "tjugoett-won")

    # Bo's turn is live: his cards stay hidden on Ada's page while he draws
    bo.wait_for(lambda m: m.get("event_type") == "TurnStarted" and m["data"]["seat"] == "s2")
    send(bo, table, "draw_card")
    bo_hand.locator(".playing-card.back").nth(1).wait_for(timeout=WAIT)
    assert bo_hand.locator("[data-card]").count() == 0
    assert ada.locator('[data-card="9C"]').count() == 0 and "9♣" not in ada.inner_text("body")
    assert ada.locator("#draw").is_disabled() and ada.locator("#stand").is_disabled()
    assert unlabelled_controls(ada) == []
    send(director, table, "end_table")
    ada.locator("#phase", has_text="The table is over").wait_for(timeout=WAIT)


def test_tjugoett_a_person_dealer_deals_in_the_browser(server, connect, pages: Pages):
    """R-21-14/18/19 with a person dealer: Dora's page shows the player's hand face down
    before he stands, then her draw and stand buttons; the outcome reaches the tally."""
    options = {
        "seats": SEATS[:1],
        "seed": "web-casual-test-seed",
        "dealer": {"seat": "dl", "name": "Dora"},
    }
    table, _ = create(server, connect, "tjugoett", options)
    ada = seat_client(server, connect, table, "s1")
    # the director's scoreboard lists a link for the dealer's seat too
    director = pages.open(
        server.http, server.token("director", name="director"), page="board", table=table
    )
    director.locator(f'[data-table="{table}"] table.tally').wait_for(timeout=WAIT)
    director.click(f'[data-links="{table}"]')
    link = director.locator(f'[data-table="{table}"] a[data-person^="dealer dl"]')
    link.wait_for(timeout=WAIT)
    dealer = link.get_attribute("href").split("#token=")[1]
    dora = pages.open(server.http, dealer, width=390, beside=director)  # a tab of its browser
    dora.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
    dora.locator("#who", has_text="You are Dora (the dealer).").wait_for(timeout=WAIT)
    assert dora.locator("#mine").is_hidden()  # the dealer holds no player's hand
    dora.click("#start-round")  # a person dealer starts rounds
    ada.wait_for(lambda m: m.get("event_type") == "TurnStarted")
    send(ada, table, "draw_card")
    send(ada, table, "stand")
    dora.locator("#dealer-draw:enabled").wait_for(timeout=WAIT)
    hand = dora.locator('li.seat-hand[data-seat="s1"]')
    # one card dealt, one at the turn's start, one drawn: all face down for the dealer
    assert hand.locator(".playing-card.back").count() == 3
    assert hand.locator("[data-card]").count() == 0
    assert dora.locator("#dealer-stand").is_disabled()  # two cards first
    dora.locator("body").press("d")
    dora.locator("#dealer-hand [data-card]").first.wait_for(timeout=WAIT)
    dora.click("#dealer-draw")
    dora.locator("#dealer-hand [data-card]").nth(1).wait_for(timeout=WAIT)
    if dora.locator("#dealer-stand").is_enabled():  # unless 21, bust or five cards decided
        dora.click("#dealer-stand")
    dora.locator('#hands li[data-seat="s1"] .outcome').wait_for(timeout=WAIT)
    assert hand.locator("[data-card]").count() == 3  # settled: now public
    tally = dora.locator('#tally tr[data-seat="s1"]')
    assert tally.locator("td.won").inner_text() + tally.locator("td.lost").inner_text() in (
        "10",
        "01",
    )
    assert unlabelled_controls(dora) == []
    assert fits_the_width(dora, 390)
    pages.shot(dora, "tjugoett-dealer-phone")
    # the scoreboard tells the events in the game's words, and its links fit the page
    director.locator(f'[data-table="{table}"] .feed li', has_text="Round 1 is over").wait_for(
        timeout=WAIT
    )
    assert fits_the_width(director, 1024)
    pages.shot(director, "tjugoett-board")


def test_every_refusal_of_the_casual_games_is_shown_in_words(page_without_a_token):
    """words.js has a sentence for every refusal code of pocket, deck40 and Tjugoett (their
    REFUSALS) and of the tournament (a director's board may show one), each in its own words
    (the catalogue's `<game>/refusal.<code>`), so a refusal is never shown as the generic
    fallback or a raw map."""
    from server.games import deck40, pocket, tjugoett
    from server.tournament.refusals import REFUSALS as TOURNAMENT_REFUSALS

    codes = [
        (name, code)
        for name, game in (("pocket", pocket), ("deck40", deck40), ("tjugoett", tjugoett))
        for code in sorted(game.REFUSALS)
    ]
    codes += [("tournament", code) for code in sorted(TOURNAMENT_REFUSALS)]
    page = page_without_a_token()  # English
    shown = page.evaluate(
        """async (codes) => {
            const { errorInWords } = await import("/js/words.js");
            return codes.map(([game, code]) => [code, errorInWords({ code }, game)]);
        }""",
        codes,
    )
    generic = [code for code, text in shown if text.startswith("The server refused that")]
    assert generic == [], generic
    assert dict(shown)["stale_set"].startswith("Not judged: ")  # deck40's own sentence


def test_the_replay_page_draws_a_tjugoett_table_at_each_step_as_the_viewer_saw_it(
    server, connect, pages: Pages
):
    """The replay page draws a casual table with its game's module at each step (the
    server's `view_at`), as this token saw it then: Bo's replay shows Ada's hand face down
    while her turn was live (R-21-19), face up with the outcome once it was settled."""
    options = {"seats": SEATS, "seed": "web-casual-test-seed", "dealer_seconds": 0.05}
    table, director = create(server, connect, "tjugoett", options)
    assert director.request("join", table=table, after_seq=0)["type"] == "snapshot"
    ada = seat_client(server, connect, table, "s1")
    # Ada 10H, Bo 9C, Ada's turn 2D (12): she stands; the dealer 10S 6C 8C is bust
    send(director, table, "start_round", order=stacked("10H", "9C", "2D", "10S", "6C", "8C"))
    ada.wait_for(lambda m: m.get("event_type") == "TurnStarted" and m["data"]["seat"] == "s1")
    send(ada, table, "stand")
    settled = director.event("TurnSettled")["seq"]
    second = [
        push["seq"]
        for push in director.events()
        if push["event_type"] == "CardDealt" and push["data"]["seat"] == "s1"
    ][1]
    assert second < settled

    bo = pages.open(
        server.http, server.token("player", table=table, seat="s2"), page="replay", table=table
    )
    bo.locator("#position", has_text="Event 1 of").wait_for(timeout=WAIT)
    bo.locator("#slider").fill(str(second))
    step = bo.locator(f'#step[data-seq="{second}"]:not([aria-busy])')
    step.wait_for(timeout=WAIT)
    hand = step.locator('li.seat-hand[data-seat="s1"]')
    assert hand.locator(".playing-card.back").count() == 2
    assert bo.locator('[data-card="10H"], [data-card="2D"]').count() == 0
    assert "Ada gets a card face down (2 cards)." == bo.inner_text("#sentence")
    assert step.locator('li.seat-hand[data-seat="s2"] [data-card="9C"]').count() == 1  # his own

    bo.locator("#slider").fill(str(settled))
    step = bo.locator(f'#step[data-seq="{settled}"]:not([aria-busy])')
    step.wait_for(timeout=WAIT)
    hand = step.locator('li.seat-hand[data-seat="s1"]')
    assert hand.locator("[data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)") == [
        "10H",
        "2D",
    ]
    outcome = "Ada wins: the dealer is bust with 24."
    assert hand.locator(".outcome").inner_text() == outcome
    assert bo.inner_text("#sentence") == outcome.replace("24.", "24 (10♥ 2♦ = 12).")  # the feed's
    assert unlabelled_controls(bo) == []


def history(client, table: str) -> list[dict[str, Any]]:
    """Every event of `table` so far, in seq order (a fresh join from the start)."""
    snapshot = client.request("join", table=table, after_seq=0)
    assert snapshot["type"] == "snapshot", snapshot
    pushes: list[dict[str, Any]] = []
    while not pushes or pushes[-1]["seq"] < snapshot["seq"]:
        pushes.append(client.wait_for(lambda m: m.get("type") == "event" and m["table"] == table))
    assert [push["seq"] for push in pushes] == list(range(1, snapshot["seq"] + 1))
    return pushes


def step_through(page, pushes: list[dict[str, Any]], check) -> None:
    """The replay page stepped from the first event to the last with the arrow key: each
    step drawn by the game's module (never raw data), its event in the game's words;
    `check(push, step, sentence)` looks at what the step draws."""
    page.locator("#position", has_text=f"Event 1 of {len(pushes)}").wait_for(timeout=WAIT)
    for index, push in enumerate(pushes):
        if index:
            page.keyboard.press("ArrowRight")
        step = page.locator(f'#step[data-seq="{push["seq"]}"]:not([aria-busy])')
        step.wait_for(timeout=WAIT)
        position = page.inner_text("#position")
        assert position.startswith(f"Event {index + 1} of {len(pushes)} "), position
        sentence = page.inner_text("#sentence")
        assert sentence and sentence != f"{push['event_type']}.", (push, sentence)
        assert step.locator("pre").count() == 0, push  # the game's drawing, not its view
        check(push, step, sentence)
    assert unlabelled_controls(page) == []


def test_the_replay_page_steps_through_a_pocket_table(server, connect, pages: Pages):
    """A played pocket table on the replay page (js/games/index.js `casualStep`), step by
    step: the card turned up, a wrong answer's exclusion, the claim with the answer
    countdown as it stood then, the pause (no countdowns), the won card's points, the
    stumped card set aside as a bonus card and the end."""
    stack = [
        {"card_id": "p1", "numbers": [1, 2, 3, 4], "dots": 2},
        {"card_id": "p2", "numbers": [3, 3, 8, 8], "dots": 2},
    ]
    options = {"seats": SEATS, "stack": stack, "answer_seconds": 120, "stumped_seconds": 600}
    table, director = create(server, connect, "pocket", options)
    ada = seat_client(server, connect, table, "s1")
    bo = seat_client(server, connect, table, "s2")
    send(ada, table, "start_game")
    send(bo, table, "answer", expression="1 + 1")  # wrong: Bo is out of card 1
    send(ada, table, "claim")
    send(director, table, "pause_game", cause="director")
    send(director, table, "resume_game")
    send(ada, table, "answer", expression=solution_for([1, 2, 3, 4]))
    send(ada, table, "declare_stumped")
    send(bo, table, "declare_stumped")  # card 2 set aside; the stack is used up
    pushes = history(director, table)
    assert pushes[-1]["event_type"] == "GameEnded", pushes[-1]

    seen: list[str] = []

    def check(push, step, sentence: str) -> None:
        kind, data = push["event_type"], push["data"]
        seen.append(kind)
        countdowns = step.locator(".countdowns li").evaluate_all(
            "items => items.map(li => li.dataset.command)"
        )
        if kind == "TableCreated":
            assert "The game has not started." in step.inner_text()
        if kind == "CardTurnedUp":
            card = step.locator(".card.up")
            assert card.get_attribute("data-number") == str(data["number"])
            assert card.get_attribute("data-numbers") == " ".join(map(str, data["numbers"]))
            assert step.locator("#excluded").count() == 0  # a new card: nobody out of it
            assert "stumped_deadline" in countdowns
        if kind == "PlayerExcluded":
            assert "Bo" in step.locator("#excluded").inner_text()
            assert step.locator('tr[data-seat="s2"] td.state').inner_text() == "out of this card"
            assert sentence == "Bo is out of card 1 after a wrong answer."
        if kind == "ClaimMade" and data["seat"] == "s1":
            assert step.locator("#claimer").get_attribute("data-seat") == "s1"
            assert countdowns == ["answer_deadline"], countdowns  # the stumped timer waits
            assert "Answer due in 120.0 s" in step.inner_text()  # as it stood at the claim
        if kind == "GamePaused":
            assert "Paused (by the director)." in step.inner_text() and countdowns == []
        if kind == "GameResumed":
            assert "answer_deadline" in countdowns and "Paused" not in step.inner_text()
        if kind == "CardWon":
            assert step.locator('tr[data-seat="s1"] td.score').inner_text() == "2"
            assert sentence == "Ada wins card 1: 2 points."
        if kind == "StumpedDeclared":
            assert "Ada" in step.locator("#stumped-list").inner_text()
        if kind == "CardSetAside":
            assert step.locator("#bonus").get_attribute("data-count") == "1"
        if kind == "GameEnded":
            assert "Ada won." in step.locator(".winner").inner_text()
            assert "Bonus cards left unclaimed: 1." in step.inner_text()
            assert countdowns == []

    page = pages.open(server.http, server.token("spectator", name="w"), page="replay", table=table)
    step_through(page, pushes, check)
    wanted = ["TableCreated", "GameStarted", "CardTurnedUp", "PlayerExcluded", "ClaimMade"]
    wanted += ["GamePaused", "GameResumed", "CardWon", "StumpedDeclared", "CardSetAside"]
    assert set(wanted + ["GameEnded"]) <= set(seen), seen
    pages.shot(page, "replay-pocket-end")


def test_the_replay_page_steps_through_a_deck40_table(server, connect, pages: Pages):
    """A played deck40 table on the replay page, step by step: each set's four cards (those
    turned up then among them, with whose pile each came from), the "no solution" callers,
    the exclusion after a wrong "24!", the four cards taken with the point, the end; at
    every step the drawing accounts for all 40 cards (the piles, the cards up and won)."""
    first = ["AC", "AD", "AH", "AS", "3C", "8C", "2D", "2H"]
    deck = first + [card for card in CARD_NAMES if card not in first]
    options = {"seats": SEATS, "deck": deck, "scoring": "simple", "target_points": 1}
    table, director = create(server, connect, "deck40", options)
    ada = seat_client(server, connect, table, "s1")
    bo = seat_client(server, connect, table, "s2")
    send(ada, table, "start_game")
    send(ada, table, "call_no_solution", returns="AH")
    send(bo, table, "call_no_solution")  # set 2: A A 3 8
    send(ada, table, "call_24", expression="1 + 1 + 3 + 8")  # wrong: Ada is out of set 2
    send(bo, table, "call_no_solution")  # set 3: 2 2 3 8
    send(ada, table, "call_24", expression=solution_for([2, 2, 3, 8]))
    pushes = history(director, table)
    assert pushes[-1]["event_type"] == "GameEnded", pushes[-1]

    seen: list[str] = []

    def check(push, step, sentence: str) -> None:
        kind, data = push["event_type"], push["data"]
        seen.append(kind)
        cards = step.locator(".playing-card").evaluate_all("cs => cs.map(c => c.dataset.card)")
        counts = step.locator("td.pile, td.won").evaluate_all(
            "cells => cells.map(c => Number(c.textContent))"
        )
        if kind != "TableCreated":  # dealt from GameStarted on: every card somewhere
            assert sum(counts) + len(cards) == len(CARD_NAMES), (push, counts, cards)
        if kind == "CardsTurnedUp":
            owners = step.locator(".playing-card").evaluate_all(
                "cs => cs.map(c => [c.dataset.card, c.dataset.seat])"
            )
            turned = [[c["card"], c["seat"]] for c in data["cards"]]  # the new ones: set 1's
            assert len(owners) == 4 and all(card in owners for card in turned), (owners, data)
            assert step.locator(f'[aria-label="Set {data["set"]}: the four cards"]').count() == 1
            assert step.locator("#excluded, #no-solution-callers").count() == 0
        if kind == "NoSolutionCalled" and data["seat"] == "s1" and data.get("returns"):
            assert "Ada" in step.locator("#no-solution-callers").inner_text()
            assert sentence == "Ada: no solution, and gives back A♥."
        if kind == "PlayerExcluded":
            assert "Ada" in step.locator("#excluded").inner_text()
            assert step.locator('tr[data-seat="s1"] td.state').inner_text() == "out of these cards"
        if kind == "RoundWon":
            assert step.locator('tr[data-seat="s1"] td.won').inner_text() == "4"
            assert step.locator('tr[data-seat="s1"] td.score').inner_text() == "1"
            assert cards == []  # taken
        if kind == "GameEnded":
            assert "Ada won." in step.locator('[data-tie="false"]').inner_text()

    page = pages.open(server.http, server.token("spectator", name="w"), page="replay", table=table)
    step_through(page, pushes, check)
    wanted = ["GameStarted", "CardsTurnedUp", "NoSolutionCalled", "NoSolutionAgreed"]
    wanted += ["CardsReturned", "SolutionCalled", "PlayerExcluded", "RoundWon", "GameEnded"]
    assert set(wanted) <= set(seen), seen
    pages.shot(page, "replay-deck40-end")
