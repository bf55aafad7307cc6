"""Every refusal of a pocket table, exactly: its code, the rule it cites and its message, as the
client receives them (`RuleViolation.as_dict`), from the command that provokes it; and both
sides of every window edge and argument limit (issue 20).

Why exact: clients act on the code, players read the rule and the message; a refusal whose
message became None or whose rule went missing would reach the wire unnoticed. Why both sides:
an answer window or a deadline moved by one microsecond decides who wins a card (R-POCKET-3).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from casual_tables import DIRECTOR, PROCTOR, SPECTATOR, T0, S, Table, player, pocket_options

from server.games import pocket
from server.games.base import DEADLINE_EARLY_US, SERVER_ACTOR, Actor, Command, RuleViolation
from server.puzzles.expressions import MAX_TEXT

S1, S2, S3 = player("s1"), player("s2"), player("s3")
RIGHT = "(1 + 1 + 1) × 8"  # card p1: 1 1 1 8
TEXT_LIMIT = f"'expression' is a text of 1..{MAX_TEXT} characters"


def fresh() -> Table:
    return Table(pocket, pocket_options(3, ["p1", "p2"]))


def started() -> Table:
    """Three players; card p1 (1 1 1 8) is up."""
    return Table.started(pocket, pocket_options(3, ["p1", "p2"]))


def s1_claimed() -> Table:
    table = started()
    table.do("claim", S1)
    return table


def s1_excluded() -> Table:
    table = started()
    table.do("answer", S1, expression="1 + 1 + 1 + 8")
    return table


def s2_stumped() -> Table:
    table = started()
    table.do("declare_stumped", S2)
    return table


def card_2() -> Table:
    """Card 1 (p1) won by s2; card 2 (p2: 3 3 8 8) is up."""
    table = started()
    table.do("answer", S2, expression=RIGHT, set=1)
    return table


def paused() -> Table:
    table = started()
    table.do("pause_game", DIRECTOR, cause="tea")
    return table


def ended() -> Table:
    table = started()
    table.do("end_game", DIRECTOR)
    return table


# (given, command, actor, args) -> (code, rule, message)
REFUSED: list[tuple[Callable[[], Table], str, Actor, dict, tuple[str, str, str]]] = [
    (started, "shuffle", S1, {}, ("unknown_command", "", "unknown command 'shuffle'")),
    (started, "claim", SPECTATOR, {}, ("not_allowed", "", "'spectator' may not send claim")),
    (started, "answer", PROCTOR, {}, ("not_allowed", "", "'proctor' may not send answer")),
    (started, "end_game", S1, {}, ("not_allowed", "", "'player' may not send end_game")),
    (started, "pause_game", S1, {}, ("not_allowed", "", "'player' may not send pause_game")),
    (
        started,
        "stumped_deadline",
        DIRECTOR,
        {"key": "x"},
        ("not_allowed", "", "'director' may not send stumped_deadline"),
    ),
    (
        started,
        "claim",
        S1,
        {"seat": "s2"},
        ("not_your_seat", "", "player 's1' cannot act for seat 's2'"),
    ),
    (
        started,
        "declare_stumped",
        player("s9"),
        {},
        ("unknown_seat", "", "no seat 's9' at this table"),
    ),
    (fresh, "start_game", player("s9"), {}, ("unknown_seat", "", "no seat 's9' at this table")),
    (paused, "resume_game", player("s9"), {}, ("unknown_seat", "", "no seat 's9' at this table")),
    (
        fresh,
        "claim",
        S1,
        {},
        ("game_not_started", "R-POCKET-1", "claim: the game has not started"),
    ),
    (
        fresh,
        "pause_game",
        DIRECTOR,
        {},
        ("game_not_started", "R-POCKET-1", "pause_game: the game has not started"),
    ),
    (
        started,
        "start_game",
        S2,
        {},
        ("game_already_started", "R-POCKET-1", "start_game: the game has already started"),
    ),
    (ended, "claim", S1, {}, ("game_over", "R-POCKET-5", "claim: the game has ended")),
    (ended, "end_game", DIRECTOR, {}, ("game_over", "R-POCKET-5", "end_game: the game has ended")),
    (started, "answer", S1, {}, ("bad_args", "", f"answer: {TEXT_LIMIT}")),
    (started, "answer", S1, {"expression": ["1"]}, ("bad_args", "", f"answer: {TEXT_LIMIT}")),
    (started, "answer", S1, {"expression": "  "}, ("bad_args", "", f"answer: {TEXT_LIMIT}")),
    (
        started,
        "answer",
        S1,
        {"expression": "1" * (MAX_TEXT + 1)},
        ("bad_args", "", f"answer: {TEXT_LIMIT}"),
    ),
    (
        s1_excluded,
        "claim",
        S1,
        {},
        ("excluded", "R-POCKET-3", "seat s1 is out of card 1 (R-POCKET-3)"),
    ),
    (
        s1_excluded,
        "answer",
        S1,
        {"expression": RIGHT},
        ("excluded", "R-POCKET-3", "seat s1 is out of card 1 (R-POCKET-3)"),
    ),
    (
        s1_excluded,
        "declare_stumped",
        S1,
        {},
        ("excluded", "R-POCKET-3", "seat s1 is out of card 1 (R-POCKET-3)"),
    ),
    (
        s1_claimed,
        "claim",
        S1,
        {},
        ("already_claimed", "R-POCKET-3", "seat s1's claim is running; answer it"),
    ),
    (
        s1_claimed,
        "declare_stumped",
        S1,
        {},
        ("already_claimed", "R-POCKET-3", "seat s1's claim is running; answer it"),
    ),
    (
        s1_claimed,
        "claim",
        S2,
        {},
        ("claim_in_progress", "R-POCKET-3", "seat s1 claimed card 1 first"),
    ),
    (
        s1_claimed,
        "answer",
        S2,
        {"expression": RIGHT},
        ("claim_in_progress", "R-POCKET-3", "seat s1 claimed card 1 first"),
    ),
    (
        s2_stumped,
        "declare_stumped",
        S2,
        {},
        ("already_stumped", "R-POCKET-4", "seat s2 already declared stumped"),
    ),
    (paused, "claim", S1, {}, ("game_paused", "", "claim: the game is paused")),
    (
        paused,
        "answer",
        S1,
        {"expression": RIGHT},
        ("game_paused", "", "answer: the game is paused"),
    ),
    (paused, "pause_game", DIRECTOR, {}, ("already_paused", "", "paused since: tea")),
    (started, "resume_game", S1, {}, ("not_paused", "", "the game is not paused")),
    (
        started,
        "stumped_deadline",
        SERVER_ACTOR,
        {"key": "stumped:1:0"},
        ("stale_deadline", "", "stumped_deadline: 'stumped:1:0' is not a live deadline"),
    ),
    (
        s1_claimed,
        "answer_deadline",
        SERVER_ACTOR,
        {"key": f"answer:1:{T0}"},
        ("deadline_not_due", "", f"answer:1:{T0} is due at {T0 + 15 * S}, now is {T0}"),
    ),
    # a claim, an answer or "stumped" names the card it is for (`set`): one that crossed the
    # next card's turn-up is not judged
    *[
        (
            card_2,
            name,
            S1,
            {"expression": RIGHT, "set": 1},
            ("stale_set", "R-POCKET-3", f"{name} is for card 1, but card 2 is up (R-POCKET-3)"),
        )
        for name in ("claim", "answer", "declare_stumped")
    ],
    (  # the claimer's own answer is checked too
        s1_claimed,
        "answer",
        S1,
        {"expression": RIGHT, "set": 2},
        ("stale_set", "R-POCKET-3", "answer is for card 2, but card 1 is up (R-POCKET-3)"),
    ),
    (  # the card is read first: nothing else of a command for another card is looked at
        s1_excluded,
        "claim",
        S1,
        {"set": 0},
        ("stale_set", "R-POCKET-3", "claim is for card 0, but card 1 is up (R-POCKET-3)"),
    ),
    (
        started,
        "answer",
        S1,
        {"set": 2},
        ("stale_set", "R-POCKET-3", "answer is for card 2, but card 1 is up (R-POCKET-3)"),
    ),
    *[
        (
            started,
            name,
            S1,
            {"expression": RIGHT, "set": shape},
            ("bad_args", "", f"{name}: 'set' is the number of a card"),
        )
        for name in ("claim", "answer", "declare_stumped")
        for shape in ["1", 1.0, True, False, [1], {"set": 1}]
    ],
]


@pytest.mark.parametrize(
    ("given", "name", "actor", "args", "refusal"),
    REFUSED,
    ids=[f"{row[1]}-{row[4][0]}-{index}" for index, row in enumerate(REFUSED)],
)
def test_every_refusal_exactly(given, name, actor, args, refusal):
    table = given()
    code, rule, message = refusal
    assert table.refused(name, actor, **args).as_dict() == {
        "code": code,
        "rule": rule,
        "message": message,
    }


def test_arguments_that_are_not_a_map_are_refused_before_anything_else():
    state = started().state
    with pytest.raises(RuleViolation) as caught:
        pocket.decide(state, Command("claim", ["s1"], SPECTATOR), 0)  # type: ignore[arg-type]
    assert caught.value.as_dict() == {
        "code": "bad_args",
        "rule": "",
        "message": "claim: arguments are a map",
    }


def test_an_answer_at_the_last_microsecond_of_the_window_is_judged():
    """R-POCKET-3: the window is [claim, claim + answer_seconds)."""
    table = s1_claimed()
    table.advance(15).now -= 1
    events = table.do("answer", S1, expression=RIGHT)
    assert [event.type for event in events] == ["AnswerJudged", "CardWon", "CardTurnedUp"]


def test_an_answer_at_the_windows_end_is_too_late():
    table = s1_claimed()
    table.advance(15)
    assert table.refused("answer", S1, expression=RIGHT).as_dict() == {
        "code": "too_late",
        "rule": "R-POCKET-3",
        "message": "card 1: the answer came after its window (R-POCKET-3)",
    }
    late = table.do("answer_deadline", SERVER_ACTOR, key=f"answer:1:{T0}")
    assert [(event.type, event.data["seat"], event.data["reason"]) for event in late] == [
        ("PlayerExcluded", "s1", "late")
    ]


def test_a_deadline_fired_a_little_early_counts_at_its_time_and_no_earlier():
    """The shell's timer may fire up to DEADLINE_EARLY_US early: recorded at its due time;
    one microsecond earlier it is refused as not due."""
    due = T0 + 15 * S
    table = s1_claimed()
    table.now = due - DEADLINE_EARLY_US - 1
    assert table.refused("answer_deadline", SERVER_ACTOR, key=f"answer:1:{T0}").code == (
        "deadline_not_due"
    )
    table.now = due - DEADLINE_EARLY_US
    (excluded,) = table.do("answer_deadline", SERVER_ACTOR, key=f"answer:1:{T0}")
    assert excluded.data["at"] == due and table.state.clock == due


def test_a_stumped_deadline_fires_only_while_the_card_is_open():
    table = Table.started(pocket, pocket_options(2, ["p1", "p2"], stumped_seconds=30))
    table.do("claim", S1)
    key = f"stumped:1:{T0}"
    assert table.refused("stumped_deadline", SERVER_ACTOR, key=key).as_dict() == {
        "code": "stale_deadline",
        "rule": "",
        "message": f"stumped_deadline: {key!r} is not a live deadline",
    }


def test_the_spoken_answer_is_1_to_MAX_TEXT_characters_after_trimming():
    longest = "(1 + 1 + 1) ×" + " " * (MAX_TEXT - 14) + "8"
    assert len(longest) == MAX_TEXT
    events = started().do("answer", S1, expression=f"\t{longest} ")
    assert events[1].data["expression"] == longest and events[1].data["ok"] is True
    events = started().do("answer", S2, expression="8")
    assert events[1].data["expression"] == "8" and events[1].data["ok"] is False


def test_a_player_may_name_his_own_seat_start_the_game_and_resume_it():
    table = fresh()
    assert [event.type for event in table.do("start_game", S1)] == ["GameStarted", "CardTurnedUp"]
    assert table.do("claim", S2, seat="s2")[0].data["seat"] == "s2"
    table.do("pause_game", PROCTOR)
    assert [event.type for event in table.do("resume_game", S3)] == ["GameResumed"]


def test_the_clock_never_runs_backwards():
    table = started()
    table.advance(10)
    table.do("declare_stumped", S1)
    table.now -= 5 * S
    events = table.do("claim", S2)
    assert events[0].data["at"] == T0 + 10 * S and table.state.card.claim_at == T0 + 10 * S


def test_the_director_may_end_a_paused_game():
    table = paused()
    assert [event.type for event in table.do("end_game", DIRECTOR)] == ["GameEnded"]
    assert table.state.paused is False and table.state.pause_cause is None
