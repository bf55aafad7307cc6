"""The web client's replay page in a real browser (issue 13): each step redraws the table as
it stood right after that event, as the token saw it then (the server's `view_at` query),
with the live pages' drawing code; prev/next, the slider and the keyboard step through it.
"""

from __future__ import annotations

from cli_pty import answer
from web_browser import WAIT, Pages, unlabelled_controls

DECK = [
    {"card_id": "a", "numbers": [1, 2, 3, 4], "dots": 1},
    {"card_id": "b", "numbers": [3, 3, 8, 8], "dots": 3},
]
SEATS = [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}, {"seat": "s3", "name": "Cy"}]


def accepted(client, table, name, **args):
    reply = client.request("command", table=table, name=name, args=args)
    assert reply["type"] == "accepted", reply
    return reply["seq"]


def played_card(server, connect, table: str) -> tuple[dict[str, int], object]:
    """A proctored table where Ada wins card a: the seq of each event by its type (the
    first of each), and the proctor's client."""
    director = connect(server.token("director", name="d"))
    created = director.request(
        "create_table", table=table, options={"seats": SEATS, "deck": DECK, "mode": "proctored"}
    )
    assert created["type"] == "table_created", created
    proctor = connect(server.token("proctor", name="p", table=table))
    assert proctor.request("join", table=table, after_seq=0)["type"] == "snapshot"
    accepted(proctor, table, "start_round")
    accepted(proctor, table, "place_card")
    accepted(proctor, table, "reveal_card")
    accepted(proctor, table, "touch_card", seat="s1", fingertips=1)
    pattern, steps = answer([1, 2, 3, 4])
    accepted(proctor, table, "declare_pattern", seat="s1", pattern=pattern)
    accepted(proctor, table, "state_steps", seat="s1", steps=steps)
    last = accepted(proctor, table, "fix_solution", seat="s1")
    seqs: dict[str, int] = {}
    for push in proctor.events():
        seqs.setdefault(push["event_type"], push["seq"])
    assert seqs["CardWon"] == last, seqs
    return seqs, proctor


def step_drawn(page, seq: int):
    """The table of step `seq`, once the page has drawn it."""
    drawn = page.locator(f'#step[data-seq="{seq}"]:not([aria-busy])')
    drawn.wait_for(timeout=WAIT)
    return drawn


def test_the_replay_page_redraws_the_table_as_it_stood_at_each_step(server, connect, pages: Pages):
    seqs, proctor_client = played_card(server, connect, "webreplay")
    last = seqs["CardWon"]
    spectator = pages.open(
        server.http, server.token("spectator", name="w"), page="replay", table="webreplay"
    )
    spectator.locator("#position", has_text=f"Event 1 of {last}").wait_for(timeout=WAIT)
    step = step_drawn(spectator, 1)  # from the first event, as `t24 replay`
    assert "No card in play" in step.inner_text()
    assert step.locator('tr[data-seat="s1"] td.score').inner_text() == "0"

    spectator.keyboard.press("End")  # the keyboard: End, Home, arrows
    step = step_drawn(spectator, last)
    step.locator('tr[data-seat="s1"] td.score[data-score="1"]').wait_for(timeout=WAIT)
    assert "Ada won card a (play 1) (+1 point)." == spectator.inner_text("#sentence")

    # back to the placed card: face down for a spectator then, though revealed since
    for _ in range(last - seqs["CardPlaced"]):
        spectator.keyboard.press("ArrowLeft")
    step = step_drawn(spectator, seqs["CardPlaced"])
    assert step.locator(".card.down").count() == 1
    assert spectator.locator("[data-numbers]").count() == 0  # no numbers anywhere on the page
    assert step.locator('td.score[data-score="1"]').count() == 0  # not won yet then
    spectator.click("#next")  # the reveal: the card and its live countdown, as at that instant
    step = step_drawn(spectator, seqs["CardRevealed"])
    assert step.locator(".card.up").get_attribute("data-numbers") == "1 2 3 4"
    step.locator('.countdowns li[data-command="no_touch_deadline"]').wait_for(timeout=WAIT)
    spectator.locator("#slider").fill(str(seqs["StepsStated"]))  # the slider
    step = step_drawn(spectator, seqs["StepsStated"])
    assert "Ada holds the card" in step.inner_text() and "Steps:" in step.inner_text()
    spectator.click("#first")
    step_drawn(spectator, 1)
    assert unlabelled_controls(spectator) == []
    pages.shot(spectator, "replay-spectator-first")

    # the proctor saw the placed card's numbers (the cupped card): its own view, not the
    # spectator's
    proctor = pages.open(
        server.http,
        server.token("proctor", name="p2", table="webreplay"),
        page="replay",
        table="webreplay",
        beside=spectator,  # a tab of the first page's browser (web_browser.py `Pages.open`)
    )
    pages.done(spectator)  # looked at: closed, not left open beside the proctor's
    proctor.locator("#position", has_text=f"of {last}").wait_for(timeout=WAIT)
    proctor.locator("#slider").fill(str(seqs["CardPlaced"]))
    step = step_drawn(proctor, seqs["CardPlaced"])
    assert step.locator(".card.up").get_attribute("data-numbers") == "1 2 3 4"

    # at the last step the page follows the table: a new event is drawn as it happens
    proctor.click("#last")
    step_drawn(proctor, last)
    ended = accepted(proctor_client, "webreplay", "end_round")
    step = step_drawn(proctor, ended)
    assert "Round over: the proctor ended it." in proctor.inner_text("#sentence")
    pages.shot(proctor, "replay-proctor-end")


def test_the_replay_page_shows_a_refused_table_in_words(server, pages: Pages):
    page = pages.open(server.http, server.token("director", name="d"), page="replay", table="nope")
    page.locator("#message", has_text="There is no such table").wait_for(timeout=WAIT)


def test_a_tournament_stream_replays_its_standings_as_they_stood(server, connect, pages: Pages):
    """Any stream the token may read: a tournament's standings at each step."""
    director = connect(server.token("director", name="d"))
    options = {"name": "Spring", "date": "2026-03-14", "grades": ["4th"], "deck_seed": 24}
    stream = "tournament/webspring"
    created = director.request("create_table", table=stream, game="tournament", options=options)
    assert created["type"] == "table_created", created
    first = accepted(
        director, stream, "import_students", csv="name,school,grade\nAda,Hill,4th\nBo,Hill,4th\n"
    )
    second = accepted(director, stream, "import_students", csv="name,school,grade\nCy,Dale,4th\n")
    page = pages.open(server.http, server.token("director", name="d"), page="replay", table=stream)
    page.locator("#position", has_text=f"of {second}").wait_for(timeout=WAIT)
    page.locator("#slider").fill(str(first))
    step = step_drawn(page, first)
    assert step.locator("table.standings tbody tr").count() == 2
    page.keyboard.press("End")
    step = step_drawn(page, second)
    assert step.locator("table.standings tbody tr").count() == 3
    assert "Cy (Dale)" in step.inner_text()
