"""The web pages in Norwegian Bokmål and Swedish (issue 30), in a real Chromium against a real
`t24-server`: a deck40 game played in Norwegian to its end against the shipped bot, a
Tjugoett round in Swedish to its end with the bot at the other seat, and a page switched to
another language mid-game that keeps the game (and what was typed).

Each page opens in a browser whose locale says the language (`navigator.languages`): the page
speaks it until the person picks another on the switch every page has (`#language-choice`,
remembered in localStorage). Screenshots at a phone's 390 px go where every browser test's
go (tmp_path, or `T24_SCREENSHOTS`), and nothing on the page may be wider than the screen
(`layout_problems`). The words are the catalogue's (protocol/words/<lang>.po): the checks
read them from it, not from copies here.
"""

from __future__ import annotations

import importlib.util
import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pexpect
import pytest
from web_browser import WAIT, Pages, layout_problems, seat_client, send, unlabelled_controls

from protocol.words import catalogue
from protocol.words.seat_names import seat_names
from server.games.deck40.options import CARD_NAMES
from server.games.tjugoett.cards import DECK
from server.puzzles.solver import solve

pytestmark = pytest.mark.e2e

GAME_TIME = 60  # s: the bot's whole game or round on a loaded machine
_ids = itertools.count(1)
SEATS = [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}]
NAMES = {"s1": "Ada", "s2": "Bo", "s3": "Cy", "dl": "Dora"}
# What the English pages' buttons said: none may stand on a Norwegian or Swedish page.
ENGLISH_BUTTONS = ("Start the game", "No solution", "End the game", "Draw a card", "Stand (S)")


def web(lang: str, key: str, n: int | None = None, **values: Any) -> str:
    """A page word as the catalogue says it in `lang`."""
    return catalogue(lang).say("web", key, n, **values)


def create(server, connect, game: str, options: dict[str, Any]) -> str:
    director = connect(server.token("director", name="dir"))
    table = f"lang-{game}-{next(_ids)}"
    reply = director.request("create_table", table=table, game=game, options=options)
    assert reply["type"] == "table_created", reply
    return table


def spawn_bot(cli, server, table: str, seat: str, scale: str = "1") -> pexpect.spawn:
    """The shipped bot (`t24 bot`) at `seat`: a real process reading the views it is sent."""
    token = server.token("player", table=table, seat=seat)
    flags = ("--url", server.url, "--token", token, "--skill", "perfect", "--seed", "1")
    return cli.spawn("bot", *flags, "--time-scale", scale)


def open_in(pages: Pages, server, table: str, seat: str, locale: str, width: int = 390) -> Any:
    page = pages.open(
        server.http, server.token("player", table=table, seat=seat), width, locale=locale
    )
    lang = locale.split("-")[0].replace("no", "nb")
    page.locator("#status", has_text=web(lang, "status.online")).wait_for(timeout=WAIT)
    return page


def buttons(page) -> list[str]:
    return [text.strip() for text in page.locator("button:visible").all_inner_texts()]


def no_english_buttons(page) -> list[str]:
    return [text for text in buttons(page) if any(english in text for english in ENGLISH_BUTTONS)]


def test_a_deck40_game_in_norwegian_to_its_end_against_the_bot(server, connect, cli, pages: Pages):
    """A browser asking for Norwegian (`nb-NO`) gets the deck40 page in Norwegian: its title
    Kortspillet 24 above Norwegian buttons, the scoring said in the game's words; Ada plays
    the shipped bot to the target point, and the end is said in Norwegian."""
    first = ["4C", "AD", "8H", "7S"]  # (8-4)*(7-1): the first set has a solution
    deck = first + [card for card in CARD_NAMES if card not in first]
    options = {"seats": SEATS, "deck": deck, "scoring": "simple", "target_points": 1}
    table = create(server, connect, "deck40", options)
    ada = open_in(pages, server, table, "s1", "nb-NO")
    assert ada.evaluate("document.documentElement.lang") == "nb"
    heading = ada.inner_text("h1")
    assert heading.startswith("Kortspillet 24")
    assert web("nb", "deck40.no_solution") in buttons(ada)  # "Ingen løsning"
    assert web("nb", "game.start") in buttons(ada)
    assert no_english_buttons(ada) == []
    ada.click("#start")
    ada.locator("#set-number", has_text=web("nb", "deck40.set", set=1)).wait_for(timeout=WAIT)
    assert web("nb", "deck40.simple") in ada.inner_text("#scoring")
    bot = spawn_bot(cli, server, table, "s2", scale="3")  # slower than Ada, usually
    ranks = ada.locator(".playing-card[data-rank]").evaluate_all(
        "cs => cs.map(c => +c.dataset.rank)"
    )
    ada.fill("#solution", solve(ranks)[0].ascii_expression)
    ada.click("#call-24")
    end = ada.locator("#end-result [data-tie]")
    end.wait_for(timeout=GAME_TIME * 1000)
    said = end.inner_text()
    assert said.startswith("Spillet er over ("), said  # game.over, whoever won
    assert re.search(r"\b(Ada|Bo) vant\.", said), said
    # the feed in the game's Norwegian words (the catalogue's deck40 vocabulary)
    winner = re.search(r"\b(Ada|Bo) vant", said).group(1)
    ended = catalogue("nb").say("deck40", "event.GameEnded.target_points", names=winner)
    assert ada.locator("#feed li").first.inner_text() == f"{ended[0].upper()}{ended[1:]}."
    assert no_english_buttons(ada) == []
    assert unlabelled_controls(ada) == []
    assert layout_problems(ada) == []
    pages.shot(ada, "deck40-norwegian-390")
    bot.expect(pexpect.EOF, timeout=GAME_TIME)


def stacked(*top: str) -> list[str]:
    """A round's order: these cards on top, then the rest of the deck."""
    return [*top, *(card for card in DECK if card not in top)]


def test_a_tjugoett_round_in_swedish_to_its_end_with_the_bot(server, connect, cli, pages: Pages):
    """A browser asking for Swedish (`sv-SE`) gets the Tjugoett page in Swedish, with the
    game's own words (givaren, draghög, nöjd); Ada draws and stands with the Swedish buttons,
    the bot plays the other seat, the server's dealer plays both, and the round ends."""
    options = {"seats": SEATS, "seed": "web-languages-seed", "dealer_seconds": 0.05}
    table = create(server, connect, "tjugoett", options)
    ada = open_in(pages, server, table, "s1", "sv-SE")
    assert ada.evaluate("document.documentElement.lang") == "sv"
    assert ada.inner_text("#draw") == web("sv", "tjugoett.draw")  # "Ta kort (D)"
    assert ada.inner_text("#stand") == web("sv", "tjugoett.stand")  # "Nöjd (S)"
    assert ada.inner_text("#dealer-heading") == "Givaren"
    bot = spawn_bot(cli, server, table, "s2", scale="0.3")
    director = connect(server.token("director", name="dir"))
    # Ada 10H, Bo 9C; Ada's turn starts with 2D (12), she draws 5D (17) and stands; the
    # dealer draws 10S 6C (16), then 8C: bust. Then the bot plays Bo's turn.
    send(director, table, "start_round", order=stacked("10H", "9C", "2D", "5D", "10S", "6C", "8C"))
    ada.locator("#my-turn", has_text=web("sv", "tjugoett.your_turn")).wait_for(timeout=WAIT)
    ada.click("#draw")
    ada.locator("#my-sum", has_text=web("sv", "tjugoett.your_sum", sum=17)).wait_for(timeout=WAIT)
    ada.click("#stand")
    ada.locator("#result", has_text="Du vinner: ").wait_for(timeout=WAIT)
    phase = ada.locator(
        "#phase",
        has_text=web(
            "sv", "tjugoett.round_over", round=1, phase=web("sv", "tjugoett.between_rounds")
        ),
    )
    phase.wait_for(timeout=GAME_TIME * 1000)
    outcome = ada.locator('.seat-hand[data-seat="s1"] .outcome')
    assert outcome.inner_text().startswith("Ada vinner: ")
    assert ada.inner_text("#tally-heading") == web("sv", "tjugoett.tally_heading")
    ended = catalogue("sv").say("tjugoett", "event.RoundEnded.all_played", round=1)
    ada.locator("#feed li", has_text=ended[1:]).wait_for(timeout=WAIT)  # "omgång 1 är slut: …"
    assert no_english_buttons(ada) == []
    assert layout_problems(ada) == []
    pages.shot(ada, "tjugoett-swedish-390")
    send(director, table, "end_table")  # the bot leaves a table that is over
    ada.locator("#phase", has_text=web("sv", "tjugoett.table_over", 1)).wait_for(timeout=WAIT)
    bot.expect(pexpect.EOF, timeout=GAME_TIME)


def test_switching_the_language_mid_game_keeps_the_game_and_what_was_typed(
    server, connect, pages: Pages
):
    """Mid-game, an English page switches to Norwegian on its switch: the page is drawn
    again where it stands, without a reload (the same document, the same connection), and
    speaks Norwegian; the cards, the scores and the feed are those of the game before, the
    half-typed answer is still in its field, the message line says its last message again in
    Norwegian, and the choice is remembered (the next page opens in Norwegian although the
    browser asks for English)."""
    stack = [
        {"card_id": "p1", "numbers": [1, 2, 3, 4], "dots": 2},
        {"card_id": "p2", "numbers": [3, 3, 8, 8], "dots": 2},
    ]
    table = create(server, connect, "pocket", {"seats": SEATS, "stack": stack})
    bo = seat_client(server, connect, table, "s2")
    ada = open_in(pages, server, table, "s1", "en-US")
    ada.click("#start")
    ada.locator('.card.up[data-number="1"]').wait_for(timeout=WAIT)
    send(bo, table, "answer", expression="1 + 1", set=1)  # wrong: Bo is out of card 1
    ada.locator("#excluded", has_text="Bo").wait_for(timeout=WAIT)
    ada.click("#send-answer")  # nothing typed yet: the message line says so
    ada.locator("#message", has_text=web("en", "pocket.type_first")).wait_for(timeout=WAIT)
    ada.fill("#answer", "(1+2+3)*")  # half typed
    feed = ada.locator("#feed li").all_inner_texts()
    before = {"feed": len(feed), "score": ada.inner_text('tr[data-seat="s2"] td.score')}
    assert ada.inner_text("#claim") == "I got it! (space)"
    ada.evaluate("window.beforeTheSwitch = window.t24")  # gone if the page were loaded again

    ada.select_option("#language-choice", "nb")
    ada.locator("#claim", has_text=web("nb", "pocket.claim")).wait_for(timeout=WAIT)
    ada.locator("#status", has_text=web("nb", "status.online")).wait_for(timeout=WAIT)
    ada.locator("#feed li").nth(before["feed"] - 1).wait_for(timeout=WAIT)
    assert ada.evaluate("window.beforeTheSwitch === window.t24")  # drawn in place
    assert ada.inner_text("#message") == web("nb", "pocket.type_first")
    assert ada.evaluate("document.documentElement.lang") == "nb"
    assert ada.locator('.card.up[data-number="1"]').count() == 1
    assert len(ada.locator("#feed li").all_inner_texts()) == before["feed"]
    assert ada.inner_text('tr[data-seat="s2"] td.score') == before["score"]
    assert ada.locator("#excluded").inner_text() == web("nb", "pocket.excluded", names="Bo")
    assert ada.input_value("#answer") == "(1+2+3)*"
    assert ada.locator("#language-choice").input_value() == "nb"
    assert unlabelled_controls(ada) == []
    pages.shot(ada, "pocket-switched-to-norwegian-390")

    ada.keyboard.press("Escape")
    ada.fill("#answer", "(1+2+3)*4")
    ada.press("#answer", "Enter")
    ada.locator("#result", has_text=web("nb", "pocket.you_won", 2, number=1)).wait_for(timeout=WAIT)
    # the choice is the person's: a new page of this browser opens in Norwegian
    again = ada.context.new_page()
    again.goto(ada.url)
    again.locator("#claim", has_text=web("nb", "pocket.claim")).wait_for(timeout=WAIT)
    again.close()


def test_the_proctor_console_switches_to_swedish_keeping_its_table_and_last_message(
    server, connect, pages: Pages
):
    """The proctor's console of a 24 Challenge table in English: the proctor places a card
    (the message line says it is done), then switches to Swedish. The page is drawn again in
    place (no reload): the card placed, the feed, and the message line saying the same in
    Swedish; the buttons are Swedish ones."""
    director = connect(server.token("director", name="dir"))
    table = f"lang-console-{next(_ids)}"
    deck = [{"card_id": "c1", "numbers": [3, 3, 8, 8], "dots": 3}]
    seats = [*SEATS, {"seat": "s3", "name": "Cy"}]
    reply = director.request("create_table", table=table, options={"seats": seats, "deck": deck})
    assert reply["type"] == "table_created", reply
    assert director.request("join", table=table)["type"] == "snapshot"
    send(director, table, "start_round")
    token = server.token("proctor", name="p", table=table)
    console = pages.open(server.http, token, 390, locale="en-US", page="console")
    console.locator("#place:enabled").wait_for(timeout=WAIT)
    console.click("#place")
    done = web("en", "done.place_card")
    console.locator("#message", has_text=done).wait_for(timeout=WAIT)
    feed = len(console.locator("#feed li").all_inner_texts())
    console.evaluate("window.beforeTheSwitch = window.t24")

    console.select_option("#language-choice", "sv")
    console.locator("#place", has_text=web("sv", "console.place")).wait_for(timeout=WAIT)
    console.locator("#feed li").nth(feed - 1).wait_for(timeout=WAIT)
    assert console.evaluate("window.beforeTheSwitch === window.t24")  # drawn in place
    assert console.inner_text("#message") == web("sv", "done.place_card") != done
    assert console.get_attribute("#message", "data-kind") == "ok"
    assert len(console.locator("#feed li").all_inner_texts()) == feed
    assert console.locator("#reveal:enabled").count() == 1  # the card is placed: reveal next
    assert layout_problems(console) == []
    pages.shot(console, "console-switched-to-swedish-390")


LANGUAGES = ("en", "nb", "sv")


def in_each_language(page_without_a_token) -> Iterator[tuple[str, Any]]:
    """(lang, the page without a token speaking it) for each language: the session's one
    page (web_browser.py `page_without_a_token`), its words loaded, its modules there to
    import, switched to each language in place (nine loads of the page, then three, were a
    tenth of this file's time; a browser asking for each language is the tests above')."""
    for lang in LANGUAGES:
        yield lang, page_without_a_token(lang)


WALK_THE_TABLES = """async () => {
    const tables = { ...(await import("/js/word_tables.js")) };
    for (const game of ["deck40", "pocket", "tjugoett"]) {
        tables[game] = (await import(`/js/games/${game}.js`)).WORDS;
    }
    const keyLike = /^[a-z_0-9]+(\\.[A-Za-z0-9_-]+)+$/;
    const missing = new Set();
    const look = (value, path, depth) => {
        if (depth > 3 || value === null || value === undefined) return;
        if (typeof value === "string") {
            if (keyLike.test(value)) missing.add(`${path}: ${value}`);
        } else if (typeof value === "function") {
            try {
                look(value("x", 2, "y", 3, "z"), path, depth + 1);
            } catch (error) {
                // a word of an object (a view, a round): its keys are checked by the pages
            }
        } else if (typeof value === "object") {
            for (const name of Object.getOwnPropertyNames(value)) {
                look(value[name], `${path}.${name}`, depth + 1);
            }
        }
    };
    for (const [name, table] of Object.entries(tables)) {
        if (table && typeof table === "object") look(table, name, 0);
    }
    return [...missing].sort();
}"""


def test_every_word_the_pages_name_is_in_the_catalogue(page_without_a_token):
    """Every entry of every page's word table (js/word_tables.js, the games' pages) says a
    text in each language, never its key (what `say` shows for a key the catalogue lacks)."""
    for lang, page in in_each_language(page_without_a_token):
        assert page.evaluate("document.documentElement.lang") == lang
        assert page.inner_text("#fatal h1") == web(lang, "page.fatal")
        assert page.evaluate(WALK_THE_TABLES) == [], lang


def test_a_table_s_language_is_the_page_s_until_the_person_picks_another(
    server, connect, pages: Pages
):
    """A table created with `lang: sv` (the director's default for it) opens in Swedish in a
    browser that asks for English; once the person picks English on the switch, their choice
    wins on this table and the next."""
    table = create(server, connect, "pocket", {"seats": SEATS, "lang": "sv"})
    token = server.token("player", table=table, seat="s1")
    ada = pages.open(server.http, token, 390, locale="en-US")
    ada.locator("#start", has_text=web("sv", "game.start")).wait_for(timeout=WAIT)
    assert ada.evaluate("document.documentElement.lang") == "sv"
    assert ada.locator("#language-choice").input_value() == "sv"
    ada.select_option("#language-choice", "en")
    ada.locator("#start", has_text="Start the game").wait_for(timeout=WAIT)
    assert ada.evaluate("document.documentElement.lang") == "en"
    assert layout_problems(ada) == []


def test_every_page_of_a_24_challenge_table_speaks_norwegian_at_390_px(
    server, connect, pages: Pages
):
    """The student page, the proctor console, the scoreboard (and its projector mode) and
    the replay of one 24 Challenge table, each in a Norwegian browser at a phone's width:
    each has the language switch, speaks Norwegian (its headings the catalogue's), and
    nothing runs off the screen. (The projector mode is the scoreboard's page switched by its
    button, as the URL's `projector=1` draws it (test_web_screens.py checks both); each page
    is closed once looked at: a page opened is a second of Chromium's CPU, one left open
    keeps ticking.)"""
    director = connect(server.token("director", name="dir"))
    table = f"lang-challenge-{next(_ids)}"
    deck = [{"card_id": "d1", "numbers": [21, 16, 8, 21], "dots": 3}]  # Double Digits (R-DECK-2)
    seats = [*SEATS, {"seat": "s3", "name": "Cy"}]  # a table of three (R-ROUND-2)
    reply = director.request("create_table", table=table, options={"seats": seats, "deck": deck})
    assert reply["type"] == "table_created", reply
    assert director.request("join", table=table)["type"] == "snapshot"
    send(director, table, "start_round")
    send(director, table, "place_card")
    send(director, table, "reveal_card")
    opened = {
        "student": (server.token("player", table=table, seat="s1"), {}),
        "console": (server.token("proctor", name="p", table=table), {"page": "console"}),
        "board": (server.token("spectator", name="w"), {"page": "board", "table": table}),
        "replay": (server.token("spectator", name="w"), {"page": "replay", "table": table}),
    }
    headings = {
        "student": web("nb", "page.table", table=table),
        "console": web("nb", "console.title", table=table),
        "board": web("nb", "board.title"),
        "projector": web("nb", "board.title"),
        "replay": web("nb", "replay.title", table=table),
    }

    def speaks_norwegian(page, name: str) -> None:
        page.locator("h1", has_text=headings[name]).wait_for(timeout=WAIT)
        drawn = "#step[data-seq]" if name == "replay" else ".card.up"  # the table, drawn
        page.locator(drawn).first.wait_for(timeout=WAIT)
        assert page.locator("#language-choice").input_value() == "nb", name
        assert page.evaluate("document.documentElement.lang") == "nb", name
        assert not re.search(r"\b(Connecting|Connected|Loading|Scores)\b", page.inner_text("body"))
        assert layout_problems(page) == [], name
        pages.shot(page, f"{name}-norwegian-390")

    page = None  # each page a tab of the first one's browser (web_browser.py `Pages.open`)
    for name, (token, params) in opened.items():
        before, page = (
            page,
            pages.open(server.http, token, 390, locale="nb-NO", beside=page, **params),
        )
        if before is not None:
            pages.done(before)
        speaks_norwegian(page, name)
        if name == "board":
            page.click("#projector")
            page.wait_for_function("() => document.documentElement.classList.contains('projector')")
            assert "projector=1" in page.url
            speaks_norwegian(page, "projector")


def unit_module(name: str) -> Any:
    """A module of tests/unit (its shared tables), loaded by path."""
    path = Path(__file__).parents[1] / "unit" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def event_examples() -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Every event type of every game with data as the server pushes it (the examples the
    terminal's and the report's word tests render: tests/unit/terminal_event_examples.py)."""
    path = Path(__file__).parents[1] / "unit" / "terminal_event_examples.py"
    spec = importlib.util.spec_from_file_location("terminal_event_examples", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return dict(module.EXAMPLES)


SAY_EVERY_EVENT = """async ({ examples, seats }) => {
    const { eventInWords, casualEventWords } = await import("/js/event_words.js");
    const { seatName } = await import("/js/words.js");
    const view = { seats, dealer: { seat: "dl", name: "Dora" } };
    const nameOf = seatName; // the pages' own: a name, never a seat id
    const said = [];
    for (const [game, kinds] of Object.entries(examples)) {
        for (const [kind, datas] of Object.entries(kinds)) {
            for (const data of datas) {
                const push = { event_type: kind, data, seq: 2 };
                const text = game === "challenge" ? eventInWords(push, view)
                    : casualEventWords(game, push, view, nameOf);
                said.push([game, kind, text]);
            }
        }
    }
    return said;
}"""
RAW = re.compile(r"[{}]|undefined|\bnull\b|NaN|\b[a-z0-9]+_[a-z0-9_]+\b|\b(s1|s2|s3|dl)\b")


def test_every_event_of_every_game_reads_in_each_language(page_without_a_token):
    """Every event type of every game (every variant the terminal's words have an example
    of), as the pages say it in English, Norwegian and Swedish: a sentence of the game's own
    words, never a placeholder left unfilled, `undefined`, a code or a seat id where a name
    is known, and never the words for an event the page does not know."""
    examples = event_examples()
    seats = [{"seat": seat, "name": name} for seat, name in NAMES.items()]
    for lang, page in in_each_language(page_without_a_token):
        said = page.evaluate(SAY_EVERY_EVENT, {"examples": examples, "seats": seats})
        unknown = catalogue(lang).say("common", "event.unknown")
        assert len(said) > 100
        wrong = [
            (game, kind, text)
            for game, kind, text in said
            if not text or RAW.search(text) or unknown.lower() in text.lower()
        ]
        assert wrong == [], (lang, wrong[:10])


NAME_SEATS = """async (tables) => {
    const { seatNames } = await import("/js/words.js");
    return tables.map((seats) => Object.fromEntries(seatNames(seats)));
}"""


def test_the_pages_name_seats_as_the_terminal_and_the_report_do(page_without_a_token):
    """js/words.js `seatNames` and protocol/words/seat_names.py give the same names to the
    same seats, in each language: shared names as `Ada (2)`, a seat with no name as the
    language's `Player 1`, never a seat id (tests/unit/test_seat_names.py's tables)."""
    tables = [seats for seats, _expected in unit_module("test_seat_names").TABLES]
    tables.append(
        [{"seat": "s1", "name": ""}, {"seat": "s2", "name": "Ada"}, {"seat": "s3", "name": "ada"}]
    )
    for lang, page in in_each_language(page_without_a_token):
        shown = page.evaluate(NAME_SEATS, tables)
        assert shown == [seat_names(seats, catalogue(lang)) for seats in tables], lang
    assert shown[-1] == {"s1": "Spelare 1", "s2": "Ada", "s3": "ada (2)"}
