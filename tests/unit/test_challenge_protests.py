"""Protests, rulings and corrections (R-ROUND-8) and the score card (R-ROUND-7): given these
events, when this command, then these events (or this refusal). Corrections never edit
history: every test also checks that the replayed log equals the live state."""

from __future__ import annotations

import pytest
from challenge_tables import (
    AUDITOR,
    DIRECTOR,
    PROCTOR,
    SPECTATOR,
    WRONG_STEPS,
    S,
    Table,
    player,
    seat_of,
    types,
)

from server.games import challenge
from server.games.base import SERVER_ACTOR, RuleViolation


def flagged_for_a_right_answer() -> Table:
    """Given: s1 held c1, declared `3 × 8` and fixed a wrong answer: flagged, c1 back in the
    deck (the proctor later finds the judge was wrong)."""
    table = Table.started(cards=["c1", "c2", "c3"])
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="3 × 8")
    table.do("fix_solution", player("s1"), steps=WRONG_STEPS)
    return table


def ended_round() -> Table:
    """Given: a round of two cards, won by s1 (1 dot) and s2 (3 dots), has ended."""
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    table.win("s1")
    table.next_card()
    table.win("s2")
    assert table.state.phase == "ended"
    return table


def check_replay(table: Table) -> None:
    assert table.replayed() == table.state


# -- file_protest ------------------------------------------------------------------------------


def test_a_student_files_a_protest_naming_the_disputed_events_R_ROUND_8():
    table = flagged_for_a_right_answer()
    flag_seq = table.seq_of("FlagIssued")
    (event,) = table.do("file_protest", player("s1"), seqs=[flag_seq], reason="my answer was right")
    assert event.type == "ProtestFiled"
    assert event.data == {
        "at": table.now,
        "protest": 1,
        "by": "s1",
        "seqs": [flag_seq],
        "reason": "my answer was right",
        "rule": "R-ROUND-8",
    }
    (protest,) = table.state.protests
    assert protest.status == "open" and protest.seqs == (flag_seq,)
    assert challenge.view(table.state, SPECTATOR)["protests"][0]["status"] == "open"
    check_replay(table)


def test_the_proctor_files_for_a_seat_or_in_its_own_name_R_ROUND_8():
    table = flagged_for_a_right_answer()
    seq = table.seq_of("SolutionJudged")
    (for_seat,) = table.do("file_protest", PROCTOR, seat="s1", seqs=[seq], reason="judge")
    (own,) = table.do("file_protest", PROCTOR, seqs=[seq, 2, seq], reason="check the deal")
    assert for_seat.data["by"] == "s1"
    assert own.data["by"] == "proctor" and own.data["seqs"] == [2, seq]
    assert own.data["protest"] == 2


def test_a_disqualified_student_may_still_protest_R_ROUND_8():
    table = Table.started(flag_limit=1)
    table.do("place_card")
    table.do("touch_card", player("s1"))  # before the reveal: flagged and disqualified
    assert seat_of(table.state, "s1").disqualified
    (event,) = table.do(
        "file_protest", player("s1"), seqs=[table.seq_of("FlagIssued")], reason="I did not"
    )
    assert event.data["by"] == "s1"


def test_a_protest_on_a_seq_that_does_not_exist_is_refused_R_ROUND_8():
    table = flagged_for_a_right_answer()
    for seq in (table.last_seq() + 1, 1, 0, -3):
        refused = table.refused("file_protest", player("s1"), seqs=[seq], reason="x")
        assert refused.code == "unknown_seq", seq
    assert table.refused("file_protest", player("s1"), seqs=[], reason="x").code == "bad_args"
    assert table.refused("file_protest", player("s1"), seqs=["3"], reason="x").code == "bad_args"
    assert table.refused("file_protest", player("s1"), seqs=[True], reason="x").code == "bad_args"
    assert table.refused("file_protest", player("s1"), seqs=[3], reason=" ").code == "bad_args"


def test_a_spectator_or_an_auditor_may_not_protest_R_ROUND_8():
    table = flagged_for_a_right_answer()
    for who in (SPECTATOR, AUDITOR, SERVER_ACTOR):
        assert table.refused("file_protest", who, seqs=[3], reason="x").code == "not_allowed"


def test_a_student_protests_only_for_its_own_seat_R_ROUND_8():
    table = flagged_for_a_right_answer()
    refused = table.refused("file_protest", player("s2"), seat="s1", seqs=[3], reason="x")
    assert refused.code == "not_your_seat"
    refused = table.refused("file_protest", PROCTOR, seat="s9", seqs=[3], reason="x")
    assert refused.code == "unknown_seat"


def test_protests_are_not_heard_before_the_round_starts():
    table = Table(Table.started().raw_options)
    assert table.refused("file_protest", player("s1"), seqs=[2], reason="x").code in (
        "round_not_started",
        "unknown_seq",
    )
    assert table.refused("file_protest", player("s1"), seqs=[1], reason="x").code == (
        "round_not_started"
    )


def test_open_protests_per_filer_are_bounded():
    table = flagged_for_a_right_answer()
    for _ in range(3):
        table.do("file_protest", player("s1"), seqs=[3], reason="again")
    refused = table.refused("file_protest", player("s1"), seqs=[3], reason="again")
    assert refused.code == "too_many_protests"
    table.do("file_protest", player("s2"), seqs=[3], reason="mine")  # another filer may


def test_protests_are_heard_while_paused_and_after_the_round_R_ROUND_8():
    table = flagged_for_a_right_answer()
    table.do("pause_table")
    assert types(table.do("file_protest", player("s1"), seqs=[3], reason="x")) == ["ProtestFiled"]
    ended = ended_round()
    assert types(ended.do("file_protest", player("s3"), seqs=[3], reason="x")) == ["ProtestFiled"]


# -- rule_protest and the corrections ----------------------------------------------------------


def test_an_upheld_protest_rescinds_the_flag_and_awards_the_card_R_ROUND_8():
    table = flagged_for_a_right_answer()
    flag_seq = table.seq_of("FlagIssued")
    table.do("file_protest", player("s1"), seqs=[flag_seq], reason="my answer was right")
    assert "c1" in table.state.deck  # R-FLAG-2 returned it
    events = table.do(
        "rule_protest",
        protest=1,
        upheld=True,
        ruling_text="the steps were right; the judge misread them",
        corrections=[
            {"kind": "rescind_flag", "seat": "s1", "flag": flag_seq},
            {"kind": "award_card", "seat": "s1", "card": "c1"},
        ],
    )
    assert types(events) == ["ProtestRuled", "FlagRescinded", "CardAwarded"]
    assert events[0].data["upheld"] is True and events[0].data["by"] == "proctor"
    assert events[1].data == {"at": table.now, "seat": "s1", "flag": flag_seq, "flags": 0}
    assert events[2].data == {
        "at": table.now,
        "seat": "s1",
        "card": "c1",
        "dots": 1,
        "from_pile": "deck",
    }
    s1 = seat_of(table.state, "s1")
    assert (s1.score, s1.flags, s1.cards_won) == (1, 0, ("c1",))
    assert "c1" not in table.state.deck  # an awarded card is not played again
    assert table.state.protests[0].status == "upheld"
    # History is kept: the flag and the wrong verdict are still in the log.
    assert "FlagIssued" in types(table.events) and "SolutionJudged" in types(table.events)
    check_replay(table)


def test_a_rejected_protest_records_the_ruling_and_changes_nothing_R_ROUND_8():
    table = flagged_for_a_right_answer()
    table.do("file_protest", player("s1"), seqs=[3], reason="x")
    before = table.state.seats
    (event,) = table.do("rule_protest", protest=1, upheld=False, ruling_text="the flag stands")
    assert event.type == "ProtestRuled" and event.data["corrections"] == []
    assert table.state.seats == before
    refused = table.refused(
        "rule_protest",
        protest=1,
        upheld=False,
        ruling_text="x",
        corrections=[{"kind": "adjust_score", "seat": "s1", "delta": 1, "why": "x"}],
    )
    assert refused.code == "already_ruled"


def test_a_second_ruling_on_one_protest_is_refused_R_ROUND_8():
    table = flagged_for_a_right_answer()
    table.do("file_protest", player("s1"), seqs=[3], reason="x")
    table.do("rule_protest", protest=1, upheld=False, ruling_text="no")
    assert table.refused("rule_protest", protest=1, upheld=True, ruling_text="yes").code == (
        "already_ruled"
    )
    assert table.refused("rule_protest", protest=2, upheld=True, ruling_text="y").code == (
        "unknown_protest"
    )


def test_only_the_proctor_or_director_rules_R_ROUND_8():
    table = flagged_for_a_right_answer()
    table.do("file_protest", player("s1"), seqs=[3], reason="x")
    for who in (player("s1"), SPECTATOR):
        refused = table.refused("rule_protest", who, protest=1, upheld=True, ruling_text="y")
        assert refused.code == "not_allowed"
    (event,) = table.do("rule_protest", DIRECTOR, protest=1, upheld=False, ruling_text="no")
    assert event.data["by"] == "director"


def test_corrections_that_would_make_a_score_negative_are_refused_R_ROUND_8():
    table = ended_round()
    table.do("file_protest", player("s2"), seqs=[3], reason="x")
    for correction in (
        {"kind": "adjust_score", "seat": "s1", "delta": -2, "why": "x"},
        {"kind": "adjust_score", "seat": "s3", "delta": -1, "why": "x"},
    ):
        refused = table.refused(
            "rule_protest", protest=1, upheld=True, ruling_text="y", corrections=[correction]
        )
        assert refused.code == "negative_score", correction
    # Two corrections judged in order: the second sees the first one's score.
    refused = table.refused(
        "rule_protest",
        protest=1,
        upheld=True,
        ruling_text="y",
        corrections=[
            {"kind": "revoke_card", "seat": "s1", "card": "c1"},
            {"kind": "adjust_score", "seat": "s1", "delta": -1, "why": "x"},
        ],
    )
    assert refused.code == "negative_score"


def test_malformed_or_impossible_corrections_are_refused_R_ROUND_8():
    table = ended_round()
    table.do("file_protest", player("s2"), seqs=[3], reason="x")
    cases = [
        ({"kind": "undo_everything"}, "bad_correction"),
        ("award c1", "bad_correction"),
        ({"kind": "award_card", "seat": "s3", "card": "c9"}, "unknown_card"),
        ({"kind": "award_card", "seat": "s3", "card": "c1"}, "card_already_won"),
        ({"kind": "revoke_card", "seat": "s3", "card": "c1"}, "card_not_won"),
        ({"kind": "rescind_flag", "seat": "s3", "flag": 3}, "unknown_flag"),
        ({"kind": "rescind_flag", "seat": "s3", "flag": "3"}, "bad_correction"),
        ({"kind": "adjust_score", "seat": "s3", "delta": 0, "why": "x"}, "bad_correction"),
        ({"kind": "adjust_score", "seat": "s3", "delta": 1}, "bad_correction"),
        ({"kind": "adjust_score", "seat": "s9", "delta": 1, "why": "x"}, "unknown_seat"),
    ]
    for correction, code in cases:
        refused = table.refused(
            "rule_protest", protest=1, upheld=True, ruling_text="y", corrections=[correction]
        )
        assert refused.code == code, correction
    refused = table.refused(
        "rule_protest",
        protest=1,
        upheld=False,
        ruling_text="y",
        corrections=[{"kind": "adjust_score", "seat": "s3", "delta": 1, "why": "x"}],
    )
    assert refused.code == "bad_correction"
    assert table.refused("rule_protest", protest=1, upheld="yes", ruling_text="y").code == (
        "bad_args"
    )


def test_a_card_is_awarded_only_once_it_has_left_play_R_ROUND_8():
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    table.do("file_protest", player("s1"), seqs=[3], reason="x")
    refused = table.refused(
        "rule_protest",
        protest=1,
        upheld=True,
        ruling_text="y",
        corrections=[{"kind": "award_card", "seat": "s1", "card": "c1"}],
    )
    assert refused.code == "card_in_play"


def test_revoking_a_card_and_adjusting_a_score_R_ROUND_8():
    table = ended_round()
    table.do("file_protest", PROCTOR, seqs=[table.seq_of("CardWon")], reason="c2 was misread")
    events = table.do(
        "rule_protest",
        protest=1,
        upheld=True,
        ruling_text="the last step was not the pattern",
        corrections=[
            {"kind": "revoke_card", "seat": "s2", "card": "c2"},
            {"kind": "adjust_score", "seat": "s4", "delta": 2, "why": "a tie-break point"},
        ],
    )
    assert types(events) == ["ProtestRuled", "CardAwardRevoked", "ScoreAdjusted"]
    assert events[1].data == {"at": table.now, "seat": "s2", "card": "c2", "dots": 3}
    assert table.state.scores() == {"s1": 1, "s2": 0, "s3": 0, "s4": 2}
    check_replay(table)


def test_a_rescinded_flag_reinstates_a_student_from_the_next_card_R_ROUND_8():
    table = Table.started(cards=["c1", "c2", "c3"], flag_limit=1)
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="3 × 8")
    table.do("fix_solution", player("s1"), steps=WRONG_STEPS)
    flag_seq = table.seq_of("FlagIssued")
    assert seat_of(table.state, "s1").disqualified
    table.next_card()  # play 2 is in play while the protest is heard
    table.do("file_protest", player("s1"), seqs=[flag_seq], reason="right answer")
    events = table.do(
        "rule_protest",
        protest=1,
        upheld=True,
        ruling_text="right",
        corrections=[{"kind": "rescind_flag", "seat": "s1", "flag": flag_seq}],
    )
    assert types(events) == ["ProtestRuled", "FlagRescinded", "PlayerReinstated"]
    assert events[2].data == {
        "at": table.now,
        "seat": "s1",
        "flags": 0,
        "from_play": 3,
        "rule": "R-ROUND-8",
    }
    s1 = seat_of(table.state, "s1")
    assert not s1.disqualified and s1.reinstated_from == 3
    # Not on this card: the card in play is play 2.
    assert table.refused("touch_card", player("s1")).code == "not_yet_reinstated"
    # Stumped on play 2 needs only the students who take part in it.
    for seat in ("s2", "s3", "s4"):
        table.do("declare_stumped", player(seat))
    assert table.state.card is None
    table.next_card()  # play 3: s1 plays again
    assert types(table.do("touch_card", player("s1"))) == ["CardTouched"]
    check_replay(table)


def test_a_slap_disqualification_is_not_undone_by_rescinding_a_flag_R_PLAY_3():
    table = Table.started(cards=["c1", "c2", "c3"], flag_limit=2)
    table.do("issue_flag", seat="s1", cause="no_pattern")
    flag_seq = table.seq_of("FlagIssued")
    table.do("rule_slap", seat="s1")
    table.do("file_protest", player("s1"), seqs=[flag_seq], reason="x")
    events = table.do(
        "rule_protest",
        protest=1,
        upheld=True,
        ruling_text="that flag was wrong; the slap stands",
        corrections=[{"kind": "rescind_flag", "seat": "s1", "flag": flag_seq}],
    )
    assert types(events) == ["ProtestRuled", "FlagRescinded"]
    assert seat_of(table.state, "s1").disqualified


def test_an_award_that_empties_the_deck_ends_the_round_R_ROUND_1():
    table = Table.started(cards=["c1"])
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="3 × 8")
    table.do("fix_solution", player("s1"), steps=WRONG_STEPS)  # c1 back in the deck
    table.do("file_protest", player("s1"), seqs=[table.seq_of("FlagIssued")], reason="x")
    events = table.do(
        "rule_protest",
        protest=1,
        upheld=True,
        ruling_text="right",
        corrections=[{"kind": "award_card", "seat": "s1", "card": "c1"}],
    )
    assert types(events) == ["ProtestRuled", "CardAwarded", "RoundEnded"]
    assert events[-1].data["scores"]["s1"] == 1


# -- the score card (R-ROUND-7) ----------------------------------------------------------------


def test_the_proctor_signs_the_score_card_and_the_table_is_over_R_ROUND_7():
    table = ended_round()
    (event,) = table.do("sign_score_card", initials="PK")
    assert event.type == "ScoreCardSigned"
    data = event.data
    assert data["initials"] == "PK" and data["by"] == "proctor" and data["rule"] == "R-ROUND-7"
    assert data["scores"] == {"s1": 1, "s2": 3, "s3": 0, "s4": 0}
    assert data["flags"] == {"s1": 0, "s2": 0, "s3": 0, "s4": 0}
    assert data["disqualified"] == [] and data["end_reason"] == "deck_empty"
    assert data["seats"][1] == {
        "seat": "s2",
        "name": "Bo",
        "score": 3,
        "flags": 0,
        "disqualified": False,
        "disqualified_cause": None,
        "cards_won": ["c2"],
    }
    assert data["protests"] == {"filed": 0, "upheld": 0, "rejected": 0}
    assert challenge.is_over(table.state)
    assert table.events[-1].type in challenge.FINAL_EVENTS
    assert challenge.view(table.state, player("s1"))["score_card"]["initials"] == "PK"
    check_replay(table)


def test_the_score_card_is_signed_only_after_the_round_with_no_open_protest_R_ROUND_7():
    table = Table.started(cards=["c1", "c2"])
    assert table.refused("sign_score_card", initials="PK").code == "round_not_over"
    table = ended_round()
    table.do("file_protest", player("s3"), seqs=[3], reason="x")
    assert table.refused("sign_score_card", initials="PK").code == "protests_open"
    table.do("rule_protest", protest=1, upheld=False, ruling_text="no")
    assert table.refused("sign_score_card", player("s1"), initials="PK").code == "not_allowed"
    assert table.refused("sign_score_card", initials="").code == "bad_args"
    table.do("sign_score_card", initials="PK")
    assert table.refused("sign_score_card", initials="PK").code == "score_card_signed"


def test_after_the_signature_protests_and_rulings_are_refused_R_ROUND_7():
    table = ended_round()
    table.do("file_protest", player("s3"), seqs=[3], reason="x")
    table.do("rule_protest", protest=1, upheld=False, ruling_text="no")
    table.do("sign_score_card", initials="PK")
    assert table.refused("file_protest", player("s3"), seqs=[3], reason="x").code == (
        "score_card_signed"
    )
    assert table.refused("rule_protest", protest=1, upheld=True, ruling_text="y").code == (
        "score_card_signed"
    )


def test_only_the_director_reopens_a_signed_score_card_R_ROUND_8():
    table = ended_round()
    assert table.refused("reopen_score_card", DIRECTOR, reason="late").code == "not_signed"
    table.do("sign_score_card", initials="PK")
    assert table.refused("reopen_score_card", PROCTOR, reason="x").code == "not_allowed"
    (event,) = table.do("reopen_score_card", DIRECTOR, reason="a late protest from s3")
    assert event.type == "ScoreCardReopened" and event.data["by"] == "director"
    assert not challenge.is_over(table.state)
    table.advance(60)
    table.do("file_protest", player("s3"), seqs=[3], reason="late")
    table.do(
        "rule_protest",
        DIRECTOR,
        protest=1,
        upheld=True,
        ruling_text="one point",
        corrections=[{"kind": "adjust_score", "seat": "s3", "delta": 1, "why": "late ruling"}],
    )
    (signed,) = table.do("sign_score_card", initials="PK")
    assert signed.data["scores"]["s3"] == 1
    assert signed.data["protests"] == {"filed": 1, "upheld": 1, "rejected": 0}
    assert challenge.is_over(table.state)
    check_replay(table)


# -- preview_ruling: answered, never recorded --------------------------------------------------


def test_preview_ruling_answers_the_outcome_and_records_nothing_R_ROUND_8():
    table = flagged_for_a_right_answer()
    flag_seq = table.seq_of("FlagIssued")
    table.do("file_protest", player("s1"), seqs=[flag_seq], reason="right")
    before = table.state
    args = {
        "protest": 1,
        "upheld": True,
        "ruling_text": "right",
        "corrections": [
            {"kind": "rescind_flag", "seat": "s1", "flag": flag_seq},
            {"kind": "award_card", "seat": "s1", "card": "c1"},
        ],
    }
    answer = challenge.query(table.state, "preview_ruling", args, PROCTOR, table.now)
    assert table.state is before  # nothing recorded, nothing changed
    assert [event["type"] for event in answer["events"]] == [
        "ProtestRuled",
        "FlagRescinded",
        "CardAwarded",
    ]
    assert answer["before"]["flags"]["s1"] == 1 and answer["before"]["scores"]["s1"] == 0
    assert answer["after"]["flags"]["s1"] == 0 and answer["after"]["scores"]["s1"] == 1
    # The preview is what the ruling then records.
    recorded = table.do("rule_protest", **args)
    assert [event.type for event in recorded] == [event["type"] for event in answer["events"]]


def test_preview_ruling_is_refused_as_the_ruling_would_be_R_ROUND_8():
    table = flagged_for_a_right_answer()
    table.do("file_protest", player("s1"), seqs=[3], reason="right")
    args = {"protest": 1, "upheld": True, "ruling_text": "y"}
    cases = [
        ("preview_ruling", args, player("s1"), "not_allowed"),
        ("preview_ruling", args, SPECTATOR, "not_allowed"),
        ("preview_ruling", {**args, "protest": 7}, PROCTOR, "unknown_protest"),
        ("what_if", args, PROCTOR, "unknown_query"),
        ("preview_ruling", ["not", "a", "map"], PROCTOR, "bad_args"),
    ]
    for name, query_args, who, code in cases:
        with pytest.raises(RuleViolation) as refused:
            challenge.query(table.state, name, query_args, who, table.now)
        assert refused.value.code == code, (name, who)


def test_a_protest_disputes_events_with_their_times_R_ROUND_8():
    """The view lists each protest with its seqs; a client shows those events (with their
    times relative to the reveal) as the evidence."""
    table = flagged_for_a_right_answer()
    table.advance(2)
    seq = table.seq_of("CardTouched")
    table.do("file_protest", player("s1"), seqs=[seq], reason="I was first")
    (listed,) = challenge.view(table.state, PROCTOR)["protests"]
    assert listed["seqs"] == [seq] and listed["by"] == "s1" and listed["status"] == "open"
    assert table.events[seq - 2].type == "CardTouched"
    assert listed["at"] - table.events[seq - 2].data["at"] == 2 * S


def test_a_card_never_revealed_or_removed_cannot_be_awarded_R_ROUND_8():
    table = Table.started(seats=3, cards=["c1", "c2", "c4", "c3", "c9"])  # R-DECK-4: c3, c9 out
    table.next_card()
    table.do("file_protest", player("s1"), seqs=[3], reason="x")
    for card, code in (("c4", "card_not_revealed"), ("c9", "unknown_card")):
        refused = table.refused(
            "rule_protest",
            protest=1,
            upheld=True,
            ruling_text="y",
            corrections=[{"kind": "award_card", "seat": "s1", "card": card}],
        )
        assert refused.code == code, card
