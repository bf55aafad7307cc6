"""Issue 16 in the browser: the web client follows `moved` (docs/protocol.md).

Two real `t24-server` nodes on the real PostgreSQL (a 1 s lease, as tests/e2e/test_cluster.py).
A student opens node B's page for a table node A owns: B answers the join `moved`, the page
reconnects to A with the same token, joins there and plays on A. When A dies (kill -9), the
page goes back to B, which takes the table over once A's lease expires (paused, `failover`);
the page resumes from the last seq it saw: no event missed, none shown twice.
"""

from __future__ import annotations

import pytest
from postgres_schemas import fresh_schema
from test_cluster import node
from test_server_lifecycle import accepted, start_table
from test_web_replay import step_drawn
from web_browser import WAIT, Pages, feed_seqs
from wsclients import AutobahnClient

pytestmark = pytest.mark.e2e


@pytest.fixture
def store():
    with fresh_schema() as (url, _schema):
        yield url


def test_a_student_on_another_node_s_page_is_moved_to_the_owner_and_plays_there(
    tmp_path, store, pages: Pages
):
    a = node(tmp_path, "a", store).start()
    b = node(tmp_path, "b", store).start()
    try:
        _director, proctor = start_table(a, "hop", pattern_seconds=60)
        assert proctor.request("join", table="hop")["type"] == "snapshot"
        accepted(proctor, "hop", "start_round")
        accepted(proctor, "hop", "place_card")
        accepted(proctor, "hop", "reveal_card")  # mid-card, on node a

        # the student is given node b's page: b points at a, and the page moves there
        student = pages.open(b.http, b.token("player", table="hop", seat="s1"))
        student.locator("#node", has_text=f"holds this table: {a.url}").wait_for(timeout=WAIT)
        student.locator("#status", has_text="Connected").wait_for(timeout=WAIT)
        assert student.evaluate("window.t24.url") == a.url
        student.locator(".card.up").wait_for(timeout=WAIT)
        student.locator("#feed li", has_text="revealed").wait_for(timeout=WAIT)  # the history
        student.locator("#touch:enabled").wait_for(timeout=WAIT)
        student.keyboard.press("Space")  # played on a: the owner records it and pushes it
        touched = proctor.event("CardTouched")
        assert touched["data"]["seat"] == "s1"
        student.locator(f'#feed li[data-seq="{touched["seq"]}"]').wait_for(timeout=WAIT)
        pages.shot(student, "moved-to-a")
        seen = feed_seqs(student)
        assert sorted(seen) == list(range(1, touched["seq"] + 1)), seen

        # a spectator is never moved: b answers its replay page from its copy of a's table
        replay = pages.open(b.http, b.token("spectator", name="w"), page="replay", table="hop")
        replay.locator("#position", has_text=f"of {touched['seq']}").wait_for(timeout=WAIT)
        replay.keyboard.press("End")
        step = step_drawn(replay, touched["seq"])
        assert step.locator(".card.up").get_attribute("data-numbers") == "1 2 3 4"
        assert replay.evaluate("window.t24.url") == b.url
        pages.done(replay)  # looked at: closed, not left working through the failover below

        # a director's scoreboard on b follows b's own table on its connection, and a's
        # table on a connection of its own, moved to a
        start_table(b, "local")
        board = pages.open(b.http, b.token("director", name="d"), page="board")
        board.locator('[data-table="local"] table.seats').wait_for(timeout=WAIT)
        board.locator('[data-table="hop"] tr[data-seat="s1"]', has_text="holds the card").wait_for(
            timeout=WAIT
        )
        assert board.evaluate("window.t24.url") == b.url
        assert board.locator("#message").inner_text() == ""

        # a dies: the page goes back to its own server, b, which takes the table over when
        # a's lease expires and pauses it; the page resumes from the last seq it saw
        a.kill()
        student.locator("#pause", has_text="moved to another server").wait_for(timeout=WAIT)
        board.locator(
            '[data-table="hop"]', has_text="Paused (the table moved to another server)"
        ).wait_for(timeout=WAIT)
        student.locator("#node", has_text="holds this table").wait_for(state="hidden", timeout=WAIT)
        assert student.evaluate("window.t24.url") == b.url
        seen = feed_seqs(student)
        assert sorted(seen) == list(range(1, touched["seq"] + 2)), seen  # none lost, none twice
        proctor_b = AutobahnClient(b.url)
        proctor_b.hello(b.token("proctor", name="p", table="hop"))
        assert proctor_b.request("join", table="hop")["view"]["pause_cause"] == "failover"
        accepted(proctor_b, "hop", "resume_table")
        student.locator("#feed li", has_text="Resumed").wait_for(timeout=WAIT)
        pages.shot(student, "failed-over-to-b")
    finally:
        a.kill()
        b.kill()
