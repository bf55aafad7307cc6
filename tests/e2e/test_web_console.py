"""The proctor's console in a real browser (issue 13): each button sends its command, and the
server records it and pushes it (checked in the server's own log and by a second client,
not only on the page): start, place, reveal, a touch for a seat, stumped, override, pause,
resume, a flag, a slap, end; then the signature and the director's reopening."""

from __future__ import annotations

from web_browser import WAIT, Pages, unlabelled_controls

from server.eventlog.backends import open_blocking_store

DECK = [
    {"card_id": "a", "numbers": [1, 2, 3, 4], "dots": 1},
    {"card_id": "b", "numbers": [3, 3, 8, 8], "dots": 3},
]
SEATS = [{"seat": f"s{i}", "name": name} for i, name in enumerate(("Ada", "Bo", "Cy", "Di"), 1)]


def recorded(server, table: str) -> list[tuple[str, dict]]:
    """The table's events as the server's store holds them (chain verified)."""
    store = open_blocking_store(server.store, create=False)
    try:
        assert store.verify(f"table/{table}").ok
        return [(event.type, event.data) for event in store.read(f"table/{table}")]
    finally:
        store.close()


def test_every_button_of_the_console_is_recorded_and_pushed(server, connect, pages: Pages):
    table = "webconsole"
    director = connect(server.token("director", name="d"))
    created = director.request(
        "create_table", table=table, options={"seats": SEATS, "deck": DECK, "mode": "proctored"}
    )
    assert created["type"] == "table_created", created
    watcher = connect(server.token("spectator", name="w", table=table))
    assert watcher.request("join", table=table)["type"] == "snapshot"

    console = pages.open(
        server.http, server.token("director", name="d"), page="console", table=table
    )
    console.on("dialog", lambda dialog: dialog.accept())  # the slap and the end are confirmed
    console.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
    console.locator('#seats tr[data-seat="s4"]').wait_for(timeout=WAIT)

    def click(button: str, event: str, seat: str | None = None) -> dict:
        """Click `button` (for `seat`); the push of `event` the watcher then receives."""
        if seat is not None:
            console.select_option("#seat", seat)
        console.click(f"#{button}")
        push = watcher.event(event)
        console.locator(f'#feed li[data-seq="{push["seq"]}"]').wait_for(timeout=WAIT)
        return push

    click("start", "RoundStarted")
    click("place", "CardPlaced")
    click("reveal", "CardRevealed")
    assert click("stumped-for", "StumpedDeclared", "s4")["data"]["seat"] == "s4"
    assert click("touch-for", "CardTouched", "s1")["data"]["seat"] == "s1"
    overridden = click("override", "FirstTouchOverridden", "s2")["data"]
    assert (overridden["seat"], overridden["previous"]) == ("s2", "s1")
    console.locator('tr[data-seat="s2"]', has_text="holds the card").wait_for(timeout=WAIT)
    assert click("pause-table", "TablePaused")["data"]["cause"] == "proctor"
    console.locator("#pause", has_text="Paused (by the proctor)").wait_for(timeout=WAIT)
    click("resume", "TableResumed")
    console.select_option("#cause", "no_pattern")
    flagged = click("flag", "FlagIssued", "s3")["data"]
    assert (flagged["seat"], flagged["cause"]) == ("s3", "no_pattern")
    console.locator('tr[data-seat="s3"] td.flags', has_text="⚑ 1").wait_for(timeout=WAIT)
    slapped = click("slap", "PlayerDisqualified", "s1")["data"]
    assert (slapped["seat"], slapped["cause"]) == ("s1", "slap")
    console.locator(
        'tr[data-seat="s1"]', has_text="disqualified (a slap with the whole hand"
    ).wait_for(timeout=WAIT)
    assert click("end", "RoundEnded")["data"]["reason"] == "ended_by_proctor"

    # the signature, then the director's reopening (R-ROUND-7/8)
    assert console.locator("#reopen").is_disabled()  # nothing signed to reopen
    console.fill("#initials", "DK")
    click("sign", "ScoreCardSigned")
    console.locator("#signed", has_text="Signed by DK").wait_for(timeout=WAIT)
    console.fill("#reopen-reason", "a late protest from Bo")
    reopened = click("reopen", "ScoreCardReopened")["data"]
    assert reopened["reason"] == "a late protest from Bo"
    console.locator("#signed", has_text="Not signed yet").wait_for(timeout=WAIT)

    wanted = [
        ("RoundStarted", {}),
        ("CardPlaced", {}),
        ("CardRevealed", {}),
        ("StumpedDeclared", {"seat": "s4"}),
        ("CardTouched", {"seat": "s1"}),
        ("FirstTouchOverridden", {"seat": "s2", "previous": "s1"}),
        ("TablePaused", {"cause": "proctor"}),
        ("TableResumed", {}),
        ("FlagIssued", {"seat": "s3", "cause": "no_pattern"}),
        ("PlayerDisqualified", {"seat": "s1", "cause": "slap"}),
        ("RoundEnded", {"reason": "ended_by_proctor"}),
        ("ScoreCardSigned", {"initials": "DK"}),
        ("ScoreCardReopened", {"reason": "a late protest from Bo"}),
    ]
    log = recorded(server, table)
    found = iter(log)  # each wanted event, in this order, with these data
    for kind, data in wanted:
        assert any(
            event == kind and all(got.get(k) == v for k, v in data.items()) for event, got in found
        ), (kind, data, log)
    assert unlabelled_controls(console) == []
    pages.shot(console, "console-every-button")


def test_a_proctor_s_console_has_no_reopen_button(server, connect, pages: Pages):
    """Only the director reopens a signed score card: a proctor's console does not offer it."""
    director = connect(server.token("director", name="d"))
    director.request("create_table", table="webconsole2", options={"seats": SEATS, "deck": DECK})
    console = pages.open(server.http, server.token("proctor", name="p", table="webconsole2"))
    console.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
    console.locator("#sign").wait_for(timeout=WAIT)
    assert console.locator("#reopen").count() == 0 and console.locator("#slap").count() == 1
