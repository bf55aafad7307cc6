"""`t24 replay` (and every feed) shows the timing of a compensated first touch (R-PLAY-2,
issue 19): each claim's arrival, lag, credit and compensated time, and both orders."""

from __future__ import annotations

from challenge_tables import PROCTOR, Table, options
from test_challenge_fair_touch import touch

from clients.reference_cli.games.challenge.event_words import describe_event

NAMES = {"s1": "Ada", "s2": "Bo"}


def test_replay_lines_show_both_orders_of_a_compensated_first_touch_r_play_2():
    table = Table(options(touch_compensation=True))
    table.do("start_round", PROCTOR)
    table.next_card()
    table.advance(1)
    (ada,) = touch(table, "s1", 5)
    table.advance(0.030)
    touch(table, "s2", None)  # stale: no credit
    (granted,) = table.fire("grant_first_touch")
    line = describe_event(ada.type, ada.data, NAMES)
    assert line.startswith("Ada touched: arrived ") and "lag 5 ms, credit 5 ms" in line
    stale = describe_event("TouchClaimed", table.events[-2].data, NAMES)
    assert "lag none (stale), credit 0 ms" in stale
    assert describe_event(granted.type, granted.data, NAMES) == (
        "Ada touched first, lag compensated (R-PLAY-2): compensated order Ada, Bo; "
        "arrival order Ada, Bo"
    )
