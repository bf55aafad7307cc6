"""The timed round of a tie-break table (R-ROUND-6): option `round_seconds`, 2 to 4 seats."""

from __future__ import annotations

import pytest
from challenge_tables import PROCTOR, S, Table, options, player, types

from server.games import challenge
from server.games.base import RuleViolation


def test_r_round_6_given_a_timed_round_when_time_runs_out_then_the_card_in_play_is_void():
    table = Table.started(seats=3, cards=["c1", "c2", "c3"], round_seconds=300, min_seats=2)
    table.next_card()
    table.win("s1")
    card = table.next_card()
    table.do("touch_card", player("s2"))
    table.do("declare_pattern", player("s2"), pattern="3 × 8")
    table.advance(300)
    events = table.fire("round_deadline")
    assert types(events) == ["RoundEnded"]
    ended = events[0].data
    assert ended["reason"] == "time_up"
    assert card in ended["unplayed"]  # void: scored for nobody
    assert ended["scores"] == {"s1": 1, "s2": 0, "s3": 0}
    assert not challenge.is_over(table.state)  # protests are heard until the signature
    table.do("sign_score_card", initials="PK")  # R-ROUND-7: the result is final
    assert challenge.is_over(table.state)
    assert table.replayed() == table.state


def test_r_round_6_the_round_deadline_runs_from_the_round_start_whatever_the_card_timers():
    table = Table.started(cards=["c1", "c2"], round_seconds=60)
    start = table.now
    table.next_card()
    assert table.live()["round_deadline"] == start + 60 * S
    assert table.live()["no_touch_deadline"] < start + 60 * S


def test_r_round_6_no_round_deadline_without_round_seconds():
    table = Table.started(cards=["c1"])
    table.next_card()
    assert "round_deadline" not in table.live()


def test_r_round_6_a_tie_break_table_may_have_two_seats_but_a_round_table_may_not():
    challenge.initial_state(options(seats=2, min_seats=2, round_seconds=300))
    with pytest.raises(RuleViolation) as refused:
        challenge.initial_state(options(seats=2))
    assert refused.value.code == "bad_options"
    with pytest.raises(RuleViolation):
        challenge.initial_state(options(seats=3, min_seats=1))


def test_a_paused_timed_table_has_no_live_round_deadline():
    table = Table.started(cards=["c1"], round_seconds=60)
    table.do("pause_table", PROCTOR)
    assert table.live() == {}
