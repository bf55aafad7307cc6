"""The casual games' pages and the practice page at a phone's, a tablet's and a laptop's
width (issue 27, as tests/e2e/test_web_screens.py does for the 24 Challenge's): a pocket
table of the Double Digits edition (numbers 1 to 24, at least one of two digits a card), its
scoreboard, a deck40 table, a Tjugoett table and the practice page, each with its cards up
and a long name (the pocket and deck40 tables seat it twice, and a seat with no name):
nothing wider than the screen or out of its section, no card number running into another
(`web_browser.layout_problems`, `card_gaps`), a screenshot of each page at each width (kept
under `T24_SCREENSHOTS` when it is set); and nothing a person reads there (the text, the
labels a screen reader says) holds a seat id, an event name or a code (`read_problems`).
Two players of one name read "Ada" and "Ada (2)", a seat with no name "Player 3".
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from test_web_screens import LONG, at_each_width
from web_browser import WAIT, Pages, seat_client, send

pytestmark = pytest.mark.e2e

SEATS = [{"seat": "s1", "name": LONG}, {"seat": "s2", "name": "Bo"}]
# a long name twice (the second reads "<name> (2)") and a seat with no name ("Player 4")
CROWDED = [*SEATS, {"seat": "s3", "name": LONG}, {"seat": "s4", "name": ""}]
SEAT_ID = re.compile(r"\b(s\d+|t\d\d|dl)\b")
EVENT_NAME = re.compile(r"\b[A-Z][a-z]+[A-Z][A-Za-z]*\b")  # CardWon, TableCreated
CODE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b|[{}]|\bundefined\b|\bnull\b")  # stale_set, a dict
READ = """() => [document.body.innerText,
    ...[...document.querySelectorAll("[aria-label], [title], [alt]")].flatMap((el) =>
        ["aria-label", "title", "alt"].map((name) => el.getAttribute(name) || ""))]"""
_ids = itertools.count(1)


def create(server, connect, game: str, options: dict[str, Any]) -> tuple[str, Any]:
    director = connect(server.token("director", name="dir"))
    table = f"casual-screens-{game}-{next(_ids)}"
    reply = director.request("create_table", table=table, game=game, options=options)
    assert reply["type"] == "table_created", reply
    return table, director


def read_problems(page) -> list[str]:
    """What a person reads on the page now (its text, and what a screen reader says of its
    labels) that is a seat id, an event name or a code, never a word."""
    found = []
    for text in page.evaluate(READ):
        for pattern in (SEAT_ID, EVENT_NAME, CODE):
            found += [f"{match.group(0)!r} in {text[:80]!r}" for match in pattern.finditer(text)]
    return found


def test_the_read_check_finds_a_seat_id_an_event_and_a_code(page_without_a_token):
    """The check is not vacuous: a seat id, an event name and a code are found (on the
    session's page without a token, which has none; the line is removed after)."""
    page = page_without_a_token()
    assert read_problems(page) == []
    page.evaluate("""() => document.body.append(Object.assign(document.createElement("p"),
        { id: "read-check", textContent: "Ada (s1) CardWon stale_set" }))""")
    try:
        assert len(read_problems(page)) == 3, read_problems(page)
    finally:
        page.evaluate("""() => document.getElementById("read-check").remove()""")


def seat_page(pages: Pages, server, table: str, seat: str = "s1", beside: Any = None) -> Any:
    """A seat's page at 390 px (with `beside`, a tab of that page's browser: web_browser.py)."""
    token = server.token("player", table=table, seat=seat)
    page = pages.open(server.http, token, width=390, beside=beside)
    page.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
    return page


def test_a_double_digits_pocket_table_and_its_scoreboard_fit_every_width(
    server, connect, pages: Pages
):
    options = {"seats": CROWDED, "edition": "double-digits", "size": 12, "seed": 5}
    table, _ = create(server, connect, "pocket", options)
    for seat in ("s2", "s3", "s4"):
        seat_client(server, connect, table, seat)
    ada = seat_page(pages, server, table)
    ada.click("#start")
    card = ada.locator('.card.up[data-number="1"]')
    card.wait_for(timeout=WAIT)
    numbers = [int(n) for n in card.get_attribute("data-numbers").split()]
    assert any(n >= 10 for n in numbers) and max(numbers) <= 24, numbers
    assert card.locator(".number").all_inner_texts() == [str(n) for n in numbers]
    names = ada.locator("#seats th[scope=row]").all_inner_texts()
    assert names == [f"{LONG} (you)", "Bo", f"{LONG} (2)", "Player 4"], names
    at_each_width(pages, ada, "pocket-double-digits")
    assert read_problems(ada) == []
    watcher = server.token("spectator", name="w", table=table)
    board = pages.open(server.http, watcher, page="board", table=table, beside=ada)
    pages.done(ada)
    board.locator(f'[data-table="{table}"] .card.up').wait_for(timeout=WAIT)
    at_each_width(pages, board, "pocket-scoreboard")
    assert read_problems(board) == []


def test_a_deck40_table_fits_every_width(server, connect, pages: Pages):
    table, _ = create(server, connect, "deck40", {"seats": CROWDED})  # one card from each pile
    for seat in ("s2", "s3", "s4"):
        seat_client(server, connect, table, seat)
    ada = seat_page(pages, server, table, "s3")  # the second of the two long names
    ada.click("#start")
    ada.locator("#set-number", has_text="Set 1").wait_for(timeout=WAIT)
    assert ada.locator(".playing-card[data-rank]").count() == 4
    owners = ada.locator(".playing-card-slot .owner").all_inner_texts()
    assert owners == [LONG, "Bo", f"{LONG} (2)", "Player 4"], owners
    assert ada.inner_text("#who") == f"You are {LONG} (2)."
    at_each_width(pages, ada, "deck40")
    assert read_problems(ada) == []


def test_a_tjugoett_table_fits_every_width(server, connect, pages: Pages):
    options = {"seats": SEATS, "seed": "casual-screens", "dealer_seconds": 0.05}
    table, director = create(server, connect, "tjugoett", options)
    seat_client(server, connect, table, "s2")
    ada = seat_page(pages, server, table)
    send(director, table, "start_round")
    ada.locator("#my-turn", has_text="Your turn").wait_for(timeout=WAIT)
    at_each_width(pages, ada, "tjugoett")
    assert read_problems(ada) == []


def test_the_practice_page_fits_every_width(server, connect, pages: Pages):
    options = {"seats": [{"seat": "s1", "name": LONG}], "cards": 3, "answer_seconds": 60}
    table, _ = create(server, connect, "practice", options)
    ada = seat_page(pages, server, table)
    ada.locator("#next:not([disabled])").wait_for(timeout=WAIT)
    ada.locator("body").press("n")
    ada.locator('.card.up[data-number="1"]').wait_for(timeout=WAIT)
    at_each_width(pages, ada, "practice")
    assert read_problems(ada) == []


def test_two_players_of_one_name_read_apart_on_the_page(server, connect, pages: Pages):
    """Two Adas and a seat with no name at a pocket table: the second Ada reads "Ada (2)"
    wherever the page names her (who she is, who holds the card, the feed, the scores), the
    unnamed seat "Player 3"; no seat id anywhere a person reads."""
    seats = [
        {"seat": "s1", "name": "Ada"},
        {"seat": "s2", "name": "Ada"},
        {"seat": "s3", "name": ""},
    ]
    stack = [{"card_id": "p1", "numbers": [1, 2, 3, 4], "dots": 2}]
    table, _ = create(server, connect, "pocket", {"seats": seats, "stack": stack})
    second = seat_client(server, connect, table, "s2")
    seat_client(server, connect, table, "s3")
    ada = seat_page(pages, server, table)
    ada.click("#start")
    ada.locator('.card.up[data-number="1"]').wait_for(timeout=WAIT)
    send(second, table, "claim", set=1)
    ada.locator("#claimer", has_text="Ada (2)").wait_for(timeout=WAIT)
    # a refusal reads in the game's words; the server's own message (for developers) names
    # the seat by its id, and is not shown
    refused = ada.evaluate(
        """async () => {
            const { refusalInWords } = await import("/js/games/shell.js");
            const refusal = { code: "claim_in_progress", rule: "R-POCKET-3",
                              message: "seat s2 claimed card 1 first" };
            return refusalInWords(refusal, { name: "pocket" });
        }"""
    )
    assert refused == "Another player claimed this card first (R-POCKET-3).", refused
    ada.locator("#feed li", has_text="Ada (2): I got it! (card 1)").wait_for(timeout=WAIT)
    assert ada.inner_text("#who") == "You are Ada."
    names = ada.locator("#seats th[scope=row]").all_inner_texts()
    assert names == ["Ada (you)", "Ada (2)", "Player 3"], names
    assert read_problems(ada) == []
    theirs = seat_page(pages, server, table, "s2", beside=ada)
    theirs.locator("#who", has_text="You are Ada (2).").wait_for(timeout=WAIT)


DRAW_A_VIEW = """async (view) => {
    const { drawValue, viewNames } = await import("/js/games/generic.js");
    const words = await import("/js/words.js");
    await words.loadWords("en");
    const drawn = drawValue(view, viewNames(view));
    document.body.append(drawn);
    const text = drawn.innerText;
    drawn.remove(); // the page is shared (web_browser.py `page_without_a_token`)
    return text;
}"""


def test_a_game_without_a_page_names_its_seats_in_its_drawn_view(page_without_a_token):
    """The page of a game with no module here (games/generic.js), and the replay's data of
    an event, draw a view as labelled values: a seat id there, as a value or as a key, reads
    as its player's name."""
    page = page_without_a_token()
    view = {
        "seats": [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Ada"}],
        "turn": "s2",
        "scores": {"s1": 3, "s2": 1},
    }
    text = page.evaluate(DRAW_A_VIEW, view)
    assert "Ada (2)" in text and "turn" in text, text
    assert not SEAT_ID.search(text), text
