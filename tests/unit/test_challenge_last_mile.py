"""The 24 Challenge table's last mile (issue 28): given events, when a command, then events.
Each test cites the rule id it enforces.

- R-PLAY-3 + R-ROUND-8: a slap ("grounds for disqualification") can be lifted by a ruling
  (`rescind_slap`), as a flag can be rescinded.
- R-PLAY-3: a later touch with more than three fingertips draws the flag too (the seed's
  cause names no first touch); the card stays with its toucher.
- R-PUZ-3, R-PLAY-5: a pattern and steps said in words ("3 times 8").
- R-PUZ-2: a bracketed stated result wins the card (it used to be a flag).
- R-PLAY-7 (decision 14): the stumped pile returned by a ruling's award does not move the
  next automatic placing.
"""

from __future__ import annotations

from challenge_tables import (
    ANSWERS,
    PROCTOR,
    WRONG_STEPS,
    S,
    Table,
    player,
    seat_of,
    types,
)

from server.games import challenge

# -- R-PLAY-3 + R-ROUND-8: a slap ruled wrong is lifted ----------------------------------------


def slapped(**more) -> Table:
    """s2 touched c1 with five fingertips (a typing error, or a client's bug): disqualified."""
    table = Table.started(cards=["c1", "c2", "c3"], **more)
    table.next_card()
    table.do("touch_card", player("s2"), fingertips=5)
    return table


def rule(table: Table, *corrections: dict, protest: int = 1) -> list:
    return table.do(
        "rule_protest",
        protest=protest,
        upheld=True,
        ruling_text="the slap was a typing error",
        corrections=list(corrections),
    )


def test_a_slap_ruled_wrong_is_lifted_and_the_student_plays_from_the_next_card_R_PLAY_3():
    table = slapped()
    slap = table.seq_of("PlayerDisqualified")
    table.do("file_protest", player("s2"), seqs=[slap], reason="I typed 5 for 1")
    table.advance(2)
    events = rule(table, {"kind": "rescind_slap", "seat": "s2"})
    assert types(events) == ["ProtestRuled", "PlayerReinstated"]
    assert events[1].data == {
        "at": table.now,
        "seat": "s2",
        "flags": 0,
        "from_play": 2,
        "rule": "R-ROUND-8",
    }
    s2 = seat_of(table.state, "s2")
    assert (s2.disqualified, s2.disqualified_cause, s2.reinstated_from) == (False, None, 2)
    table.next_card()  # play 2: s2 plays again
    assert types(table.do("touch_card", player("s2"))) == ["CardTouched"]
    assert table.replayed() == table.state


def test_a_slap_lifted_while_a_card_is_in_play_counts_from_the_next_card_R_ROUND_8():
    table = slapped()
    table.next_card()  # play 2 in play
    table.do("file_protest", player("s2"), seqs=[table.seq_of("PlayerDisqualified")], reason="x")
    rule(table, {"kind": "rescind_slap", "seat": "s2"})
    assert seat_of(table.state, "s2").reinstated_from == 3
    assert table.refused("touch_card", player("s2")).code == "not_yet_reinstated"


def test_a_lifted_slap_keeps_the_flags_the_student_held_R_FLAG_3():
    table = Table.started(cards=["c1", "c2", "c3"], flag_limit=2)
    table.do("issue_flag", seat="s2", cause="no_pattern")
    table.do("rule_slap", seat="s2")  # the proctor's own ruling, at a physical table
    table.do("file_protest", PROCTOR, seqs=[table.seq_of("PlayerDisqualified")], reason="x")
    events = rule(table, {"kind": "rescind_slap", "seat": "s2"})
    assert events[1].data["flags"] == 1
    s2 = seat_of(table.state, "s2")
    assert not s2.disqualified and s2.flags == 1
    # one more flag reaches the limit again (R-FLAG-3)
    kept = table.do("issue_flag", seat="s2", cause="no_pattern")
    assert types(kept) == ["FlagIssued", "PlayerDisqualified"]
    assert kept[1].data["cause"] == "flag_limit"


def test_only_a_slap_s_disqualification_is_lifted_by_rescind_slap_R_ROUND_8():
    table = Table.started(cards=["c1", "c2", "c3"], flag_limit=1)
    table.do("issue_flag", seat="s1", cause="no_pattern")  # s1: the flag limit's
    table.do("file_protest", PROCTOR, seqs=[table.seq_of("FlagIssued")], reason="x")
    for seat, why in (("s1", "s1"), ("s3", "s3")):  # the flag limit's; not disqualified
        refused = table.refused(
            "rule_protest",
            protest=1,
            upheld=True,
            ruling_text="no",
            corrections=[{"kind": "rescind_slap", "seat": seat}],
        )
        assert (refused.code, refused.rule, refused.message) == (
            "no_slap",
            "R-ROUND-8",
            f"seat {why} is not disqualified for a slap",
        )
    unknown = table.refused(
        "rule_protest",
        protest=1,
        upheld=True,
        ruling_text="no",
        corrections=[{"kind": "rescind_slap", "seat": "s9"}],
    )
    assert unknown.code == "unknown_seat"


def test_a_slap_can_be_lifted_once_and_previewed_first_R_ROUND_8():
    table = slapped()
    table.do("file_protest", player("s2"), seqs=[table.seq_of("PlayerDisqualified")], reason="x")
    args = {
        "protest": 1,
        "upheld": True,
        "ruling_text": "typing error",
        "corrections": [{"kind": "rescind_slap", "seat": "s2"}],
    }
    preview = challenge.query(table.state, "preview_ruling", args, PROCTOR, table.now)
    assert preview["before"]["disqualified"] == ["s2"] and preview["after"]["disqualified"] == []
    table.do("rule_protest", **args)
    table.do("file_protest", player("s2"), seqs=[table.seq_of("PlayerDisqualified")], reason="y")
    again = table.refused("rule_protest", **{**args, "protest": 2})
    assert again.code == "no_slap"


# -- R-PLAY-3: a later touch with more than three fingertips draws the flag ------------------


def test_a_later_touch_with_four_fingertips_draws_the_flag_and_the_card_stays_R_PLAY_3():
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    table.do("touch_card", player("s1"))
    events = table.do("touch_card", player("s2"), fingertips=4)
    assert types(events) == ["TouchRefused", "FlagIssued"]
    assert events[1].data == {
        "at": table.now,
        "seat": "s2",
        "cause": "too_many_fingertips",
        "rule": "R-PLAY-3",
        "flags": 1,
        "card_id": "c1",
        "revealed": True,
        "play": None,  # the card stays with s1 (decision 5)
    }
    assert table.state.card.toucher == "s1"
    table.do("declare_pattern", player("s1"), pattern=ANSWERS["c1"][2])
    won = table.do("fix_solution", player("s1"), steps=ANSWERS["c1"][3])
    assert "CardWon" in types(won)


def test_a_later_foul_touch_can_reach_the_flag_limit_R_FLAG_3():
    table = Table.started(cards=["c1", "c2"], flag_limit=1)
    table.next_card()
    table.do("touch_card", player("s1"))
    events = table.do("touch_card", player("s3"), fingertips=9)
    assert types(events) == ["TouchRefused", "PlayerDisqualified"]  # nine: a slap
    events = table.do("touch_card", player("s4"), fingertips=4)
    assert types(events) == ["TouchRefused", "FlagIssued", "PlayerDisqualified"]
    assert events[2].data["cause"] == "flag_limit"
    assert table.state.card.toucher == "s1"
    assert table.replayed() == table.state


def test_a_later_touch_with_three_fingertips_draws_nothing_R_PLAY_3():
    table = Table.started(cards=["c1", "c2"])
    table.next_card()
    table.do("touch_card", player("s1"))
    assert types(table.do("touch_card", player("s2"), fingertips=3)) == ["TouchRefused"]


# -- R-PUZ-3, R-PLAY-5: words at the table ----------------------------------------------------


def test_a_pattern_said_in_words_is_declared_and_wins_R_PUZ_3():
    table = Table.started(cards=["c1", "c8"])
    table.next_card()
    table.do("touch_card", player("s1"))
    declared = table.do("declare_pattern", player("s1"), pattern="3 times 8")
    assert declared[0].data["pattern"] == "3 times 8"  # as said
    assert declared[0].data["canonical"] == "3 × 8"  # as read
    steps = ["1 plus 1 equals 2", "2 plus 1 makes 3", "3 times 8 is 24"]
    assert "CardWon" in types(table.do("fix_solution", player("s1"), steps=steps))
    table.next_card()  # c8: 7 7 1 24
    table.do("touch_card", player("s2"))
    table.do("declare_pattern", player("s2"), pattern="24 divided by 1")
    steps = ["7 minus 7 = 0", "0 plus 1 = 1", "24 divided by 1 = 24"]
    assert "CardWon" in types(table.do("fix_solution", player("s2"), steps=steps))


def test_a_misspelt_pattern_is_still_bad_pattern_and_may_be_said_again_R_PUZ_3():
    table = Table.started(cards=["c1"])
    table.next_card()
    table.do("touch_card", player("s1"))
    refused = table.refused("declare_pattern", player("s1"), pattern="3 timez 8")
    assert (refused.code, refused.rule) == ("bad_pattern", "R-PUZ-3")
    assert types(table.do("declare_pattern", player("s1"), pattern="3 times 8")) == [
        "PatternDeclared"
    ]


# -- R-PUZ-2: a bracketed stated result wins --------------------------------------------------


def test_a_bracketed_stated_result_wins_the_card_R_PUZ_2():
    table = Table.started(cards=["c2"])
    table.next_card()  # 3 3 8 8
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="8 ÷ 1/3")
    steps = ["8 ÷ 3 = 8/3", "3 - 8/3 = (1/3)", "8 ÷ (1/3) = 24"]
    events = table.do("fix_solution", player("s1"), steps=steps)
    assert types(events)[:3] == ["SolutionFixed", "SolutionJudged", "CardWon"]
    assert "FlagIssued" not in types(events)


# -- R-PLAY-7, decision 14: the stumped pile returned by a ruling ---------------------------------


def test_a_ruling_that_returns_the_stumped_pile_leaves_the_next_placing_where_it_was_R_PLAY_7():
    """Given auto_proctor 5 s, c1 stumped and c2 returned to the deck by a flag at t, when a
    ruling at t + 2 s awards c2 (the deck is empty: the stumped pile goes back under it),
    then the next card is still placed at t + 5 s: the ruling resolved no card (decision 14)."""
    table = Table.started(cards=["c1", "c2"], auto_proctor=5)
    table.fire("place_card")
    table.fire("reveal_card")
    table.fire("no_touch_deadline")  # c1 stumped
    table.fire("place_card")
    table.fire("reveal_card")
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="3 × 8")
    table.advance(1)
    table.do("fix_solution", player("s1"), steps=WRONG_STEPS)  # c2 back in the deck
    resolved = table.now
    assert table.live() == {"place_card": resolved + 5 * S}
    table.do("file_protest", player("s1"), seqs=[table.seq_of("FlagIssued")], reason="right")
    table.advance(2)
    events = table.do(
        "rule_protest",
        protest=1,
        upheld=True,
        ruling_text="the steps were right",
        corrections=[
            {"kind": "rescind_flag", "seat": "s1", "flag": table.seq_of("FlagIssued")},
            {"kind": "award_card", "seat": "s1", "card": "c2"},
        ],
    )
    assert types(events) == ["ProtestRuled", "FlagRescinded", "CardAwarded", "StumpedCardsReturned"]
    assert table.state.deck == ("c1",)
    assert table.live() == {"place_card": resolved + 5 * S}
    assert table.replayed() == table.state
    placed = table.fire("place_card")
    assert placed[0].data["at"] == resolved + 5 * S and placed[0].data["card_id"] == "c1"
