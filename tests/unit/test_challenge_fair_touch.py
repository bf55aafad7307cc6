"""R-PLAY-2 under compensation (issue 19, option `touch_compensation`): given a revealed card,
when students' touches arrive with their connections' estimated delays, then the card is
granted, after the arbitration window, to the earliest compensated touch
(server/games/challenge/arbitration.py). Given/when/then over the real decide/evolve."""

from __future__ import annotations

from typing import Any

import pytest
from challenge_tables import PROCTOR, S, Table, options, player, types

from server.games import challenge
from server.games.base import Actor, Command, Event, RuleViolation
from server.games.challenge.state import TouchClaim

MS = 1_000


def compensated(**more: Any) -> Table:
    """Given a compensated table (cap 100 ms) with a revealed card, one second after the
    reveal."""
    table = Table(options(touch_compensation=True, **more))
    table.do("start_round", PROCTOR)
    table.next_card()
    table.advance(1)
    return table


def touch(
    table: Table, who: str, delay_ms: float | None, actor: Actor | None = None, **args: Any
) -> list[Event]:
    """When `who`'s touch arrives now, its connection's delay estimated at `delay_ms`."""
    delay = None if delay_ms is None else round(delay_ms * MS)
    command = Command("touch_card", args, actor or player(who), delay_us=delay)
    new = challenge.decide(table.state, command, table.now)
    for event in new:
        table.state = challenge.evolve(table.state, event)
    table.events.extend(new)
    return new


def test_r_play_2_the_earliest_compensated_touch_wins_not_the_first_arrival():
    table = compensated()
    arrived = table.now
    (first,) = touch(table, "s1", 5)  # a school link: in 5 ms after its press
    assert first.type == "TouchClaimed" and first.data["compensated_at"] == arrived - 5 * MS
    table.advance(0.030)
    (second,) = touch(table, "s2", 60)  # pressed 25 ms earlier, 60 ms away
    assert second.data == {
        "seat": "s2",
        "fingertips": 1,
        "play": 1,
        "arrival": arrived + 30 * MS,
        "delay_us": 60 * MS,
        "credit_us": 60 * MS,
        "compensated_at": arrived - 30 * MS,
        "rule": "R-PLAY-2",
        "at": arrived + 30 * MS,
    }
    assert table.state.card.toucher is None and table.state.phase == "revealed"
    # the window closes at the earliest compensated time + the cap
    assert table.live() == {"grant_first_touch": arrived - 30 * MS + 100 * MS}
    (granted,) = table.fire("grant_first_touch")
    assert granted.type == "FirstTouchGranted"
    assert granted.data["seat"] == "s2" and granted.data["first_by_arrival"] == "s1"
    assert [c["seat"] for c in granted.data["considered"]] == ["s1", "s2"]
    assert table.state.card.toucher == "s2" and table.state.card.touched_at == table.now
    # R-PLAY-4/5 run from the grant, exactly
    assert table.live() == {
        "pattern_deadline": table.now + 3 * S,
        "solution_deadline": table.now + 15 * S,
    }
    assert table.replayed() == table.state


def test_r_play_2_a_tie_goes_to_the_earlier_arrival():
    table = compensated()
    touch(table, "s3", 10)
    table.advance(0.020)
    touch(table, "s1", 30)  # the same compensated time, arrived later
    (granted,) = table.fire("grant_first_touch")
    assert granted.data["seat"] == "s3"


def test_r_play_2_the_window_edge_a_touch_just_inside_can_win_one_at_the_edge_cannot():
    table = compensated()
    start = table.now
    touch(table, "s1", 0)
    edge = table.deadline("grant_first_touch").at
    assert edge == start + 100 * MS
    table.now = edge - 1
    touch(table, "s2", 100)  # compensated 1 us before s1's touch: it wins
    assert table.deadline("grant_first_touch").at == start - 1 + 100 * MS  # the window moved
    table.now = start - 1 + 100 * MS
    touch(table, "s3", 100)  # at the (new) edge: a tie at best, and it arrived later
    (granted,) = table.fire("grant_first_touch")
    assert granted.data["seat"] == "s2"
    table.advance(0.001)
    (late,) = touch(table, "s4", 100)  # after the grant: an ordinary later touch
    assert late.type == "TouchRefused" and late.data["toucher"] == "s2"


def test_r_play_2_an_inflated_lag_earns_at_most_the_cap():
    table = compensated(max_credit_ms=50)
    start = table.now
    touch(table, "s1", 0)
    table.advance(0.045)
    (cheat,) = touch(table, "s2", 400)  # a client that holds its pongs back
    assert cheat.data["delay_us"] == 400 * MS and cheat.data["credit_us"] == 50 * MS
    assert cheat.data["compensated_at"] == start - 5 * MS
    table.fire("grant_first_touch")
    assert table.state.card.toucher == "s2"  # 5 ms earlier even after the cap
    assert table.now == start - 5 * MS + 50 * MS  # the window is bounded by the cap


def test_r_play_2_a_stale_estimate_gets_no_credit():
    table = compensated()
    touch(table, "s1", 20)
    table.advance(0.010)
    (stale,) = touch(table, "s2", None)  # no recent pong: the shell sends no delay
    assert stale.data["delay_us"] is None and stale.data["credit_us"] == 0
    table.fire("grant_first_touch")
    assert table.state.card.toucher == "s1"


def test_r_play_2_no_touch_counts_as_made_before_the_reveal():
    table = Table(options(touch_compensation=True))
    table.do("start_round", PROCTOR)
    table.next_card()
    revealed = table.now
    table.advance(0.030)
    (early,) = touch(table, "s1", 90)
    assert early.data["compensated_at"] == revealed and early.data["credit_us"] == 30 * MS


def test_r_play_2_a_single_toucher_is_not_held_beyond_the_window():
    table = compensated()
    arrived = table.now
    touch(table, "s1", 40)
    assert table.deadline("grant_first_touch").at == arrived - 40 * MS + 100 * MS
    table.fire("grant_first_touch")
    assert table.state.card.toucher == "s1" and table.now - arrived == 60 * MS


def test_r_play_2_a_proctor_recording_a_touch_gives_no_credit():
    table = compensated(mode="proctored")
    (recorded,) = touch(table, "s1", 80, actor=PROCTOR, seat="s1")
    assert recorded.type == "TouchClaimed" and recorded.data["credit_us"] == 0


def test_r_play_2_a_seat_claims_once():
    table = compensated()
    touch(table, "s1", 10)
    with pytest.raises(RuleViolation) as caught:
        touch(table, "s1", 10)
    assert caught.value.code == "already_touched"


def test_r_play_3_a_foul_touch_on_the_free_card_takes_it_after_a_claim_it_is_a_later_touch():
    """Given a compensated table, when a foul touch (four fingertips) comes first, then it is
    flagged and the card leaves play (R-PLAY-3, R-FLAG-2); when it comes after a claim, it is
    a later touch: recorded, flagged too (decision 3), and the card stays with the claims."""
    table = compensated()
    flagged = touch(table, "s1", 10, fingertips=4)
    assert types(flagged) == ["CardTouched", "FlagIssued", "CardReturnedToDeck"]
    table.next_card()
    touch(table, "s2", 10)
    later = touch(table, "s3", 10, fingertips=4)
    assert types(later) == ["TouchRefused", "FlagIssued"]
    assert later[0].data["fingertips"] == 4
    assert later[1].data["cause"] == "too_many_fingertips" and later[1].data["play"] is None
    table.fire("grant_first_touch")
    assert table.state.card.toucher == "s2" and "s3" in table.state.card.fouls


def test_r_play_3_a_slap_during_the_arbitration_disqualifies_and_leaves_the_card_to_the_claims():
    """Given s1's claim, when s2 slaps the card, then s2 is disqualified (R-PLAY-3) as a later
    touch: the card stays in play and the arbitration grants it to s1 (R-PLAY-2)."""
    table = compensated()
    touch(table, "s1", 10)
    slapped = touch(table, "s2", 10, fingertips=5)
    assert types(slapped) == ["TouchRefused", "PlayerDisqualified"]
    assert slapped[1].data["cause"] == "slap"
    table.fire("grant_first_touch")
    assert table.state.card.toucher == "s1"


def test_r_flag_2_a_flag_on_a_claimant_during_the_arbitration_takes_the_card():
    """Given s1's and s2's claims, when the proctor flags s3 (who has not touched), then the
    card stays with the claims; when the proctor flags the claimant s2, then it leaves play:
    the claimants hold it together (decision 5)."""
    table = compensated()
    touch(table, "s1", 10)
    touch(table, "s2", 10)
    assert types(table.do("issue_flag", PROCTOR, seat="s3", cause="no_pattern")) == ["FlagIssued"]
    taken = table.do("issue_flag", PROCTOR, seat="s2", cause="touched_before_reveal")
    assert types(taken) == ["FlagIssued", "CardReturnedToDeck"]
    assert table.state.card is None


def test_r_play_2_without_compensation_arrival_order_decides_and_events_are_unchanged():
    table = Table.started()
    table.next_card()
    (first,) = touch(table, "s1", 90)
    assert first.type == "CardTouched" and "credit_us" not in first.data
    assert table.state.card.toucher == "s1"


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("touch_compensation", "yes"),
        ("max_credit_ms", 251),
        ("max_credit_ms", -1),
        ("max_credit_ms", 1.5),
        ("max_credit_ms", True),
    ],
)
def test_compensation_options_are_checked(name, value):
    with pytest.raises(RuleViolation) as caught:
        challenge.initial_state(options(**{name: value}))
    assert caught.value.code == "bad_options" and name in caught.value.message


def test_the_round_records_the_compensation_only_when_it_is_on():
    on = Table(options(touch_compensation=True, max_credit_ms=80))
    (started,) = on.do("start_round", PROCTOR)
    assert started.data["options"]["touch_compensation"] is True
    assert started.data["options"]["max_credit_ms"] == 80
    (plain,) = Table(options()).do("start_round", PROCTOR)
    assert "touch_compensation" not in plain.data["options"]


def test_the_worked_example_of_docs_rules_md_r_play_2():
    """docs/rules.md, decision 26: the example is run, not just shown."""
    import json
    import pathlib
    import re

    text = (pathlib.Path(__file__).parents[2] / "docs" / "rules.md").read_text()
    decision = text.split("26. **R-PLAY-2 under compensation**")[1]
    example = json.loads(re.search(r"```json\n(.*?)```", decision, re.S).group(1))
    table = Table(options(touch_compensation=True, max_credit_ms=example["max_credit_ms"]))
    table.do("start_round", PROCTOR)
    table.next_card()
    revealed = table.now
    for entry in example["touches"]:
        table.now = revealed + entry["after_reveal_ms"] * MS
        touch(table, entry["seat"], entry["delay_ms"])
    (granted,) = table.fire("grant_first_touch")
    assert granted.data["seat"] == example["granted"]
    assert granted.data["first_by_arrival"] == example["first_by_arrival"]
    assert table.now - revealed == example["grant_after_reveal_ms"] * MS


def test_the_first_touch_granted_example_of_docs_protocol_md_is_what_the_game_records():
    """docs/protocol.md, "Lag probes": the example push is the game's own event, replayed."""
    import json
    import pathlib
    import re

    text = (pathlib.Path(__file__).parents[2] / "docs" / "protocol.md").read_text()
    block = text.split("### Lag probes (the ping contract)")[1]
    example = json.loads(re.search(r"```json\n(.*?)```", block, re.S).group(1))["data"]
    table = Table(options(touch_compensation=True))
    table.do("start_round", PROCTOR)
    table.next_card()
    considered = example["considered"]
    table.now = considered[0]["arrival"]
    touch(table, "s1", considered[0]["delay_us"] / MS)
    table.now = considered[1]["arrival"]
    touch(table, "s2", considered[1]["delay_us"] / MS)
    (granted,) = table.fire("grant_first_touch")
    assert {**granted.data, "play": example["play"]} == example


def test_r_play_2_a_compensated_card_as_the_auditor_reads_it():
    """Whole events (issue 20): every field of each claim and of the grant, so none can be
    dropped or changed unnoticed (the grant's `considered` is what a protest replays)."""
    table = compensated()
    arrived = table.now
    assert touch(table, "s2", 20, fingertips=3) == [
        Event(
            "TouchClaimed",
            {
                "at": arrived,
                "seat": "s2",
                "fingertips": 3,
                "play": 1,
                "arrival": arrived,
                "delay_us": 20 * MS,
                "credit_us": 20 * MS,
                "compensated_at": arrived - 20 * MS,
                "rule": "R-PLAY-2",
            },
        )
    ]
    table.advance(0.010)
    touch(table, "s4", 70)
    assert table.fire("grant_first_touch") == [
        Event(
            "FirstTouchGranted",
            {
                "at": arrived - 60 * MS + 100 * MS,
                "seat": "s4",
                "play": 1,
                "compensated_at": arrived - 60 * MS,
                "first_by_arrival": "s2",
                "considered": [
                    {
                        "seat": "s2",
                        "arrival": arrived,
                        "delay_us": 20 * MS,
                        "credit_us": 20 * MS,
                        "compensated_at": arrived - 20 * MS,
                    },
                    {
                        "seat": "s4",
                        "arrival": arrived + 10 * MS,
                        "delay_us": 70 * MS,
                        "credit_us": 70 * MS,
                        "compensated_at": arrived - 60 * MS,
                    },
                ],
                "rule": "R-PLAY-2",
            },
        )
    ]
    assert table.replayed() == table.state


@pytest.mark.parametrize(
    ("delay_us", "recorded", "credit"),
    [
        (0, 0, 0),  # a measured 0: recorded as measured, no credit
        (1, 1, 1),  # the smallest delay earns its microsecond
        (-1, None, 0),  # a negative estimate is no estimate
        (True, None, 0),  # a bool is not a delay
        (1.5, None, 0),  # nor a float
        (100 * MS, 100 * MS, 100 * MS),  # exactly the cap
        (100 * MS + 1, 100 * MS + 1, 100 * MS),  # one past it: the cap
    ],
)
def test_r_play_2_the_delay_the_shell_sends_at_its_edges(delay_us, recorded, credit):
    table = compensated()
    command = Command("touch_card", {}, player("s1"), delay_us=delay_us)
    (claimed,) = challenge.decide(table.state, command, table.now)
    assert (claimed.data["delay_us"], claimed.data["credit_us"]) == (recorded, credit)
    assert claimed.data["compensated_at"] == table.now - credit


def test_r_play_2_the_claims_wait_in_the_state_until_the_grant_clears_them():
    table = compensated()
    arrived = table.now
    touch(table, "s1", 30, fingertips=2)
    table.advance(0.005)
    touch(table, "s3", None, fingertips=3)
    assert table.state.card.claims == (
        TouchClaim("s1", 2, arrived, 30 * MS, 30 * MS, arrived - 30 * MS),
        TouchClaim("s3", 3, arrived + 5 * MS, None, 0, arrived + 5 * MS),
    )
    assert table.state.card.touches == ("s1", "s3")
    table.fire("grant_first_touch")
    assert table.state.card.claims == () and table.state.card.toucher == "s1"


def test_r_play_3_a_foul_after_a_claim_is_a_later_touch_recorded_whole():
    table = compensated()
    touch(table, "s1", 10)
    assert touch(table, "s2", 10, fingertips=4) == [
        Event(
            "TouchRefused",
            {
                "at": table.now,
                "seat": "s2",
                "fingertips": 4,
                "play": 1,
                "reason": "not_first",
                "toucher": None,  # nobody holds the card during the arbitration
                "rule": "R-PLAY-2",
            },
        ),
        Event(
            "FlagIssued",
            {
                "at": table.now,
                "seat": "s2",
                "cause": "too_many_fingertips",
                "rule": "R-PLAY-3",
                "flags": 1,
                "card_id": "c1",
                "revealed": True,
                "play": None,  # the card stays with s1's claim
            },
        ),
    ]


@pytest.mark.parametrize(
    ("more", "message"),
    [
        ({"touch_compensation": 1}, "option 'touch_compensation': true or false (R-PLAY-2)"),
        ({"casual": "no"}, "option 'casual': true or false (R-PUZ-4)"),
        ({"max_credit_ms": 251}, "option 'max_credit_ms': whole milliseconds 0..250 (R-PLAY-2)"),
        ({"max_credit_ms": -1}, "option 'max_credit_ms': whole milliseconds 0..250 (R-PLAY-2)"),
    ],
)
def test_the_compensation_and_casual_options_are_refused_exactly(more, message):
    with pytest.raises(RuleViolation) as caught:
        challenge.initial_state(options(**more))
    assert caught.value.as_dict() == {"code": "bad_options", "rule": "", "message": message}


@pytest.mark.parametrize("credit_ms", [0, 1, 250])
def test_the_credit_cap_takes_0_to_250_whole_milliseconds_recorded_as_given(credit_ms):
    table = Table(options(touch_compensation=True, max_credit_ms=credit_ms))
    (started,) = table.do("start_round", PROCTOR)
    recorded = started.data["options"]["max_credit_ms"]
    assert recorded == credit_ms and type(recorded) is int  # whole milliseconds, not 80.0
    assert table.state.options.max_credit_us == credit_ms * MS
