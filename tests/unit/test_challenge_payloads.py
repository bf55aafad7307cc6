"""Golden event payloads of the 24 Challenge table: given these events, when this command, then
exactly these whole events, every field, the way an auditor reads the log (issue 20).

Why whole events: the log is the audit record. Tests that check only an event's type or the
fields `evolve` reads let a payload field (`play`, `rule`, `flags`, a touch's fingertips, a
judgement's `value`) be set to None or changed unnoticed, and a replay would not notice either.
Rule ids are from shared/rules/24-challenge.md.
"""

from __future__ import annotations

from typing import Any

from challenge_tables import PROCTOR, S, Table, options, player

from server.games.base import Event

SEATS4 = [
    {"seat": "s1", "name": "Ada"},
    {"seat": "s2", "name": "Bo"},
    {"seat": "s3", "name": "Cy"},
    {"seat": "s4", "name": "Di"},
]


def options_data(seats: list[dict[str, str]], **more: Any) -> dict[str, Any]:
    """`TableOptions.as_data()` as recorded in `RoundStarted`: the defaults, durations in s."""
    recorded = {
        "seats": seats,
        "round": 1,
        "pattern_seconds": 3.0,
        "solution_seconds": 15.0,
        "no_touch_seconds": 15.0,
        "stumped_cards": "replay_at_end",  # R-PLAY-7's default (issue 10)
        "mode": "networked",
        "flag_limit": 3,
        "auto_proctor": None,
        "auto_reveal_seconds": 1.0,
        "casual": False,  # R-PUZ-4 (issue 10)
        "round_seconds": None,
        "min_seats": 3,
    }
    recorded.update(more)
    return recorded


def then(events: list[Event], expected: list[tuple[str, dict[str, Any]]]) -> None:
    """Then: exactly these events, in order, with exactly these payloads."""
    assert [(event.type, dict(event.data)) for event in events] == expected


def at(table: Table, **data: Any) -> dict[str, Any]:
    """An event payload recorded at the table's `now`."""
    return {"at": table.now, **data}


def test_a_networked_round_as_the_auditor_reads_it():
    """R-ROUND-1, R-PLAY-1..7, R-FLAG-1/2, R-PUZ-2: every event of a four-student round."""
    table = Table(options(cards=["c1", "c2", "c3"], stumped_cards="set_aside"))
    then(
        table.do("start_round"),
        [
            (
                "RoundStarted",
                at(
                    table,
                    round=1,
                    deck=["c1", "c2", "c3"],
                    removed=[],
                    seats=SEATS4,
                    options=options_data(SEATS4, stumped_cards="set_aside"),
                    rule="R-ROUND-1",
                ),
            )
        ],
    )
    # play 1: c1 is won by s1 (R-PLAY-2, R-PLAY-4, R-PLAY-5, R-PLAY-6)
    table.advance(1)
    card_c1 = {"card_id": "c1", "numbers": [1, 1, 1, 8], "dots": 1}
    then(table.do("place_card"), [("CardPlaced", at(table, **card_c1, play=1, rule="R-PLAY-1"))])
    table.advance(1)
    then(table.do("reveal_card"), [("CardRevealed", at(table, **card_c1, play=1, rule="R-PLAY-1"))])
    table.advance(1)
    then(
        table.do("touch_card", player("s1")),  # fingertips default to 1
        [("CardTouched", at(table, seat="s1", fingertips=1, play=1, rule="R-PLAY-2"))],
    )
    then(
        table.do("touch_card", player("s2"), fingertips=2),
        [
            (
                "TouchRefused",
                at(
                    table,
                    seat="s2",
                    fingertips=2,
                    play=1,
                    reason="not_first",
                    toucher="s1",
                    rule="R-PLAY-2",
                ),
            )
        ],
    )
    table.advance(1)
    then(
        table.do("declare_pattern", player("s1"), pattern=" 3 x 8 "),
        [
            (
                "PatternDeclared",
                at(table, seat="s1", pattern="3 x 8", canonical="3 × 8", play=1, rule="R-PLAY-4"),
            )
        ],
    )
    then(
        table.do("state_steps", player("s1"), steps=["1 + 1 = 2", " 2 + 1 = 3 "]),
        [
            (
                "StepsStated",
                at(table, seat="s1", steps=["1 + 1 = 2", "2 + 1 = 3"], play=1, rule="R-PLAY-5"),
            )
        ],
    )
    right = ["1 + 1 = 2", "2 + 1 = 3", "3 × 8 = 24"]
    then(
        table.do("fix_solution", player("s1"), steps=right),
        [
            ("SolutionFixed", at(table, seat="s1", steps=right, play=1, rule="R-PLAY-5")),
            (
                "SolutionJudged",
                at(
                    table,
                    seat="s1",
                    ok=True,
                    reason="",
                    message="correct",
                    value="24",
                    play=1,
                    rule="R-PUZ-2",
                ),
            ),
            ("CardWon", at(table, seat="s1", card_id="c1", dots=1, play=1, rule="R-PLAY-6")),
        ],
    )
    # play 2: c2 touched with four fingertips (R-PLAY-3): a flag, the card goes back (R-FLAG-2)
    table.do("place_card")
    table.do("reveal_card")
    then(
        table.do("touch_card", player("s2"), fingertips=4),
        [
            ("CardTouched", at(table, seat="s2", fingertips=4, play=2, rule="R-PLAY-2")),
            (
                "FlagIssued",
                at(
                    table,
                    seat="s2",
                    cause="too_many_fingertips",
                    rule="R-PLAY-3",
                    flags=1,
                    card_id="c2",
                    revealed=True,
                    play=2,
                ),
            ),
            (
                "CardReturnedToDeck",
                at(table, card_id="c2", play=2, revealed=True, rule="R-FLAG-2"),
            ),
        ],
    )
    # play 3: c3 touched before its reveal (R-PLAY-3)
    table.do("place_card")
    then(
        table.do("touch_card", player("s3")),
        [
            ("CardTouched", at(table, seat="s3", fingertips=1, play=3, rule="R-PLAY-2")),
            (
                "FlagIssued",
                at(
                    table,
                    seat="s3",
                    cause="touched_before_reveal",
                    rule="R-PLAY-3",
                    flags=1,
                    card_id="c3",
                    revealed=False,
                    play=3,
                ),
            ),
            (
                "CardReturnedToDeck",
                at(table, card_id="c3", play=3, revealed=False, rule="R-FLAG-2"),
            ),
        ],
    )
    # play 4: c2 again, a wrong solution (R-PLAY-5, R-FLAG-1): the judged value is recorded
    table.do("place_card")
    table.do("reveal_card")
    table.do("touch_card", player("s4"))
    table.do("declare_pattern", player("s4"), pattern="8 ÷ 1/3")
    wrong = ["3 + 3 = 6", "8 + 8 = 16", "6 + 16 = 22"]
    then(
        table.do("fix_solution", player("s4"), steps=wrong),
        [
            ("SolutionFixed", at(table, seat="s4", steps=wrong, play=4, rule="R-PLAY-5")),
            (
                "SolutionJudged",
                at(
                    table,
                    seat="s4",
                    ok=False,
                    reason="not_24",
                    message="step 3 makes 22, not 24",
                    value="22",
                    play=4,
                    rule="R-PUZ-2",
                ),
            ),
            (
                "FlagIssued",
                at(
                    table,
                    seat="s4",
                    cause="incorrect_solution",
                    rule="R-PLAY-5",
                    flags=1,
                    card_id="c2",
                    revealed=True,
                    play=4,
                ),
            ),
            (
                "CardReturnedToDeck",
                at(table, card_id="c2", play=4, revealed=True, rule="R-FLAG-2"),
            ),
        ],
    )
    # play 5: c3, everybody stumped (R-PLAY-7)
    table.do("place_card")
    table.do("reveal_card")
    for seat in ("s1", "s2", "s3"):
        then(
            table.do("declare_stumped", player(seat)),
            [("StumpedDeclared", at(table, seat=seat, play=5, rule="R-PLAY-7"))],
        )
    then(
        table.do("declare_stumped", player("s4")),
        [
            ("StumpedDeclared", at(table, seat="s4", play=5, rule="R-PLAY-7")),
            (
                "CardStumped",
                at(table, card_id="c3", play=5, reason="all_stumped", rule="R-PLAY-7"),
            ),
        ],
    )
    # play 6: c2, nobody touches within 15 s (R-PLAY-7); the deck is empty (R-ROUND-1)
    table.do("place_card")
    table.do("reveal_card")
    revealed_at = table.now
    then(
        table.fire("no_touch_deadline"),
        [
            (
                "CardStumped",
                {
                    "at": revealed_at + 15 * S,
                    "card_id": "c2",
                    "play": 6,
                    "reason": "no_touch",
                    "rule": "R-PLAY-7",
                },
            ),
            (
                "RoundEnded",
                {
                    "at": revealed_at + 15 * S,
                    "reason": "deck_empty",
                    "scores": {"s1": 1, "s2": 0, "s3": 0, "s4": 0},
                    "flags": {"s1": 0, "s2": 1, "s3": 1, "s4": 1},
                    "disqualified": [],
                    "unplayed": [],
                    "stumped": ["c3", "c2"],
                    "rule": "R-ROUND-1",
                },
            ),
        ],
    )
    assert table.replayed() == table.state


def test_a_proctored_three_student_round_as_the_auditor_reads_it():
    """R-DECK-4, R-PLAY-2 (the proctor's ruling), R-PLAY-4/5 deadlines, R-FLAG-1..4,
    R-PLAY-7 (replay_at_end), pause and resume, and a round ended by the proctor."""
    seats3 = SEATS4[:3]
    raw = options(
        seats=3,
        cards=["c1", "c3", "c4", "c5", "c8"],
        mode="proctored",
        stumped_cards="replay_at_end",
        flag_limit=2,
    )
    table = Table(raw)
    then(
        table.do("start_round"),
        [
            (
                "RoundStarted",
                at(
                    table,
                    round=1,
                    deck=["c1", "c3", "c4"],
                    removed=["c8", "c5"],  # the two 2-dot cards nearest the bottom
                    seats=seats3,
                    options=options_data(
                        seats3, mode="proctored", stumped_cards="replay_at_end", flag_limit=2
                    ),
                    rule="R-DECK-4",
                ),
            )
        ],
    )
    # play 1: s1 touches and names no pattern within 3 s (R-PLAY-4)
    table.do("place_card")
    table.do("reveal_card")
    table.advance(1)
    touched_at = table.now
    table.do("touch_card", PROCTOR, seat="s1")
    then(
        table.fire("pattern_deadline"),
        [
            (
                "FlagIssued",
                {
                    "at": touched_at + 3 * S,
                    "seat": "s1",
                    "cause": "no_pattern",
                    "rule": "R-PLAY-4",
                    "flags": 1,
                    "card_id": "c1",
                    "revealed": True,
                    "play": 1,
                },
            ),
            (
                "CardReturnedToDeck",
                {
                    "at": touched_at + 3 * S,
                    "card_id": "c1",
                    "play": 1,
                    "revealed": True,
                    "rule": "R-FLAG-2",
                },
            ),
        ],
    )
    # play 2: s2 touches first, the proctor rules s3 was first (R-PLAY-2)
    table.do("place_card")
    table.do("reveal_card")
    table.do("touch_card", PROCTOR, seat="s2")
    table.do("declare_pattern", PROCTOR, seat="s2", pattern="8 × 3")
    table.advance(1)
    ruled_at = table.now
    then(
        table.do("override_first_touch", seat="s3"),
        [
            (
                "FirstTouchOverridden",
                at(table, seat="s3", previous="s2", play=2, rule="R-PLAY-2"),
            )
        ],
    )
    table.do("declare_pattern", PROCTOR, seat="s3", pattern="8 × 3")
    # a flag on a bystander does not take the card from its toucher (R-FLAG-2): play is None
    then(
        table.do("issue_flag", seat="s2", cause="touched_before_reveal"),
        [
            (
                "FlagIssued",
                at(
                    table,
                    seat="s2",
                    cause="touched_before_reveal",
                    rule="R-PLAY-3",
                    flags=1,
                    card_id="c3",
                    revealed=True,
                    play=None,
                ),
            )
        ],
    )
    then(
        table.fire("solution_deadline"),  # 15 s from the ruling (R-PLAY-5)
        [
            (
                "FlagIssued",
                {
                    "at": ruled_at + 15 * S,
                    "seat": "s3",
                    "cause": "no_solution",
                    "rule": "R-PLAY-5",
                    "flags": 1,
                    "card_id": "c3",
                    "revealed": True,
                    "play": 2,
                },
            ),
            (
                "CardReturnedToDeck",
                {
                    "at": ruled_at + 15 * S,
                    "card_id": "c3",
                    "play": 2,
                    "revealed": True,
                    "rule": "R-FLAG-2",
                },
            ),
        ],
    )
    # between cards: a second flag disqualifies s1 (R-FLAG-3); no card is named or taken
    then(
        table.do("issue_flag", seat="s1", cause="no_pattern"),
        [
            (
                "FlagIssued",
                at(
                    table,
                    seat="s1",
                    cause="no_pattern",
                    rule="R-PLAY-4",
                    flags=2,
                    card_id=None,
                    revealed=False,
                    play=None,
                ),
            ),
            (
                "PlayerDisqualified",
                at(table, seat="s1", flags=2, cause="flag_limit", rule="R-FLAG-3"),
            ),
        ],
    )
    then(table.do("pause_table"), [("TablePaused", at(table, cause="proctor"))])
    table.advance(60)
    then(table.do("resume_table"), [("TableResumed", at(table, cause="proctor"))])
    # play 3: c4, the two students still in play are stumped (R-PLAY-7, R-FLAG-4)
    table.do("place_card")
    table.do("reveal_card")
    table.do("declare_stumped", PROCTOR, seat="s2")
    then(
        table.do("declare_stumped", PROCTOR, seat="s3"),
        [
            ("StumpedDeclared", at(table, seat="s3", play=3, rule="R-PLAY-7")),
            (
                "CardStumped",
                at(table, card_id="c4", play=3, reason="all_stumped", rule="R-PLAY-7"),
            ),
        ],
    )
    # play 4: c1 is won by s2
    table.do("place_card")
    table.do("reveal_card")
    table.win("s2", actor=PROCTOR)
    # play 5: c3, nobody touches: the deck is empty and the stumped pile comes back once
    table.do("place_card")
    table.do("reveal_card")
    revealed_at = table.now
    then(
        table.fire("no_touch_deadline"),
        [
            (
                "CardStumped",
                {
                    "at": revealed_at + 15 * S,
                    "card_id": "c3",
                    "play": 5,
                    "reason": "no_touch",
                    "rule": "R-PLAY-7",
                },
            ),
            (
                "StumpedCardsReturned",
                {"at": revealed_at + 15 * S, "cards": ["c4", "c3"], "rule": "R-PLAY-7"},
            ),
        ],
    )
    table.advance(1)
    then(
        table.do("end_round"),
        [
            (
                "RoundEnded",
                at(
                    table,
                    reason="ended_by_proctor",
                    scores={"s1": 0, "s2": 1, "s3": 0},
                    flags={"s1": 2, "s2": 1, "s3": 1},
                    disqualified=["s1"],
                    unplayed=["c4", "c3"],
                    stumped=[],
                    rule="R-ROUND-1",
                ),
            )
        ],
    )
    assert table.replayed() == table.state


def test_the_round_ends_when_every_student_is_disqualified():
    """R-FLAG-4: nobody left in play ends the round; the card in play is listed unplayed."""
    table = Table.started(seats=3, cards=["c1", "c2"], flag_limit=1)
    table.do("issue_flag", seat="s1", cause="no_pattern")
    table.do("issue_flag", seat="s2", cause="no_pattern")
    table.do("place_card")
    table.do("reveal_card")
    table.do("touch_card", player("s3"))
    then(
        table.do("issue_flag", seat="s3", cause="no_solution"),
        [
            (
                "FlagIssued",
                at(
                    table,
                    seat="s3",
                    cause="no_solution",
                    rule="R-PLAY-5",
                    flags=1,
                    card_id="c1",
                    revealed=True,
                    play=1,
                ),
            ),
            (
                "PlayerDisqualified",
                at(table, seat="s3", flags=1, cause="flag_limit", rule="R-FLAG-3"),
            ),
            (
                "CardReturnedToDeck",
                at(table, card_id="c1", play=1, revealed=True, rule="R-FLAG-2"),
            ),
            (
                "RoundEnded",
                at(
                    table,
                    reason="all_disqualified",
                    scores={"s1": 0, "s2": 0, "s3": 0},
                    flags={"s1": 1, "s2": 1, "s3": 1},
                    disqualified=["s1", "s2", "s3"],
                    unplayed=["c2", "c1"],
                    stumped=[],
                    rule="R-ROUND-1",
                ),
            ),
        ],
    )


def test_a_wrong_step_result_records_the_value_the_step_makes():
    """R-PUZ-2: `SolutionJudged.value` is what the judge computed, as exact text (`8/3`)."""
    table = Table.started(cards=["c2"])
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="8 ÷ 1/3")
    steps = ["8 ÷ 3 = 3", "3 − 8/3 = 1/3", "8 ÷ 1/3 = 24"]
    events = table.do("fix_solution", player("s1"), steps=steps)
    assert (events[1].type, dict(events[1].data)) == (
        "SolutionJudged",
        at(
            table,
            seat="s1",
            ok=False,
            reason="step_result_wrong",
            message="step 1: 8 ÷ 3 makes 8/3, not 3",
            value="8/3",
            play=1,
            rule="R-PUZ-2",
        ),
    )


def test_a_judgement_without_a_value_records_none():
    table = Table.started(cards=["c2"])
    table.next_card()
    table.do("touch_card", player("s1"))
    table.do("declare_pattern", player("s1"), pattern="8 ÷ 1/3")
    table.do("state_steps", player("s1"), steps=["1 + 1 = 2", "2 + 1 = 3", "3 + 8 = 11"])
    events = table.do("fix_solution", player("s1"))  # fixes the steps last stated
    assert events[0].data["steps"] == ["1 + 1 = 2", "2 + 1 = 3", "3 + 8 = 11"]
    assert dict(events[1].data) == at(
        table,
        seat="s1",
        ok=False,
        reason="value_not_available",
        message="step 1: 1 is not available (available: 3, 3, 8, 8)",
        value=None,
        play=1,
        rule="R-PUZ-2",
    )
