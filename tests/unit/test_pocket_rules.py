"""Given/when/then tests of the pocket edition's casual play, one or more per rule id
(R-POCKET-1..5, shared/rules/casual-24.md) and one per refusal code."""

from __future__ import annotations

import pytest
from casual_tables import (
    AUDITOR,
    DIRECTOR,
    POCKET_ANSWERS,
    POCKET_WRONG,
    PROCTOR,
    SPECTATOR,
    Table,
    one,
    player,
    pocket_options,
    types,
)

from server.games import pocket
from server.games.base import SERVER_ACTOR, Actor, Event, RuleViolation
from server.games.pocket.options import stack_from_edition
from server.games.pocket.refusals import REFUSALS

S1, S2, S3 = player("s1"), player("s2"), player("s3")


def started(seats: int = 3, cards: list[str] | None = None, **more) -> Table:
    return Table.started(pocket, pocket_options(seats, cards, **more))


def answer(table: Table) -> str:
    assert table.state.card is not None
    return POCKET_ANSWERS[table.state.card.card.card_id][2]


# -- R-POCKET-1: the stack, the players, all at once ------------------------------------------


def test_r_pocket_1_start_records_the_stack_in_order_and_turns_up_its_top_card():
    table = Table(pocket, pocket_options(3, ["p2", "p1", "p3"]))
    events = table.do("start_game", S1)
    assert types(events) == ["GameStarted", "CardTurnedUp"]
    assert [card["card_id"] for card in one(events, "GameStarted")["stack"]] == ["p2", "p1", "p3"]
    turned = one(events, "CardTurnedUp")
    assert (turned["card_id"], turned["numbers"], turned["dots"], turned["left"]) == (
        "p2",
        [3, 3, 8, 8],
        3,
        2,
    )
    assert table.state.phase == "open"


def test_r_pocket_1_a_stack_drawn_from_an_edition_has_the_size_and_dots_asked_for():
    stack = stack_from_edition("single-digits", 7, 10, [1])
    assert len(stack) == 10 and {card.dots for card in stack} == {1}
    table = Table.started(pocket, {"seats": [{"seat": "s1"}], "seed": 7, "size": 10, "dots": [1]})
    recorded = one(table.events, "GameStarted")["stack"]
    assert [card["card_id"] for card in recorded] == [card.card_id for card in stack]


def test_r_pocket_1_the_size_is_only_a_suggestion_any_size_up_to_96_sides():
    table = Table.started(pocket, {"seats": [{"seat": "s1"}], "size": 96})
    assert len(one(table.events, "GameStarted")["stack"]) == 96
    assert len({card["card_id"] for card in one(table.events, "GameStarted")["stack"]}) == 96
    with pytest.raises(RuleViolation) as caught:
        pocket.initial_state({"seats": [{"seat": "s1"}], "size": 97})
    assert caught.value.code == "invalid_options"


@pytest.mark.parametrize("count", [1, 8])
def test_r_pocket_1_one_player_practises_and_up_to_eight_play(count):
    table = started(count)
    assert len(table.state.seats) == count


@pytest.mark.parametrize(
    "bad",
    [
        {"seats": []},
        {"seats": [{"seat": f"s{i}"} for i in range(9)]},
        {"seats": [{"seat": "s1"}, {"seat": "s1"}]},
        {"seats": [{"seat": "s1"}], "dots": [4]},
        {"seats": [{"seat": "s1"}], "dots": []},
        {"seats": [{"seat": "s1"}], "edition": "triple-digits"},
        {"seats": [{"seat": "s1"}], "answer_seconds": 0},
        {"seats": [{"seat": "s1"}], "stack": [{"card_id": "x", "numbers": [1, 2], "dots": 1}]},
        {"seats": [{"seat": "s1"}], "colour": "red"},
        "not a map",
    ],
)
def test_r_pocket_1_bad_options_are_refused_before_anything_is_recorded(bad):
    with pytest.raises(RuleViolation) as caught:
        pocket.initial_state(bad)
    assert caught.value.code == "invalid_options"


# -- R-POCKET-2: first right answer wins the card's dots ------------------------------------


def test_r_pocket_2_a_right_free_form_answer_wins_the_card_and_its_dots():
    table = started(3, ["p4", "p1"])
    events = table.do("answer", S2, expression="(5 + 3 - 2) × 4")  # run-on and brackets
    assert types(events) == ["ClaimMade", "AnswerJudged", "CardWon", "CardTurnedUp"]
    won = one(events, "CardWon")
    assert (won["seat"], won["card_id"], won["points"]) == ("s2", "p4", 1)
    assert table.state.scores() == {"s1": 0, "s2": 1, "s3": 0}


def test_r_pocket_2_answers_are_judged_exactly_with_fractions():
    table = started(3, ["p2"])
    events = table.do("answer", S1, expression="8 ÷ (3 − 8 ÷ 3)")
    assert one(events, "CardWon")["points"] == 3


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("23 + 5 - 4", "joined_digits"),
        ("2 + 3 + 4 + 5", "not_24"),
        ("(5 + 3 - 2) × 4 × 2", "wrong_numbers"),
        ("5 + 3 - 2) × 4", "syntax"),
    ],
)
def test_r_pocket_2_a_wrong_answer_is_recorded_with_its_reason(text, reason):
    table = started(3, ["p4"])
    events = table.do("answer", S1, expression=text)
    judged = one(events, "AnswerJudged")
    assert (judged["ok"], judged["reason"]) == (False, reason)


def test_r_pocket_2_an_answer_ending_with_equals_24_wins_the_card():
    """Given the card 2 3 4 5, when a player answers `(5 + 3 - 2) × 4 = 24` (as people and
    other solvers write it), then the answer is right and wins the card (issue 28: it was
    `syntax`, and excluded the player)."""
    table = started(3, ["p4", "p1"])
    events = table.do("answer", S1, expression="(5 + 3 - 2) × 4 = 24")
    assert one(events, "AnswerJudged")["ok"] is True
    assert one(events, "CardWon")["seat"] == "s1"


# -- R-POCKET-3: claim, answer in time, wrong or late excludes from this card only -----------


def test_r_pocket_3_a_claim_holds_the_card_and_the_answer_window_opens():
    table = started(3, ["p1", "p3"], answer_seconds=10)
    events = table.do("claim", S1)
    assert types(events) == ["ClaimMade"]
    (deadline,) = pocket.deadlines(table.state)
    assert deadline.command.name == "answer_deadline" and deadline.at == table.now + 10_000_000
    table.advance(9.9)
    assert one(table.do("answer", S1, expression=answer(table)), "CardWon")["seat"] == "s1"


def test_r_pocket_3_a_wrong_answer_excludes_from_this_card_only_and_the_others_play_on():
    table = started(3, ["p1", "p3"])
    table.do("claim", S1)
    events = table.do("answer", S1, expression=POCKET_WRONG)
    assert one(events, "PlayerExcluded") | {"at": 0} == {
        "at": 0,
        "seat": "s1",
        "reason": "wrong",
        "number": 1,
        "rule": "R-POCKET-3",
    }
    assert table.refused("claim", S1).code == "excluded"
    table.do("answer", S2, expression=answer(table))  # the others keep playing for it
    assert table.state.card.card.card_id == "p3" and table.state.card.excluded == ()
    assert one(table.do("answer", S1, expression=answer(table)), "CardWon")["seat"] == "s1"


def test_r_pocket_3_no_answer_in_time_excludes_the_claimer_as_late():
    table = started(3, ["p1"])
    table.do("claim", S2)
    table.advance(15)
    assert table.refused("answer", S2, expression=answer(table)).code == "too_late"
    events = table.fire("answer_deadline")
    assert one(events, "PlayerExcluded")["reason"] == "late"
    assert table.state.phase == "open" and table.state.card.excluded == ("s2",)


def test_r_pocket_3_simultaneous_claims_go_by_arrival_order():
    table = started(3, ["p1"])
    table.do("claim", S3)
    assert table.refused("claim", S1).code == "claim_in_progress"
    assert table.refused("answer", S1, expression=answer(table)).code == "claim_in_progress"
    assert table.refused("claim", S3).code == "already_claimed"
    table.do("answer", S3, expression=POCKET_WRONG)
    assert types(table.do("claim", S1)) == ["ClaimMade"]


def test_r_pocket_3_an_answer_that_crossed_the_next_card_is_refused_not_judged_on_it():
    """s1 and s2 both solve card 1; s2's answer arrives first and card 2 turns up. s1's answer,
    sent for card 1, arrives after: refused `stale_set`, nothing recorded, s1 still in card 2;
    nor do a claim or "stumped" for card 1 hold card 2 or count on it."""
    table = started(3, ["p1", "p2"])
    table.do("answer", S2, expression=POCKET_ANSWERS["p1"][2], set=1)
    assert table.state.card.number == 2
    recorded = list(table.events)
    for name in ("answer", "claim", "declare_stumped"):
        refusal = table.refused(name, S1, expression=POCKET_ANSWERS["p1"][2], set=1)
        assert refusal.code == "stale_set"
    card = table.state.card
    assert table.events == recorded
    assert (card.claimer, card.excluded, card.stumped) == (None, (), ())
    won = one(table.do("answer", S1, expression=answer(table), set=2), "CardWon")
    assert (won["seat"], won["number"]) == ("s1", 2)


def test_r_pocket_3_without_a_set_an_answer_is_for_the_card_up():
    """Old clients: the same crossed answer without `set` is judged on card 2 (wrong, out)."""
    table = started(3, ["p1", "p2"])
    table.do("answer", S2, expression=POCKET_ANSWERS["p1"][2])
    events = table.do("answer", S1, expression=POCKET_ANSWERS["p1"][2])
    assert types(events) == ["ClaimMade", "AnswerJudged", "PlayerExcluded"]
    assert one(events, "AnswerJudged")["number"] == 2 and table.state.card.excluded == ("s1",)


@pytest.mark.parametrize("named", [{"set": 1}, {"set": None}])
@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("claim", {}),
        ("answer", {"expression": POCKET_ANSWERS["p1"][2]}),
        ("answer", {"expression": POCKET_WRONG}),
        ("declare_stumped", {}),
    ],
)
def test_r_pocket_3_a_command_naming_the_card_up_is_decided_as_one_naming_none(name, args, named):
    """A claim, a right or wrong answer, "stumped": naming card 1 (the card up) or none
    (`None`) records the same events and leaves the same state as leaving `set` out."""
    plain = started(2, ["p1", "p2"])
    expected = plain.do(name, S1, **args)
    table = started(2, ["p1", "p2"])
    assert table.do(name, S1, **args, **named) == expected
    assert table.state == plain.state


def test_r_pocket_3_the_claimers_answer_naming_his_card_is_judged():
    table = started(2, ["p1", "p2"])
    table.do("claim", S1, set=1)
    assert types(table.do("answer", S1, expression=answer(table), set=1))[:2] == [
        "AnswerJudged",
        "CardWon",
    ]


# -- R-POCKET-4: stumped by everyone -> bonus card for the next winner ------------------------


def test_r_pocket_4_a_card_that_stumps_every_player_waits_as_a_bonus_card():
    table = started(2, ["p2", "p1", "p3"])
    table.do("declare_stumped", S1)
    assert table.refused("declare_stumped", S1).code == "already_stumped"
    events = table.do("declare_stumped", S2)
    assert one(events, "CardSetAside")["reason"] == "all_stumped"
    assert [card.card_id for card in table.state.bonus] == ["p2"]
    won = one(table.do("answer", S2, expression=answer(table)), "CardWon")
    assert (won["bonus"], won["bonus_dots"], won["points"]) == (["p2"], 3, 4)
    assert table.state.bonus == () and table.state.seat("s2").cards_won == ("p1", "p2")


def test_r_pocket_4_excluded_players_need_not_agree_and_nobody_left_sets_it_aside():
    table = started(2, ["p1", "p3"])
    table.do("answer", S1, expression=POCKET_WRONG)
    assert one(table.do("declare_stumped", S2), "CardSetAside")["reason"] == "all_stumped"
    table.do("answer", S1, expression=POCKET_WRONG)
    events = table.do("answer", S2, expression=POCKET_WRONG)
    assert one(events, "CardSetAside")["reason"] == "all_excluded"


def test_r_pocket_4_the_stumped_timeout_is_an_option_off_by_default():
    assert pocket.deadlines(started(2, ["p1"]).state) == []
    table = started(2, ["p1", "p3"], stumped_seconds=60)
    table.do("claim", S1)  # a claim holds the timeout back
    assert [d.command.name for d in pocket.deadlines(table.state)] == ["answer_deadline"]
    table.do("answer", S1, expression=POCKET_WRONG)  # the window restarts from the exclusion
    (deadline,) = pocket.deadlines(table.state)
    assert deadline.at == table.now + 60_000_000
    assert one(table.fire("stumped_deadline"), "CardSetAside")["reason"] == "timeout"


def test_r_pocket_4_bonus_cards_left_at_the_end_are_reported_unclaimed():
    table = started(1, ["p1", "p2"])
    table.do("declare_stumped", S1)
    events = table.do("declare_stumped", S1)
    ended = one(events, "GameEnded")
    assert ended["unclaimed_bonus"] == ["p1", "p2"] and ended["scores"] == {"s1": 0}


def test_r_pocket_4_a_stumped_declaration_that_crossed_the_next_card_does_not_count():
    """s1 is stumped on card 1 (3 3 8 8) but s2 solves it first; s1's "stumped" for card 1
    arrives once card 2 (1 1 1 8) is up: refused, so s2's "stumped" on card 2 does not set it
    aside (s1 has not declared on card 2); without `set` it would have counted."""
    table = started(2, ["p2", "p1"])
    table.do("answer", S2, expression=POCKET_ANSWERS["p2"][2], set=1)
    assert table.refused("declare_stumped", S1, set=1).code == "stale_set"
    assert types(table.do("declare_stumped", S2, set=2)) == ["StumpedDeclared"]
    old_client = started(2, ["p2", "p1"])
    old_client.do("answer", S2, expression=POCKET_ANSWERS["p2"][2])
    old_client.do("declare_stumped", S1)
    assert "CardSetAside" in types(old_client.do("declare_stumped", S2))


# -- R-POCKET-5: the stack used up ends the game; most points wins; ties are ties ------------


def test_r_pocket_5_the_game_ends_when_the_stack_is_used_up_and_most_points_wins():
    table = started(3, ["p1", "p2"])
    table.do("answer", S1, expression=answer(table))
    events = table.do("answer", S2, expression=answer(table))
    ended = one(events, "GameEnded")
    assert ended["reason"] == "stack_used_up" and ended["winners"] == ["s2"]
    assert ended["tie"] is False and pocket.is_over(table.state)
    assert events[-1].type in pocket.FINAL_EVENTS
    assert table.refused("claim", S1).code == "game_over"


def test_r_pocket_5_equal_top_scores_are_shown_as_a_tie():
    table = started(3, ["p1", "p5"])
    table.do("answer", S1, expression=answer(table))
    ended = one(table.do("answer", S3, expression=answer(table)), "GameEnded")
    assert ended["winners"] == ["s1", "s3"] and ended["tie"] is True


def test_r_pocket_5_the_director_may_end_the_game_early_and_players_may_not():
    table = started(3, ["p1", "p2", "p3"])
    assert table.refused("end_game", S1).code == "not_allowed"
    ended = one(table.do("end_game", DIRECTOR), "GameEnded")
    assert ended["reason"] == "ended_by_director" and ended["unplayed"] == ["p1", "p2", "p3"]


# -- the shell's timers and recovery ----------------------------------------------------------


def test_recovery_pauses_the_game_and_a_resume_restarts_the_answer_window_in_full():
    table = started(2, ["p1"], stumped_seconds=60)
    table.do("claim", S1)
    table.advance(14)
    assert pocket.RECOVERY_COMMAND == "pause_game"
    events = table.do("pause_game", SERVER_ACTOR, cause="server_restart")
    assert types(events) == ["GamePaused"] and pocket.deadlines(table.state) == []
    assert table.refused("answer", S1, expression=answer(table)).code == "game_paused"
    assert table.refused("pause_game", DIRECTOR).code == "already_paused"
    assert pocket.view(table.state, S2)["paused"] is True
    table.advance(100)
    assert types(table.do("resume_game", S2)) == ["GameResumed"]
    (deadline,) = pocket.deadlines(table.state)
    assert deadline.at == table.now + 15_000_000
    assert table.refused("resume_game", S2).code == "not_paused"
    assert table.refused("pause_game", S1).code == "not_allowed"
    assert table.refused("pause_game", DIRECTOR, cause="").code == "bad_args"


def test_a_stale_or_early_deadline_is_refused():
    table = started(2, ["p1"])
    table.do("claim", S1)
    (deadline,) = pocket.deadlines(table.state)
    early = table.refused("answer_deadline", SERVER_ACTOR, **deadline.command.args)
    assert early.code == "deadline_not_due"
    table.do("answer", S1, expression=POCKET_WRONG)
    stale = table.refused("answer_deadline", SERVER_ACTOR, **deadline.command.args)
    assert stale.code == "stale_deadline"


# -- refusals ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "actor", "args", "code"),
    [
        ("shuffle", S1, {}, "unknown_command"),
        ("answer", S1, {}, "bad_args"),
        ("answer", S1, {"expression": "x" * 201}, "bad_args"),
        ("claim", SPECTATOR, {}, "not_allowed"),
        ("claim", PROCTOR, {}, "not_allowed"),
        ("answer_deadline", S1, {"key": "answer:1:0"}, "not_allowed"),
        ("claim", S1, {"seat": "s2"}, "not_your_seat"),
        ("claim", player("s9"), {}, "unknown_seat"),
        ("start_game", S1, {}, "game_already_started"),
    ],
)
def test_refusals_of_a_running_game(name, actor, args, code):
    table = started(3, ["p1", "p2"])
    violation = table.refused(name, actor, **args)
    assert violation.code == code and violation.rule == REFUSALS[code][0]


def test_refusals_before_the_start():
    table = Table(pocket, pocket_options(2, ["p1"]))
    assert table.refused("claim", S1).code == "game_not_started"
    assert table.refused("start_game", player("s9")).code == "unknown_seat"
    assert table.refused("start_game", SPECTATOR).code == "not_allowed"


def test_arguments_that_are_not_a_map_are_refused():
    table = started(2, ["p1"])
    from server.games.base import Command

    with pytest.raises(RuleViolation) as caught:
        pocket.decide(table.state, Command("claim", ["s1"], S1), table.now)  # type: ignore[arg-type]
    assert caught.value.code == "bad_args"


def test_every_refusal_code_is_documented_with_a_rule_and_a_meaning():
    assert all(isinstance(rule, str) and meaning for rule, meaning in REFUSALS.values())


# -- who sees what ----------------------------------------------------------------------------


def test_players_and_spectators_never_see_the_stack_the_director_does():
    table = started(2, ["p1", "p2", "p3"])
    for viewer in (S1, SPECTATOR):
        snapshot = pocket.view(table.state, viewer)
        assert "stack" not in snapshot and snapshot["stack_left"] == 2
        started_event = pocket.event_view(table.events[0], viewer)
        assert started_event.data["stack"] == 3
    assert [c["card_id"] for c in pocket.view(table.state, DIRECTOR)["stack"]] == ["p2", "p3"]
    assert pocket.event_view(table.events[0], AUDITOR) == table.events[0]


def test_the_table_created_options_hide_the_stack_and_the_seed_from_players():
    created = Event("TableCreated", {"game": "pocket", "options": pocket_options(2) | {"seed": 3}})
    seen = pocket.event_view(created, S1).data["options"]
    assert seen["stack"] == len(POCKET_ANSWERS) and "seed" not in seen
    assert pocket.event_view(created, Actor("director")) == created


def test_replay_of_the_log_is_the_live_state():
    table = started(3, ["p1", "p2", "p3"])
    table.do("declare_stumped", S1)
    table.do("claim", S2)
    table.do("answer", S2, expression=POCKET_WRONG)
    table.do("answer", S3, expression=answer(table))
    assert table.replayed() == table.state
