"""Golden event payloads of the pocket edition's casual play: given these events, when this
command, then exactly these whole events, every field, the way an auditor reads the log; and
the live timers whole, their keys and times at each window edge (issue 20).

Why whole events: the log is the audit record. Tests that check only an event's type or the
fields `evolve` reads let a payload field (a `rule`, a card's `number`, `left`, `bonus_dots`,
`unplayed`) be set to None or changed unnoticed, and a replay would not notice either. Rule ids
are from shared/rules/casual-24.md (R-POCKET-*).
"""

from __future__ import annotations

from typing import Any

from casual_tables import DIRECTOR, T0, S, Table, player, pocket_options, seats_data

from server.games import pocket
from server.games.base import SERVER_ACTOR, Command, Deadline, Event

S1, S2, S3 = player("s1"), player("s2"), player("s3")
P1 = {"card_id": "p1", "numbers": [1, 1, 1, 8], "dots": 1}
P2 = {"card_id": "p2", "numbers": [3, 3, 8, 8], "dots": 3}
P3 = {"card_id": "p3", "numbers": [2, 2, 2, 3], "dots": 2}


def then(events: list[Event], expected: list[tuple[str, dict[str, Any]]]) -> None:
    """Then: exactly these events, in order, with exactly these payloads."""
    assert [(event.type, dict(event.data)) for event in events] == expected


def at(table: Table, **data: Any) -> dict[str, Any]:
    """An event payload recorded at the table's `now`."""
    return {"at": table.now, **data}


def timer(kind: str, number: int, anchor: int, due: int) -> Deadline:
    """A live timer as `deadlines` derives it: keyed by its window, fired by the server."""
    key = f"{kind}:{number}:{anchor}"
    return Deadline(key, due, Command(f"{kind}_deadline", {"key": key}, SERVER_ACTOR))


def public(players: int, **more: Any) -> dict[str, Any]:
    """`PocketOptions.public_data()` as `GameStarted` records it: the defaults, then `more`."""
    recorded = {
        "seats": seats_data(players),
        "edition": "single-digits",
        "size": 24,
        "dots": [1, 2, 3],
        "answer_seconds": 15.0,
        "stumped_seconds": None,
    }
    recorded.update(more)
    return recorded


def test_a_game_of_three_cards_as_the_auditor_reads_it():
    """R-POCKET-1..5: the stack recorded, a claim answered wrong, a card stumping everybody,
    an answer without a claim winning the bonus card, a late claimer, the stumped timeout,
    the stack used up with a bonus card unclaimed."""
    table = Table(
        pocket, pocket_options(3, ["p1", "p2", "p3"], answer_seconds=10, stumped_seconds=60)
    )
    then(
        table.do("start_game", S3),
        [
            (
                "GameStarted",
                at(
                    table,
                    stack=[P1, P2, P3],
                    options=public(3, answer_seconds=10.0, stumped_seconds=60.0),
                    rule="R-POCKET-1",
                ),
            ),
            ("CardTurnedUp", at(table, **P1, number=1, left=2, rule="R-POCKET-1")),
        ],
    )
    assert pocket.deadlines(table.state) == [timer("stumped", 1, T0, T0 + 60 * S)]
    table.advance(1)
    then(
        table.do("claim", S1),
        [("ClaimMade", at(table, seat="s1", number=1, rule="R-POCKET-3"))],
    )
    assert pocket.deadlines(table.state) == [timer("answer", 1, T0 + S, T0 + 11 * S)]
    table.advance(2)
    then(
        table.do("answer", S1, expression=" 1+1+1+8 "),
        [
            (
                "AnswerJudged",
                at(
                    table,
                    seat="s1",
                    expression="1+1+1+8",
                    ok=False,
                    reason="not_24",
                    message="1+1+1+8 makes 11, not 24",
                    number=1,
                    rule="R-POCKET-2",
                ),
            ),
            ("PlayerExcluded", at(table, seat="s1", reason="wrong", number=1, rule="R-POCKET-3")),
        ],
    )
    # the failed claim restarts the others' stumped window from its time
    assert pocket.deadlines(table.state) == [timer("stumped", 1, T0 + 3 * S, T0 + 63 * S)]
    then(
        table.do("declare_stumped", S2),
        [("StumpedDeclared", at(table, seat="s2", number=1, rule="R-POCKET-4"))],
    )
    then(
        table.do("declare_stumped", S3),
        [
            ("StumpedDeclared", at(table, seat="s3", number=1, rule="R-POCKET-4")),
            (
                "CardSetAside",
                at(
                    table,
                    card_id="p1",
                    dots=1,
                    number=1,
                    reason="all_stumped",
                    rule="R-POCKET-4",
                ),
            ),
            ("CardTurnedUp", at(table, **P2, number=2, left=1, rule="R-POCKET-1")),
        ],
    )
    table.advance(1)
    then(
        table.do("answer", S2, expression="8 ÷ (3 − 8 ÷ 3)"),
        [
            ("ClaimMade", at(table, seat="s2", number=2, rule="R-POCKET-3")),
            (
                "AnswerJudged",
                at(
                    table,
                    seat="s2",
                    expression="8 ÷ (3 − 8 ÷ 3)",
                    ok=True,
                    reason="",
                    message="correct",
                    number=2,
                    rule="R-POCKET-2",
                ),
            ),
            (
                "CardWon",
                at(
                    table,
                    seat="s2",
                    card_id="p2",
                    dots=3,
                    bonus=["p1"],
                    bonus_dots=1,
                    points=4,
                    number=2,
                    rule="R-POCKET-4",
                ),
            ),
            ("CardTurnedUp", at(table, **P3, number=3, left=0, rule="R-POCKET-1")),
        ],
    )
    assert table.state.seat("s2").cards_won == ("p2", "p1") and table.state.bonus == ()
    table.advance(1)
    table.do("claim", S3)
    table.advance(10)
    then(
        table.fire("answer_deadline"),
        [("PlayerExcluded", at(table, seat="s3", reason="late", number=3, rule="R-POCKET-3"))],
    )
    assert pocket.deadlines(table.state) == [timer("stumped", 3, T0 + 15 * S, T0 + 75 * S)]
    then(
        table.fire("stumped_deadline"),
        [
            (
                "CardSetAside",
                at(table, card_id="p3", dots=2, number=3, reason="timeout", rule="R-POCKET-4"),
            ),
            (
                "GameEnded",
                at(
                    table,
                    reason="stack_used_up",
                    scores={"s1": 0, "s2": 4, "s3": 0},
                    winners=["s2"],
                    tie=False,
                    unclaimed_bonus=["p3"],
                    unplayed=[],
                    rule="R-POCKET-5",
                ),
            ),
        ],
    )
    assert table.state.clock == T0 + 75 * S and pocket.deadlines(table.state) == []
    assert table.replayed() == table.state


def test_a_card_nobody_may_play_any_more_is_set_aside_and_an_early_end_is_a_tie():
    """R-POCKET-3/4/5: every player excluded sets the card aside; the director's end leaves
    the top card and the stack unplayed; equal top scores are a tie."""
    table = Table.started(pocket, pocket_options(2, ["p1", "p2", "p3"]))
    table.do("answer", S1, expression="8 - 1 - 1 - 1")
    then(
        table.do("answer", S2, expression="8 * 1 * 1 * 1"),
        [
            ("ClaimMade", at(table, seat="s2", number=1, rule="R-POCKET-3")),
            (
                "AnswerJudged",
                at(
                    table,
                    seat="s2",
                    expression="8 * 1 * 1 * 1",
                    ok=False,
                    reason="not_24",
                    message="8 * 1 * 1 * 1 makes 8, not 24",
                    number=1,
                    rule="R-POCKET-2",
                ),
            ),
            ("PlayerExcluded", at(table, seat="s2", reason="wrong", number=1, rule="R-POCKET-3")),
            (
                "CardSetAside",
                at(
                    table,
                    card_id="p1",
                    dots=1,
                    number=1,
                    reason="all_excluded",
                    rule="R-POCKET-4",
                ),
            ),
            ("CardTurnedUp", at(table, **P2, number=2, left=1, rule="R-POCKET-1")),
        ],
    )
    assert pocket.deadlines(table.state) == []  # no stumped timeout by default
    table.advance(30)
    then(
        table.do("end_game", DIRECTOR),
        [
            (
                "GameEnded",
                at(
                    table,
                    reason="ended_by_director",
                    scores={"s1": 0, "s2": 0},
                    winners=["s1", "s2"],
                    tie=True,
                    unclaimed_bonus=["p1"],
                    unplayed=["p2", "p3"],
                    rule="R-POCKET-5",
                ),
            )
        ],
    )
    assert [card.card_id for card in table.state.stack] == ["p2", "p3"]
    assert table.replayed() == table.state


def test_a_pause_stops_every_timer_and_the_resume_restarts_them_in_full():
    """The shell's recovery: nobody loses time to a pause; both windows restart at the
    resume (the claim's answer window, and the stumped window behind it)."""
    table = Table.started(pocket, pocket_options(2, ["p1"], stumped_seconds=30))
    table.advance(5)
    table.do("claim", S1)
    table.advance(14)
    then(
        table.do("pause_game", SERVER_ACTOR, cause="server_restart"),
        [("GamePaused", at(table, cause="server_restart"))],
    )
    assert pocket.deadlines(table.state) == []
    table.advance(100)
    then(table.do("resume_game", S2), [("GameResumed", at(table, cause="server_restart"))])
    shown = pocket.view(table.state, S1)
    assert (shown["paused"], shown["pause_cause"]) == (False, None)
    resumed = T0 + 119 * S
    assert pocket.deadlines(table.state) == [timer("answer", 1, resumed, resumed + 15 * S)]
    table.advance(15)
    table.fire("answer_deadline")
    assert pocket.deadlines(table.state) == [timer("stumped", 1, table.now, table.now + 30 * S)]
    table.do("pause_game", DIRECTOR)
    table.advance(1)
    table.do("resume_game", DIRECTOR)
    assert pocket.deadlines(table.state) == [timer("stumped", 1, table.now, table.now + 30 * S)]
    assert table.replayed() == table.state


def test_a_game_ended_before_its_start_leaves_the_whole_stack_unplayed():
    table = Table(pocket, pocket_options(1, ["p1", "p2"]))
    then(
        table.do("end_game", DIRECTOR),
        [
            (
                "GameEnded",
                at(
                    table,
                    reason="ended_by_director",
                    scores={"s1": 0},
                    winners=["s1"],
                    tie=False,
                    unclaimed_bonus=[],
                    unplayed=[],
                    rule="R-POCKET-5",
                ),
            )
        ],
    )
    assert pocket.is_over(table.state) and table.state.end_reason == "ended_by_director"


def test_the_last_card_won_without_bonus_ends_the_game_with_nothing_unplayed():
    """R-POCKET-2/5: a card won with no bonus waiting scores its dots (R-POCKET-2); winning
    the last card uses the stack up: nothing is left unplayed or unclaimed."""
    table = Table.started(pocket, pocket_options(2, ["p3"]))
    table.advance(1)
    then(
        table.do("answer", S2, expression="2 * 2 * 2 * 3")[2:],
        [
            (
                "CardWon",
                at(
                    table,
                    seat="s2",
                    card_id="p3",
                    dots=2,
                    bonus=[],
                    bonus_dots=0,
                    points=2,
                    number=1,
                    rule="R-POCKET-2",
                ),
            ),
            (
                "GameEnded",
                at(
                    table,
                    reason="stack_used_up",
                    scores={"s1": 0, "s2": 2},
                    winners=["s2"],
                    tie=False,
                    unclaimed_bonus=[],
                    unplayed=[],
                    rule="R-POCKET-5",
                ),
            ),
        ],
    )
    assert table.state.card is None and table.state.stack == ()
    assert table.replayed() == table.state


def test_commands_that_crossed_the_next_card_record_nothing_and_keep_the_timers():
    """R-POCKET-3/4: commands name the card they are for (`set`); the one naming the card up
    is recorded exactly as one without; s1's answer, claim and "stumped" for card 1, arriving
    after s2 won it, record nothing, change nothing and leave card 2's timer as it was; s1's
    claim and answer for card 2 are judged on card 2, whole."""
    table = Table.started(pocket, pocket_options(2, ["p1", "p2"], stumped_seconds=60))
    table.advance(1)
    then(
        table.do("answer", S2, expression="(1+1+1)*8", set=1),
        [
            ("ClaimMade", at(table, seat="s2", number=1, rule="R-POCKET-3")),
            (
                "AnswerJudged",
                at(
                    table,
                    seat="s2",
                    expression="(1+1+1)*8",
                    ok=True,
                    reason="",
                    message="correct",
                    number=1,
                    rule="R-POCKET-2",
                ),
            ),
            (
                "CardWon",
                at(
                    table,
                    seat="s2",
                    card_id="p1",
                    dots=1,
                    bonus=[],
                    bonus_dots=0,
                    points=1,
                    number=1,
                    rule="R-POCKET-2",
                ),
            ),
            ("CardTurnedUp", at(table, **P2, number=2, left=0, rule="R-POCKET-1")),
        ],
    )
    live = [timer("stumped", 2, T0 + S, T0 + 61 * S)]
    assert pocket.deadlines(table.state) == live
    recorded, state = list(table.events), table.state
    table.advance(1)
    crossed = [("answer", {"expression": "(1+1+1)*8"}), ("claim", {}), ("declare_stumped", {})]
    for name, args in crossed:
        assert table.refused(name, S1, **args, set=1).code == "stale_set"
    assert table.events == recorded and table.state == state
    assert pocket.deadlines(table.state) == live
    then(
        table.do("claim", S1, set=2),
        [("ClaimMade", at(table, seat="s1", number=2, rule="R-POCKET-3"))],
    )
    then(
        table.do("answer", S1, expression="8/(3-8/3)", set=2)[:1],
        [
            (
                "AnswerJudged",
                at(
                    table,
                    seat="s1",
                    expression="8/(3-8/3)",
                    ok=True,
                    reason="",
                    message="correct",
                    number=2,
                    rule="R-POCKET-2",
                ),
            )
        ],
    )
