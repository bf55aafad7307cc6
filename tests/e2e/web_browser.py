"""Headless Debian Chromium driven by Playwright for Python, for the web client's tests.

Why the system Chromium: `playwright install` downloads a browser, which this project never
does (CI has no such download); `.ci/run` installs Debian's `chromium` with apt-get when it
is missing. Without it the browser tests skip on a developer's machine and FAIL in CI
(`CI=true`), so a CI run can never pass without having run them.

Every page opens in a browser (context) of its own that starts as a fresh one would (no
storage, no cookies, no cache: `BrowserPool`), or is a tab beside another page of its test
(`Pages.open(beside=...)`); JavaScript errors on a page fail the test (they are collected in
`page.errors`). Screenshots go to the test's tmp_path, never the repo; with
`T24_SCREENSHOTS=DIR` to DIR/<test name>/ (kept after the run, to look at).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from protocol.codec import decode

# The longest a step on a page may take (ms, Playwright's unit), for every browser test: each
# wait ends at the event it waits for, so a green run never waits it out. Generous: on CI's
# loaded machine a page stalled about 10 s once, and the 15 s wait it had ran out (2026-12-04).
WAIT = 30_000
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # The pages are all of one server, and each page opened started three renderer processes
    # (about 1.1 s of Chromium's CPU a page, most of the suite's Chromium time, 2026-12-03):
    # site isolation off, a new context's first page keeps its first renderer for the
    # server's site, and at most two renderers share every page open (the tests' pages are
    # one site and need no isolation from each other). docs/testing.md, "Suite time".
    "--disable-site-isolation-trials",
    "--renderer-process-limit=2",
]
# Roles a person operates; each must have a name a screen reader reads.
CONTROL_ROLES = (
    "button",
    "textbox",
    "searchbox",
    "combobox",
    "checkbox",
    "radio",
    "switch",
    "link",
    "spinbutton",
    "slider",
)
# What a page hides now (a `hidden` attribute: another role's controls, a state's; a closed
# `<details>`), shown for the label check and hidden again after it: a style sheet of the
# check's own and the `<details>` it opened, so the page's own state is left as it was.
SHOW_HIDDEN = """() => {
    const style = document.createElement("style");
    style.id = "label-check-shows-hidden";
    style.textContent = "[hidden] { display: revert !important; }";
    document.head.append(style);
    for (const details of document.querySelectorAll("details:not([open])")) {
        details.open = true;
        details.dataset.labelCheckOpened = "";
    }
}"""
HIDE_AGAIN = """() => {
    document.getElementById("label-check-shows-hidden").remove();
    for (const details of document.querySelectorAll("details[data-label-check-opened]")) {
        details.open = false;
        delete details.dataset.labelCheckOpened;
    }
}"""


def chromium_path() -> str | None:
    return os.environ.get("T24_CHROMIUM") or shutil.which("chromium") or None


def _missing(why: str) -> None:
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"browser tests cannot run in CI: {why}")
    pytest.skip(why)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the test session."""
    executable = chromium_path()
    if executable is None:
        _missing("Debian's chromium is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright (the dev extra) is not installed")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable, args=CHROMIUM_FLAGS, headless=True
        )
        yield launched
        launched.close()


# What a kept browser's own tab is served for every address while its storage is emptied:
# no request reaches a server (whose process may be gone), no script runs.
BLANK_PAGE = "<html></html>"


class BrowserPool:
    """Browser contexts kept for the session (an xdist worker's), each handed to one test at a
    time and emptied when it is given back, so that a page opens in a known browser the way
    it would in a fresh one.

    Why: a fresh context starts renderer processes of its own, about 2.1 s of Chromium's CPU
    a page against 0.9 s for a page opened in a kept context (12 pages of the director's
    welcome each way, 2026-12-03, docs/testing.md "Suite time"), and the browser tests open
    about 130. A kept context holds a tab of its own (`keeper`, never handed out) so that
    its renderer outlives the tests' pages. Given back, every other tab is closed and what a
    browser remembers is emptied: cookies, the HTTP cache, and the localStorage and
    sessionStorage of every origin its pages went to (the keeper goes to each with every
    request answered by BLANK_PAGE, so a server that has stopped does not matter), as
    Playwright's own context reuse does (its `newContextForReuse`, not in its Python API).
    Nothing else a context holds is set by these tests: a test that routes, or needs a
    context option, makes a context of its own (`Pages.contexts`, closed after it)."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.idle: dict[str, list[Any]] = {}
        self.kept: list[Any] = []

    def take(self, locale: str) -> Any:
        """An empty context asking for `locale` (kept from an earlier test, or new)."""
        idle = self.idle.setdefault(locale, [])
        if idle:
            return idle.pop()
        context = self.browser.new_context(viewport={"width": 1024, "height": 900}, locale=locale)
        context.locale = locale
        context.origins = set()
        context.keeper = context.new_page()
        context.cdp = context.new_cdp_session(context.keeper)

        def went_to(frame: Any) -> None:
            origin = re.match(r"https?://[^/]+", frame.url)
            if origin:
                context.origins.add(origin.group(0))

        context.on("page", lambda page: page.on("framenavigated", went_to))
        self.kept.append(context)
        return context

    def give_back(self, context: Any) -> None:
        """Closes the context's tabs but its keeper and empties what it remembers (see the
        class's doc); the context is then another test's to take."""
        for page in context.pages:
            if page is not context.keeper:
                page.close()
        keeper = context.keeper
        keeper.route("**/*", lambda route: route.fulfill(body=BLANK_PAGE, content_type="text/html"))
        try:
            for origin in sorted(context.origins):
                keeper.goto(f"{origin}/")
                keeper.evaluate("localStorage.clear(); sessionStorage.clear()")
        finally:
            keeper.unroute("**/*")
        context.origins.clear()
        context.clear_cookies()
        context.cdp.send("Network.clearBrowserCache")
        self.idle[context.locale].append(context)

    def close(self) -> None:
        for context in self.kept:
            context.close()


@pytest.fixture(scope="session")
def browser_pool(browser: Any) -> Iterator[BrowserPool]:
    pool = BrowserPool(browser)
    yield pool
    pool.close()


def assert_no_errors(page: Any) -> None:
    """Fails on the JavaScript errors `page` has collected (`page.errors`)."""
    assert not page.errors, f"JavaScript errors on the page: {page.errors}"


class Pages:
    """Opens web-client pages of one server; gives their browsers back after the test."""

    def __init__(self, pool: BrowserPool, shots: Path) -> None:
        self.pool = pool
        self.browser = pool.browser
        self.shots = shots
        self.contexts: list[Any] = []  # a test's own contexts (browser.new_context), closed
        self.borrowed: list[Any] = []  # the pool's, given back

    def open(
        self,
        http: str,
        token: str,
        width: int = 1024,
        *,
        locale: str = "en-US",
        watch: bool = False,
        beside: Any = None,
        **params: str,
    ) -> Any:
        """A page of the client for `token`, in a browser that asks for `locale` (the page
        speaks the browser's language until the person picks another: js/words.js). With
        `watch`, `page.sent` holds every request the page sends from its first, decoded
        (Playwright sees the frames; watched from before the page loads, so no reload).

        A browser of its own each, empty as a fresh one (BrowserPool), or with `beside`
        another tab of the browser of that page (its locale, its localStorage: a language
        picked there is this page's too)."""
        if beside is None:
            context = self.pool.take(locale)
            self.borrowed.append(context)
        else:
            context = beside.context
            assert context in self.borrowed and locale == beside.locale, (locale, beside.locale)
        page = context.new_page()
        page.locale = locale
        page.set_viewport_size({"width": width, "height": 900})
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        if watch:
            page.sent = []

            def watched(socket: Any) -> None:
                socket.on("framesent", lambda payload: page.sent.append(payload))

            page.on("websocket", watched)
        fragment = "&".join([f"token={token}", *(f"{k}={v}" for k, v in params.items())])
        page.goto(f"{http}/#{fragment}")
        return page

    def shot(self, page: Any, name: str) -> Path | None:
        """A whole-page screenshot `<name>.png`, only with T24_SCREENSHOTS set: nothing
        reads them (the checks measure the page), and each costs Chromium a second or more
        of CPU (docs/testing.md, "Screens")."""
        if not os.environ.get("T24_SCREENSHOTS"):
            return None
        path = self.shots / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    def done(self, page: Any) -> None:
        """Closes `page` once the test is done with it (and gives its browser back, the last
        of its pages), its JavaScript errors checked first: an open page keeps working (its
        100 ms ticks, its connection) while the test goes on with others."""
        assert_no_errors(page)
        context = page.context
        page.close()
        if context in self.borrowed and context.pages == [context.keeper]:
            self.borrowed.remove(context)
            self.pool.give_back(context)

    def close(self) -> None:
        for context in self.borrowed:
            for page in context.pages:
                if page is not context.keeper:
                    assert_no_errors(page)
            self.pool.give_back(context)
        for context in self.contexts:
            for page in context.pages:
                assert_no_errors(page)
            context.close()


@pytest.fixture
def pages(
    browser_pool: BrowserPool, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Pages]:
    kept = os.environ.get("T24_SCREENSHOTS")
    shots = Path(kept) / re.sub(r"[^\w.-]+", "_", request.node.name) if kept else tmp_path
    shots.mkdir(parents=True, exist_ok=True)
    opened = Pages(browser_pool, shots)
    yield opened
    opened.close()


@pytest.fixture(scope="session")
def page_without_a_token(browser: Any, server: Any) -> Iterator[Any]:
    """`in_language(lang="en")`: the one page of the session (of an xdist worker) opened
    without a token, speaking `lang`, for the tests that only import and call the page's
    modules (its words, its tables, wire.js). Each of them had opened a page of its own, a
    second of Chromium's CPU each (docs/testing.md, "Suite time"); the page is switched to
    the language asked for in place (its language switch, js/main.js `switchLanguage`), and
    a test that draws on it removes what it drew. A JavaScript error on the page fails the
    test it is handed to next, and the session's end."""
    from protocol.words import catalogue

    context = browser.new_context(viewport={"width": 1024, "height": 900}, locale="en-US")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    page.goto(f"{server.http}/#token=")
    page.locator("#fatal").wait_for(timeout=WAIT)

    def in_language(lang: str = "en") -> Any:
        assert_no_errors(page)
        if page.evaluate("document.documentElement.lang") != lang:
            page.select_option("#language-choice", lang)
        heading = catalogue(lang).say("web", "page.fatal")
        page.wait_for_function(
            """([lang, heading]) => document.documentElement.lang === lang
                && document.querySelector("#fatal h1")?.textContent === heading""",
            arg=[lang, heading],
            timeout=WAIT,
        )
        return page

    yield in_language
    assert_no_errors(page)
    context.close()


def unlabelled_controls(page: Any, hidden: bool = True) -> list[str]:
    """The controls of the page's accessibility tree that have no accessible name (what a
    screen reader would announce as a bare 'button' or 'edit text'); with `hidden`, also
    the ones the page hides now (shown for the check only), so a control another role or
    another moment of the game shows is checked too."""
    if hidden:
        page.evaluate(SHOW_HIDDEN)
    try:
        tree = page.locator("body").aria_snapshot()
    finally:
        if hidden:
            page.evaluate(HIDE_AGAIN)
    bare = re.compile(rf"^\s*- ({'|'.join(CONTROL_ROLES)})(\s*\[[^\]]*\])*\s*(:.*)?$")
    return [line.strip() for line in tree.splitlines() if bare.match(line)]


# What runs off the screen or together on a page (layout_check.js says how it is measured).
LAYOUT_PROBLEMS = (Path(__file__).parent / "layout_check.js").read_text()


def layout_problems(page: Any) -> list[str]:
    """What runs off the screen or together on the page now (see LAYOUT_PROBLEMS)."""
    return list(page.evaluate(LAYOUT_PROBLEMS))


def card_gaps(page: Any) -> list[float]:
    """The gaps in px between the text of neighbouring numbers of each card shown, left to
    right (a gap of a few px still reads "2116")."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll(".card.up")].flatMap((card) => {
                const boxes = [...card.querySelectorAll(".number")].map((el) => {
                    const range = document.createRange(); range.selectNodeContents(el);
                    return range.getBoundingClientRect(); });
                return boxes.slice(1).map((box, i) => box.left - boxes[i].right);
            })"""
        )
    )


def feed_seqs(page: Any) -> list[int]:
    """The seqs of the page's feed (`#feed`), as drawn, newest first: a doubled event shows
    twice, a missing one not at all."""
    shown = page.eval_on_selector_all("#feed li", "items => items.map(e => e.dataset.seq)")
    return [int(seq) for seq in shown]


def seat_client(server, connect, table: str, seat: str) -> Any:
    """A player's raw client of a casual table, joined."""
    client = connect(server.token("player", table=table, seat=seat))
    assert client.request("join", table=table)["type"] == "snapshot"
    return client


def send(client, table: str, name: str, **args: Any) -> dict[str, Any]:
    """A command by a raw client, which must be accepted."""
    reply = client.request("command", table=table, name=name, args=args)
    assert reply["type"] == "accepted", reply
    return reply


def sent_requests(page: Any) -> list[dict[str, Any]]:
    """The requests a page opened with `watch` has sent so far, decoded."""
    return [
        decode(payload) if isinstance(payload, bytes) else {"text": payload}
        for payload in page.sent
    ]
