"""Golden event payloads of Kortspillet 24 (deck40): given these events, when this command, then
exactly these whole events, every field, the way an auditor reads the log (issue 20).

Why whole events: the log is the audit record. Tests that check only an event's type or the
fields `evolve` reads let a payload field (a `rule`, a `set` number, `after_no_solution`,
`taken_by`, `cards_left`) be set to None or changed unnoticed, and a replay would not notice
either. Rule ids are from shared/rules/casual-24.md (R-DECK40-*).
"""

from __future__ import annotations

from typing import Any

from casual_tables import DIRECTOR, T0, S, Table, deck40_options, player, seats_data

from server.games import deck40
from server.games.base import Event
from server.puzzles.solver import solve

S1, S2, S3, S4 = player("s1"), player("s2"), player("s3"), player("s4")


def then(events: list[Event], expected: list[tuple[str, dict[str, Any]]]) -> None:
    """Then: exactly these events, in order, with exactly these payloads."""
    assert [(event.type, dict(event.data)) for event in events] == expected


def at(table: Table, **data: Any) -> dict[str, Any]:
    """An event payload recorded at the table's `now`."""
    return {"at": table.now, **data}


def card(name: str, seat: str | None) -> dict[str, Any]:
    """A face-up card as `CardsTurnedUp` records it (R-DECK40-1: name, suit, rank, ace = 1)."""
    suits = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
    rank = 1 if name[:-1] == "A" else int(name[:-1])
    return {"card": name, "suit": suits[name[-1]], "rank": rank, "seat": seat}


def public(players: int, **more: Any) -> dict[str, Any]:
    """`Deck40Options.public_data()` as `GameStarted` records it: the defaults, then `more`."""
    recorded = {
        "seats": seats_data(players),
        "layout": {2: "pairs", 4: "singles"}.get(players, "common_pile"),
        "scoring": "simple",
        "target_points": None,
        "house_loser_takes": False,
        "reveal_unsolvable": False,
    }
    recorded.update(more)
    return recorded


def test_two_players_advanced_to_a_target_as_the_auditor_reads_it():
    """R-DECK40-1..4, R-DECK40-6: the deal, a wrong "24!", an agreed "no solution" with a
    chosen and a default return, a refuted "no solution" scoring 2, the target reached."""
    raw = deck40_options(2, ["1111", "3388"], scoring="advanced", target_points=2)
    deck = raw["deck"]
    table = Table(deck40, raw)
    then(
        table.do("start_game", DIRECTOR),
        [
            (
                "GameStarted",
                at(
                    table,
                    deck=deck,
                    layout="pairs",
                    piles={"s1": deck[0::2], "s2": deck[1::2]},  # dealt one at a time
                    common=[],
                    options=public(2, scoring="advanced", target_points=2),
                    rule="R-DECK40-1",
                ),
            ),
            (
                "CardsTurnedUp",
                at(
                    table,
                    set=1,
                    cards=[card("AS", "s1"), card("AH", "s1"), card("AD", "s2"), card("AC", "s2")],
                    rule="R-DECK40-1",
                ),
            ),
        ],
    )
    table.advance(2)
    then(
        table.do("call_24", S1, expression=" 1 + 1 + 1 + 1 "),
        [
            (
                "SolutionCalled",
                at(
                    table,
                    seat="s1",
                    expression="1 + 1 + 1 + 1",
                    ok=False,
                    reason="not_24",
                    message="1 + 1 + 1 + 1 makes 4, not 24",
                    set=1,
                    rule="R-DECK40-2",
                ),
            ),
            ("PlayerExcluded", at(table, seat="s1", set=1, rule="R-DECK40-2")),
        ],
    )
    table.advance(3)
    # s1 is out of these cards: s2 alone agrees; s1 returns his first card (the default)
    then(
        table.do("call_no_solution", S2, returns="AC"),
        [
            ("NoSolutionCalled", at(table, seat="s2", returns="AC", set=1, rule="R-DECK40-3")),
            (
                "NoSolutionAgreed",
                at(
                    table,
                    set=1,
                    reason="all_called",
                    solvable=None,
                    example=None,
                    rule="R-DECK40-3",
                ),
            ),
            (
                "CardsReturned",
                at(
                    table,
                    set=1,
                    returns=[{"card": "AS", "seat": "s1"}, {"card": "AC", "seat": "s2"}],
                    rule="R-DECK40-4",
                ),
            ),
            (
                "CardsTurnedUp",
                at(table, set=2, cards=[card("3S", "s1"), card("8S", "s2")], rule="R-DECK40-4"),
            ),
        ],
    )
    assert [(on.card, on.seat) for on in table.state.table] == [
        ("AH", "s1"),
        ("AD", "s2"),
        ("3S", "s1"),
        ("8S", "s2"),
    ]
    assert table.state.seat("s1").pile[-1] == "AS" and table.state.seat("s2").pile[-1] == "AC"
    table.advance(1)
    then(
        table.do("call_no_solution", S1, returns="3S"),
        [("NoSolutionCalled", at(table, seat="s1", returns="3S", set=2, rule="R-DECK40-3"))],
    )
    table.advance(1)
    then(
        table.do("call_24", S2, expression="3 × 8 × 1 × 1"),
        [
            (
                "SolutionCalled",
                at(
                    table,
                    seat="s2",
                    expression="3 × 8 × 1 × 1",
                    ok=True,
                    reason="",
                    message="correct",
                    set=2,
                    rule="R-DECK40-2",
                ),
            ),
            (
                "RoundWon",
                at(
                    table,
                    seat="s2",
                    cards=["AH", "AD", "3S", "8S"],
                    points=2,  # advanced: another player had called "no solution"
                    after_no_solution=True,
                    taken_by=None,
                    set=2,
                    rule="R-DECK40-3",
                ),
            ),
            (
                "GameEnded",
                at(
                    table,
                    reason="target_points",
                    scoring="advanced",
                    scores={"s1": 0, "s2": 2},
                    cards_left={"s1": 18, "s2": 18},
                    won={"s1": 0, "s2": 4},
                    winners=["s2"],
                    tie=False,
                    rule="R-DECK40-6",
                ),
            ),
        ],
    )
    assert table.state.clock == T0 + 7 * S
    assert table.replayed() == table.state


def test_the_common_pile_with_the_server_confirming_as_the_auditor_reads_it():
    """R-DECK40-5, R-DECK40-7: the dealer turns up four; an agreed "no solution" is confirmed
    (unsolvable) or answered with a solution; two go back under the pile, two come up."""
    raw = deck40_options(3, ["1111", "3388"], reveal_unsolvable=True)
    deck = raw["deck"]
    table = Table(deck40, raw)
    then(
        table.do("start_game", S2),
        [
            (
                "GameStarted",
                at(
                    table,
                    deck=deck,
                    layout="common_pile",
                    piles={},
                    common=deck,
                    options=public(3, reveal_unsolvable=True),
                    rule="R-DECK40-5",
                ),
            ),
            (
                "CardsTurnedUp",
                at(
                    table,
                    set=1,
                    cards=[card("AS", None), card("AH", None), card("AD", None), card("AC", None)],
                    rule="R-DECK40-5",
                ),
            ),
        ],
    )
    table.do("call_no_solution", S1)
    table.do("call_no_solution", S3)
    table.advance(5)
    then(
        table.do("call_no_solution", S2),
        [
            ("NoSolutionCalled", at(table, seat="s2", returns=None, set=1, rule="R-DECK40-3")),
            (
                "NoSolutionAgreed",
                at(
                    table,
                    set=1,
                    reason="all_called",
                    solvable=False,
                    example=None,
                    rule="R-DECK40-7",
                ),
            ),
            (
                "CardsReturned",
                at(
                    table,
                    set=1,
                    returns=[{"card": "AS", "seat": None}, {"card": "AH", "seat": None}],
                    rule="R-DECK40-5",
                ),
            ),
            (
                "CardsTurnedUp",
                at(table, set=2, cards=[card("3S", None), card("3H", None)], rule="R-DECK40-5"),
            ),
        ],
    )
    assert table.state.common[-2:] == ("AS", "AH") and len(table.state.common) == 36 - 2 + 2
    for seat in (S1, S2, S3):  # 1 1 3 3: no solution either
        table.do("call_no_solution", seat)
    assert [on.card for on in table.state.table] == ["3S", "3H", "8S", "8H"]
    table.do("call_no_solution", S1)
    table.do("call_no_solution", S2)
    then(
        table.do("call_no_solution", S3)[:2],
        [
            ("NoSolutionCalled", at(table, seat="s3", returns=None, set=3, rule="R-DECK40-3")),
            (
                "NoSolutionAgreed",
                at(
                    table,
                    set=3,
                    reason="all_called",
                    solvable=True,
                    example=solve([3, 3, 8, 8])[0].ascii_expression,
                    rule="R-DECK40-7",
                ),
            ),
        ],
    )
    assert table.replayed() == table.state


def test_four_players_each_turn_up_and_return_one_card():
    """R-DECK40-1, R-DECK40-4: piles of ten, one card each; each returns his only card."""
    raw = deck40_options(4, ["1111", "2345"])
    table = Table(deck40, raw)
    deck = raw["deck"]
    started = table.do("start_game", DIRECTOR)
    assert dict(started[0].data)["piles"] == {f"s{i + 1}": deck[i::4] for i in range(4)}
    then(
        started[1:],
        [
            (
                "CardsTurnedUp",
                at(
                    table,
                    set=1,
                    cards=[card("AS", "s1"), card("AH", "s2"), card("AD", "s3"), card("AC", "s4")],
                    rule="R-DECK40-1",
                ),
            )
        ],
    )
    for seat in (S1, S2, S3):
        table.do("call_no_solution", seat)
    then(
        table.do("call_no_solution", S4),
        [
            ("NoSolutionCalled", at(table, seat="s4", returns="AC", set=1, rule="R-DECK40-3")),
            (
                "NoSolutionAgreed",
                at(
                    table,
                    set=1,
                    reason="all_called",
                    solvable=None,
                    example=None,
                    rule="R-DECK40-3",
                ),
            ),
            (
                "CardsReturned",
                at(
                    table,
                    set=1,
                    returns=[
                        {"card": "AS", "seat": "s1"},
                        {"card": "AH", "seat": "s2"},
                        {"card": "AD", "seat": "s3"},
                        {"card": "AC", "seat": "s4"},
                    ],
                    rule="R-DECK40-4",
                ),
            ),
            (
                "CardsTurnedUp",
                at(
                    table,
                    set=2,
                    cards=[card("2D", "s1"), card("3D", "s2"), card("4D", "s3"), card("5D", "s4")],
                    rule="R-DECK40-4",
                ),
            ),
        ],
    )
    assert table.state.cards_left() == dict.fromkeys(["s1", "s2", "s3", "s4"], 9)


def test_the_card_version_with_the_house_option_as_the_auditor_reads_it():
    """R-DECK40-6: no points; the loser takes the four cards under his pile; fewest left wins."""
    raw = deck40_options(2, ["3388", "2345"], scoring="cards", house_loser_takes=True)
    table = Table.started(deck40, raw)
    table.advance(4)
    then(
        table.do("call_24", S1, expression="8/(3-8/3)")[1:],
        [
            (
                "RoundWon",
                at(
                    table,
                    seat="s1",
                    cards=["3S", "3H", "8S", "8H"],
                    points=0,
                    after_no_solution=False,
                    taken_by="s2",
                    set=1,
                    rule="R-DECK40-6",
                ),
            ),
            (
                "CardsTurnedUp",
                at(
                    table,
                    set=2,
                    cards=[card("2D", "s1"), card("3D", "s1"), card("4D", "s2"), card("5D", "s2")],
                    rule="R-DECK40-1",
                ),
            ),
        ],
    )
    s2 = table.state.seat("s2")
    assert s2.won == () and s2.pile[-4:] == ("3S", "3H", "8S", "8H") and s2.score == 0
    assert table.state.seat("s1").won == ()  # the winner sets nothing aside: the loser took them
    table.advance(1)
    then(
        table.do("end_game", DIRECTOR),
        [
            (
                "GameEnded",
                at(
                    table,
                    reason="ended_by_director",
                    scoring="cards",
                    scores={"s1": 0, "s2": 0},
                    cards_left={"s1": 16, "s2": 20},
                    won={"s1": 0, "s2": 0},
                    winners=["s1"],  # fewest cards left
                    tie=False,
                    rule="R-DECK40-6",
                ),
            )
        ],
    )
    assert table.replayed() == table.state


def test_the_card_version_as_written_sets_the_won_cards_aside():
    """R-DECK40-6 without the house option: the winner puts the four cards aside, no points."""
    table = Table.started(deck40, deck40_options(2, ["3388"], scoring="cards"))
    then(
        table.do("call_24", S2, expression="8/(3-8/3)")[1:2],
        [
            (
                "RoundWon",
                at(
                    table,
                    seat="s2",
                    cards=["3S", "3H", "8S", "8H"],
                    points=0,
                    after_no_solution=False,
                    taken_by=None,
                    set=1,
                    rule="R-DECK40-6",
                ),
            )
        ],
    )
    assert table.state.seat("s2").won == ("3S", "3H", "8S", "8H")


def test_a_game_ended_before_its_start_is_a_tie_of_everybody():
    """R-DECK40-6: nothing dealt, nothing scored: every seat shares the best."""
    table = Table(deck40, deck40_options(3, []))
    then(
        table.do("end_game", DIRECTOR),
        [
            (
                "GameEnded",
                at(
                    table,
                    reason="ended_by_director",
                    scoring="simple",
                    scores={"s1": 0, "s2": 0, "s3": 0},
                    cards_left={"s1": 0, "s2": 0, "s3": 0},
                    won={"s1": 0, "s2": 0, "s3": 0},
                    winners=["s1", "s2", "s3"],
                    tie=True,
                    rule="R-DECK40-6",
                ),
            )
        ],
    )
    assert deck40.is_over(table.state) and table.state.end_reason == "ended_by_director"


def test_the_agreements_in_a_row_restart_with_a_won_set():
    """R-DECK40-4 (our decision): the game ends once more "no solution" agreements *in a row*
    than cards in play; a won set restarts the count. Cards in play: piles and table."""
    table = Table.started(deck40, deck40_options(2, ["1111", "3388"]))
    assert table.state.cards_in_play() == 40 and table.state.agreed_in_a_row == 0
    table.do("call_no_solution", S1)
    table.do("call_no_solution", S2)
    assert table.state.agreed_in_a_row == 1 and table.state.cards_in_play() == 40
    table.do("call_24", S1, expression="3 × 8 × 1 × 1")
    assert table.state.agreed_in_a_row == 0 and table.state.cards_in_play() == 36


def test_a_call_that_crossed_a_deal_records_nothing_and_the_next_call_is_judged_whole():
    """R-DECK40-2/3: calls name the set they answer (`set`); the one that names the set on
    the table is recorded exactly as one without; s1's "24!" and "no solution" for set 1,
    arriving after s2 won it, record nothing and change nothing; s1's call for set 2 is
    judged on set 2's cards, whole."""
    table = Table.started(deck40, deck40_options(2, ["3388", "4187"]))
    table.advance(2)
    then(
        table.do("call_24", S2, expression="8/(3-8/3)", set=1),
        [
            (
                "SolutionCalled",
                at(
                    table,
                    seat="s2",
                    expression="8/(3-8/3)",
                    ok=True,
                    reason="",
                    message="correct",
                    set=1,
                    rule="R-DECK40-2",
                ),
            ),
            (
                "RoundWon",
                at(
                    table,
                    seat="s2",
                    cards=["3S", "3H", "8S", "8H"],
                    points=1,
                    after_no_solution=False,
                    taken_by=None,
                    set=1,
                    rule="R-DECK40-3",
                ),
            ),
            (
                "CardsTurnedUp",
                at(
                    table,
                    set=2,
                    cards=[card("4C", "s1"), card("AC", "s1"), card("8C", "s2"), card("7C", "s2")],
                    rule="R-DECK40-1",
                ),
            ),
        ],
    )
    recorded, state = list(table.events), table.state
    table.advance(1)
    assert table.refused("call_24", S1, expression="8/(3-8/3)", set=1).code == "stale_set"
    assert table.refused("call_no_solution", S1, set=1).code == "stale_set"
    assert table.events == recorded and table.state == state
    then(
        table.do("call_no_solution", S2, returns="7C", set=2),
        [("NoSolutionCalled", at(table, seat="s2", returns="7C", set=2, rule="R-DECK40-3"))],
    )
    then(
        table.do("call_24", S1, expression="(8-4)*(7-1)", set=2)[:2],
        [
            (
                "SolutionCalled",
                at(
                    table,
                    seat="s1",
                    expression="(8-4)*(7-1)",
                    ok=True,
                    reason="",
                    message="correct",
                    set=2,
                    rule="R-DECK40-2",
                ),
            ),
            (
                "RoundWon",
                at(
                    table,
                    seat="s1",
                    cards=["4C", "AC", "8C", "7C"],
                    points=1,
                    after_no_solution=True,
                    taken_by=None,
                    set=2,
                    rule="R-DECK40-3",
                ),
            ),
        ],
    )
