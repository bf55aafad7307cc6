"""Every refusal of the 24 Challenge table, exactly: its code, the rule it cites and its message,
as the client receives them (`RuleViolation.as_dict`), from the command that provokes it.

Why exact: clients act on the code, a proctor reads the rule and the message; a refusal whose
message became None or whose rule went missing would reach the wire unnoticed (issue 20).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from challenge_tables import DIRECTOR, PROCTOR, S, Table, options, player

from server.games import challenge
from server.games.base import SERVER_ACTOR, Command, RuleViolation


def fresh() -> Table:
    return Table(options())


def started() -> Table:
    return Table.started()


def placed() -> Table:
    table = Table.started()
    table.do("place_card")
    return table


def revealed() -> Table:
    table = Table.started()
    table.next_card()
    return table


def solving() -> Table:
    """s1 holds the revealed card c1 (1 1 1 8)."""
    table = revealed()
    table.do("touch_card", player("s1"))
    return table


def with_pattern() -> Table:
    table = solving()
    table.do("declare_pattern", player("s1"), pattern="3 × 8")
    return table


def proctored() -> Table:
    table = Table.started(mode="proctored")
    table.next_card()
    return table


def paused() -> Table:
    table = Table.started()
    table.do("pause_table")
    return table


def ended() -> Table:
    table = Table.started()
    table.do("end_round")
    return table


def disqualified() -> Table:
    """s1 has three flags (R-FLAG-3) with c1 revealed."""
    table = revealed()
    for _ in range(3):
        table.do("issue_flag", seat="s1", cause="no_pattern")
        if table.state.card is None:
            table.next_card()
    return table


def stumped() -> Table:
    table = revealed()
    table.do("declare_stumped", player("s1"))
    return table


def foul_later_touch() -> Table:
    """s1 holds c1; s2 touched after it with four fingertips (a foul and a flag, R-PLAY-3)."""
    table = solving()
    table.do("touch_card", player("s2"), fingertips=4)
    return table


def reinstated_from_next_card() -> Table:
    """s1 was disqualified by one flag (limit 1), then reinstated while card 1 is in play."""
    table = Table.started(flag_limit=1)
    table.do("issue_flag", seat="s1", cause="no_pattern")
    table.next_card()
    table.do("file_protest", player("s1"), seqs=[3], reason="x")
    fix = [{"kind": "rescind_flag", "seat": "s1", "flag": 3}]
    table.do("rule_protest", protest=1, upheld=True, ruling_text="y", corrections=fix)
    return table


def protested() -> Table:
    """Protest 1 (by s1, on seq 2) is open; s2 has won card c1 (1 dot)."""
    table = revealed()
    table.win("s2")
    table.do("file_protest", player("s1"), seqs=[2], reason="x")
    return table


def three_protests_by_s1() -> Table:
    table = protested()
    for _ in range(2):
        table.do("file_protest", player("s1"), seqs=[2], reason="again")
    return table


def ruled() -> Table:
    table = protested()
    table.do("rule_protest", protest=1, upheld=False, ruling_text="no")
    return table


def ended_with_a_protest_open() -> Table:
    table = protested()
    table.do("end_round")
    return table


def variables_with_pattern() -> Table:
    """A Variables card (Q1) held by s1, its pattern declared."""
    deck = [{"card_id": "v1", "wheels": [[6, 6, 2], [20, 22, 24]], "dots": 2}]
    table = Table(options(cards=["c1"]) | {"deck": deck})
    table.do("start_round", PROCTOR)
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="12 + 12")
    return table


def signed() -> Table:
    table = ended()
    table.do("sign_score_card", initials="PK")
    return table


def waiting() -> Table:
    """Decision 30: the round started, the table waits for its students."""
    table = Table(options(wait_for_students=True))
    table.do("start_round", PROCTOR)
    return table


def begun() -> Table:
    table = waiting()
    table.do("begin_play", PROCTOR)
    return table


PLAYER1, PLAYER2 = player("s1"), player("s2")
# (given, command, actor, args) -> (code, rule, message)
REFUSED: list[tuple[Callable[[], Table], str, object, dict, tuple[str, str, str]]] = [
    (fresh, "fly", PROCTOR, {}, ("unknown_command", "", "unknown command 'fly'")),
    (
        fresh,
        "start_round",
        PLAYER1,
        {},
        ("not_allowed", "R-PLAY-2", "'player' may not send start_round"),
    ),
    (
        fresh,
        "place_card",
        PROCTOR,
        {},
        ("round_not_started", "R-ROUND-1", "place_card: the round has not started"),
    ),
    (
        started,
        "start_round",
        PROCTOR,
        {},
        ("round_already_started", "R-ROUND-1", "the round has already started"),
    ),
    (
        ended,
        "place_card",
        PROCTOR,
        {},
        ("round_over", "R-ROUND-1", "place_card: the round has ended"),
    ),
    (
        fresh,
        "start_round",
        PROCTOR,
        {"order": ["c1"]},
        ("bad_args", "", "start_round: 'order' is a permutation of the deck's card ids"),
    ),
    (placed, "place_card", PROCTOR, {}, ("card_in_play", "R-PLAY-1", "a card is already in play")),
    (
        started,
        "touch_card",
        PLAYER1,
        {},
        ("no_card_in_play", "R-PLAY-1", "touch_card: no card is in play"),
    ),
    (
        started,
        "reveal_card",
        PROCTOR,
        {},
        ("no_card_placed", "R-PLAY-1", "place a card before revealing it"),
    ),
    (
        revealed,
        "reveal_card",
        PROCTOR,
        {},
        ("already_revealed", "R-PLAY-1", "the card is already revealed"),
    ),
    (
        placed,
        "declare_stumped",
        PLAYER1,
        {},
        ("card_not_revealed", "R-PLAY-1", "declare_stumped: the card has not been revealed"),
    ),
    (
        revealed,
        "declare_pattern",
        PLAYER1,
        {"pattern": "3 × 8"},
        ("no_touch_in_progress", "R-PLAY-2", "declare_pattern: nobody holds the card"),
    ),
    (
        solving,
        "declare_stumped",
        PLAYER2,
        {},
        ("touch_in_progress", "R-PLAY-2", "declare_stumped: a student holds the card"),
    ),
    (
        revealed,
        "touch_card",
        PROCTOR,
        {"seat": "s1"},
        ("not_allowed", "R-PLAY-2", "touch_card: at a networked table students send it themselves"),
    ),
    (
        revealed,
        "touch_card",
        PLAYER1,
        {"seat": "s2"},
        ("not_your_seat", "R-PLAY-2", "player 's1' cannot act for seat 's2'"),
    ),
    (revealed, "touch_card", player("s9"), {}, ("unknown_seat", "", "no seat 's9' at this table")),
    (
        proctored,
        "touch_card",
        PLAYER1,
        {},
        ("not_allowed", "R-PLAY-2", "touch_card: at a proctored table the proctor records it"),
    ),
    (
        proctored,
        "touch_card",
        PROCTOR,
        {},
        ("seat_required", "R-PLAY-2", "touch_card: name the 'seat'"),
    ),
    (
        proctored,
        "touch_card",
        PROCTOR,
        {"seat": "s7"},
        ("unknown_seat", "", "touch_card: no seat 's7' at this table"),
    ),
    (
        disqualified,
        "touch_card",
        PLAYER1,
        {},
        ("disqualified", "R-FLAG-4", "seat s1 is disqualified (R-FLAG-4)"),
    ),
    (
        disqualified,
        "issue_flag",
        PROCTOR,
        {"seat": "s1", "cause": "no_pattern"},
        ("disqualified", "R-FLAG-4", "seat s1 is disqualified (R-FLAG-4)"),
    ),
    (
        solving,
        "touch_card",
        PLAYER1,
        {},
        ("already_touched", "R-PLAY-2", "seat s1's touch on this card is recorded"),
    ),
    (
        revealed,
        "touch_card",
        PLAYER1,
        {"fingertips": 0},
        ("bad_args", "", "touch_card: 'fingertips' is a whole number 1..10"),
    ),
    (
        solving,
        "declare_pattern",
        PLAYER2,
        {"pattern": "3 × 8"},
        ("not_toucher", "R-PLAY-2", "seat s2 did not touch first; s1 did"),
    ),
    (
        solving,
        "declare_pattern",
        PLAYER1,
        {"pattern": 38},
        ("bad_args", "", "declare_pattern: 'pattern' is a text of 1..200 characters"),
    ),
    (
        solving,
        "declare_pattern",
        PLAYER1,
        {"pattern": "3 . 8"},
        (
            "bad_pattern",
            "R-PUZ-3",
            "pattern: unexpected '.' at position 3: decimals are not allowed; "
            "write fractions as n/d, e.g. 8/3",
        ),
    ),
    (
        with_pattern,
        "declare_pattern",
        PLAYER1,
        {"pattern": "8 × 3"},
        ("pattern_cannot_change", "R-PLAY-5", "the pattern '3 × 8' is declared"),
    ),
    (
        solving,
        "state_steps",
        PLAYER1,
        {"steps": ["1 + 1 = 2"]},
        ("pattern_first", "R-PLAY-4", "announce the pattern before the steps (R-PLAY-4)"),
    ),
    (
        with_pattern,
        "state_steps",
        PLAYER1,
        {"steps": "1 + 1 = 2"},
        (
            "bad_args",
            "",
            "state_steps: 'steps' is a list of 1..3 texts of 1..200 characters (R-PUZ-2)",
        ),
    ),
    (
        with_pattern,
        "fix_solution",
        PLAYER1,
        {},
        ("no_steps", "R-PLAY-5", "state the steps before fixing the solution"),
    ),
    (
        variables_with_pattern,
        "fix_solution",
        PLAYER1,
        {"steps": ["6 * 2 = 12"]},
        ("no_x", "R-PLAY-5", "name x (1..9) before fixing a Variables card's solution"),
    ),
    (
        solving,
        "override_first_touch",
        PROCTOR,
        {"seat": "s1"},
        ("already_first", "R-PLAY-2", "seat s1 already holds the card"),
    ),
    (
        solving,
        "override_first_touch",
        PROCTOR,
        {},
        ("seat_required", "R-PLAY-2", "override_first_touch: name the 'seat'"),
    ),
    (
        stumped,
        "declare_stumped",
        PLAYER1,
        {},
        ("already_stumped", "R-PLAY-7", "seat s1 already declared stumped"),
    ),
    (
        revealed,
        "issue_flag",
        PROCTOR,
        {"seat": "s1", "cause": "rudeness"},
        (
            "bad_args",
            "",
            "issue_flag: 'cause' is one of no_pattern, no_solution, incorrect_solution, "
            "too_many_fingertips, touched_before_reveal",
        ),
    ),
    (
        revealed,
        "issue_flag",
        PROCTOR,
        {"seat": "s5", "cause": "no_pattern"},
        ("unknown_seat", "", "issue_flag: no seat 's5' at this table"),
    ),
    (paused, "place_card", PROCTOR, {}, ("table_paused", "", "place_card: the table is paused")),
    (paused, "pause_table", PROCTOR, {}, ("already_paused", "", "paused since: proctor")),
    (started, "resume_table", PROCTOR, {}, ("not_paused", "", "the table is not paused")),
    (
        started,
        "pause_table",
        PROCTOR,
        {"cause": "x" * 65},
        ("bad_args", "", "pause_table: 'cause' is a text of 1..64 characters"),
    ),
    (
        revealed,
        "no_touch_deadline",
        SERVER_ACTOR,
        {"key": "no_touch:1:0"},
        ("stale_deadline", "", "no_touch_deadline: 'no_touch:1:0' is not a live deadline"),
    ),
    (
        foul_later_touch,
        "override_first_touch",
        PROCTOR,
        {"seat": "s2"},
        ("foul_touch", "R-PLAY-2", "seat s2 touched with more than three fingertips (R-PLAY-3)"),
    ),
    (
        reinstated_from_next_card,
        "touch_card",
        PLAYER1,
        {},
        ("not_yet_reinstated", "R-ROUND-8", "seat s1 plays again from play 2"),
    ),
    (
        protested,
        "file_protest",
        PLAYER1,
        {"seqs": [99], "reason": "x"},
        ("unknown_seq", "R-ROUND-8", "file_protest: no event 99 at this table (2..10)"),
    ),
    (
        three_protests_by_s1,
        "file_protest",
        PLAYER1,
        {"seqs": [2], "reason": "x"},
        ("too_many_protests", "R-ROUND-8", "s1 has 3 open protests"),
    ),
    (
        protested,
        "rule_protest",
        PROCTOR,
        {"protest": 9, "upheld": True, "ruling_text": "y"},
        ("unknown_protest", "R-ROUND-8", "rule_protest: no protest 9 at this table"),
    ),
    (
        ruled,
        "rule_protest",
        PROCTOR,
        {"protest": 1, "upheld": True, "ruling_text": "y"},
        ("already_ruled", "R-ROUND-8", "protest 1 is already rejected"),
    ),
    (
        protested,
        "rule_protest",
        PROCTOR,
        {
            "protest": 1,
            "upheld": False,
            "ruling_text": "y",
            "corrections": [{"kind": "adjust_score", "seat": "s1", "delta": 1, "why": "x"}],
        },
        ("bad_correction", "R-ROUND-8", "a rejected protest corrects nothing"),
    ),
    (
        protested,
        "rule_protest",
        PROCTOR,
        {
            "protest": 1,
            "upheld": True,
            "ruling_text": "y",
            "corrections": [{"kind": "rescind_flag", "seat": "s1", "flag": 2}],
        },
        ("unknown_flag", "R-ROUND-8", "seat s1 has no standing flag at seq 2"),
    ),
    (
        protested,
        "rule_protest",
        PROCTOR,
        {
            "protest": 1,
            "upheld": True,
            "ruling_text": "y",
            "corrections": [{"kind": "rescind_slap", "seat": "s1"}],
        },
        ("no_slap", "R-ROUND-8", "seat s1 is not disqualified for a slap"),
    ),
    (
        protested,
        "rule_protest",
        PROCTOR,
        {
            "protest": 1,
            "upheld": True,
            "ruling_text": "y",
            "corrections": [{"kind": "award_card", "seat": "s1", "card": "zz"}],
        },
        ("unknown_card", "R-ROUND-8", "award_card: no card 'zz' in this table's deck"),
    ),
    (
        protested,
        "rule_protest",
        PROCTOR,
        {
            "protest": 1,
            "upheld": True,
            "ruling_text": "y",
            "corrections": [{"kind": "award_card", "seat": "s1", "card": "c1"}],
        },
        ("card_already_won", "R-ROUND-8", "card 'c1' is won by seat s2"),
    ),
    (
        protested,
        "rule_protest",
        PROCTOR,
        {
            "protest": 1,
            "upheld": True,
            "ruling_text": "y",
            "corrections": [{"kind": "revoke_card", "seat": "s1", "card": "c1"}],
        },
        ("card_not_won", "R-ROUND-8", "seat s1 has not won card 'c1'"),
    ),
    (
        protested,
        "rule_protest",
        PROCTOR,
        {
            "protest": 1,
            "upheld": True,
            "ruling_text": "y",
            "corrections": [{"kind": "adjust_score", "seat": "s2", "delta": -2, "why": "x"}],
        },
        ("negative_score", "R-ROUND-8", "seat s2 has 1 points; -2 is too many"),
    ),
    (
        started,
        "sign_score_card",
        PROCTOR,
        {"initials": "PK"},
        ("round_not_over", "R-ROUND-7", "sign_score_card: the round has not ended"),
    ),
    (
        ended_with_a_protest_open,
        "sign_score_card",
        PROCTOR,
        {"initials": "PK"},
        ("protests_open", "R-ROUND-8", "protest(s) [1] are open: rule on them first"),
    ),
    (
        signed,
        "file_protest",
        PLAYER1,
        {"seqs": [2], "reason": "x"},
        ("score_card_signed", "R-ROUND-7", "file_protest: the score card is signed"),
    ),
    (
        ended,
        "reopen_score_card",
        DIRECTOR,
        {"reason": "late"},
        ("not_signed", "R-ROUND-7", "reopen_score_card: the score card is not signed"),
    ),
    (
        waiting,
        "place_card",
        PROCTOR,
        {},
        (
            "waiting_for_students",
            "",
            "place_card: the table waits for its students (begin_play starts it)",
        ),
    ),
    (
        waiting,
        "begin_play",
        SERVER_ACTOR,
        {"seats": ["s1", "s2", "s3"]},
        ("students_missing", "", "begin_play: waiting for Di"),
    ),
    (
        begun,
        "begin_play",
        PROCTOR,
        {},
        ("play_begun", "", "begin_play: play has begun at this table"),
    ),
]


@pytest.mark.parametrize(
    "given, name, actor, args, refusal",
    REFUSED,
    ids=[f"{row[4][0]}-{row[1]}" for row in REFUSED],
)
def test_every_refusal_is_exact(given, name, actor, args, refusal):
    table = given()
    refused = table.refused(name, actor, **args)
    code, rule, message = refusal
    assert refused.as_dict() == {"code": code, "rule": rule, "message": message}
    assert rule == challenge.REFUSALS[code][0]  # the rule documented for the code


def test_every_refusal_code_of_a_command_is_provoked_above():
    """Every code of `REFUSALS` but the three decided outside a command's handlers
    (bad_options: initial_state; too_late and deadline_not_due: tests/unit/test_limits.py)."""
    provoked = {row[4][0] for row in REFUSED}
    outside = {"bad_options", "too_late", "deadline_not_due"}
    outside.add("unknown_query")  # a query, not a command: tests/unit/test_challenge_protests.py
    assert provoked == set(challenge.REFUSALS) - outside


def test_arguments_that_are_not_a_map_are_refused():
    table = started()
    with pytest.raises(RuleViolation) as caught:
        challenge.decide(table.state, Command("place_card", ["c1"], PROCTOR), table.now)
    assert caught.value.as_dict() == {
        "code": "bad_args",
        "rule": "",
        "message": "place_card: arguments are a map",
    }


def test_bad_options_are_refused_before_anything_is_recorded():
    with pytest.raises(RuleViolation) as caught:
        challenge.initial_state(options(seats=2))
    assert caught.value.as_dict() == {
        "code": "bad_options",
        "rule": "",
        "message": "option 'seats': a list of 3 or 4 seats (R-ROUND-2)",
    }


def test_a_deadline_fired_early_is_not_due_and_names_its_time():
    table = revealed()
    deadline = table.deadline("no_touch_deadline")
    table.now = deadline.at - 2 * S
    refused = table.refused("no_touch_deadline", SERVER_ACTOR, **deadline.command.args)
    assert refused.as_dict() == {
        "code": "deadline_not_due",
        "rule": "",
        "message": f"{deadline.key} is due at {deadline.at}, now is {table.now}",
    }


def test_an_unknown_query_and_query_arguments_that_are_not_a_map_are_refused_exactly():
    table = started()
    with pytest.raises(RuleViolation) as unknown:
        challenge.query(table.state, "weather", {}, PROCTOR, table.now)
    assert unknown.value.as_dict() == {
        "code": "unknown_query",
        "rule": "",
        "message": "unknown query 'weather'",
    }
    with pytest.raises(RuleViolation) as not_a_map:
        challenge.query(table.state, "preview_ruling", ["x"], PROCTOR, table.now)
    assert not_a_map.value.as_dict() == {
        "code": "bad_args",
        "rule": "",
        "message": "preview_ruling: arguments are a map",
    }
