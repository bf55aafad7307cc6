"""Protests, rulings, corrections and the score card (R-ROUND-7, R-ROUND-8) at their edges:
every refusal of challenge/protests.py exactly (code, rule, message), both sides of every
argument limit, and the whole events and answers, the way an auditor reads them (issue 20).

Why a file of its own: tests/unit/test_challenge_protests.py tells the rules' story; this one
pins what a small slip in the code would change unnoticed there (a limit moved by one, a
message or a payload field gone, a correction's pile named wrongly).
"""

from __future__ import annotations

from typing import Any

import pytest
from argument_shapes import SHAPES, UNKNOWN_ARG
from challenge_tables import DIRECTOR, PROCTOR, S, Table, player, seat_of

from server.games import challenge
from server.games.base import Command, Event, RuleViolation
from server.games.challenge.protests import (
    MAX_CORRECTIONS,
    MAX_DELTA,
    MAX_INITIALS,
    MAX_OPEN_PER_FILER,
    MAX_PROTESTS,
    MAX_REASON,
    MAX_SEQS,
)


def won_by_s2() -> Table:
    """Given: s2 won c1 (1 dot, seqs 3..7); s1's protest 1 on seq 2 is open; c2 is next."""
    table = Table.started()
    table.next_card()
    table.win("s2")
    table.do("file_protest", player("s1"), seqs=[2], reason="x")
    return table


def ruling(table: Table, *corrections: dict[str, Any], actor=PROCTOR, **more: Any) -> list[Event]:
    """When: the open protest 1 is upheld with these corrections."""
    args = {"protest": 1, "upheld": True, "ruling_text": "y", "corrections": list(corrections)}
    return table.do("rule_protest", actor, **{**args, **more})


def refused_ruling(table: Table, *corrections: dict[str, Any], **more: Any) -> dict[str, str]:
    """When: the same ruling is refused; returns the refusal as the client receives it."""
    args = {"protest": 1, "upheld": True, "ruling_text": "y", "corrections": list(corrections)}
    return table.refused("rule_protest", PROCTOR, **{**args, **more}).as_dict()


def bad_correction(message: str) -> dict[str, str]:
    return {"code": "bad_correction", "rule": "R-ROUND-8", "message": message}


# -- file_protest ------------------------------------------------------------------------------


def test_a_protest_names_1_to_MAX_SEQS_events_from_seq_2_to_the_last():
    table = won_by_s2()
    last = table.last_seq()
    (filed,) = table.do("file_protest", PROCTOR, seqs=[last, 2, last], reason="x")
    assert filed.data["seqs"] == [2, last]  # sorted, each once
    table.do("file_protest", PROCTOR, seqs=[2] * MAX_SEQS, reason="x")  # counted as sent
    too_many = [2] * (MAX_SEQS + 1)
    refusal = {
        "code": "bad_args",
        "rule": "",
        "message": f"file_protest: 'seqs' is a list of 1..{MAX_SEQS} event seqs",
    }
    assert table.refused("file_protest", PROCTOR, seqs=too_many, reason="x").as_dict() == refusal
    assert table.refused("file_protest", PROCTOR, seqs="2", reason="x").as_dict() == refusal
    for seq in (1, table.last_seq() + 1):
        assert table.refused("file_protest", PROCTOR, seqs=[2, seq], reason="x").as_dict() == {
            "code": "unknown_seq",
            "rule": "R-ROUND-8",
            "message": f"file_protest: no event {seq} at this table (2..{table.last_seq()})",
        }


def test_a_protest_reason_is_1_to_MAX_REASON_characters_stripped():
    table = won_by_s2()
    (filed,) = table.do("file_protest", player("s3"), seqs=[2], reason=" " + "r" * MAX_REASON)
    assert filed.data["reason"] == "r" * MAX_REASON
    assert table.refused(
        "file_protest", player("s3"), seqs=[2], reason="r" * (MAX_REASON + 1)
    ).as_dict() == {
        "code": "bad_args",
        "rule": "",
        "message": f"file_protest: 'reason' is a text of 1..{MAX_REASON} characters",
    }


def test_who_a_protest_is_filed_for_exactly():
    table = won_by_s2()
    assert table.refused(
        "file_protest", player("s2"), seat="s1", seqs=[2], reason="x"
    ).as_dict() == {
        "code": "not_your_seat",
        "rule": "R-PLAY-2",
        "message": "player 's2' cannot protest for 's1'",
    }
    assert table.refused("file_protest", PROCTOR, seat="s9", seqs=[2], reason="x").as_dict() == {
        "code": "unknown_seat",
        "rule": "",
        "message": "file_protest: no seat 's9' at this table",
    }
    (own,) = table.do("file_protest", player("s2"), seat="s2", seqs=[2], reason="x")
    (director,) = table.do("file_protest", DIRECTOR, seqs=[2], reason="x")
    assert (own.data["by"], director.data["by"]) == ("s2", "director")


def test_open_protests_per_filer_count_only_the_open_ones():
    table = won_by_s2()  # s1's protest 1 is open
    for _ in range(MAX_OPEN_PER_FILER - 1):
        table.do("file_protest", player("s1"), seqs=[2], reason="x")
    assert table.refused("file_protest", player("s1"), seqs=[2], reason="x").as_dict() == {
        "code": "too_many_protests",
        "rule": "R-ROUND-8",
        "message": f"s1 has {MAX_OPEN_PER_FILER} open protests",
    }
    table.do("rule_protest", protest=2, upheld=False, ruling_text="no")
    (filed,) = table.do("file_protest", player("s1"), seqs=[2], reason="x")
    assert filed.data["protest"] == MAX_OPEN_PER_FILER + 1


def test_a_table_hears_at_most_MAX_PROTESTS_protests():
    table = won_by_s2()
    table.do("rule_protest", protest=1, upheld=False, ruling_text="no")
    for number in range(2, MAX_PROTESTS + 1):
        table.do("file_protest", PROCTOR, seqs=[2], reason="x")
        table.do("rule_protest", protest=number, upheld=False, ruling_text="no")
    assert len(table.state.protests) == MAX_PROTESTS
    assert table.refused("file_protest", player("s1"), seqs=[2], reason="x").as_dict() == {
        "code": "too_many_protests",
        "rule": "R-ROUND-8",
        "message": f"this table has {MAX_PROTESTS} protests",
    }


# -- rule_protest and its corrections: exact refusals -----------------------------------------


def test_a_ruling_names_an_open_protest_and_upheld_true_or_false():
    table = won_by_s2()
    assert refused_ruling(table, protest=True) == {
        "code": "unknown_protest",
        "rule": "R-ROUND-8",
        "message": "rule_protest: no protest True at this table",
    }
    assert refused_ruling(table, upheld=1) == {
        "code": "bad_args",
        "rule": "",
        "message": "rule_protest: 'upheld' is true or false",
    }
    assert refused_ruling(table, ruling_text="t" * (MAX_REASON + 1)) == {
        "code": "bad_args",
        "rule": "",
        "message": f"rule_protest: 'ruling_text' is a text of 1..{MAX_REASON} characters",
    }
    (ruled,) = ruling(table, ruling_text=" " + "t" * MAX_REASON + " ")
    assert ruled.data["ruling_text"] == "t" * MAX_REASON


def test_the_corrections_are_a_list_of_0_to_MAX_CORRECTIONS_maps_of_a_known_kind():
    table = won_by_s2()
    listed = f"'corrections' is a list of 0..{MAX_CORRECTIONS} maps"
    kinds = "a correction is a map whose 'kind' is one of "
    kinds += "rescind_flag, rescind_slap, award_card, revoke_card, adjust_score"
    adjust = {"kind": "adjust_score", "seat": "s3", "delta": 1, "why": "x"}
    assert refused_ruling(table, corrections={"kind": "adjust_score"}) == bad_correction(listed)
    assert refused_ruling(table, *[adjust] * (MAX_CORRECTIONS + 1)) == bad_correction(listed)
    assert refused_ruling(table, ["kind", "adjust_score"]) == bad_correction(kinds)
    assert refused_ruling(table, {"kind": "undo"}) == bad_correction(kinds)
    assert refused_ruling(table, adjust, upheld=False) == bad_correction(
        "a rejected protest corrects nothing"
    )
    events = ruling(table, *[adjust] * MAX_CORRECTIONS)
    assert len(events) == 1 + MAX_CORRECTIONS
    assert seat_of(table.state, "s3").score == MAX_CORRECTIONS


def test_every_field_of_every_correction_refuses_wrong_shapes():
    """Issue 18: a `kind` that is a list or a map was a membership test on a dict
    (TypeError: `internal` on rule_protest and on preview_ruling). Every field of every kind
    of correction, set to each wrong shape, is a documented refusal."""
    table = won_by_s2()
    valid = {
        "rescind_flag": {"kind": "rescind_flag", "seat": "s1", "flag": 1},
        "award_card": {"kind": "award_card", "seat": "s1", "card": "c1"},
        "revoke_card": {"kind": "revoke_card", "seat": "s2", "card": "c1"},
        "adjust_score": {"kind": "adjust_score", "seat": "s1", "delta": 1, "why": "x"},
    }
    for correction in valid.values():
        for field in [*correction, UNKNOWN_ARG]:
            for shape in SHAPES.values():
                args = {"protest": 1, "upheld": True, "ruling_text": "y"}
                args["corrections"] = [{**correction, field: shape}]
                for name in ("rule_protest", "preview_ruling"):
                    try:
                        if name == "rule_protest":
                            challenge.decide(table.state, Command(name, args, PROCTOR), table.now)
                        else:
                            challenge.query(table.state, name, args, PROCTOR, table.now)
                    except RuleViolation as refused:  # an unknown field is ignored: no refusal
                        assert refused.code in challenge.REFUSALS, (name, args, refused)


def test_every_correction_names_a_seat_of_the_table():
    table = won_by_s2()
    for kind in ("rescind_flag", "award_card", "revoke_card", "adjust_score"):
        assert refused_ruling(table, {"kind": kind, "seat": "s9"}) == {
            "code": "unknown_seat",
            "rule": "",
            "message": "correction: no seat 's9'",
        }


@pytest.mark.parametrize("value", [None, "3", 3.0, True])
def test_a_flag_seq_and_a_delta_are_whole_numbers(value):
    table = won_by_s2()
    assert refused_ruling(table, {"kind": "rescind_flag", "seat": "s1", "flag": value}) == (
        bad_correction("rescind_flag: 'flag' is a whole number")
    )
    adjust = {"kind": "adjust_score", "seat": "s1", "delta": value, "why": "x"}
    assert refused_ruling(table, adjust) == bad_correction(
        "adjust_score: 'delta' is a whole number"
    )


def test_a_score_adjustment_is_1_to_MAX_DELTA_points_either_way_with_a_reason():
    table = won_by_s2()
    delta_limit = bad_correction(f"adjust_score: 'delta' is 1..{MAX_DELTA} points, + or -")
    why_limit = bad_correction(f"adjust_score: 'why' is a text of 1..{MAX_REASON}")
    for delta in (0, MAX_DELTA + 1, -MAX_DELTA - 1):
        adjust = {"kind": "adjust_score", "seat": "s1", "delta": delta, "why": "x"}
        assert refused_ruling(table, adjust) == delta_limit, delta
    for why in (None, "", "   ", "w" * (MAX_REASON + 1), ["w"]):
        adjust = {"kind": "adjust_score", "seat": "s1", "delta": 1, "why": why}
        assert refused_ruling(table, adjust) == why_limit, why
    events = ruling(
        table,
        {"kind": "adjust_score", "seat": "s1", "delta": MAX_DELTA, "why": " " + "w" * MAX_REASON},
        {"kind": "adjust_score", "seat": "s1", "delta": -MAX_DELTA, "why": "w"},
        {"kind": "adjust_score", "seat": "s2", "delta": -1, "why": "to zero"},
    )
    assert [event.data for event in events[1:]] == [
        {"at": table.now, "seat": "s1", "delta": MAX_DELTA, "why": "w" * MAX_REASON},
        {"at": table.now, "seat": "s1", "delta": -MAX_DELTA, "why": "w"},
        {"at": table.now, "seat": "s2", "delta": -1, "why": "to zero"},  # 0 points is allowed
    ]
    assert table.state.scores() == {"s1": 0, "s2": 0, "s3": 0, "s4": 0}


def test_revoking_a_card_that_would_make_the_score_negative_is_refused():
    """s2 won c1 (1 dot) and lost that point in an adjustment: revoking c1 would leave -1."""
    table = won_by_s2()
    assert refused_ruling(
        table,
        {"kind": "adjust_score", "seat": "s2", "delta": -1, "why": "x"},
        {"kind": "revoke_card", "seat": "s2", "card": "c1"},
    ) == {
        "code": "negative_score",
        "rule": "R-ROUND-8",
        "message": "seat s2 has 0 points; -1 is too many",
    }


def test_award_card_refusals_name_the_card():
    """c1 is won by s2 (and c2 is in play, c3 is in the deck, never revealed)."""
    table = won_by_s2()
    table.next_card()
    award = {"kind": "award_card", "seat": "s1"}
    assert refused_ruling(table, {**award, "card": ["c1"]}) == {
        "code": "unknown_card",
        "rule": "R-ROUND-8",
        "message": "award_card: no card ['c1'] in this table's deck",
    }
    assert refused_ruling(table, {**award, "card": "c3"}) == {
        "code": "card_not_revealed",
        "rule": "R-PLAY-1",  # the code's rule in REFUSALS (shared with a touch too early)
        "message": "card 'c3' was never revealed",
    }
    assert refused_ruling(table, {**award, "card": "c2"}) == {
        "code": "card_in_play",
        "rule": "R-PLAY-1",
        "message": "card 'c2' is in play: rule once it has left",
    }


def test_a_card_removed_under_r_deck_4_cannot_be_awarded_exactly():
    table = Table.started(seats=3, cards=["c1", "c2", "c4", "c3", "c9"])  # c3, c9 removed
    table.do("file_protest", player("s1"), seqs=[2], reason="x")
    assert refused_ruling(table, {"kind": "award_card", "seat": "s1", "card": "c9"}) == {
        "code": "unknown_card",
        "rule": "R-ROUND-8",
        "message": "card 'c9' was removed under R-DECK-4",
    }


# -- the corrections' events, whole ------------------------------------------------------------


def test_an_awarded_card_names_the_pile_it_leaves_stumped_deck_or_none():
    table = Table.started(cards=["c1", "c2", "c3"])
    table.next_card()
    for seat in ("s1", "s2", "s3", "s4"):
        table.do("declare_stumped", player(seat))  # c1 to the stumped pile (replay_at_end)
    table.next_card()
    table.win("s2")  # c2 won by s2
    table.do("file_protest", PROCTOR, seqs=[2], reason="x")
    events = ruling(
        table,
        {"kind": "award_card", "seat": "s1", "card": "c1"},
        {"kind": "revoke_card", "seat": "s2", "card": "c2"},
        {"kind": "award_card", "seat": "s3", "card": "c2"},
    )
    assert [(event.type, event.data) for event in events[1:]] == [
        (
            "CardAwarded",
            {"at": table.now, "seat": "s1", "card": "c1", "dots": 1, "from_pile": "stumped"},
        ),
        ("CardAwardRevoked", {"at": table.now, "seat": "s2", "card": "c2", "dots": 3}),
        (
            "CardAwarded",
            {"at": table.now, "seat": "s3", "card": "c2", "dots": 3, "from_pile": None},
        ),
    ]
    assert table.state.stumped == () and table.state.deck == ("c3",)
    assert table.state.scores() == {"s1": 1, "s2": 0, "s3": 3, "s4": 0}
    assert table.replayed() == table.state


def test_a_ruling_and_its_flag_correction_as_the_auditor_reads_them():
    table = Table.started(cards=["c1", "c2"], flag_limit=1)
    table.do("issue_flag", seat="s1", cause="no_pattern")
    flag_seq = table.seq_of("FlagIssued")
    table.do("file_protest", player("s1"), seqs=[flag_seq], reason="I was not slow")
    table.advance(5)
    events = ruling(
        table,
        {"kind": "rescind_flag", "seat": "s1", "flag": flag_seq},
        actor=DIRECTOR,
        ruling_text=" the timer was wrong ",
    )
    assert [(event.type, event.data) for event in events] == [
        (
            "ProtestRuled",
            {
                "at": table.now,
                "protest": 1,
                "upheld": True,
                "ruling_text": "the timer was wrong",
                "corrections": [{"kind": "rescind_flag", "seat": "s1", "flag": flag_seq}],
                "by": "director",
                "rule": "R-ROUND-8",
            },
        ),
        ("FlagRescinded", {"at": table.now, "seat": "s1", "flag": flag_seq, "flags": 0}),
        (
            "PlayerReinstated",
            {"at": table.now, "seat": "s1", "flags": 0, "from_play": 1, "rule": "R-ROUND-8"},
        ),
    ]
    assert table.replayed() == table.state


def test_the_score_card_signed_and_reopened_as_the_auditor_reads_them():
    table = Table.started(cards=["c1"], flag_limit=1)
    table.do("issue_flag", seat="s4", cause="no_pattern")  # s4 out at the limit
    table.next_card()
    table.win("s2")  # the deck is empty: the round has ended
    table.do("file_protest", player("s1"), seqs=[2], reason="x")
    table.do("rule_protest", protest=1, upheld=False, ruling_text="no")
    table.advance(60)
    assert table.refused("sign_score_card", initials="P" * (MAX_INITIALS + 1)).as_dict() == {
        "code": "bad_args",
        "rule": "",
        "message": f"sign_score_card: 'initials' is a text of 1..{MAX_INITIALS} characters",
    }
    (signed,) = table.do("sign_score_card", initials=" " + "P" * MAX_INITIALS)
    assert signed.data == {
        "at": table.now,
        "initials": "P" * MAX_INITIALS,
        "by": "proctor",
        "round": 1,
        "end_reason": "deck_empty",
        "scores": {"s1": 0, "s2": 1, "s3": 0, "s4": 0},
        "flags": {"s1": 0, "s2": 0, "s3": 0, "s4": 1},
        "disqualified": ["s4"],
        "seats": [
            {
                "seat": seat,
                "name": name,
                "score": 1 if seat == "s2" else 0,
                "flags": 1 if seat == "s4" else 0,
                "disqualified": seat == "s4",
                "disqualified_cause": "flag_limit" if seat == "s4" else None,
                "cards_won": ["c1"] if seat == "s2" else [],
            }
            for seat, name in (("s1", "Ada"), ("s2", "Bo"), ("s3", "Cy"), ("s4", "Di"))
        ],
        "protests": {"filed": 1, "upheld": 0, "rejected": 1},
        "rule": "R-ROUND-7",
    }
    assert table.refused(
        "reopen_score_card", DIRECTOR, reason="r" * (MAX_REASON + 1)
    ).as_dict() == {
        "code": "bad_args",
        "rule": "",
        "message": f"reopen_score_card: 'reason' is a text of 1..{MAX_REASON} characters",
    }
    (reopened,) = table.do("reopen_score_card", DIRECTOR, reason=" a late protest ")
    assert reopened.data == {
        "at": table.now,
        "reason": "a late protest",
        "by": "director",
        "rule": "R-ROUND-8",
    }
    assert table.replayed() == table.state


def test_preview_ruling_answers_whole_events_and_outcomes():
    table = Table.started(cards=["c1", "c2"], flag_limit=1)
    table.do("issue_flag", seat="s3", cause="no_solution")
    flag_seq = table.seq_of("FlagIssued")
    table.do("file_protest", player("s3"), seqs=[flag_seq], reason="x")
    args = {
        "protest": 1,
        "upheld": True,
        "ruling_text": "y",
        "corrections": [
            {"kind": "rescind_flag", "seat": "s3", "flag": flag_seq},
            {"kind": "adjust_score", "seat": "s1", "delta": 2, "why": "w"},
        ],
    }
    answer = challenge.query(table.state, "preview_ruling", args, PROCTOR, table.now)
    at = table.now
    assert answer == {
        "events": [
            {
                "type": "ProtestRuled",
                "data": {
                    "at": at,
                    **{key: value for key, value in args.items() if key != "protest"},
                    "protest": 1,
                    "by": "proctor",
                    "rule": "R-ROUND-8",
                },
            },
            {
                "type": "FlagRescinded",
                "data": {"at": at, "seat": "s3", "flag": flag_seq, "flags": 0},
            },
            {
                "type": "PlayerReinstated",
                "data": {"at": at, "seat": "s3", "flags": 0, "from_play": 1, "rule": "R-ROUND-8"},
            },
            {"type": "ScoreAdjusted", "data": {"at": at, "seat": "s1", "delta": 2, "why": "w"}},
        ],
        "before": {
            "scores": {"s1": 0, "s2": 0, "s3": 0, "s4": 0},
            "flags": {"s1": 0, "s2": 0, "s3": 1, "s4": 0},
            "disqualified": ["s3"],
        },
        "after": {
            "scores": {"s1": 2, "s2": 0, "s3": 0, "s4": 0},
            "flags": {"s1": 0, "s2": 0, "s3": 0, "s4": 0},
            "disqualified": [],
        },
    }


# -- what the corrections leave in the state ---------------------------------------------------


def test_a_rescinded_flag_leaves_the_others_standing_and_a_reinstated_seat_clean():
    table = Table.started(flag_limit=2)
    table.do("issue_flag", seat="s1", cause="no_pattern")
    first = table.seq_of("FlagIssued")
    table.do("issue_flag", seat="s1", cause="no_solution")
    second = table.seq_of("FlagIssued")
    assert seat_of(table.state, "s1").disqualified_cause == "flag_limit"
    table.do("file_protest", player("s1"), seqs=[first], reason="x")
    ruling(table, {"kind": "rescind_flag", "seat": "s1", "flag": first})
    s1 = seat_of(table.state, "s1")
    assert (s1.flags, s1.flag_seqs) == (1, (second,))
    assert (s1.disqualified, s1.disqualified_cause, s1.reinstated_from) == (False, None, 1)
    table.do("file_protest", player("s1"), seqs=[first], reason="again")
    assert table.refused(
        "rule_protest",
        protest=2,
        upheld=True,
        ruling_text="y",
        corrections=[{"kind": "rescind_flag", "seat": "s1", "flag": first}],
    ).as_dict() == {
        "code": "unknown_flag",
        "rule": "R-ROUND-8",
        "message": f"seat s1 has no standing flag at seq {first}",
    }


def test_a_reopened_score_card_is_unsigned_entirely():
    table = Table.started(cards=["c1"])
    table.do("end_round")
    table.do("sign_score_card", initials="PK")
    assert (table.state.signed_by, table.state.signed_at) == ("PK", table.now)
    table.do("reopen_score_card", DIRECTOR, reason="late")
    assert (table.state.signed_by, table.state.signed_at) == (None, None)


def test_every_viewer_sees_the_protests_and_their_rulings_whole():
    """R-ROUND-8: protests are heard openly; a ruling changes only the protest it names."""
    table = won_by_s2()  # protest 1 by s1 on seq 2, filed at T0
    filed_at = table.now
    table.advance(3)
    table.do("file_protest", PROCTOR, seqs=[3, 4], reason=" the touch ")
    table.advance(4)
    table.do("rule_protest", protest=1, upheld=False, ruling_text=" no ")
    expected = [
        {
            "protest": 1,
            "by": "s1",
            "seqs": [2],
            "reason": "x",
            "at": filed_at,
            "status": "rejected",
            "ruling_text": "no",
            "ruled_at": table.now,
        },
        {
            "protest": 2,
            "by": "proctor",
            "seqs": [3, 4],
            "reason": "the touch",
            "at": filed_at + 3 * S,
            "status": "open",
            "ruling_text": None,
            "ruled_at": None,
        },
    ]
    for viewer in (player("s3"), PROCTOR):
        assert challenge.view(table.state, viewer)["protests"] == expected
