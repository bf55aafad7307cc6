"""The browser tests' kept browsers (tests/e2e/web_browser.py, `BrowserPool`): a page opened
in a browser an earlier test used starts as in a fresh one. Without this, a language picked
in one test (localStorage) would open the next test's pages in that language, and a module
cached from one server could stand in for another's on the same port."""

from __future__ import annotations

from web_browser import WAIT, Pages


def test_a_kept_browser_comes_back_empty(server, pages: Pages):
    """A page picks Norwegian on its language switch (remembered in localStorage) and loads
    the client's modules; given back and taken again, the same browser opens the next page
    in the browser's English, with nothing in its storage and every module fetched again
    (a whole response, not a cache's answer or a 304)."""
    first = pages.open(server.http, "")
    first.locator("#fatal").wait_for(timeout=WAIT)
    first.select_option("#language-choice", "nb")
    first.wait_for_function("document.documentElement.lang === 'nb'", timeout=WAIT)
    assert first.evaluate("localStorage.getItem('t24.lang')") == "nb"
    kept = first.context
    pages.done(first)

    second = pages.open(server.http, "")
    assert second.context is kept  # the same browser, taken again
    second.locator("#fatal").wait_for(timeout=WAIT)
    assert second.evaluate("document.documentElement.lang") == "en"
    assert second.evaluate("localStorage.length + sessionStorage.length") == 0
    fetched = second.evaluate(
        """() => performance.getEntriesByType("resource")
            .filter((entry) => entry.name.endsWith("/js/main.js"))
            .map((entry) => [entry.transferSize, entry.encodedBodySize])"""
    )
    assert fetched and all(sent > body > 0 for sent, body in fetched), fetched
