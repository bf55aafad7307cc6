"""Example data of every event type of every game, as the server pushes it to some viewer
(the docs' event tables: docs/games/*.md, docs/protocol.md), for the test that renders each
through the terminal's words (tests/unit/test_cli_words.py).

Each event type has one or more examples: one per way it reads (right and wrong answers, each
reason code, a hand hidden from this viewer and shown to that one), so that every sentence of
a game's words table is rendered by at least one example. Seats: s1 Ada, s2 Bo, s3 Cy; the
person dealer of Tjugoett is dl, Dora.
"""

from __future__ import annotations

from typing import Any

NAMES = {"s1": "Ada", "s2": "Bo", "s3": "Cy", "dl": "Dora", "dealer": "the dealer"}
SEATS = [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}]
CREATED = {"game": "?", "options": {"seats": SEATS}}
CREATED_ONE = {"game": "?", "options": {"seats": SEATS[:1]}}
AT = {"at": 1_700_000_000_000_000}

Examples = dict[str, list[dict[str, Any]]]


def _with_at(examples: Examples) -> Examples:
    return {kind: [{**AT, **data} for data in datas] for kind, datas in examples.items()}


POCKET: Examples = _with_at(
    {
        "TableCreated": [CREATED, CREATED_ONE],
        "GameStarted": [
            {"stack": 12, "options": {"seats": SEATS}, "rule": "R-POCKET-1"},
            {
                "stack": [{"card_id": "SD-01r", "numbers": [1, 2, 3, 4], "dots": 1}],
                "rule": "R-POCKET-1",
            },
        ],
        "CardTurnedUp": [
            {
                "card_id": "SD-01r",
                "numbers": [7, 3, 6, 6],
                "dots": 2,
                "number": 1,
                "left": 11,
                "rule": "R-POCKET-1",
            },
            {
                "card_id": "SD-02r",
                "numbers": [1, 1, 1, 8],
                "dots": 1,
                "number": 2,
                "left": 10,
                "rule": "R-POCKET-1",
            },
        ],
        "ClaimMade": [{"seat": "s2", "number": 1, "rule": "R-POCKET-3"}],
        "AnswerJudged": [
            {
                "seat": "s2",
                "expression": "(7 + 6 / 6) * 3",
                "ok": True,
                "reason": "",
                "message": "correct",
                "number": 1,
                "rule": "R-POCKET-2",
            },
            {
                "seat": "s1",
                "expression": "1+2",
                "ok": False,
                "reason": "wrong_numbers",
                "message": "uses 1, 2; the card has 7 3 6 6",
                "number": 1,
                "rule": "R-POCKET-2",
            },
            {
                "seat": "s1",
                "expression": "7*3+6-6",
                "ok": False,
                "reason": "not_24",
                "message": "it makes 21, not 24",
                "number": 1,
                "rule": "R-POCKET-2",
            },
        ],
        "PlayerExcluded": [
            {"seat": "s1", "reason": "wrong", "number": 1, "rule": "R-POCKET-3"},
            {"seat": "s1", "reason": "late", "number": 1, "rule": "R-POCKET-3"},
        ],
        "StumpedDeclared": [{"seat": "s1", "number": 4, "rule": "R-POCKET-4"}],
        "CardWon": [
            {
                "seat": "s2",
                "card_id": "SD-01r",
                "dots": 2,
                "bonus": [],
                "bonus_dots": 0,
                "points": 2,
                "number": 1,
                "rule": "R-POCKET-2",
            },
            {
                "seat": "s2",
                "card_id": "SD-03r",
                "dots": 1,
                "bonus": [],
                "bonus_dots": 0,
                "points": 1,
                "number": 3,
                "rule": "R-POCKET-2",
            },
            {
                "seat": "s1",
                "card_id": "SD-05r",
                "dots": 2,
                "bonus": ["SD-04r"],
                "bonus_dots": 3,
                "points": 5,
                "number": 5,
                "rule": "R-POCKET-4",
            },
        ],
        "CardSetAside": [
            {"card_id": "SD-04r", "dots": 3, "number": 4, "reason": reason, "rule": "R-POCKET-4"}
            for reason in ("all_stumped", "all_excluded", "timeout")
        ],
        "GamePaused": [
            {"cause": "server_restart"},
            {"cause": "failover"},
            {"cause": "tea"},
            {"cause": "director"},
        ],
        "GameResumed": [{"cause": "tea"}],
        "GameEnded": [
            {
                "reason": reason,
                "scores": {"s1": 0, "s2": 4},
                "winners": ["s2"],
                "tie": False,
                "unclaimed_bonus": [],
                "unplayed": 0,
                "rule": "R-POCKET-5",
            }
            for reason in ("stack_used_up", "ended_by_director")
        ],
    }
)

_TABLE = [
    {"card": "7H", "suit": "hearts", "rank": 7, "seat": "s1"},
    {"card": "AS", "suit": "spades", "rank": 1, "seat": "s1"},
    {"card": "10D", "suit": "diamonds", "rank": 10, "seat": "s2"},
    {"card": "3C", "suit": "clubs", "rank": 3, "seat": "s2"},
]
DECK40: Examples = _with_at(
    {
        "TableCreated": [CREATED, CREATED_ONE],
        "GameStarted": [
            {
                "deck": 40,
                "layout": layout,
                "piles": {"s1": 20, "s2": 20},
                "common": 0,
                "options": {"seats": SEATS},
                "rule": "R-DECK40-1",
            }
            for layout in ("pairs", "singles", "common_pile")
        ],
        "CardsTurnedUp": [
            {"set": 1, "cards": _TABLE, "rule": "R-DECK40-1"},
            {"set": 2, "cards": [{**card, "seat": None} for card in _TABLE], "rule": "R-DECK40-5"},
        ],
        "SolutionCalled": [
            {
                "seat": "s1",
                "expression": "(7-3)*(10-1)",
                "ok": False,
                "reason": "not_24",
                "message": "it makes 36, not 24",
                "set": 1,
                "rule": "R-DECK40-2",
            },
            {
                "seat": "s2",
                "expression": "(10-7+1)*3*2",
                "ok": False,
                "reason": "wrong_numbers",
                "message": "2 is not on the table",
                "set": 1,
                "rule": "R-DECK40-2",
            },
            {
                "seat": "s2",
                "expression": "(7+1)*3",
                "ok": False,
                "reason": "syntax",
                "message": "cannot read",
                "set": 1,
                "rule": "R-DECK40-2",
            },
            {
                "seat": "s2",
                "expression": "10+7+3*1*2",
                "ok": True,
                "reason": "",
                "message": "correct",
                "set": 1,
                "rule": "R-DECK40-2",
            },
        ],
        "PlayerExcluded": [{"seat": "s1", "set": 1, "rule": "R-DECK40-2"}],
        "NoSolutionCalled": [
            {"seat": "s1", "returns": "10D", "set": 3, "rule": "R-DECK40-3"},
            {"seat": "s2", "returns": None, "set": 3, "rule": "R-DECK40-3"},
        ],
        "NoSolutionAgreed": [
            {
                "set": 3,
                "reason": "all_called",
                "solvable": None,
                "example": None,
                "rule": "R-DECK40-3",
            },
            {
                "set": 3,
                "reason": "all_excluded",
                "solvable": None,
                "example": None,
                "rule": "R-DECK40-3",
            },
            {
                "set": 3,
                "reason": "all_called",
                "solvable": False,
                "example": None,
                "rule": "R-DECK40-7",
            },
            {
                "set": 3,
                "reason": "all_called",
                "solvable": True,
                "example": "(10-7+1)*(3*2)",
                "rule": "R-DECK40-7",
            },
        ],
        "RoundWon": [
            {
                "seat": "s2",
                "cards": ["7H", "AS", "10D", "3C"],
                "points": 1,
                "after_no_solution": False,
                "taken_by": None,
                "set": 1,
                "rule": "R-DECK40-3",
            },
            {
                "seat": "s2",
                "cards": ["7H", "AS", "10D", "3C"],
                "points": 2,
                "after_no_solution": True,
                "taken_by": None,
                "set": 1,
                "rule": "R-DECK40-3",
            },
            {
                "seat": "s1",
                "cards": ["7H", "AS", "10D", "3C"],
                "points": 0,
                "after_no_solution": False,
                "taken_by": None,
                "set": 1,
                "rule": "R-DECK40-6",
            },
            {
                "seat": "s1",
                "cards": ["7H", "AS", "10D", "3C"],
                "points": 0,
                "after_no_solution": False,
                "taken_by": "s2",
                "set": 1,
                "rule": "R-DECK40-6",
            },
        ],
        "CardsReturned": [
            {
                "set": 3,
                "returns": [{"card": "10D", "seat": "s1"}, {"card": "AS", "seat": "s2"}],
                "rule": "R-DECK40-4",
            },
        ],
        "GameEnded": [
            {
                "reason": reason,
                "scoring": "simple",
                "scores": {"s1": 1, "s2": 0},
                "cards_left": {"s1": 10, "s2": 10},
                "won": {"s1": 4, "s2": 0},
                "winners": ["s1"],
                "tie": False,
                "rule": "R-DECK40-6",
            }
            for reason in (
                "target_points",
                "cards_out",
                "cannot_turn_up",
                "no_solution_left",
                "ended_by_director",
            )
        ],
    }
)

_SETTLED = {
    "player_cards": ["10H", "7S"],
    "player_sum": 17,
    "dealer_cards": ["9C", "9D"],
    "dealer_sum": 18,
    "rule": "R-21-15",
}
TJUGOETT: Examples = _with_at(
    {
        "TableCreated": [CREATED, CREATED_ONE],
        "RoundStarted": [{"round": 1, "order": None, "rule": "R-21-3"}],
        "CardDealt": [
            {
                "seat": "s1",
                "card": "10H",
                "cards": 1,
                "sum": 10,
                "public_hands": "turn_over",
                "dealer_seat": None,
                "rule": "R-21-4",
            },
            {
                "seat": "s1",
                "card": "AS",
                "cards": 2,
                "sum": 21,
                "public_hands": "live",
                "dealer_seat": "dl",
                "rule": "R-21-6",
            },
            {
                "seat": "s2",
                "card": None,
                "cards": 1,
                "sum": None,
                "public_hands": "turn_over",
                "dealer_seat": None,
                "rule": "R-21-4",
            },
            {
                "seat": "s2",
                "card": None,
                "cards": 2,
                "sum": None,
                "public_hands": "turn_over",
                "dealer_seat": "dl",
                "rule": "R-21-4",
            },
        ],
        "TurnStarted": [{"seat": "s2", "rule": "R-21-5"}],
        "PlayerStood": [
            {"seat": "s1", "cards": 2, "sum": 17, "cause": "player", "rule": "R-21-11"},
            {"seat": "s2", "cards": None, "sum": None, "cause": "player", "rule": "R-21-11"},
            {"seat": "s1", "cards": 3, "sum": 15, "cause": "turn_seconds", "rule": "R-21-11"},
            {"seat": "s2", "cards": None, "sum": None, "cause": "turn_seconds", "rule": "R-21-11"},
        ],
        "DealerCardDealt": [{"card": "9C", "cards": 1, "sum": 9, "rule": "R-21-14"}],
        "DealerStood": [{"cards": 2, "sum": 18, "rule": "R-21-19"}],
        "TurnSettled": [
            {"seat": "s1", "winner": winner, "reason": reason, **_SETTLED}
            for winner, reason in (
                ("player", "twenty_one"),
                ("player", "five_cards"),
                ("dealer", "bust"),
                ("dealer", "dealer_twenty_one"),
                ("dealer", "dealer_five_cards"),
                ("player", "dealer_bust"),
                ("dealer", "dealer_at_or_above"),
                ("player", "dealer_below"),
            )
        ],
        "CardsDiscarded": [
            {"holder": "s1", "cards": ["10H", "7S"], "rule": "R-21-12"},
            {"holder": "dealer", "cards": ["9C", "9D"], "rule": "R-21-13"},
            {"holder": "dl", "cards": ["9C", "9D"], "rule": "R-21-13"},
        ],
        "DiscardsReshuffled": [
            {"order": None, "kept": 1, "added": 20, "rule": "R-21-21"},
            {"order": None, "kept": 1, "added": 1, "rule": "R-21-21"},
        ],
        "DrawFailed": [
            {
                "for_whom": "s1",
                "draw_pile": 1,
                "discard_pile": 0,
                "message": "no card can be drawn for s1: the draw pile holds 1 card(s)",
                "rule": "R-21-22",
            },
            {
                "for_whom": "dealer",
                "draw_pile": 0,
                "discard_pile": 0,
                "message": "no card",
                "rule": "R-21-22",
            },
        ],
        "RoundEnded": [
            {"round": 2, "reason": reason, "results": [], "tally": {}, "rule": "R-21-5"}
            for reason in ("all_played", "no_card_to_draw", "ended_by_director")
        ],
        "TableEnded": [{"rounds": 3, "tally": {}}, {"rounds": 1, "tally": {}}],
    }
)

_CARD = {"card_id": "SD-02", "play": 5}
CHALLENGE: Examples = _with_at(
    {
        "TableCreated": [CREATED, CREATED_ONE],
        "RoundStarted": [
            {"round": 1, "deck": 48, "removed": 0},
            {"round": 2, "deck": ["c1"], "removed": ["c7", "c8"]},
            {"round": 3, "deck": 46, "removed": ["c9"]},
        ],
        "CardPlaced": [
            {"card_id": None, "play": 5, "numbers": None},
            {**_CARD, "numbers": [3, 3, 8, 8], "dots": 3},
        ],
        "CardRevealed": [
            {**_CARD, "numbers": [3, 3, 8, 8], "dots": 3},
            {**_CARD, "numbers": [1, 2, 3, 4], "dots": 1},
        ],
        "CardTouched": [
            {"seat": "s1", "fingertips": 1, "play": 5},
            {"seat": "s2", "fingertips": 2, "play": 5},
        ],
        "TouchRefused": [
            {"seat": "s2", "toucher": "s1", "play": 5},
            {"seat": "s2", "toucher": None, "play": 5},
        ],
        "TouchClaimed": [
            {
                "seat": "s1",
                "arrival": 1,
                "delay_us": 12000,
                "credit_us": 12000,
                "compensated_at": 1_700_000_000_100_000,
                "play": 5,
            },
            {
                "seat": "s2",
                "arrival": 2,
                "delay_us": None,
                "credit_us": None,
                "compensated_at": 1_700_000_000_200_000,
                "play": 5,
            },
        ],
        "FirstTouchGranted": [
            {
                "seat": "s2",
                "play": 5,
                "considered": [
                    {"seat": "s1", "arrival": 1, "compensated_at": 20},
                    {"seat": "s2", "arrival": 2, "compensated_at": 10},
                ],
            },
        ],
        "FirstTouchOverridden": [{"seat": "s2", "previous": "s1", "play": 5}],
        "PatternDeclared": [{"seat": "s1", "pattern": "3*8", "play": 5}],
        "StepsStated": [{"seat": "s1", "steps": ["8/3", "3 - 8/3 = 1/3"], "play": 5}],
        "SolutionFixed": [{"seat": "s1", "steps": ["8/3", "3 - 8/3 = 1/3", "8 / 1/3"]}],
        "SolutionJudged": [
            {"seat": "s1", "ok": True, "reason": "", "message": "correct"},
            {
                "seat": "s1",
                "ok": False,
                "reason": "step_result_wrong",
                "message": "8 ÷ 3 = 2: the result is 8/3",
            },
            {"seat": "s1", "ok": False, "reason": "not_24", "message": ""},
        ],
        "StumpedDeclared": [{"seat": "s3", "play": 5}],
        "CardWon": [{"seat": "s1", **_CARD, "dots": 3}, {"seat": "s1", **_CARD, "dots": 1}],
        "FlagIssued": [
            {"seat": "s2", "cause": cause, "flags": 1, "play": 5}
            for cause in (
                "no_pattern",
                "no_solution",
                "incorrect_solution",
                "too_many_fingertips",
                "touched_before_reveal",
            )
        ],
        "PlayerDisqualified": [
            {"seat": "s2", "flags": 3, "cause": "flags"},
            {"seat": "s2", "flags": 1, "cause": "slap"},
            {"seat": "s2", "flags": 1, "cause": "flags"},  # the singular form, kept for a catalogue
        ],
        "CardReturnedToDeck": [_CARD],
        "CardStumped": [
            {**_CARD, "reason": "no_touch"},
            {**_CARD, "reason": "all_stumped"},
        ],
        "StumpedCardsReturned": [{"cards": ["c1", "c2"]}, {"cards": ["c1"]}],
        "PlayBegan": [
            {"by": "students", "connected": ["s1", "s2"], "attendance": {}},
            {"by": "proctor", "connected": ["s1"], "attendance": {"s2": "absent"}},
            {"by": "director", "connected": [], "attendance": {}},
            {"by": "someone", "connected": [], "attendance": {}},
        ],
        "SeatMarked": [{"seat": "s2", "mark": "absent"}, {"seat": "s1", "mark": "present"}],
        "TablePaused": [
            {"cause": "server_restart"},
            {"cause": "failover"},
            {"cause": "tea"},
            {"cause": "proctor"},
        ],
        "TableResumed": [{"cause": "tea"}],
        "RoundEnded": [
            {"reason": reason, "scores": {"s1": 3, "s2": 0, "s3": 1}}
            for reason in ("deck_empty", "all_disqualified", "ended_by_proctor")
        ],
        "ProtestFiled": [
            {"protest": 1, "by": "s2", "seat": "s2", "seqs": [7, 9], "reason": "I was first"},
        ],
        "ProtestRuled": [
            {
                "protest": 1,
                "upheld": False,
                "ruling_text": "the log shows Ada first",
                "corrections": [],
            },
            {
                "protest": 1,
                "upheld": True,
                "ruling_text": "Bo was first",
                "corrections": [
                    {"kind": "rescind_flag", "seat": "s2", "flag": 12},
                    {"kind": "award_card", "seat": "s2", "card": "c3"},
                    {"kind": "revoke_card", "seat": "s1", "card": "c3"},
                    {"kind": "adjust_score", "seat": "s3", "delta": -1, "why": "miscount"},
                ],
            },
        ],
        "FlagRescinded": [
            {"seat": "s2", "flag": 12, "flags": 0},
            {"seat": "s2", "flag": 12, "flags": 1},
        ],
        "PlayerReinstated": [{"seat": "s2", "from_play": 6}],
        "CardAwarded": [
            {"seat": "s2", "card": "c3", "dots": 2},
            {"seat": "s2", "card": "c3", "dots": 1},
        ],
        "CardAwardRevoked": [
            {"seat": "s1", "card": "c3", "dots": 2},
            {"seat": "s1", "card": "c3", "dots": 1},
        ],
        "ScoreAdjusted": [{"seat": "s3", "delta": -1, "why": "miscount"}],
        "ScoreCardSigned": [{"initials": "GH", "scores": {"s1": 3, "s2": 2, "s3": 0}}],
        "ScoreCardReopened": [{"by": "director", "reason": "a late protest"}],
    }
)

_RATED = {"mu": 1500.0, "sigma": 350.0}
_SOLUTION = {
    "expression": "8 / (3 - 8 / 3)",
    "pattern": "8 ÷ 1/3",
    "steps": ["8 / 3 = 8/3", "3 - 8/3 = 1/3", "8 / 1/3 = 24"],
}
_SECOND_WAY = {
    "expression": "1 * 2 * 3 * 4",
    "pattern": "6 × 4",
    "steps": ["1 * 2 = 2", "2 * 3 = 6", "6 * 4 = 24"],
}
_THIRD_WAY = {
    "expression": "(1 + 2 + 3) * 4",
    "pattern": "6 × 4",
    "steps": ["1 + 2 = 3", "3 + 3 = 6", "6 * 4 = 24"],
}
_MISSED = {"seat": "s1", "number": 2, "card_id": "3 3 8 8", "message": "", "after_us": 15_000_000}
PRACTICE: Examples = _with_at(
    {
        "TableCreated": [CREATED, CREATED_ONE],
        "CardDealt": [
            {
                "seat": "s1",
                "number": 1,
                "card_id": "3 3 8 8",
                "numbers": [3, 8, 3, 8],
                "score": 41.2,
                "card_rating": {"mu": 2210.4, "sigma": 120.0},
                "rating": _RATED,
            }
        ],
        "CardTouched": [{"seat": "s2", "number": 4, "rule": "R-PLAY-2"}],
        "AnswerJudged": [
            {
                "seat": "s1",
                "number": 1,
                "pattern": "3 × 8",
                "steps": ["1 + 1 = 2", "1 + 2 = 3", "3 * 8 = 24"],
                "ok": True,
                "reason": "",
                "message": "correct",
                "rule": "R-PUZ-2",
            },
            {
                "seat": "s1",
                "number": 2,
                "pattern": "3*8",
                "steps": ["1+1=2", "2+1=3"],
                "ok": False,
                "reason": "wrong_step_count",
                "message": "2 steps given; a solution has exactly 3 (R-PUZ-2)",
                "rule": "R-PUZ-2",
            },
            {
                "seat": "s2",
                "number": 2,
                "pattern": "3*8",
                "steps": ["1+1=2", "2+1=3", "3*8=24"],
                "ok": False,
                "reason": "value_not_available",
                "message": "",
                "rule": "R-PUZ-2",
            },
        ],
        "CardSolved": [
            {
                "seat": "s2",
                "number": 1,
                "card_id": "1 1 1 8",
                "after_us": 7_420_000,
                "touch_us": 2_100_000,
            }
        ],
        "CardMissed": [
            {
                **_MISSED,
                "reason": "wrong",
                "message": "step 1: 1 is not available (available: 3, 3, 8, 8)",
                "solutions": [_SOLUTION],
            },
            {
                **_MISSED,
                "card_id": "1 2 3 4",
                "reason": "no_touch",
                "solutions": [_SECOND_WAY, _THIRD_WAY],
            },
            {**_MISSED, "reason": "no_answer", "solutions": [_SOLUTION]},
            {**_MISSED, "reason": "gave_up", "solutions": []},
        ],
        "RatingUpdated": [
            {
                "seat": "s1",
                "number": 2,
                "card_id": "3 3 8 8",
                "solved": solved,
                "before": _RATED,
                "after": {"mu": 1500.0 + (150.0 if solved else -150.0), "sigma": 290.5},
                "card_before": {"mu": 2210.4, "sigma": 120.0},
                "card_after": {"mu": 2210.4 + (-25.0 if solved else 8.0), "sigma": 118.0},
            }
            for solved in (True, False)
        ],
        "PracticePaused": [
            {"cause": cause}
            for cause in ("server_restart", "failover", "director", "proctor", "tea")
        ],
        "PracticeResumed": [{"cause": "tea"}],
        "PracticeEnded": [
            {
                "reason": reason,
                "ratings": {"s1": {"mu": 1642.7, "sigma": 180.0}, "s2": _RATED},
                "played": {"s1": 20, "s2": 1},
            }
            for reason in ("all_played", "ended")
        ],
    }
)

EXAMPLES: dict[str, Examples] = {
    "pocket": POCKET,
    "deck40": DECK40,
    "tjugoett": TJUGOETT,
    "challenge": CHALLENGE,
    "practice": PRACTICE,
}

PLAYS = 6  # seeds of a game's example play, for a game without examples written here
PLAY_STEPS = 80


def examples_of(game: Any) -> Examples:
    """The examples of `game`: those written here, else what its example play gives a
    player to read (tests/example_plays.py: a game found by its folder needs no line here),
    deadlines fired as the shell fires them, with `TableCreated`. A variant its play never
    reaches is added by the example module's optional `EVENT_EXAMPLES` (type -> data list)."""
    if game.NAME in EXAMPLES:
        return EXAMPLES[game.NAME]
    import random

    from example_plays import example_of

    from server.games.base import Actor, RuleViolation

    example = example_of(game)
    assert example is not None, f"{game.NAME} has no example play"
    found: Examples = {"TableCreated": [CREATED, CREATED_ONE]}
    for kind, datas in getattr(example, "EVENT_EXAMPLES", {}).items():
        found.setdefault(kind, []).extend({**AT, **data} for data in datas)
    for seed in range(PLAYS):
        rng = random.Random(seed)
        options = example.options(rng)
        seats = [seat.get("seat") or seat.get("id") for seat in options.get("seats", [])]
        viewer = Actor("player", str(seats[0]))
        state, now = game.initial_state(options), AT["at"]
        for _ in range(PLAY_STEPS):
            if game.is_over(state):
                break
            choices = list(example.commands(state, rng))
            due = game.deadlines(state)
            if due and rng.random() < 0.3:
                deadline = min(due, key=lambda d: d.at)
                now, choices = max(now, deadline.at), [deadline.command]
            now += 500_000
            try:
                events = game.decide(state, rng.choice(choices), now) if choices else []
            except RuleViolation:
                continue
            for event in events:
                state = game.evolve(state, event)
                data = dict(game.event_view(event, viewer).data)
                if data not in found.setdefault(event.type, []):
                    found[event.type].append(data)
    return found
